package dataset

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// example reads one of the example logs in the repository's datasets
// folder.
func example(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "datasets", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// gz compresses b with gzip, in members of at most member bytes of text
// each (0: one member), as Common Crawl writes its index files (blocks
// of 3,000 lines).
func gz(t testing.TB, b []byte, member int) []byte {
	t.Helper()
	var out bytes.Buffer
	for len(b) > 0 || out.Len() == 0 {
		n := len(b)
		if member > 0 {
			n = min(n, member)
		}
		w := gzip.NewWriter(&out)
		if _, err := w.Write(b[:n]); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		b = b[n:]
	}
	return out.Bytes()
}

// TestReadCaptures reads the example capture indexes of the datasets
// folder, whose changes were counted by hand:
//
// example-captures.cdx (11-field CDX, as pywb and the Internet Archive
// write it): three pages, captured daily from 2024-05-01 00:00 UTC.
//   - com,example)/ on days 1–5, digests A A B B C (day 4 a warc/revisit
//     of B, status "-": a capture that found B again): changes on day 3
//     (round 2, cycle 1) and day 5 (round 4, cycle 3), 2 of 4 re-captures.
//   - com,example)/news on days 1, 2, 3, 3 at 12:05 (round 3), 5, digests
//     1 2 2 3 3 (its day-4 capture, a 301, is dropped): changes on day 2
//     (cycle 0) and day 3 at 12:05 (cycle 2), 2 of 4.
//   - org,example)/about on days 1, 3, 5, digests X X Y: a change on day 5
//     (cycle 3), 1 of 2.
//   - dropped: com,example)/old (404), com,example)/robots.txt, the 301.
//
// So 13 captures of 3 pages on 2 sites (example.com, example.org), 10
// re-captures, 5 changes. The gaps between a page's captures are 1 day
// (6 times), 12 h, 1.5 days and 2 days (twice): the median, the cycle, is
// 1 day; the last capture (day 5, 00:10) is round 4, so 4 cycles. Truth:
// cycle 0 news, 1 home, 2 news, 3 home and about.
//
// example-captures.cdxj (Common Crawl's CDXJ) and example-captures.jsonl
// (the same captures as the Common Crawl index server's JSON lines): one
// site, www.example.net, captured on the 5th of each month, January to
// June 2024, at 10:00 (home), 10:20 (blog) and 10:40 (contact).
//   - net,example)/ digests A A B B B C: changes in March and June, 2 of 5.
//   - net,example)/blog digests 1 2 (March: a 301, dropped) 3 3 4: changes
//     in February, April and June, 3 of 4.
//   - net,example)/contact in January and June, the same digest (April: a
//     404, dropped): 0 of 1.
//   - dropped: the 301, the 404 and net,example)/robots.txt.
//
// So 13 captures of 3 pages, 10 re-captures, 5 changes. The gaps are 29,
// 30, 30, 31 (five times), 60 and 152 days: the median is 31 days. From
// 5 January 10:00 the captures fall in rounds 1 (February, 31 days),
// 2 (March, 60 days: 1.94 cycles), 3 (April, 91 days: 2.94), 4 (May, 121
// days: 3.90) and 5 (June, 152 days: 4.90): 5 cycles. Truth: cycle 0
// blog, 1 home, 2 blog, 3 none, 4 home and blog.
func TestReadCaptures(t *testing.T) {
	type want struct {
		rows, pages, sites, cycles, crawls, changes int
		cycle                                       float64
		changed                                     [][]int32
		urls, siteNames                             []string
		dropped                                     map[string]int
	}
	cc := want{rows: 13, pages: 3, sites: 1, cycles: 5, crawls: 10, changes: 5, cycle: 31 * 86400,
		changed:   [][]int32{{1}, {0}, {1}, {}, {0, 1}},
		urls:      []string{"https://www.example.net/", "https://www.example.net/blog", "https://www.example.net/contact"},
		siteNames: []string{"www.example.net"},
		dropped:   map[string]int{"status 301": 1, "status 404": 1, "robots.txt": 1}}
	tests := []struct {
		file, format string
		want         want
		columns      []string
	}{
		{"example-captures.cdx", FormatCDX, want{rows: 13, pages: 3, sites: 2, cycles: 4, crawls: 10, changes: 5, cycle: 86400,
			changed:   [][]int32{{1}, {0}, {1}, {0, 2}},
			urls:      []string{"https://example.com/", "https://example.com/news", "https://example.org/about"},
			siteNames: []string{"example.com", "example.org"},
			dropped:   map[string]int{"status 301": 1, "status 404": 1, "robots.txt": 1}},
			[]string{"urlkey", "timestamp", "original", "mimetype", "statuscode", "digest"}},
		{"example-captures.cdxj", FormatCDXJ, cc, []string{"urlkey", "timestamp", "url", "mime", "status", "digest"}},
		{"example-captures.jsonl", FormatJSONL, cc, []string{"urlkey", "timestamp", "url", "mime", "status", "digest"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data := example(t, tt.file)
			d, s, err := ReadCrawlLog(bytes.NewReader(data), CrawlLogOptions{Format: tt.format})
			if err != nil {
				t.Fatal(err)
			}
			w := tt.want
			if s.Format != tt.format || s.Rows != w.rows || s.Pages != w.pages || s.Sites != w.sites || s.Cycles != w.cycles ||
				s.Crawls != w.crawls || s.Changes != w.changes || s.CycleLength != w.cycle || !s.CycleInferred || s.ChangeFrom != "hash" {
				t.Errorf("summary %+v, want %+v", *s, w)
			}
			if fmt.Sprint(s.Dropped) != fmt.Sprint(w.dropped) {
				t.Errorf("dropped %v, want %v", s.Dropped, w.dropped)
			}
			if !slices.Equal(s.Columns, tt.columns) {
				t.Errorf("columns used %q, want %q", s.Columns, tt.columns)
			}
			if !equalChanged(d.Truth.Changed, w.changed) {
				t.Errorf("truth %v, want %v", d.Truth.Changed, w.changed)
			}
			if got := pageURLs(d); !slices.Equal(got, w.urls) {
				t.Errorf("page URLs %q, want %q", got, w.urls)
			}
			if !slices.Equal(d.Sites, w.siteNames) {
				t.Errorf("sites %q, want %q", d.Sites, w.siteNames)
			}
			if !strings.HasPrefix(d.Info.ID, "upload-") {
				t.Errorf("id %q, want an upload- id", d.Info.ID)
			}

			// Gzip-compressed, in one member or many (as Common Crawl's
			// index files are), it is the same dataset.
			for _, member := range []int{0, 500} {
				zipped := gz(t, data, member)
				var last int64
				d2, s2, err := ReadCrawlLog(bytes.NewReader(zipped), CrawlLogOptions{Format: tt.format, Progress: func(n int64) { last = n }})
				if err != nil {
					t.Fatalf("gzip, members of %d bytes: %v", member, err)
				}
				if d2.Info.ID != d.Info.ID || !equalChanged(d2.Truth.Changed, d.Truth.Changed) || fmt.Sprint(*s2) != fmt.Sprint(*s) {
					t.Errorf("gzip, members of %d bytes: id %s, truth %v, summary %+v; plain: %s, %v, %+v", member, d2.Info.ID, d2.Truth.Changed, *s2, d.Info.ID, d.Truth.Changed, *s)
				}
				if last != int64(len(zipped)) {
					t.Errorf("gzip: progress ended at %d bytes, want the compressed %d", last, len(zipped))
				}
			}
		})
	}
}

// TestReadCapturesAsCSV checks that the rules on captures are the capture
// formats': a CSV crawl log with status and mime columns reads every row
// (they are ignored columns), and its hash column is compared as it is.
func TestReadCapturesAsCSV(t *testing.T) {
	log := `url,time,status,mime,digest
https://a.example/,2024-01-01,200,text/html,A
https://a.example/,2024-01-02,301,text/html,R
https://a.example/,2024-01-03,200,text/html,A
`
	d, s, err := ReadCrawlLog(strings.NewReader(log), CrawlLogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// All three rows: A, R (a change), A (another).
	if s.Rows != 3 || s.Changes != 2 || s.Dropped != nil || !slices.Equal(s.Ignored, []string{"status", "mime"}) {
		t.Errorf("summary %+v", *s)
	}
	if !equalChanged(d.Truth.Changed, [][]int32{{0}, {0}}) {
		t.Errorf("truth %v", d.Truth.Changed)
	}
}

// TestReadCaptureRules reads small capture logs, one rule each.
func TestReadCaptureRules(t *testing.T) {
	const h = " CDX N b a m s k\n"
	tests := []struct {
		name, format, log string
		rows, changes     int
		dropped           string
	}{
		{"a revisit of the same digest is no change", FormatCDX, h +
			"a)/ 20240101000000 http://a/ text/html 200 D1\n" +
			"a)/ 20240102000000 http://a/ warc/revisit - D1\n" +
			"a)/ 20240103000000 http://a/ warc/revisit 200 D1\n", 3, 0, "map[]"},
		{"a revisit of an older digest is a change", FormatCDX, h +
			"a)/ 20240101000000 http://a/ text/html 200 D1\n" +
			"a)/ 20240102000000 http://a/ text/html 200 D2\n" +
			"a)/ 20240103000000 http://a/ warc/revisit - D1\n", 3, 2, "map[]"},
		{"a redirect between two equal digests changes nothing", FormatCDX, h +
			"a)/ 20240101000000 http://a/ text/html 200 D1\n" +
			"a)/ 20240102000000 http://a/ text/html 302 R\n" +
			"a)/ 20240103000000 http://a/ text/html 200 D1\n", 2, 0, "map[status 302:1]"},
		{"robots.txt, by URL and by key", FormatCDX, h +
			"a)/ 20240101000000 http://a/ text/html 200 D1\n" +
			"a)/robots.txt 20240101000000 http://a/robots.txt text/plain 200 R1\n" +
			"a)/robots.txt 20240102000000 http://a/ROBOTS.TXT?x=1 text/plain 200 R2\n" +
			"a)/ 20240102000000 http://a/ text/html 200 D2\n", 2, 1, "map[robots.txt:2]"},
		{"no digest", FormatCDX, h +
			"a)/ 20240101000000 http://a/ text/html 200 D1\n" +
			"a)/ 20240102000000 http://a/ text/html 200 -\n" +
			"a)/ 20240103000000 http://a/ text/html 200 D1\n", 2, 0, "map[no digest:1]"},
		{"headerless 7-field CDX (the CDX server's text)", FormatCDX,
			"org,archive)/ 19970126045828 http://www.archive.org:80/ text/html 200 Q4YULN754FHV2U6Q5JUT6Q2P57WEWNNY 1415\n" +
				"org,archive)/ 19971011050034 http://www.archive.org:80/ text/html 200 XAHDNHZ5P3GSSSNJ3DMEOJF7BMCCPZR3 1402\n" +
				"org,archive)/ 19971211122953 http://www.archive.org:80/ text/html 200 XAHDNHZ5P3GSSSNJ3DMEOJF7BMCCPZR3 1405\n" +
				"org,archive)/ 19971211122953 http://www.archive.org:80/ text/html 200 XAHDNHZ5P3GSSSNJ3DMEOJF7BMCCPZR3 1405\n" +
				"org,archive)/ 19980109140106 http://archive.org:80/ text/html 200 XAHDNHZ5P3GSSSNJ3DMEOJF7BMCCPZR3 1402\n", 5, 1, "map[]"},
		{"CDXJ metadata lines and blank lines", FormatCDXJ,
			"!meta 0 {\"format\": \"cdxj\"}\n\n" +
				"a)/ 20240101000000 {\"url\": \"http://a/\", \"status\": \"200\", \"digest\": \"D1\"}\n" +
				"a)/ 20240102000000 {\"url\": \"http://a/\", \"status\": 200, \"digest\": \"D2\"}\r\n", 2, 1, "map[]"},
		{"canonical JSON lines", FormatJSONL,
			`{"page": "home", "site": "a", "time": "2024-01-01T00:00:00Z", "changed": false}` + "\n" +
				`{"page": "home", "site": "a", "time": 1704153600, "changed": true}` + "\n" +
				`{"page": "home", "site": "a", "time": "2024-01-03", "changed": "0", "extra": {"n": [1, "}"]}}` + "\n", 3, 1, "map[]"},
		{"JSON lines with escapes and keys in any order", FormatJSONL,
			`{"digest": "D\u0031", "url": "http://a/\u00e9", "timestamp": "20240101000000"}` + "\n" +
				`{"timestamp": "20240102000000", "url": "http://a/é", "digest": "D1", "status": null}` + "\n", 2, 0, "map[]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, s, err := ReadCrawlLog(strings.NewReader(tt.log), CrawlLogOptions{Format: tt.format, CycleLength: 86400})
			if err != nil {
				t.Fatal(err)
			}
			if s.Rows != tt.rows || s.Changes != tt.changes || fmt.Sprint(s.Dropped) != tt.dropped {
				t.Errorf("rows %d, changes %d, dropped %v; want %d, %d, %s", s.Rows, s.Changes, s.Dropped, tt.rows, tt.changes, tt.dropped)
			}
		})
	}
}

// TestReadCaptureErrors checks that problems in every format are reported
// where they are.
func TestReadCaptureErrors(t *testing.T) {
	const h = " CDX N b a m s k\n"
	tests := []struct {
		name, format, log string
		line, col         int
		field, msg        string
		hint              string // substring of Hint, or the wrong format suggested
	}{
		{name: "CDX field count", format: FormatCDX, log: h + "a)/ 20240101000000 http://a/ text/html 200 D1\na)/ 20240102000000 http://a/ text/html 200\n",
			line: 3, msg: "line 3: expected 6 fields, as the header names, got 5"},
		{name: "CDX bad timestamp", format: FormatCDX, log: h + "a)/ 20240101000000 http://a/ text/html 200 D1\na)/ 20241301000000 http://a/ text/html 200 D2\n",
			line: 3, col: 2, field: "timestamp"},
		{name: "CDX without header, odd fields", format: FormatCDX, log: "a)/ 20240101000000 http://a/ D1\n",
			line: 1, msg: `line 1: expected a CDX header (" CDX N b a m s k r M S V g"), or 7, 9, 10 or 11 fields separated by spaces, got 4 fields`},
		{name: "CDX without a digest field", format: FormatCDX, log: " CDX N b a m s\na)/ 20240101000000 http://a/ text/html 200\n",
			line: 1, msg: `line 1: expected a change column (named changed, hash, content_hash, digest or checksum), got "urlkey,timestamp,original,mimetype,statu...": to read a column named otherwise as the hash column, give a column map, such as columns=hash=NAME`},
		{name: "CDXJ bad JSON", format: FormatCDXJ, log: "a)/ 20240101000000 {\"url\": \"http://a/\", \"digest\": \"D1\"}\na)/ 20240102000000 {\"url\": \"http://a/\" \"digest\": \"D2\"}\n",
			line: 2, col: 40, msg: "line 2, column 40: expected valid JSON, got invalid character '\"' after object key:value pair"},
		{name: "CDXJ no JSON", format: FormatCDXJ, log: "a)/ 20240101000000 {\"url\": \"http://a/\", \"digest\": \"D1\"}\na)/ 20240102000000\n",
			line: 2, msg: `line 2: expected a CDXJ line (a URL key, a 14-digit timestamp and a JSON object), got "a)/ 20240102000000"`},
		{name: "CDXJ missing digest", format: FormatCDXJ, log: "a)/ 20240101000000 {\"url\": \"http://a/\", \"digest\": \"D1\"}\na)/ 20240102000000 {\"url\": \"http://a/\"}\n",
			line: 2, field: "digest", msg: `line 2 (digest): expected a hash (any non-empty text), got no "digest" field`},
		{name: "CDXJ bad timestamp", format: FormatCDXJ, log: "a)/ 20240101000000 {\"url\": \"http://a/\", \"digest\": \"D1\"}\na)/ 2024010200000x {\"url\": \"http://a/\", \"digest\": \"D2\"}\n",
			line: 2, col: 5, field: "timestamp"},
		{name: "JSON lines, not an object", format: FormatJSONL, log: `{"url": "http://a/", "time": "2024-01-01", "hash": "x"}` + "\n  [1, 2]\n",
			line: 2, col: 3, msg: "line 2, column 3: expected a JSON object, got a JSON array"},
		{name: "JSON lines, bad value", format: FormatJSONL, log: `{"url": "http://a/", "time": "2024-01-01", "hash": "x"}` + "\n" + `{"url": "http://a/", "time": "soon", "hash": "y"}` + "\n",
			line: 2, col: 30, field: "time"},
		{name: "JSON lines, an object for a value", format: FormatJSONL, log: `{"url": "http://a/", "time": "2024-01-01", "changed": 0}` + "\n" + `{"url": "http://a/", "time": "2024-01-02", "changed": {"x": 1}}` + "\n",
			line: 2, col: 55, field: "changed"},
		{name: "JSON lines, truncated", format: FormatJSONL, log: `{"url": "http://a/", "time": "2024-01-01", "hash": "x"}` + "\n" + `{"url": "http://a/", "ti`,
			line: 2, col: 24, msg: "line 2, column 24: expected valid JSON, got unexpected end of JSON input"},
		{name: "only dropped rows", format: FormatCDX, log: h + "a)/ 20240101000000 http://a/ text/html 404 D1\n",
			line: 1, msg: "line 1: expected at least one capture of a page (status 200 or a revisit), got 1 rows, none a capture of a page"},
		{name: "CSV read as CDX", format: FormatCDX, log: "page,time,changed\na,2024-01-01,0\n", line: 1, hint: FormatCrawlLog},
		{name: "CDXJ read as CDX", format: FormatCDX, log: "a)/ 20240101000000 {\"url\": \"http://a/\"}\n", line: 1, hint: FormatCDXJ},
		{name: "CDX read as a crawl log", format: FormatCrawlLog, log: "# from the CDX server\n" + h + "a)/ 20240101000000 http://a/ text/html 200 D1\n", line: 2, hint: FormatCDX},
		{name: "headerless CDX read as change events", format: FormatChangeEvents, log: "org,archive)/ 19970126045828 http://www.archive.org:80/ text/html 200 Q4YU 1415\n", line: 1, hint: FormatCDX},
		{name: "JSON lines read as a crawl log", format: FormatCrawlLog, log: `{"url": "http://a/"}` + "\n", line: 1, hint: FormatJSONL},
		{name: "JSON lines read as CDXJ", format: FormatCDXJ, log: `{"url": "http://a/", "time": "2024-01-01"}` + "\n", line: 1, hint: FormatJSONL},
		{name: "CDXJ read as JSON lines", format: FormatJSONL, log: "a)/ 20240101000000 {\"url\": \"http://a/\"}\n", line: 1, hint: FormatCDXJ},
		{name: "CSV read as JSON lines", format: FormatJSONL, log: "url,time,hash\n", line: 1, hint: FormatCrawlLog},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.format == FormatChangeEvents {
				_, _, err = ReadEventLog(strings.NewReader(tt.log), EventLogOptions{})
			} else {
				_, _, err = ReadCrawlLog(strings.NewReader(tt.log), CrawlLogOptions{Format: tt.format, CycleLength: 86400})
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a *ParseError", err)
			}
			if pe.Line != tt.line || pe.Column != tt.col || pe.Field != tt.field {
				t.Errorf("at line %d, column %d, field %q; want %d, %d, %q (%v)", pe.Line, pe.Column, pe.Field, tt.line, tt.col, tt.field, pe)
			}
			if tt.msg != "" && pe.Error() != tt.msg {
				t.Errorf("message\n %s\nwant\n %s", pe.Error(), tt.msg)
			}
			if tt.hint != "" && pe.Format != tt.hint {
				t.Errorf("suggested format %q, want %q (%v)", pe.Format, tt.hint, pe)
			}
		})
	}
}

