package e2e

// The browser tests: the built site (site/dist) served in-process by the
// same handler as the native server, driven in headless Chromium with real
// key events and real file uploads. They run only with REFRESHLAB_E2E=1
// (make test-browser), so that go test ./... stays fast; once asked for, a
// missing Chromium or site is a failure, not a skip. Every test opens its
// own tab and fails on any console error or uncaught exception in it.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/refreshlab/refreshlab/core/api"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/wasm/handler"
)

const (
	lessonPath   = "/lessons/why-refresh-policies-matter.html"
	samplingPath = "/lessons/sampling-a-site.html"
	uploadPath   = "/upload.html"

	// tabTimeout bounds one test's tab; renderTimeout one wait for a draw.
	tabTimeout    = 60 * time.Second
	renderTimeout = 30 * time.Second
)

// env is what the browser tests share: one in-process server (recording
// every request) and one browser; each test opens its own tab.
type env struct {
	url     string
	dist    string // the built site
	rec     *Recorder
	browser context.Context
	shots   string
}

var (
	envOnce sync.Once
	shared  *env
	envErr  error
	closers []func()
)

func TestMain(m *testing.M) {
	code := m.Run()
	for i := len(closers) - 1; i >= 0; i-- {
		closers[i]()
	}
	os.Exit(code)
}

// setup skips without REFRESHLAB_E2E=1 and otherwise returns the shared
// environment, starting it on first use.
func setup(t *testing.T) *env {
	t.Helper()
	if os.Getenv("REFRESHLAB_E2E") != "1" {
		t.Skip("browser test: run `make test-browser` (or `make site wasm` then REFRESHLAB_E2E=1 go test -run Browser ./site/e2e/) to run it in headless Chromium")
	}
	envOnce.Do(func() { shared, envErr = start() })
	if envErr != nil {
		t.Fatal(envErr)
	}
	return shared
}

func start() (*env, error) {
	dist := os.Getenv("REFRESHLAB_DIST")
	if dist == "" {
		dist = filepath.Join("..", "dist")
	}
	dist, _ = filepath.Abs(dist)
	for _, f := range []string{"lab.wasm", "js/wasm_exec.js", "js/api.js", "upload.html", lessonPath[1:], samplingPath[1:]} {
		if _, err := os.Stat(filepath.Join(dist, f)); err != nil {
			return nil, fmt.Errorf("the built site at %s is incomplete (%v): run `make site wasm`, or set REFRESHLAB_DIST to a built site", dist, err)
		}
	}
	if _, err := Chromium(); err != nil {
		return nil, fmt.Errorf("no Chromium for the browser tests (%v): apt-get install chromium, or set $CHROMIUM", err)
	}
	rt := api.New(lab.New())
	// A route with a bug, an index out of range, for TestBrowserRobustness.
	rt.Handle("POST", "/api/test/panic", func(req api.Request) api.Response {
		return api.Response{Status: int(req.Body[len(req.Body)])}
	})
	rec := Record(handler.New(rt, os.DirFS(dist)))
	srv := httptest.NewServer(rec)
	closers = append(closers, srv.Close)
	browser, cancel := NewBrowser(context.Background())
	closers = append(closers, cancel)
	if err := chromedp.Do(browser); err != nil {
		return nil, fmt.Errorf("starting Chromium: %v", err)
	}
	shots := os.Getenv("REFRESHLAB_SCREENSHOTS")
	if shots == "" {
		shots = "screenshots"
	}
	shots, _ = filepath.Abs(shots)
	if err := os.MkdirAll(shots, 0o755); err != nil {
		return nil, err
	}
	return &env{url: srv.URL, dist: dist, rec: rec, browser: browser, shots: shots}, nil
}

// tab is one test's browser tab with its console.
type tab struct {
	t       *testing.T
	ctx     context.Context
	console *Console
	env     *env
}

// open opens a tab at path (none when empty) and, when the test ends,
// fails it on any console error or uncaught exception, then closes it.
func (e *env) open(t *testing.T, path string) *tab {
	t.Helper()
	if path == "" {
		return e.openURL(t, "")
	}
	return e.openURL(t, e.url+path)
}

// openURL is open at a whole URL (another server's).
func (e *env) openURL(t *testing.T, url string) *tab {
	t.Helper()
	ctx, cancel, err := NewTab(e.browser)
	if err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	ctx, cancelTimeout := context.WithTimeout(ctx, tabTimeout)
	tb := &tab{t: t, ctx: ctx, console: Collect(ctx), env: e}
	t.Cleanup(func() {
		if shown, err := Eval[[]string](ctx, hiddenShownJS); err == nil && len(shown) > 0 {
			t.Errorf("elements marked hidden are still displayed (a CSS display rule overrides the hidden attribute): %q", shown)
		}
		if errs := tb.console.Errors(); len(errs) > 0 {
			t.Errorf("console errors or uncaught exceptions in the tab:%s", FormatMessages(errs))
		}
		cancelTimeout()
		cancel()
	})
	tb.do(chromedp.EmulateViewport(1400, 900))
	if url != "" {
		tb.do(chromedp.Navigate(Probed(url)))
	}
	return tb
}

// hiddenShownJS lists the elements that have the hidden attribute and are
// displayed all the same.
const hiddenShownJS = `[...document.querySelectorAll('[hidden]')]
  .filter((e) => getComputedStyle(e).display !== 'none')
  .map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + e.className : ''))`

