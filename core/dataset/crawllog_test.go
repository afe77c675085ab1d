package dataset

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// goodLog has three pages on two sites crawled daily for three rounds:
// a changes in cycle 0, b and c in cycle 1 (c's first row says changed, but
// a page's first crawl is only its baseline).
const goodLog = `page,site,time,changed
a,s1,2024-01-01T00:00:00Z,0
b,s1,2024-01-01T00:00:00Z,0
c,s2,2024-01-01T00:00:00Z,1
a,s1,2024-01-02T00:00:00Z,1
b,s1,2024-01-02T00:00:00Z,0
c,s2,2024-01-02T00:00:00Z,0
a,s1,2024-01-03T00:00:00Z,0
b,s1,2024-01-03T00:00:00Z,1
c,s2,2024-01-03T00:00:00Z,yes
`

// goodHashLog is goodLog with content hashes instead of changed flags.
const goodHashLog = `page,site,time,hash
a,s1,2024-01-01T00:00:00Z,h1
b,s1,2024-01-01T00:00:00Z,x
c,s2,2024-01-01T00:00:00Z,p
a,s1,2024-01-02T00:00:00Z,h2
b,s1,2024-01-02T00:00:00Z,x
c,s2,2024-01-02T00:00:00Z,p
a,s1,2024-01-03T00:00:00Z,h2
b,s1,2024-01-03T00:00:00Z,y
c,s2,2024-01-03T00:00:00Z,q
`

// goodChanged is the truth of goodLog and goodHashLog.
var goodChanged = [][]int32{{0}, {1, 2}}

// unsorted shuffles the data rows of log deterministically.
func unsorted(log string) string {
	lines := strings.Split(strings.TrimSuffix(log, "\n"), "\n")
	rows := lines[1:]
	slices.Reverse(rows)
	rows[0], rows[len(rows)/2] = rows[len(rows)/2], rows[0]
	return strings.Join(lines, "\n") + "\n"
}

// driftLog crawls two pages daily, each crawl 5 minutes earlier than the
// day before; page a changes every third cycle.
func driftLog() (string, [][]int32) {
	var b strings.Builder
	b.WriteString("page,site,time,changed\n")
	t0 := time.Date(2024, 5, 1, 6, 0, 0, 0, time.UTC)
	var want [][]int32
	for k := 0; k <= 10; k++ {
		t := t0.Add(time.Duration(k) * (24*time.Hour - 5*time.Minute))
		ch := k > 0 && k%3 == 0
		fmt.Fprintf(&b, "a,s,%s,%v\n", t.Format(time.RFC3339), ch)
		fmt.Fprintf(&b, "b,s,%s,false\n", t.Format("2006-01-02 15:04:05"))
		if k > 0 {
			if ch {
				want = append(want, []int32{0})
			} else {
				want = append(want, nil)
			}
		}
	}
	return b.String(), want
}

// jitterLog crawls a page daily at 03:00 plus or minus up to 2 hours; the
// page changes in every other cycle.
func jitterLog() (string, [][]int32) {
	var b strings.Builder
	b.WriteString("url,time,changed\n")
	var want [][]int32
	jit := []int{0, 90, -100, 30, -120, 119, -5, 60, -60, 7}
	for k, j := range jit {
		t := time.Date(2024, 2, 27, 3, 0, 0, 0, time.UTC).AddDate(0, 0, k).Add(time.Duration(j) * time.Minute)
		fmt.Fprintf(&b, "http://x.org/p,%d,%d\n", t.Unix(), k%2)
		if k > 0 {
			if k%2 == 1 {
				want = append(want, []int32{0})
			} else {
				want = append(want, nil)
			}
		}
	}
	return b.String(), want
}

func equalChanged(a, b [][]int32) bool {
	return slices.EqualFunc(a, b, func(x, y []int32) bool { return slices.Equal(x, y) })
}

func pageURLs(d *Dataset) []string {
	var u []string
	for _, p := range d.Pages {
		u = append(u, p.URL)
	}
	return u
}

