// Package report turns a run's result into a report a researcher can cite:
// the policies ranked by one metric, each with its mean and 95% interval
// across repeats and its difference to the best policy with that
// difference's 95% interval; the dataset, and the log it was read from
// (its SHA-256 and summary) when there is one; the exact spec; the lab's
// version and the date; and a methods paragraph in plain words saying what
// was run. It renders as Markdown, LaTeX (a booktabs table), CSV and JSON.
// The API (POST /api/report), the command line (refresh-lab run --report)
// and the upload page all build their reports here.
//
// # Differences, and why they are not paired
//
// A policy's repeat r draws its random numbers from its own stream,
// lab.Stream(seed, policy id, r), and the dataset's truth is the same in
// every repeat. So repeat r of policy A and repeat r of policy B share no
// random number: numbering them alike does not make them pairs, and
// pairing them would remove no variance (it would only cost degrees of
// freedom). The difference of two policies' means is therefore given
// Welch's interval for independent means (stat.Welch), which does not
// assume equal variances. The exception is two labelled copies of one
// policy (say, cluster sampling on two feature sets): they share the id,
// so repeat r of each draws the same stream, and they are compared repeat
// by repeat with the paired t interval (stat.Paired) on the per-repeat
// values the lab keeps for them (lab.PolicyResult.Values).
package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/stat"
)

// Log describes the file a dataset was read from, as the page or the
// command line knows it: its name, the SHA-256 of its bytes (hex), and the
// summary POST /api/datasets answered with, as it came.
type Log struct {
	Name    string          `json:"name,omitempty"`
	SHA256  string          `json:"sha256,omitempty"`
	Summary json.RawMessage `json:"summary,omitempty"`
}

// Options says what to report.
type Options struct {
	// Metric is the id of the metric to rank by; "" means the kind's
	// headline (lab.Headline).
	Metric string
	// Reference is the key (id or label) of the policy differences are
	// taken to; "" means the best-ranked policy that does not read the
	// truth (or the best, if every policy does).
	Reference string
	Log       *Log
	Version   string
	Date      time.Time
}

// Report is a ranked comparison of a run's policies on one metric.
type Report struct {
	Title   string       `json:"title"`
	Version string       `json:"version"`
	Date    string       `json:"date"` // YYYY-MM-DD, UTC
	Metric  lab.Metric   `json:"metric"`
	Dataset dataset.Info `json:"dataset"`
	Log     *Log         `json:"log,omitempty"`
	// Reference is the key of the policy every difference is taken to.
	Reference string `json:"reference"`
	Rows      []Row  `json:"rows"`
	// Methods says in a paragraph what was run and how the numbers were
	// computed.
	Methods string `json:"methods"`
	// Table is the ranked table as the page shows it (numbers rounded
	// to their intervals' precision); Rows hold every digit.
	Table Table    `json:"table"`
	Spec  lab.Spec `json:"spec"`
	Work  string   `json:"work"`
}

// Row is one policy of a report, in rank order.
type Row struct {
	Rank   int          `json:"rank"`
	Key    string       `json:"key"` // how the spec addresses it: its label, else its id
	ID     string       `json:"id"`
	Name   string       `json:"name"`
	Oracle bool         `json:"oracle"`
	Params param.Values `json:"params,omitempty"`
	Paper  string       `json:"paper,omitempty"`
	Value  stat.Summary `json:"value"`
	// Diff is Value's mean minus the reference's, with its interval;
	// nil for the reference itself.
	Diff *stat.Difference `json:"diff,omitempty"`
}

// Error is an option a report cannot be made with: Field names it
// ("metric" or "reference").
type Error struct {
	Field, Msg string
}

func (e *Error) Error() string { return e.Msg }

// Rankable lists the metrics of kind a report can rank by: those whose
// better direction is "higher" or "lower".
func Rankable(kind string) []lab.Metric {
	var out []lab.Metric
	for _, m := range lab.Metrics {
		if m.AppliesTo(cmp.Or(kind, lab.KindRefresh)) && (m.Better == "higher" || m.Better == "lower") {
			out = append(out, m)
		}
	}
	return out
}

func metricIDs(ms []lab.Metric) string {
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	return strings.Join(ids, ", ")
}