// TestReadEncodings checks the hints for files a log cannot be read from
// as they are, and that the separator can be chosen.
func TestReadEncodings(t *testing.T) {
	utf16 := func(s string, bom bool) string {
		var b []byte
		if bom {
			b = append(b, 0xff, 0xfe)
		}
		for _, r := range s {
			b = append(b, byte(r), 0)
		}
		return string(b)
	}
	tests := []struct {
		name, log string
		opt       CrawlLogOptions
		hint, sep string
	}{
		{name: "UTF-16 with a byte order mark", log: utf16(goodLog, true), hint: "the file looks like UTF-16; save it as UTF-8"},
		{name: "UTF-16 without one", log: utf16(goodLog, false), hint: "the file looks like UTF-16; save it as UTF-8"},
		{name: "UTF-16, gzipped", log: string(gz(t, []byte(utf16(goodLog, true)), 0)), hint: "the file looks like UTF-16; save it as UTF-8"},
		{name: "CR line ends", log: strings.ReplaceAll(goodLog, "\n", "\r"), hint: "the file's lines end in CR alone"},
		{name: "semicolons", log: strings.ReplaceAll(goodLog, ",", ";"), hint: "the separator looks like ';'", sep: ";"},
		{name: "tabs", log: strings.ReplaceAll(goodLog, ",", "\t"), hint: "the separator looks like a tab", sep: "\t"},
		{name: "commas read with ';'", log: goodLog, opt: CrawlLogOptions{Layout: Layout{Sep: ';'}}, hint: "the separator looks like a comma", sep: ","},
		{name: "a workbook", log: "PK\x03\x04\x14\x00\x06\x00", hint: "ZIP archive"},
		{name: "binary", log: "page,time\x00\x01\x02,changed\n", hint: "binary"},
		{name: "a damaged gzip header", log: "\x1f\x8b\x09\x00", hint: "header is damaged"},
		{name: "a gzip stream cut short", log: string(gz(t, []byte(goodLog), 0)[:60]), hint: "does not decompress to the end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ReadCrawlLog(strings.NewReader(tt.log), tt.opt)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a *ParseError", err)
			}
			if !strings.Contains(pe.Hint, tt.hint) || pe.Sep != tt.sep || pe.Line < 1 {
				t.Errorf("line %d, hint %q, sep %q; want %q, %q (%v)", pe.Line, pe.Hint, pe.Sep, tt.hint, tt.sep, pe)
			}
			if !strings.Contains(pe.Error(), tt.hint) {
				t.Errorf("the message does not give the hint: %v", pe)
			}
		})
	}

	// Read with their separator, the semicolon and tab logs are goodLog.
	for _, sep := range []rune{';', '\t', '|'} {
		log := strings.ReplaceAll(goodLog, ",", string(sep))
		d, s, err := ReadCrawlLog(strings.NewReader(log), CrawlLogOptions{Layout: Layout{Sep: sep}})
		if err != nil {
			t.Fatalf("sep %q: %v", sep, err)
		}
		if !equalChanged(d.Truth.Changed, goodChanged) || s.Rows != 9 {
			t.Errorf("sep %q: truth %v, %d rows", sep, d.Truth.Changed, s.Rows)
		}
	}
	// A quoted field may hold the separator.
	d, _, err := ReadEventLog(strings.NewReader("page;site;time;event\n\"a;b\";s;2024-01-01;start\n\"a;b\";s;2024-01-02;change\n"), EventLogOptions{Layout: Layout{Sep: ';'}})
	if err != nil || d.Pages[0].URL != "a;b" {
		t.Errorf("a quoted separator: %v, %v", err, d)
	}
}

