package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The screens every page must work on: two phones, a tablet upright and a
// laptop.
var screens = []struct {
	name          string
	width, height int64
}{
	{"360x740", 360, 740},
	{"390x844", 390, 844},
	{"768x1024", 768, 1024},
	{"1280x900", 1280, 900},
}

// maxHeader is the tallest the sticky header may be, in CSS px: on a
// phone it stays on screen over everything else.
const maxHeader = 56

// maxLiveRegions is how many live regions a page may show: the engine's
// state, the panel's headline result, the crawler view's, the upload's
// hash check. More, and a screen reader talks over itself at every press.
// (An error box, hidden until there is an error, says nothing till then.)
const maxLiveRegions = 5

// axeScript is axe-core's browser build, which make test-browser
// installs with npm at the version site/package-lock.json pins.
func axeScript(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core is not installed (%v): run `make test-browser`, or `npm ci` in site", err)
	}
	return string(b)
}

// axeJS runs axe-core's WCAG 2 A and AA rules (2.0, 2.1 and 2.2) over the
// page and lists its serious and critical violations, each with the
// elements it found (at most three) and why.
//
// A chart off screen skips its rendering (lab.css content-visibility),
// and axe-core would judge the sizes of its buttons by the placeholder
// box it has meanwhile: every chart is rendered while axe runs.
const axeJS = `(async () => {
  const style = document.head.appendChild(document.createElement('style'));
  style.textContent = 'figure.chart { content-visibility: visible !important; }';
  const r = await axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    resultTypes: ['violations'],
  });
  style.remove();
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) =>
    v.id + ' (' + v.impact + ', ' + v.nodes.length + '): ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ' — ' + (n.failureSummary || '').replace(/\s+/g, ' ').slice(0, 160)).join(' | '));
})()`

// overflowJS says how far the page scrolls sideways (0 when it does not)
// and which elements reach past the right edge, the outermost first.
const overflowJS = `(() => {
  const d = document.documentElement;
  const over = d.scrollWidth - d.clientWidth;
  if (over <= 0) return '';
  const wide = [...document.body.querySelectorAll('*')].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.right > d.clientWidth + 0.5 && !e.parentElement.closest('.table-scroll, pre, svg');
  }).filter((e, _, all) => !all.includes(e.parentElement)).slice(0, 4)
    .map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : '') + ' to ' + Math.round(e.getBoundingClientRect().right) + ' px');
  return over + ' px too wide: ' + wide.join(', ');
})()`

// liveJS lists the page's live regions: what a screen reader announces
// when it changes (an <output> is a status unless told aria-live="off"),
// outside what is hidden from it or not shown at all.
const liveJS = `[...document.querySelectorAll('[aria-live], [role=status], [role=alert], [role=log], output')]
  .filter((e) => (e.getAttribute('aria-live') || 'polite') !== 'off' && !e.closest('[aria-hidden=true], [hidden]'))
  .map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + e.className : ''))`

