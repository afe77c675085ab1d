package api

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/report"
	"github.com/refreshlab/refreshlab/core/version"
)

// ReportRequest is the body of POST /api/report: a result (by id, itself,
// or a spec to run), what to rank it by, the log it ran on, and the format
// to answer in.
type ReportRequest struct {
	ID     string      `json:"id,omitempty"`
	Result *lab.Result `json:"result,omitempty"`
	Spec   *lab.Spec   `json:"spec,omitempty"`
	// Metric ranks the policies; "" means the kind's headline.
	Metric string `json:"metric,omitempty"`
	// Reference is the policy (id or label) differences are taken to;
	// "" means the best that does not read the truth.
	Reference string `json:"reference,omitempty"`
	// Log is the file the dataset was read from: its name, SHA-256 and
	// the summary POST /api/datasets answered.
	Log *report.Log `json:"log,omitempty"`
	// Format is "md", "latex", "csv" or "json" (the default).
	Format string `json:"format,omitempty"`
	// Date is the report's date, YYYY-MM-DD; "" means today (UTC).
	Date string `json:"date,omitempty"`
}

// report answers POST /api/report with the report of a result, in the
// format asked for, under that format's content type.
func (rt *Router) report(req Request) Response {
	var rr ReportRequest
	if resp, ok := decode(req.Body, &rr); !ok {
		return resp
	}
	format := rr.Format
	if format == "" {
		format = report.FormatJSON
	}
	if !slices.Contains(report.Formats, format) {
		return jsonResponse(400, map[string]any{"error": fmt.Sprintf("unknown format %q (expected one of %s)", rr.Format, strings.Join(report.Formats, ", ")), "field": "format"})
	}
	var date time.Time
	if rr.Date != "" {
		var err error
		if date, err = time.Parse("2006-01-02", rr.Date); err != nil {
			return jsonResponse(400, map[string]any{"error": fmt.Sprintf("date %q: expected YYYY-MM-DD", rr.Date), "field": "date"})
		}
	}
	if rr.Log != nil {
		if c := utf8.RuneCountInString(rr.Log.Name); c > MaxName {
			return jsonResponse(400, map[string]any{"error": fmt.Sprintf("a name of %d characters: at most %d", c, MaxName), "field": "log.name"})
		}
		if n := len(rr.Log.Summary); n > MaxLogSummary {
			return jsonResponse(400, map[string]any{"error": fmt.Sprintf("a summary of %d bytes: at most %d", n, MaxLogSummary), "field": "log.summary"})
		}
	}
	if rr.Log != nil && rr.Log.SHA256 != "" && !isSHA256(rr.Log.SHA256) {
		return jsonResponse(400, map[string]any{"error": "log.sha256: expected 64 hexadecimal digits", "field": "log.sha256"})
	}
	res, resp, ok := rt.resultOf(req, rr.ID, rr.Result, rr.Spec)
	if !ok {
		return resp
	}
	r, err := report.New(res, rt.lab.Policies(), report.Options{
		Metric: rr.Metric, Reference: rr.Reference, Log: rr.Log, Version: version.String(), Date: date,
	})
	if err != nil {
		var re *report.Error
		if errors.As(err, &re) {
			return jsonResponse(400, map[string]any{"error": re.Msg, "field": re.Field})
		}
		return errorResponse(400, "%v", err)
	}
	body, err := r.Render(format)
	if err != nil {
		return errorResponse(500, "%v", err)
	}
	return Response{Status: 200, ContentType: report.ContentType(format), Body: body}
}

// isSHA256 reports whether s is a SHA-256 digest in hex.
func isSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// forestChart draws a result's report as a forest plot: the policies the
// options name (all by default), ranked by the options' metric (the
// kind's headline by default).
func forestChart(res *lab.Result, opts ChartOptions) (figure, error) {
	if len(opts.Policies) > 0 {
		cp := *res
		cp.Policies = nil
		for _, p := range res.Policies {
			if slices.Contains(opts.Policies, p.Key()) {
				cp.Policies = append(cp.Policies, p)
			}
		}
		res = &cp
	}
	r, err := report.New(res, nil, report.Options{Metric: opts.Metric})
	if err != nil {
		return nil, err
	}
	return r.Forest(opts.Title, opts.Width), nil
}
