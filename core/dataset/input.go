package dataset

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"hash"
	"hash/fnv"
	"io"
	"regexp"
	"strings"
)

// Formats of a log, as the upload API's format parameter names them.
const (
	FormatCrawlLog     = "crawl-log"     // CSV, one row per crawl: ReadCrawlLog
	FormatChangeEvents = "change-events" // CSV, one row per change event: ReadEventLog
	FormatCDX          = "cdx"           // a web archive's CDX index (Wayback Machine, pywb): ReadCrawlLog
	FormatCDXJ         = "cdxj"          // CDXJ (pywb, Common Crawl's index files): ReadCrawlLog
	FormatJSONL        = "jsonl"         // JSON lines: canonical fields, or the Common Crawl index server's: ReadCrawlLog
	FormatRates        = "rates"         // CSV, one row per page and its estimated change rate: ReadRates
)

// input is the byte stream a log is read from: the file's bytes as given,
// counted for progress; gunzipped when they are gzip-compressed (any
// format may be); then hashed, counted and cut into lines no longer than
// maxLineBytes (logReader), with the encoding checked at the start.
type input struct {
	raw  *countReader
	log  *logReader
	br   *bufio.Reader // over log
	size int64         // bytes of the log when known (an uncompressed input with a Len method), else 0
}

// openInput prepares to read a log from r, reporting the bytes of r
// consumed to progress. It checks the start of the log's text: a UTF-8
// byte order mark is skipped; a file that is not text a log can be (UTF-16,
// a ZIP archive such as an Excel workbook, NUL bytes) or whose lines end in
// CR alone is refused with a *ParseError saying what to do.
func openInput(r io.Reader, progress func(int64)) (*input, error) {
	raw := &countReader{r: r, progress: progress, nextReport: progressEvery}
	in := &input{raw: raw}
	rb := bufio.NewReaderSize(raw, 64<<10)
	var src io.Reader = rb
	if b, _ := rb.Peek(2); len(b) == 2 && b[0] == 0x1f && b[1] == 0x8b {
		zr, err := gzip.NewReader(rb)
		if err != nil {
			return nil, gzipError(err)
		}
		src = &gzipReader{zr}
	} else if l, ok := r.(interface{ Len() int }); ok {
		in.size = int64(l.Len())
	}
	in.log = &logReader{r: src, sum: fnv.New64a(), line: 1}
	in.br = bufio.NewReaderSize(in.log, 64<<10)
	if err := in.checkText(); err != nil {
		return nil, err
	}
	return in, nil
}

// consumed is the number of bytes of the file as given read so far.
func (in *input) consumed() int64 { return in.raw.n }

// checkText looks at the first bytes of the log (after decompression).
func (in *input) checkText() error {
	b, err := in.br.Peek(4 << 10)
	if err != nil && len(b) == 0 {
		if err == io.EOF {
			return nil
		}
		return in.convert(err)
	}
	refuse := func(got, hint string) error {
		return &ParseError{Line: 1, Expected: "a text file in UTF-8", Got: got, Hint: hint, described: true}
	}
	switch {
	case bytes.HasPrefix(b, []byte{0xff, 0xfe}) || bytes.HasPrefix(b, []byte{0xfe, 0xff}):
		return refuse("a UTF-16 byte order mark", "the file looks like UTF-16; save it as UTF-8")
	case bytes.HasPrefix(b, []byte("PK\x03\x04")):
		return refuse("a ZIP archive", "the file looks like a ZIP archive (an Excel or OpenDocument workbook is one); save the sheet as CSV, or unzip the file")
	}
	if i := bytes.IndexByte(b, 0); i >= 0 {
		if utf16Like(b) {
			return refuse("NUL bytes between the characters, as in UTF-16", "the file looks like UTF-16; save it as UTF-8")
		}
		return refuse("NUL bytes", "the file looks binary, not like a text log")
	}
	if i := bytes.IndexAny(b, "\r\n"); i >= 0 && b[i] == '\r' && i+1 < len(b) && b[i+1] != '\n' {
		return &ParseError{Line: 1, Expected: "lines ending in LF or CRLF", Got: "lines ending in CR alone", described: true,
			Hint: "the file's lines end in CR alone (as classic Mac OS wrote them); save it with LF or CRLF line ends (Windows or Unix)"}
	}
	if bytes.HasPrefix(b, []byte("\ufeff")) {
		in.br.Discard(3)
	}
	return nil
}

// utf16Like reports whether the NUL bytes of b fall mostly on every other
// byte, as in UTF-16 text of mostly ASCII characters.
func utf16Like(b []byte) bool {
	var even, odd int
	for i, c := range b {
		if c == 0 {
			if i%2 == 0 {
				even++
			} else {
				odd++
			}
		}
	}
	return max(even, odd) >= len(b)/4 && min(even, odd) <= max(even, odd)/8
}