// mappedLog names its columns otherwise than a crawl log: it is goodLog
// with url, host, crawled_at and content_changed for page, site, time
// and changed, and a column of its own.
var mappedLog = strings.Replace(strings.ReplaceAll(goodLog, "Z,", "Z,x,"), "page,site,time,changed", "url,host,crawled_at,note,content_changed", 1)

// TestColumnMap reads logs whose columns are named otherwise, with a map.
func TestColumnMap(t *testing.T) {
	// Without a map the change column is missing: the error previews the
	// file with the roles guessed.
	_, _, err := ReadCrawlLog(strings.NewReader(mappedLog), CrawlLogOptions{})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Preview == nil {
		t.Fatalf("err = %v, want a *ParseError with a preview", err)
	}
	p := pe.Preview
	if !slices.Equal(p.Header, []string{"url", "host", "crawled_at", "note", "content_changed"}) || len(p.Rows) != 5 ||
		!slices.Equal(p.Rows[0], []string{"a", "s1", "2024-01-01T00:00:00Z", "x", "0"}) {
		t.Errorf("preview header %q, rows %q", p.Header, p.Rows)
	}
	// url and crawled_at are read as they are; host and content_changed
	// are guessed.
	wantRoles := []PreviewRole{{"page", "page or url", -1, false}, {"url", "page or url", 0, false}, {"site", "optional", 1, true},
		{"time", "required", 2, false}, {"changed", "changed or hash", 4, true}, {"hash", "changed or hash", -1, false}}
	if !slices.Equal(p.Roles, wantRoles) {
		t.Errorf("preview roles\n %+v\nwant\n %+v", p.Roles, wantRoles)
	}
	if want := "to read columns named otherwise, give a column map, such as columns=site=host,changed=content_changed (guessed from their names)"; pe.Hint != want {
		t.Errorf("hint %q, want %q", pe.Hint, want)
	}

	read := func(t *testing.T, log, columns string) (*Dataset, *CrawlLogSummary, error) {
		t.Helper()
		m, err := ParseColumns(columns)
		if err != nil {
			t.Fatal(err)
		}
		return ReadCrawlLog(strings.NewReader(log), CrawlLogOptions{Layout: Layout{Columns: m}})
	}
	d, s, err := read(t, mappedLog, "page=url,site=host,time=crawled_at,changed=content_changed")
	if err != nil {
		t.Fatal(err)
	}
	if !equalChanged(d.Truth.Changed, goodChanged) || !slices.Equal(d.Sites, []string{"s1", "s2"}) ||
		!slices.Equal(s.Columns, []string{"url", "host", "crawled_at", "content_changed"}) || !slices.Equal(s.Ignored, []string{"note"}) {
		t.Errorf("mapped: truth %v, sites %q, columns %q, ignored %q", d.Truth.Changed, d.Sites, s.Columns, s.Ignored)
	}
	// The map the page would send (every role it found) reads the same
	// columns, so it is the same dataset; a map that reads another
	// column is another.
	d2, _, err := read(t, mappedLog, "url=URL,site=host,changed=content_changed")
	if err != nil {
		t.Fatal(err)
	}
	if d2.Info.ID != d.Info.ID {
		t.Errorf("two maps reading the same columns: ids %s and %s", d2.Info.ID, d.Info.ID)
	}
	d3, _, err := read(t, mappedLog, "site=host,hash=note")
	if err != nil {
		t.Fatal(err)
	}
	if d3.Info.ID == d.Info.ID {
		t.Errorf("a map reading another column gives the same id %s", d.Info.ID)
	}

	// A map overrides the usual names: time=when reads when, not time.
	d4, _, err := read(t, "page,site,time,when,changed\na,s,junk,2024-01-01,0\na,s,junk,2024-01-02,1\n", "time=when")
	if err != nil || !equalChanged(d4.Truth.Changed, [][]int32{{0}}) {
		t.Errorf("time=when: %v, %v", err, d4)
	}
	// Change events take maps too.
	m, _ := ParseColumns("page=doc,time=at,event=what")
	de, _, err := ReadEventLog(strings.NewReader("doc,site,at,what\nd,s,2024-01-01,start\nd,s,2024-01-02T12:00:00Z,change\n"), EventLogOptions{Layout: Layout{Columns: m}})
	if err != nil || de.Truth.Cycles() != 2 || len(de.Truth.Changed[1]) != 1 {
		t.Errorf("events with a map: %v, %v", err, de)
	}

	// Maps that cannot apply.
	for _, tt := range []struct {
		columns, log string
		option       bool   // an *OptionError, rather than a *ParseError
		want         string // substring of the message
	}{
		{"colour=url", mappedLog, true, `crawl-log logs have no role "colour" (their roles: page, url, site, time, changed, hash)`},
		{"status=note", mappedLog, true, `no role "status"`},
		{"page=url,site=URL", mappedLog, true, `roles page and site are both mapped to column`},
		{"time=crawl_date", mappedLog, false, `line 1: expected a column named "crawl_date", for columns=time=crawl_date`},
		{"time=t", "page,t,t,changed\n", false, `column 3 (t): expected one column named "t", for columns=time=t (column 2 is one)`},
	} {
		_, _, err := read(t, tt.log, tt.columns)
		var oe *OptionError
		if err == nil || errors.As(err, &oe) != tt.option || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("columns=%s: %v, want an error saying %q (an option error: %v)", tt.columns, err, tt.want, tt.option)
		}
	}
	for _, s := range []string{"page", "page=", "=url", "page=a,page=b"} {
		if _, err := ParseColumns(s); err == nil {
			t.Errorf("ParseColumns(%q) gave no error", s)
		}
	}
	if m, err := ParseColumns(" Page = URL , time=crawled_at"); err != nil || fmt.Sprint(m) != "map[page:URL time:crawled_at]" {
		t.Errorf("ParseColumns: %v, %v", m, err)
	}
}