func TestReadCrawlLog(t *testing.T) {
	drift, driftWant := driftLog()
	jitter, jitterWant := jitterLog()
	tests := []struct {
		name     string
		log      string
		opt      CrawlLogOptions
		changed  [][]int32
		urls     []string // nil: don't check
		sites    []string // nil: don't check
		cycle    float64  // 0: don't check
		inferred bool
		unit     string // "": don't check
		check    func(t *testing.T, d *Dataset, s *CrawlLogSummary)
	}{
		{
			name: "changed", log: goodLog, changed: goodChanged,
			urls: []string{"a", "b", "c"}, sites: []string{"s1", "s2"},
			cycle: 86400, inferred: true, unit: "day",
			check: func(t *testing.T, d *Dataset, s *CrawlLogSummary) {
				want := CrawlLogSummary{Format: FormatCrawlLog, Rows: 9, Pages: 3, Sites: 2, Cycles: 2, CycleLength: 86400, CycleInferred: true,
					Start: "2024-01-01T00:00:00Z", End: "2024-01-03T00:00:00Z", Crawls: 6, Changes: 3, ChangeRate: 0.5,
					Columns: []string{"page", "site", "time", "changed"}, Ignored: []string{}, ChangeFrom: "changed"}
				if fmt.Sprint(*s) != fmt.Sprint(want) {
					t.Errorf("summary\n got %+v\nwant %+v", *s, want)
				}
				if d.Info.Name != "Uploaded crawl log" || d.Info.Source != "upload" || d.Info.Cycles != 2 ||
					d.Info.Pages != 3 || d.Info.Sites != 2 || d.Truth.First != nil || d.Info.ChangeRate != 0.5 {
					t.Errorf("info %+v", d.Info)
				}
				if !strings.HasPrefix(d.Info.ID, "upload-") || len(d.Info.ID) != len("upload-")+12 {
					t.Errorf("id %q", d.Info.ID)
				}
			},
		},
		{
			name: "hash", log: goodHashLog, changed: goodChanged,
			urls: []string{"a", "b", "c"}, sites: []string{"s1", "s2"}, cycle: 86400, inferred: true,
			check: func(t *testing.T, d *Dataset, s *CrawlLogSummary) {
				if s.ChangeFrom != "hash" || s.Changes != 3 || s.Crawls != 6 {
					t.Errorf("summary %+v", *s)
				}
			},
		},
		{
			name: "changed and hash: hash ignored",
			log: "Hash, Page ,TIME,Changed,notes,site\n" +
				"h,a,2024-01-01,0,x,s\nh,a,2024-01-02,1,y,s\nh,a,2024-01-03,0,z,s\n",
			changed: [][]int32{{0}, nil},
			check: func(t *testing.T, d *Dataset, s *CrawlLogSummary) {
				if s.ChangeFrom != "changed" || !slices.Equal(s.Columns, []string{"Page", "TIME", "Changed", "site"}) ||
					!slices.Equal(s.Ignored, []string{"Hash", "notes"}) {
					t.Errorf("summary %+v", *s)
				}
			},
			urls: []string{"a"}, sites: nil,
		},
		{
			name: "url only: site from host",
			log: "url,timestamp,digest\n" +
				"https://WWW.Example.com:8080/a,1704067200,1\n" +
				"https://example.org/b?q=1,1704067200,1\n" +
				"https://WWW.Example.com:8080/a,1704153600,2\n" +
				"https://example.org/b?q=1,1704153600,1\n",
			changed: [][]int32{{0}},
			urls:    []string{"https://WWW.Example.com:8080/a", "https://example.org/b?q=1"},
			sites:   []string{"www.example.com", "example.org"},
		},
		{
			name: "page and url: url kept, site from url",
			log: "page,url,crawl_time,changed\n" +
				"p1,http://a.test/1,2024-01-01,0\np2,http://b.test/2,2024-01-01,0\n" +
				"p1,http://a.test/1,2024-01-02,0\np2,http://b.test/2,2024-01-02,1\n",
			changed: [][]int32{{1}},
			urls:    []string{"http://a.test/1", "http://b.test/2"},
			sites:   []string{"a.test", "b.test"},
		},
		{
			name: "page and url and site: an empty url keeps the id",
			log: "page,url,site,time,changed\n" +
				"p1,,s,2024-01-01,0\np2,http://b.test/2,s,2024-01-01,0\n" +
				"p1,http://a.test/1,s,2024-01-02,1\np2,,s,2024-01-02,1\n",
			changed: [][]int32{{0, 1}},
			urls:    []string{"p1", "http://b.test/2"},
			sites:   []string{"s"},
		},
		{
			// Pages and sites are numbered in order of first appearance.
			name: "unsorted rows", log: unsorted(goodLog), changed: [][]int32{{1}, {0, 2}},
			urls: []string{"b", "a", "c"}, sites: []string{"s1", "s2"},
			check: func(t *testing.T, d *Dataset, s *CrawlLogSummary) {
				if s.Start != "2024-01-01T00:00:00Z" || s.End != "2024-01-03T00:00:00Z" {
					t.Errorf("start %s end %s", s.Start, s.End)
				}
			},
		},
		{name: "unsorted hashes", log: unsorted(goodHashLog), changed: [][]int32{{1}, {0, 2}}, urls: []string{"b", "a", "c"}},
		{
			name: "several crawls per round",
			// Round 1: a's second crawl saw a change; round 2: none did.
			log: "page,site,time,changed\n" +
				"a,s,2024-01-01 00:00,0\n" +
				"a,s,2024-01-02 00:00,0\n" +
				"a,s,2024-01-02 03:00,1\n" +
				"a,s,2024-01-02 05:00,1\n" +
				"a,s,2024-01-03 00:00,0\n" +
				"a,s,2024-01-03 01:00,0\n",
			opt:     CrawlLogOptions{CycleLength: 86400},
			changed: [][]int32{{0}, nil}, cycle: 86400, unit: "day",
			check: func(t *testing.T, d *Dataset, s *CrawlLogSummary) {
				if s.Crawls != 5 || s.Changes != 2 || s.CycleInferred {
					t.Errorf("summary %+v", *s)
				}
			},
		},
		{
			name: "several hashes per round, compared in time order",
			log: "page,site,time,hash\n" +
				"a,s,2024-01-03T01:00:00Z,B\n" + // round 2: B -> B (no change)
				"a,s,2024-01-01T00:00:00Z,A\n" +
				"a,s,2024-01-02T03:00:00Z,B\n" + // round 1: A -> A -> B
				"a,s,2024-01-02T00:00:00Z,A\n" +
				"a,s,2024-01-03T00:00:00Z,B\n",
			opt:     CrawlLogOptions{CycleLength: 86400},
			changed: [][]int32{{0}, nil},
		},
		{
			name: "inferred cycle: 12 hours",
			log: "page,site,time,changed\n" +
				"a,s,2024-01-01T00:00:00Z,0\na,s,2024-01-01T12:00:00Z,1\n" +
				"a,s,2024-01-02T00:00:00Z,0\na,s,2024-01-02T12:00:00Z,1\n" +
				"a,s,2024-01-03T00:00:00Z,0\n",
			changed: [][]int32{{0}, nil, {0}, nil}, cycle: 43200, inferred: true, unit: "cycle",
		},
		{
			name: "given cycle: a day over 12-hour crawls",
			log: "page,site,time,changed\n" +
				"a,s,2024-01-01T00:00:00Z,0\na,s,2024-01-01T12:00:00Z,1\n" +
				"a,s,2024-01-02T00:00:00Z,0\na,s,2024-01-02T12:00:00Z,1\n" +
				"a,s,2024-01-03T00:00:00Z,0\n",
			// 12:00 rounds to the next day (round half away from zero).
			opt:     CrawlLogOptions{CycleLength: 86400, Name: "log.csv"},
			changed: [][]int32{{0}, {0}}, cycle: 86400, unit: "day",
			check: func(t *testing.T, d *Dataset, s *CrawlLogSummary) {
				if d.Info.Name != "log.csv" {
					t.Errorf("name %q", d.Info.Name)
				}
			},
		},
		{name: "drift, inferred cycle", log: drift, changed: driftWant, cycle: 86100, inferred: true, unit: "day"},
		{name: "drift, given cycle", log: drift, opt: CrawlLogOptions{CycleLength: 86400}, changed: driftWant},
		{name: "jitter, given cycle", log: jitter, opt: CrawlLogOptions{CycleLength: 86400}, changed: jitterWant, unit: "day", sites: []string{"x.org"}},
		{
			name:    "hourly unit",
			log:     "page,site,ts,changed\na,s,2024-01-01T00:00:00Z,0\na,s,2024-01-01T01:00:30Z,1\n",
			changed: [][]int32{{0}}, cycle: 3630, unit: "hour",
		},
		{
			name: "time formats",
			log: "page,site,time,changed\n" +
				"a,s,2024-01-01,0\n" +
				"b,s,2024-01-01T00:00:00Z,0\n" +
				"c,s,2024-01-01T01:00:00+01:00,0\n" +
				"d,s,2023-12-31T19:00:00.000-05:00,0\n" +
				"e,s,2024-01-01 00:00:00,0\n" +
				"f,s,2024-01-01 00:00,0\n" +
				"g,s,2024-01-01T00:00:00,0\n" +
				"h,s,1704067200,0\n" +
				"i,s,1704067200000,0\n" +
				"j,s,1704067200.25,0\n" +
				"a,s,2024-01-02T00:00:00.123456789Z,1\n" +
				"b,s,1704153600,1\n" +
				"c,s,1704153600000.5,1\n" +
				"d,s,2024-01-02 01:00:00+0100,1\n" +
				"e,s,2024-01-02t00:00:00z,1\n" +
				"f,s,2024-01-02,1\n" +
				"g,s,2024-01-02T00:00,1\n" +
				"h,s,2024-01-01T23:59:59.999Z,1\n" +
				"i,s, 1704153600 ,1\n" +
				"j,s,+1704153600,1\n",
			changed: [][]int32{{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}, cycle: 86400, inferred: false,
			opt: CrawlLogOptions{CycleLength: 86400},
		},
		{
			name: "BOM, comments, blank lines, quotes, CRLF",
			log: "\ufeff# exported by crawler v2\r\n\r\n" +
				"\"page\",site,time,changed\r\n" +
				"# a comment\r\n" +
				"\"a, with comma\",\"s \"\"q\"\"\",2024-01-01,0\r\n" +
				"   \r\n" +
				"\"a, with comma\",\"s \"\"q\"\"\",2024-01-02,1\r\n" +
				"\"multi\nline\",s2, 2024-01-01,0\r\n" +
				"\"multi\nline\",s2,2024-01-02,TRUE\r\n\r\n",
			changed: [][]int32{{0, 1}},
			urls:    []string{"a, with comma", "multi\nline"},
			sites:   []string{`s "q"`, "s2"},
		},
		{
			name: "page first seen late",
			log: "page,site,time,changed\n" +
				"a,s,2024-01-01,0\na,s,2024-01-02,0\na,s,2024-01-03,1\n" +
				"b,s,2024-01-02,1\nb,s,2024-01-03,1\n",
			changed: [][]int32{nil, {0, 1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, s, err := ReadCrawlLog(strings.NewReader(tt.log), tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Validate(); err != nil {
				t.Fatal(err)
			}
			if !equalChanged(d.Truth.Changed, tt.changed) {
				t.Errorf("changed = %v, want %v", d.Truth.Changed, tt.changed)
			}
			if tt.urls != nil && !slices.Equal(pageURLs(d), tt.urls) {
				t.Errorf("pages = %q, want %q", pageURLs(d), tt.urls)
			}
			if tt.sites != nil && !slices.Equal(d.Sites, tt.sites) {
				t.Errorf("sites = %q, want %q", d.Sites, tt.sites)
			}
			if tt.cycle != 0 && (math.Abs(d.Info.CycleLength-tt.cycle) > 1e-6 || s.CycleLength != d.Info.CycleLength) {
				t.Errorf("cycle length = %v (summary %v), want %v", d.Info.CycleLength, s.CycleLength, tt.cycle)
			}
			if s.CycleInferred != (tt.opt.CycleLength == 0) || tt.inferred && !s.CycleInferred {
				t.Errorf("cycle inferred = %v", s.CycleInferred)
			}
			if tt.unit != "" && d.Info.CycleUnit != tt.unit {
				t.Errorf("unit = %q, want %q", d.Info.CycleUnit, tt.unit)
			}
			if s.Cycles != len(tt.changed) || d.Info.Cycles != s.Cycles || s.Pages != len(d.Pages) || s.Sites != len(d.Sites) {
				t.Errorf("counts: summary %+v, info %+v", *s, d.Info)
			}
			if tt.check != nil {
				tt.check(t, d, s)
			}
		})
	}
}

func TestReadCrawlLogID(t *testing.T) {
	d1, _, err1 := ReadCrawlLog(strings.NewReader(goodLog), CrawlLogOptions{})
	d2, _, err2 := ReadCrawlLog(strings.NewReader(goodLog), CrawlLogOptions{Name: "other"})
	d3, _, err3 := ReadCrawlLog(strings.NewReader(goodLog+"# end\n"), CrawlLogOptions{})
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatal(err)
	}
	if d1.Info.ID != d2.Info.ID || d1.Info.ID == d3.Info.ID {
		t.Errorf("ids %q %q %q: want the same file to give the same id, another file another", d1.Info.ID, d2.Info.ID, d3.Info.ID)
	}
}

func TestReadCrawlLogProgress(t *testing.T) {
	log := benchLog(2000, 10, false)
	var calls []int64
	_, _, err := ReadCrawlLog(bytes.NewReader(log), CrawlLogOptions{Progress: func(n int64) { calls = append(calls, n) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) < 2 || calls[len(calls)-1] != int64(len(log)) || !slices.IsSorted(calls) {
		t.Errorf("progress calls %v for %d bytes", calls, len(log))
	}
}

// roundTripDataset is a small hand-built dataset, with page ids that need
// quoting.
func roundTripDataset(cycleLength float64) *Dataset {
	d := &Dataset{
		Info: Info{ID: "rt", Name: "round trip", CycleLength: cycleLength},
		Repository: Repository{
			Pages: []Page{
				{URL: "https://a.example/1", Site: 0},
				{URL: "#not-a-comment", Site: 1},
				{URL: `page "with, quotes"`, Site: 1},
				{URL: "https://a.example/2", Site: 0, Labels: []int32{0}},
			},
			Sites:  []string{"a.example", "b, inc."},
			Labels: []string{"news"},
		},
		Truth: Truth{Changed: [][]int32{{0, 2}, nil, {0, 1, 2, 3}, {3}, nil, {1}}},
	}
	if err := d.Finish(); err != nil {
		panic(err)
	}
	return d
}

func TestWriteCrawlLogRoundTrip(t *testing.T) {
	for _, cl := range []float64{86400, 3600, 43200, 0} {
		t.Run(fmt.Sprint(cl), func(t *testing.T) {
			d := roundTripDataset(cl)
			var buf bytes.Buffer
			if err := WriteCrawlLog(&buf, d, time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)); err != nil {
				t.Fatal(err)
			}
			got, s, err := ReadCrawlLog(&buf, CrawlLogOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !equalChanged(got.Truth.Changed, d.Truth.Changed) {
				t.Errorf("changed = %v, want %v", got.Truth.Changed, d.Truth.Changed)
			}
			if !slices.Equal(pageURLs(got), pageURLs(d)) || !slices.Equal(got.Sites, d.Sites) {
				t.Errorf("pages %q sites %q", pageURLs(got), got.Sites)
			}
			want := cl
			if want == 0 {
				want = 86400
			}
			if got.Info.CycleLength != want || s.Rows != 4*7 {
				t.Errorf("cycle length %v, rows %d", got.Info.CycleLength, s.Rows)
			}
		})
	}
	var buf bytes.Buffer
	WriteCrawlLog(&buf, roundTripDataset(86400), time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC))
	head := strings.Join(strings.Split(buf.String(), "\n")[:6], "\n")
	const want = `page,site,time,changed
https://a.example/1,a.example,2024-03-01T00:00:00Z,0
"#not-a-comment","b, inc.",2024-03-01T00:00:00Z,0
"page ""with, quotes""","b, inc.",2024-03-01T00:00:00Z,0
https://a.example/2,a.example,2024-03-01T00:00:00Z,0
https://a.example/1,a.example,2024-03-02T00:00:00Z,1`
	if head != want {
		t.Errorf("log begins\n%s\nwant\n%s", head, want)
	}
}

func TestWriteCrawlLogRefuses(t *testing.T) {
	for _, urls := range [][]string{{"a", "a"}, {"a", ""}, {" a", "b"}, {"a\r\nb", "c"}} {
		d := &Dataset{Repository: Repository{Pages: []Page{{URL: urls[0]}, {URL: urls[1]}}, Sites: []string{"s"}},
			Truth: Truth{Changed: [][]int32{{0}}}}
		if err := WriteCrawlLog(io.Discard, d, time.Unix(0, 0)); err == nil {
			t.Errorf("pages %q: no error", urls)
		}
	}
}

func TestReadCrawlLogErrors(t *testing.T) {
	const h = "page,site,time,changed\n"
	const row = "a,s,2024-01-01,0\n"
	long := strings.Repeat("x", 5000)
	tests := []struct {
		name     string
		log      string
		opt      CrawlLogOptions
		limit    *int // a limit to lower to 2 (rows) or 100 (line bytes)
		line     int
		col      int
		field    string
		expected string // substring of Expected
		msg      string // the whole Error(), when set
	}{
		{name: "empty file", log: "", line: 1, expected: "a header row", msg: "line 1: expected a header row, got end of file"},
		{name: "only comments", log: "# nothing\n\n", line: 1, expected: "a header row"},
		{name: "no page", log: "site,time,changed\ns,1,0\n", line: 1, expected: "a page column (named page or url)",
			msg: `line 1: expected a page column (named page or url), got "site,time,changed": to read a column named otherwise as the page column, give a column map, such as columns=page=NAME`},
		{name: "no time", log: "page,when,changed\n", line: 1, expected: "a time column (named time, crawl_time, timestamp, ts or crawled_at)"},
		{name: "no change", log: "# c\npage,time\n", line: 2, expected: "a change column (named changed, hash, content_hash, digest or checksum)"},
		{name: "two time columns", log: "page,time,TS,changed\n", line: 1, col: 3, field: "TS", expected: `column 2, "time", is one`},
		{name: "header only", log: h, line: 1, expected: "at least one crawl row"},
		{name: "header and comments only", log: h + "# x\n\n", line: 1, expected: "at least one crawl row"},
		{name: "field count", log: h + row + "\na,s,2024-01-02\n", line: 4, expected: "4 fields",
			msg: "line 4: expected 4 fields, got 3"},
		{name: "bad time", log: h + row + "a,s,yesterday,1\n", line: 3, col: 3, field: "time", expected: "a time",
			msg: `line 3, column 3 (time): expected a time (RFC 3339, YYYY-MM-DD [HH:MM[:SS]], YYYYMMDDhhmmss, or unix seconds), got "yesterday"`},
		{name: "empty time", log: h + "a,s,,1\n", line: 2, col: 3, field: "time", expected: "a time"},
		{name: "bad date", log: h + "a,s,2023-02-29,1\n", line: 2, col: 3, field: "time", expected: "a time"},
		{name: "bad clock", log: h + "a,s,2023-02-28T24:00:00Z,1\n", line: 2, col: 3, expected: "a time"},
		{name: "bad zone", log: h + "a,s,2023-02-28T10:00:00+5,1\n", line: 2, col: 3, expected: "a time"},
		{name: "exponent", log: h + "a,s,1.7e9,1\n", line: 2, col: 3, expected: "a time"},
		{name: "before 1970", log: h + row + "a,s,1969-12-31T23:59:59Z,1\n", line: 3, col: 3, field: "time",
			msg: `line 3, column 3 (time): expected a time between 1970 and 2200, got "1969-12-31T23:59:59Z"`},
		{name: "before 1970 by zone", log: h + "a,s,1970-01-01T00:30:00+01:00,1\n", line: 2, col: 3, expected: "between 1970 and 2200"},
		{name: "negative unix", log: h + "a,s,-1,1\n", line: 2, col: 3, expected: "between 1970 and 2200"},
		{name: "after 2200", log: h + "a,s,2201-01-01,1\n", line: 2, col: 3, expected: "between 1970 and 2200"},
		{name: "after 2200 in ms", log: h + "a,s,7289654400000,1\n", line: 2, col: 3, expected: "between 1970 and 2200"},
		{name: "huge number", log: h + "a,s,123456789012345678901234567890,1\n", line: 2, col: 3, expected: "between 1970 and 2200"},
		{name: "bad changed", log: h + row + "\n\na,s,2024-01-02,maybe\n", line: 5, col: 4, field: "changed",
			msg: `line 5, column 4 (changed): expected 0/1, true/false or yes/no, got "maybe"`},
		{name: "empty changed", log: h + "a,s,2024-01-02,\n", line: 2, col: 4, field: "changed", expected: "0/1"},
		{name: "empty page", log: h + row + "  ,s,2024-01-02,1\n", line: 3, col: 1, field: "page",
			msg: "line 3, column 1 (page): expected a page id, got an empty field"},
		{name: "empty hash", log: "ts,Page,site,Digest\n1,a,s,x\n2,a,s,\n", line: 3, col: 4, field: "Digest", expected: "a hash"},
		{name: "bare quote", log: h + row + `a"b,s,2024-01-02,1` + "\n", line: 3, col: 2, expected: `a " only in a quoted field`,
			msg: `line 3, column 2: expected a " only in a quoted field (quote the field and double the "), got a bare " in an unquoted field`},
		{name: "unclosed quote", log: h + row + "\"a,s,2024-01-02,1\n", line: 3, col: 19, expected: `a closing "`},
		{name: "text after quote", log: h + `"a"b,s,2024-01-02,1` + "\n", line: 2, col: 3, expected: `a closing "`},
		{name: "long field", log: h + row + long + ",s,2024-01-02,1\n", line: 3, col: 1, field: "page",
			msg: "line 3, column 1 (page): expected a field of at most 4096 bytes, got 5000 bytes"},
		{name: "long header", log: "page,time,changed," + long + "\n", line: 1, col: 4, expected: "at most 4096 bytes"},
		{name: "too many rows", log: h + row + row + "# c\n" + row, limit: &maxCrawlRows, line: 5,
			msg: "line 5: expected at most 2 crawl rows, got more"},
		{name: "long line", log: h + row + strings.Repeat("a", 200) + ",s,2024-01-02,1\n", limit: &maxLineBytes, line: 3,
			expected: "a line of at most 100 bytes"},
		{name: "long line in header", log: "page,site,time,changed" + strings.Repeat(",x", 100) + "\n" + row, limit: &maxLineBytes, line: 1,
			expected: "a line of at most 100 bytes"},
		{name: "not a URL, no site column", log: "page,time,changed\nhttps://x.org/a,2024-01-01,0\nx.org/b,2024-01-01,0\n",
			line: 3, col: 1, field: "page", msg: `line 3, column 1 (page): expected a URL with a host, since there is no site column, got "x.org/b"`},
		{name: "url not a URL", log: "page,url,time,changed\na,mailto:x@y.z,2024-01-01,0\n", line: 2, col: 2, field: "url", expected: "a URL with a host"},
		{name: "empty site", log: h + ",s,2024-01-01,0\n", line: 2, col: 1, field: "page", expected: "a page id"},
		{name: "empty site name", log: h + "a, ,2024-01-01,0\n", line: 2, col: 2, field: "site", expected: "a site name"},
		{name: "site changes", log: h + row + "a,t,2024-01-02,1\n", line: 3, col: 2, field: "site",
			msg: `line 3, column 2 (site): expected site "s", as on the page's earlier rows, got "t"`},
		{name: "never crawled twice", log: h + row + "b,s,2024-01-02,0\n", line: 1, expected: "at least one page crawled twice"},
		{name: "crawled twice at once", log: "# x\n" + h + row + row, line: 2, expected: "at least one page crawled twice"},
		{name: "one round", log: h + row + "a,s,2024-01-01T01:00:00Z,1\n", opt: CrawlLogOptions{CycleLength: 86400}, line: 1,
			expected: "crawls spanning at least one cycle"},
		{name: "too many rounds", log: h + row + "a,s,2200-01-01,1\nb,s,2024-06-01,1\n", opt: CrawlLogOptions{CycleLength: 3600},
			line: 3, col: 3, field: "time", expected: "a crawl at most 100000 cycles of 3600 s after the first (line 2)"},
		{name: "truncated got", log: h + "a,s," + strings.Repeat("é", 30) + ",1\n", line: 2, col: 3,
			msg: `line 2, column 3 (time): expected a time (RFC 3339, YYYY-MM-DD [HH:MM[:SS]], YYYYMMDDhhmmss, or unix seconds), got "` + strings.Repeat("é", 20) + `..."`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.limit != nil {
				old := *tt.limit
				*tt.limit = 2
				if tt.limit == &maxLineBytes {
					*tt.limit = 100
				}
				defer func() { *tt.limit = old }()
			}
			d, s, err := ReadCrawlLog(strings.NewReader(tt.log), tt.opt)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v (%T), want a *ParseError", err, err)
			}
			if d != nil || s != nil {
				t.Errorf("got a dataset with the error")
			}
			if pe.Line != tt.line || pe.Column != tt.col || tt.field != "" && pe.Field != tt.field {
				t.Errorf("at line %d, column %d, field %q; want %d, %d, %q (%v)", pe.Line, pe.Column, pe.Field, tt.line, tt.col, tt.field, err)
			}
			if !strings.Contains(pe.Expected, tt.expected) {
				t.Errorf("expected %q, want it to contain %q", pe.Expected, tt.expected)
			}
			if tt.msg != "" && err.Error() != tt.msg {
				t.Errorf("message\n %s\nwant\n %s", err, tt.msg)
			}
		})
	}
}

func TestReadCrawlLogBadOption(t *testing.T) {
	for _, cl := range []float64{-1, math.NaN(), math.Inf(1)} {
		_, _, err := ReadCrawlLog(strings.NewReader(goodLog), CrawlLogOptions{CycleLength: cl})
		var pe *ParseError
		if err == nil || errors.As(err, &pe) {
			t.Errorf("cycle length %v: err = %v, want an option error", cl, err)
		}
	}
}

// TestParseCrawlTime checks the hand-written time parser against the time
// package.
func TestParseCrawlTime(t *testing.T) {
	layouts := []string{time.RFC3339Nano, time.RFC3339, "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02T15:04:05", "2006-01-02",
		"2006-01-02T15:04:05.999-0700", "2006-01-02 15:04:05-07:00", "20060102150405"}
	zones := []*time.Location{time.UTC, time.FixedZone("", 5*3600+30*60), time.FixedZone("", -8*3600)}
	for i := range 2000 {
		sec := int64(i) * 3_644_731_199 // spread over 1970..2200
		sec %= maxCrawlTime / 1e9
		tm := time.Unix(sec, int64(i)*7919%1e9)
		for _, layout := range layouts {
			for _, z := range zones {
				s := tm.In(z).Format(layout)
				want, err := time.Parse(layout, s)
				if err != nil {
					t.Fatal(err)
				}
				got, st := parseCrawlTime(s, nil)
				switch {
				case want.Before(time.Unix(0, 0)) || !want.Before(time.Unix(0, maxCrawlTime)):
					if st != timeRange {
						t.Errorf("%q: status %d, want out of range", s, st)
					}
				case st != timeOK || got != want.UnixNano():
					t.Errorf("%q: %d (%d), want %d", s, got, st, want.UnixNano())
				}
			}
		}
	}
	for s, want := range map[string]int64{
		"0": 0, "1e3": -1, "100000000000": -2, "100000000000.5": 1e11*1e6 + 5e5, "7289654399": 7289654399e9, "7289654400": -2, "7289654399999": 7289654399999e6, "-0.0": 0, "1.5": 1.5e9, ".5": 5e8,
		"1704067200.123456789123": 1704067200123456789, "20240229235959": 1709251199e9, "20230229000000": -1, "20241301000000": -1,
		"19691231235959": -2, "22010101000000": -2, "2024010112000a": -1, "+2024010112000": 2024010112000e6, "2200-12-31T23:59:59.999999999Z": maxCrawlTime - 1, "2024-01-01T00:00:60Z": -1,
		"2024-01-01T00:00:00.Z": -1, "2024-01-01T00:00:00Z ": -1, "2024-01-01_00:00": -1, "2024-13-01": -1, "+": -1, "": -1, "1.2.3": -1,
	} {
		got, st := parseCrawlTime(s, nil)
		if want == -1 && st != timeBad || want == -2 && st != timeRange || want >= 0 && (st != timeOK || got != want) {
			t.Errorf("%q: %d (status %d), want %d", s, got, st, want)
		}
	}
}

// FuzzReadCrawlLog checks that any input gives either a valid dataset or a
// *ParseError with a line, and never a panic.
func FuzzReadCrawlLog(f *testing.F) {
	drift, _ := driftLog()
	jitter, _ := jitterLog()
	for _, s := range []string{goodLog, goodHashLog, unsorted(goodLog), drift, jitter,
		"url,time,changed\nhttps://a.b:80/x,1,0\nhttps://a.b:80/x,2,1\n",
		"\ufeffpage,site,time,changed\n\"a\"\"\",s,2024-01-01 00:00,0\n# c\n\"a\"\"\",s,2024-01-02 00:00,1\n",
		"page,site,time,changed\na,s,2024-01-01,0\na\"b,s,2024-01-02,1\n",
		"page,site,time,changed\n", "", "page,site,time,changed\na,s,1969-01-01,1\n",
	} {
		f.Add([]byte(s), 0.0)
		f.Add([]byte(s), 3600.0)
	}
	f.Fuzz(func(t *testing.T, data []byte, cycle float64) {
		d, s, err := ReadCrawlLog(bytes.NewReader(data), CrawlLogOptions{CycleLength: fuzzCycle(cycle)})
		if err != nil {
			wantParseError(t, err)
			return
		}
		if err := d.Validate(); err != nil {
			t.Fatal(err)
		}
		if s.Cycles != d.Truth.Cycles() || s.Cycles < 1 || s.Pages != len(d.Pages) || s.Rows < s.Pages || !(s.CycleLength > 0) {
			t.Fatalf("summary %+v for %d pages, %d cycles", *s, len(d.Pages), d.Truth.Cycles())
		}
		// What was read writes out and reads back the same, when the cycle
		// length allows nanosecond times within the years accepted and the
		// log written is small.
		if L := d.Info.CycleLength; L < 1e-3 || float64(s.Cycles)*L > 100*365*86400 || (s.Cycles+1)*s.Pages > 10_000 {
			return
		}
		var buf bytes.Buffer
		if err := WriteCrawlLog(&buf, d, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil {
			return // page URLs that are not unique, say
		}
		d2, _, err := ReadCrawlLog(&buf, CrawlLogOptions{})
		if err != nil {
			t.Fatalf("reading the log written: %v", err)
		}
		if !equalChanged(d2.Truth.Changed, d.Truth.Changed) {
			t.Fatalf("read back %v, want %v", d2.Truth.Changed, d.Truth.Changed)
		}
	})
}

// fuzzCycle turns a fuzzed cycle length into an option: itself when it
// is positive and finite, else 0 (inferred).
func fuzzCycle(cycle float64) float64 {
	if !(cycle > 0) || math.IsInf(cycle, 0) {
		return 0
	}
	return cycle
}

// wantParseError fails t unless err is a *ParseError with a line (and a
// column that is not negative) whose message can be formatted.
func wantParseError(t *testing.T, err error) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line < 1 || pe.Column < 0 {
		t.Fatalf("err = %v (%T), want a *ParseError with a line", err, err)
	}
	_ = pe.Error()
}

// sharedData locates the real change logs, two Open Terms Archive
// collections kept beside the project in ../shared/data (they are not part
// of the repository), and skips the test, saying so, when they are absent.
func sharedData(t *testing.T) string {
	dir := filepath.Join("..", "..", "..", "shared", "data")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("skipped: the real Open Terms Archive change logs are not here (no folder %s beside the project)", dir)
	}
	return dir
}