func (tb *tab) do(steps ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, steps...); err != nil {
		tb.t.Fatalf("%v (console:%s)", err, FormatMessages(tb.console.Messages()))
	}
}

// evalJS evaluates js in tb's page (awaiting a promise) into a T.
func evalJS[T any](tb *tab, js string) T {
	tb.t.Helper()
	v, err := Eval[T](tb.ctx, js)
	if err != nil {
		tb.t.Fatalf("evaluating %.80q: %v", js, err)
	}
	return v
}

// waitRender waits for the experiment panel to draw more than after times.
func (tb *tab) waitRender(after int) Probe {
	tb.t.Helper()
	p, err := WaitRender(tb.ctx, tb.console, after, renderTimeout)
	if err != nil {
		tb.t.Fatal(err)
	}
	return p
}

// waitFor polls the JavaScript condition cond until it is true, failing
// early if the page throws.
func (tb *tab) waitFor(what, cond string) {
	tb.t.Helper()
	deadline := time.Now().Add(renderTimeout)
	for {
		ok, err := Eval[bool](tb.ctx, cond)
		if err == nil && ok {
			return
		}
		if errs := tb.console.Errors(); len(errs) > 0 {
			tb.t.Fatalf("waiting for %s, the page failed:%s", what, FormatMessages(errs))
		}
		if time.Now().After(deadline) {
			p, _ := ReadProbe(tb.ctx)
			tb.t.Fatalf("waiting for %s: not within %v (last error %v; panel: %+v)", what, renderTimeout, err, p)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// shot saves a screenshot named name.png: of the element sel, or of the
// full page when sel is empty.
func (tb *tab) shot(name, sel string) {
	tb.t.Helper()
	var png []byte
	var err error
	if sel == "" {
		png, err = chromedp.Run(tb.ctx, chromedp.FullScreenshot(100))
	} else {
		png, err = chromedp.Run(tb.ctx, chromedp.Screenshot(chromedp.CSS(sel)))
	}
	if err != nil {
		tb.t.Errorf("screenshot %s: %v", name, err)
		return
	}
	path := filepath.Join(tb.env.shots, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		tb.t.Errorf("screenshot %s: %v", name, err)
		return
	}
	tb.t.Logf("screenshot: %s", path)
}

// numbers is the experiment's readouts table (#readouts table.numbers).
type numbers struct {
	Text string   `json:"text"`
	Head []string `json:"head"`
	Rows []struct {
		Name  string   `json:"name"`
		Cells []string `json:"cells"`
		Nums  []string `json:"nums"`
		Exact []string `json:"exact"` // per column, the exact expectation shown, or ""
	} `json:"rows"`
}

// col returns the index in a row's Nums of the column whose heading starts
// with name.
func (n *numbers) col(t *testing.T, name string) int {
	t.Helper()
	for i, h := range n.Head {
		if i > 0 && strings.HasPrefix(h, name) {
			return i - 1
		}
	}
	t.Fatalf("the numbers table has no column %q: %q", name, n.Head)
	return -1
}

const numbersJS = `(() => {
  const t = document.querySelector('#readouts table.numbers');
  if (!t) return null;
  const first = (e) => (e && e.firstChild ? e.firstChild.textContent.trim() : '');
  return {
    text: t.innerText,
    head: [...t.querySelectorAll('thead th')].map(first),
    rows: [...t.querySelectorAll('tbody tr')].map((tr) => ({
      name: first(tr.querySelector('th')),
      cells: [...tr.querySelectorAll('td')].map((td) => td.textContent.trim()),
      nums: [...tr.querySelectorAll('td .num')].map((s) => s.textContent.trim()),
      exact: [...tr.querySelectorAll('td')].map((td) => { const x = td.querySelector('.exact-value'); return x ? x.textContent.trim() : ''; }),
    })),
  };
})()`

func (tb *tab) numbers() *numbers {
	tb.t.Helper()
	n := evalJS[*numbers](tb, numbersJS)
	if n == nil {
		tb.t.Fatal("no numbers table (#readouts table.numbers) on the page")
	}
	return n
}

// chart is one chart's <svg> as the page shows it.
type chart struct {
	SVG    bool   `json:"svg"`
	Role   string `json:"role"`
	Title  string `json:"title"`
	Desc   string `json:"desc"`
	Markup string `json:"markup"`
}

const chartsJS = `[...document.querySelectorAll('#charts figure.chart')].map((f) => {
  const s = f.querySelector(':scope > svg');
  if (!s) return { svg: false, markup: f.innerHTML.slice(0, 300) };
  const title = s.querySelector(':scope > title');
  const desc = s.querySelector(':scope > desc');
  return { svg: true, role: s.getAttribute('role') || '', title: title ? title.textContent : '', desc: desc ? desc.textContent : '', markup: s.outerHTML };
})`

func (tb *tab) charts() []chart { tb.t.Helper(); return evalJS[[]chart](tb, chartsJS) }

// urlSpec is the part of the spec in the page's address (?spec=) the tests
// read.
type urlSpec struct {
	Budget   int                 `json:"budget"`
	Seed     int                 `json:"seed"`
	Repeats  int                 `json:"repeats"`
	Dataset  struct{ ID string } `json:"dataset"`
	Policies []struct {
		ID string `json:"id"`
	} `json:"policies"`
}

func (tb *tab) urlSpec() urlSpec {
	tb.t.Helper()
	raw := tb.addressSpec()
	if raw == "" {
		tb.t.Fatal("the page's address has no ?spec=")
	}
	var s urlSpec
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		tb.t.Fatalf("the address's spec %q: %v", raw, err)
	}
	return s
}

// addressSpec returns the spec in the page's address (?spec=), or "". The
// page writes it in a task queued by the frame that drew the spec
// (experiment.js keepSpec): reading it one task later finds it there.
func (tb *tab) addressSpec() string {
	tb.t.Helper()
	return evalJS[string](tb, `new Promise((resolve) => setTimeout(() => resolve(new URL(location.href).searchParams.get('spec') || ''), 0))`)
}

const slidersJS = `[...document.querySelectorAll('#controls input[type=range], #controls input[type=number]')].map((i) => i.value)`

// TestBrowserLessonLoads opens the first lesson and checks what it draws:
// one row of real numbers per policy of its spec, accessible charts, and
// the WebAssembly engine.
func TestBrowserLessonLoads(t *testing.T) {
	e := setup(t)
	tb := e.open(t, lessonPath)
	tb.waitRender(0)

	policies := evalJS[int](tb, `JSON.parse(document.getElementById('lesson-config').textContent).spec.policies.length`)
	if policies != 6 {
		t.Errorf("the lesson's spec has %d policies, want 6", policies)
	}
	n := tb.numbers()
	if len(n.Rows) != policies {
		t.Errorf("the numbers table has %d rows, want one per policy (%d):\n%s", len(n.Rows), policies, n.Text)
	}
	for _, r := range n.Rows {
		if r.Name == "" {
			t.Errorf("a row has no policy name: %q", r.Cells)
		}
		if len(r.Nums) != 4 {
			t.Errorf("%s: %d numbers, want 4 (ChangeRatio, Freshness, RIR, Age): %q", r.Name, len(r.Nums), r.Cells)
		}
		for _, s := range r.Nums {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("%s: %q is not a number", r.Name, s)
			}
		}
	}
	charts := tb.charts()
	if len(charts) != 3 {
		t.Errorf("%d charts, want the lesson's 3", len(charts))
	}
	for i, c := range charts {
		switch {
		case !c.SVG:
			t.Errorf("chart %d has no <svg>: %s", i+1, c.Markup)
		case c.Role != "img" || strings.TrimSpace(c.Title) == "" || strings.TrimSpace(c.Desc) == "":
			t.Errorf("chart %d: role=%q, <title> %q, <desc> %q; want role=img and a non-empty title and desc", i+1, c.Role, c.Title, c.Desc)
		}
	}
	if engine := evalJS[string](tb, `document.getElementById('engine').textContent`); !strings.Contains(engine, "WebAssembly") {
		t.Errorf("engine label %q does not say WebAssembly", engine)
	}
	// The narrative's inline figures ({{changeRatio site-greedy}} and the
	// like) are filled from the same result.
	for _, s := range evalJS[[]string](tb, `[...document.querySelectorAll('output.live')].map((o) => o.textContent)`) {
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			t.Errorf("an inline figure of the lesson shows %q, not a number", s)
		}
	}
	tb.shot("01-lesson", "")
}

