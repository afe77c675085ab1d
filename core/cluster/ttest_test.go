package cluster

import (
	"math"
	"testing"

	"github.com/refreshlab/refreshlab/core/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// TestSufficientSampleSize checks the stopping rule against a direct
// computation: for a sample whose standard deviation stays s, the first
// sufficient size is the least m ≥ 2 with t_{(1+c)/2, m−1}·s/√m ≤ δ, found
// here by scanning m with gonum's quantile.
func TestSufficientSampleSize(t *testing.T) {
	cases := []struct{ s, conf, delta float64 }{
		{0.5, 0.8, 0.1}, {0.3, 0.8, 0.05}, {0.5, 0.95, 0.1}, {0.2, 0.9, 0.02}, {0.45, 0.8, 0.2}, {0, 0.8, 0.1},
	}
	tq := make([]float64, 50)
	for _, c := range cases {
		for i := range tq {
			if i > 0 {
				tq[i] = stat.TQuantile((1+c.conf)/2, i)
			}
		}
		want := 0
		for m := 2; want == 0; m++ {
			q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(m - 1)}.Quantile((1 + c.conf) / 2)
			if q*c.s/math.Sqrt(float64(m)) <= c.delta {
				want = m
			}
		}
		got := 0
		for m := 1; got == 0; m++ {
			if Sufficient(m, c.s*c.s, c.conf, c.delta, tq) {
				got = m
			}
		}
		if got != want {
			t.Errorf("s %v, confidence %v, δ %v: sufficient at m = %d, direct computation %d", c.s, c.conf, c.delta, got, want)
		}
	}
}