// otaCrawlLog turns the change events of the n pages with the most changes
// since 2023 in an Open Terms Archive events.csv into a crawl log on the
// 12-hour run grid, keeping every k-th run. Since 2023 the archive crawls
// every 12 hours, at about 00:30 and 12:30 UTC, and records a version only
// when a page's text changed, so the crawls that saw no change are the
// runs with no event. A change event is seen by the first kept run at or
// after it, with an hour's slack since a run's commits land minutes after
// the run starts; technical events (re-extractions after a selector
// change, not page changes) are dropped. It returns the log and each
// page's number of crawls that saw a change.
func otaCrawlLog(t *testing.T, path string, n, k int) (string, map[string]int) {
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("skipped: the real change log %s is not here: %v", path, err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	origin := time.Date(2023, 1, 1, 0, 30, 0, 0, time.UTC).Unix()
	const run = 12 * 3600
	kept := func(e int64) int { // the kept run that sees an event at e
		i := int(math.Ceil(float64(e-origin-3600) / run))
		return (i + k - 1) / k * k
	}
	type page struct {
		id, site string
		base     int          // baseline run
		seen     map[int]bool // runs that saw a change
		changes  int
	}
	pages := map[string]*page{}
	last := 0
	for _, r := range rows[1:] {
		e, err := strconv.ParseInt(r[col["ts_unix"]], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		id := r[col["service"]] + " / " + r[col["document_type"]]
		p := pages[id]
		if p == nil {
			p = &page{id: id, site: r[col["service"]], seen: map[int]bool{}}
			pages[id] = p
		}
		if e < origin {
			continue
		}
		i := max(kept(e), 0)
		last = max(last, i)
		switch r[col["event"]] {
		case "start":
			p.base = i
		case "change":
			p.seen[i] = true
			p.changes++
		}
	}
	var sel []*page
	for _, p := range pages {
		delete(p.seen, p.base) // the baseline crawl observes nothing
		for i := range p.seen {
			if i < p.base {
				delete(p.seen, i)
			}
		}
		sel = append(sel, p)
	}
	sort.Slice(sel, func(i, j int) bool {
		if sel[i].changes != sel[j].changes {
			return sel[i].changes > sel[j].changes
		}
		return sel[i].id < sel[j].id
	})
	sel = sel[:min(n, len(sel))]
	var b strings.Builder
	b.WriteString("page,site,time,changed\n")
	want := map[string]int{}
	for i := 0; i <= last; i += k {
		ts := time.Unix(origin+int64(i)*run, 0).UTC().Format(time.RFC3339)
		for _, p := range sel {
			if i >= p.base {
				ch := p.seen[i] && i > p.base
				fmt.Fprintf(&b, "%q,%q,%s,%d\n", p.id, p.site, ts, map[bool]int{false: 0, true: 1}[ch])
				if ch {
					want[p.id]++
				}
			}
		}
	}
	return b.String(), want
}

func TestReadCrawlLogOTA(t *testing.T) {
	dir := sharedData(t)
	for _, name := range []string{"ota-pga-versions", "ota-dating-versions"} {
		for _, k := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/every-%d", name, k), func(t *testing.T) {
				log, want := otaCrawlLog(t, filepath.Join(dir, name, "events.csv"), 6, k)
				d, s, err := ReadCrawlLog(strings.NewReader(log), CrawlLogOptions{Name: name})
				if err != nil {
					t.Fatal(err)
				}
				if s.CycleLength != float64(k*12*3600) || (k == 2) != (d.Info.CycleUnit == "day") {
					t.Errorf("cycle %v s (%s), want %d hours", s.CycleLength, d.Info.CycleUnit, 12*k)
				}
				got := map[string]int{}
				total := 0
				for _, ch := range d.Truth.Changed {
					for _, p := range ch {
						got[d.Pages[p].URL]++
						total++
					}
				}
				if fmt.Sprint(got) != fmt.Sprint(want) || s.Changes != total {
					t.Errorf("changes per page\n got %v\nwant %v (summary: %d changes)", got, want, s.Changes)
				}
				t.Logf("%d rows, %d pages, %d sites, %d cycles of %v s, %d changes, change rate %.4f",
					s.Rows, s.Pages, s.Sites, s.Cycles, s.CycleLength, s.Changes, s.ChangeRate)
			})
		}
	}
}

