package api

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/refreshlab/refreshlab/core/dataset"

	"github.com/refreshlab/refreshlab/core/internal/quote"
)

// Upload formats POST /api/datasets accepts, by the query's "format".
const (
	FormatCrawlLog     = dataset.FormatCrawlLog     // CSV, one row per crawl: dataset.ReadCrawlLog
	FormatChangeEvents = dataset.FormatChangeEvents // CSV, one row per change event: dataset.ReadEventLog
	FormatCDX          = dataset.FormatCDX          // a web archive's CDX index: captures, read as crawls
	FormatCDXJ         = dataset.FormatCDXJ         // CDXJ (pywb, Common Crawl's index files)
	FormatJSONL        = dataset.FormatJSONL        // JSON lines (canonical fields, or the Common Crawl index server's)
	FormatRates        = dataset.FormatRates        // CSV, one row per page and its change rate (core/pipeline's rates.csv): dataset.ReadRates
)

// formats lists the upload formats, in the order messages name them.
var formats = []string{FormatCrawlLog, FormatChangeEvents, FormatCDX, FormatCDXJ, FormatJSONL, FormatRates}

// upload reads a log from the body (gzip-compressed or not) and adds it to
// the lab. Query: format (crawl-log, the default; change-events; cdx,
// cdxj, jsonl; rates, pages and their change rates for the schedule
// kind), name (shown as the dataset's name), cycle (the cycle
// length: seconds, or a duration such as 12h or 1d; default inferred for
// crawl logs and captures, one day for change events), sep (the CSV
// formats' separator: a single character, or "tab"), columns (a column
// map: role=name pairs such as page=url,time=crawled_at, see
// dataset.ParseColumns); for change events also merge (changes of a page
// closer than this are one: a duration, default 1h, 0 for none), start and
// end (the observation window, in any time format logs accept; default the
// log's first and last event).
//
// A file that cannot be read is a 400 whose JSON says where (line,
// column, field, expected, got) and, when it can, what to do: hint, sep
// (a separator to read it with), format (a format it seems to be in),
// preview (its first rows and columns guessed for the roles, for a column
// map).
func (rt *Router) upload(req Request) Response {
	if err := rt.owners.room(int64(len(req.Body))); err != nil {
		return errorResponse(413, "%v", err)
	}
	d, format, sum, resp, ok := rt.read(req)
	if !ok {
		return resp
	}
	var evicted []string
	if rt.store != nil {
		if evicted, resp, ok = rt.keep(req, d.Info); !ok {
			return resp
		}
	}
	rt.lab.AddUpload(d)
	evicted = append(evicted, rt.owners.add(req.Client, d.Info.ID, int64(len(req.Body)))...)
	slices.Sort(evicted)
	evicted = slices.Compact(evicted)
	out := map[string]any{"dataset": d.Info, "format": format, "summary": sum}
	if len(evicted) > 0 {
		// Said, so that a page can tell its user which of their logs it
		// no longer holds.
		out["evicted"] = evicted
		out["note"] = fmt.Sprintf("you may keep %d uploads: your oldest went", MaxClientUploads)
	}
	return jsonResponse(201, out)
}