// keyboardState is what TestBrowserKeyboardSlider leaves for
// TestBrowserReloadReproduces.
type keyboardState struct {
	url     string
	numbers string
	sliders []string
}

// hashedWasm matches the lab's module as the page fetches it: by the name
// that carries its content's hash (wasm.json).
var hashedWasm = regexp.MustCompile(`^/lab\.[0-9a-f]{12}\.wasm$`)

var afterKeyboard keyboardState

// TestBrowserKeyboardSlider moves the budget slider with real key events
// and checks that the address, the chart and the numbers follow.
func TestBrowserKeyboardSlider(t *testing.T) {
	afterKeyboard = keyboardSlider(t, setup(t))
}

func keyboardSlider(t *testing.T, e *env) keyboardState {
	tb := e.open(t, lessonPath)
	p := tb.waitRender(0)
	before := tb.numbers()
	chartsBefore := tb.charts()
	budget0 := tb.urlSpec().Budget
	tb.shot("02-slider-before", "#experiment")

	tb.do(chromedp.Focus(chromedp.CSS("#controls input[type=range]")))
	type rangeInfo struct {
		Label string `json:"label"`
		Step  int    `json:"step"`
		Max   int    `json:"max"`
		Value int    `json:"value"`
	}
	const activeJS = `(() => { const a = document.activeElement; return a && a.type === 'range' ? { label: a.labels.length ? a.labels[0].textContent : '', step: Number(a.step) || 1, max: Number(a.max), value: Number(a.value) } : null; })()`
	r := evalJS[*rangeInfo](tb, activeJS)
	if r == nil || !strings.Contains(r.Label, "Downloads per cycle") {
		t.Fatalf("the first range input is not the budget slider: %+v", r)
	}
	if r.Value != budget0 {
		t.Errorf("the slider shows %d, the address's spec %d", r.Value, budget0)
	}

	const presses = 3
	for range presses {
		tb.do(chromedp.KeyEvent(kb.ArrowRight))
	}
	p = tb.waitRender(p.Renders)
	want := budget0 + presses*r.Step
	if got := tb.urlSpec().Budget; got != want {
		t.Errorf("after %d× ArrowRight from %d (step %d) the address's budget is %d, want %d", presses, budget0, r.Step, got, want)
	}
	if v := evalJS[*rangeInfo](tb, activeJS); v == nil || v.Value != want {
		t.Errorf("after %d× ArrowRight the focused slider is %+v, want value %d", presses, v, want)
	}
	mid := tb.numbers()
	// The caption writes numbers with thousands separators (1,140).
	downloads := func(n int) string {
		s := strconv.Itoa(n)
		for i := len(s) - 3; i > 0; i -= 3 {
			s = s[:i] + "," + s[i:]
		}
		return s + " downloads per"
	}
	if !strings.Contains(mid.Text, downloads(want)) {
		t.Errorf("the numbers' caption does not say %d downloads:\n%s", want, mid.Text)
	}

	tb.do(chromedp.KeyEvent(kb.End))
	p = tb.waitRender(p.Renders)
	if got := tb.urlSpec().Budget; got != r.Max {
		t.Errorf("after End the address's budget is %d, want the slider's max %d", got, r.Max)
	}
	after := tb.numbers()
	if !strings.Contains(after.Text, downloads(r.Max)) {
		t.Errorf("the numbers' caption does not say %d downloads:\n%s", r.Max, after.Text)
	}
	if after.Text == before.Text || mid.Text == before.Text {
		t.Errorf("the numbers did not change with the budget:\n%s", after.Text)
	}
	chartsAfter := tb.charts()
	if len(chartsAfter) != len(chartsBefore) {
		t.Errorf("%d charts after, %d before", len(chartsAfter), len(chartsBefore))
	}
	for i := range min(len(chartsAfter), len(chartsBefore)) {
		if chartsAfter[i].Markup == chartsBefore[i].Markup {
			t.Errorf("chart %d's SVG did not change when the budget went from %d to %d", i+1, budget0, r.Max)
		}
	}
	if len(p.Timings) < 2 {
		t.Errorf("window.__refreshLab.timings has %d entries after two keyboard edits, want ≥ 2", len(p.Timings))
	}
	t.Logf("input → redrawn chart: %.0f ms", p.Timings)
	tb.shot("02-slider-after", "#experiment")
	return keyboardState{url: p.URL, numbers: after.Text, sliders: evalJS[[]string](tb, slidersJS)}
}