// New builds the report of res. catalog is the lab's policies, for each
// policy's paper. It fails on a metric the run's kind does not have, or
// one with no better direction, and on an unknown reference.
func New(res *lab.Result, catalog []refresh.Descriptor, opts Options) (*Report, error) {
	if res == nil || len(res.Policies) == 0 {
		return nil, errors.New("the result has no policies to report")
	}
	kind := cmp.Or(res.Spec.Kind, lab.KindRefresh)
	id := cmp.Or(opts.Metric, lab.Headline(kind))
	m, ok := lab.MetricByID(id)
	if !ok || !m.AppliesTo(kind) {
		return nil, &Error{"metric", fmt.Sprintf("unknown metric %q for a %s run (expected one of %s)", id, kind, metricIDs(Rankable(kind)))}
	}
	if m.Better != "higher" && m.Better != "lower" {
		return nil, &Error{"metric", fmt.Sprintf("%s has no better direction to rank by (expected one of %s)", m.ID, metricIDs(Rankable(kind)))}
	}
	r := &Report{
		Version: opts.Version, Metric: m, Dataset: res.Dataset, Log: opts.Log,
		Spec: res.Spec, Work: res.Work,
	}
	if r.Version == "" {
		r.Version = "unknown"
	}
	date := opts.Date
	if date.IsZero() {
		date = time.Now()
	}
	r.Date = date.UTC().Format("2006-01-02")
	r.Title = fmt.Sprintf("%s of %s on %s", m.Name, count(len(res.Policies), "policy", "policies"), res.Dataset.Name)

	order := make([]int, len(res.Policies))
	for i := range order {
		order[i] = i
	}
	// Best first; a policy without a value last; ties keep the spec's order.
	slices.SortStableFunc(order, func(a, b int) int {
		x, y := res.Policies[a].Metric(m.ID).Mean, res.Policies[b].Metric(m.ID).Mean
		switch {
		case math.IsNaN(x) || math.IsNaN(y):
			return cmp.Compare(b2i(math.IsNaN(x)), b2i(math.IsNaN(y)))
		case m.Better == "lower":
			return cmp.Compare(x, y)
		}
		return cmp.Compare(y, x)
	})
	ref := -1
	if opts.Reference != "" {
		ref = slices.IndexFunc(res.Policies, func(p lab.PolicyResult) bool { return p.Key() == opts.Reference })
		if ref < 0 {
			keys := make([]string, len(res.Policies))
			for i, p := range res.Policies {
				keys[i] = p.Key()
			}
			return nil, &Error{"reference", fmt.Sprintf("unknown reference policy %q (expected one of %s)", opts.Reference, strings.Join(keys, ", "))}
		}
	} else {
		for _, i := range order {
			if !res.Policies[i].Oracle {
				ref = i
				break
			}
		}
		if ref < 0 {
			ref = order[0]
		}
	}
	r.Reference = res.Policies[ref].Key()
	papers := map[string]string{}
	for _, d := range catalog {
		papers[d.ID] = d.Paper
	}
	rp := res.Policies[ref]
	for k, i := range order {
		p := res.Policies[i]
		row := Row{Rank: k + 1, Key: p.Key(), ID: p.ID, Name: p.Name, Oracle: p.Oracle, Params: p.Params, Paper: papers[p.ID], Value: p.Metric(m.ID)}
		if i != ref {
			d := difference(p, rp, m.ID)
			row.Diff = &d
		}
		r.Rows = append(r.Rows, row)
	}
	r.Methods = methods(r, res, catalog)
	r.Table = r.table()
	return r, nil
}

// difference is p's mean minus ref's on metric id: paired when the two
// share their random streams (one id) and the run kept their per-repeat
// values, Welch's interval for independent means otherwise; without an
// interval when either side withholds its own (stat.Withheld: a median
// the same in every repeat), rather than an interval of zero width.
func difference(p, ref lab.PolicyResult, id string) stat.Difference {
	a, b := p.Values[id], ref.Values[id]
	if p.ID == ref.ID && len(a) > 0 && len(a) == len(b) {
		d := stat.Paired(a, b)
		if stat.Withheld(p.Metric(id)) || stat.Withheld(ref.Metric(id)) {
			d.Lo, d.Hi, d.SE, d.DF = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		}
		return d
	}
	return stat.Welch(p.Metric(id), ref.Metric(id))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// count writes n and a noun, singular or plural (lab.Count).
var count = lab.Count

// Formats a report renders to.
const (
	FormatMarkdown = "md"
	FormatLaTeX    = "latex"
	FormatCSV      = "csv"
	FormatJSON     = "json"
)

// Formats lists the formats Render takes.
var Formats = []string{FormatMarkdown, FormatLaTeX, FormatCSV, FormatJSON}

// ContentType returns the media type of a format.
func ContentType(format string) string {
	switch format {
	case FormatMarkdown:
		return "text/markdown; charset=utf-8"
	case FormatLaTeX:
		return "application/x-latex; charset=utf-8"
	case FormatCSV:
		return "text/csv; charset=utf-8"
	}
	return "application/json"
}

// Render writes r in format (one of Formats).
func (r *Report) Render(format string) ([]byte, error) {
	switch format {
	case FormatMarkdown:
		return r.Markdown(), nil
	case FormatLaTeX:
		return r.LaTeX(), nil
	case FormatCSV:
		return r.CSV(), nil
	case FormatJSON, "":
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(r); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	return nil, fmt.Errorf("unknown format %q (expected one of %s)", format, strings.Join(Formats, ", "))
}
