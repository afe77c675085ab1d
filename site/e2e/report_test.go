package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/refreshlab/refreshlab/core/lab"
)

// reportReady waits for the report view to show a report of the current
// experiment.
func reportReady(tb *tab) {
	tb.t.Helper()
	tb.waitFor("the report", `!!document.getElementById('report') && !document.getElementById('report').hidden && document.querySelectorAll('#report-table tbody tr').length > 0`)
}

// captureBlobs makes the page keep every Blob a download makes
// (URL.createObjectURL), so a test can read an export's content.
const captureBlobs = `(() => {
  window.__blobs = [];
  const make = URL.createObjectURL;
  URL.createObjectURL = (b) => { window.__blobs.push(b); return make.call(URL, b); };
  return true;
})()`

// TestBrowserReport uploads a crawl log and checks the report view: its
// ranked table (a row per policy, the reference marked), the log's SHA-256
// computed in the tab (as sha256sum would), the link carrying it, the
// Markdown export's content and the forest plot's PNG (twice the SVG's
// size); then the link in a new tab finds the same file (the same hash)
// and says so, and a different file dropped there is said to be another.
func TestBrowserReport(t *testing.T) {
	e := setup(t)
	path, _ := goodLog(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	sha := hex.EncodeToString(sum[:])

	tb := e.open(t, uploadPath)
	tb.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{path}))
	reportReady(tb)
	tb.waitFor("the log's hash", `document.querySelector('#report-facts code.sha') && /^[0-9a-f]{64}$/.test(document.querySelector('#report-facts code.sha').textContent)`)

	want := 0
	for _, d := range lab.New().Policies() {
		if d.Kind == lab.KindRefresh {
			want++
		}
	}
	head := evalJS[[]string](tb, `[...document.querySelectorAll('#report-table thead th')].map((th) => th.textContent)`)
	rows := evalJS[[][]string](tb, `[...document.querySelectorAll('#report-table tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent))`)
	if len(head) != 6 || head[0] != "Rank" || head[3] != "95% interval" || !strings.HasPrefix(head[4], "Difference to ") {
		t.Errorf("report table head %q", head)
	}
	if len(rows) != want {
		t.Fatalf("the report ranks %d policies, want every refresh policy (%d)", len(rows), want)
	}
	refs := 0
	for i, r := range rows {
		if r[0] != strconv.Itoa(i+1) {
			t.Errorf("row %d has rank %q", i+1, r[0])
		}
		if r[4] == "reference" {
			refs++
			if !strings.HasSuffix(head[4], r[1]) {
				t.Errorf("the reference row is %q, the head says %q", r[1], head[4])
			}
		} else if !strings.HasPrefix(r[5], "[") {
			t.Errorf("row %q has no interval of its difference", r)
		}
	}
	if refs != 1 {
		t.Errorf("%d reference rows, want 1", refs)
	}
	if got := evalJS[string](tb, `document.querySelector('#report-facts code.sha').textContent`); got != sha {
		t.Errorf("the page's SHA-256 %s, want %s", got, sha)
	}
	if n := evalJS[int](tb, `document.querySelectorAll('#report-forest svg[role="img"]').length`); n != 1 {
		t.Errorf("%d forest plots", n)
	}
	if m := evalJS[string](tb, `document.getElementById('report-methods').textContent`); !strings.Contains(m, "SHA-256 "+sha) || !strings.Contains(m, "Welch") {
		t.Errorf("the methods paragraph: %s", m)
	}
	tb.waitFor("the link's hash", `new URLSearchParams(location.search).get('log') === '`+sha+`'`)
	link := evalJS[string](tb, `location.href`)
	tb.shot("12-report", "#report")

	// The Markdown export and the forest plot as PNG.
	evalJS[bool](tb, captureBlobs)
	tb.do(chromedp.Click(chromedp.CSS(`#report-exports button[data-format="md"]`)))
	tb.waitFor("the Markdown export", `window.__blobs.length === 1`)
	md := evalJS[string](tb, `window.__blobs[0].text()`)
	for _, w := range []string{"| Rank | Policy |", "- SHA-256: `" + sha + "`", "## Methods", "## The spec", rows[0][1]} {
		if !strings.Contains(md, w) {
			t.Errorf("the Markdown export lacks %q:\n%.2000s", w, md)
		}
	}
	tb.do(chromedp.Click(chromedp.CSS(`#report-exports button[data-png$="-forest"]`)))
	tb.waitFor("the PNG export", `window.__blobs.some((b) => b.type === 'image/png')`)
	png := evalJS[map[string]any](tb, `(async () => {
  const b = window.__blobs.find((b) => b.type === 'image/png');
  const head = new Uint8Array(await b.slice(0, 24).arrayBuffer());
  const dv = new DataView(head.buffer);
  const vb = document.querySelector('#report-forest svg').getAttribute('viewBox').split(' ').map(Number);
  return { type: b.type, sig: [...head.slice(1, 4)].map((c) => String.fromCharCode(c)).join(''), w: dv.getUint32(16), h: dv.getUint32(20), vw: vb[2], vh: vb[3] };
})()`)
	if png["type"] != "image/png" || png["sig"] != "PNG" || png["w"] != 2*png["vw"].(float64) || png["h"] != 2*png["vh"].(float64) {
		t.Errorf("the forest plot's PNG: %v, want a PNG twice the SVG's size", png)
	}

	// The link, in another tab of the same browser: the log is found again
	// (this browser kept it), its hash matches, and the view is the same.
	u, _ := url.Parse(link)
	tb2 := e.open(t, u.RequestURI())
	reportReady(tb2)
	tb2.waitFor("the hash check", `!document.getElementById('hash-check').hidden`)
	if msg := evalJS[string](tb2, `document.getElementById('hash-check').textContent`); !strings.Contains(msg, "SHA-256 matches") {
		t.Errorf("the same file: %q", msg)
	}
	if rows2 := evalJS[[][]string](tb2, `[...document.querySelectorAll('#report-table tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent))`); !equalRows(rows, rows2) {
		t.Errorf("the link's report differs:\n%q\n%q", rows, rows2)
	}
	if got := u.Query().Get("log"); got != sha {
		t.Errorf("the link carries log=%q", got)
	}

	// Another file dropped on the link's tab is said to be another.
	other := writeFile(t, "other-crawl-log.csv", func(w io.Writer) error {
		_, err := WriteCrawlLog(w, 2, 3, 6)
		return err
	})
	tb2.do(chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{other}))
	tb2.waitFor("the other file's check", `document.getElementById('hash-check').dataset.match === 'different'`)
	if msg := evalJS[string](tb2, `document.getElementById('hash-check').textContent`); !strings.Contains(msg, "not the file the link was made from") {
		t.Errorf("another file: %q", msg)
	}
	tb2.waitFor("the other file's report", `document.querySelector('#report-facts code.sha') && document.querySelector('#report-facts code.sha').textContent !== '`+sha+`' && /^[0-9a-f]{64}$/.test(document.querySelector('#report-facts code.sha').textContent)`)
	tb2.shot("12-report-other-file", "#report")
}

func equalRows(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.Join(a[i], "|") != strings.Join(b[i], "|") {
			return false
		}
	}
	return true
}