// TestBrowserLookAhead checks that a focused slider's next values are
// computed ahead: a key press, either way, draws a preview the page already
// asked for, of the value the slider now shows, and the pause after it
// brings the full run.
func TestBrowserLookAhead(t *testing.T) {
	tb := setup(t).open(t, lessonPath)
	p := tb.waitRender(0)
	budget0 := tb.urlSpec().Budget
	// Look-ahead skips previews that the pace says are expensive, and right
	// after the page loads, before the browser has compiled the lab's hot
	// paths fully, a slow machine can say so: lift that limit here, where
	// what is checked is that a press draws the preview computed ahead.
	evalJS[bool](tb, `(window.__refreshLab.aheadLimit = () => 1e9, true)`)
	tb.do(chromedp.Focus(chromedp.CSS("#controls input[type=range]")))
	step := evalJS[int](tb, `Number(document.activeElement.step) || 1`)
	const lastPhase = `(() => { const ph = window.__refreshLab.phases || []; return ph.length ? ph[ph.length - 1] : null; })()`
	type phase struct {
		Ahead bool `json:"ahead"`
	}
	for _, press := range []struct {
		key  string
		want int
	}{{kb.ArrowRight, budget0 + step}, {kb.ArrowRight, budget0 + 2*step}, {kb.ArrowLeft, budget0 + step}} {
		// The status line as the press's own render left it: the full run
		// can follow within the waitRender poll.
		evalJS[bool](tb, `(window.__statusAtRender = null, document.getElementById('experiment').addEventListener('rendered', () => { window.__statusAtRender = document.getElementById('status').textContent; }, { once: true }), true)`)
		tb.do(chromedp.KeyEvent(press.key))
		p = tb.waitRender(p.Renders)
		ph := evalJS[*phase](tb, lastPhase)
		if ph == nil || !ph.Ahead {
			t.Errorf("budget %d: the press was not drawn from look-ahead (last phase %+v)", press.want, ph)
		}
		if n := tb.numbers(); !strings.Contains(n.Text, fmt.Sprintf("%d downloads per", press.want)) {
			t.Errorf("budget %d: the drawn numbers are of another budget:\n%s", press.want, n.Text)
		}
		if status := evalJS[string](tb, `window.__statusAtRender`); ph != nil && ph.Ahead && !strings.Contains(status, "computed ahead") {
			t.Errorf("budget %d: the status line does not say the preview was computed ahead: %q", press.want, status)
		}
	}
	tb.waitFor("the full run after the pause", `!document.getElementById('experiment').classList.contains('preview')`)
	if got := tb.urlSpec().Budget; got != budget0+step {
		t.Errorf("the address's budget is %d, want %d", got, budget0+step)
	}
}

// TestBrowserReloadReproduces opens the address left by the keyboard test
// in a fresh tab: the same spec must give the same numbers and controls.
func TestBrowserReloadReproduces(t *testing.T) {
	e := setup(t)
	want := afterKeyboard
	if want.url == "" {
		t.Log("TestBrowserKeyboardSlider did not run first: running its steps here")
		want = keyboardSlider(t, e)
	}
	tb := e.open(t, "")
	tb.do(chromedp.Navigate(want.url))
	tb.waitRender(0)
	if got := tb.numbers().Text; got != want.numbers {
		t.Errorf("the reloaded page's numbers differ.\nbefore:\n%s\nafter:\n%s", want.numbers, got)
	}
	if got := evalJS[[]string](tb, slidersJS); !slices.Equal(got, want.sliders) {
		t.Errorf("the reloaded page's sliders are %q, before %q", got, want.sliders)
	}
	tb.shot("03-reload", "#experiment")
}