// read reads the log an upload request carries, as its query says,
// without adding it anywhere: the dataset, its format and the reader's
// summary, or the error response.
func (rt *Router) read(req Request) (*dataset.Dataset, string, any, Response, bool) {
	format := req.Query.Get("format")
	if format == "" {
		format = FormatCrawlLog
	}
	fail := func(resp Response) (*dataset.Dataset, string, any, Response, bool) { return nil, "", nil, resp, false }
	if !slices.Contains(formats, format) {
		return fail(errorResponse(400, "unknown format %s (expected %s)", quote.Q(format), quotedOr(formats)))
	}
	if name := req.Query.Get("name"); utf8.RuneCountInString(name) > MaxName {
		return fail(fieldError("name", fmt.Errorf("a name of %d characters: at most %d", utf8.RuneCountInString(name), MaxName)))
	}
	var cycle float64
	if c := req.Query.Get("cycle"); c != "" {
		secs, err := parseCycle(c)
		if err != nil {
			return fail(fieldError("cycle", err))
		}
		cycle = secs
	}
	var layout dataset.Layout
	if s := req.Query.Get("sep"); s != "" {
		sep, err := parseSep(s)
		if err != nil {
			return fail(fieldError("sep", err))
		}
		layout.Sep = sep
	}
	if c := req.Query.Get("columns"); c != "" {
		m, err := dataset.ParseColumns(c)
		if err != nil {
			return fail(fieldError("columns", err))
		}
		layout.Columns = m
	}
	var (
		d   *dataset.Dataset
		sum any
		err error
	)
	switch format {
	case FormatRates:
		if cycle != 0 {
			return fail(fieldError("cycle", fmt.Errorf("a rates file has no cycles")))
		}
		d, err = dataset.ReadRates(bytes.NewReader(req.Body), dataset.RatesOptions{Name: req.Query.Get("name"), Layout: layout})
		if err == nil {
			sum = map[string]any{"format": format, "pages": len(d.Pages), "sites": len(d.Sites)}
		}
	case FormatChangeEvents:
		opt := dataset.EventLogOptions{Name: req.Query.Get("name"), Layout: layout, CycleLength: cycle, Progress: req.Progress}
		if m := strings.TrimSpace(req.Query.Get("merge")); m != "" {
			if opt.Merge, err = parseMerge(m); err != nil {
				return fail(fieldError("merge", err))
			}
		}
		for _, w := range []struct {
			field string
			t     *time.Time
		}{{"start", &opt.Start}, {"end", &opt.End}} {
			if v := req.Query.Get(w.field); v != "" {
				if *w.t, err = dataset.ParseTime(v); err != nil {
					return fail(fieldError(w.field, err))
				}
			}
		}
		var s *dataset.EventLogSummary
		d, s, err = dataset.ReadEventLog(bytes.NewReader(req.Body), opt)
		sum = s
	default:
		var s *dataset.CrawlLogSummary
		d, s, err = dataset.ReadCrawlLog(bytes.NewReader(req.Body),
			dataset.CrawlLogOptions{Name: req.Query.Get("name"), Format: format, Layout: layout, CycleLength: cycle, Progress: req.Progress})
		sum = s
	}
	if err != nil {
		var pe *dataset.ParseError
		if errors.As(err, &pe) {
			m := map[string]any{
				"error": pe.Error(), "line": pe.Line, "column": pe.Column,
				"field": pe.Field, "expected": pe.Expected, "got": pe.Got,
			}
			for k, v := range map[string]string{"hint": pe.Hint, "sep": pe.Sep, "format": pe.Format} {
				if v != "" {
					m[k] = v
				}
			}
			if pe.Preview != nil {
				m["preview"] = pe.Preview
			}
			return fail(jsonResponse(400, m))
		}
		var oe *dataset.OptionError
		if errors.As(err, &oe) {
			return fail(fieldError(oe.Option, oe.Err))
		}
		return fail(errorResponse(400, "%v", err))
	}
	return d, format, sum, Response{}, true
}

// quotedOr formats names as `"a", "b" or "c"`.
func quotedOr(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// parseSep reads a separator: one character, or "tab".
func parseSep(s string) (rune, error) {
	if strings.EqualFold(s, "tab") || s == `\t` {
		return '\t', nil
	}
	if r, size := utf8.DecodeRuneInString(s); size == len(s) && r != utf8.RuneError {
		return r, nil
	}
	return 0, errors.New(`expected one character, such as ";", or "tab"`)
}

// fieldError is a 400 naming the query field at fault.
func fieldError(field string, err error) Response {
	return jsonResponse(400, map[string]any{"error": field + ": " + err.Error(), "field": field})
}

// parseMerge reads a merge window: "0" or "none" for no merging, else as
// parseCycle reads a cycle length. It returns seconds, negative for none.
func parseMerge(s string) (float64, error) {
	if s == "none" || s == "off" {
		return -1, nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && f == 0 {
		return -1, nil
	}
	secs, err := parseCycle(s)
	if err != nil {
		return 0, errors.New(`expected a duration such as "1h" or "30m", or 0 for no merging`)
	}
	return secs, nil
}

// parseCycle reads a cycle length: a number of seconds, a Go duration
// ("12h", "90m") or a number of days ("1d", "7d").
func parseCycle(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if f <= 0 || f != f {
			return 0, errors.New("expected a positive number of seconds")
		}
		return f, nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		f, err := strconv.ParseFloat(days, 64)
		if err != nil || f <= 0 {
			return 0, errors.New(`expected a positive number of days, such as "1d"`)
		}
		return f * 86400, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, errors.New(`expected seconds, or a duration such as "12h" or "1d"`)
	}
	return d.Seconds(), nil
}
