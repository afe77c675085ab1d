package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/refreshlab/refreshlab/core/lab"
)

// crawlerState is what the crawler view shows: the repeat it plays, the
// cycle on screen and its numbers, raw (the data-value of each) and as
// written.
type crawlerState struct {
	State   string `json:"state"`
	Policy  string `json:"policy"`
	Repeat  string `json:"repeat"`
	Cycles  string `json:"cycles"`
	Cycle   string `json:"cycle"`
	Budget  string `json:"budget"`
	Playing bool   `json:"playing"`
	PlayOn  bool   `json:"playOn"` // the Play button is displayed
	Values  map[string]struct {
		Raw  string `json:"raw"`
		Text string `json:"text"`
	} `json:"values"`
}

const crawlerJS = `(() => {
  const s = document.querySelector('.crawler');
  if (!s) return null;
  const values = {};
  for (const k of ['change-ratio', 'freshness', 'mean-change-ratio', 'mean-freshness']) {
    const d = s.querySelector('.crawler-counts dd.' + k);
    if (d) values[k] = { raw: d.dataset.value, text: d.textContent };
  }
  const play = s.querySelector('.play');
  return { state: s.dataset.state || '', policy: s.dataset.policy || '', repeat: s.dataset.repeat || '', cycles: s.dataset.cycles || '',
    cycle: s.dataset.cycle || '', budget: s.dataset.budget || '', playing: s.dataset.playing === 'true',
    playOn: !!play && getComputedStyle(play).display !== 'none', values };
})()`

func (tb *tab) crawler() crawlerState {
	tb.t.Helper()
	c := evalJS[*crawlerState](tb, crawlerJS)
	if c == nil {
		tb.t.Fatal("no crawler view (.crawler) on the page")
	}
	return *c
}

// oneRepeat runs the spec the crawler view last traced with one repeat,
// through the page's own lab (POST /api/run), and returns its result.
func (tb *tab) oneRepeat() lab.Result {
	tb.t.Helper()
	body := evalJS[string](tb, `(async () => {
  const m = await import(new URL('js/api.js', document.querySelector('link[rel=stylesheet]').href.replace(/css\/lab\.css.*$/, '')).href);
  const spec = { ...window.__refreshLab.traceAsked.spec, repeats: 1 };
  const r = await m.post('/api/run', spec);
  return r.body;
})()`)
	var res lab.Result
	if err := json.Unmarshal([]byte(body), &res); err != nil {
		tb.t.Fatalf("POST /api/run with one repeat: %v (%.200s)", err, body)
	}
	return res
}

// number reads a raw value the view wrote: "" is null (no ChangeRatio).
func number(t *testing.T, raw string) float64 {
	t.Helper()
	if raw == "" {
		return math.NaN()
	}
	v, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		t.Fatalf("the view wrote %q for a number", raw)
	}
	return v
}

// reducedMotion makes the tab's media say prefers-reduced-motion: reduce.
func reducedMotion() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}},
		})
		return err
	})
}

// openCrawler opens path at w×h, waits for the panel and then, with the
// crawler view scrolled into view, for its trace.
func (e *env) openCrawler(t *testing.T, path string, w, h int64, before ...chromedp.Action[chromedp.Void]) *tab {
	t.Helper()
	tb := e.open(t, "")
	tb.do(chromedp.EmulateViewport(w, h))
	tb.do(before...)
	tb.do(chromedp.Navigate(Probed(e.url + path)))
	tb.waitRender(0)
	tb.waitFor("the crawler view", `!!document.querySelector('.crawler')`)
	evalJS[bool](tb, `(document.querySelector('.crawler').scrollIntoView(), true)`)
	tb.waitFor("the crawler's trace", `document.querySelector('.crawler').dataset.state === 'ready'`)
	return tb
}

// press focuses the crawler's button sel and presses Enter on it, as a
// keyboard user would.
func (tb *tab) press(sel string) {
	tb.t.Helper()
	tb.do(chromedp.Focus(chromedp.CSS(".crawler "+sel)), chromedp.KeyEvent(kb.Enter))
}

