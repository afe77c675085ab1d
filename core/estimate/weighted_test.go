package estimate_test

import (
	"math"
	"testing"

	"github.com/refreshlab/refreshlab/core/estimate"
)

func TestWeights(t *testing.T) {
	for _, s := range []estimate.Scheme{estimate.NAD, estimate.SAD, estimate.AAD, estimate.GAD} {
		for _, n := range []int{1, 2, 5, 30, 2000} {
			w := s.Weights(n, nil)
			if len(w) != n {
				t.Fatalf("%v, n = %d: %d weights", s, n, len(w))
			}
			var sum float64
			for i, x := range w {
				sum += x
				switch s {
				case estimate.NAD:
					if x != 1/float64(n) {
						t.Errorf("nad w_%d = %v", i+1, x)
					}
				case estimate.SAD:
					if want := map[bool]float64{true: 1, false: 0}[i == n-1]; x != want {
						t.Errorf("sad w_%d = %v", i+1, x)
					}
				case estimate.AAD: // w_i = i·w_1
					if math.Abs(x-float64(i+1)*w[0]) > 1e-15*x {
						t.Errorf("aad w_%d = %v, w_1 = %v", i+1, x, w[0])
					}
				case estimate.GAD: // w_{i+1} = 2·w_i, exactly (until underflow)
					if i > 0 && w[i-1] != 0 && x != 2*w[i-1] {
						t.Errorf("gad w_%d = %v, w_%d = %v", i+1, x, i, w[i-1])
					}
				}
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Errorf("%v, n = %d: weights sum to %v", s, n, sum)
			}
		}
	}
	if got := estimate.GAD.Weights(3, nil); got[0] != 1.0/7 || got[1] != 2.0/7 || got[2] != 4.0/7 {
		t.Errorf("gad, n = 3: %v, want 1/7, 2/7, 4/7", got)
	}
	if got := estimate.AAD.Weights(4, nil); got[0] != 0.1 || got[3] != 0.4 {
		t.Errorf("aad, n = 4: %v, want 0.1 … 0.4", got)
	}
	if s := estimate.GAD.String() + estimate.Scheme(9).String(); s != "gadunknown" {
		t.Errorf("String: %q", s)
	}
}

// TestWeightedHand checks eq. 5 on a hand history: four daily cycles,
// changes in cycles 1, 3 and 4 (oldest first).
func TestWeightedHand(t *testing.T) {
	ts := []float64{1, 1, 1, 1}
	zs := []bool{true, false, true, true}
	h := &estimate.History{}
	for i := range ts {
		_ = h.Add(ts[i], zs[i])
	}
	irregular := &estimate.History{} // the same changes, every other day two days long
	for i := range ts {
		_ = irregular.Add([]float64{1, 2, 1, 2}[i], zs[i])
	}
	tests := []struct {
		name string
		est  estimate.Estimator
		h    *estimate.History
		want estimate.Result
	}{
		{"nad: 3 of 4 cycles", estimate.Weighted{Scheme: estimate.NAD}, h, estimate.Result{Rate: 0.75}},
		{"sad: the last cycle changed", estimate.Weighted{Scheme: estimate.SAD}, h, estimate.Result{Rate: 1, Edge: estimate.AllChanged}},
		{"aad: (1+3+4)/10", estimate.Weighted{Scheme: estimate.AAD}, h, estimate.Result{Rate: 0.8}},
		{"gad: (1+4+8)/15", estimate.Weighted{Scheme: estimate.GAD}, h, estimate.Result{Rate: 13.0 / 15}},
		{"nad as printed: 0.75/4", estimate.Weighted{Scheme: estimate.NAD, AsPrinted: true}, h, estimate.Result{Rate: 0.75 / 4}},
		{"aad, irregular: 0.8/(0.1+0.4+0.3+0.8)", estimate.Weighted{Scheme: estimate.AAD}, irregular, estimate.Result{Rate: 0.5}},
		{"nad, irregular: the naive X/T", estimate.Weighted{Scheme: estimate.NAD}, irregular, estimate.Result{Rate: 0.5}},
		{"nad over the last 2: both changed", estimate.Weighted{Scheme: estimate.NAD, Window: 2}, irregular, estimate.Result{Rate: 2.0 / 3, Edge: estimate.AllChanged}},
		{"D/V, V = 3: 2 of the last 3", estimate.DOverV{V: 3}, h, estimate.Result{Rate: 2.0 / 3}},
		{"D/V, V = 10 > n: divide by the 4 observed", estimate.DOverV{V: 10}, h, estimate.Result{Rate: 0.75}},
		{"D/V, V = 1: the last one", estimate.DOverV{V: 1}, irregular, estimate.Result{Rate: 0.5, Edge: estimate.AllChanged}},
		{"D/V, V = 0: the whole history", estimate.DOverV{}, irregular, estimate.Result{Rate: 0.5}},
	}
	for _, tt := range tests {
		got := tt.est.Estimate(tt.h)
		if got.Edge != tt.want.Edge || math.Abs(got.Rate-tt.want.Rate) > 1e-15 {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
	none := &estimate.History{}
	_ = none.Add(1, false)
	_ = none.Add(1, false)
	if got := (estimate.Weighted{Scheme: estimate.GAD}).Estimate(none); got != (estimate.Result{Edge: estimate.NoChange}) {
		t.Errorf("nothing changed: %+v", got)
	}
}

// TestWeightedAsPrinted shows why we drop eq. 5's /n: as printed, a page
// that changes in every other cycle gets a rate that shrinks as its history
// grows, while our reading stays at the fraction of cycles that changed.
func TestWeightedAsPrinted(t *testing.T) {
	for _, n := range []int{4, 40, 400} {
		h := &estimate.History{}
		for i := range n {
			_ = h.Add(1, i%2 == 1)
		}
		if got := (estimate.Weighted{}).Estimate(h).Rate; math.Abs(got-0.5) > 1e-13 {
			t.Errorf("n = %d: %v, want 0.5", n, got)
		}
		if got := (estimate.Weighted{AsPrinted: true}).Estimate(h).Rate; math.Abs(got-0.5/float64(n)) > 1e-13/float64(n) {
			t.Errorf("n = %d, as printed: %v, want 0.5/n", n, got)
		}
	}
}