// benchLog generates a crawl log of pages × rounds rows: pages on 1 site per
// 100 pages, crawled daily with a few minutes' jitter, about 10% of crawls
// seeing a change; with hashes instead of changed flags when hashes is set.
func benchLog(pages, rounds int, hashes bool) []byte {
	var b bytes.Buffer
	if hashes {
		b.WriteString("url,site,crawled_at,content_hash\n")
	} else {
		b.WriteString("url,site,crawled_at,changed\n")
	}
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	x := uint64(1)
	ver := make([]int, pages)
	var row []byte
	for r := range rounds {
		for p := range pages {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			t := t0.Add(time.Duration(r)*24*time.Hour + time.Duration(x%600)*time.Second)
			ch := x%10 == 0
			row = fmt.Appendf(row[:0], "https://site%d.example.com/articles/%d.html,site%d.example.com,", p/100, p, p/100)
			row = t.AppendFormat(row, time.RFC3339)
			if hashes {
				if ch {
					ver[p]++
				}
				row = fmt.Appendf(row, ",%016x\n", uint64(p)*1_000_003+uint64(ver[p]))
			} else if ch {
				row = append(row, ",1\n"...)
			} else {
				row = append(row, ",0\n"...)
			}
			b.Write(row)
		}
	}
	return b.Bytes()
}

