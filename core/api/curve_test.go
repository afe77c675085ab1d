package api

import (
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/cluster"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/param"
)

// TestCurveChart checks that cluster sampling with k = 0 returns the
// cross-validated τ against k it chose by (Tan et al. Fig. 1), one point
// per k up to kMax and the chosen k marked, that the curve chart draws it,
// and that with a given k there is no curve and the chart says so instead
// of failing.
func TestCurveChart(t *testing.T) {
	spec := lab.Spec{Dataset: lab.DatasetRef{ID: "alqaaideh-jordan"}, Cycles: 2, Repeats: 2,
		Policies: []lab.PolicySpec{
			{ID: "cluster-sampling", Params: param.Values{"k": 0.0, "kMax": 12.0, "featureSet": "static"}},
			{ID: "cluster-sampling", Label: "fixed", Params: param.Values{"k": 5.0, "featureSet": "static"}},
		}}
	res, err := lab.New().Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	auto, fixed := res.Policies[0], res.Policies[1]
	if len(fixed.Curves) != 0 {
		t.Errorf("a given k computed curves: %+v", fixed.Curves)
	}
	if len(auto.Curves) != 1 {
		t.Fatalf("k = 0 returned %d curves, want 1", len(auto.Curves))
	}
	c := auto.Curves[0]
	if c.ID != cluster.CurveTau || len(c.X) != 12 || len(c.Y) != 12 || c.X[0] != 1 || c.X[11] != 12 {
		t.Errorf("curve %s over k = %v, want 1 to 12", c.ID, c.X)
	}
	if c.Chosen == nil || *c.Chosen != auto.Params["k"] {
		t.Errorf("curve's choice %v, the policy's k %v", c.Chosen, auto.Params["k"])
	}
	for i, y := range c.Y {
		if !(y > 0 && y <= 1+1e-9) || (i > 0 && y < c.Y[0]-1e-9) {
			t.Errorf("τ per held-out page at k = %v is %v: want it in (0, 1] and not below k = 1's", c.X[i], y)
		}
	}
	fig, err := Figure(res, ChartOptions{Type: ChartCurve})
	if err != nil {
		t.Fatal(err)
	}
	tab := fig.Table()
	svg, _ := fig.SVG()
	if !strings.Contains(string(svg), "chose") || len(tab.Rows) != 12 {
		t.Errorf("the curve chart does not draw the curve and its choice: %d rows", len(tab.Rows))
	}
	fig, err = Figure(res, ChartOptions{Type: ChartCurve, Policies: []string{"fixed"}})
	if err != nil {
		t.Fatalf("a run without curves fails the chart: %v", err)
	}
	if svg, _ := fig.SVG(); !strings.Contains(string(svg), "only when its k is 0") {
		t.Error("the empty curve chart does not say why it is empty")
	}
	if tab := fig.Table(); len(tab.Rows) != 1 || !strings.Contains(tab.Rows[0][0], "only when its k is 0") {
		t.Errorf("the empty curve chart's table %+v does not say why it is empty", tab)
	}
}
