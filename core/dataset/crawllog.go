package dataset

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"hash"
	"hash/fnv"
	"io"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/refreshlab/refreshlab/core/stat"
)

// CrawlLogOptions controls ReadCrawlLog.
type CrawlLogOptions struct {
	// Name is shown as the dataset's name (e.g. the file name); default
	// "Uploaded crawl log".
	Name string
	// CycleLength is the length of one cycle in seconds; 0 infers it as the
	// median interval between consecutive crawls of the same page.
	CycleLength float64
	// Progress, when not nil, is called with the number of bytes consumed
	// about every MiB and once at the end, to drive a progress bar.
	Progress func(bytes int64)
}

// CrawlLogSummary describes what ReadCrawlLog read, to show the researcher
// after an upload.
type CrawlLogSummary struct {
	Rows          int      `json:"rows"`          // crawl rows read
	Pages         int      `json:"pages"`         // distinct pages
	Sites         int      `json:"sites"`         // distinct sites
	Cycles        int      `json:"cycles"`        // cycles of the dataset (the last crawl round)
	CycleLength   float64  `json:"cycleLength"`   // seconds, as used
	CycleInferred bool     `json:"cycleInferred"` // CycleLength was inferred from the log
	Start         string   `json:"start"`         // RFC 3339 UTC of the first crawl
	End           string   `json:"end"`           // RFC 3339 UTC of the last crawl
	Crawls        int      `json:"crawls"`        // crawls after a page's first: the ones that can observe a change
	Changes       int      `json:"changes"`       // of those, how many saw a change
	ChangeRate    float64  `json:"changeRate"`    // Changes / Crawls: the observed change rate
	Columns       []string `json:"columns"`       // columns used, in the file's spelling
	Ignored       []string `json:"ignored"`       // columns ignored, in the file's spelling
	ChangeFrom    string   `json:"changeFrom"`    // "changed" or "hash"
}

// ParseError is a problem in a crawl log at a line and column, in the style
// of encoding/csv's ParseError.
//
// Column is the 1-based position of the offending field in its row (0 when
// the whole line or file is at fault), except for quoting errors, where it is
// encoding/csv's 1-based byte position in the line.
type ParseError struct {
	Line, Column int    // 1-based; Column 0 when the whole line is at fault
	Field        string // the column's name from the header, if known
	Expected     string // what was expected, in words
	Got          string // what was found (truncated to ~40 chars)

	// described says Got is a description of what was found ("an empty
	// field") rather than text from the file, so Error does not quote it.
	described bool
}

// Error formats e as, for example,
// `line 17, column 3 (time): expected a time (...), got "yesterday"`.
func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString("line ")
	b.WriteString(strconv.Itoa(e.Line))
	if e.Column > 0 {
		b.WriteString(", column ")
		b.WriteString(strconv.Itoa(e.Column))
	}
	if e.Field != "" {
		b.WriteString(" (")
		b.WriteString(e.Field)
		b.WriteString(")")
	}
	b.WriteString(": expected ")
	b.WriteString(e.Expected)
	if e.described {
		if e.Got != "" {
			b.WriteString(", got ")
			b.WriteString(e.Got)
		}
	} else {
		b.WriteString(", got ")
		b.WriteString(strconv.Quote(e.Got))
	}
	return b.String()
}

// Limits that keep a hostile or mistaken upload from exhausting the
// browser's memory. Variables so that tests can lower them.
var (
	maxCrawlRows   = 5_000_000 // data rows in one log
	maxFieldBytes  = 4 << 10   // bytes in one field
	maxLineBytes   = 1 << 20   // bytes in one physical line
	maxCrawlRounds = 100_000   // cycles a log may span
)

// Accepted column names (lower case) for each role.
var (
	pageNames    = []string{"page"}
	urlNames     = []string{"url"}
	siteNames    = []string{"site"}
	timeNames    = []string{"time", "crawl_time", "timestamp", "ts", "crawled_at"}
	changedNames = []string{"changed"}
	hashNames    = []string{"hash", "content_hash", "digest", "checksum"}
)

const (
	expectTime    = "a time (RFC 3339, YYYY-MM-DD [HH:MM[:SS]], or unix seconds)"
	expectChanged = "0/1, true/false or yes/no"
	expectRange   = "a time between 1970 and 2200"
	gotEmpty      = "an empty field"
	gotEOF        = "end of file"
)

// Time bounds in unix nanoseconds: years 1970 through 2200.
const (
	minCrawlTime = 0
	maxCrawlTime = 7289654400 * int64(time.Second) // 2201-01-01T00:00:00Z, exclusive
)

