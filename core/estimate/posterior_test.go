package estimate_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/refreshlab/refreshlab/core/estimate"
)

// TestPosteriorTinyPrior checks §4.3's posterior on a two-point prior by
// hand: P(Δ = 0.5 day) = 1/4 and P(Δ = 2 days) = 3/4, so λ ∈ {2, 0.5} per
// day, and a history of one changed day then two unchanged days, with
// likelihood L(λ) = (1 − e^{−λ})·e^{−2λ}.
func TestPosteriorTinyPrior(t *testing.T) {
	prior := estimate.Dist{Edges: []float64{0, 1, 3}, Mass: []float64{1, 3}} // unnormalised
	h := &estimate.History{}
	_ = h.Add(1, true)
	_ = h.Add(2, false)
	l := func(lam float64) float64 { return (1 - math.Exp(-lam)) * math.Exp(-2*lam) }
	a, b := 0.25*l(2), 0.75*l(0.5) // 0.25·0.8647·0.01832 = 0.00396, 0.75·0.3935·0.3679 = 0.1086
	wantMean := (a*2 + b*0.5) / (a + b)
	pm, err := estimate.NewPosteriorMean(prior)
	if err != nil {
		t.Fatal(err)
	}
	if got := pm.Estimate(h); got.Edge != estimate.None || math.Abs(got.Rate-wantMean) > 1e-14 || math.Abs(got.Rate-0.5528) > 5e-5 {
		t.Errorf("posterior mean %+v, want %v (≈ 0.5528)", got, wantMean)
	}
	mode, _ := estimate.NewPosteriorMode(prior)
	if got := mode.Estimate(h); got.Rate != 0.5 {
		t.Errorf("posterior mode %+v, want 0.5", got)
	}
	// Five changes in five one-hour intervals move the mode to λ = 2.
	for range 5 {
		_ = h.Add(estimate.Hour, true)
	}
	if got := mode.Estimate(h); got.Rate != 2 {
		t.Errorf("posterior mode after five hourly changes %+v, want 2", got)
	}
}

// TestTrackerMatchesEstimate checks that folding observations in one at a
// time gives the batch posterior.
func TestTrackerMatchesEstimate(t *testing.T) {
	prior := estimate.Dist{Edges: estimate.HourlyEdges(20), Mass: make([]float64, 480)}
	for k := range prior.Mass {
		prior.Mass[k] = math.Exp(-float64(k) / 100)
	}
	pm, _ := estimate.NewPosteriorMean(prior)
	mode, _ := estimate.NewPosteriorMode(prior)
	rng := rand.New(rand.NewPCG(1, 1))
	for _, est := range []estimate.Sequential{pm, mode} {
		tr := est.NewTracker()
		for range 20 {
			h := &estimate.History{}
			tr.Reset()
			for range rng.IntN(30) {
				x, z := 0.1+3*rng.Float64(), rng.IntN(3) == 0
				_ = h.Add(x, z)
				if err := tr.Observe(x, z); err != nil {
					t.Fatal(err)
				}
				got, want := tr.Result(), est.Estimate(h)
				if got.Edge != want.Edge || math.Abs(got.Rate-want.Rate) > 1e-12*want.Rate {
					t.Fatalf("tracker %+v, batch %+v", got, want)
				}
			}
		}
		if err := tr.Observe(0, true); err == nil {
			t.Error("tracker accepted a zero interval")
		}
	}
	if got := (estimate.PosteriorMean{}).NewTracker().Result(); got.Edge != estimate.Empty {
		t.Errorf("zero PosteriorMean's tracker: %+v", got)
	}
}

// TestPosteriorNeverEdge checks that a proper prior answers the MLE's edge
// cases inside the prior's range, between its shortest and longest periods.
func TestPosteriorNeverEdge(t *testing.T) {
	prior := estimate.Dist{Edges: estimate.LogEdges(estimate.Hour, 365, 200), Mass: make([]float64, 200)}
	for k := range prior.Mass {
		prior.Mass[k] = 1
	}
	lo, hi := 1/prior.Point(199), 1/prior.Point(0)
	pm, _ := estimate.NewPosteriorMean(prior)
	for _, z := range []bool{false, true} {
		h := &estimate.History{}
		for range 10 {
			_ = h.Add(1, z)
		}
		got := pm.Estimate(h)
		if got.Edge != estimate.None || !(got.Rate > lo && got.Rate < hi) {
			t.Errorf("all %v: %+v, want within (%g, %g)", z, got, lo, hi)
		}
	}
}

func TestDistAndHistogram(t *testing.T) {
	e := estimate.HourlyEdges(1)
	if len(e) != 25 || e[24] != 1 || e[1] != estimate.Hour {
		t.Errorf("HourlyEdges(1) = %d edges ending %v", len(e), e[len(e)-1])
	}
	if e := estimate.HourlyEdges(1.5 * estimate.Hour); len(e) != 3 {
		t.Errorf("HourlyEdges(1.5 h) has %d edges, want 3", len(e))
	}
	l := estimate.LogEdges(0.01, 100, 4)
	if l[0] != 0.01 || l[4] != 100 || math.Abs(l[2]-1) > 1e-15 {
		t.Errorf("LogEdges(0.01, 100, 4) = %v", l)
	}
	d, outside, err := estimate.Histogram([]float64{0, 1, 2, 4}, []float64{0.5, 1, 1.5, 3, 3.9, 4, 7, -1})
	if err != nil || outside != 3 {
		t.Fatalf("Histogram: %v, %d outside", err, outside)
	}
	if d.Mass[0] != 1.0/8 || d.Mass[1] != 2.0/8 || d.Mass[2] != 2.0/8 {
		t.Errorf("masses %v, want 1/8, 2/8, 2/8 (3/8 outside)", d.Mass)
	}
	if d.Point(2) != 3 {
		t.Errorf("Point(2) = %v", d.Point(2))
	}
	if _, _, err := estimate.Histogram([]float64{0, 1}, []float64{5}); err == nil {
		t.Error("a histogram with nothing inside was accepted")
	}
	for _, bad := range []estimate.Dist{
		{},
		{Edges: []float64{0, 1}, Mass: []float64{1, 1}},
		{Edges: []float64{0, 2, 1}, Mass: []float64{1, 1}},
		{Edges: []float64{-1, 1}, Mass: []float64{1}},
		{Edges: []float64{0, 2e9}, Mass: []float64{1}},
		{Edges: []float64{0, 1e-10}, Mass: []float64{1}},
		{Edges: []float64{0, 1}, Mass: []float64{math.NaN()}},
		{Edges: []float64{0, 1}, Mass: []float64{-1}},
		{Edges: []float64{0, 1}, Mass: []float64{0}},
		{Edges: []float64{0, 1, 2}, Mass: []float64{math.MaxFloat64, math.MaxFloat64}},
	} {
		if err := bad.Check(); err == nil {
			t.Errorf("%+v passed Check", bad)
		}
		if _, err := estimate.NewPosteriorMean(bad); err == nil {
			t.Errorf("%+v made a posterior", bad)
		}
	}
}
