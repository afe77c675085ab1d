package dataset

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// records yields a log's rows as fields in the order of its header's
// names, so that one reader (logRead) assigns roles to columns, checks
// values and builds the dataset whatever the file's format: CSV through
// encoding/csv (csvRecords), CDX (cdxRecords), and CDXJ and JSON lines
// (jsonRecords), whose fields are the keys of the JSON objects.
type records interface {
	// header returns the names of the columns and the line they are on.
	header() ([]string, int, error)
	// next returns the next row (the slice may be reused), or io.EOF.
	next() ([]string, error)
	// strict makes every later row have as many fields as the header.
	strict()
	// pos returns the line of field i of the row last returned, and its
	// column as ParseError reports it: the field's position in the row,
	// or for the JSON formats its byte position in the line (0 when the
	// row has no such field).
	pos(i int) (line, col int)
	// offset is the number of bytes of the log read so far.
	offset() int64
}

// csvRecords reads a CSV log: '#' comments, blank lines and lines of
// spaces skipped, fields trimmed of leading space, the separator chosen.
type csvRecords struct {
	in      *input
	cr      *csv.Reader
	sep     rune
	nfields int
}

func newCSVRecords(in *input, sep rune) *csvRecords {
	cr := csv.NewReader(in.br)
	cr.Comma = sep
	cr.Comment = '#'
	cr.FieldsPerRecord = -1 // until strict
	cr.ReuseRecord = true
	cr.TrimLeadingSpace = true
	return &csvRecords{in: in, cr: cr, sep: sep}
}

// header reads the header row. A header of one field that would split on
// another common separator is refused, naming that separator.
func (c *csvRecords) header() ([]string, int, error) {
	rec, err := c.next()
	if err == io.EOF {
		return nil, 0, &ParseError{Line: 1, Expected: "a header row", Got: gotEOF, described: true}
	}
	if err != nil {
		return nil, 0, err
	}
	line, _ := c.cr.FieldPos(0)
	if len(rec) == 1 {
		if s := otherSep(rec[0], c.sep); s != 0 {
			return nil, 0, &ParseError{Line: line, Expected: "columns separated by " + sepName(c.sep), Got: truncate(rec[0]),
				Hint: "the separator looks like " + sepName(s), Sep: string(s)}
		}
	}
	c.nfields = len(rec)
	return rec, line, nil
}

// otherSep returns the separator among ',', ';', tab and '|' other than
// sep that splits a one-field header into the most names, or 0.
func otherSep(h string, sep rune) rune {
	best, n := rune(0), 0
	for _, s := range []rune{',', ';', '\t', '|'} {
		if s == sep {
			continue
		}
		if k := strings.Count(h, string(s)); k > n {
			best, n = s, k
		}
	}
	return best
}

// sepName names a separator in messages: "a comma", "a tab", or ';'.
func sepName(s rune) string {
	switch s {
	case ',':
		return "a comma"
	case '\t':
		return "a tab"
	}
	return "'" + string(s) + "'"
}

func (c *csvRecords) strict() { c.cr.FieldsPerRecord = c.nfields }

func (c *csvRecords) next() ([]string, error) {
	for {
		rec, err := c.cr.Read()
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" && (err == nil || errors.Is(err, csv.ErrFieldCount)) {
			continue // a line of spaces (encoding/csv skips empty lines)
		}
		if err != nil {
			return nil, c.convert(err, len(rec))
		}
		return rec, nil
	}
}

// convert turns a reading error into a *ParseError where it is one; n is
// the number of fields read.
func (c *csvRecords) convert(err error, n int) error {
	if err == io.EOF {
		return err
	}
	var ce *csv.ParseError
	if errors.As(err, &ce) && ce.Err != nil && !errors.As(ce.Err, new(*lineError)) && !errors.As(ce.Err, new(*gzipFailure)) {
		pe := &ParseError{Line: ce.Line, Column: ce.Column, described: true}
		switch {
		case errors.Is(ce.Err, csv.ErrFieldCount):
			pe.Column = 0
			pe.Expected = fmt.Sprintf("%d fields", c.nfields)
			pe.Got = strconv.Itoa(n)
		case errors.Is(ce.Err, csv.ErrBareQuote):
			pe.Expected = `a " only in a quoted field (quote the field and double the ")`
			pe.Got = `a bare " in an unquoted field`
		case errors.Is(ce.Err, csv.ErrQuote):
			pe.Expected = fmt.Sprintf(`a closing " followed by %s or the end of the line`, sepName(c.sep))
			pe.Got = `an extraneous or missing "`
		default:
			pe.Expected = "valid CSV"
			pe.Got = ce.Err.Error()
		}
		return pe
	}
	var le *lineError
	if errors.As(err, &le) {
		return c.in.convert(le)
	}
	var ge *gzipFailure
	if errors.As(err, &ge) {
		return c.in.convert(ge)
	}
	return c.in.convert(err)
}

