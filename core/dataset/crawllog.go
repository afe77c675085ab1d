package dataset

import (
	"bufio"
	"cmp"
	"fmt"
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
	// Format is the file's format: FormatCrawlLog (CSV, the default when
	// empty), or one of the web archive index formats, whose rows are
	// captures: FormatCDX, FormatCDXJ, FormatJSONL.
	Format string
	// Layout gives the separator of a CSV log and maps roles to columns
	// named otherwise.
	Layout
	// CycleLength is the length of one cycle in seconds; 0 infers it as the
	// median interval between consecutive crawls of the same page.
	CycleLength float64
	// Progress, when not nil, is called with the number of bytes of the
	// file consumed (compressed, when it is) about every MiB and once at
	// the end, to drive a progress bar.
	Progress func(bytes int64)
}

// CrawlLogSummary describes what ReadCrawlLog read, to show the researcher
// after an upload.
type CrawlLogSummary struct {
	Format        string         `json:"format"`            // the file's format (FormatCrawlLog, FormatCDX, ...)
	Rows          int            `json:"rows"`              // crawl rows read (captures, in the capture formats)
	Dropped       map[string]int `json:"dropped,omitempty"` // rows that are not captures of a page, by why (the capture formats)
	Pages         int            `json:"pages"`             // distinct pages
	Sites         int            `json:"sites"`             // distinct sites
	Cycles        int            `json:"cycles"`            // cycles of the dataset (the last crawl round)
	CycleLength   float64        `json:"cycleLength"`       // seconds, as used
	CycleInferred bool           `json:"cycleInferred"`     // CycleLength was inferred from the log
	Start         string         `json:"start"`             // RFC 3339 UTC of the first crawl
	End           string         `json:"end"`               // RFC 3339 UTC of the last crawl
	Crawls        int            `json:"crawls"`            // crawls after a page's first: the ones that can observe a change
	Changes       int            `json:"changes"`           // of those, how many saw a change
	ChangeRate    float64        `json:"changeRate"`        // Changes / Crawls: the observed change rate
	Columns       []string       `json:"columns"`           // columns used, in the file's spelling
	Ignored       []string       `json:"ignored"`           // columns ignored, in the file's spelling
	ChangeFrom    string         `json:"changeFrom"`        // "changed" or "hash"
}

// ParseError is a problem in a log at a line and column, in the style of
// encoding/csv's ParseError.
//
// Column is the 1-based position of the offending field in its row (0 when
// the whole line or file is at fault), except for CSV quoting errors, where
// it is encoding/csv's 1-based byte position in the line, and in CDXJ and
// JSON lines, where it is the 1-based byte position of the value in the
// line.
type ParseError struct {
	Line, Column int    // 1-based; Column 0 when the whole line is at fault
	Field        string // the column's name from the header, if known
	Expected     string // what was expected, in words
	Got          string // what was found (truncated to ~40 chars)

	// Hint, when not empty, says what is probably wrong with the file as
	// a whole, and what to do: "the separator looks like ';'".
	Hint string
	// Sep, when not empty, is the separator the header seems to use:
	// reading the file again with it may succeed.
	Sep string
	// Format, when not empty, is the format the file seems to be in.
	Format string
	// Preview, when the header lacks a column the format needs, shows the
	// file's first rows and a column for each role where one can be
	// guessed, so that a column map can be chosen.
	Preview *Preview

	// described says Got is a description of what was found ("an empty
	// field") rather than text from the file, so Error does not quote it.
	described bool
}

