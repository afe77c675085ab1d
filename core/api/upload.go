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
const FormatCrawlLog = "crawl-log"

// upload reads a crawl log from the body and adds it to the lab. Query:
// format (default crawl-log), name (shown as the dataset's name), cycle (the
// cycle length: seconds, or a duration such as 12h or 1d; default inferred).
func (rt *Router) upload(req Request) Response {
	format := req.Query.Get("format")
	if format == "" {
		format = FormatCrawlLog
	}
	if format != FormatCrawlLog {
		return errorResponse(400, "unknown format %q (expected %q)", format, FormatCrawlLog)
	}
	opt := dataset.CrawlLogOptions{Name: req.Query.Get("name"), Progress: req.Progress}
	if c := req.Query.Get("cycle"); c != "" {
		secs, err := parseCycle(c)
		if err != nil {
			return jsonResponse(400, map[string]any{"error": "cycle: " + err.Error(), "field": "cycle"})
		}
		opt.CycleLength = secs
	}
	d, sum, err := dataset.ReadCrawlLog(bytes.NewReader(req.Body), opt)
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
	return jsonResponse(201, map[string]any{"dataset": d.Info, "summary": sum})
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
