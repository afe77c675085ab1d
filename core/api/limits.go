package api

import (
	"fmt"
	"unicode/utf8"

	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/schedule/schedulekind"
)

// Limits on what a client sends to be drawn or reported, so that one
// request cannot hold the server for long: a result is drawn in time
// proportional to its numbers, and its names and a chart's labels are
// written into the answer.
const (
	// MaxResultBytes bounds the body of any request but an upload (see
	// BodyLimit). Only a result sent back whole to be drawn or reported
	// comes near it; its id or its spec is short.
	MaxResultBytes = 8 << 20
	// MaxResultPoints bounds the numbers of a result sent to be drawn or
	// reported: its series, sweeps, per-repeat values and allocations.
	MaxResultPoints = 500_000
	// MaxRefs bounds a chart's reference lines.
	MaxRefs = 20
	// MaxLogSummary bounds, in bytes, the upload summary a report request
	// carries (a few hundred bytes as POST /api/datasets answers it).
	MaxLogSummary = 64 << 10
)

// checkResult answers 400 for a result sent by a client that holds more
// numbers than MaxResultPoints or a name longer than MaxName.
func checkResult(res *lab.Result) (Response, bool) {
	if res == nil {
		return Response{}, true
	}
	points := 0
	names := []struct{ field, s string }{{"result.dataset.id", res.Dataset.ID}, {"result.dataset.name", res.Dataset.Name}}
	for i, p := range res.Policies {
		for _, s := range p.Series {
			points += 3 * len(s)
		}
		for _, v := range p.Values {
			points += len(v)
		}
		points += len(p.Metrics) + len(p.Facts)
		names = append(names,
			struct{ field, s string }{fmt.Sprintf("result.policies[%d].id", i), p.ID},
			struct{ field, s string }{fmt.Sprintf("result.policies[%d].label", i), p.Label},
			struct{ field, s string }{fmt.Sprintf("result.policies[%d].name", i), p.Name})
	}
	if sw := res.Sweep; sw != nil {
		points += len(sw.Values)
		for i, p := range sw.Policies {
			for _, m := range p.Metrics {
				points += 3 * len(m)
			}
			for _, f := range p.Facts {
				points += len(f)
			}
			names = append(names, struct{ field, s string }{fmt.Sprintf("result.sweep.policies[%d].name", i), p.Name})
		}
	}
	if s := schedulekind.ResultOf(res); s != nil {
		points += len(s.TrueRates)
	}
	if points > MaxResultPoints {
		return jsonResponse(400, map[string]any{"error": fmt.Sprintf("a result of %d numbers: at most %d can be drawn here; send its id, or its spec, rather than the result", points, MaxResultPoints), "field": "result"}), false
	}
	for _, n := range names {
		if c := utf8.RuneCountInString(n.s); c > MaxName {
			return jsonResponse(400, map[string]any{"error": fmt.Sprintf("a name of %d characters: at most %d", c, MaxName), "field": n.field}), false
		}
	}
	return Response{}, true
}

// checkChartOptions answers 400 for a chart's title or reference label
// past MaxName characters, or more than MaxRefs reference lines.
func checkChartOptions(o ChartOptions) (Response, bool) {
	if c := utf8.RuneCountInString(o.Title); c > MaxName {
		return jsonResponse(400, map[string]any{"error": fmt.Sprintf("a title of %d characters: at most %d", c, MaxName), "field": "chart.title"}), false
	}
	if len(o.Refs) > MaxRefs {
		return jsonResponse(400, map[string]any{"error": fmt.Sprintf("%d reference lines: at most %d", len(o.Refs), MaxRefs), "field": "chart.refs"}), false
	}
	for i, r := range o.Refs {
		if c := utf8.RuneCountInString(r.Label); c > MaxName {
			return jsonResponse(400, map[string]any{"error": fmt.Sprintf("a label of %d characters: at most %d", c, MaxName), "field": fmt.Sprintf("chart.refs[%d].label", i)}), false
		}
	}
	return Response{}, true
}