func (c *csvRecords) pos(i int) (int, int) {
	line, _ := c.cr.FieldPos(i)
	return line, i + 1
}

func (c *csvRecords) offset() int64 { return c.cr.InputOffset() }

// lines reads a log line by line, for the formats whose records are lines.
type lines struct {
	in   *input
	line int   // the line last read
	off  int64 // bytes read
	buf  []byte
}

// read returns the next line that is not blank (nor, with skip, starts
// with skip), without its line end, or io.EOF. The bytes are valid until
// the next call.
func (l *lines) read(skip byte) ([]byte, error) {
	for {
		b, err := l.in.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			l.buf = append(l.buf[:0], b...)
			for err == bufio.ErrBufferFull {
				b, err = l.in.br.ReadSlice('\n')
				l.buf = append(l.buf, b...)
			}
			b = l.buf
		}
		if len(b) == 0 && err != nil {
			if err == io.EOF {
				return nil, err
			}
			return nil, l.in.convert(err)
		}
		if err != nil && err != io.EOF {
			return nil, l.in.convert(err)
		}
		l.line++
		l.off += int64(len(b))
		b = bytes.TrimSuffix(b, []byte("\n"))
		b = bytes.TrimSuffix(b, []byte("\r"))
		if t := bytes.TrimSpace(b); len(t) == 0 || skip != 0 && t[0] == skip {
			continue
		}
		return b, nil
	}
}

// Field names of the CDX header's letters that a reader uses or shows
// (the others are named by their letter): as the Internet Archive's CDX
// server names them.
var cdxLetters = map[byte]string{
	'N': "urlkey", 'a': "original", 'b': "timestamp", 'm': "mimetype", 's': "statuscode",
	'k': "digest", 'r': "redirect", 'M': "robotflags", 'S': "length", 'V': "offset", 'g': "filename",
	'A': "canonized url", 'c': "old checksum", 'e': "ip", 'n': "arc length", 'v': "uncompressed offset",
}

// cdxLayouts are the field layouts of CDX files without a header, by
// their number of fields, as pywb reads them: the CDX server's 7 fields,
// and the 9-, 10- and 11-field files, with or without the 3 fields of
// resolved revisits.
var cdxLayouts = map[int]string{
	7: "N b a m s k S", 9: "N b a m s k r V g", 10: "N b a m s k r M V g", 11: "N b a m s k r M S V g",
	12: "N b a m s k r V g - - -", 13: "N b a m s k r M V g - - -", 14: "N b a m s k r M S V g - - -",
}

// cdxRecords reads a CDX file: a header " CDX" followed by field letters
// (or a headerless file of a layout cdxLayouts knows), then one capture a
// line, fields separated by spaces.
type cdxRecords struct {
	lines
	names   []string
	fields  []string
	pending bool // the first row was read while looking for the header
}

func (c *cdxRecords) header() ([]string, int, error) {
	b, err := c.read(0)
	if err == io.EOF {
		return nil, 0, &ParseError{Line: 1, Expected: `a CDX header (" CDX N b a m s k r M S V g") or a first capture`, Got: gotEOF, described: true}
	}
	if err != nil {
		return nil, 0, err
	}
	s := string(b)
	var letters []string
	if rest, ok := strings.CutPrefix(strings.TrimPrefix(s, " "), "CDX "); ok {
		letters = strings.Fields(rest)
	} else {
		c.split(s)
		layout, ok := cdxLayouts[len(c.fields)]
		if !ok {
			if e := wrongFormat(s, c.line, FormatCDX, true); e != nil {
				return nil, 0, e
			}
			return nil, 0, &ParseError{Line: c.line, Expected: `a CDX header (" CDX N b a m s k r M S V g"), or 7, 9, 10 or 11 fields separated by spaces`,
				Got: fmt.Sprintf("%d fields", len(c.fields)), described: true}
		}
		letters = strings.Fields(layout)
		c.pending = true
	}
	seen := map[string]bool{}
	for i, l := range letters {
		name, ok := cdxLetters[l[0]]
		if len(l) != 1 || !ok {
			name = l
		}
		if seen[name] {
			name = fmt.Sprintf("%s (%d)", name, i+1)
		}
		seen[name] = true
		c.names = append(c.names, name)
	}
	if c.pending && len(c.fields) != len(c.names) {
		return nil, 0, &ParseError{Line: c.line, Expected: fmt.Sprintf("%d fields", len(c.names)), Got: strconv.Itoa(len(c.fields)), described: true}
	}
	line := c.line
	if c.pending {
		line = 0 // no header line: its names are the layout's
	}
	return c.names, line, nil
}

