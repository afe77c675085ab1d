package e2e

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/refreshlab/refreshlab/core/synth"
)

// Request is one HTTP request a Recorder saw: what crossed the network.
type Request struct {
	Method string
	Path   string
	Query  string
	Body   int64 // bytes of request body
	Status int
}

func (r Request) String() string {
	q := ""
	if r.Query != "" {
		q = "?" + r.Query
	}
	if len(q) > 60 {
		q = q[:60] + "…"
	}
	return fmt.Sprintf("%s %s%s (%d-byte body) → %d", r.Method, r.Path, q, r.Body, r.Status)
}

// Recorder is an http.Handler that records every request it passes on, so
// tests can assert what the browser sent to the server (an upload must
// never leave the tab).
type Recorder struct {
	next http.Handler
	mu   sync.Mutex
	reqs []Request
}

// Record wraps h in a Recorder.
func Record(h http.Handler) *Recorder { return &Recorder{next: h} }

type countingBody struct {
	io.ReadCloser
	n int64
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.n += int64(n)
	return n, err
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(p)
}

// ServeHTTP serves r through the wrapped handler and records it, counting
// the whole body even where the handler did not read it.
func (rec *Recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body := &countingBody{ReadCloser: r.Body}
	r.Body = body
	sw := &statusWriter{ResponseWriter: w}
	rec.next.ServeHTTP(sw, r)
	io.Copy(io.Discard, body)
	rec.mu.Lock()
	rec.reqs = append(rec.reqs, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Body: body.n, Status: sw.status})
	rec.mu.Unlock()
}

// Mark returns a position in the record, for Since.
func (rec *Recorder) Mark() int {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return len(rec.reqs)
}

// Since returns the requests recorded after mark.
func (rec *Recorder) Since(mark int) []Request {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]Request(nil), rec.reqs[mark:]...)
}

// NewTab opens a new tab in the browser of browser (a context from
// NewBrowser that has run once) and returns its context.
func NewTab(browser context.Context) (context.Context, context.CancelFunc, error) {
	ctx, cancel := chromedp.NewContext(browser)
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		return nil, nil, err
	}
	return ctx, cancel, nil
}

