package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestBrowserSlowRun moves the first lesson to the 300,000-page web
// archive, as a learner might from its dataset menu: the menu warns of it
// (its size and that a run is slow) when it gets the focus, the run says
// how long it should take before it starts, shows a progress bar, and
// Stop ends it, saying how many policies it drew.
func TestBrowserSlowRun(t *testing.T) {
	e := setup(t)
	tb := e.open(t, lessonPath)
	tb.waitRender(0)
	label := evalJS[string](tb, `(() => { const s = [...document.querySelectorAll('#controls select')].find((x) => [...x.options].some((o) => o.value === 'tan-webarchive')); s.focus(); return [...s.options].find((o) => o.value === 'tan-webarchive').textContent; })()`)
	if !strings.Contains(label, "300,000 pages") || !strings.Contains(label, "slow") {
		t.Errorf("the dataset menu names the 300,000-page archive %q, with no warning", label)
	}
	if other := evalJS[string](tb, `[...document.querySelector('#controls select').options].find((o) => o.value === 'alqaaideh-jordan').textContent`); strings.Contains(other, "slow") {
		t.Errorf("the lesson's own dataset is called slow: %q", other)
	}
	evalJS[bool](tb, `(() => { const s = [...document.querySelectorAll('#controls select')].find((x) => [...x.options].some((o) => o.value === 'tan-webarchive')); s.value = 'tan-webarchive'; s.dispatchEvent(new Event('change', { bubbles: true })); return true; })()`)
	tb.waitFor("the progress bar", `!!document.querySelector('#experiment .run-progress progress')`)
	if status := evalJS[string](tb, `document.getElementById('status').textContent`); !strings.Contains(status, "should take about") {
		t.Errorf("a slow run started without saying so: status %q", status)
	}
	time.Sleep(200 * time.Millisecond)
	evalJS[bool](tb, `(document.querySelector('#experiment .run-progress button').click(), true)`)
	tb.waitFor("the stop", `document.getElementById('status').textContent.startsWith('Stopped')`)
	if bars := evalJS[int](tb, `document.querySelectorAll('#experiment .run-progress progress').length`); bars != 0 {
		t.Errorf("%d progress bars left after the stop", bars)
	}
}
