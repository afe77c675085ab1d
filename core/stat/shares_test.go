package stat_test

import (
	"math"
	"testing"

	"github.com/refreshlab/refreshlab/core/stat"
)

// TestSummarizeShares: shares that differ across repeats are Summarize's;
// none of 200 pages in each of 3 repeats gives Wilson's [0, z²/(600 + z²)];
// all of them its mirror; one repeat has no interval.
func TestSummarizeShares(t *testing.T) {
	z2 := stat.NormalQuantile(0.975) * stat.NormalQuantile(0.975)
	for _, tc := range []struct {
		xs     []float64
		lo, hi float64
	}{
		{[]float64{0.1, 0.2, 0.3}, stat.Summarize([]float64{0.1, 0.2, 0.3}).Lo, stat.Summarize([]float64{0.1, 0.2, 0.3}).Hi},
		{[]float64{0, 0, 0}, 0, z2 / (600 + z2)},
		{[]float64{1, 1, 1}, 600 / (600 + z2), 1},
	} {
		s := stat.SummarizeShares(tc.xs, 200)
		if math.Abs(s.Lo-tc.lo) > 1e-12 || math.Abs(s.Hi-tc.hi) > 1e-12 {
			t.Errorf("SummarizeShares(%v, 200) = [%v, %v], want [%v, %v]", tc.xs, s.Lo, s.Hi, tc.lo, tc.hi)
		}
	}
	if s := stat.SummarizeShares([]float64{0}, 200); s.N != 1 || s.Lo == s.Lo {
		t.Errorf("one repeat: %+v, want no interval", s)
	}
}
