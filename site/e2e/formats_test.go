package e2e

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// renamedLog writes the crawl log WriteCrawlLog writes, with its columns
// named as another tool might name them: url, host, crawled_at,
// content_changed.
func renamedLog(t *testing.T) (string, LogShape) {
	var shape LogShape
	path := writeFile(t, "renamed-crawl-log.csv", func(w io.Writer) error {
		var b bytes.Buffer
		var err error
		if shape, err = WriteCrawlLog(&b, 3, 4, 11); err != nil {
			return err
		}
		_, err = io.WriteString(w, strings.Replace(b.String(), "page,site,time,changed", "url,host,crawled_at,content_changed", 1))
		return err
	})
	return path, shape
}

// gzipMembers compresses b into gzip members of at most n bytes of text.
func gzipMembers(t *testing.T, b []byte, n int) []byte {
	var out bytes.Buffer
	for len(b) > 0 {
		k := min(n, len(b))
		w := gzip.NewWriter(&out)
		if _, err := w.Write(b[:k]); err != nil || w.Close() != nil {
			t.Fatal(err)
		}
		b = b[k:]
	}
	return out.Bytes()
}

// waitSummary waits for the summary of the log named name, or an upload
// error, which fails the test.
func waitSummary(tb *tab, name string) {
	tb.t.Helper()
	shown := fmt.Sprintf(`!document.getElementById('summary').hidden && [...document.querySelectorAll('#facts dt')].some((dt) => dt.textContent === 'Dataset' && dt.nextElementSibling.textContent === %q)`, name)
	tb.waitFor("the summary of "+name, shown+` || !document.getElementById('upload-error').hidden`)
	if !evalJS[bool](tb, shown) {
		tb.t.Fatalf("reading %s: %s", name, evalJS[string](tb, `document.getElementById('upload-error').textContent`))
	}
}

// TestBrowserUploadColumnMap drops a log whose columns are named url,
// host, crawled_at and content_changed: the page says what is missing,
// shows the first rows with a column chosen for each role it could read
// or guess, reads the log with that map, and finds it again after a
// reload.
func TestBrowserUploadColumnMap(t *testing.T) {
	e := setup(t)
	path, shape := renamedLog(t)
	mark := e.rec.Mark()
	tb := e.open(t, uploadPath)
	tb.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{path}))
	msg, _ := uploadError(tb)
	if !strings.Contains(msg, "a change column") {
		t.Errorf("the error does not say the change column is missing: %s", msg)
	}
	tb.waitFor("the mapping step", `!document.getElementById('mapping').hidden`)
	chosen := evalJS[map[string]string](tb, `Object.fromEntries([...document.querySelectorAll('#mapping-roles select')].map((s) => [s.dataset.role, s.value === '' ? '' : s.options[s.selectedIndex].text]))`)
	// url and crawled_at are names the lab reads; host and content_changed
	// are guessed from their names.
	for role, want := range map[string]string{"page": "", "url": "url", "site": "host", "time": "crawled_at", "changed": "content_changed", "hash": ""} {
		if chosen[role] != want {
			t.Errorf("the mapping step chose %q for %s, want %q (all: %q)", chosen[role], role, want, chosen)
		}
	}
	if got := evalJS[int](tb, `document.querySelectorAll('#mapping-roles .guessed').length`); got != 2 {
		t.Errorf("%d roles marked guessed, want 2 (site and changed)", got)
	}
	if rows, cols := evalJS[int](tb, `document.querySelectorAll('#mapping-rows tbody tr').length`), evalJS[int](tb, `document.querySelectorAll('#mapping-rows thead th').length`); rows != 5 || cols != 4 {
		t.Errorf("the preview shows %d rows of %d columns, want 5 of 4", rows, cols)
	}
	if as := evalJS[string](tb, `document.querySelector('#mapping-rows thead th[data-col="1"] .as').textContent`); as != "Site" {
		t.Errorf("the host column is marked %q, want Site", as)
	}
	tb.shot("09-upload-mapping", "")
	tb.do(chromedp.EmulateViewport(390, 844))
	tb.shot("09-upload-mapping-390", "")
	tb.do(chromedp.EmulateViewport(1400, 900))

	tb.do(chromedp.Click(chromedp.CSS("#mapping-read")))
	checkUploaded(tb, shape)
	if evalJS[bool](tb, `!document.getElementById('mapping').hidden`) {
		t.Error("the mapping step is still shown after the log was read")
	}
	if got := facts(tb)["Columns used"]; got != "url, host, crawled_at, content_changed" {
		t.Errorf("columns used %q", got)
	}
	id := tb.urlSpec().Dataset.ID
	for _, r := range e.rec.Since(mark) {
		if r.Method != http.MethodGet || strings.HasPrefix(r.Path, "/api/") || r.Body != 0 {
			t.Errorf("the upload page sent %s; want only GETs of static files", r)
		}
	}

	// A reload reads the log again from this browser, with its map.
	here := evalJS[string](tb, `location.href`)
	tb.do(chromedp.Navigate(here))
	tb.waitFor("the restored experiment", `!document.getElementById('experiment').hidden`)
	tb.waitRender(0)
	if got := tb.urlSpec().Dataset.ID; got != id {
		t.Errorf("after a reload the experiment runs on %s, want %s", got, id)
	}
	if !evalJS[bool](tb, `document.getElementById('upload-error').hidden`) {
		t.Errorf("after a reload: %s", evalJS[string](tb, `document.getElementById('upload-error').textContent`))
	}
}

