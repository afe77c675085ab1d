package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserMonitoringLessons moves, on each monitoring lesson built on
// the monitor kind's own fields, the slider that sets one (a generator's
// skew, the re-allocation period) and checks that the chart it drives is
// redrawn with other data: the sweep of RIR against the budget when θ
// changes (the whole sweep reruns on the redrawn instance), and RIR per
// epoch when CAM starts to re-allocate. TestBrowserEveryLesson loads all
// three and moves their first slider.
func TestBrowserMonitoringLessons(t *testing.T) {
	e := setup(t)
	for _, tt := range []struct {
		lesson, slider string
		key            string
		chart          int // index of the chart in the lesson
	}{
		{"where-to-spend-monitoring-tasks", "^Change-rate skew", kb.ArrowLeft, 0},
		{"scheduling-and-reallocation", "^Re-allocate every", kb.ArrowRight, 1},
	} {
		t.Run(tt.lesson, func(t *testing.T) {
			tb := e.open(t, "/lessons/"+tt.lesson+".html")
			first := tb.waitRender(0)
			chartJS := fmt.Sprintf(`document.querySelectorAll('#charts figure.chart svg')[%d].outerHTML`, tt.chart)
			evalJS[bool](tb, `(window.__monitoringBefore = `+chartJS+`, true)`)
			id := evalJS[string](tb, `(`+SliderJS(tt.slider)+` || {}).id || ''`)
			if id == "" {
				t.Fatalf("no slider %q", tt.slider)
			}
			tb.do(chromedp.Focus(chromedp.ID(id)), chromedp.KeyEvent(tt.key))
			tb.waitRender(first.Renders)
			tb.waitFor("the chart redrawn", chartJS+` !== window.__monitoringBefore`)
		})
	}
}