// TestBrowserScreens opens every page at each of the screens and checks
// that it works there: axe-core finds no serious or critical violation of
// WCAG 2 A/AA, nothing scrolls sideways, the sticky header stays at most
// maxHeader tall and an in-page link's target is not hidden under it. On a
// lesson, at 1280×900, focusing any slider leaves it and the first chart
// both on screen; on a phone, the lesson's main slider stays on screen
// beside any chart scrolled to. The page is loaded once at the smallest
// screen and widened from there.
func TestBrowserScreens(t *testing.T) {
	e := setup(t)
	axe := axeScript(t)
	lessons, err := filepath.Glob(filepath.Join(distDir(), "lessons", "*.html"))
	if err != nil || len(lessons) == 0 {
		t.Fatalf("no lesson pages in %s (%v)", distDir(), err)
	}
	paths := []string{"/index.html", uploadPath, "/sources.html", "/instructors.html"}
	for _, l := range lessons {
		paths = append(paths, "/lessons/"+filepath.Base(l))
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".html")
		t.Run(name, func(t *testing.T) {
			tb := e.open(t, "")
			tb.do(chromedp.EmulateViewport(screens[0].width, screens[0].height), chromedp.Navigate(Probed(e.url+path)))
			lesson := strings.HasPrefix(path, "/lessons/")
			switch {
			case lesson:
				tb.waitRender(0)
			case path == uploadPath:
				// The report, the numbers and the data tables of an
				// example log.
				tb.waitFor("the examples", `!!document.querySelector('#examples button.example')`)
				tb.do(chromedp.Click(chromedp.CSS("#examples button.example")))
				tb.waitRender(0)
				reportReady(tb)
			}
			if lesson || path == uploadPath {
				evalJS[bool](tb, `([...document.querySelectorAll('#charts details.data')].forEach((d) => { d.open = true; }), true)`)
				tb.waitFor("the charts' data tables", `[...document.querySelectorAll('#charts details.data')].every((d) => d.querySelector('table.data-table'))`)
				evalJS[bool](tb, `(document.getElementById('spec-editor').open = true, true)`)
			}
			evalJS[bool](tb, axe)
			for i, s := range screens {
				if i > 0 {
					tb.do(chromedp.EmulateViewport(s.width, s.height))
				}
				tb.settle()
				at := s.name
				if v := evalJS[[]string](tb, axeJS); len(v) > 0 {
					t.Errorf("%s: axe-core finds %d serious or critical violations:\n\t%s", at, len(v), strings.Join(v, "\n\t"))
				}
				if over := evalJS[string](tb, overflowJS); over != "" {
					t.Errorf("%s: the page scrolls sideways, %s", at, over)
				}
				if h := evalJS[float64](tb, `document.querySelector('header.top').getBoundingClientRect().height`); h > maxHeader {
					t.Errorf("%s: the sticky header is %.0f px tall, want at most %d", at, h, maxHeader)
				}
				if live := evalJS[[]string](tb, liveJS); len(live) > maxLiveRegions {
					t.Errorf("%s: %d live regions, want at most %d: %q", at, len(live), maxLiveRegions, live)
				}
				if lesson {
					tb.checkJump(at)
					if s.width < 500 {
						tb.checkBar(at)
					}
					if s.name == "1280x900" {
						tb.checkSliders(at)
					}
				}
				// (The whole page, charts off screen drawn too.)
				evalJS[bool](tb, `(window.__drawAll = document.head.appendChild(document.createElement('style')), window.__drawAll.textContent = 'figure.chart { content-visibility: visible !important; }', true)`)
				tb.shot(fmt.Sprintf("screen-%s-%s", name, s.name), "")
				evalJS[bool](tb, `(window.__drawAll.remove(), true)`)
			}
		})
	}
}

// settle waits for the panel to finish what a resize may have started and
// for two frames to be drawn.
func (tb *tab) settle() {
	tb.t.Helper()
	tb.waitFor("an idle panel", `!(document.getElementById('experiment') || document.body).hasAttribute('aria-busy')`)
	evalJS[bool](tb, `new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(() => res(true))))`)
}

// checkJump follows the lesson's link to its experiment: the experiment's
// heading must then sit below the sticky header, not under it.
func (tb *tab) checkJump(at string) {
	tb.t.Helper()
	got := evalJS[string](tb, `(() => {
  const a = document.querySelector('a[href="#experiment"]');
  if (!a) return 'no link to #experiment';
  if (!a.checkVisibility()) return '';
  a.click();
  const head = document.querySelector('header.top').getBoundingClientRect().bottom;
  const top = document.getElementById('experiment').getBoundingClientRect().top;
  window.scrollTo(0, 0);
  return top < head - 0.5 ? 'the experiment starts at ' + Math.round(top) + ' px, under the header ending at ' + Math.round(head) : '';
})()`)
	if got != "" {
		tb.t.Errorf("%s: following the link to the experiment: %s", at, got)
	}
}