// TestBrowserUploadGzip drops a crawl log, then the same log
// gzip-compressed in one member (decompressed in the page's worker) and
// in several (as Common Crawl writes its index files; the browser's
// DecompressionStream stops after the first, so the lab's module
// decompresses it): each is the same dataset, with the same summary.
func TestBrowserUploadGzip(t *testing.T) {
	e := setup(t)
	var plain bytes.Buffer
	shape, err := WriteCrawlLog(&plain, 3, 4, 11)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"crawl-log.csv":            plain.Bytes(),
		"crawl-log.csv.gz":         gzipMembers(t, plain.Bytes(), plain.Len()),
		"crawl-log-members.csv.gz": gzipMembers(t, plain.Bytes(), 1000),
	}
	mark := e.rec.Mark()
	tb := e.open(t, uploadPath)
	var id string
	var want map[string]string
	for _, name := range []string{"crawl-log.csv", "crawl-log.csv.gz", "crawl-log-members.csv.gz"} {
		path := writeFile(t, name, func(w io.Writer) error { _, err := w.Write(files[name]); return err })
		tb.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{path}))
		waitSummary(tb, name)
		checkUploaded(tb, shape)
		got := facts(tb)
		delete(got, "Read in")
		delete(got, "Dataset")
		if id == "" {
			id, want = tb.urlSpec().Dataset.ID, got
			continue
		}
		if gotID := tb.urlSpec().Dataset.ID; gotID != id {
			t.Errorf("%s is dataset %s, the plain log %s", name, gotID, id)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s's summary %q, the plain log's %q", name, got, want)
		}
	}
	tb.shot("10-upload-gzip", "#summary")
	for _, r := range e.rec.Since(mark) {
		if r.Method != http.MethodGet || strings.HasPrefix(r.Path, "/api/") || r.Body != 0 {
			t.Errorf("the upload page sent %s; want only GETs of static files", r)
		}
	}
}

