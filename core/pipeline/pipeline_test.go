//go:build !js

package pipeline

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/estimate"
)

func TestMain(m *testing.M) { ptest.MainWithDefault(m, "prism") }

// exampleLog reads an example log of the repository's datasets folder.
func exampleLog(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "datasets", name))
	if err != nil {
		t.Skipf("example log %s absent: %v", name, err)
	}
	return b
}

// irregularLog is a crawl log with a changed column, irregular intervals,
// rows out of order, two crawls at one instant, pages never and always
// changed, and malformed rows (lines 5, 8 and 12), which are counted and
// skipped.
const irregularLog = `page,site,time,changed
https://a.example/1,a.example,2024-01-01T00:00:00Z,0
https://a.example/1,a.example,2024-01-02T06:00:00Z,1
https://a.example/1,a.example,2024-01-04T00:00:00Z,0
https://a.example/1,a.example,yesterday,1
https://a.example/1,a.example,2024-01-03T00:00:00Z,1
https://a.example/2,a.example,2024-01-01T00:00:00Z,0
https://a.example/2,a.example,2024-01-05T00:00:00Z,maybe
https://a.example/2,a.example,2024-01-05T00:00:00Z,0
https://a.example/2,a.example,2024-01-09T12:00:00Z,0
https://b.example/x,b.example,2024-01-01T00:00:00Z,0
,b.example,2024-01-02T00:00:00Z,1
https://b.example/x,b.example,2024-01-02T00:00:00Z,1
https://b.example/x,b.example,2024-01-02T00:00:00Z,0
https://b.example/x,b.example,2024-01-03T00:00:00Z,1
https://b.example/y,b.example,2024-01-01T00:00:00Z,0
https://b.example/y,b.example,2024-01-01T12:00:00Z,1
https://b.example/y,b.example,2024-01-02T00:00:00Z,0
https://b.example/y,b.example,2024-01-04T00:00:00Z,1
`

// reference computes what the lab's own reader and estimators say of each
// page of one file, apart from the pipeline: the captures as
// dataset.ScanCrawlLog reads them, in file order at equal times, changes
// as dataset.MarkChanges marks them, each interval between distinct times
// added to an estimate.History, and estimate.MLE with its likelihood
// interval. It returns the rates file's lines, sorted, and the malformed
// rows' lines.
func reference(t *testing.T, data []byte, format string) (lines []string, bad []int, captures int) {
	t.Helper()
	pages := map[string][]dataset.Capture{}
	var order []string
	_, err := dataset.ScanCrawlLog(bytes.NewReader(data), dataset.CrawlLogOptions{Format: format},
		func(c dataset.Capture) error {
			if _, ok := pages[c.Page]; !ok {
				order = append(order, c.Page)
			}
			pages[c.Page] = append(pages[c.Page], c)
			captures++
			return nil
		},
		func(pe *dataset.ParseError) { bad = append(bad, pe.Line) })
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range order {
		cs := pages[id]
		dataset.SortCaptures(cs, func(a, b *dataset.Capture) int { return cmp.Compare(a.Line, b.Line) })
		if cs[0].Hashed {
			dataset.MarkChanges(cs)
		}
		var h estimate.History
		row := dataset.RateRow{Page: cs[0].URL, Site: cs[0].Site, First: cs[0].Time, Last: cs[len(cs)-1].Time}
		prev := 0
		for j := 1; j < len(cs); j++ {
			if cs[j].Time == cs[prev].Time {
				continue // the crawl logs here have no two captures closer than a second but at one instant
			}
			changed := false
			for k := prev + 1; k <= j; k++ {
				changed = changed || cs[k].Changed
			}
			if err := h.Add(float64(cs[j].Time-cs[prev].Time)/86400e9, changed); err != nil {
				t.Fatal(err)
			}
			row.Observations++
			if changed {
				row.Changes++
			}
			prev = j
		}
		row.Rate = estimate.MLE{}.Estimate(&h).Rate
		row.Low, row.High = estimate.LikelihoodInterval(&h)
		lines = append(lines, string(dataset.AppendRateRow(nil, row)))
	}
	slices.Sort(lines)
	return lines, bad, captures
}