// BenchmarkReadCrawlLog reads a generated log of 1,000,000 rows (10,000
// pages crawled daily for 100 days) and reports ns per row.
func BenchmarkReadCrawlLog(b *testing.B) {
	const pages, rounds = 10_000, 100
	for _, hashes := range []bool{false, true} {
		name := "changed"
		if hashes {
			name = "hash"
		}
		b.Run(name, func(b *testing.B) {
			log := benchLog(pages, rounds, hashes)
			b.SetBytes(int64(len(log)))
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := ReadCrawlLog(bytes.NewReader(log), CrawlLogOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(pages*rounds), "ns/row")
		})
	}
}

// TestReadmeExample reads the example log in datasets/README.md, so that
// the documentation stays true.
func TestReadmeExample(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "datasets", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "```csv\n")
	log, _, ok2 := strings.Cut(after, "```")
	if !ok || !ok2 {
		t.Fatal("no csv example in datasets/README.md")
	}
	d, s, err := ReadCrawlLog(strings.NewReader(log), CrawlLogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !equalChanged(d.Truth.Changed, [][]int32{{1, 2}, {1}}) || s.Pages != 3 || s.Sites != 2 || s.CycleLength != 86400 {
		t.Errorf("changed %v, summary %+v", d.Truth.Changed, *s)
	}
}