// crawl is one row of a crawl log, kept compactly: 16 bytes a row.
type crawl struct {
	t       int64 // unix nanoseconds
	page    int32
	changed bool // the row says the crawl saw a change (changed logs; hash logs after comparison)
}

// ReadCrawlLog reads a crawl log in CSV (see datasets/README.md) into a
// Dataset: each crawl is placed in a crawl round of the cycle length, and a
// crawl that saw a change marks its page changed in the cycle ending at that
// round. Problems in the file are reported as *ParseError.
func ReadCrawlLog(r io.Reader, opt CrawlLogOptions) (*Dataset, *CrawlLogSummary, error) {
	if opt.CycleLength < 0 || math.IsNaN(opt.CycleLength) || math.IsInf(opt.CycleLength, 0) {
		return nil, nil, fmt.Errorf("dataset: crawl log: cycle length %v: expected a positive number of seconds, or 0 to infer it", opt.CycleLength)
	}
	lr := newLogRead(r, opt.Progress)
	d, sum, err := lr.read(opt)
	if err != nil {
		return nil, nil, err
	}
	if opt.Progress != nil {
		opt.Progress(lr.in.n)
	}
	return d, sum, nil
}

// newLogRead prepares to read a CSV log from r, as crawl logs and change-event
// logs both are: a UTF-8 byte order mark skipped, '#' comments, fields
// trimmed of leading space, the bytes hashed and counted as they pass.
func newLogRead(r io.Reader, progress func(int64)) *logRead {
	in := &logReader{r: r, sum: fnv.New64a(), line: 1, progress: progress, nextReport: progressEvery}
	br := bufio.NewReaderSize(in, 64<<10)
	if b, err := br.Peek(3); err == nil && string(b) == "\ufeff" {
		br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.Comment = '#'
	cr.FieldsPerRecord = -1 // until the header fixes it
	cr.ReuseRecord = true
	cr.TrimLeadingSpace = true

	lr := &logRead{in: in, cr: cr}
	if l, ok := r.(interface{ Len() int }); ok {
		lr.size = int64(l.Len())
	}
	return lr
}

// logRead holds the state of one ReadCrawlLog call.
type logRead struct {
	in *logReader
	cr *csv.Reader

	header     []string // the header's names, trimmed, in the file's spelling
	headerLine int
	nfields    int
	colPage    int // column of the page id (page, or url without page)
	colURL     int // column of the URL when both page and url are given; else -1
	colSite    int // -1 when absent
	colTime    int
	colChange  int // column of changed or hash
	useHash    bool

	dates     dateCache
	size      int64 // bytes in the input when known (it has a Len method), else 0
	pageIndex map[string]int32
	siteIndex map[string]int32
	pages     []Page
	sites     []string
	crawls    []crawl
	hashes    []uint64 // FNV-1a of each crawl's hash, for hash logs

	rows             int
	tmin, tmax       int64
	lineMin, lineMax int // lines of the earliest and latest crawl
}

// next returns the next non-blank record, or io.EOF.
func (lr *logRead) next() ([]string, error) {
	for {
		rec, err := lr.cr.Read()
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" && (err == nil || errors.Is(err, csv.ErrFieldCount)) {
			continue // a line of spaces (encoding/csv skips empty lines)
		}
		if err != nil {
			return nil, lr.convert(err, len(rec))
		}
		return rec, nil
	}
}

// convert turns a reading error into a *ParseError where it is one; n is
// the number of fields read.
func (lr *logRead) convert(err error, n int) error {
	if err == io.EOF {
		return err
	}
	var le *lineError
	if errors.As(err, &le) {
		return &ParseError{Line: le.line, Expected: fmt.Sprintf("a line of at most %d bytes", maxLineBytes), Got: "a longer line", described: true}
	}
	var ce *csv.ParseError
	if errors.As(err, &ce) {
		pe := &ParseError{Line: ce.Line, Column: ce.Column, described: true}
		switch {
		case errors.Is(ce.Err, csv.ErrFieldCount):
			pe.Column = 0
			pe.Expected = fmt.Sprintf("%d fields", lr.nfields)
			pe.Got = strconv.Itoa(n)
		case errors.Is(ce.Err, csv.ErrBareQuote):
			pe.Expected = `a " only in a quoted field (quote the field and double the ")`
			pe.Got = `a bare " in an unquoted field`
		case errors.Is(ce.Err, csv.ErrQuote):
			pe.Expected = `a closing " followed by a comma or the end of the line`
			pe.Got = `an extraneous or missing "`
		default:
			pe.Expected = "valid CSV"
			pe.Got = ce.Err.Error()
		}
		return pe
	}
	return fmt.Errorf("dataset: reading crawl log: %w", err)
}

