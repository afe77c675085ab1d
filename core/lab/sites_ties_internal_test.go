package lab

import (
	"math"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/stat"
)

// TestSiteEstimateTies checks a site estimate that came out the same in
// every repeat: exact, with a zero-width interval, when it is the truth;
// without an interval when it is not.
func TestSiteEstimateTies(t *testing.T) {
	tally := newSiteTally([]float64{0, 0.25, 0.5}, 3, 2)
	for r := range 2 {
		copy(tally.sum, []float64{0, 1.0 / 3, 0.4 + 0.2*float64(r)})
		copy(tally.count, []int{1, 1, 1})
		tally.endRepeat(r)
	}
	s := tally.result(&dataset.Dataset{})
	for w, want := range []bool{true, false, true} {
		for _, sum := range []stat.Summary{s.Estimate[w], s.Accuracy[w]} {
			if got := !math.IsNaN(sum.Lo) && !math.IsNaN(sum.Hi); got != want {
				t.Errorf("site %d: %+v has an interval %v, want %v", w, sum, got, want)
			}
		}
	}
	if s.Estimate[0].Lo != 0 || s.Estimate[0].Hi != 0 {
		t.Errorf("a site that never changed, estimated 0 in every repeat: %+v, want the exact [0, 0]", s.Estimate[0])
	}
}