// Probed returns url with the query flag that turns the page's probe on
// (window.__refreshLab, which the tests and make bench read), and with
// ?off= set to the latency mechanisms to switch off, if any
// (experiment.js).
func Probed(url string, off ...string) string {
	u, err := neturl.Parse(url)
	if err != nil {
		return url
	}
	q := u.Query()
	q.Set("probe", "1")
	if len(off) > 0 {
		q.Set("off", strings.Join(off, ","))
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// Eval evaluates a JavaScript expression in the tab of ctx, awaiting it if
// it is a promise, and decodes its value into a T.
func Eval[T any](ctx context.Context, js string) (T, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
}

// Probe is the state of a page's experiment panel, read from
// window.__refreshLab (the page's own probe) and the panel's DOM.
type Probe struct {
	Renders int       `json:"renders"`
	Timings []float64 `json:"timings"` // ms from an input event to the redrawn chart
	Busy    bool      `json:"busy"`    // a run is under way (aria-busy)
	Preview bool      `json:"preview"` // the drawing is a preview with fewer repeats; the full run follows
	Status  string    `json:"status"`  // the panel's status line
	Error   string    `json:"error"`   // the panel's error box, when shown
	Engine  string    `json:"engine"`  // the engine label
	URL     string    `json:"url"`
}

// ProbeJS reads a Probe, one task later: the page writes a drawn spec into
// its address in a task queued by the frame that drew it (experiment.js
// keepSpec), which runs first.
const ProbeJS = `new Promise((resolve) => setTimeout(() => resolve((() => {
  const p = window.__refreshLab || { renders: 0, timings: [] };
  const root = document.getElementById('experiment');
  const err = root && root.querySelector('#error');
  const st = root && root.querySelector('#status');
  const eng = document.getElementById('engine');
  return {
    renders: p.renders, timings: p.timings,
    busy: !!root && root.hasAttribute('aria-busy'),
    preview: !!root && root.classList.contains('preview'),
    status: st ? st.textContent : '',
    error: err && !err.hidden ? err.textContent : '',
    engine: eng ? eng.textContent : '',
    url: location.href,
  };
})()), 0))`

// SliderJS is a JavaScript expression for the experiment's first slider
// whose label matches the regular expression label, or undefined.
func SliderJS(label string) string {
	return fmt.Sprintf(`[...document.querySelectorAll('#controls input[type=range]')].find((i) => i.labels.length && new RegExp(%q).test(i.labels[0].textContent))`, label)
}

// ReadProbe reads the Probe of the tab in ctx.
func ReadProbe(ctx context.Context) (Probe, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[Probe](ProbeJS, chromedp.EvalAwaitPromise))
}

// WaitRender waits until the panel has drawn more than after times, is
// idle (no run under way) and shows the full run rather than a preview
// (which it refines after a pause), polling every few milliseconds. It gives up
// early, saying why, when the page throws (console may be nil) or shows an
// error, and after timeout.
func WaitRender(ctx context.Context, console *Console, after int, timeout time.Duration) (Probe, error) {
	deadline := time.Now().Add(timeout)
	var p Probe
	var err error
	for {
		p, err = ReadProbe(ctx)
		if err == nil && p.Renders > after && !p.Busy && !p.Preview {
			return p, nil
		}
		if console != nil {
			if errs := console.Errors(); len(errs) > 0 {
				return p, fmt.Errorf("the page failed while drawing (renders %d, status %q, error box %q): %s", p.Renders, p.Status, p.Error, FormatMessages(errs))
			}
		}
		if err == nil && p.Error != "" && !p.Busy {
			return p, fmt.Errorf("the panel shows an error instead of drawing (renders %d): %s", p.Renders, p.Error)
		}
		if time.Now().After(deadline) {
			if err != nil {
				return p, fmt.Errorf("no render within %v: %w", timeout, err)
			}
			return p, fmt.Errorf("no render within %v: renders %d (want > %d), busy %v, status %q, engine %q", timeout, p.Renders, after, p.Busy, p.Status, p.Engine)
		}
		select {
		case <-ctx.Done():
			return p, ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// FormatMessages lists console messages one per line, with where they
// came from.
func FormatMessages(msgs []chromedp.ConsoleMessage) string {
	var b strings.Builder
	for _, m := range msgs {
		fmt.Fprintf(&b, "\n\t%s", m.String())
		if m.URL != "" {
			fmt.Fprintf(&b, " (%s:%d:%d)", m.URL, m.Line+1, m.Column+1)
		}
	}
	return b.String()
}

// LogShape is what WriteCrawlLog wrote.
type LogShape struct {
	Sites, Pages, Rows, Cycles int
}

// WriteCrawlLog writes a synthetic crawl log in the upload format (header
// page,site,time,changed): sites × pagesPerSite pages, each crawled once a
// day for crawls days starting 2024-05-01, changed 0 on a page's first
// crawl and then 0 or 1 by a fixed pattern (site i's pages change on about
// (i+1) days in sites+1). crawls days make crawls-1 cycles.
func WriteCrawlLog(w io.Writer, sites, pagesPerSite, crawls int) (LogShape, error) {
	if sites < 1 || pagesPerSite < 1 || crawls < 2 {
		return LogShape{}, errors.New("WriteCrawlLog: need a site, a page and two crawls")
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.WriteString("page,site,time,changed\n")
	start := time.Date(2024, 5, 1, 0, 30, 0, 0, time.UTC)
	times := make([]string, crawls)
	for d := range times {
		times[d] = start.AddDate(0, 0, d).Format(time.RFC3339)
	}
	rows := 0
	for day := 0; day < crawls; day++ {
		for s := 0; s < sites; s++ {
			host := fmt.Sprintf("site%d.example", s)
			for p := 0; p < pagesPerSite; p++ {
				changed := 0
				if day > 0 && (p*7+day*3+s)%(sites+1) <= s {
					changed = 1
				}
				fmt.Fprintf(bw, "https://%s/p%d,%s,%s,%d\n", host, p, host, times[day], changed)
				rows++
			}
		}
	}
	return LogShape{Sites: sites, Pages: sites * pagesPerSite, Rows: rows, Cycles: crawls - 1}, bw.Flush()
}

// WriteQuietCrawlLog writes synth.WriteQuietCrawlLog's log of mostly quiet
// pages and says its shape.
func WriteQuietCrawlLog(w io.Writer, pages, sites, days int, seed uint64) (LogShape, error) {
	rows, used, err := synth.WriteQuietCrawlLog(w, pages, sites, days, seed)
	return LogShape{Sites: used, Pages: pages, Rows: rows, Cycles: days - 1}, err
}