// TestNormName checks the names guessing compares.
func TestNormName(t *testing.T) {
	for in, want := range map[string]string{"Crawled At": "crawled_at", "content-changed": "content_changed", " WARC-Target-URI ": "warc_target_uri", "Last.Modified": "last_modified", "ÉTAT": "état", "": ""} {
		if got := normName(in); got != want {
			t.Errorf("normName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestReadCaptureBadOptions checks options that do not fit a format.
func TestReadCaptureBadOptions(t *testing.T) {
	for _, tt := range []struct {
		opt    CrawlLogOptions
		option string
	}{
		{CrawlLogOptions{Format: FormatCDX, Layout: Layout{Sep: ';'}}, "sep"},
		{CrawlLogOptions{Layout: Layout{Sep: '"'}}, "sep"},
		{CrawlLogOptions{Format: FormatJSONL, Layout: Layout{Columns: map[string]string{"event": "x"}}}, "columns"},
	} {
		_, _, err := ReadCrawlLog(strings.NewReader(goodLog), tt.opt)
		var oe *OptionError
		if !errors.As(err, &oe) || oe.Option != tt.option {
			t.Errorf("%+v: err = %v, want an option error on %s", tt.opt, err, tt.option)
		}
	}
	if _, _, err := ReadCrawlLog(strings.NewReader(goodLog), CrawlLogOptions{Format: FormatChangeEvents}); err == nil {
		t.Error("ReadCrawlLog read change events")
	}
	// JSON lines may map their keys.
	m, _ := ParseColumns("hash=sha1,time=fetched")
	_, s, err := ReadCrawlLog(strings.NewReader(`{"url": "http://a/", "fetched": "2024-01-01", "sha1": "x"}`+"\n"+`{"url": "http://a/", "fetched": "2024-01-02", "sha1": "y"}`),
		CrawlLogOptions{Format: FormatJSONL, Layout: Layout{Columns: m}})
	if err != nil || s.Changes != 1 {
		t.Errorf("JSON lines with a map: %v, %+v", err, s)
	}
}

// captureFuzz checks what any input in a capture format gives: either a
// *ParseError with a line, or a valid dataset with a consistent summary;
// and gzip-compressed, in one member or several, the same (one layer of
// gzip is undone: compressed again, a gzip file is not the same).
func captureFuzz(t *testing.T, format string, data []byte, cycle float64) {
	opt := CrawlLogOptions{Format: format, CycleLength: fuzzCycle(cycle)}
	d, s, err := ReadCrawlLog(bytes.NewReader(data), opt)
	zipped := data
	if !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		zipped = gz(t, data, 1+len(data)/3)
	}
	d2, s2, err2 := ReadCrawlLog(bytes.NewReader(zipped), opt)
	if err != nil {
		wantParseError(t, err)
		if err2 == nil || err2.Error() != err.Error() {
			t.Fatalf("gzipped: %v; plain: %v", err2, err)
		}
		return
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	dropped := 0
	for _, n := range s.Dropped {
		dropped += n
	}
	if s.Cycles != d.Truth.Cycles() || s.Cycles < 1 || s.Pages != len(d.Pages) || s.Rows < s.Pages || s.Crawls != s.Rows-s.Pages ||
		s.Changes > s.Crawls || !(s.CycleLength > 0) || s.Format != format || dropped < 0 {
		t.Fatalf("summary %+v for %d pages, %d cycles", *s, len(d.Pages), d.Truth.Cycles())
	}
	if err2 != nil || d2.Info.ID != d.Info.ID || !equalChanged(d2.Truth.Changed, d.Truth.Changed) || fmt.Sprint(*s2) != fmt.Sprint(*s) {
		t.Fatalf("gzipped: %v, %+v; plain: %+v", err2, s2, *s)
	}
}

// fuzzCaptures seeds a fuzz test of a capture format with the example
// file and seeds, each with the cycle inferred and with the given one.
func fuzzCaptures(f *testing.F, format, file string, cycle float64, seeds ...string) {
	for _, s := range append([]string{string(example(f, file))}, seeds...) {
		f.Add([]byte(s), 0.0)
		f.Add([]byte(s), cycle)
	}
	f.Fuzz(func(t *testing.T, data []byte, cycle float64) { captureFuzz(t, format, data, cycle) })
}

func FuzzReadCDX(f *testing.F) {
	fuzzCaptures(f, FormatCDX, "example-captures.cdx", 3600,
		" CDX N b a m s k\na)/ 20240101000000 http://a/ text/html 200 D1\na)/ 20240102000000 http://a/ warc/revisit - D1\n",
		"org,archive)/ 19970126045828 http://www.archive.org:80/ text/html 200 Q4YU 1415\norg,archive)/ 19971011050034 http://archive.org/ text/html 200 XAHD 1402\n",
		"CDX b a k\n20240101000000 http://a/robots.txt x\n20240102000000 http://a/ y\n20240103000000 http://a/ -\n",
		" CDX N b a m s k\n", "", "\ufeff CDX a b k\r\nhttp://a/ 20240101 x\r\n")
}

func FuzzReadCDXJ(f *testing.F) {
	fuzzCaptures(f, FormatCDXJ, "example-captures.cdxj", 86400,
		"!meta 0 {}\na)/ 20240101000000 {\"url\": \"http://a/\", \"digest\": \"D1\", \"status\": 200}\na)/ 20240102000000 {\"url\": \"http://a/\", \"digest\": \"D\\u0032\"}\n",
		"a)/ 20240101000000 {\"url\": \"http://a/\", \"digest\": \"D1\", \"x\": [{\"}\": \"]\"}]}\na)/ 20240102000000 {\"url\": \"http://a/\" \"digest\": 1}\n",
		"a)/ 20240101000000 {}\n", "a)/ 20240101000000\n", "")
}

func FuzzReadJSONL(f *testing.F) {
	fuzzCaptures(f, FormatJSONL, "example-captures.jsonl", 43200,
		`{"page": "p", "site": "s", "time": "2024-01-01", "changed": false}`+"\n"+`{"page": "p", "site": "s", "time": 1704153600, "changed": true}`+"\n",
		`{"url": "http://a/", "time": "2024-01-01", "hash": "x"}`+"\n"+`[1]`+"\n",
		`{"url": "http://a/", "time": "2024-01-01", "hash": "x", "hash": "y"}`+"\n"+`{"time": "2024-01-02", "url": "http://a/", "hash": null}`+"\n",
		"{}", "", "\n\n{\"url\": 1}")
}

// benchCaptures writes pages × rounds captures in format (FormatCDX,
// FormatCDXJ or FormatJSONL), as Common Crawl's index would list them:
// URL keys in order, a capture of each page a day, a tenth of them with a
// new digest, one in fifty a redirect.
func benchCaptures(format string, pages, rounds int) []byte {
	var b bytes.Buffer
	if format == FormatCDX {
		b.WriteString(" CDX N b a m s k r M S V g\n")
	}
	x := uint64(1)
	var row []byte
	for p := range pages {
		ver := 0
		for r := range rounds {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			if x%10 == 0 {
				ver++
			}
			status := "200"
			if x%50 == 1 {
				status = "301"
			}
			key := fmt.Sprintf("com,example,site%d)/articles/%d.html", p/100, p)
			url := fmt.Sprintf("https://site%d.example.com/articles/%d.html", p/100, p)
			ts := fmt.Sprintf("202401%02d%02d%02d%02d", 1+r%28, r/28, x%60, (x>>8)%60)
			digest := fmt.Sprintf("%032X", uint64(p)*1_000_003+uint64(ver))
			switch format {
			case FormatCDX:
				row = fmt.Appendf(row[:0], "%s %s %s text/html %s %s - - 5120 %d crawl-data/CC-MAIN-2024-10/segments/1707947473518.6/warc/x.warc.gz\n", key, ts, url, status, digest, x%1e9)
			case FormatCDXJ:
				row = fmt.Appendf(row[:0], `%s %s {"url": "%s", "mime": "text/html", "mime-detected": "text/html", "status": "%s", "digest": "%s", "length": "5120", "offset": "%d", "filename": "crawl-data/CC-MAIN-2024-10/segments/1707947473518.6/warc/x.warc.gz", "languages": "eng"}`+"\n", key, ts, url, status, digest, x%1e9)
			default:
				row = fmt.Appendf(row[:0], `{"urlkey": "%s", "timestamp": "%s", "url": "%s", "mime": "text/html", "mime-detected": "text/html", "status": "%s", "digest": "%s", "length": "5120", "offset": "%d", "filename": "crawl-data/CC-MAIN-2024-10/segments/1707947473518.6/warc/x.warc.gz", "languages": "eng"}`+"\n", key, ts, url, status, digest, x%1e9)
			}
			b.Write(row)
		}
	}
	return b.Bytes()
}

func BenchmarkReadCaptures(b *testing.B) {
	const pages, rounds = 10_000, 20
	for _, format := range []string{FormatCDX, FormatCDXJ, FormatJSONL} {
		for _, zipped := range []bool{false, true} {
			name := format
			if zipped {
				name += ".gz"
			}
			b.Run(name, func(b *testing.B) {
				log := benchCaptures(format, pages, rounds)
				if zipped {
					log = gz(b, log, 1<<20)
				}
				b.SetBytes(int64(len(log)))
				b.ReportAllocs()
				for b.Loop() {
					if _, _, err := ReadCrawlLog(bytes.NewReader(log), CrawlLogOptions{Format: format}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(pages*rounds), "ns/row")
			})
		}
	}
}