// TestBrowserSamplingLesson checks the sampling lesson's worked example:
// greedy site sampling near the paper's 0.66 with the core's exact 0.6505,
// random at one half, the oracle at 1.
func TestBrowserSamplingLesson(t *testing.T) {
	e := setup(t)
	tb := e.open(t, samplingPath)
	tb.waitRender(0)
	n := tb.numbers()
	cr := n.col(t, "ChangeRatio")
	ids := evalJS[[]string](tb, `JSON.parse(document.getElementById('lesson-config').textContent).spec.policies.map((p) => p.id)`)
	if len(ids) != len(n.Rows) {
		t.Fatalf("%d rows for the spec's %d policies %q:\n%s", len(n.Rows), len(ids), ids, n.Text)
	}
	row, exact := map[string][]string{}, map[string]string{}
	for i, id := range ids {
		row[id] = n.Rows[i].Nums
		if len(n.Rows[i].Exact) > cr {
			exact[id] = n.Rows[i].Exact[cr]
		}
		if len(n.Rows[i].Nums) <= cr {
			t.Fatalf("%s's row has too few numbers: %q", id, n.Rows[i].Cells)
		}
	}
	num := func(id string, col int) float64 {
		v, err := strconv.ParseFloat(row[id][col], 64)
		if err != nil {
			t.Fatalf("%s: %q is not a number", id, row[id][col])
		}
		return v
	}
	if v := num("site-greedy", cr); v < 0.64 || v > 0.665 {
		t.Errorf("site-greedy's ChangeRatio is %v, want in [0.64, 0.665]", v)
	}
	if got := exact["site-greedy"]; got != "0.6505" {
		t.Errorf("site-greedy's exact expectation shows %q, want 0.6505", got)
	}
	if v := num("random", cr); math.Abs(v-0.5) > 0.01 {
		t.Errorf("random's ChangeRatio is %v, want 0.5 ± 0.01", v)
	}
	if got := row["oracle"][cr]; got != "1.000" {
		t.Errorf("the oracle's ChangeRatio shows %q, want 1.000", got)
	}
	tb.shot("04-sampling", "")
}

// writeFile writes a test file and returns its path.
func writeFile(t *testing.T, name string, write func(io.Writer) error) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := write(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// goodLog writes a small crawl log: 3 sites × 4 pages, 11 daily crawls.
func goodLog(t *testing.T) (string, LogShape) {
	var shape LogShape
	path := writeFile(t, "good-crawl-log.csv", func(w io.Writer) (err error) {
		shape, err = WriteCrawlLog(w, 3, 4, 11)
		return err
	})
	return path, shape
}

// checkUploaded waits for the summary and the experiment of an upload and
// checks the summary's counts against shape.
func checkUploaded(tb *tab, shape LogShape) {
	t := tb.t
	t.Helper()
	tb.waitFor("the upload's summary", `!document.getElementById('summary').hidden`)
	facts := evalJS[map[string]string](tb, `Object.fromEntries([...document.querySelectorAll('#facts dt')].map((dt) => [dt.textContent, dt.nextElementSibling ? dt.nextElementSibling.textContent : '']))`)
	for _, f := range []struct {
		fact string
		want int
	}{{"Pages", shape.Pages}, {"Sites", shape.Sites}, {"Crawl rows", shape.Rows}} {
		if got := facts[f.fact]; got != strconv.Itoa(f.want) {
			t.Errorf("summary %s = %q, want %d (all facts: %q)", f.fact, got, f.want, facts)
		}
	}
	if got := facts["Cycles"]; !strings.HasPrefix(got, strconv.Itoa(shape.Cycles)+" of") {
		t.Errorf("summary Cycles = %q, want %d cycles", got, shape.Cycles)
	}
	if !evalJS[bool](tb, `document.getElementById('upload-error').hidden`) {
		t.Errorf("the upload error is still shown: %s", evalJS[string](tb, `document.getElementById('upload-error').textContent`))
	}
	tb.waitFor("the upload's experiment", `!document.getElementById('experiment').hidden`)
	tb.waitRender(0)
	want := 0
	for _, d := range lab.Policies() {
		if d.Kind == lab.KindRefresh {
			want++
		}
	}
	if n := tb.numbers(); len(n.Rows) != want {
		t.Errorf("the upload's experiment shows %d policies, want every refresh policy (%d):\n%s", len(n.Rows), want, n.Text)
	}
}

// TestBrowserUploadGood uploads a crawl log and checks its summary, its
// experiment, and that the file never crossed the network.
func TestBrowserUploadGood(t *testing.T) {
	e := setup(t)
	path, shape := goodLog(t)
	mark := e.rec.Mark()
	tb := e.open(t, uploadPath)
	tb.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{path}))
	checkUploaded(tb, shape)
	tb.shot("05-upload-good", "")

	reqs := e.rec.Since(mark)
	sawWasm := false
	for _, r := range reqs {
		if r.Method != http.MethodGet || strings.HasPrefix(r.Path, "/api/") || r.Body != 0 {
			t.Errorf("the upload page sent %s; want only GETs of static files", r)
		}
		// The module itself may come from the browser's cache (it is
		// immutable); wasm.json, which names it, is always asked for.
		sawWasm = sawWasm || hashedWasm.MatchString(r.Path) || r.Path == "/wasm.json"
	}
	if !sawWasm {
		t.Errorf("the upload page never asked for the lab's module (wasm.json, /lab.<hash>.wasm); requests seen:\n%v", reqs)
	}
	if engine := evalJS[string](tb, `document.querySelector('#engine').textContent`); !strings.Contains(engine, "in this tab") {
		t.Errorf("engine says %q; want the lab in this tab", engine)
	}
}