func (lr *logRead) read(opt CrawlLogOptions) (*Dataset, *CrawlLogSummary, error) {
	rec, err := lr.next()
	if err == io.EOF {
		return nil, nil, &ParseError{Line: 1, Expected: "a header row", Got: gotEOF, described: true}
	}
	if err != nil {
		return nil, nil, err
	}
	lr.headerLine, _ = lr.cr.FieldPos(0)
	sum := &CrawlLogSummary{Columns: []string{}, Ignored: []string{}}
	if err := lr.parseHeader(rec, sum); err != nil {
		return nil, nil, err
	}
	lr.cr.FieldsPerRecord = lr.nfields

	lr.pageIndex = make(map[string]int32)
	lr.siteIndex = make(map[string]int32)
	for {
		rec, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		if err := lr.row(rec); err != nil {
			return nil, nil, err
		}
	}
	if lr.rows == 0 {
		return nil, nil, &ParseError{Line: lr.headerLine, Expected: "at least one crawl row", Got: gotEOF, described: true}
	}
	return lr.build(opt, sum)
}

// columns reads a header row into lr.header (names trimmed, in the file's
// spelling) and returns, for each role, the column whose name (in any case)
// is one of the role's names, or -1; two columns for one role are an error.
func (lr *logRead) columns(rec []string, roles ...[]string) ([]int, error) {
	lr.nfields = len(rec)
	lr.header = make([]string, len(rec))
	cols := make([]int, len(roles))
	for r := range cols {
		cols[r] = -1
	}
	for i, name := range rec {
		if len(name) > maxFieldBytes {
			return nil, lr.tooLong(i, name)
		}
		name = strings.TrimSpace(name)
		lr.header[i] = name
		r := slices.IndexFunc(roles, func(names []string) bool { return slices.Contains(names, strings.ToLower(name)) })
		if r < 0 {
			continue
		}
		if p := cols[r]; p >= 0 {
			line, _ := lr.cr.FieldPos(i)
			return nil, &ParseError{Line: line, Column: i + 1, Field: name,
				Expected: fmt.Sprintf("one column of this kind (column %d, %q, is one)", p+1, lr.header[p]),
				Got:      "a second one", described: true}
		}
		cols[r] = i
	}
	return cols, nil
}

// missing reports a header without a column for a role.
func (lr *logRead) missing(what string, names []string) error {
	return &ParseError{Line: lr.headerLine,
		Expected: fmt.Sprintf("a %s column (named %s)", what, orList(names)),
		Got:      truncate(strings.Join(lr.header, ","))}
}

// split lists the header's names used (the columns in used) and ignored,
// in file order.
func (lr *logRead) split(used []int) (columns, ignored []string) {
	columns, ignored = []string{}, []string{}
	for i, name := range lr.header {
		if slices.Contains(used, i) {
			columns = append(columns, name)
		} else {
			ignored = append(ignored, name)
		}
	}
	return columns, ignored
}

// parseHeader assigns the columns' roles.
func (lr *logRead) parseHeader(rec []string, sum *CrawlLogSummary) error {
	c, err := lr.columns(rec, pageNames, urlNames, siteNames, timeNames, changedNames, hashNames)
	if err != nil {
		return err
	}
	cols := struct{ page, url, site, time, changed, hash int }{c[0], c[1], c[2], c[3], c[4], c[5]}
	if cols.page < 0 && cols.url < 0 {
		return lr.missing("page", append(slices.Clip(pageNames), urlNames...))
	}
	if cols.time < 0 {
		return lr.missing("time", timeNames)
	}
	if cols.changed < 0 && cols.hash < 0 {
		return lr.missing("change", append(slices.Clip(changedNames), hashNames...))
	}

	lr.colPage, lr.colURL = cols.page, -1
	if cols.page < 0 {
		lr.colPage = cols.url
	} else if cols.url >= 0 {
		lr.colURL = cols.url
	}
	lr.colSite, lr.colTime = cols.site, cols.time
	if cols.changed >= 0 {
		lr.colChange = cols.changed
		sum.ChangeFrom = "changed"
	} else {
		lr.colChange, lr.useHash = cols.hash, true
		sum.ChangeFrom = "hash"
	}
	sum.Columns, sum.Ignored = lr.split([]int{cols.page, cols.url, cols.site, cols.time, lr.colChange})
	return nil
}

