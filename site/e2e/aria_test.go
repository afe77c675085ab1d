package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserValueText checks what a screen reader hears for a slider's
// value (screen.js valueText): the value and the unit its label names.
func TestBrowserValueText(t *testing.T) {
	tb := setup(t).open(t, lessonPath)
	tb.waitRender(0)
	for _, tc := range []struct {
		label, value string
		auto         bool
		want         string
	}{
		{"Downloads per cycle", "114", false, "114 downloads per cycle"},
		{"Downloads per cycle", "1", false, "1 download per cycle"},
		{"Crawl interval (days)", "0.25", false, "0.25 days"},
		{"Crawl interval (days)", "1", false, "1 day"},
		{"True change rate (changes per day)", "2.5", false, "2.5 changes per day"},
		{"κ, pages per site per round", "3", false, "3 pages per site per round"},
		{"Topics per page (TOPIC)", "6", false, "6 topics per page"},
		{"Clusters k (0 = cross-validate)", "100", false, "100"},
		{"Seed", "7", false, "7"},
		{"Sample size per site", "4", true, "4, computed by the lab (auto)"},
		{"Pages sampled per group", "1", false, "1 page sampled per group"},
	} {
		got := evalJS[string](tb, fmt.Sprintf(`(async () => (await import('/js/screen.js')).valueText(%q, %q, %v))()`, tc.label, tc.value, tc.auto))
		if got != tc.want {
			t.Errorf("valueText(%q, %s, %v) = %q, want %q", tc.label, tc.value, tc.auto, got, tc.want)
		}
	}
	// The page's sliders carry it, and follow a press.
	id := evalJS[string](tb, SliderJS("^Downloads")+`.id`)
	if got := evalJS[string](tb, fmt.Sprintf(`document.getElementById(%q).getAttribute('aria-valuetext')`, id)); got != "114 downloads per cycle" {
		t.Errorf("the budget slider's aria-valuetext is %q, want %q", got, "114 downloads per cycle")
	}
	p := tb.waitRender(0) // (drawn already)
	tb.do(chromedp.Focus(chromedp.ID(id)), chromedp.KeyEvent(kb.ArrowRight))
	tb.waitRender(p.Renders)
	if got := evalJS[string](tb, fmt.Sprintf(`document.getElementById(%q).getAttribute('aria-valuetext')`, id)); got != "116 downloads per cycle" {
		t.Errorf("after a press the budget slider's aria-valuetext is %q, want %q", got, "116 downloads per cycle")
	}
	// Each chart's buttons name it by its title.
	type named struct{ Title, Button, Summary string }
	for i, c := range evalJS[[]named](tb, `[...document.querySelectorAll('#charts figure.chart')].map((f) => ({
  Title: f.querySelector(':scope > svg > title').textContent.trim(),
  Button: (f.querySelector('.chart-tools > button') || { getAttribute: () => '' }).getAttribute('aria-label'),
  Summary: f.querySelector('details.data summary').textContent,
}))`) {
		if c.Button != "Download SVG of "+c.Title {
			t.Errorf("chart %d (%q): its Download button is named %q", i+1, c.Title, c.Button)
		}
		if c.Summary != "Data table of "+c.Title {
			t.Errorf("chart %d (%q): its data table's summary reads %q", i+1, c.Title, c.Summary)
		}
	}
}

// minFocusContrast is the least contrast the focus ring may have against
// the background around the element it marks (WCAG 2.2, 1.4.11).
const minFocusContrast = 3.0

// focusRingJS describes the focus ring of the focused element: its style
// and the contrast of its colour against the first opaque background
// behind the element.
const focusRingJS = `(() => {
  const e = document.activeElement;
  const s = getComputedStyle(e);
  const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  let bg = [255, 255, 255];
  for (let p = e.parentElement; p; p = p.parentElement) {
    const c = rgb(getComputedStyle(p).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] === 1)) { bg = c.slice(0, 3); break; }
  }
  const [a, b] = [lum(rgb(s.outlineColor).slice(0, 3)), lum(bg)];
  return {
    What: e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.type ? '[' + e.type + ']' : ''),
    Style: s.outlineStyle, Width: parseFloat(s.outlineWidth),
    Contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05),
  };
})()`

// TestBrowserFocusRing moves the keyboard's focus with Tab through the
// first controls of a lesson page (header links, the narrative's links,
// the panel's controls, the pinned bar on a phone) and checks that each
// focused element shows a solid ring at least 2 px wide whose colour has
// at least minFocusContrast against the background behind it.
func TestBrowserFocusRing(t *testing.T) {
	for _, s := range []struct{ w, h int64 }{{390, 844}, {1280, 900}} {
		tb := setup(t).open(t, "")
		tb.do(chromedp.EmulateViewport(s.w, s.h), chromedp.Navigate(Probed(tb.env.url+lessonPath)))
		tb.waitRender(0)
		type ring struct {
			What, Style     string
			Width, Contrast float64
		}
		checked := 0
		for range 40 {
			tb.do(chromedp.KeyEvent(kb.Tab))
			r := evalJS[ring](tb, focusRingJS)
			if r.What == "body" {
				continue
			}
			checked++
			if r.Style != "solid" || r.Width < 2 || r.Contrast < minFocusContrast {
				t.Errorf("%dx%d: focused %s: ring %s %.0f px, contrast %.2f:1 against its background, want solid, at least 2 px and %.1f:1",
					s.w, s.h, r.What, r.Style, r.Width, r.Contrast, minFocusContrast)
			}
		}
		if checked < 30 {
			t.Errorf("%dx%d: Tab reached an element only %d times in 40", s.w, s.h, checked)
		}
	}
}
