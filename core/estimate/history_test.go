package estimate_test

import (
	"errors"
	"math"
	"testing"

	"github.com/refreshlab/refreshlab/core/estimate"
)

func TestHistoryAdd(t *testing.T) {
	h := &estimate.History{}
	for _, bad := range []float64{0, -1, math.NaN(), math.Inf(1), math.Inf(-1), 5e-324, 1e-10, 2e9, math.MaxFloat64} {
		if err := h.Add(bad, true); !errors.Is(err, estimate.ErrInterval) {
			t.Errorf("Add(%g) = %v, want ErrInterval", bad, err)
		}
	}
	if h.Len() != 0 {
		t.Fatalf("refused intervals were kept: %d", h.Len())
	}
	for _, good := range []float64{estimate.MinInterval, estimate.MaxInterval, 1} {
		if err := h.Add(good, false); err != nil {
			t.Errorf("Add(%g) = %v", good, err)
		}
	}
	_ = h.Add(0.5, true)
	_ = h.Add(2, true)
	if h.Len() != 5 || h.Changes() != 2 || h.Shortest() != estimate.MinInterval ||
		h.Total() != estimate.MinInterval+estimate.MaxInterval+3.5 || h.Unchanged() != estimate.MinInterval+estimate.MaxInterval+1 {
		t.Errorf("n %d, X %d, min %g, T %g, unchanged %g", h.Len(), h.Changes(), h.Shortest(), h.Total(), h.Unchanged())
	}
	if x, z := h.At(3); x != 0.5 || !z {
		t.Errorf("At(3) = %v, %v", x, z)
	}
	if h.Regular() {
		t.Error("irregular history reported regular")
	}
	h.Reset()
	if h.Len() != 0 || h.Changes() != 0 || h.Total() != 0 || h.Shortest() != 0 || !h.Regular() {
		t.Errorf("after Reset: n %d, X %d, T %g", h.Len(), h.Changes(), h.Total())
	}
	_ = h.Add(3, false)
	_ = h.Add(3, true)
	if !h.Regular() || h.Shortest() != 3 {
		t.Errorf("regular history: Regular %v, Shortest %v", h.Regular(), h.Shortest())
	}
}

// Every estimator answers an empty history without panicking, with a
// documented result.
func TestEmptyHistory(t *testing.T) {
	prior := estimate.Dist{Edges: []float64{0, 1, 3}, Mass: []float64{1, 3}}
	pm, _ := estimate.NewPosteriorMean(prior)
	mode, _ := estimate.NewPosteriorMode(prior)
	empty := estimate.Result{Edge: estimate.Empty}
	for _, tc := range []struct {
		name string
		est  estimate.Estimator
		want estimate.Result
	}{
		{"naive", estimate.Naive{}, empty},
		{"cgm", estimate.ChoGarciaMolina{}, empty},
		{"mle", estimate.MLE{}, empty},
		{"weighted", estimate.Weighted{Scheme: estimate.GAD}, empty},
		{"d/v", estimate.DOverV{V: 3}, empty},
		{"pseudo", estimate.PseudoMLE{}, estimate.Result{Rate: 2 * math.Ln2}},
		{"posterior mean: the prior mean of λ", pm, estimate.Result{Rate: 0.25*2 + 0.75*0.5}},
		{"posterior mode: the prior mode", mode, estimate.Result{Rate: 0.5}},
		{"zero PosteriorMean", estimate.PosteriorMean{}, empty},
	} {
		got := tc.est.Estimate(&estimate.History{})
		if got.Edge != tc.want.Edge || math.Abs(got.Rate-tc.want.Rate) > 1e-15 {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestResultPeriod(t *testing.T) {
	if p := (estimate.Result{Rate: 4}).Period(); p != 0.25 {
		t.Errorf("Period of 4/day = %v", p)
	}
	if p := (estimate.Result{}).Period(); !math.IsInf(p, 1) {
		t.Errorf("Period of 0 = %v", p)
	}
	for e, s := range map[estimate.Edge]string{estimate.None: "none", estimate.NoChange: "no change", estimate.AllChanged: "all changed", estimate.Empty: "empty", 9: "unknown"} {
		if e.String() != s {
			t.Errorf("%d.String() = %q", e, e.String())
		}
	}
}