// TestBrowserUploadBad uploads a log with a bad time and checks the error
// names the line and column and marks the cell; the same tab then takes a
// good log.
func TestBrowserUploadBad(t *testing.T) {
	e := setup(t)
	bad := writeFile(t, "bad-crawl-log.csv", func(w io.Writer) error {
		_, err := io.WriteString(w, `page,site,time,changed
https://a.example/1,a.example,2024-05-01T00:30:00Z,0
https://a.example/2,a.example,2024-05-01T00:30:00Z,0
https://a.example/1,a.example,yesterday,1
https://a.example/2,a.example,2024-05-02T00:30:00Z,1
`)
		return err
	})
	tb := e.open(t, uploadPath)
	tb.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{bad}))
	tb.waitFor("the upload error", `!document.getElementById('upload-error').hidden`)
	msg := evalJS[string](tb, `document.getElementById('upload-error').textContent`)
	for _, want := range []string{"line 4", "column 3", "expected"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the upload error does not say %q: %s", want, msg)
		}
	}
	if mark := evalJS[[]string](tb, `[...document.querySelectorAll('#upload-error mark')].map((m) => m.textContent)`); !slices.Equal(mark, []string{"yesterday"}) {
		t.Errorf("the highlighted cells are %q, want [yesterday]", mark)
	}
	if evalJS[bool](tb, `!document.getElementById('summary').hidden || !document.getElementById('experiment').hidden`) {
		t.Error("a bad log still showed a summary or an experiment")
	}
	tb.shot("06-upload-error", "")

	good, shape := goodLog(t)
	tb.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{good}))
	checkUploaded(tb, shape)
	tb.shot("06-upload-recovered", "")
}

// apiReply is one API response, as seen from the page or over HTTP.
type apiReply struct {
	Status int    `json:"status"`
	Body   string `json:"body"`
}

// errorBody decodes an API error body.
func errorBody(t *testing.T, where string, r apiReply) (msg, field string) {
	t.Helper()
	var e struct {
		Error string `json:"error"`
		Field string `json:"field"`
	}
	if err := json.Unmarshal([]byte(r.Body), &e); err != nil || e.Error == "" {
		t.Errorf("%s: the body is not a JSON error (%v): %.200s", where, err, r.Body)
	}
	return e.Error, e.Field
}

// smallSpec is a quick valid run.
const smallSpec = `{"kind":"refresh","dataset":{"id":"taleghani-example"},"budget":100,"cycles":1,"repeats":5,"seed":1,"policies":[{"id":"random"}]}`

// smallLog is a crawl log to upload before the panic: it must survive it.
const smallLog = "page,site,time,changed\nhttps://a.example/1,a.example,2024-05-01,0\nhttps://a.example/1,a.example,2024-05-02,1\nhttps://a.example/1,a.example,2024-05-03,0\n"

// robustCalls is the sequence both engines answer, as (method, path, query,
// body); checkRobust reads the replies in this order.
var robustCalls = [][4]string{
	{"POST", "/api/datasets", "format=crawl-log&name=robust", smallLog},
	{"POST", "/api/test/panic", "", ""},
	{"GET", "/api/health", "", ""},
	{"POST", "/api/run", "", `{"dataset":{"id":"nope"}}`},
	{"POST", "/api/run", "", smallSpec},
	{"GET", "/api/health", "", ""},
	{"GET", "/api/datasets", "", ""},
}

// checkRobust checks the replies to robustCalls: the upload is taken, the
// panic costs one 500 JSON error (where the engine has the route that
// panics: else it is one 404), the bad spec one 400 naming its field, and
// then health, a good run and the uploaded dataset are all there.
func checkRobust(t *testing.T, engine string, r []apiReply, panics bool) {
	t.Helper()
	if len(r) != len(robustCalls) {
		t.Fatalf("%s: %d replies, want %d", engine, len(r), len(robustCalls))
	}
	var up struct {
		Dataset struct {
			ID string `json:"id"`
		} `json:"dataset"`
	}
	if r[0].Status != 201 || json.Unmarshal([]byte(r[0].Body), &up) != nil || up.Dataset.ID == "" {
		t.Errorf("%s: uploading a small log answered %d: %.200s", engine, r[0].Status, r[0].Body)
	}
	status, says := 500, "internal error"
	if !panics {
		status, says = 404, "no such endpoint"
	}
	if r[1].Status != status {
		t.Errorf("%s: POST /api/test/panic answered %d, want %d: %.200s", engine, r[1].Status, status, r[1].Body)
	}
	if msg, _ := errorBody(t, engine+" panic", r[1]); !strings.Contains(msg, says) {
		t.Errorf("%s: the error %q of POST /api/test/panic does not say %s", engine, msg, says)
	}
	for _, i := range []int{2, 5} {
		if r[i].Status != 200 || !strings.Contains(r[i].Body, `"ok":true`) {
			t.Errorf("%s: GET /api/health after a panic answered %d %.200s, want 200 ok", engine, r[i].Status, r[i].Body)
		}
	}
	if r[3].Status != 400 {
		t.Errorf("%s: a spec naming dataset nope answered %d, want 400: %.200s", engine, r[3].Status, r[3].Body)
	}
	if msg, field := errorBody(t, engine+" bad spec", r[3]); field != "dataset.id" || !strings.Contains(msg, "dataset.id") || !strings.Contains(msg, "nope") {
		t.Errorf("%s: the bad spec's error is %q (field %q); want it to name dataset.id and nope", engine, msg, field)
	}
	if r[4].Status != 200 || !strings.Contains(r[4].Body, `"policies"`) {
		t.Errorf("%s: a good /api/run after the errors answered %d: %.200s", engine, r[4].Status, r[4].Body)
	}
	if up.Dataset.ID != "" && (r[6].Status != 200 || !strings.Contains(r[6].Body, `"`+up.Dataset.ID+`"`)) {
		t.Errorf("%s: the log uploaded before the panic (%s) is gone afterwards: %d %.300s", engine, up.Dataset.ID, r[6].Status, r[6].Body)
	}
}

