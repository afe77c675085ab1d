// Package e2e drives the lab in a real browser, Debian's Chromium under
// chromedp, for the browser tests, the screenshot tool and the interaction
// benchmark.
package e2e

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"

	"github.com/chromedp/chromedp"
)

// Chromium returns the path of the Chromium binary: $CHROMIUM (which must
// be an executable), or the first of chromium and chromium-browser on the
// PATH.
func Chromium() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return exec.LookPath(p)
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return exec.LookPath("chromium")
}

// NewBrowser starts headless Chromium with the flags this machine needs (no
// sandbox as root, no background networking on a closed network, a fresh
// profile) and returns a context for chromedp.Run.
func NewBrowser(parent context.Context) (context.Context, context.CancelFunc) {
	path, _ := Chromium()
	dir, _ := os.MkdirTemp("", "refresh-lab-chromium-")
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(dir),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(parent, opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	return ctx, func() {
		cancelCtx()
		cancelAlloc()
		os.RemoveAll(dir)
	}
}

// Console gathers what a page writes to its console.
type Console struct {
	mu      sync.Mutex
	msgs    []chromedp.ConsoleMessage
	allowed []string
}

// Allow makes errors whose text contains s expected ones, which Errors
// leaves out: a browser's own report of a 404 that a test asks for, say.
func (c *Console) Allow(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.allowed = append(c.allowed, s)
}

// Collect starts gathering the console messages of the tab in ctx.
func Collect(ctx context.Context) *Console {
	c := &Console{}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			c.mu.Lock()
			c.msgs = append(c.msgs, m)
			c.mu.Unlock()
		}
	}()
	return c
}

// Messages returns the messages so far.
func (c *Console) Messages() []chromedp.ConsoleMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]chromedp.ConsoleMessage(nil), c.msgs...)
}

// Errors returns the messages that are errors or uncaught exceptions.
func (c *Console) Errors() []chromedp.ConsoleMessage {
	c.mu.Lock()
	allowed := slices.Clone(c.allowed)
	c.mu.Unlock()
	var out []chromedp.ConsoleMessage
	for _, m := range c.Messages() {
		if slices.ContainsFunc(allowed, func(s string) bool { return strings.Contains(m.Text, s) }) {
			continue
		}
		if m.IsException() || m.Type == chromedp.ConsoleError || m.Type == "error" || m.Type == "assert" {
			out = append(out, m)
		}
	}
	return out
}
