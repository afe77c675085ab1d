package e2e

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// eventShape is what writeEventLog wrote.
type eventShape struct {
	Sites, Pages, Rows, ChangeRows, Merged, Cycles int
}

// writeEventLog writes a synthetic change-event log (header
// page,site,time,event): sites × pagesPerSite pages, each with a start row
// at 2024-05-01 00:30 UTC and a change at 10:00 plus some minutes on the
// days a fixed pattern says (site i's pages change on about (i+1) days in
// sites+1); each site's first page logs a second change 20 minutes after
// each of its changes (to be merged); a technical row at 23:00 on the last
// day ends the window, so days days make days one-day cycles.
func writeEventLog(w io.Writer, sites, pagesPerSite, days int) (eventShape, error) {
	bw := bufio.NewWriter(w)
	bw.WriteString("page,site,time,event\n")
	t0 := time.Date(2024, 5, 1, 0, 30, 0, 0, time.UTC)
	sh := eventShape{Sites: sites, Pages: sites * pagesPerSite, Cycles: days}
	row := func(s, p int, t time.Time, event string) {
		host := fmt.Sprintf("site%d.example", s)
		fmt.Fprintf(bw, "https://%s/p%d,%s,%s,%s\n", host, p, host, t.Format(time.RFC3339), event)
		sh.Rows++
	}
	for s := range sites {
		for p := range pagesPerSite {
			row(s, p, t0, "start")
		}
	}
	for day := range days {
		for s := range sites {
			for p := range pagesPerSite {
				if (p*7+day*3+s)%(sites+1) > s {
					continue
				}
				at := t0.AddDate(0, 0, day).Add(9*time.Hour + 30*time.Minute + time.Duration(p)*time.Minute)
				row(s, p, at, "change")
				sh.ChangeRows++
				if p == 0 {
					row(s, p, at.Add(20*time.Minute), "change")
					sh.ChangeRows++
					sh.Merged++
				}
			}
		}
	}
	row(0, 0, t0.AddDate(0, 0, days-1).Add(22*time.Hour+30*time.Minute), "technical")
	return sh, bw.Flush()
}

// facts reads the upload summary's facts, by their names.
func facts(tb *tab) map[string]string {
	return evalJS[map[string]string](tb, `Object.fromEntries([...document.querySelectorAll('#facts dt')].map((dt) => [dt.textContent, dt.nextElementSibling ? dt.nextElementSibling.textContent : '']))`)
}

// uploadError waits for the upload error and returns its text and the
// highlighted cells.
func uploadError(tb *tab) (string, []string) {
	tb.waitFor("the upload error", `!document.getElementById('upload-error').hidden`)
	return evalJS[string](tb, `document.getElementById('upload-error').textContent`),
		evalJS[[]string](tb, `[...document.querySelectorAll('#upload-error mark')].map((m) => m.textContent)`)
}

