package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserPace checks how the page sizes its previews (experiment.js
// Pace): at the cost per repeat of the latest run, except that a run of a
// size measured lately is estimated to take its latest time.
func TestBrowserPace(t *testing.T) {
	tb := setup(t).open(t, lessonPath)
	tb.waitRender(0)
	type pace struct {
		PerRepeat float64
		In12      int
		MS20      float64
	}
	for _, tc := range []struct {
		name string
		runs string // [repeats, ms] in order
		want pace
	}{
		{"one run", `[[300, 150]]`, pace{PerRepeat: 0.5, In12: 24, MS20: 10}},
		{"the latest run sets the pace", `[[300, 150], [2, 4]]`, pace{PerRepeat: 2, In12: 6, MS20: 40}},
		{"the latest of a size is its time", `[[20, 1], [300, 150], [20, 20], [300, 600]]`, pace{PerRepeat: 2, In12: 6, MS20: 20}},
		{"over the budget", `[[1, 32]]`, pace{PerRepeat: 32, In12: 0, MS20: 640}},
	} {
		got := evalJS[pace](tb, `(async () => {
  const { Pace } = await import('/js/experiment.js');
  const p = new Pace();
  for (const [r, ms] of `+tc.runs+`) p.add(r, ms);
  return { PerRepeat: p.perRepeat(), In12: p.repeatsIn(12), MS20: p.ms(20) };
})()`)
		if math.Abs(got.PerRepeat-tc.want.PerRepeat) > 1e-9 || got.In12 != tc.want.In12 || math.Abs(got.MS20-tc.want.MS20) > 1e-9 {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestBrowserThinSweep checks the values a sweep's preview runs at when one
// repeat of the whole sweep is over the budget (experiment.js thinSweep):
// about the share that fits, evenly spread, the first and last always in,
// never fewer than five, and all of them when there are no more.
func TestBrowserThinSweep(t *testing.T) {
	tb := setup(t).open(t, lessonPath)
	tb.waitRender(0)
	howBig := `[1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30]`
	for _, tc := range []struct {
		values string
		keep   float64
		want   []float64
	}{
		{howBig, 6.5, []float64{1, 3, 6, 10, 20, 30}},
		{howBig, 13, []float64{1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30}},
		{howBig, 40, []float64{1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30}},
		{howBig, 0.3, []float64{1, 4, 8, 15, 30}},
		{`[1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25]`, 9.7, []float64{1, 5, 7, 11, 13, 17, 19, 23, 25}},
		{`[1, 2, 3]`, 1, []float64{1, 2, 3}},
		{`[0.5, 0.25, 0.125, 1, 2, 4]`, 5, []float64{0.5, 0.25, 1, 2, 4}}, // in the list's order, not sorted
	} {
		got := evalJS[[]float64](tb, `(async () => {
  const { thinSweep } = await import('/js/experiment.js');
  return thinSweep(`+tc.values+`, `+fmt.Sprint(tc.keep)+`);
})()`)
		if !slices.Equal(got, tc.want) {
			t.Errorf("thinSweep(%s, %v) = %v, want %v", tc.values, tc.keep, got, tc.want)
		}
	}
}

// TestBrowserPressKeepsLayout checks that a slider press does not move
// what lies below the status line: while the lab computes, the status says
// so in one short line, and after the run it says what ran in two; if its
// height followed, the controls and charts would jump twice on every press
// (and be laid out and painted again).
func TestBrowserPressKeepsLayout(t *testing.T) {
	tb := setup(t).open(t, "/lessons/how-big-a-sample.html?off=lookahead") // every press computes
	p := tb.waitRender(0)
	// (The first chart's top: on a wide screen the charts' box lays its
	// figures out as the panel's own, and has no box of its own.)
	evalJS[bool](tb, `(() => {
  const top = () => document.querySelector('#charts figure').getBoundingClientRect().top;
  window.__tops = [top()];
  new MutationObserver(() => window.__tops.push(top()))
    .observe(document.getElementById('status'), { childList: true, characterData: true, subtree: true });
  return true;
})()`)
	tb.do(chromedp.Focus(chromedp.CSS("#controls input[type=range]")))
	for range 2 {
		tb.do(chromedp.KeyEvent(kb.ArrowRight))
		p = tb.waitRender(p.Renders)
	}
	type seen struct {
		Tops   []float64
		Status string
	}
	got := evalJS[seen](tb, `({ Tops: window.__tops, Status: document.getElementById('status').textContent })`)
	if len(got.Tops) < 3 {
		t.Fatalf("the status changed %d times over two presses, want at least 2 (status %q)", len(got.Tops)-1, got.Status)
	}
	for i, top := range got.Tops {
		if math.Abs(top-got.Tops[0]) > 0.5 {
			t.Errorf("status change %d moved the charts from %.1f to %.1f px", i, got.Tops[0], top)
		}
	}
}

// TestBrowserStatusWhenSlow checks that the status line says "Computing…"
// only when an answer is slow in coming (experiment.js STATUS_AFTER_MS):
// not while a press on naive-estimate waits for its preview (a few
// milliseconds of the lab), so that the page has nothing to lay out and
// paint but the slider while the lab computes; and during clustering
// pages' full run after the pause (13 policies × 3 repeats on 10,000
// pages, hundreds of milliseconds).
func TestBrowserStatusWhenSlow(t *testing.T) {
	e := setup(t)
	const watch = `(() => {
  const status = document.getElementById('status');
  window.__seen = [];
  new MutationObserver(() => window.__seen.push(status.textContent))
    .observe(status, { childList: true, characterData: true, subtree: true });
  return true;
})()`
	// What the status line shows from now to the panel's next drawing
	// (a press's preview).
	const press = `(window.__seen = [], new Promise((resolve) => {
  const panel = document.getElementById('experiment');
  panel.addEventListener('rendered', () => resolve(window.__seen.slice()), { once: true });
}))`
	computing := func(seen []string) bool {
		return slices.ContainsFunc(seen, func(s string) bool { return strings.HasPrefix(s, "Computing") })
	}

	// Look-ahead off: every press computes.
	fast := e.open(t, "/lessons/naive-estimate.html?off=lookahead")
	p := fast.waitRender(0)
	evalJS[bool](fast, watch)
	fast.do(chromedp.Focus(chromedp.CSS("#controls input[type=range]")))
	for i := range 3 {
		if i > 0 { // from an idle panel: the full run after the last press drawn
			p = fast.waitRender(p.Renders)
		}
		evalJS[bool](fast, `(window.__press = `+press+`, true)`)
		fast.do(chromedp.KeyEvent(kb.ArrowRight))
		if seen := evalJS[[]string](fast, `window.__press`); computing(seen) || len(seen) == 0 {
			t.Errorf("naive-estimate, press %d: the status line showed %q before the preview was drawn, want one status after it and no \"Computing…\"", i+1, seen)
		}
	}

	slow := e.open(t, "/lessons/clustering-pages.html?off=lookahead")
	p = slow.waitRender(0)
	evalJS[bool](slow, watch)
	slow.do(chromedp.Focus(chromedp.CSS("#controls input[type=range]")))
	slow.do(chromedp.KeyEvent(kb.ArrowRight))
	slow.waitRender(p.Renders) // the preview, then the full run
	if seen := evalJS[[]string](slow, `window.__seen`); !computing(seen) {
		t.Errorf("clustering-pages: the status line showed %q over a press and its full run, want \"Computing…\" while the full run computed", seen)
	}
}

// TestBrowserLookAheadKeysOnly checks when a slider's next values are
// computed ahead (experiment.js lookAhead) under each limit: a slider
// moved with the pointer gets the pointer's limit, one reached or stepped
// with the keys the keys' limit. The limits are set so that the pointer's
// allows nothing and the keys' everything: a slider reached with Shift+Tab
// asks for its next values, a click then asks for none, and the arrow key
// after it asks for the next step on.
func TestBrowserLookAheadKeysOnly(t *testing.T) {
	tb := setup(t).open(t, lessonPath)
	tb.waitRender(0)
	evalJS[bool](tb, `(window.__refreshLab.aheadLimit = (keys) => keys ? 1e9 : -1, true)`)
	const idle = `!document.getElementById('experiment').hasAttribute('aria-busy')`
	// The exact-value box follows its slider: Shift+Tab from it focuses
	// the slider from the keyboard.
	tb.do(chromedp.Focus(chromedp.CSS("#controls input[type=range] + input[type=number]")),
		chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
	if evalJS[string](tb, `document.activeElement.type`) != "range" {
		t.Fatal("Shift+Tab from the exact-value box did not focus its slider")
	}
	tb.waitFor("a value asked ahead after Shift+Tab", `(window.__refreshLab.aheadAsked || []).length > 0`)
	tb.waitFor("the lab to be idle after the look-ahead", idle+` && !window.__refreshLab.aheadRunning`)
	evalJS[bool](tb, `(window.__refreshLab.aheadAsked = [], true)`)
	renders := evalJS[int](tb, `window.__refreshLab.renders`)
	value := `document.querySelector('#controls input[type=range]').value`
	was := evalJS[string](tb, value)
	// The click focuses the slider and moves it to the middle of its track.
	tb.do(chromedp.Click(chromedp.CSS("#controls input[type=range]")))
	if evalJS[string](tb, value) != was {
		tb.waitRender(renders)
	}
	tb.waitFor("the lab to be idle after the click", idle)
	if asked := evalJS[[]float64](tb, `window.__refreshLab.aheadAsked || []`); len(asked) > 0 {
		t.Errorf("after a click the page computed %v ahead, want nothing under the pointer's limit", asked)
	}
	type state struct{ Value, Step float64 }
	before := evalJS[state](tb, `({ Value: Number(document.activeElement.value), Step: Number(document.activeElement.step) || 1 })`)
	tb.do(chromedp.KeyEvent(kb.ArrowRight))
	tb.waitFor("a value asked ahead after the key", `(window.__refreshLab.aheadAsked || []).length > 0`)
	if asked := evalJS[[]float64](tb, `window.__refreshLab.aheadAsked`); asked[0] != before.Value+2*before.Step {
		t.Errorf("after a key from %v the page first computed %v ahead, want %v (one step past the key's value)", before.Value, asked[0], before.Value+2*before.Step)
	}
}

// TestBrowserPressDuringFullRun checks that a press does not wait for the
// full run the page starts after a pause: that run answers no input and
// gives way (experiment.js run), so a press whose preview was computed
// ahead is drawn while the lab still computes the full run, and the full
// run is not drawn over it. On clustering pages the full run takes
// hundreds of milliseconds, time enough to press during it; the
// look-ahead limit is lifted so that the press's preview is computed ahead.
func TestBrowserPressDuringFullRun(t *testing.T) {
	tb := setup(t).open(t, "/lessons/clustering-pages.html")
	tb.waitRender(0)
	evalJS[bool](tb, `(window.__refreshLab.aheadLimit = () => 1e9, true)`)
	tb.do(chromedp.Focus(chromedp.CSS("#controls input[type=range]")))
	tb.do(chromedp.KeyEvent(kb.ArrowRight))
	// The preview is drawn, the next values' previews are computed ahead,
	// and after the pause the full run starts: wait for it to be under way.
	evalJS[bool](tb, `new Promise((resolve, reject) => {
  const t0 = performance.now();
  const poll = () => {
    if (window.__refreshLab.awaitingFull) return resolve(true);
    if (performance.now() - t0 > 20000) return reject(new Error('no full run under way within 20 s'));
    setTimeout(poll, 2);
  };
  poll();
})`)
	before := evalJS[int](tb, `window.__refreshLab.renders`)
	type drawn struct {
		GaveWay, Renders int
		Ahead            bool
		Value            string
	}
	// Armed before the press: a preview computed ahead is drawn at once.
	evalJS[bool](tb, `(window.__press = new Promise((resolve) => {
  document.getElementById('experiment').addEventListener('rendered', () => {
    const L = window.__refreshLab, ph = L.phases[L.phases.length - 1];
    resolve({ GaveWay: L.gaveWay || 0, Renders: L.renders, Ahead: !!ph.ahead, Value: document.activeElement.value });
  }, { once: true });
}), true)`)
	tb.do(chromedp.KeyEvent(kb.ArrowRight))
	got := evalJS[drawn](tb, `window.__press`)
	if got.GaveWay < 1 || !got.Ahead || got.Renders != before+1 {
		t.Errorf("a press during the full run: gave way %d times, drawn from look-ahead %v, renders %d → %d; want the full run to give way and the press's preview drawn next, from look-ahead",
			got.GaveWay, got.Ahead, before, got.Renders)
	}
	// The full run of the new value follows after the pause, and the
	// panel shows that value, not the old full run's.
	tb.waitRender(got.Renders)
	if s := tb.urlSpec(); fmt.Sprint(s.Budget) != got.Value {
		t.Errorf("after the full run the address says budget %d, the slider %s", s.Budget, got.Value)
	}
}

// TestBrowserSharedRun checks the helper worker on the clustering lesson,
// whose previews are expensive: a press whose preview is slow pairs the lab
// with a helper, a run with charts is then split between the two workers,
// its result is the
// native lab's for the same spec (to the last bits of the ages, as
// TestBrowserServerEngine allows), and a press says it ran on two workers.
func TestBrowserSharedRun(t *testing.T) {
	e := setup(t)
	tb := e.open(t, "/lessons/clustering-pages.html")
	first := tb.waitRender(0)
	tb.do(chromedp.Focus(chromedp.CSS("#controls input[type=range]")), chromedp.KeyEvent(kb.ArrowRight))
	tb.waitRender(first.Renders)
	tb.waitFor("a slow preview to pair the lab with a helper", `window.__refreshLab.paired === true`)
	spec := tb.addressSpec()
	var s map[string]any
	if err := json.Unmarshal([]byte(spec), &s); err != nil {
		t.Fatalf("the address spec %s: %v", spec, err)
	}
	// The helper first runs the lesson on its own; until then a run is the
	// lab worker's alone. Ask for previews of new seeds until one is shared.
	type shareReply struct {
		Shared bool
		Status int
		Body   string
		Spec   string
	}
	var got shareReply
	for seed := 9001; seed < 9061 && !got.Shared; seed++ {
		s["seed"], s["repeats"] = seed, 1
		one, _ := json.Marshal(s)
		got = evalJS[shareReply](tb, fmt.Sprintf(`(async () => {
  const api = await import('/js/api.js');
  const { run } = await api.runWithCharts(JSON.parse(%s), []);
  await new Promise((res) => setTimeout(res, 50));
  return { Shared: run.shared, Status: run.status, Body: run.body, Spec: %[1]s };
})()`, strconv.Quote(string(one))))
		if got.Status != 200 {
			t.Fatalf("runWithCharts answered %d: %.300s", got.Status, got.Body)
		}
	}
	if !got.Shared {
		t.Fatal("no run of the 60 asked for was shared with the helper")
	}
	resp, err := http.Post(e.url+"/api/run", "application/json", strings.NewReader(got.Spec))
	if err != nil {
		t.Fatal(err)
	}
	native, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var w, n any
	if err := json.Unmarshal([]byte(got.Body), &w); err != nil {
		t.Fatalf("shared /api/run: %v", err)
	}
	if err := json.Unmarshal(native, &n); err != nil {
		t.Fatalf("native /api/run: %v", err)
	}
	var inexact int
	for _, d := range diffJSON("", w, n, &inexact) {
		t.Errorf("the shared run and the native one differ at %s", d)
	}
	t.Logf("the shared run agrees with the native lab; %d numbers differ in the last bits (ages, as core/synth documents)", inexact)

	renders := evalJS[int](tb, `window.__refreshLab.renders`)
	tb.do(chromedp.Focus(chromedp.CSS("#controls input[type=range]")), chromedp.KeyEvent(kb.ArrowRight))
	tb.waitRender(renders)
	if status := evalJS[string](tb, `document.getElementById('status').textContent`); !strings.Contains(status, "on two workers") {
		t.Errorf("after a press the status says %q, want it to say the preview ran on two workers", status)
	}
	tb.shot("12-shared-run", "#experiment")
}

// TestBrowserHelperThatCannotRun pairs the lab with a helper whose first
// run fails (a warm-up spec that is no spec stands in for a helper that
// could not start): the page gives up on the helper, pairs no more, and runs
// go on in the lab's worker alone.
func TestBrowserHelperThatCannotRun(t *testing.T) {
	e := setup(t)
	tb := e.open(t, "/lessons/naive-estimate.html")
	tb.waitRender(0)
	if evalJS[int](tb, `navigator.hardwareConcurrency`) < 2 {
		t.Skip("one core: the lab never pairs")
	}
	if !evalJS[bool](tb, `import('/js/api.js').then((api) => api.pair('no spec'))`) {
		t.Fatal("pair declined the first helper")
	}
	tb.waitFor("the helper's failed warm-up to unpair it", `(async () => !!(await import('/js/api.js')).getEngine().unpaired)()`)
	if why := evalJS[string](tb, `import('/js/api.js').then((api) => api.getEngine().unpaired)`); !strings.Contains(why, "spec") {
		t.Errorf("the engine says the helper failed with %q, want compute's complaint about the spec", why)
	}
	if evalJS[bool](tb, `import('/js/api.js').then((api) => api.pair('no spec'))`) {
		t.Error("pair paired again after a helper that could not run")
	}
	type reply struct {
		Status int
		Shared bool
	}
	got := evalJS[reply](tb, fmt.Sprintf(`(async () => {
  const api = await import('/js/api.js');
  const { run } = await api.runWithCharts(JSON.parse(%s), []);
  return { Status: run.status, Shared: run.shared };
})()`, strconv.Quote(tb.addressSpec())))
	if got.Status != 200 || got.Shared {
		t.Errorf("a run after the helper went: status %d, shared %v; want 200 on the lab's worker alone", got.Status, got.Shared)
	}
}
