package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserAnnounce checks the panel's live region: after the first run
// it says the headline result (the best real policy by the lesson's
// first readout, its value as the numbers table shows it, out of how
// many), never timings; and while presses keep coming it says nothing:
// each thing it says comes when the panel has drawn nothing for a while,
// and the last is the headline of the value the slider stopped at.
func TestBrowserAnnounce(t *testing.T) {
	tb := setup(t).open(t, lessonPath)
	p := tb.waitRender(0)
	const headline = `(() => {
  // The numbers table's best ChangeRatio among the policies that do not read the truth.
  const rows = [...document.querySelectorAll('#readouts tbody tr:not(.oracle)')];
  const value = (r) => Number(r.querySelector('td .num').textContent);
  const top = rows.reduce((a, b) => (value(b) > value(a) ? b : a));
  return top.querySelector('th').firstChild.textContent + ': ChangeRatio ' + top.querySelector('td .num').textContent + top.querySelector('td .pm').textContent + ', the best of ' + rows.length + '.';
})()`
	tb.waitFor("the first headline", `document.getElementById('announce').textContent !== ''`)
	first := evalJS[string](tb, `document.getElementById('announce').textContent`)
	if want := evalJS[string](tb, headline); first != want {
		t.Errorf("the headline says %q, want %q", first, want)
	}
	if strings.Contains(first, " ms") {
		t.Errorf("the headline speaks of timings: %q", first)
	}
	if role := evalJS[string](tb, `document.getElementById('status').getAttribute('role') || document.getElementById('status').getAttribute('aria-live') || ''`); role != "" {
		t.Errorf("the status line, which changes at every press, is a live region (%q)", role)
	}
	evalJS[bool](tb, `(() => {
  const a = document.getElementById('announce');
  window.__said = [];
  window.__drawn = [];
  new MutationObserver(() => window.__said.push({ at: performance.now(), text: a.textContent }))
    .observe(a, { childList: true, characterData: true, subtree: true });
  document.getElementById('experiment').addEventListener('rendered', () => window.__drawn.push(performance.now()));
  return true;
})()`)
	tb.do(chromedp.Focus(chromedp.CSS(`#controls input[type=range]`)))
	for range 3 {
		tb.do(chromedp.KeyEvent(kb.ArrowRight))
		p = tb.waitRender(p.Renders)
	}
	tb.waitFor("the settled headline", `window.__said.length > 0`)
	time.Sleep(1500 * time.Millisecond) // anything more it would say
	type said struct {
		At   float64
		Text string
	}
	got := evalJS[struct {
		Said  []said
		Drawn []float64
	}](tb, `({ Said: window.__said, Drawn: window.__drawn })`)
	for _, s := range got.Said {
		last := -1.0
		for _, d := range got.Drawn {
			if d <= s.At {
				last = d
			}
		}
		if last >= 0 && s.At-last < 600 {
			t.Errorf("%q was said %.0f ms after a drawing, while presses still came", s.Text, s.At-last)
		}
	}
	want := evalJS[string](tb, headline)
	if n := len(got.Said); n == 0 || got.Said[n-1].Text != want || want == first {
		t.Errorf("after three presses the panel said %+v, want the new headline %q last", got.Said, want)
	}
}
