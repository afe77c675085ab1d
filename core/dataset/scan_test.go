package dataset

import (
	"bytes"
	"cmp"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
)

// scanned is what a scan of a log gives, gathered by page as ReadCrawlLog
// gathers it.
type scanned struct {
	scan    *Scan
	pages   map[string][]Capture // by page id, in time order, changes marked
	bad     []*ParseError
	changes int // captures after a page's first that saw a change
}

func scanLog(t testing.TB, data []byte, opt CrawlLogOptions) (*scanned, error) {
	t.Helper()
	s := &scanned{pages: map[string][]Capture{}}
	sc, err := ScanCrawlLog(bytes.NewReader(data), opt,
		func(c Capture) error { s.pages[c.Page] = append(s.pages[c.Page], c); return nil },
		func(pe *ParseError) { s.bad = append(s.bad, pe) })
	if err != nil {
		return nil, err
	}
	s.scan = sc
	for _, cs := range s.pages {
		SortCaptures(cs, func(a, b *Capture) int { return cmp.Compare(a.Line, b.Line) })
		if sc.UseHash {
			MarkChanges(cs)
		}
		for j := 1; j < len(cs); j++ {
			if cs[j].Changed {
				s.changes++
			}
		}
	}
	return s, nil
}

// TestScanCrawlLogAsRead checks that a scan hands on what ReadCrawlLog
// reads, in every format: the same captures, pages, sites, dropped rows
// and changes.
func TestScanCrawlLogAsRead(t *testing.T) {
	for _, tc := range []struct {
		name   string
		format string
		data   []byte
	}{
		{"crawl log", FormatCrawlLog, []byte(goodLog)},
		{"hash log", FormatCrawlLog, []byte(goodHashLog)},
		{"unsorted", FormatCrawlLog, []byte(unsorted(goodLog))},
		{"cdx", FormatCDX, example(t, "example-captures.cdx")},
		{"cdxj", FormatCDXJ, example(t, "example-captures.cdxj")},
		{"cdxj gzip members", FormatCDXJ, gz(t, example(t, "example-captures.cdxj"), 300)},
		{"jsonl", FormatJSONL, example(t, "example-captures.jsonl")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := CrawlLogOptions{Format: tc.format}
			d, sum, err := ReadCrawlLog(bytes.NewReader(tc.data), opt)
			if err != nil {
				t.Fatal(err)
			}
			s, err := scanLog(t, tc.data, opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.bad) != 0 || s.scan.Malformed != 0 {
				t.Fatalf("malformed rows %v in a log ReadCrawlLog reads", s.bad)
			}
			if s.scan.Rows != sum.Rows || len(s.pages) != sum.Pages || s.changes != sum.Changes ||
				!maps.Equal(s.scan.Dropped, sum.Dropped) || s.scan.UseHash != (sum.ChangeFrom == "hash") {
				t.Fatalf("scan: %d rows, %d pages, %d changes, dropped %v; read: %d, %d, %d, %v",
					s.scan.Rows, len(s.pages), s.changes, s.scan.Dropped, sum.Rows, sum.Pages, sum.Changes, sum.Dropped)
			}
			sites := map[string]bool{}
			for _, p := range d.Pages {
				site := d.Sites[p.Site]
				sites[site] = true
				found := false
				for _, cs := range s.pages {
					if cs[0].URL == p.URL {
						found = true
						for _, c := range cs {
							if c.Site != site {
								t.Fatalf("page %s: site %q, read %q", p.URL, c.Site, site)
							}
						}
					}
				}
				if !found {
					t.Fatalf("page %s read but not scanned", p.URL)
				}
			}
			if len(sites) != sum.Sites {
				t.Fatalf("%d sites, summary %d", len(sites), sum.Sites)
			}
		})
	}
}

// TestScanCrawlLogMalformed checks that a scan skips and reports each row
// ReadCrawlLog refuses, with the error ReadCrawlLog gives for the first,
// and hands on the others.
func TestScanCrawlLogMalformed(t *testing.T) {
	log := `page,site,time,changed
a,s1,2024-01-01T00:00:00Z,0
a,s1,yesterday,1
b,s1,2024-01-01T00:00:00Z,0
,s1,2024-01-02T00:00:00Z,1
a,s1,2024-01-02T00:00:00Z,maybe
a,s1,2024-01-03T00:00:00Z,1,extra
b,s1,2024-01-02T00:00:00Z,1
b,s"1,2024-01-03T00:00:00Z,1
a,s1,2024-01-04T00:00:00Z,1
`
	_, _, rerr := ReadCrawlLog(strings.NewReader(log), CrawlLogOptions{})
	s, err := scanLog(t, []byte(log), CrawlLogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lines := []int{}
	for _, pe := range s.bad {
		lines = append(lines, pe.Line)
	}
	if want := []int{3, 5, 6, 7, 9}; !slices.Equal(lines, want) || s.scan.Malformed != len(want) {
		t.Fatalf("malformed lines %v (%d), want %v", lines, s.scan.Malformed, want)
	}
	if rerr == nil || rerr.Error() != s.bad[0].Error() {
		t.Fatalf("first malformed row %v, ReadCrawlLog says %v", s.bad[0], rerr)
	}
	if s.scan.Rows != 4 || len(s.pages["a"]) != 2 || len(s.pages["b"]) != 2 || s.changes != 2 {
		t.Fatalf("%d captures %v, %d changes", s.scan.Rows, s.pages, s.changes)
	}
}

// FuzzScanCrawlLog checks that a scan never panics, agrees with
// ReadCrawlLog on a log it reads, and reports every skipped row with a
// line.
func FuzzScanCrawlLog(f *testing.F) {
	for _, s := range []string{goodLog, goodHashLog, "page,site,time,changed\na,s,x,0\na,s,2024-01-01,1\n",
		"page,site,time,changed\na,s,2024-01-01,0\na\"b,s,2024-01-02,1\nb,s,2024-01-01,0\n", ""} {
		f.Add([]byte(s), FormatCrawlLog)
	}
	f.Add(example(f, "example-captures.cdx"), FormatCDX)
	f.Add(example(f, "example-captures.cdxj"), FormatCDXJ)
	f.Add(example(f, "example-captures.jsonl"), FormatJSONL)
	f.Fuzz(func(t *testing.T, data []byte, format string) {
		if !slices.Contains([]string{FormatCrawlLog, FormatCDX, FormatCDXJ, FormatJSONL}, format) {
			return
		}
		opt := CrawlLogOptions{Format: format, CycleLength: 3600}
		_, sum, rerr := ReadCrawlLog(bytes.NewReader(data), opt)
		s, err := scanLog(t, data, opt)
		if err != nil {
			if rerr == nil {
				t.Fatalf("scan failed (%v) where ReadCrawlLog read %+v", err, sum)
			}
			return
		}
		for _, pe := range s.bad {
			if pe.Line < 1 {
				t.Fatalf("malformed row without a line: %v", pe)
			}
		}
		if rerr == nil && (s.scan.Malformed != 0 || s.scan.Rows != sum.Rows || len(s.pages) != sum.Pages || s.changes != sum.Changes) {
			t.Fatalf("scan %+v, %d pages, %d changes; read %+v", *s.scan, len(s.pages), s.changes, *sum)
		}
		var pe *ParseError
		if rerr != nil && errors.As(rerr, &pe) && s.scan.Malformed > 0 && s.bad[0].Line < pe.Line {
			t.Fatalf("scan skipped line %d before ReadCrawlLog's error at line %d", s.bad[0].Line, pe.Line)
		}
	})
}
