package api

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/refreshlab/refreshlab/core/dataset"
)

// Upload formats POST /api/datasets accepts, by the query's "format".
const (
	FormatCrawlLog     = "crawl-log"     // one row per crawl: dataset.ReadCrawlLog
	FormatChangeEvents = "change-events" // one row per change event: dataset.ReadEventLog
)

// upload reads a log from the body and adds it to the lab. Query: format
// (crawl-log, the default, or change-events), name (shown as the dataset's
// name), cycle (the cycle length: seconds, or a duration such as 12h or 1d;
// default inferred for crawl logs, one day for change events); for change
// events also merge (changes of a page closer than this are one: a
// duration, default 1h, 0 for none), start and end (the observation
// window, in any time format logs accept; default the log's first and last
// event).
func (rt *Router) upload(req Request) Response {
	format := req.Query.Get("format")
	if format == "" {
		format = FormatCrawlLog
	}
	if format != FormatCrawlLog && format != FormatChangeEvents {
		return errorResponse(400, "unknown format %q (expected %q or %q)", format, FormatCrawlLog, FormatChangeEvents)
	}
	var cycle float64
	if c := req.Query.Get("cycle"); c != "" {
		secs, err := parseCycle(c)
		if err != nil {
			return fieldError("cycle", err)
		}
		cycle = secs
	}
	var (
		d   *dataset.Dataset
		sum any
		err error
	)
	if format == FormatCrawlLog {
		var s *dataset.CrawlLogSummary
		d, s, err = dataset.ReadCrawlLog(bytes.NewReader(req.Body),
			dataset.CrawlLogOptions{Name: req.Query.Get("name"), CycleLength: cycle, Progress: req.Progress})
		sum = s
	} else {
		opt := dataset.EventLogOptions{Name: req.Query.Get("name"), CycleLength: cycle, Progress: req.Progress}
		if m := strings.TrimSpace(req.Query.Get("merge")); m != "" {
			if opt.Merge, err = parseMerge(m); err != nil {
				return fieldError("merge", err)
			}
		}
		for _, w := range []struct {
			field string
			t     *time.Time
		}{{"start", &opt.Start}, {"end", &opt.End}} {
			if v := req.Query.Get(w.field); v != "" {
				if *w.t, err = dataset.ParseTime(v); err != nil {
					return fieldError(w.field, err)
				}
			}
		}
		var s *dataset.EventLogSummary
		d, s, err = dataset.ReadEventLog(bytes.NewReader(req.Body), opt)
		sum = s
	}
	if err != nil {
		var pe *dataset.ParseError
		if errors.As(err, &pe) {
			return jsonResponse(400, map[string]any{
				"error": pe.Error(), "line": pe.Line, "column": pe.Column,
				"field": pe.Field, "expected": pe.Expected, "got": pe.Got,
			})
		}
		return errorResponse(400, "%v", err)
	}
	rt.lab.AddUpload(d)
	return jsonResponse(201, map[string]any{"dataset": d.Info, "format": format, "summary": sum})
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