// TestBrowserRobustness sends a panic and a bad spec to both engines (the
// wasm worker from page JavaScript, the native server over HTTP): each
// costs one error response, and the next request works with nothing lost.
// Only the native server, which the tests build, has a route that panics;
// the browser module is the one built for the site, which has none (a
// 404), and its router's recovery is tested under WebAssembly in core/api.
func TestBrowserRobustness(t *testing.T) {
	e := setup(t)
	// The home page mounts no experiment: the API alone is under test.
	tb := e.open(t, "/index.html")
	calls, _ := json.Marshal(robustCalls)
	wasm := evalJS[[]apiReply](tb, fmt.Sprintf(`(async () => {
  const api = await import('/js/api.js');
  const out = [];
  for (const [method, path, query, body] of %s) {
    const r = await api.request(method, path, { query, body });
    out.push({ status: r.status, body: r.body });
  }
  return out;
})()`, calls))
	checkRobust(t, "wasm", wasm, false)
	if state := evalJS[string](tb, `(async () => { const api = await import('/js/api.js'); let s = ''; api.onEngine((e) => { s = e.state; })(); return s; })()`); state != "ready" {
		t.Errorf("after the panic the engine's state is %q, want ready", state)
	}

	var native []apiReply
	for _, c := range robustCalls {
		req, err := http.NewRequest(c[0], e.url+c[1]+"?"+c[2], strings.NewReader(c[3]))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("native server: %s %s: %v (did the panic kill it?)", c[0], c[1], err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("native server: %s %s: Content-Type %q, want JSON", c[0], c[1], ct)
		}
		native = append(native, apiReply{Status: resp.StatusCode, Body: string(b)})
	}
	checkRobust(t, "native", native, true)
}

// runInPage runs spec through the page's own engine and returns the body.
func runInPage(tb *tab, spec string) apiReply {
	tb.t.Helper()
	return evalJS[apiReply](tb, fmt.Sprintf(`(async () => {
  const api = await import('/js/api.js');
  const r = await api.request('POST', '/api/run', { body: %s });
  return { status: r.status, body: r.body };
})()`, strconv.Quote(spec)))
}

// diffJSON compares two decoded JSON values: numbers to a relative 1e-9
// (or 1e-15 absolute), counting those not bit-equal in *inexact, anything
// else exactly. It returns where they differ.
func diffJSON(path string, a, b any, inexact *int) []string {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return []string{fmt.Sprintf("%s: %.80v vs %.80v", path, a, b)}
		}
		var out []string
		for k, v := range a {
			out = append(out, diffJSON(path+"."+k, v, b[k], inexact)...)
		}
		return out
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return []string{fmt.Sprintf("%s: %.80v vs %.80v", path, a, b)}
		}
		var out []string
		for i := range a {
			out = append(out, diffJSON(fmt.Sprintf("%s[%d]", path, i), a[i], b[i], inexact)...)
		}
		return out
	case float64:
		b, ok := b.(float64)
		switch {
		case !ok:
			return []string{fmt.Sprintf("%s: %v vs %v", path, a, b)}
		case a == b:
			return nil
		case math.Abs(a-b) <= max(1e-15, 1e-9*math.Abs(a)):
			*inexact++
			return nil
		}
		return []string{fmt.Sprintf("%s: %v vs %v", path, a, b)}
	}
	if a != b {
		return []string{fmt.Sprintf("%s: %v vs %v", path, a, b)}
	}
	return nil
}