// Error formats e as, for example,
// `line 17, column 3 (time): expected a time (...), got "yesterday"`,
// followed by the hint when there is one.
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
	if e.Hint != "" {
		b.WriteString(": ")
		b.WriteString(e.Hint)
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

const (
	expectTime    = "a time (RFC 3339, YYYY-MM-DD [HH:MM[:SS]], YYYYMMDDhhmmss, or unix seconds)"
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

// ReadCrawlLog reads a crawl log into a Dataset (see datasets/README.md):
// a CSV file with a row per crawl, or a web archive's index of captures
// (CDX, CDXJ, JSON lines), a capture being a crawl whose change is a new
// content digest. Each crawl is placed in a crawl round of the cycle
// length, and a crawl that saw a change marks its page changed in the
// cycle ending at that round. Any format may be gzip-compressed. Problems
// in the file are reported as *ParseError, options that do not fit the
// format as *OptionError.
func ReadCrawlLog(r io.Reader, opt CrawlLogOptions) (*Dataset, *CrawlLogSummary, error) {
	if opt.CycleLength < 0 || math.IsNaN(opt.CycleLength) || math.IsInf(opt.CycleLength, 0) {
		return nil, nil, fmt.Errorf("dataset: crawl log: cycle length %v: expected a positive number of seconds, or 0 to infer it", opt.CycleLength)
	}
	lr, err := newCrawlRead(r, &opt)
	if err != nil {
		return nil, nil, err
	}
	d, sum, err := lr.read(opt)
	if err != nil {
		return nil, nil, err
	}
	if opt.Progress != nil {
		opt.Progress(lr.in.consumed())
	}
	return d, sum, nil
}

// newCrawlRead prepares to read a crawl log or capture index as opt says,
// its format defaulted to FormatCrawlLog.
func newCrawlRead(r io.Reader, opt *CrawlLogOptions) (*logRead, error) {
	if opt.Format == "" {
		opt.Format = FormatCrawlLog
	}
	roles := captureRoles
	switch opt.Format {
	case FormatCrawlLog:
		roles = crawlRoles
	case FormatCDX, FormatCDXJ, FormatJSONL:
	default:
		return nil, fmt.Errorf("dataset: crawl log: format %q: expected %s, %s, %s or %s", opt.Format, FormatCrawlLog, FormatCDX, FormatCDXJ, FormatJSONL)
	}
	return newLogRead(r, opt.Format, opt.Layout, roles, opt.Progress)
}

// readHeader reads the header record, noting its line.
func (lr *logRead) readHeader() ([]string, error) {
	rec, line, err := lr.src.header()
	if err != nil {
		return nil, err
	}
	lr.headerLine = max(line, 1)
	return rec, nil
}

// newLogRead prepares to read a log of the given format from r, crawl
// logs, capture indexes and change-event logs alike: the bytes decompressed
// when gzipped, checked, hashed and counted as they pass (openInput), and
// split into records by the format.
func newLogRead(r io.Reader, format string, l Layout, roles []role, progress func(int64)) (*logRead, error) {
	if err := checkLayout(l, roles, format); err != nil {
		return nil, err
	}
	in, err := openInput(r, progress)
	if err != nil {
		return nil, err
	}
	lr := &logRead{in: in, format: format, roles: roles, colMap: l.Columns, sep: cmp.Or(l.Sep, ','), size: in.size}
	switch format {
	case FormatCrawlLog, FormatChangeEvents, FormatRates:
		if line, n := in.firstLine(); n > 0 {
			if err := wrongFormat(line, n, format, false); err != nil {
				return nil, err
			}
		}
		lr.src = newCSVRecords(in, lr.sep)
	case FormatCDX:
		lr.src = &cdxRecords{lines: lines{in: in}}
		lr.capture = true
	case FormatCDXJ, FormatJSONL:
		lr.src = &jsonRecords{lines: lines{in: in}, cdxj: format == FormatCDXJ}
		lr.capture = true
	}
	return lr, nil
}

// logRead holds the state of one ReadCrawlLog call (and, embedded, of one
// ReadEventLog call).
type logRead struct {
	in      *input
	src     records
	format  string
	roles   []role            // the format's roles
	colMap  map[string]string // role → column name, from the layout
	sep     rune
	capture bool // rows are captures (CDX, CDXJ, JSON lines): some are not of a page

	header     []string // the header's names, trimmed, in the file's spelling
	headerLine int
	found      []int        // the column of each role (-1 for none), once the header is read
	used       []usedColumn // the columns as read
	colPage    int          // column of the page id (page, or url without page)
	colURL     int          // column of the URL when both page and url are given; else -1
	colSite    int          // -1 when absent
	colTime    int
	colChange  int // column of changed or hash
	useHash    bool
	colStatus  int // -1 when absent
	colMime    int // -1 when absent

	dates     dateCache
	size      int64 // bytes in the input when known (an uncompressed input with a Len method), else 0
	pageIndex map[string]int32
	siteIndex map[string]int32
	pages     []Page
	sites     []string
	crawls    []crawl
	hashes    []uint64       // FNV-1a of each crawl's hash, for hash logs
	dropped   map[string]int // rows not read, by why

	rows             int
	tmin, tmax       int64
	lineMin, lineMax int // lines of the earliest and latest crawl
}

// usedColumn is a column as it is read: its part (a role, or "hash" for
// a change read from hashes) and position.
type usedColumn struct {
	part string
	col  int
}

func (lr *logRead) read(opt CrawlLogOptions) (*Dataset, *CrawlLogSummary, error) {
	rec, err := lr.readHeader()
	if err != nil {
		return nil, nil, err
	}
	sum := &CrawlLogSummary{Format: lr.format, Columns: []string{}, Ignored: []string{}}
	if err := lr.parseHeader(rec, sum); err != nil {
		return nil, nil, err
	}
	lr.src.strict()

	lr.pageIndex = make(map[string]int32)
	lr.siteIndex = make(map[string]int32)
	lr.dropped = make(map[string]int)
	for {
		rec, err := lr.src.next()
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
		what := "at least one crawl row"
		if lr.capture {
			what = "at least one capture of a page (status 200 or a revisit)"
		}
		return nil, nil, &ParseError{Line: lr.headerLine, Expected: what, Got: lr.nothing(), described: true}
	}
	if len(lr.dropped) > 0 {
		sum.Dropped = lr.dropped
	}
	return lr.build(opt, sum)
}

// nothing describes a log without rows to read: the end of the file, or
// the rows dropped.
func (lr *logRead) nothing() string {
	n := 0
	for _, k := range lr.dropped {
		n += k
	}
	if n == 0 {
		return gotEOF
	}
	return fmt.Sprintf("%d rows, none a capture of a page", n)
}

// columns reads a header row into lr.header (names trimmed, in the file's
// spelling) and returns, for each role, the column that plays it, or -1:
// the column the layout's map names for it, else a column (not mapped to
// another role) whose name, in any case, is one of the role's names. Two
// columns for one role are an error.
func (lr *logRead) columns(rec []string, roles []role) ([]int, error) {
	if err := lr.setHeader(rec); err != nil {
		return nil, err
	}
	cols := make([]int, len(roles))
	mapped := make([]bool, len(rec))
	for r, ro := range roles {
		cols[r] = -1
		name, ok := lr.colMap[ro.name]
		if ro.name == "" || !ok {
			continue
		}
		for i, h := range lr.header {
			if !strings.EqualFold(h, name) {
				continue
			}
			if cols[r] >= 0 {
				return nil, lr.headerError(&ParseError{Line: lr.headerLine, Column: i + 1, Field: h,
					Expected: fmt.Sprintf("one column named %q, for columns=%s=%s (column %d is one)", name, ro.name, name, cols[r]+1),
					Got:      "a second one", described: true})
			}
			cols[r], mapped[i] = i, true
		}
		if cols[r] < 0 {
			return nil, lr.headerError(&ParseError{Line: lr.headerLine,
				Expected: fmt.Sprintf("a column named %q, for columns=%s=%s", name, ro.name, name),
				Got:      truncate(strings.Join(lr.header, string(lr.sep)))})
		}
	}
	for i, name := range lr.header {
		if mapped[i] {
			continue
		}
		r := slices.IndexFunc(roles, func(ro role) bool {
			_, isMapped := lr.colMap[ro.name]
			return !(ro.name != "" && isMapped) && slices.Contains(ro.names, strings.ToLower(name))
		})
		if r < 0 {
			continue
		}
		if p := cols[r]; p >= 0 {
			line, _ := lr.src.pos(i)
			return nil, &ParseError{Line: max(line, lr.headerLine), Column: i + 1, Field: name,
				Expected: fmt.Sprintf("one column of this kind (column %d, %q, is one)", p+1, lr.header[p]),
				Got:      "a second one", described: true}
		}
		cols[r] = i
	}
	lr.found = cols
	return cols, nil
}

// setHeader reads the header's names into lr.header, trimmed.
func (lr *logRead) setHeader(rec []string) error {
	lr.header = make([]string, len(rec))
	for i, name := range rec {
		if len(name) > maxFieldBytes {
			lr.header = nil
			return lr.tooLong(i, name)
		}
		lr.header[i] = strings.TrimSpace(name)
	}
	return nil
}

// use records the columns as they are read, for the dataset's id:
// the part each plays and its position (-1 for none).
func (lr *logRead) use(parts ...usedColumn) {
	lr.used = lr.used[:0]
	for _, u := range parts {
		if u.col >= 0 {
			lr.used = append(lr.used, u)
		}
	}
}

// applied describes how the columns were read, for the dataset's id: the
// separator and each column's part, so that two column maps reading the
// same columns the same way give one dataset.
func (lr *logRead) applied() string {
	var b strings.Builder
	if lr.sep != ',' {
		fmt.Fprintf(&b, " sep=%q", lr.sep)
	}
	for _, u := range lr.used {
		fmt.Fprintf(&b, " %s=#%d", u.part, u.col)
	}
	return b.String()
}

// missing reports a header without a column for a role, with a preview
// of the file for choosing one and, when role (the role a map would name)
// is not empty, a hint naming the column map guessed.
func (lr *logRead) missing(what string, names []string, role string) error {
	e := &ParseError{Line: lr.headerLine,
		Expected: fmt.Sprintf("a %s column (named %s)", what, orList(names)),
		Got:      truncate(strings.Join(lr.header, string(lr.sep)))}
	lr.headerError(e)
	if role != "" {
		e.Hint = mapHint(e.Preview, role)
	}
	return e
}

// headerError adds to e, an error about the header, a Preview of the
// file: its header, first rows, and the columns found or guessed for the
// roles a column map can name.
func (lr *logRead) headerError(e *ParseError) *ParseError {
	p := &Preview{Header: lr.header, Rows: [][]string{}}
	for len(p.Rows) < previewRows {
		rec, err := lr.src.next()
		if err != nil {
			break
		}
		p.Rows = append(p.Rows, slices.Clone(rec))
	}
	for r, ro := range lr.roles {
		if ro.name == "" {
			continue
		}
		col := -1
		if lr.found != nil {
			col = lr.found[r]
		}
		p.Roles = append(p.Roles, PreviewRole{Role: ro.name, Need: ro.need, Column: col})
	}
	p.guess(lr.roles)
	e.Preview = p
	return e
}

// mapHint says, for a header without a column for role, how to read
// columns named otherwise: with a column map, the one guessed when there
// is one.
func mapHint(p *Preview, role string) string {
	var guessed []string
	for _, r := range p.Roles {
		if r.Guessed {
			guessed = append(guessed, r.Role+"="+p.Header[r.Column])
		}
	}
	if len(guessed) > 0 {
		return "to read columns named otherwise, give a column map, such as columns=" + strings.Join(guessed, ",") + " (guessed from their names)"
	}
	return "to read a column named otherwise as the " + role + " column, give a column map, such as columns=" + role + "=NAME"
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
	c, err := lr.columns(rec, lr.roles)
	if err != nil {
		return err
	}
	cols := struct{ page, url, site, time, changed, hash, status, mime int }{c[0], c[1], c[2], c[3], c[4], c[5], -1, -1}
	if lr.capture {
		cols.status, cols.mime = c[6], c[7]
	}
	if cols.page < 0 && cols.url < 0 {
		return lr.missing("page", append(slices.Clip(lr.roles[0].names), lr.roles[1].names...), "page")
	}
	if cols.time < 0 {
		return lr.missing("time", roleTime.names, "time")
	}
	if cols.changed < 0 && cols.hash < 0 {
		role := "changed"
		if lr.capture {
			role = "hash"
		}
		return lr.missing("change", append(slices.Clip(roleChanged.names), roleHash.names...), role)
	}

	lr.colPage, lr.colURL = cols.page, -1
	if cols.page < 0 {
		lr.colPage = cols.url
	} else if cols.url >= 0 {
		lr.colURL = cols.url
	}
	lr.colSite, lr.colTime = cols.site, cols.time
	lr.colStatus, lr.colMime = cols.status, cols.mime
	if cols.changed >= 0 {
		lr.colChange = cols.changed
		sum.ChangeFrom = "changed"
	} else {
		lr.colChange, lr.useHash = cols.hash, true
		sum.ChangeFrom = "hash"
	}
	sum.Columns, sum.Ignored = lr.split([]int{cols.page, cols.url, cols.site, cols.time, lr.colChange, cols.status, cols.mime})
	lr.use(usedColumn{"page", lr.colPage}, usedColumn{"url", lr.colURL}, usedColumn{"site", lr.colSite}, usedColumn{"time", lr.colTime},
		usedColumn{sum.ChangeFrom, lr.colChange}, usedColumn{"status", lr.colStatus}, usedColumn{"mime", lr.colMime})
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
	line, col := lr.src.pos(i)
	return &ParseError{Line: line, Column: col, Field: lr.header[i], Expected: expected, Got: truncate(got)}
}

// emptyError returns a *ParseError for an empty field i (or, in the JSON
// formats, a missing one).
func (lr *logRead) emptyError(i int, expected string) *ParseError {
	e := lr.fieldError(i, expected, gotEmpty)
	e.described = true
	if j, ok := lr.src.(*jsonRecords); ok && j.absent(i) {
		e.Got = fmt.Sprintf("no %q field", lr.header[i])
	}
	return e
}

// tooLong reports field i as over the size limit.
func (lr *logRead) tooLong(i int, s string) *ParseError {
	line, col := lr.src.pos(i)
	pe := &ParseError{Line: line, Column: col, Expected: fmt.Sprintf("a field of at most %d bytes", maxFieldBytes),
		Got: fmt.Sprintf("%d bytes", len(s)), described: true}
	if i < len(lr.header) {
		pe.Field = lr.header[i]
	}
	return pe
}

// checkRow refuses a row beyond the row limit (what names the rows, say
// "crawl rows") or with a field over the size limit.
func (lr *logRead) checkRow(rec []string, what string) error {
	if err := lr.checkLimit(what); err != nil {
		return err
	}
	return lr.checkFields(rec)
}

// checkLimit refuses a row beyond the row limit.
func (lr *logRead) checkLimit(what string) error {
	if lr.rows >= maxCrawlRows {
		line, _ := lr.src.pos(0)
		return &ParseError{Line: line, Expected: fmt.Sprintf("at most %d %s", maxCrawlRows, what), Got: "more", described: true}
	}
	return nil
}

// checkFields refuses a row with a field over the size limit.
func (lr *logRead) checkFields(rec []string) error {
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

// drop counts a row not read, by why: an event kind, a capture's status.
func (lr *logRead) drop(why string) {
	if _, ok := lr.dropped[why]; ok { // already lower case and short
		lr.dropped[why]++
		return
	}
	k := truncate(strings.ToLower(why))
	if _, ok := lr.dropped[k]; !ok && len(lr.dropped) >= maxKinds {
		k = otherKinds
	}
	lr.dropped[k]++
}

// notCapture says why a row of a capture format is not a capture of a
// page's content, or "" when it is one (see datasets/README.md, "Which
// rows are captures"): a capture of a robots.txt file, a response other
// than 200 that is not a revisit, a row without a digest.
func (lr *logRead) notCapture(rec []string) string {
	u := rec[lr.colPage]
	if lr.colURL >= 0 {
		u = rec[lr.colURL]
	}
	if robotsTxt(trim(u)) {
		return "robots.txt"
	}
	revisit := lr.colMime >= 0 && strings.EqualFold(trim(rec[lr.colMime]), "warc/revisit")
	if lr.colStatus >= 0 && !revisit {
		if s := trim(rec[lr.colStatus]); s != "200" {
			return "status " + s
		}
	}
	if lr.useHash && trim(rec[lr.colChange]) == "-" {
		return "no digest"
	}
	return ""
}

// robotsTxt reports whether u, a URL or a SURT key, addresses a
// robots.txt file.
func robotsTxt(u string) bool {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
		if j := strings.IndexByte(u, '/'); j >= 0 {
			u = u[j:]
		} else {
			return false
		}
	} else if i := strings.Index(u, ")/"); i >= 0 {
		u = u[i+1:]
	} else {
		return false
	}
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	return strings.EqualFold(u, "/robots.txt")
}

// row reads one crawl row.
func (lr *logRead) row(rec []string) error {
	if err := lr.checkLimit("crawl rows"); err != nil {
		return err
	}
	c, why, err := lr.parseRow(rec)
	if err != nil {
		return err
	}
	if why != "" {
		lr.drop(why)
		return nil
	}
	t, changed, h := c.t, c.changed, c.h

	// Page, and its site on first sight.
	p, seen := lr.pageIndex[c.id]
	if !seen {
		if p, err = lr.newPage(rec, c.id); err != nil {
			return err
		}
	} else if err := lr.checkSite(rec, p); err != nil {
		return err
	}

	line := 0
	if lr.rows == 0 || t < lr.tmin || t > lr.tmax {
		line, _ = lr.src.pos(lr.colTime)
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
		est := min(float64(lr.size)/float64(max(lr.src.offset(), 1))*presizeAfter*1.05, float64(maxCrawlRows))
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

// parsedRow is what one row of a crawl log says, before its page is looked
// up: the page's id, the time, and the change (the flag, or the FNV-1a hash
// of the content hash).
type parsedRow struct {
	id      string
	t       int64
	changed bool
	h       uint64
}

// parseRow reads the page id, time and change of one row, or says why the
// row is not a capture of a page (the capture formats); ReadCrawlLog and
// ScanCrawlLog share it. The id shares rec's buffer.
func (lr *logRead) parseRow(rec []string) (parsedRow, string, error) {
	var c parsedRow
	if err := lr.checkFields(rec); err != nil {
		return c, "", err
	}
	if lr.capture {
		if why := lr.notCapture(rec); why != "" {
			return c, why, nil
		}
	}

	// Time.
	t, err := lr.timeAt(rec, lr.colTime)
	if err != nil {
		return c, "", err
	}
	c.t = t

	// Change.
	cv := trim(rec[lr.colChange])
	if lr.useHash {
		if cv == "" {
			return c, "", lr.emptyError(lr.colChange, "a hash (any non-empty text)")
		}
		f := fnv.New64a()
		f.Write([]byte(cv))
		c.h = f.Sum64()
	} else {
		var ok bool
		if c.changed, ok = parseChanged(cv); !ok {
			if cv == "" {
				return c, "", lr.emptyError(lr.colChange, expectChanged)
			}
			return c, "", lr.fieldError(lr.colChange, expectChanged, cv)
		}
	}

	c.id = trim(rec[lr.colPage])
	if c.id == "" {
		return c, "", lr.emptyError(lr.colPage, "a page id")
	}
	return c, "", nil
}

// presizeAfter is the number of rows after which a reader estimates the
// number of rows of an input of known size.
const presizeAfter = 1024

// newPage adds the page with the given id, finding its site.
func (lr *logRead) newPage(rec []string, id string) (int32, error) {
	u, site, err := lr.pageSite(rec, id)
	if err != nil {
		return 0, err
	}
	id = strings.Clone(id) // rec's strings share one buffer per line
	s, ok := lr.siteIndex[site]
	if !ok {
		s = int32(len(lr.sites))
		lr.sites = append(lr.sites, site)
		lr.siteIndex[site] = s
	}
	p := int32(len(lr.pages))
	lr.pages = append(lr.pages, Page{URL: u, Site: s})
	lr.pageIndex[id] = p
	return p, nil
}

// pageSite returns the URL and the site of the page with the given id as
// its row gives them (copies, not sharing rec's buffer): the url column
// when there is one and it is not empty, else the id; the site column, else
// the URL's host.
func (lr *logRead) pageSite(rec []string, id string) (u, site string, err error) {
	u = id
	if lr.colURL >= 0 {
		if v := trim(rec[lr.colURL]); v != "" || lr.colSite < 0 {
			u = v
		} // else an empty URL: keep the id as the page's URL
	}
	u = strings.Clone(u)
	if lr.colSite >= 0 {
		site = strings.TrimSpace(rec[lr.colSite])
		if site == "" {
			return "", "", lr.emptyError(lr.colSite, "a site name")
		}
		return u, strings.Clone(site), nil
	}
	col := lr.colPage
	if lr.colURL >= 0 {
		col = lr.colURL
	}
	site = urlHost(u)
	if site == "" {
		if u == "" {
			return "", "", lr.emptyError(col, "a URL with a host, since there is no site column")
		}
		return "", "", lr.fieldError(col, "a URL with a host, since there is no site column", u)
	}
	return u, site, nil
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
			ID:          uploadID("upload-", lr.in.log.sum, fmt.Sprintf("%s cycle=%g%s", lr.format, L, lr.applied())),
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
// absent); or 14 digits YYYYMMDDhhmmss in UTC, the web archives'
// timestamps (as unix milliseconds any 14-digit number would be after
// 2200, so none of those is taken from it).
func parseCrawlTime(s string, c *dateCache) (int64, int) {
	if len(s) >= 10 && s[4] == '-' {
		return parseDateTime(s, c)
	}
	if len(s) == 14 && strings.Trim(s, "0123456789") == "" {
		return parseTimestamp14(s)
	}
	return parseUnix(s)
}

// parseTimestamp14 reads YYYYMMDDhhmmss (UTC).
func parseTimestamp14(s string) (int64, int) {
	var d [7]int
	for i := range d {
		v, ok := digits2(s, 2*i)
		if !ok {
			return 0, timeBad
		}
		d[i] = v
	}
	year, mo, dd, hh, mm, ss := d[0]*100+d[1], d[2], d[3], d[4], d[5], d[6]
	if mo < 1 || mo > 12 || dd < 1 || dd > daysIn(year, mo) || hh > 23 || mm > 59 || ss > 59 {
		return 0, timeBad
	}
	secs := daysFromCivil(year, mo, dd)*86400 + int64(hh*3600+mm*60+ss)
	if secs < minCrawlTime || secs >= maxCrawlTime/1e9 {
		return 0, timeRange
	}
	return secs * 1e9, timeOK
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

// CrawlLogHeader is the header of the crawl logs WriteCrawlLog writes.
const CrawlLogHeader = "page,site,time,changed\n"

// AppendCrawlRow appends to b a crawl log row under CrawlLogHeader: the
// page, its site, the time ts (RFC 3339) and the change, 1 or 0, quoting
// the page and site where CSV needs it.
func AppendCrawlRow(b []byte, page, site string, ts []byte, changed bool) []byte {
	b = appendCSVField(b, page)
	b = append(b, ',')
	b = appendCSVField(b, site)
	b = append(b, ',')
	b = append(b, ts...)
	if changed {
		return append(b, ",1\n"...)
	}
	return append(b, ",0\n"...)
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
	bw.WriteString(CrawlLogHeader)
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
			buf = AppendCrawlRow(buf[:0], p.URL, d.Sites[p.Site], ts, mark[i])
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