// convert turns an error of the input itself (a line over the limit, a
// broken gzip stream) into the error to report; other errors are wrapped.
func (in *input) convert(err error) error {
	if le, ok := err.(*lineError); ok {
		return &ParseError{Line: le.line, Expected: fmt.Sprintf("a line of at most %d bytes", maxLineBytes), Got: "a longer line", described: true}
	}
	if ge, ok := err.(*gzipFailure); ok {
		return &ParseError{Line: in.log.line, Expected: "a whole gzip stream", Got: ge.err.Error(), described: true,
			Hint: "the file is gzip-compressed but does not decompress to the end (cut short, or damaged)"}
	}
	return fmt.Errorf("dataset: reading the log: %w", err)
}

// gzipError reports a gzip stream whose header is bad.
func gzipError(err error) error {
	return &ParseError{Line: 1, Expected: "a gzip header", Got: err.Error(), described: true,
		Hint: "the file starts like a gzip-compressed file but its header is damaged"}
}

// gzipReader passes on a gzip stream's text, marking its errors as the
// stream's (io.ErrUnexpectedEOF from a cut-short stream included).
type gzipReader struct{ zr *gzip.Reader }

// gzipFailure is an error of the gzip stream.
type gzipFailure struct{ err error }

func (e *gzipFailure) Error() string { return "gzip: " + e.err.Error() }

func (g *gzipReader) Read(p []byte) (int, error) {
	n, err := g.zr.Read(p)
	if err != nil && err != io.EOF {
		err = &gzipFailure{err}
	}
	return n, err
}

// countReader counts the bytes of the file as given and reports progress.
type countReader struct {
	r          io.Reader
	n          int64
	progress   func(int64)
	nextReport int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.progress != nil && c.n >= c.nextReport {
		c.progress(c.n)
		c.nextReport = c.n + progressEvery
	}
	return n, err
}

const progressEvery = 1 << 20

// logReader passes the log's text through, hashing its bytes (FNV-1a 64),
// counting them and their lines, and refusing a line longer than
// maxLineBytes before a reader would buffer it whole.
type logReader struct {
	r       io.Reader
	sum     hash.Hash64 // FNV-1a 64 of the bytes read
	n       int64       // bytes read
	line    int         // physical line of the next byte
	lineLen int         // bytes of the current line so far
	err     error       // error to return after the bytes before it
}

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
	return n, err
}

// The first line of a log in each line format, as sniffFormat recognises
// it.
var (
	cdxjLine = regexp.MustCompile(`^\S+ \d{14} \{`)
	cdxLine  = regexp.MustCompile(`^\S+ \d{14} \S+ \S+ \S+ \S+ \S+`)
)

// sniffFormat names the format whose files begin with line (the first
// line that is not blank or a comment): FormatCDX for a CDX header or a
// line of CDX fields, FormatCDXJ, FormatJSONL for a JSON object, and ""
// for anything else (CSV, the crawl-log and change-events formats).
func sniffFormat(line string) string {
	switch {
	case strings.HasPrefix(line, "{"):
		return FormatJSONL
	case strings.HasPrefix(line, " CDX ") || strings.HasPrefix(line, "CDX "):
		return FormatCDX
	case cdxjLine.MatchString(line):
		return FormatCDXJ
	case cdxLine.MatchString(line):
		return FormatCDX
	}
	return ""
}

// firstLine returns the first line of the log that is not blank or a
// comment ('#', and '!' for CDXJ's special lines) among its first bytes,
// without reading them, and its line number.
func (in *input) firstLine() (string, int) {
	b, _ := in.br.Peek(16 << 10)
	line := 1
	for len(b) > 0 {
		l := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			l, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		s := strings.TrimRight(string(l), "\r")
		if t := strings.TrimSpace(s); t != "" && t[0] != '#' && t[0] != '!' {
			return s, line
		}
		line++
	}
	return "", 0
}

// wrongFormat returns the error for a log whose first line (line n)
// looks like another format's than the one chosen, or nil. With csv, a
// line with commas that no line format recognises counts as CSV (the
// crawl-log format's): the line readers ask so when their header fails.
func wrongFormat(line string, n int, chosen string, csv bool) error {
	f := sniffFormat(line)
	if f == "" && csv && strings.Contains(line, ",") && !strings.HasPrefix(line, "[") {
		f = FormatCrawlLog
	}
	if f == "" || f == chosen || f == FormatCrawlLog && chosen == FormatChangeEvents {
		return nil
	}
	names := map[string]string{FormatCDX: "CDX", FormatCDXJ: "CDXJ", FormatJSONL: "JSON lines", FormatCrawlLog: "CSV", FormatChangeEvents: "CSV"}
	return &ParseError{Line: n, Expected: "a " + names[chosen] + " file", Got: truncate(line), Format: f,
		Hint: fmt.Sprintf("the file looks like %s; read it as format %s", names[f], f)}
}