// TestBrowserCrawler plays the crawler view of the first lesson at a
// phone's and a desktop's size: it steps forward and back from the
// keyboard, plays and pauses, and at every cycle its ChangeRatio and
// freshness, and at the last their means, are those of the run of one
// repeat of the same spec (POST /api/run with repeats 1) to the last bit.
// It follows the panel's spec once a slider rests, asking for one trace,
// not one per press.
func TestBrowserCrawler(t *testing.T) {
	e := setup(t)
	for _, size := range []struct{ w, h int64 }{{390, 844}, {1280, 900}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			tb := e.openCrawler(t, lessonPath, size.w, size.h)
			c := tb.crawler()
			if c.Policy != "site-greedy" || c.Repeat != "0" || c.Cycle != "0" {
				t.Fatalf("the view opens on policy %q, repeat %q, cycle %q; want the lesson's site-greedy, repeat 0, cycle 0", c.Policy, c.Repeat, c.Cycle)
			}
			cycles, _ := strconv.Atoi(c.Cycles)
			res := tb.oneRepeat()
			var pr *lab.PolicyResult
			for i := range res.Policies {
				if res.Policies[i].Key() == c.Policy {
					pr = &res.Policies[i]
				}
			}
			if pr == nil || len(pr.Series[lab.MetricChangeRatio]) != cycles || cycles < 2 {
				t.Fatalf("the one-repeat run has no %s with the view's %d cycles", c.Policy, cycles)
			}
			same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
			check := func(cycle int) crawlerState {
				c := tb.crawler()
				if c.Cycle != strconv.Itoa(cycle) {
					t.Fatalf("the view shows cycle %s, want %d", c.Cycle, cycle)
				}
				cr, fr := number(t, c.Values["change-ratio"].Raw), number(t, c.Values["freshness"].Raw)
				wantCR, wantFr := pr.Series[lab.MetricChangeRatio][cycle].Mean, pr.Series[lab.MetricFreshness][cycle].Mean
				if !same(cr, wantCR) || !same(fr, wantFr) {
					t.Errorf("cycle %d: the view's ChangeRatio %v and freshness %v; the one-repeat run's %v and %v", cycle, cr, fr, wantCR, wantFr)
				}
				if want := strconv.FormatFloat(wantFr, 'f', 3, 64); c.Values["freshness"].Text != want {
					t.Errorf("cycle %d: freshness written %q, want %q", cycle, c.Values["freshness"].Text, want)
				}
				return c
			}
			check(0)
			for k := 1; k < cycles; k++ {
				tb.press(".forward")
				check(k)
			}
			last := tb.crawler()
			meanCR, meanFr := number(t, last.Values["mean-change-ratio"].Raw), number(t, last.Values["mean-freshness"].Raw)
			if !same(meanCR, pr.Metrics[lab.MetricChangeRatio].Mean) || !same(meanFr, pr.Metrics[lab.MetricFreshness].Mean) {
				t.Errorf("means over the %d cycles: ChangeRatio %v freshness %v; the run's %v and %v", cycles, meanCR, meanFr,
					pr.Metrics[lab.MetricChangeRatio].Mean, pr.Metrics[lab.MetricFreshness].Mean)
			}
			tb.press(".back")
			check(cycles - 2)
			tb.press(".back")
			check(cycles - 3)

			// Play from here at half speed, then pause after a cycle.
			if !last.PlayOn {
				t.Fatal("no Play button")
			}
			evalJS[bool](tb, `(() => { const s = document.querySelector('.crawler .speed select'); s.value = '0.5'; s.dispatchEvent(new Event('change')); return true; })()`)
			tb.press(".play")
			tb.waitFor("a cycle played", fmt.Sprintf(`document.querySelector('.crawler').dataset.cycle === '%d'`, cycles-2))
			if !tb.crawler().Playing {
				t.Error("not playing after Play")
			}
			tb.press(".play") // now Pause
			held := tb.crawler()
			time.Sleep(2 * time.Second)
			if now := tb.crawler(); held.Playing || now.Playing || now.Cycle != held.Cycle {
				t.Errorf("paused at cycle %s, then at cycle %s (playing %v)", held.Cycle, now.Cycle, now.Playing)
			}
			check(mustAtoi(t, held.Cycle))

			tb.shot(fmt.Sprintf("crawler-%dx%d", size.w, size.h), ".crawler")

			if size.w < 1000 {
				return
			}
			// The view follows the panel: three presses on the budget
			// slider, then one trace of the new spec once it rests.
			asked := evalJS[int](tb, `window.__refreshLab.traces`)
			renders := evalJS[int](tb, `window.__refreshLab.renders`)
			budget := mustAtoi(t, tb.crawler().Budget)
			id := evalJS[string](tb, `document.querySelector('#controls input[type=range]').id`)
			tb.do(chromedp.Focus(chromedp.ID(id)), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight))
			tb.waitRender(renders)
			evalJS[bool](tb, `(document.querySelector('.crawler').scrollIntoView(), true)`)
			tb.waitFor("the trace of the new budget", fmt.Sprintf(`document.querySelector('.crawler').dataset.state === 'ready' && document.querySelector('.crawler').dataset.budget !== '%d'`, budget))
			time.Sleep(800 * time.Millisecond) // any other trace would be asked by now
			if n := evalJS[int](tb, `window.__refreshLab.traces`); n != asked+1 {
				t.Errorf("%d traces asked for after three presses, want 1", n-asked)
			}
			if got, want := mustAtoi(t, tb.crawler().Budget), budget+3*2; got != want {
				t.Errorf("the trace's budget is %d after three steps of 2, want %d", got, want)
			}
		})
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%q is not a whole number", s)
	}
	return n
}