// readLines reads an output file's lines after its header, sorted.
func readLines(t *testing.T, path, header string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, ok := strings.CutPrefix(string(b), header)
	if !ok {
		t.Fatalf("%s does not start with %q", path, header)
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	slices.Sort(lines)
	return lines
}

func gzipped(t *testing.T, b []byte) []byte {
	var out bytes.Buffer
	w := gzip.NewWriter(&out)
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestPipelineExamples runs the pipeline on the Prism runner over the
// example logs and checks that every page's rate, interval, observations
// and first and last capture equal, to the last digit, what the lab's
// reader and estimators compute for the same file; that the totals agree
// with dataset.ReadCrawlLog's summary; that malformed rows are counted,
// quoted and skipped; that the rates file opens as a dataset for the
// schedule kind and the sample as a crawl log; and that gzip-compressed
// shards read through a glob give what the whole file gives.
func TestPipelineExamples(t *testing.T) {
	cdxj := exampleLog(t, "example-captures.cdxj")
	var shards [3][]byte
	for i, line := range strings.SplitAfter(string(cdxj), "\n") {
		shards[i%3] = append(shards[i%3], line...)
	}
	for _, tc := range []struct {
		name, format string
		files        map[string][]byte
		input        string
		whole        []byte // the files' content as one file, for the reference
		batched      int    // Options.Batched
	}{
		{"cdx", dataset.FormatCDX, map[string][]byte{"a.cdx": exampleLog(t, "example-captures.cdx")}, "a.cdx", nil, 0},
		{"cdxj gzip shards", dataset.FormatCDXJ, map[string][]byte{"cc-00000.gz": gzipped(t, shards[0]), "cc-00001.gz": gzipped(t, shards[1]), "cc-00002.gz": gzipped(t, shards[2])}, "cc-*.gz", cdxj, 0},
		{"jsonl", dataset.FormatJSONL, map[string][]byte{"a.jsonl": exampleLog(t, "example-captures.jsonl")}, "a.jsonl", nil, 0},
		{"crawl log with malformed rows", dataset.FormatCrawlLog, map[string][]byte{"log.csv": []byte(irregularLog)}, "log.csv", nil, 0},
		{"crawl log in batches of two captures", dataset.FormatCrawlLog, map[string][]byte{"log.csv": []byte(irregularLog)}, "log.csv", nil, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var whole []byte
			for name, b := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
					t.Fatal(err)
				}
				whole = b
			}
			if tc.whole != nil {
				whole = tc.whole
			}
			out := filepath.Join(dir, "out")
			if err := os.Mkdir(out, 0o755); err != nil {
				t.Fatal(err)
			}
			opt := Options{Inputs: []string{filepath.Join(dir, tc.input)}, Format: tc.format, Sample: 3, Seed: 1, Output: out, Batched: tc.batched}
			counters, err := Run(context.Background(), "prism", opt)
			if err != nil {
				t.Fatal(err)
			}

			want, bad, captures := reference(t, whole, tc.format)
			got := readLines(t, filepath.Join(out, RatesFile), dataset.RatesHeader())
			if !slices.Equal(got, want) {
				t.Fatalf("rates:\n%s\nthe lab's reader and estimators:\n%s", strings.Join(got, ""), strings.Join(want, ""))
			}
			if counters[CounterCaptures] != int64(captures) || counters[CounterURLs] != int64(len(want)) ||
				counters[CounterBad] != int64(len(bad)) || counters[CounterFiles] != int64(len(tc.files)) {
				t.Fatalf("counters %v; want %d captures, %d URLs, %d malformed", counters, captures, len(want), len(bad))
			}

			sum, b := readSummary(t, out)
			if sum.Pages != int64(len(want)) || sum.Captures != int64(captures) || sum.Malformed != len(bad) || len(sum.Examples) != min(len(bad), 5) {
				t.Fatalf("summary %s", b)
			}
			for i, e := range sum.Examples {
				if e.Line != bad[i] {
					t.Fatalf("example %d at line %d, want %d: %s", i, e.Line, bad[i], b)
				}
			}

			// The lab's own reader of the whole file agrees on the totals,
			// where it reads the file (it refuses one with malformed rows).
			if len(bad) == 0 {
				_, rs, err := dataset.ReadCrawlLog(bytes.NewReader(whole), dataset.CrawlLogOptions{Format: tc.format})
				if err != nil {
					t.Fatal(err)
				}
				if int64(rs.Rows) != sum.Captures || int64(rs.Pages) != sum.Pages || int64(rs.Sites) != sum.Sites || int64(rs.Changes) != sum.Changes {
					t.Fatalf("summary %s; ReadCrawlLog: %+v", b, rs)
				}
			}

			// The outputs open in the lab.
			rf, _ := os.Open(filepath.Join(out, RatesFile))
			defer rf.Close()
			rd, err := dataset.ReadRates(rf, dataset.RatesOptions{})
			if err != nil || len(rd.Pages) != len(want) {
				t.Fatalf("reading the rates: %v", err)
			}
			checkSample(t, out, got, sum, 86400)
		})
	}
}

