package api

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/chart"
	"github.com/refreshlab/refreshlab/core/estimate/estimatekind"
	"github.com/refreshlab/refreshlab/core/lab"
)

// estimateResult runs a small estimate spec swept over the initial interval.
func estimateResult(t *testing.T) *lab.Result {
	t.Helper()
	res, err := lab.New().Run(lab.Spec{Kind: estimatekind.ID, Dataset: lab.DatasetRef{ID: "grimes-ford"}, Repeats: 2, Seed: 4,
		Policies: []lab.PolicySpec{{ID: "mle"}, {ID: "pseudo-mle"}},
		Sections: lab.Sections{estimatekind.ID: &estimatekind.Spec{Pages: 200, Epochs: 8, Crawl: estimatekind.Crawl{PriorStart: true}, Prior: estimatekind.PriorOptions{Steps: 200, Restarts: 2}}},
		Sweep:    &lab.Sweep{Field: "estimate.crawl.initial", Values: []float64{1, 4, 8, 12, 20}}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestEstimateCharts draws every estimate chart type and checks each
// carries what its figure shows.
func TestEstimateCharts(t *testing.T) {
	res := estimateResult(t)
	// The best initial interval is where the MLE's swept MAD is lowest
	// (the first such value): its Best, its fact bestInitial and the
	// sweep chart's one mark. pseudo-mle, starting from its prior, is
	// flat along the sweep and has none.
	mad := res.Sweep.Policies[0].Metrics[estimatekind.MetricMAD]
	if res.Sweep.Policies[0].ID != "mle" || len(mad) != len(res.Sweep.Values) {
		t.Fatalf("sweep series %s: %d MADs for %d values", res.Sweep.Policies[0].ID, len(mad), len(res.Sweep.Values))
	}
	at := 0
	for k, v := range mad {
		if v.Mean < mad[at].Mean {
			at = k
		}
	}
	best := res.Sweep.Values[at]
	if b := estimatekind.PolicyResultOf(res.Policies[0]).Best; b == nil || b.Initial != best {
		t.Fatalf("mle's best run %+v, want one at initial %v", b, best)
	}
	if x, ok := res.Policies[0].Fact(estimatekind.FactBestInitial); !ok || x != best {
		t.Errorf("mle's fact bestInitial %v (%v), want %v", x, ok, best)
	}
	if b := estimatekind.PolicyResultOf(res.Policies[1]).Best; b != nil {
		t.Errorf("pseudo-mle starting from its prior has a best initial interval %v", b.Initial)
	}
	if x, ok := res.Policies[1].Fact(estimatekind.FactBestInitial); ok {
		t.Errorf("pseudo-mle starting from its prior has a fact bestInitial %v", x)
	}
	fig, err := Figure(res, ChartOptions{Type: ChartEstimateSweep})
	if err != nil {
		t.Fatal(err)
	}
	initial := estimatekind.SpecOf(res.Spec).Crawl.Initial
	if line, ok := fig.(chart.Line); !ok || len(line.Marks) != 2 || line.Marks[0].X != best || line.Marks[1].X != initial || !line.Marks[1].Current {
		t.Errorf("estimate-sweep chart %T: marks %+v, want one at %v (mle's minimum) and the run's own %v", fig, line.Marks, best, initial)
	}
	for _, tc := range []struct {
		opts ChartOptions
		want []string
	}{
		{ChartOptions{Type: ChartEstimatePaths, Policies: []string{"mle"}}, []string{"no change observed", "every interval changed", "true period 24 h", "start "}},
		{ChartOptions{Type: ChartEstimateSweep}, []string{"Initial crawl interval (days)", "MLE minimum at " + trimFloat(best)}},
		{ChartOptions{Type: ChartEstimatePrior}, []string{"empirical p(Δ)", "induced by the pseudo-intervals", "Pseudo-intervals: "}},
		{ChartOptions{Type: ChartEstimateEpochs}, []string{"best initial interval", "MLE + pseudo-intervals"}},
		{ChartOptions{Type: ChartEstimateEpochs, Metric: estimatekind.MetricEdgeShare}, []string{"Edge share per crawl epoch"}},
		{ChartOptions{Type: ChartBars, Metric: estimatekind.MetricMAD}, []string{"MAD by policy"}},
	} {
		svg, err := Chart(res, tc.opts)
		if err != nil {
			t.Errorf("%+v: %v", tc.opts, err)
			continue
		}
		for _, w := range tc.want {
			if !bytes.Contains(svg, []byte(w)) {
				t.Errorf("%s chart lacks %q", tc.opts.Type, w)
			}
		}
	}
	if _, err := Chart(res, ChartOptions{Type: ChartEstimateEpochs, Metric: lab.MetricChangeRatio}); err == nil {
		t.Error("an epochs chart of changeRatio drew")
	}
	refresh, err := lab.New().Run(lab.Spec{Dataset: lab.DatasetRef{ID: "alqaaideh-jordan"}, Repeats: 2, Policies: []lab.PolicySpec{{ID: "random"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Chart(refresh, ChartOptions{Type: ChartEstimatePaths}); err == nil || !strings.Contains(err.Error(), "estimate result") {
		t.Errorf("paths chart of a refresh result: %v", err)
	}
}

// TestEstimateExpectedChart draws the naive lesson's chart: mean estimate
// per epoch, its exact expectation and the true rate.
func TestEstimateExpectedChart(t *testing.T) {
	res, err := lab.New().Run(lab.Spec{Kind: estimatekind.ID, Dataset: lab.DatasetRef{ID: "grimes-ford"}, Repeats: 5, Seed: 1,
		Policies: []lab.PolicySpec{{ID: "naive"}, {ID: "cho-garcia-molina"}},
		Sections: lab.Sections{estimatekind.ID: &estimatekind.Spec{Rate: 2, Pages: 100, Epochs: 10, Crawl: estimatekind.Crawl{Mode: "fixed", Initial: 1}}}})
	if err != nil {
		t.Fatal(err)
	}
	svg, err := Chart(res, ChartOptions{Type: ChartEstimateEpochs, Metric: estimatekind.MetricRateEstimate, Expected: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"true rate 2 per day", "Naive X/T (exact expectation)", "Cho &amp; Garcia-Molina (exact expectation)"} {
		if !bytes.Contains(svg, []byte(w)) {
			t.Errorf("chart lacks %q", w)
		}
	}
}

// TestPoliciesListsEstimate checks GET /api/policies lists the estimate
// kind and its estimators with their kind.
func TestPoliciesListsEstimate(t *testing.T) {
	resp := New(lab.New()).Serve(Request{Method: "GET", Path: "/api/policies"})
	var out struct {
		Kinds    []string `json:"kinds"`
		Policies []struct {
			ID, Kind string
		} `json:"policies"`
	}
	if err := json.Unmarshal(resp.Body, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(out.Kinds, ","), estimatekind.ID) {
		t.Errorf("kinds %v", out.Kinds)
	}
	found := false
	for _, p := range out.Policies {
		if p.ID == "pseudo-mle" {
			found = p.Kind == estimatekind.ID
		}
	}
	if !found {
		t.Error("pseudo-mle not listed with kind estimate")
	}
}

func trimFloat(v float64) string {
	b, _ := json.Marshal(v)
	return string(b)
}