// TestBrowserCrawlerStill checks the view under prefers-reduced-motion:
// still frames, stepped only: no Play button, and nothing moves unasked.
func TestBrowserCrawlerStill(t *testing.T) {
	e := setup(t)
	tb := e.openCrawler(t, samplingPath, 390, 844, reducedMotion())
	c := tb.crawler()
	if c.PlayOn {
		t.Error("the Play button is shown under reduced motion")
	}
	if !evalJS[bool](tb, `!document.querySelector('.crawler .still-note').hidden`) {
		t.Error("no word that motion is reduced")
	}
	time.Sleep(1500 * time.Millisecond)
	if now := tb.crawler(); now.Cycle != c.Cycle || now.Playing {
		t.Errorf("the view moved on its own: cycle %s, then %s", c.Cycle, now.Cycle)
	}
}

// TestBrowserCrawlerSizes looks at the crawler view on each lesson that
// shows it and on the upload page, at a phone's, a tablet's and a
// desktop's width: it draws without spilling sideways, every group of
// pages has its label, and the screenshots are saved for a person to see.
func TestBrowserCrawlerSizes(t *testing.T) {
	e := setup(t)
	pages := []string{lessonPath, samplingPath, "/lessons/greedy-vs-proportional.html"}
	for _, path := range pages {
		for _, size := range []struct{ w, h int64 }{{360, 740}, {390, 844}, {768, 1024}, {1280, 900}} {
			t.Run(fmt.Sprintf("%s/%dx%d", path, size.w, size.h), func(t *testing.T) {
				tb := e.openCrawler(t, path, size.w, size.h)
				wide := evalJS[[]string](tb, `[...document.querySelectorAll('.crawler, .crawler *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).map((e) => e.tagName.toLowerCase() + '.' + e.className)`)
				if len(wide) > 0 {
					t.Errorf("parts of the crawler view reach past the screen's right edge: %q", wide)
				}
				groups := evalJS[int](tb, `document.querySelectorAll('.crawler-group canvas[role=img][aria-label]').length`)
				labels := evalJS[int](tb, `[...document.querySelectorAll('.crawler-group figcaption')].filter((f) => f.textContent.trim()).length`)
				if groups == 0 || labels != groups {
					t.Errorf("%d groups drawn, %d labelled", groups, labels)
				}
				small := evalJS[[]string](tb, `[...document.querySelectorAll('.crawler *')].filter((e) => e.childElementCount === 0 && e.textContent.trim() && parseFloat(getComputedStyle(e).fontSize) < 12).map((e) => e.textContent.trim().slice(0, 30))`)
				if len(small) > 0 {
					t.Errorf("text under 12 px: %q", small)
				}
				name := fmt.Sprintf("crawler-%s-%dx%d", path[len("/lessons/"):len(path)-len(".html")], size.w, size.h)
				tb.shot(name, ".crawler")
			})
		}
	}
	t.Run("upload", func(t *testing.T) {
		tb := e.open(t, "")
		tb.do(chromedp.EmulateViewport(390, 844), chromedp.Navigate(Probed(e.url+uploadPath)))
		tb.waitFor("the examples", `!!document.querySelector('#examples button.example')`)
		tb.do(chromedp.Click(chromedp.CSS("#examples button.example")))
		tb.waitRender(0)
		tb.waitFor("the crawler view", `!!document.querySelector('.crawler')`)
		evalJS[bool](tb, `(document.querySelector('.crawler').scrollIntoView(), true)`)
		tb.waitFor("the crawler's trace", `document.querySelector('.crawler').dataset.state === 'ready'`)
		c := tb.crawler()
		if c.Policy == "" || mustAtoi(t, c.Cycles) != 21 {
			t.Errorf("the upload's crawler view: policy %q, %s cycles; want the log's 21", c.Policy, c.Cycles)
		}
		options := evalJS[int](tb, `document.querySelector('.crawler select').options.length`)
		if refresh := len(refreshIDs()); options != refresh {
			t.Errorf("the policy menu offers %d policies, want the upload's %d", options, refresh)
		}
		tb.shot("crawler-upload-390x844", ".crawler")
	})
}

