// Command shot opens a lab page in headless Chromium, waits until its
// experiment has drawn, prints the page's console messages and saves a
// full-page screenshot: the quickest way to look at what a change did.
// With -slider and -press it first steps that slider with the arrow key,
// a pause after each redraw, as a learner would. With -click it first
// clicks an element, such as the upload page's example log. With -pdf it
// prints the page instead, as the browser's Print does (the print style
// sheet, A4), once it has drawn: a lesson as a handout.
//
//	go run ./site/e2e/shot -url http://localhost:9900/lessons/naive-estimate.html -pdf /tmp/handout.pdf
//
//	go run ./site/e2e/shot -url http://localhost:9900/upload.html -click '#example' -wait "!document.getElementById('report').hidden" -out /tmp/report.png
//
//	go run ./site/e2e/shot -url http://localhost:9900/lessons/sampling-a-site.html -out /tmp/page.png
//	go run ./site/e2e/shot -url http://localhost:9900/lessons/clustering-pages.html -slider '^Downloads' -press 3 -out /tmp/pressed.png
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/refreshlab/refreshlab/site/e2e"
)

func main() {
	url := flag.String("url", "http://localhost:9900/", "page to open")
	out := flag.String("out", "page.png", "PNG to write")
	width := flag.Int("width", 1400, "viewport width")
	height := flag.Int("height", 900, "viewport height")
	wait := flag.String("wait", "window.__refreshLab && window.__refreshLab.renders > 0", "JavaScript condition to wait for (empty: none)")
	full := flag.Bool("full", true, "capture the full page")
	slider := flag.String("slider", "", "regular expression matching the label of the slider to press on")
	press := flag.Int("press", 0, "arrow-right presses on -slider, each -pause after the redraw of the one before")
	pause := flag.Duration("pause", 500*time.Millisecond, "pause after each redraw before the next press")
	click := flag.String("click", "", "CSS selector of an element to click once the page has loaded, before waiting (the upload page's example, say)")
	pdf := flag.String("pdf", "", "print the page to this PDF (A4) instead of taking a screenshot")
	flag.Parse()

	ctx, cancel := e2e.NewBrowser(context.Background())
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	console := e2e.Collect(ctx)
	steps := []chromedp.Action[chromedp.Void]{
		chromedp.EmulateViewport(int64(*width), int64(*height)),
		chromedp.Navigate(e2e.Probed(*url)), // the probe tells when the page has drawn
	}
	if *click != "" {
		steps = append(steps, chromedp.Click(chromedp.CSS(*click)))
	}
	if *wait != "" {
		steps = append(steps, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.Poll[bool](*wait, chromedp.WithPollingTimeout(45*time.Second))(ctx, t)
			return err
		}))
	}
	if *press > 0 {
		steps = append(steps, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			return pressOn(ctx, t, console, *slider, *press, *pause)
		}))
	}
	if err := chromedp.Do(ctx, steps...); err != nil {
		fail(err)
	}
	if *pdf != "" {
		b, err := chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) ([]byte, error) {
			r, err := cdp.Call(ctx, t, page.PrintToPDF, page.PrintToPDFParams{PaperWidth: 8.27, PaperHeight: 11.69, PreferCSSPageSize: ptr(true)})
			if err != nil {
				return nil, err
			}
			return r.Data, nil
		})
		if err == nil {
			err = os.WriteFile(*pdf, b, 0o644)
		}
		if err != nil {
			fail(err)
		}
		fmt.Println("wrote", *pdf)
		return
	}
	var png []byte
	var err error
	if *full {
		png, err = chromedp.Run(ctx, chromedp.FullScreenshot(100))
	} else {
		png, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
	}
	if err != nil {
		fail(err)
	}
	for _, m := range console.Messages() {
		fmt.Println("console:", m)
	}
	if err := os.WriteFile(*out, png, 0o644); err != nil {
		fail(err)
	}
	fmt.Println("wrote", *out)
}

// pressOn focuses the slider whose label matches label and presses the
// right arrow key presses times, each pause after the redraw of the one
// before: the last press's redraw is what the screenshot shows.
func pressOn(ctx context.Context, t *chromedp.Target, console *e2e.Console, label string, presses int, pause time.Duration) error {
	id, err := e2e.Eval[string](ctx, fmt.Sprintf(`(() => {
  const r = %s;
  return r ? r.id : '';
})()`, e2e.SliderJS(label)))
	if err != nil {
		return err
	}
	if id == "" {
		return fmt.Errorf("no slider labelled /%s/", label)
	}
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.ID(id))); err != nil {
		return err
	}
	for i := range presses {
		if i > 0 {
			time.Sleep(pause)
		}
		p, err := e2e.ReadProbe(ctx)
		if err != nil {
			return err
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
			return err
		}
		// The press's own drawing, a preview or not (e2e.WaitRender
		// would wait for the full run after it).
		drawn := fmt.Sprintf(`window.__refreshLab.renders > %d && !document.getElementById('experiment').hasAttribute('aria-busy')`, p.Renders)
		if _, err := chromedp.Poll[bool](drawn, chromedp.WithPollingTimeout(30*time.Second))(ctx, t); err != nil {
			return fmt.Errorf("press %d: no redraw: %w (console:%s)", i+1, err, e2e.FormatMessages(console.Messages()))
		}
	}
	return nil
}

func ptr[T any](v T) *T { return &v }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "shot:", err)
	os.Exit(1)
}