// orList formats names as `a, b or c`.
func orList(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// fieldError returns a *ParseError for field i of the current record.
func (lr *logRead) fieldError(i int, expected, got string) *ParseError {
	line, _ := lr.cr.FieldPos(i)
	return &ParseError{Line: line, Column: i + 1, Field: lr.header[i], Expected: expected, Got: truncate(got)}
}

// emptyError returns a *ParseError for an empty field i.
func (lr *logRead) emptyError(i int, expected string) *ParseError {
	e := lr.fieldError(i, expected, gotEmpty)
	e.described = true
	return e
}

// tooLong reports field i as over the size limit.
func (lr *logRead) tooLong(i int, s string) *ParseError {
	line, _ := lr.cr.FieldPos(i)
	pe := &ParseError{Line: line, Column: i + 1, Expected: fmt.Sprintf("a field of at most %d bytes", maxFieldBytes),
		Got: fmt.Sprintf("%d bytes", len(s)), described: true}
	if lr.header != nil {
		pe.Field = lr.header[i]
	}
	return pe
}

// checkRow refuses a row beyond the row limit (what names the rows, say
// "crawl rows") or with a field over the size limit.
func (lr *logRead) checkRow(rec []string, what string) error {
	if lr.rows >= maxCrawlRows {
		line, _ := lr.cr.FieldPos(0)
		return &ParseError{Line: line, Expected: fmt.Sprintf("at most %d %s", maxCrawlRows, what), Got: "more", described: true}
	}
	for i, f := range rec {
		if len(f) > maxFieldBytes {
			return lr.tooLong(i, f)
		}
	}
	return nil
}

// timeAt reads the time in column col of rec, in unix nanoseconds.
func (lr *logRead) timeAt(rec []string, col int) (int64, error) {
	ts := trim(rec[col])
	t, status := parseCrawlTime(ts, &lr.dates)
	switch status {
	case timeBad:
		if ts == "" {
			return 0, lr.emptyError(col, expectTime)
		}
		return 0, lr.fieldError(col, expectTime, ts)
	case timeRange:
		return 0, lr.fieldError(col, expectRange, ts)
	}
	return t, nil
}

// checkSite refuses a later row of page p that names another site.
func (lr *logRead) checkSite(rec []string, p int32) error {
	if lr.colSite < 0 {
		return nil
	}
	site := trim(rec[lr.colSite])
	if want := lr.sites[lr.pages[p].Site]; site != want {
		return lr.fieldError(lr.colSite, fmt.Sprintf("site %q, as on the page's earlier rows", truncate(want)), site)
	}
	return nil
}

// row reads one crawl row.
func (lr *logRead) row(rec []string) error {
	if err := lr.checkRow(rec, "crawl rows"); err != nil {
		return err
	}

	// Time.
	t, err := lr.timeAt(rec, lr.colTime)
	if err != nil {
		return err
	}

	// Change.
	var changed bool
	var h uint64
	cv := trim(rec[lr.colChange])
	if lr.useHash {
		if cv == "" {
			return lr.emptyError(lr.colChange, "a hash (any non-empty text)")
		}
		f := fnv.New64a()
		f.Write([]byte(cv))
		h = f.Sum64()
	} else {
		var ok bool
		if changed, ok = parseChanged(cv); !ok {
			if cv == "" {
				return lr.emptyError(lr.colChange, expectChanged)
			}
			return lr.fieldError(lr.colChange, expectChanged, cv)
		}
	}

	// Page, and its site on first sight.
	id := trim(rec[lr.colPage])
	if id == "" {
		return lr.emptyError(lr.colPage, "a page id")
	}
	p, seen := lr.pageIndex[id]
	if !seen {
		if p, err = lr.newPage(rec, id); err != nil {
			return err
		}
	} else if err := lr.checkSite(rec, p); err != nil {
		return err
	}

	line := 0
	if lr.rows == 0 || t < lr.tmin || t > lr.tmax {
		line, _ = lr.cr.FieldPos(lr.colTime)
	}
	if lr.rows == 0 || t < lr.tmin {
		lr.tmin, lr.lineMin = t, line
	}
	if lr.rows == 0 || t > lr.tmax {
		lr.tmax, lr.lineMax = t, line
	}
	lr.rows++
	if lr.rows == presizeAfter && lr.size > 0 {
		// Size the crawl records once from the bytes per row so far, rather
		// than growing them by doubling.
		est := min(float64(lr.size)/float64(lr.cr.InputOffset())*presizeAfter*1.05, float64(maxCrawlRows))
		if n := int(est) - len(lr.crawls); n > 0 {
			lr.crawls = slices.Grow(lr.crawls, n)
			if lr.useHash {
				lr.hashes = slices.Grow(lr.hashes, n)
			}
		}
	}
	lr.crawls = append(lr.crawls, crawl{t: t, page: p, changed: changed})
	if lr.useHash {
		lr.hashes = append(lr.hashes, h)
	}
	return nil
}

// newPage adds the page with the given id, finding its site.
func (lr *logRead) newPage(rec []string, id string) (int32, error) {
	id = strings.Clone(id) // rec's strings share one buffer per line
	u := id
	if lr.colURL >= 0 {
		if v := trim(rec[lr.colURL]); v != "" || lr.colSite < 0 {
			u = strings.Clone(v)
		} // else an empty URL: keep the id as the page's URL
	}
	var site string
	if lr.colSite >= 0 {
		site = strings.TrimSpace(rec[lr.colSite])
		if site == "" {
			return 0, lr.emptyError(lr.colSite, "a site name")
		}
	} else {
		col := lr.colPage
		if lr.colURL >= 0 {
			col = lr.colURL
		}
		site = urlHost(u)
		if site == "" {
			if u == "" {
				return 0, lr.emptyError(col, "a URL with a host, since there is no site column")
			}
			return 0, lr.fieldError(col, "a URL with a host, since there is no site column", u)
		}
	}
	s, ok := lr.siteIndex[site]
	if !ok {
		site = strings.Clone(site)
		s = int32(len(lr.sites))
		lr.sites = append(lr.sites, site)
		lr.siteIndex[site] = s
	}
	p := int32(len(lr.pages))
	lr.pages = append(lr.pages, Page{URL: u, Site: s})
	lr.pageIndex[id] = p
	return p, nil
}

// trim is strings.TrimSpace, faster when there is nothing to trim, as
// usual.
func trim(s string) string {
	if s == "" || s[0] > ' ' && s[0] < utf8.RuneSelf && s[len(s)-1] > ' ' && s[len(s)-1] < utf8.RuneSelf {
		return s
	}
	return strings.TrimSpace(s)
}

// urlHost returns the lower-cased host of an absolute URL, without port, or
// "" when u is not one.
func urlHost(u string) string {
	if !strings.Contains(u, "://") {
		return ""
	}
	pu, err := url.Parse(u)
	if err != nil || pu.Scheme == "" {
		return ""
	}
	return strings.ToLower(pu.Hostname())
}

// build turns the crawls into the dataset's truth.
func (lr *logRead) build(opt CrawlLogOptions, sum *CrawlLogSummary) (*Dataset, *CrawlLogSummary, error) {
	npages := len(lr.pages)

	// Group crawls by page (counting sort, keeping file order), then put each
	// page's crawls in time order; stable, so equal times keep file order.
	start := make([]int32, npages+1)
	for _, c := range lr.crawls {
		start[c.page+1]++
	}
	for p := range npages {
		start[p+1] += start[p]
	}
	order := make([]int32, len(lr.crawls))
	fill := slices.Clone(start[:npages])
	for i, c := range lr.crawls {
		order[fill[c.page]] = int32(i)
		fill[c.page]++
	}
	crawls := lr.crawls
	for p := range npages {
		idx := order[start[p]:start[p+1]]
		for j := 1; j < len(idx); j++ {
			if crawls[idx[j]].t < crawls[idx[j-1]].t {
				slices.SortStableFunc(idx, func(a, b int32) int { return cmp.Compare(crawls[a].t, crawls[b].t) })
				break
			}
		}
		if lr.useHash {
			for j := 1; j < len(idx); j++ {
				lr.crawls[idx[j]].changed = lr.hashes[idx[j]] != lr.hashes[idx[j-1]]
			}
		}
	}
	lr.hashes = nil

	// Cycle length.
	L := opt.CycleLength
	if L == 0 {
		gaps := make([]int64, 0, len(lr.crawls)-npages)
		for p := range npages {
			idx := order[start[p]:start[p+1]]
			for j := 1; j < len(idx); j++ {
				if g := lr.crawls[idx[j]].t - lr.crawls[idx[j-1]].t; g > 0 {
					gaps = append(gaps, g)
				}
			}
		}
		if len(gaps) == 0 {
			return nil, nil, &ParseError{Line: lr.headerLine,
				Expected: "at least one page crawled twice at different times, to infer the cycle length",
				Got:      "none", described: true}
		}
		L = stat.Median(gaps) / 1e9
		sum.CycleInferred = true
	}

	// Rounds and cycles.
	Lns := L * 1e9
	span := math.Round(float64(lr.tmax-lr.tmin) / Lns)
	if !(span <= float64(maxCrawlRounds)) {
		return nil, nil, &ParseError{Line: lr.lineMax, Column: lr.colTime + 1, Field: lr.header[lr.colTime],
			Expected: fmt.Sprintf("a crawl at most %d cycles of %g s after the first (line %d)", maxCrawlRounds, L, lr.lineMin),
			Got:      fmt.Sprintf("one %.6g cycles after it", span), described: true}
	}
	cycles := int(span)
	if cycles < 1 {
		return nil, nil, &ParseError{Line: lr.headerLine,
			Expected: fmt.Sprintf("crawls spanning at least one cycle of %g s", L),
			Got:      fmt.Sprintf("all within %g s", float64(lr.tmax-lr.tmin)/1e9), described: true}
	}
	changed := make([][]int32, cycles)
	changes := 0
	for p := range npages {
		idx := order[start[p]:start[p+1]]
		last := -1 // last cycle marked for p
		for j := 1; j < len(idx); j++ {
			c := lr.crawls[idx[j]]
			if !c.changed {
				continue
			}
			changes++
			k := int(math.Round(float64(c.t-lr.tmin) / Lns))
			if k >= 1 && k-1 != last {
				changed[k-1] = append(changed[k-1], int32(p))
				last = k - 1
			}
		}
	}

	d := &Dataset{
		Info: Info{
			ID:          uploadID("upload-", lr.in.sum, fmt.Sprintf("crawl-log cycle=%g", L)),
			Name:        opt.Name,
			Source:      "upload",
			CycleLength: L,
			CycleUnit:   cycleUnit(L),
		},
		Repository: Repository{Pages: lr.pages, Sites: lr.sites, Labels: []string{}},
		Truth:      Truth{Changed: changed},
	}
	if d.Info.Name == "" {
		d.Info.Name = "Uploaded crawl log"
	}
	start0, end := formatNanos(lr.tmin), formatNanos(lr.tmax)
	d.Info.Description = fmt.Sprintf("Crawl log: %d crawls of %d pages on %d sites, %s to %s.",
		lr.rows, npages, len(lr.sites), start0, end)
	if err := d.Finish(); err != nil {
		return nil, nil, fmt.Errorf("dataset: crawl log: %w", err) // a bug: the reader built an invalid dataset
	}

	sum.Rows, sum.Pages, sum.Sites, sum.Cycles = lr.rows, npages, len(lr.sites), cycles
	sum.CycleLength = L
	sum.Start, sum.End = start0, end
	sum.Crawls = lr.rows - npages
	sum.Changes = changes
	if sum.Crawls > 0 {
		sum.ChangeRate = float64(changes) / float64(sum.Crawls)
	}
	return d, sum, nil
}

// cycleUnit names a cycle of L seconds.
func cycleUnit(L float64) string {
	for _, u := range []struct {
		name string
		secs float64
	}{{"day", 86400}, {"hour", 3600}, {"week", 604800}} {
		if math.Abs(L-u.secs) <= 0.01*u.secs {
			return u.name
		}
	}
	return "cycle"
}

func formatNanos(ns int64) string {
	return time.Unix(0, ns).UTC().Format(time.RFC3339Nano)
}

// truncate shortens s to about 40 bytes for an error message.
func truncate(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	i := max
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}

// parseChanged reads a changed value: 0/1, true/false or yes/no.
func parseChanged(s string) (changed, ok bool) {
	switch len(s) {
	case 1:
		switch s[0] {
		case '0':
			return false, true
		case '1':
			return true, true
		}
	case 2:
		return false, strings.EqualFold(s, "no")
	case 3:
		return true, strings.EqualFold(s, "yes")
	case 4:
		return true, strings.EqualFold(s, "true")
	case 5:
		return false, strings.EqualFold(s, "false")
	}
	return false, false
}

// Results of parseCrawlTime.
const (
	timeOK = iota
	timeBad
	timeRange
)

// parseCrawlTime reads a crawl time and returns it in unix nanoseconds.
// Accepted: a number of unix seconds (milliseconds above 1e11), optionally
// with decimals; YYYY-MM-DD; or YYYY-MM-DD, T or space, HH:MM, optional :SS
// with optional fraction, and an optional zone Z, ±HH:MM or ±HHMM (UTC when
// absent).
func parseCrawlTime(s string, c *dateCache) (int64, int) {
	if len(s) >= 10 && s[4] == '-' {
		return parseDateTime(s, c)
	}
	return parseUnix(s)
}

// dateCache remembers the last date parsed, since consecutive rows of a log
// are often from the same day. It may be nil.
type dateCache struct {
	date string // YYYY-MM-DD
	days int64  // days since 1970-01-01
}

// parseUnix reads [+-]digits[.digits] as unix seconds, or milliseconds when
// above 1e11.
func parseUnix(s string) (int64, int) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	var v uint64
	big := false // v no longer matters: out of range
	digits := 0
	i := 0
	for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
		digits++
		if v > 1e17 {
			big = true
			continue
		}
		v = v*10 + uint64(s[i]-'0')
	}
	var frac int64 // fraction in nanoseconds of a unit
	if i < len(s) && s[i] == '.' {
		i++
		scale := int64(1e8)
		for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
			digits++
			frac += int64(s[i]-'0') * scale
			scale /= 10
		}
	}
	if i != len(s) || digits == 0 {
		return 0, timeBad
	}
	if neg && (v != 0 || frac != 0) || big {
		return 0, timeRange
	}
	if v > 1e11 || v == 1e11 && frac > 0 { // milliseconds
		if v > uint64(maxCrawlTime/1e6) {
			return 0, timeRange
		}
		ns := int64(v)*1e6 + frac/1e3
		if ns >= maxCrawlTime {
			return 0, timeRange
		}
		return ns, timeOK
	}
	if v >= uint64(maxCrawlTime/1e9) {
		return 0, timeRange
	}
	return int64(v)*1e9 + frac, timeOK
}