func TestCycleUnit(t *testing.T) {
	for L, want := range map[float64]string{86400: "day", 85600: "day", 87264: "day", 87265: "cycle", 3600: "hour", 3636: "hour",
		604800: "week", 610000: "week", 43200: "cycle", 1: "cycle", 2592000: "cycle"} {
		if got := cycleUnit(L); got != want {
			t.Errorf("cycleUnit(%v) = %q, want %q", L, got, want)
		}
	}
}

// TestReadCrawlLogIDOptions checks that a log's id covers how it was read:
// the same bytes read with another cycle length are another dataset, and
// an explicit cycle equal to the one inferred is the same dataset.
func TestReadCrawlLogIDOptions(t *testing.T) {
	read := func(log string, cycle float64) string {
		t.Helper()
		d, _, err := ReadCrawlLog(strings.NewReader(log), CrawlLogOptions{CycleLength: cycle})
		if err != nil {
			t.Fatal(err)
		}
		return d.Info.ID
	}
	for _, log := range []string{goodLog, "\ufeff" + goodHashLog} {
		inferred, day, halfDay := read(log, 0), read(log, 86400), read(log, 43200)
		if inferred != day {
			t.Errorf("inferred cycle of a day gives %q, an explicit day %q: want one id", inferred, day)
		}
		if halfDay == day {
			t.Errorf("12-hour and 1-day cycles both give %q: want two datasets", day)
		}
		if !strings.HasPrefix(day, "upload-") || len(day) != len("upload-")+12 {
			t.Errorf("id %q: want upload- and 12 hex digits", day)
		}
	}
}