// split splits a line into c.fields at runs of spaces.
func (c *cdxRecords) split(s string) {
	c.fields = c.fields[:0]
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return
		}
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			c.fields = append(c.fields, s)
			return
		}
		c.fields = append(c.fields, s[:i])
		s = s[i:]
	}
}

func (c *cdxRecords) next() ([]string, error) {
	if c.pending {
		c.pending = false
		return c.fields, nil
	}
	b, err := c.read(0)
	if err != nil {
		return nil, err
	}
	c.split(string(b))
	if len(c.fields) != len(c.names) {
		return nil, &ParseError{Line: c.line, Expected: fmt.Sprintf("%d fields, as the header names", len(c.names)), Got: strconv.Itoa(len(c.fields)), described: true}
	}
	return c.fields, nil
}

func (c *cdxRecords) strict()              {}
func (c *cdxRecords) pos(i int) (int, int) { return c.line, i + 1 }
func (c *cdxRecords) offset() int64        { return c.off }

// jsonRecords reads JSON lines (one object a line) or, with cdxj, CDXJ
// (a SURT URL key, a 14-digit timestamp and an object a line; lines
// beginning with '!' are metadata and skipped). The columns are the keys
// of the first line's object (after urlkey and timestamp, for CDXJ); a
// key that only later lines have is not read.
type jsonRecords struct {
	lines
	cdxj    bool
	names   []string
	index   map[string]int
	fields  []string
	cols    []int // byte position of each field in its line, 1-based; 0 when absent
	pending bool  // the first row was read to find the header
}

func (j *jsonRecords) header() ([]string, int, error) {
	b, err := j.read(j.skip())
	if err == io.EOF {
		return nil, 0, &ParseError{Line: 1, Expected: j.expected(), Got: gotEOF, described: true}
	}
	if err != nil {
		return nil, 0, err
	}
	j.index = map[string]int{}
	if j.cdxj {
		j.names = append(j.names, "urlkey", "timestamp")
		j.index["urlkey"], j.index["timestamp"] = 0, 1
	}
	if err := j.parse(b, true); err != nil {
		if e := wrongFormat(string(b), j.line, j.format(), true); e != nil {
			return nil, 0, e
		}
		return nil, 0, err
	}
	j.pending = true
	return j.names, j.line, nil
}

func (j *jsonRecords) skip() byte {
	if j.cdxj {
		return '!'
	}
	return 0
}

func (j *jsonRecords) format() string {
	if j.cdxj {
		return FormatCDXJ
	}
	return FormatJSONL
}

func (j *jsonRecords) expected() string {
	if j.cdxj {
		return "a CDXJ line (a URL key, a 14-digit timestamp and a JSON object)"
	}
	return "a JSON object"
}

func (j *jsonRecords) next() ([]string, error) {
	if j.pending {
		j.pending = false
		return j.fields, nil
	}
	b, err := j.read(j.skip())
	if err != nil {
		return nil, err
	}
	if err := j.parse(b, false); err != nil {
		return nil, err
	}
	return j.fields, nil
}

