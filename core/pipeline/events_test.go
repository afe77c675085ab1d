//go:build !js

package pipeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/estimate"
)

// eventsWithBad is a change-event log with malformed rows (lines 4, 7 and
// 10: a bad time, an empty kind, no page), which are counted and skipped,
// and a kind dropped that still widens the window (line 12).
const eventsWithBad = `page,site,time,event
a,s1,2024-01-01T00:00:00Z,start
b,s1,2024-01-01T06:00:00Z,change
a,s1,yesterday,change
b,s1,2024-01-01T12:00:00Z,start
a,s1,2024-01-01T18:00:00Z,change
c,s2,2024-01-02T06:00:00Z,
c,s2,2024-01-02T06:00:00Z,change
c,s2,2024-01-02T06:30:00Z,change
,s1,2024-01-02T08:00:00Z,change
a,s1,2024-01-02T12:00:00Z,Change
c,s2,2024-01-06T20:00:00Z,technical
b,s1,2024-01-03T00:00:00Z,change
`

// eventReference computes what the lab's upload path says of each page of
// a change-event log, apart from the pipeline: dataset.ReadEventLog on the
// log without its malformed rows, dataset.Observe every cycle, each page's
// intervals added to an estimate.History, and estimate.MLE with its
// likelihood interval; first and last are the page's earliest and latest
// rows. It returns the rates file's lines, sorted, and the malformed rows'
// lines.
func eventReference(t *testing.T, data []byte, opt dataset.EventLogOptions) (lines []string, bad []int, rows int) {
	t.Helper()
	first, last := map[string]int64{}, map[string]int64{}
	_, err := dataset.ScanEventLog(bytes.NewReader(data), opt,
		func(c dataset.Capture) error {
			if _, ok := first[c.Page]; !ok || c.Time < first[c.Page] {
				first[c.Page] = c.Time
			}
			last[c.Page] = max(last[c.Page], c.Time)
			rows++
			return nil
		},
		func(pe *dataset.ParseError) { bad = append(bad, pe.Line) })
	if err != nil {
		t.Fatal(err)
	}
	clean := data
	if len(bad) > 0 {
		ls := strings.SplitAfter(string(data), "\n")
		var keep []string
		for i, l := range ls {
			if !slices.Contains(bad, i+1) {
				keep = append(keep, l)
			}
		}
		clean = []byte(strings.Join(keep, ""))
	}
	d, _, err := dataset.ReadEventLog(bytes.NewReader(clean), opt)
	if err != nil {
		t.Fatal(err)
	}
	obs, err := dataset.Observe(d, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range obs {
		var h estimate.History
		for j, x := range o.Intervals {
			_ = h.Add(x, o.Changed[j])
		}
		pg := d.Pages[i]
		row := dataset.RateRow{Page: pg.URL, Site: d.Sites[pg.Site], First: first[pg.URL], Last: last[pg.URL],
			Observations: h.Len(), Changes: h.Changes(), Rate: estimate.MLE{}.Estimate(&h).Rate}
		row.Low, row.High = estimate.LikelihoodInterval(&h)
		lines = append(lines, string(dataset.AppendRateRow(nil, row)))
	}
	slices.Sort(lines)
	return lines, bad, rows
}

// TestPipelineEvents runs the pipeline on change-event logs (the example
// Open Terms Archive excerpt, a log with malformed rows, gzip shards of
// one log, and the real logs beside the project when they are there) and
// checks that every page's rate, interval, observations and changes equal,
// to the last digit, what dataset.ReadEventLog, dataset.Observe and the
// lab's MLE compute for the same log, its window being the earliest and
// latest row of all files; that malformed rows are counted, quoted with
// their lines and skipped; and that the sample opens as a crawl log with
// the same changes and crawls as the rates file says.
func TestPipelineEvents(t *testing.T) {
	excerpt := exampleLog(t, "ota-pga-excerpt-events.csv")
	ls := strings.SplitAfter(string(excerpt), "\n")
	half := len(ls) / 2
	shards := [2][]byte{[]byte(strings.Join(ls[:half], "")), []byte(ls[0] + strings.Join(ls[half:], ""))}
	type tc struct {
		name  string
		files map[string][]byte
		input string
		whole []byte
		opt   dataset.EventLogOptions
	}
	cases := []tc{
		{"excerpt", map[string][]byte{"e.csv": excerpt}, "e.csv", excerpt, dataset.EventLogOptions{}},
		{"excerpt, 12-hour cycles, no merging", map[string][]byte{"e.csv": excerpt}, "e.csv", excerpt, dataset.EventLogOptions{CycleLength: 43200, Merge: -1}},
		{"excerpt in gzip shards", map[string][]byte{"e-0.csv.gz": gzipped(t, shards[0]), "e-1.csv.gz": gzipped(t, shards[1])}, "e-*.csv.gz", excerpt, dataset.EventLogOptions{}},
		{"malformed rows", map[string][]byte{"bad.csv": []byte(eventsWithBad)}, "bad.csv", []byte(eventsWithBad), dataset.EventLogOptions{}},
	}
	if _, err := os.Stat(sharedData); err == nil {
		for _, name := range []string{"ota-pga-versions", "ota-dating-versions"} {
			b, err := os.ReadFile(filepath.Join(sharedData, name, "events.csv"))
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, tc{name, map[string][]byte{"events.csv": b}, "events.csv", b, dataset.EventLogOptions{CycleLength: 43200}})
		}
	} else {
		t.Logf("the real Open Terms Archive logs are not here (no folder %s beside the project): read only the example logs", sharedData)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, b := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out := filepath.Join(dir, "out")
			if err := os.Mkdir(out, 0o755); err != nil {
				t.Fatal(err)
			}
			opt := Options{Inputs: []string{filepath.Join(dir, tc.input)}, Format: dataset.FormatChangeEvents,
				CycleLength: tc.opt.CycleLength, Merge: tc.opt.Merge, Sample: 3, Seed: 1, Output: out}
			counters, err := Run(context.Background(), "prism", opt)
			if err != nil {
				t.Fatal(err)
			}

			want, bad, rows := eventReference(t, tc.whole, tc.opt)
			got := readLines(t, filepath.Join(out, RatesFile), dataset.RatesHeader())
			if !slices.Equal(got, want) {
				t.Fatalf("rates:\n%s\nthe lab's reader, Observe and MLE:\n%s", strings.Join(got, ""), strings.Join(want, ""))
			}
			if counters[CounterCaptures] != int64(rows) || counters[CounterURLs] != int64(len(want)) || counters[CounterBad] != int64(len(bad)) {
				t.Fatalf("counters %v; want %d rows, %d URLs, %d malformed", counters, rows, len(want), len(bad))
			}
			sum, b := readSummary(t, out)
			if sum.Malformed != len(bad) || len(sum.Examples) != min(len(bad), 5) || sum.Window == "" {
				t.Fatalf("summary %s", b)
			}
			for i, e := range sum.Examples {
				if e.Line != bad[i] {
					t.Fatalf("example %d at line %d, want %d: %s", i, e.Line, bad[i], b)
				}
			}

			checkSample(t, out, got, sum, max(tc.opt.CycleLength, 86400))
		})
	}
}

// sharedData is where the real change logs are, beside the project.
var sharedData = filepath.Join("..", "..", "..", "shared", "data")