// checkBar scrolls each chart of a lesson into view on a phone: the
// lesson's main slider must then be on screen too.
func (tb *tab) checkBar(at string) {
	tb.t.Helper()
	got := evalJS[[]string](tb, `(() => {
  const bad = [];
  const figs = [...document.querySelectorAll('#charts figure.chart')];
  figs.forEach((f, i) => {
    f.scrollIntoView({ block: 'center' });
    const on = [...document.querySelectorAll('.control input[type=range]')].some((r) => {
      const b = r.getBoundingClientRect();
      return r.checkVisibility() && b.height > 0 && b.top >= 0 && b.bottom <= innerHeight;
    });
    if (!on) bad.push('chart ' + (i + 1));
  });
  window.scrollTo(0, 0);
  return bad;
})()`)
	if len(got) > 0 {
		tb.t.Errorf("%s: scrolled to %s, no slider is on screen", at, strings.Join(got, ", "))
	}
}

// checkSliders focuses each slider of the lesson's controls with Tab
// (from the element before it) and checks that it and the first chart
// are then on screen, below the sticky header: the chart's whole height,
// or all of the screen below the slider when it is taller. (The crawler
// view's cycle slider moves the crawler, not the charts.)
func (tb *tab) checkSliders(at string) {
	tb.t.Helper()
	ids := evalJS[[]string](tb, `[...document.querySelectorAll('#controls input[type=range]')].map((r) => r.id)`)
	if len(ids) == 0 {
		return
	}
	for _, id := range ids {
		evalJS[bool](tb, fmt.Sprintf(`(() => {
  window.scrollTo(0, 0);
  const r = document.getElementById(%q);
  const all = [...document.querySelectorAll('a[href], button, input, select, textarea, summary')].filter((e) => !e.disabled && e.checkVisibility());
  const before = all[all.indexOf(r) - 1];
  (before || document.body).focus();
  return true;
})()`, id))
		tb.do(chromedp.KeyEvent(kb.Tab))
		got := evalJS[string](tb, fmt.Sprintf(`(() => {
  const r = document.getElementById(%q);
  if (document.activeElement !== r) return 'Tab did not reach it (focus on ' + (document.activeElement.id || document.activeElement.tagName) + ')';
  const head = document.querySelector('header.top').getBoundingClientRect().bottom;
  // The part of e on screen: below the header, within the screen and
  // within every box around it that clips what overflows it.
  const shown = (e) => {
    const b = e.getBoundingClientRect();
    let top = Math.max(b.top, head), bottom = Math.min(b.bottom, innerHeight);
    for (let p = e.parentElement; p; p = p.parentElement) {
      if (getComputedStyle(p).overflowY === 'visible') continue;
      const q = p.getBoundingClientRect();
      top = Math.max(top, q.top);
      bottom = Math.min(bottom, q.bottom);
    }
    return { top: b.top, bottom: b.bottom, height: b.height, shown: Math.max(0, bottom - top) };
  };
  const svg = document.querySelector('#charts figure.chart svg');
  if (!svg) return 'no chart';
  const s = shown(r), c = shown(svg);
  const out = [];
  if (s.shown < s.height - 0.5) out.push('the slider spans ' + Math.round(s.top) + '–' + Math.round(s.bottom) + ' px');
  // All of the chart, or when it is taller than the screen beside the
  // slider, as much of it as fits.
  const want = Math.min(c.height, innerHeight - head - s.height - 8);
  if (c.shown < want - 1) out.push('the first chart spans ' + Math.round(c.top) + '–' + Math.round(c.bottom) + ' px, ' + Math.round(c.shown) + ' px of it on screen');
  return out.length ? out.join('; ') + ' (the screen shows ' + Math.round(head) + '–' + innerHeight + ' px below the header)' : '';
})()`, id))
		if got != "" {
			label := evalJS[string](tb, fmt.Sprintf(`document.getElementById(%q).labels[0].textContent`, id))
			tb.t.Errorf("%s: focusing the slider %q: %s", at, label, got)
		}
	}
	evalJS[bool](tb, `(document.activeElement.blur(), window.scrollTo(0, 0), true)`)
}
