// Command shot opens a lab page in headless Chromium, waits until its
// experiment has drawn, prints the page's console messages and saves a
// full-page screenshot: the quickest way to look at what a change did.
//
//	go run ./site/e2e/shot -url http://localhost:9900/lessons/sampling-a-site.html -out /tmp/page.png
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/refreshlab/refreshlab/site/e2e"
)

func main() {
	url := flag.String("url", "http://localhost:9900/", "page to open")
	out := flag.String("out", "page.png", "PNG to write")
	width := flag.Int("width", 1400, "viewport width")
	height := flag.Int("height", 900, "viewport height")
	wait := flag.String("wait", "window.__refreshLab && window.__refreshLab.renders > 0", "JavaScript condition to wait for (empty: none)")
	full := flag.Bool("full", true, "capture the full page")
	flag.Parse()

	ctx, cancel := e2e.NewBrowser(context.Background())
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	console := e2e.Collect(ctx)
	steps := []chromedp.Action[chromedp.Void]{
		chromedp.EmulateViewport(int64(*width), int64(*height)),
		chromedp.Navigate(*url),
	}
	if *wait != "" {
		steps = append(steps, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.Poll[bool](*wait, chromedp.WithPollingTimeout(45*time.Second))(ctx, t)
			return err
		}))
	}
	if err := chromedp.Do(ctx, steps...); err != nil {
		fail(err)
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

func fail(err error) {
	fmt.Fprintln(os.Stderr, "shot:", err)
	os.Exit(1)
}