// TestBrowserUploadEvents reads change-event logs on the upload page: a
// change-event log given as a crawl log is refused with a hint to switch;
// a bad one is refused with its line and column; a good generated one
// shows its summary and every policy on it; and nothing crosses the
// network but the page's static files. With the real Open Terms Archive
// logs beside the project (../shared/data, not in the repository) it also
// reads the pga log as it is; without them that part skips, saying so.
func TestBrowserUploadEvents(t *testing.T) {
	e := setup(t)
	good := filepath.Join(t.TempDir(), "good-change-events.csv")
	f, err := os.Create(good)
	if err != nil {
		t.Fatal(err)
	}
	shape, err := writeEventLog(f, 3, 4, 10)
	if err != nil || f.Close() != nil {
		t.Fatal(err)
	}
	bad := writeFile(t, "bad-change-events.csv", func(w io.Writer) error {
		_, err := io.WriteString(w, `page,site,time,event
https://a.example/1,a.example,2024-05-01T00:30:00Z,start
https://a.example/2,a.example,2024-05-01T00:30:00Z,start
https://a.example/1,a.example,soon,change
https://a.example/2,a.example,2024-05-02T10:00:00Z,change
`)
		return err
	})

	mark := e.rec.Mark()
	tb := e.open(t, uploadPath)

	// Read as a crawl log, a change-event log lacks a change column: the
	// error says so and suggests the other format.
	tb.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{good}))
	msg, _ := uploadError(tb)
	for _, want := range []string{"line 1", "a change column", "choose “change events”"} {
		if !strings.Contains(msg, want) {
			t.Errorf("reading events as a crawl log: the error does not say %q: %s", want, msg)
		}
	}

	tb.do(chromedp.Click(chromedp.CSS(`input[name="format"][value="change-events"]`)))
	if got := evalJS[string](tb, `document.getElementById('drop-what').textContent`); got != "Drop a change-event log here" {
		t.Errorf("after choosing change events the drop zone says %q", got)
	}
	if evalJS[bool](tb, `document.getElementById('merge-option').hidden`) {
		t.Error("the merge option is hidden for change events")
	}

	tb.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{bad}))
	msg, marked := uploadError(tb)
	for _, want := range []string{"line 4", "column 3", "(time)", "expected a time", `"soon"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("the upload error does not say %q: %s", want, msg)
		}
	}
	if !slices.Equal(marked, []string{"soon"}) {
		t.Errorf("the highlighted cells are %q, want [soon]", marked)
	}
	if evalJS[bool](tb, `!document.getElementById('summary').hidden || !document.getElementById('experiment').hidden`) {
		t.Error("a bad event log still showed a summary or an experiment")
	}
	tb.shot("07-upload-events-error", "")

	tb.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{good}))
	tb.waitFor("the events' summary", `!document.getElementById('summary').hidden`)
	got := facts(tb)
	kept := shape.ChangeRows - shape.Merged
	for fact, want := range map[string]string{
		"Read as":    "change events",
		"Pages":      strconv.Itoa(shape.Pages),
		"Sites":      strconv.Itoa(shape.Sites),
		"Event rows": strconv.Itoa(shape.Rows),
		"Dropped":    "technical 1 (not page changes)",
	} {
		if got[fact] != want {
			t.Errorf("summary %s = %q, want %q (all facts: %q)", fact, got[fact], want, got)
		}
	}
	if want := fmt.Sprintf("%d kept of %d change rows (%d merged within 1 hour", kept, shape.ChangeRows, shape.Merged); !strings.HasPrefix(got["Changes"], want) {
		t.Errorf("summary Changes = %q, want it to begin %q", got["Changes"], want)
	}
	if want := fmt.Sprintf("%d of 1 day (the default)", shape.Cycles); got["Cycles"] != want {
		t.Errorf("summary Cycles = %q, want %q", got["Cycles"], want)
	}
	if !evalJS[bool](tb, `document.getElementById('upload-error').hidden`) {
		t.Errorf("the upload error is still shown: %s", evalJS[string](tb, `document.getElementById('upload-error').textContent`))
	}
	tb.waitFor("the events' experiment", `!document.getElementById('experiment').hidden`)
	tb.waitRender(0)
	// Every refresh policy of the catalog is in the spec (six when this
	// test was written; more arrive).
	spec := tb.urlSpec()
	if n := tb.numbers(); len(n.Rows) != len(spec.Policies) || len(n.Rows) < 6 {
		t.Errorf("the events' experiment shows %d policies, want every refresh policy (%d in the spec):\n%s", len(n.Rows), len(spec.Policies), n.Text)
	}
	if cs := tb.charts(); len(cs) != 3 {
		t.Errorf("the events' experiment drew %d charts, want 3", len(cs))
	}
	if !strings.HasPrefix(spec.Dataset.ID, "events-") {
		t.Errorf("the link's spec names dataset %q, want an events- id", spec.Dataset.ID)
	}
	tb.shot("07-upload-events", "")

	// Another cycle length reads the same file again: another dataset,
	// whose summary and experiment both have 12-hour cycles.
	renders := evalJS[int](tb, `window.__refreshLab.renders`)
	evalJS[bool](tb, `(() => { const c = document.getElementById('cycle'); c.value = '12h'; c.dispatchEvent(new Event('change')); return true; })()`)
	want12 := fmt.Sprintf("%d of 12 hours", 2*shape.Cycles)
	tb.waitFor("the 12-hour summary", fmt.Sprintf(`[...document.querySelectorAll('#facts dt')].some((dt) => dt.textContent === 'Cycles' && dt.nextElementSibling.textContent === %q)`, want12))
	tb.waitRender(renders)
	tb.waitFor("the 12-hour experiment", fmt.Sprintf(`(() => { const s = JSON.parse(new URL(location.href).searchParams.get('spec') || '{}'); return s.dataset && s.dataset.id !== %q; })()`, spec.Dataset.ID))
	if cap := evalJS[string](tb, `document.querySelector('#readouts caption').textContent`); !strings.Contains(cap, fmt.Sprintf("averaged over %d cycles", 2*shape.Cycles)) {
		t.Errorf("after reading with 12-hour cycles the numbers say %q, want %d cycles", cap, 2*shape.Cycles)
	}

	for _, r := range e.rec.Since(mark) {
		if r.Method != http.MethodGet || strings.HasPrefix(r.Path, "/api/") || r.Body != 0 || strings.Contains(r.Path, "change-events") {
			t.Errorf("the upload page sent %s; want only GETs of static files", r)
		}
	}

	t.Run("open terms archive", func(t *testing.T) {
		path := filepath.Join("..", "..", "..", "shared", "data", "ota-pga-versions", "events.csv")
		if _, err := os.Stat(path); err != nil {
			t.Skipf("skipped: the real Open Terms Archive log %s is not beside the project", path)
		}
		path, _ = filepath.Abs(path)
		mark := e.rec.Mark()
		tb := e.open(t, uploadPath)
		tb.do(chromedp.Click(chromedp.CSS(`input[name="format"][value="change-events"]`)))
		evalJS[string](tb, `document.getElementById('cycle').value = '12h'`)
		tb.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{path}))
		tb.waitFor("the archive's summary", `!document.getElementById('summary').hidden || !document.getElementById('upload-error').hidden`)
		got := facts(tb)
		// The pga log: 4,842 events of 133 pages (documents) of 26
		// services, 4,412 of them changes; 105 of those merged (core/dataset's
		// TestReadEventLogOTA says why).
		for fact, want := range map[string]string{"Pages": "133", "Sites": "26", "Event rows": "4,842", "Dropped": "other 1, technical 296 (not page changes)"} {
			if got[fact] != want {
				t.Errorf("summary %s = %q, want %q (all facts: %q)", fact, got[fact], want, got)
			}
		}
		if !strings.HasPrefix(got["Read as"], "Open Terms Archive events") || !strings.HasPrefix(got["Changes"], "4,307 kept of 4,412 change rows (105 merged") ||
			!strings.HasSuffix(got["Cycles"], "of 12 hours") {
			t.Errorf("summary: %q", got)
		}
		tb.waitFor("the archive's experiment", `!document.getElementById('experiment').hidden`)
		tb.waitRender(0)
		tb.shot("08-upload-ota-events", "")
		tb.shot("08-upload-ota-summary", "#summary")
		for _, r := range e.rec.Since(mark) {
			if r.Method != http.MethodGet || strings.HasPrefix(r.Path, "/api/") || r.Body != 0 {
				t.Errorf("the upload page sent %s; want only GETs of static files", r)
			}
		}
	})
}