// digits2 reads two ASCII digits at s[i:].
func digits2(s string, i int) (int, bool) {
	if i+2 > len(s) {
		return 0, false
	}
	a, b := s[i]-'0', s[i+1]-'0'
	if a > 9 || b > 9 {
		return 0, false
	}
	return int(a)*10 + int(b), true
}

// parseDateTime reads YYYY-MM-DD[(T| )HH:MM[:SS[.frac]][Z|±HH:MM|±HHMM]],
// looking the date up in c first.
func parseDateTime(s string, c *dateCache) (int64, int) {
	var days int64
	if c != nil && s[:10] == c.date {
		days = c.days
	} else {
		y1, ok1 := digits2(s, 0)
		y2, ok2 := digits2(s, 2)
		mo, ok3 := digits2(s, 5)
		dd, ok4 := digits2(s, 8)
		if !ok1 || !ok2 || !ok3 || !ok4 || s[7] != '-' {
			return 0, timeBad
		}
		year := y1*100 + y2
		if mo < 1 || mo > 12 || dd < 1 || dd > daysIn(year, mo) {
			return 0, timeBad
		}
		days = daysFromCivil(year, mo, dd)
		if c != nil {
			c.date, c.days = s[:10], days
		}
	}
	var hh, mm, ss int
	var frac int64
	offset := 0 // seconds east of UTC
	if i := 10; i < len(s) {
		if c := s[i]; c != 'T' && c != 't' && c != ' ' {
			return 0, timeBad
		}
		var okh, okm bool
		hh, okh = digits2(s, 11)
		mm, okm = digits2(s, 14)
		if !okh || !okm || s[13] != ':' || hh > 23 || mm > 59 {
			return 0, timeBad
		}
		i = 16
		if i < len(s) && s[i] == ':' {
			var oks bool
			if ss, oks = digits2(s, i+1); !oks || ss > 59 {
				return 0, timeBad
			}
			i += 3
			if i < len(s) && s[i] == '.' {
				i++
				j := i
				scale := int64(1e8)
				for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
					frac += int64(s[i]-'0') * scale
					scale /= 10
				}
				if i == j {
					return 0, timeBad
				}
			}
		}
		if i < len(s) {
			switch z := s[i:]; {
			case z == "Z" || z == "z":
			case z[0] == '+' || z[0] == '-':
				oh, okh := digits2(z, 1)
				var om int
				var okm bool
				switch len(z) {
				case 6:
					om, okm = digits2(z, 4)
					okm = okm && z[3] == ':'
				case 5:
					om, okm = digits2(z, 3)
				}
				if !okh || !okm || oh > 23 || om > 59 {
					return 0, timeBad
				}
				offset = oh*3600 + om*60
				if z[0] == '-' {
					offset = -offset
				}
			default:
				return 0, timeBad
			}
		}
	}
	secs := days*86400 + int64(hh*3600+mm*60+ss-offset)
	if secs < minCrawlTime || secs >= maxCrawlTime/1e9 {
		return 0, timeRange
	}
	return secs*1e9 + frac, timeOK
}