// TestBrowserServerEngine opens the lesson with ?engine=server and checks
// it draws the same numbers as the WebAssembly engine: the same spec and
// seed give the same result on both.
func TestBrowserServerEngine(t *testing.T) {
	e := setup(t)
	wt := e.open(t, lessonPath)
	wt.waitRender(0)
	spec := wt.addressSpec()
	wasmNumbers := wt.numbers()
	wasmRun := runInPage(wt, spec)

	mark := e.rec.Mark()
	st := e.open(t, lessonPath+"?engine=server")
	st.waitRender(0)
	if engine := evalJS[string](st, `document.getElementById('engine').textContent`); !strings.Contains(engine, "server") {
		t.Errorf("with ?engine=server the engine label says %q", engine)
	}
	if got := st.addressSpec(); got != spec {
		t.Errorf("the server tab ran spec %s, the wasm tab %s", got, spec)
	}
	serverNumbers := st.numbers()
	if serverNumbers.Text != wasmNumbers.Text {
		t.Errorf("the engines' numbers differ for the same spec.\nwasm:\n%s\nserver:\n%s", wasmNumbers.Text, serverNumbers.Text)
	}
	serverRun := runInPage(st, spec)
	if wasmRun.Status != 200 || serverRun.Status != 200 {
		t.Errorf("/api/run answered %d (wasm) and %d (server)", wasmRun.Status, serverRun.Status)
	} else if wasmRun.Body != serverRun.Body {
		// The bundled datasets' first-change times come from math.Exp and
		// math.Pow, whose amd64 assembly and pure-Go (wasm) versions can
		// differ in the last bit (core/synth's TestJordanGolden), so ages
		// may differ by an ulp or so; everything else must be identical.
		var w, s any
		if err := json.Unmarshal([]byte(wasmRun.Body), &w); err != nil {
			t.Fatalf("wasm /api/run: %v", err)
		}
		if err := json.Unmarshal([]byte(serverRun.Body), &s); err != nil {
			t.Fatalf("server /api/run: %v", err)
		}
		var inexact int
		for _, d := range diffJSON("", w, s, &inexact) {
			t.Errorf("the engines' results differ at %s", d)
		}
		t.Logf("the engines' /api/run results agree; %d numbers differ in the last bits (ages, as core/synth documents)", inexact)
	}
	posts, charts := 0, 0
	for _, r := range e.rec.Since(mark) {
		if r.Method == http.MethodPost && r.Path == "/api/run" {
			posts++
		}
		if r.Method == http.MethodPost && r.Path == "/api/chart" {
			// Each chart is asked for once, by its spec, and drawn: no
			// 404 for an id a server no longer holds, and no retry.
			charts++
			if r.Status != 200 {
				t.Errorf("with ?engine=server POST /api/chart answered %d", r.Status)
			}
		}
	}
	if posts == 0 || charts == 0 {
		t.Errorf("with ?engine=server %d POST /api/run and %d POST /api/chart reached the server", posts, charts)
	}
	st.shot("08-server-engine", "#experiment")
}

// TestBrowserKeyboardOnly tabs through the lesson from the top: every
// control and button of the experiment is reached, and a focused slider
// shows a :focus-visible outline.
func TestBrowserKeyboardOnly(t *testing.T) {
	e := setup(t)
	tb := e.open(t, lessonPath)
	tb.waitRender(0)
	want := evalJS[[]string](tb, `(() => {
  const els = [...document.querySelectorAll('#controls input, #controls select, #experiment button')]
    .filter((e) => !e.disabled && !e.closest('details:not([open])') && e.checkVisibility());
  els.forEach((e, i) => { e.dataset.e2e = String(i); });
  return els.map((e) => e.tagName.toLowerCase() + (e.type ? '[' + e.type + ']' : '') + ' ' + JSON.stringify(((e.labels && e.labels[0] && e.labels[0].textContent) || e.getAttribute('aria-label') || e.textContent || e.value).trim().slice(0, 40)));
})()`)
	for _, kind := range []string{"input[range]", "input[number]", "input[checkbox]", "select[select-one]", "button"} {
		if !slices.ContainsFunc(want, func(s string) bool { return strings.HasPrefix(s, kind) }) {
			t.Errorf("the experiment has no %s to reach; controls: %q", kind, want)
		}
	}
	type focused struct {
		ID           string `json:"id"`
		Tag          string `json:"tag"`
		Type         string `json:"type"`
		FocusVisible bool   `json:"fv"`
		OutlineStyle string `json:"outlineStyle"`
		OutlineWidth string `json:"outlineWidth"`
	}
	const activeJS = `(() => {
  const a = document.activeElement;
  if (!a || a === document.body) return { id: '', tag: 'BODY' };
  const cs = getComputedStyle(a);
  return { id: a.dataset.e2e || '', tag: a.tagName, type: a.type || '', fv: a.matches(':focus-visible'), outlineStyle: cs.outlineStyle, outlineWidth: cs.outlineWidth };
})()`
	seen := map[string]bool{}
	var rangeFocus *focused
	var order []string
	for i := 0; i < 300 && len(seen) < len(want); i++ {
		tb.do(chromedp.KeyEvent(kb.Tab))
		f := evalJS[focused](tb, activeJS)
		order = append(order, strings.ToLower(f.Tag)+f.ID)
		if f.Tag == "BODY" && i > 0 {
			break // wrapped past the end of the page
		}
		if f.ID != "" {
			seen[f.ID] = true
		}
		if f.Type == "range" && rangeFocus == nil {
			rangeFocus = &f
			tb.shot("09-focus-visible", "#controls")
		}
	}
	for i, w := range want {
		if !seen[strconv.Itoa(i)] {
			t.Errorf("Tab never reached %s", w)
		}
	}
	if t.Failed() {
		t.Logf("focus order: %s", strings.Join(order, " "))
	}
	switch {
	case rangeFocus == nil:
		t.Error("Tab never focused a range input")
	case !rangeFocus.FocusVisible:
		t.Errorf("a range input focused by Tab does not match :focus-visible: %+v", *rangeFocus)
	case rangeFocus.OutlineStyle == "none" || rangeFocus.OutlineWidth == "0px":
		t.Errorf("a range input focused by Tab has no visible outline: %+v", *rangeFocus)
	}
}