// TestBrowserCrawlerLargeLog reads on the upload page a log too large to
// show every page of (1,500 pages over 400 days, more page-days than a
// trace holds): the crawler view shows whole sites, fewer pages than the
// log has, says so, and still counts every page.
func TestBrowserCrawlerLargeLog(t *testing.T) {
	e := setup(t)
	path := writeFile(t, "large-quiet-log.csv", func(w io.Writer) error {
		_, err := WriteQuietCrawlLog(w, 1500, 60, 400, 11)
		return err
	})
	tb := e.open(t, "")
	tb.do(chromedp.EmulateViewport(1280, 900), chromedp.Navigate(Probed(e.url+uploadPath)))
	tb.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{path}))
	tb.waitFor("the summary", `!document.getElementById('summary').hidden`)
	tb.waitRender(0)
	tb.waitFor("the crawler view", `!!document.querySelector('.crawler')`)
	evalJS[bool](tb, `(document.querySelector('.crawler').scrollIntoView(), true)`)
	tb.waitFor("the crawler's trace", `document.querySelector('.crawler').dataset.state === 'ready'`)
	c := tb.crawler()
	pages := mustAtoi(t, evalJS[string](tb, `document.querySelector('.crawler').dataset.pages`))
	asked := evalJS[int](tb, `window.__refreshLab.traceAsked.maxPages`)
	if pages == 0 || pages > asked || asked*mustAtoi(t, c.Cycles) > lab.MaxTraceCells {
		t.Errorf("the view shows %d pages of 1,500 over %s days, having asked for at most %d", pages, c.Cycles, asked)
	}
	shown := evalJS[string](tb, `document.querySelector('.crawler-shown').textContent`)
	if !strings.Contains(shown, "of 1,500 pages") || !strings.Contains(shown, "the counts are of every page") {
		t.Errorf("the view says of the pages shown: %q", shown)
	}
	fresh := evalJS[string](tb, `[...document.querySelectorAll('.crawler-counts dt')].find((d) => d.textContent.startsWith('Fresh after')).nextElementSibling.textContent`)
	if !strings.HasSuffix(fresh, "of 1,500 pages") {
		t.Errorf("fresh after the downloads: %q, want a count of all 1,500 pages", fresh)
	}
	tb.shot("crawler-upload-large-1280x900", ".crawler")
}

// refreshIDs lists the catalog's refresh policies, which the upload page runs.
func refreshIDs() []string {
	var out []string
	for _, d := range lab.Policies() {
		if d.Kind == lab.KindRefresh {
			out = append(out, d.ID)
		}
	}
	return out
}