// checkSample checks that the sample (SampleFile in out) opens as a crawl
// log with cycles of the given length, holds min(3, pages) pages as the
// summary says, and that its changes and crawls are those of the same
// pages in the rates file's lines.
func checkSample(t *testing.T, out string, rates []string, sum Summary, cycle float64) {
	t.Helper()
	sf, err := os.ReadFile(filepath.Join(out, SampleFile))
	if err != nil {
		t.Fatal(err)
	}
	sd, ss, err := dataset.ReadCrawlLog(bytes.NewReader(sf), dataset.CrawlLogOptions{CycleLength: cycle})
	if err != nil {
		t.Fatalf("reading the sample: %v\n%s", err, sf)
	}
	if n := min(3, len(rates)); len(sd.Pages) != n || sum.Sample != n {
		t.Fatalf("sample of %d pages (summary %d), want %d", len(sd.Pages), sum.Sample, n)
	}
	changes, crawls := 0, 0
	for _, p := range sd.Pages {
		for _, line := range rates {
			rec, _ := csv.NewReader(strings.NewReader(line)).Read()
			if rec[0] == p.URL {
				crawls += atoi(rec[5])
				changes += atoi(rec[6])
			}
		}
	}
	if ss.Changes != changes || ss.Crawls != crawls {
		t.Fatalf("sample: %d changes in %d crawls; the rates say %d in %d\n%s", ss.Changes, ss.Crawls, changes, crawls, sf)
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = 10*n + int(c-'0')
	}
	return n
}

// TestPipelineBadFile checks that a file that cannot be read at all (no
// header a format knows) is reported in the summary and counted, and the
// other files are read.
func TestPipelineBadFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "1.csv"), []byte(irregularLog), 0o644)
	os.WriteFile(filepath.Join(dir, "2.csv"), []byte("this is not a crawl log\n"), 0o644)
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	counters, err := Run(context.Background(), "prism", Options{Inputs: []string{filepath.Join(dir, "*.csv")}, Output: out})
	if err != nil {
		t.Fatal(err)
	}
	if counters[CounterFailed] != 1 || counters[CounterFiles] != 2 || counters[CounterURLs] != 4 {
		t.Fatalf("counters %v", counters)
	}
	b, _ := os.ReadFile(filepath.Join(out, SummaryFile))
	var sum Summary
	if err := json.Unmarshal(b, &sum); err != nil || len(sum.Files) != 2 || sum.Files[1].Error == "" || !strings.Contains(sum.Files[1].Error, "line 1") {
		t.Fatalf("%v: %s", err, b)
	}
}

// readSummary reads the summary.json a run wrote into dir, and its bytes
// for failure messages.
func readSummary(t *testing.T, dir string) (Summary, []byte) {
	t.Helper()
	var sum Summary
	b, err := os.ReadFile(filepath.Join(dir, SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	return sum, b
}
