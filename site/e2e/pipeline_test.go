package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// pipelineOut is the Beam pipeline's output on the example Common Crawl
// index (`make pipeline PIPELINE_OUT=site/e2e/testdata/pipeline`, its
// sites.csv left out): what a researcher brings to the upload page.
var pipelineOut = filepath.Join("testdata", "pipeline")

// copyFile copies the pipeline's output file name to a test file called
// as, and returns its path.
func copyFile(t *testing.T, name, as string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(pipelineOut, name))
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, as, func(w io.Writer) error { _, err := w.Write(b); return err })
}

// TestBrowserUploadPipeline opens the pipeline's outputs on the upload
// page: its rates.csv and summary.json chosen together give the summary's
// view (its pages, sites, captures and rate histogram, as the file says)
// and the schedule kind on the rates, with the allocation per page and the
// schedules compared; nothing crosses the network but static files. Its
// sample.csv reads as a crawl log of the sample's pages. A summary.json
// that is not JSON, or whose pages are not a count, is refused with its
// line and column, and its text is shown as text, never as markup.
func TestBrowserUploadPipeline(t *testing.T) {
	e := setup(t)
	var sum struct {
		Pages     int `json:"pages"`
		Sites     int `json:"sites"`
		Captures  int `json:"captures"`
		Sample    int `json:"samplePages"`
		Histogram []struct {
			Pages int `json:"pages"`
		} `json:"rateHistogram"`
	}
	raw, err := os.ReadFile(filepath.Join(pipelineOut, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &sum); err != nil {
		t.Fatal(err)
	}
	rates := copyFile(t, "rates.csv", "rates.csv")
	summary := copyFile(t, "summary.json", "summary.json")

	mark := e.rec.Mark()
	tb := e.open(t, uploadPath)
	// Both at once, the rates file second: it is sniffed by its header.
	tb.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{summary, rates}))
	tb.waitFor("the pipeline's summary", `!document.getElementById('pipeline').hidden`)
	got := evalJS[map[string]string](tb, `Object.fromEntries([...document.querySelectorAll('#pipeline-facts dt')].map((dt) => [dt.textContent, dt.nextElementSibling.textContent]))`)
	for k, want := range map[string]string{"Pages": fmt.Sprint(sum.Pages), "Sites": fmt.Sprint(sum.Sites), "Captures": fmt.Sprint(sum.Captures), "File": "summary.json"} {
		if got[k] != want {
			t.Errorf("the pipeline summary's %s = %q, want %q (all: %q)", k, got[k], want, got)
		}
	}
	if !strings.Contains(got["Read"], "never sent") {
		t.Errorf("the summary's Read says %q; want where it went", got["Read"])
	}
	bins := evalJS[[]string](tb, `[...document.querySelectorAll('#rate-hist tbody td.num')].map((td) => td.textContent)`)
	if len(bins) != len(sum.Histogram) {
		t.Errorf("the rate histogram shows %d bins, the summary has %d", len(bins), len(sum.Histogram))
	} else {
		for i, b := range sum.Histogram {
			if bins[i] != fmt.Sprint(b.Pages) {
				t.Errorf("bin %d shows %s pages, the summary says %d", i, bins[i], b.Pages)
			}
		}
	}

	waitSummary(tb, "rates.csv")
	if f := evalJS[string](tb, `document.querySelector('input[name="format"]:checked').value`); f != "rates" {
		t.Errorf("rates.csv read as %q", f)
	}
	if got := facts(tb)["Pages"]; got != fmt.Sprint(sum.Pages) {
		t.Errorf("the rates dataset has %s pages, the summary %d", got, sum.Pages)
	}
	tb.waitFor("the schedules", `!document.getElementById('experiment').hidden`)
	tb.waitRender(0)
	if s := tb.addressSpec(); !strings.Contains(s, `"kind":"schedule"`) {
		t.Errorf("the rates opened in %s; want the schedule kind", s)
	}
	var titles []string
	for _, c := range tb.charts() {
		if !c.SVG {
			t.Errorf("a chart is not drawn: %s", c.Markup)
		}
		titles = append(titles, c.Title)
	}
	if j := strings.Join(titles, " | "); !strings.Contains(j, "Allocation per page") {
		t.Errorf("the charts are %q; want the allocation per page", j)
	}
	num := tb.numbers()
	syncs := num.col(t, "Syncs per day")
	rows := map[string]bool{}
	for _, r := range num.Rows {
		// A plan spends the bandwidth set (a sync per day here); an
		// adaptive rule, its own.
		if strings.HasPrefix(r.Name, "Uniform") && !strings.HasPrefix(r.Nums[syncs], "1.0") {
			t.Errorf("uniform spends %s syncs per day; want the 1 set", r.Nums[syncs])
		}
		rows[r.Name] = true
	}
	for _, want := range []string{"Uniform", "Proportional"} {
		found := false
		for name := range rows {
			found = found || strings.HasPrefix(name, want)
		}
		if !found {
			t.Errorf("the schedules compared are %v; want %s among them", rows, want)
		}
	}
	if len(rows) < 4 {
		t.Errorf("the schedules compared are %v; want every schedule", rows)
	}
	// A chart off screen is not painted (lab.css content-visibility): every
	// one is, for the shots.
	evalJS[bool](tb, `(document.head.appendChild(document.createElement('style')).textContent = 'figure.chart { content-visibility: visible !important; }', true)`)
	for _, v := range []struct {
		name string
		w, h int64
	}{{"390", 390, 844}, {"1280", 1280, 900}} {
		tb.do(chromedp.EmulateViewport(v.w, v.h))
		tb.shot("40-upload-pipeline-summary-"+v.name, "#pipeline")
		tb.shot("40-upload-pipeline-schedules-"+v.name, "#experiment")
	}
	for _, r := range e.rec.Since(mark) {
		if r.Method != http.MethodGet || strings.HasPrefix(r.Path, "/api/") || r.Body != 0 {
			t.Errorf("the upload page sent %s; want only GETs of static files", r)
		}
	}

	// The sample: a crawl log of the sample's pages.
	tb.do(chromedp.Click(chromedp.CSS(`input[name="format"][value="crawl-log"]`)))
	tb.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{copyFile(t, "sample.csv", "sample.csv")}))
	waitSummary(tb, "sample.csv")
	if got := facts(tb)["Pages"]; got != fmt.Sprint(sum.Sample) {
		t.Errorf("sample.csv read as a crawl log has %s pages, the summary says %d", got, sum.Sample)
	}
	tb.waitFor("the refresh kind on the sample", `(new URL(location.href).searchParams.get('spec') || '').includes('"kind":"refresh"')`)

	// Bad summaries: where, and as text.
	for _, c := range []struct{ name, text, want string }{
		{"broken.json", "{\n  \"pages\": 3,\n  \"sites\" 1\n}\n", "line 3, column 11"},
		{"pages.json", "{\n  \"pages\": \"<img src=x onerror=alert(1)>\",\n  \"sites\": 1\n}\n", `line 2, column 3: "pages" is "<img src=x onerror=alert(1)>": expected a count`},
	} {
		tb.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{writeFile(t, c.name, func(w io.Writer) error { _, err := io.WriteString(w, c.text); return err })}))
		tb.waitFor("the error of "+c.name, `!!document.getElementById('pipeline-error') && document.getElementById('pipeline-error').textContent.includes(`+fmt.Sprintf("%q", c.name)+`)`)
		msg := evalJS[string](tb, `document.getElementById('pipeline-error').textContent`)
		if !strings.Contains(msg, c.want) {
			t.Errorf("%s: the error says %q; want %q", c.name, msg, c.want)
		}
		if n := evalJS[int](tb, `document.querySelectorAll('#pipeline img').length`); n != 0 {
			t.Errorf("%s: the file's text made %d img elements", c.name, n)
		}
	}
	tb.shot("41-upload-pipeline-error", "#pipeline")
}