// TestWriteCrawlLogRoundTripRandom round-trips random datasets.
func TestWriteCrawlLogRoundTripRandom(t *testing.T) {
	x := uint64(99)
	rnd := func(n int) int {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return int(x % uint64(n))
	}
	for iter := range 200 {
		d := &Dataset{Info: Info{CycleLength: []float64{86400, 3600, 2629746, 0.5, 0}[iter%5]}}
		nsites := 1 + rnd(4)
		for s := range nsites {
			d.Sites = append(d.Sites, fmt.Sprintf("site-%d.example", s))
		}
		for p := range 1 + rnd(20) {
			d.Pages = append(d.Pages, Page{URL: fmt.Sprintf("https://site-%d.example/%d", p%nsites, p), Site: int32(p % nsites)})
		}
		for range 1 + rnd(30) {
			var ch []int32
			for p := range d.Pages {
				if rnd(3) == 0 {
					ch = append(ch, int32(p))
				}
			}
			d.Truth.Changed = append(d.Truth.Changed, ch)
		}
		if err := d.Finish(); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteCrawlLog(&buf, d, time.Date(2020, 2, 29, 12, 0, 0, 0, time.FixedZone("", 3600))); err != nil {
			t.Fatal(err)
		}
		got, _, err := ReadCrawlLog(&buf, CrawlLogOptions{})
		if err != nil {
			t.Fatalf("dataset %d: %v", iter, err)
		}
		if !equalChanged(got.Truth.Changed, d.Truth.Changed) || !slices.Equal(pageURLs(got), pageURLs(d)) {
			t.Fatalf("dataset %d: changed %v, want %v", iter, got.Truth.Changed, d.Truth.Changed)
		}
	}
}
