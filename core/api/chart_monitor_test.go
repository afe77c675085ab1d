package api

import (
	"math"
	"testing"

	"github.com/refreshlab/refreshlab/core/chart"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/monitor/monitorkind"
)

// TestMonitorCharts draws the monitor kind's chart types from one run with
// a scheduler, a tracking phase and a sweep of the budget: the allocation
// chart's bins add up to each policy's tasks (CAM spends the whole budget),
// the losses chart carries each policy's two losses as the result has
// them, per policy and along the sweep, and the epochs chart has a point
// per monitored epoch. Each draws as SVG.
func TestMonitorCharts(t *testing.T) {
	spec := lab.Spec{Kind: monitorkind.ID, Dataset: lab.DatasetRef{ID: "pandey-cam"}, Budget: 1500, Repeats: 2, Seed: 3,
		Policies: []lab.PolicySpec{{ID: "cam"}, {ID: "weighted-uniform"}},
		Sections: lab.Sections{monitorkind.ID: &monitorkind.Spec{Tracking: 1, Epochs: 3, Reallocate: 1, Scheduler: "list", Monitors: 4, Capacity: 1000}},
		Sweep:    &lab.Sweep{Field: "budget", Values: []float64{500, 1500}}}
	res, err := lab.New().Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{ChartMonitorAllocation, ChartMonitorLosses, ChartMonitorEpochs} {
		if _, err := Chart(res, ChartOptions{Type: typ}); err != nil {
			t.Errorf("%s: %v", typ, err)
		}
	}

	fig, err := Figure(res, ChartOptions{Type: ChartMonitorAllocation})
	if err != nil {
		t.Fatal(err)
	}
	g := fig.(chart.Grouped)
	if len(g.Groups) != 10 || len(g.Series) != 2 || g.Groups[0] != "1–50 (98.9)" {
		t.Fatalf("allocation: groups %q, %d series", g.Groups, len(g.Series))
	}
	var sum float64
	for _, v := range g.Series[0].Values {
		sum += v
	}
	if math.Abs(sum-float64(spec.Budget)) > 1e-9 {
		t.Errorf("cam's bins hold %v tasks, want the budget %d", sum, spec.Budget)
	}

	fig, err = Figure(res, ChartOptions{Type: ChartMonitorLosses})
	if err != nil {
		t.Fatal(err)
	}
	lines := fig.(chart.Line)
	if len(lines.Series) != 4 {
		t.Fatalf("losses along the sweep: %d series", len(lines.Series))
	}
	for i, s := range lines.Series {
		id := []string{"lostInAllocation", "lostInScheduling"}[i%2]
		want := res.Sweep.Policies[i/2].Metrics[id]
		for k := range want {
			if s.Y[k] != want[k].Mean {
				t.Errorf("%s at %v: %v, want %v", s.Name, s.X[k], s.Y[k], want[k].Mean)
			}
		}
	}
	res.Sweep = nil
	fig, err = Figure(res, ChartOptions{Type: ChartMonitorLosses})
	if err != nil {
		t.Fatal(err)
	}
	g = fig.(chart.Grouped)
	for i, p := range res.Policies {
		if g.Series[0].Values[i] != p.Metric("lostInAllocation").Mean || g.Series[1].Values[i] != p.Metric("lostInScheduling").Mean {
			t.Errorf("%s: losses %v and %v", p.ID, g.Series[0].Values[i], g.Series[1].Values[i])
		}
	}

	fig, err = Figure(res, ChartOptions{Type: ChartMonitorEpochs, Metric: "realisedRir"})
	if err != nil {
		t.Fatal(err)
	}
	if l := fig.(chart.Line); len(l.Series) != 2 || len(l.Series[0].X) != 3 {
		t.Errorf("epochs: %+v", l.Series)
	}
}