// TestBrowserUploadPipelineServer chooses the pipeline's rates.csv and
// summary.json with ?engine=server: the page says the rates go to the
// server and the summary nowhere, and the server receives the rates file
// alone.
func TestBrowserUploadPipelineServer(t *testing.T) {
	e := setup(t)
	rates := copyFile(t, "rates.csv", "rates.csv")
	summary := copyFile(t, "summary.json", "summary.json")
	size, err := os.Stat(rates)
	if err != nil {
		t.Fatal(err)
	}
	mark := e.rec.Mark()
	tb := e.open(t, uploadPath+"?engine=server")
	tb.waitFor("where logs go", `document.getElementById('where-logs-go').textContent.includes('server')`)
	if w := evalJS[string](tb, `document.getElementById('where-logs-go').textContent`); !strings.Contains(w, "sent to this server") {
		t.Errorf("with the server engine the page says %q", w)
	}
	tb.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{rates, summary}))
	waitSummary(tb, "rates.csv")
	tb.waitFor("the pipeline's summary", `!document.getElementById('pipeline').hidden`)
	if r := facts(tb)["Read in"]; !strings.HasSuffix(r, "on the server") {
		t.Errorf("the rates' Read in says %q; want on the server", r)
	}
	var posts []Request
	for _, r := range e.rec.Since(mark) {
		if r.Method == http.MethodPost && r.Path == "/api/datasets" {
			posts = append(posts, r)
		}
	}
	if len(posts) != 1 || posts[0].Body != size.Size() {
		t.Errorf("the server received %v; want one upload of the rates' %d bytes", posts, size.Size())
	}
}