// parse reads line b into j.fields; first, it also names the columns.
func (j *jsonRecords) parse(b []byte, first bool) error {
	s := string(b)
	obj, at := s, 0 // the object and its byte offset in the line
	if j.cdxj {
		key, rest, ok1 := strings.Cut(s, " ")
		ts, rest, ok2 := strings.Cut(rest, " ")
		if !ok1 || !ok2 || key == "" {
			return &ParseError{Line: j.line, Expected: j.expected(), Got: truncate(s)}
		}
		at = len(key) + len(ts) + 2
		obj = rest
		j.set(0, key, 1, first)
		j.set(1, ts, len(key)+2, first)
	} else if first {
		j.fields, j.cols = j.fields[:0], j.cols[:0]
	}
	if !first {
		clear(j.fields[j.base():])
		clear(j.cols[j.base():])
	}
	ob := b[at:]
	if !json.Valid(ob) {
		var v any
		err := json.Unmarshal(ob, &v)
		pe := &ParseError{Line: j.line, Column: at + 1, Expected: "valid JSON", described: true}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			pe.Column = at + int(se.Offset)
			pe.Got = se.Error()
		} else {
			pe.Got = "invalid JSON"
		}
		if len(bytes.TrimSpace(ob)) == 0 {
			pe.Expected, pe.Got = j.expected(), "no JSON object"
		}
		return pe
	}
	i := skipSpace(obj, 0)
	if obj[i] != '{' {
		return &ParseError{Line: j.line, Column: at + i + 1, Expected: "a JSON object", Got: "a JSON " + jsonKind(obj[i]), described: true}
	}
	eachMember(obj, i, func(key string, v string, vat int) {
		k, ok := j.index[key]
		if !ok {
			if !first {
				return
			}
			k = len(j.names)
			j.names = append(j.names, key)
			j.index[key] = k
		}
		j.set(k, jsonText(v), at+vat+1, first)
	})
	return nil
}

// base is the number of fields before the JSON object's.
func (j *jsonRecords) base() int {
	if j.cdxj {
		return 2
	}
	return 0
}

// set sets field k to v at byte column col, growing the fields on the
// first line.
func (j *jsonRecords) set(k int, v string, col int, first bool) {
	for first && len(j.fields) <= k {
		j.fields = append(j.fields, "")
		j.cols = append(j.cols, 0)
	}
	j.fields[k], j.cols[k] = v, col
}

func (j *jsonRecords) strict() {}
func (j *jsonRecords) pos(i int) (int, int) {
	if i < len(j.cols) {
		return j.line, j.cols[i]
	}
	return j.line, 0
}
func (j *jsonRecords) offset() int64 { return j.off }

// absent reports whether field i was missing from the row last read.
func (j *jsonRecords) absent(i int) bool { return i < len(j.cols) && j.cols[i] == 0 }

// jsonKind names the JSON value that begins with c.
func jsonKind(c byte) string {
	switch c {
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// skipSpace returns the index of the first byte of s at or after i that
// is not JSON white space.
func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n') {
		i++
	}
	return i
}

// eachMember calls f for each member of the JSON object that begins at
// s[i], which must be valid JSON: with its key, the raw text of its value
// and the value's byte offset in s.
func eachMember(s string, i int, f func(key, value string, at int)) {
	i = skipSpace(s, i+1)
	for i < len(s) && s[i] != '}' {
		end := valueEnd(s, i)
		key := jsonText(s[i:end])
		i = skipSpace(s, end)
		i = skipSpace(s, i+1) // the colon
		end = valueEnd(s, i)
		f(key, s[i:end], i)
		i = skipSpace(s, end)
		if i < len(s) && s[i] == ',' {
			i = skipSpace(s, i+1)
		}
	}
}

// valueEnd returns the index just after the JSON value that begins at
// s[i], in valid JSON.
func valueEnd(s string, i int) int {
	switch s[i] {
	case '"':
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return len(s)
	case '{', '[':
		depth := 0
		for j := i; j < len(s); j++ {
			switch s[j] {
			case '"':
				j = valueEnd(s, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(s)
	}
	j := i
	for j < len(s) && !strings.ContainsRune(",}] \t\r\n", rune(s[j])) {
		j++
	}
	return j
}

// jsonText returns the text of a JSON value for a field: a string's
// contents, "" for null, and the raw text of anything else (numbers,
// booleans; objects and arrays, which no role accepts).
func jsonText(v string) string {
	switch {
	case v == "null":
		return ""
	case len(v) >= 2 && v[0] == '"':
		if !strings.ContainsRune(v, '\\') {
			return v[1 : len(v)-1]
		}
		var s string
		if json.Unmarshal([]byte(v), &s) == nil {
			return s
		}
	}
	return v
}
