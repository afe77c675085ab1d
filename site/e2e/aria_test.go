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
