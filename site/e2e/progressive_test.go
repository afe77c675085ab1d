package e2e

import (
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserProgressiveRun reads a long log of mostly quiet pages on the
// upload page: every policy is drawn as it finishes, the rows to come say
// so, and the numbers end as the whole spec's; "More repeats" runs again
// with more, and Stop ends such a run with the policies drawn so far, which
// "Run the rest" completes.
func TestBrowserProgressiveRun(t *testing.T) {
	e := setup(t)
	path := writeFile(t, "quiet-crawl-log.csv", func(w io.Writer) error {
		_, err := WriteQuietCrawlLog(w, 300, 60, 400, 7)
		return err
	})
	tb := e.open(t, uploadPath)
	tb.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{path}))
	tb.waitFor("the summary", `!document.getElementById('summary').hidden`)
	p := tb.waitRender(0)
	spec := tb.urlSpec()
	steps := evalJS[[]int](tb, `(window.__refreshLab.partial || []).map((s) => s.policies)`)
	if len(steps) != len(spec.Policies)-1 {
		t.Errorf("%d partial drawings for %d policies, want one for each but the last (which is the whole run): %v", len(steps), len(spec.Policies), steps)
	}
	for i, k := range steps {
		if k != i+1 {
			t.Errorf("partial drawing %d showed %d policies, want %d", i+1, k, i+1)
		}
	}
	if n := tb.numbers(); len(n.Rows) != len(spec.Policies) || strings.Contains(n.Text, "waiting") || strings.Contains(n.Text, "computing") {
		t.Errorf("after the run the numbers are not every policy's:\n%s", n.Text)
	}
	if spec.Repeats != 3 {
		t.Errorf("the page starts with %d repeats, want 3", spec.Repeats)
	}

	// More repeats, stopped at once: some policies drawn, the status says
	// so, and the rest runs on request.
	evalJS[bool](tb, `(window.__refreshLab.partial = [], true)`)
	clickButton(tb, "More repeats")
	tb.waitFor("the progress bar", `!!document.querySelector('.run-progress progress')`)
	clickButton(tb, "Stop")
	tb.waitFor("the stop", `document.getElementById('status').textContent.startsWith('Stopped with')`)
	if evalJS[bool](tb, `!!document.querySelector('.run-progress progress')`) {
		t.Error("the progress bar is still shown after the stop")
	}
	stopped := evalJS[string](tb, `document.getElementById('status').textContent`)
	tb.shot("13-progressive-stopped", "#experiment")
	clickButton(tb, "Run the rest")
	tb.waitRender(p.Renders)
	if got := tb.urlSpec(); got.Repeats != 10 {
		t.Errorf("after More repeats the spec has %d repeats, want 10 (status after the stop: %q)", got.Repeats, stopped)
	}
	if n := tb.numbers(); len(n.Rows) != len(spec.Policies) || strings.Contains(n.Text, "waiting") {
		t.Errorf("after Run the rest the numbers are not every policy's:\n%s", n.Text)
	}
}

// clickButton clicks the page's button whose text is text.
func clickButton(tb *tab, text string) {
	tb.t.Helper()
	if !evalJS[bool](tb, `((t) => { const b = [...document.querySelectorAll('button')].find((b) => b.textContent === t); if (b) b.click(); return !!b; })(`+strconv.Quote(text)+`)`) {
		tb.t.Fatalf("no button %q on the page", text)
	}
}
