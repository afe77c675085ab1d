package api

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/schedule/schedulekind"
)

// TestScheduleDoneWhen runs, through the API, Cho & Garcia-Molina's five
// pages (λ = 1..5 changes a day; SIGMOD 2000, TODS 2003) at 5 syncs a day.
// The paper's table: mean freshness 0.374 optimal, 0.365 uniform, 0.317
// proportional; the optimal allocation f = 1.15, 1.36, 1.35, 1.14, 0. Each
// time-averaged freshness must lie within 4 standard errors (from the
// reported spread across repeats; a false failure has probability about
// 6e-5 per policy) plus the table's rounding (0.0005) of the paper's
// figure, and within 0.005; the optimal allocation, a deterministic plan
// from the true rates, within the rounding of the table's two decimals.
func TestScheduleDoneWhen(t *testing.T) {
	rt := New(lab.New())
	resp, _ := serve(rt, "POST", "/api/run", "", `{"kind":"schedule","dataset":{"id":"cho-garcia-molina-5"},"budget":5,"seed":1,"policies":[{"id":"cho-optimal-freshness"},{"id":"uniform"},{"id":"proportional"}]}`)
	if resp.Status != 200 {
		t.Fatalf("status %d: %s", resp.Status, resp.Body)
	}
	var res lab.Result
	if err := json.Unmarshal(resp.Body, &res); err != nil {
		t.Fatal(err)
	}
	want := []float64{0.374, 0.365, 0.317}
	for i, p := range res.Policies {
		f := p.Metric(lab.MetricFreshness)
		se := f.SD / math.Sqrt(float64(f.N))
		tol := 4*se + 0.0005
		if tol > 0.005 {
			t.Errorf("%s: standard error %.5f too large for the done-when precision", p.ID, se)
		}
		if d := math.Abs(f.Mean - want[i]); d > tol {
			t.Errorf("%s: freshness %.4f, Cho & Garcia-Molina (2003): %.3f (|diff| %.4f > %.4f)", p.ID, f.Mean, want[i], d, tol)
		}
		if !p.Oracle && p.ID != "uniform" {
			t.Errorf("%s: planned with the true rates but not labelled an oracle", p.ID)
		}
	}
	alloc := schedulekind.PolicyResultOf(res.Policies[0]).Allocation
	for i, w := range []float64{1.15, 1.36, 1.35, 1.14, 0} {
		if d := math.Abs(alloc[i].Mean - w); d > 0.005 {
			t.Errorf("optimal allocation of page %d: %.4f, Cho & Garcia-Molina (2003): %.2f", i+1, alloc[i].Mean, w)
		}
	}
	if alloc[4].Mean != 0 {
		t.Errorf("the fastest page gets %v syncs a day, want exactly 0", alloc[4].Mean)
	}
}

// TestSchedulePoliciesListed checks GET /api/policies lists the schedule
// kind and its catalog.
func TestSchedulePoliciesListed(t *testing.T) {
	rt := New(lab.New())
	_, m := serve(rt, "GET", "/api/policies", "", "")
	kinds := map[string]bool{}
	for _, p := range m["policies"].([]any) {
		d := p.(map[string]any)
		if d["kind"] == schedulekind.ID {
			kinds[d["id"].(string)] = true
		}
	}
	for _, id := range []string{"cho-optimal-freshness", "cho-optimal-age", "uniform", "proportional", "azar", "lambda-crawl", "lambda-crawl-approx", "olston-pandey", "nutch", "heritrix", "stormcrawler"} {
		if !kinds[id] {
			t.Errorf("GET /api/policies lacks schedule %q", id)
		}
	}
}

// TestScheduleCharts draws the schedule charts: the allocation, and bars
// with exact expectations, where the freshness optimum's infinite age has
// none; and checks a sweep of the budget draws.
func TestScheduleCharts(t *testing.T) {
	l := lab.New()
	spec := lab.Spec{Kind: schedulekind.ID, Dataset: lab.DatasetRef{ID: "cho-garcia-molina-5"}, Budget: 5, Seed: 1, Repeats: 3,
		Sections: lab.Sections{schedulekind.ID: &schedulekind.Spec{Days: 50}}, Policies: []lab.PolicySpec{{ID: "cho-optimal-freshness"}, {ID: "uniform"}, {ID: "nutch"}},
		Sweep: &lab.Sweep{Field: "budget", Values: []float64{2, 10}}}
	res, err := l.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []ChartOptions{
		{Type: ChartAllocation},
		{Type: ChartBars, Metric: lab.MetricAge, Expected: true},
		{Type: ChartBars, Metric: schedulekind.MetricHarmonic, Expected: true},
		{Type: ChartBars, Metric: lab.MetricFreshness},
		{Type: ChartSweep, Metric: lab.MetricFreshness},
	} {
		svg, err := Chart(res, o)
		if err != nil || !strings.Contains(string(svg), "<svg") {
			t.Errorf("%s %s: %v", o.Type, o.Metric, err)
		}
	}
}