// TestBrowserUploadFormats reads the other formats on the upload page: a
// semicolon-separated log, refused with an offer to read it with its
// separator; a CDX file chosen as a crawl log, refused with an offer to
// read it as CDX; each format's example (the CDX one counted by hand in
// core/dataset's TestReadCaptures); and the Open Terms Archive excerpt,
// credited beside it.
func TestBrowserUploadFormats(t *testing.T) {
	e := setup(t)
	tb := e.open(t, uploadPath)

	var b bytes.Buffer
	shape, err := WriteCrawlLog(&b, 2, 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	semi := writeFile(t, "semicolons.csv", func(w io.Writer) error {
		_, err := io.WriteString(w, strings.ReplaceAll(b.String(), ",", ";"))
		return err
	})
	tb.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{semi}))
	msg, _ := uploadError(tb)
	if !strings.Contains(msg, "the separator looks like ';'") || strings.Contains(msg, "change events") {
		t.Errorf("a semicolon-separated log: %s", msg)
	}
	tb.shot("11-upload-separator", "")
	tb.do(chromedp.Click(chromedp.CSS("#use-sep")))
	waitSummary(tb, "semicolons.csv")
	checkUploaded(tb, shape)
	if sep := evalJS[string](tb, `document.getElementById('sep').value`); sep != ";" {
		t.Errorf("the separator menu says %q after reading with ';'", sep)
	}

	// A CDX file under a name that does not say so.
	cdx := writeFile(t, "captures.txt", func(w io.Writer) error {
		r, err := http.Get(e.url + "/examples/example-captures.cdx")
		if err != nil {
			return err
		}
		defer r.Body.Close()
		_, err = io.Copy(w, r.Body)
		return err
	})
	tb.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{cdx}))
	msg, _ = uploadError(tb)
	if !strings.Contains(msg, "the file looks like CDX") {
		t.Errorf("a CDX file read as a crawl log: %s", msg)
	}
	tb.do(chromedp.Click(chromedp.CSS("#use-format")))
	waitSummary(tb, "captures.txt")
	cdxFacts := map[string]string{"Pages": "3", "Sites": "2", "Captures": "13", "Dropped": "robots.txt 1, status 301 1, status 404 1 (not captures of a page)",
		"Observed change rate": "50.0% of 10 re-captures saw a change", "Change from": "content digests"}
	got := facts(tb)
	for k, want := range cdxFacts {
		if got[k] != want {
			t.Errorf("CDX summary %s = %q, want %q (all: %q)", k, got[k], want, got)
		}
	}
	tb.waitFor("the CDX experiment", `!document.getElementById('experiment').hidden`)
	tb.shot("12-upload-cdx", "")
	tb.do(chromedp.EmulateViewport(390, 844))
	tb.shot("12-upload-cdx-390", "")
	tb.do(chromedp.EmulateViewport(1400, 900))

	// Each format's examples.
	for _, x := range []struct {
		format, path string
		facts        map[string]string
	}{
		{"cdx", "examples/example-captures.cdx", cdxFacts},
		{"cdxj", "examples/example-captures.cdxj", map[string]string{"Pages": "3", "Captures": "13", "Cycles": "5 of 31 days (inferred)"}},
		{"jsonl", "examples/example-captures.jsonl", map[string]string{"Pages": "3", "Captures": "13", "Cycles": "5 of 31 days (inferred)"}},
		{"change-events", "examples/ota-pga-excerpt-events.csv", map[string]string{"Pages": "114", "Sites": "24", "Event rows": "2,140"}},
	} {
		tb.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`input[name="format"][value=%q]`, x.format))))
		tb.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`#examples button[data-path=%q]`, x.path))))
		waitSummary(tb, x.path[len("examples/"):])
		got := facts(tb)
		for k, want := range x.facts {
			if got[k] != want {
				t.Errorf("%s: summary %s = %q, want %q (all: %q)", x.path, k, got[k], want, got)
			}
		}
		credited := evalJS[bool](tb, `!document.getElementById('ota-credit').hidden`)
		if credited != (x.format == "change-events") {
			t.Errorf("%s: the Open Terms Archive credit shown: %v", x.format, credited)
		}
	}
	if c := evalJS[string](tb, `document.getElementById('ota-credit').textContent`); !strings.Contains(c, "Open Terms Archive contributors") || !strings.Contains(c, "ODC-BY 1.0") || !strings.Contains(c, "10.26092/elib/2373") {
		t.Errorf("the credit says %q", c)
	}
	tb.shot("13-upload-ota-example", "")

	// A bad value in a gzipped JSON lines file (its name picks the
	// format) is marked where the lab says it is: the line, decompressed
	// here, and the value at the byte column.
	bad := writeFile(t, "bad.jsonl.gz", func(w io.Writer) error {
		_, err := w.Write(gzipMembers(t, []byte(`{"url": "https://a.example/", "time": "2024-05-01", "hash": "x"}`+"\n"+
			`{"url": "https://a.example/", "time": "soon", "hash": "y"}`+"\n"), 1<<20))
		return err
	})
	tb.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{bad}))
	msg, marked := uploadError(tb)
	if !strings.Contains(msg, "line 2, column 39 (time)") || len(marked) != 1 || marked[0] != `"soon"` {
		t.Errorf("a bad JSON lines value: %q marked in %s", marked, msg)
	}
	if f := evalJS[string](tb, `document.querySelector('input[name="format"]:checked').value`); f != "jsonl" {
		t.Errorf("a file named .jsonl.gz was read as %s", f)
	}
}