// daysIn returns the number of days in month m of year y.
func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil returns the number of days from 1970-01-01 to the given date
// of the proleptic Gregorian calendar (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400 // y >= -1 here, and era 0 covers it
	if y < 0 {
		era = -1
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

// logReader passes the file through, hashing its bytes (FNV-1a 64),
// counting them and their lines, reporting progress, and refusing a line
// longer than maxLineBytes before encoding/csv would buffer it whole.
type logReader struct {
	r          io.Reader
	sum        hash.Hash64 // FNV-1a 64 of the bytes read
	n          int64       // bytes read
	line       int         // physical line of the next byte
	lineLen    int         // bytes of the current line so far
	err        error       // error to return after the bytes before it
	progress   func(int64)
	nextReport int64
}

const progressEvery = 1 << 20

// presizeAfter is the number of rows after which ReadCrawlLog estimates the
// number of rows of an input of known size.
const presizeAfter = 1024

// lineError is returned by logReader for an over-long line.
type lineError struct{ line int }

func (e *lineError) Error() string { return fmt.Sprintf("line %d too long", e.line) }

func (lr *logReader) Read(p []byte) (int, error) {
	if lr.err != nil {
		return 0, lr.err
	}
	n, err := lr.r.Read(p)
	line := lr.line
	start := -lr.lineLen // where the current line began, relative to p
	for start < n {
		j := bytes.IndexByte(p[max(start, 0):n], '\n')
		if j < 0 {
			break
		}
		i := max(start, 0) + j // the line's newline
		if i-start > maxLineBytes {
			break
		}
		line++
		start = i + 1
	}
	if n-start > maxLineBytes {
		// Pass on the lines before the long one; refuse the rest.
		lr.err = &lineError{line: line}
		return max(start, 0), nil
	}
	lr.sum.Write(p[:n])
	lr.line, lr.lineLen = line, n-start
	lr.n += int64(n)
	if lr.progress != nil && lr.n >= lr.nextReport {
		lr.progress(lr.n)
		lr.nextReport = lr.n + progressEvery
	}
	return n, err
}

// WriteCrawlLog writes d as a canonical crawl log, so that bundled datasets
// can be exported and read back: header page,site,time,changed; one row per
// page per cycle boundary (boundary 0, the initial crawl of every page at
// start, then the end of each cycle), times in RFC 3339 from start, one
// cycle apart (one day when d has no cycle length).
//
// Reading the log back with ReadCrawlLog reproduces d's pages, sites in use
// and Truth.Changed; labels, features and first-change times are not
// written. Page ids must be unique, and ids and site names non-empty,
// without surrounding spaces and without carriage returns, or the log would
// not read back the same.
func WriteCrawlLog(w io.Writer, d *Dataset, start time.Time) error {
	if err := d.Validate(); err != nil {
		return fmt.Errorf("dataset: write crawl log: %w", err)
	}
	seen := make(map[string]bool, len(d.Pages))
	for i, p := range d.Pages {
		switch {
		case !writable(p.URL):
			return fmt.Errorf("dataset: write crawl log: page %d: id %q is empty, has surrounding spaces or a carriage return", i, p.URL)
		case seen[p.URL]:
			return fmt.Errorf("dataset: write crawl log: page %d: id %q is not unique", i, p.URL)
		case !writable(d.Sites[p.Site]):
			return fmt.Errorf("dataset: write crawl log: site %q is empty, has surrounding spaces or a carriage return", d.Sites[p.Site])
		}
		seen[p.URL] = true
	}
	L := d.Info.CycleLength
	if !(L > 0) {
		L = 86400
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("page,site,time,changed\n")
	mark := make([]bool, len(d.Pages))
	var buf []byte
	for b := 0; b <= d.Truth.Cycles(); b++ {
		clear(mark)
		if b > 0 {
			for _, p := range d.Truth.Changed[b-1] {
				mark[p] = true
			}
		}
		t := start.Add(time.Duration(math.Round(float64(b) * L * 1e9))).UTC()
		ts := t.AppendFormat(nil, time.RFC3339Nano)
		for i, p := range d.Pages {
			buf = appendCSVField(buf[:0], p.URL)
			buf = append(buf, ',')
			buf = appendCSVField(buf, d.Sites[p.Site])
			buf = append(buf, ',')
			buf = append(buf, ts...)
			if mark[i] {
				buf = append(buf, ",1\n"...)
			} else {
				buf = append(buf, ",0\n"...)
			}
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// writable reports whether s reads back the same as a field of a crawl log:
// ReadCrawlLog trims spaces, and encoding/csv turns \r\n into \n.
func writable(s string) bool {
	return s != "" && strings.TrimSpace(s) == s && !strings.Contains(s, "\r")
}

// appendCSVField appends s as a CSV field, quoted when it holds a comma,
// quote or line break, or starts with '#' (which would read as a comment).
func appendCSVField(b []byte, s string) []byte {
	if !strings.ContainsAny(s, ",\"\r\n") && !strings.HasPrefix(s, "#") {
		return append(b, s...)
	}
	b = append(b, '"')
	b = append(b, strings.ReplaceAll(s, `"`, `""`)...)
	return append(b, '"')
}
