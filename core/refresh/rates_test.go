package refresh_test

import (
	"math"
	"testing"

	"github.com/refreshlab/refreshlab/core/refresh"
)

// TestSimRates checks both sources of Truth.Rates: the generator's rates
// scaled from changes per day to changes per cycle by Info.CycleLength,
// and otherwise Cho & Garcia-Molina's estimate over every cycle.
func TestSimRates(t *testing.T) {
	// Page 0 changes in 2 of 4 cycles, page 1 never, page 2 always.
	changed := [][]int32{{0, 2}, {2}, {0, 2}, {2}}
	d := tiny(t, 3, changed, nil)
	got := refresh.NewSim(d).Rates()
	want := []float64{-math.Log((4 - 2 + 0.5) / 4.5), 0, -math.Log(0.5 / 4.5)}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-15 {
			t.Errorf("estimated: page %d rate %v, want %v", i, got[i], want[i])
		}
	}
	d.Truth.Rates = []float64{2, 0, 14}
	d.Info.CycleLength = 7 * 86400 // weekly cycles
	got = refresh.NewSim(d).Rates()
	for i, w := range []float64{14, 0, 98} {
		if got[i] != w {
			t.Errorf("from Truth.Rates: page %d rate %v per cycle, want %v", i, got[i], w)
		}
	}
	d.Info.CycleLength = 0 // no set length: the rates per day do not convert
	if got = refresh.NewSim(d).Rates(); got[0] != want[0] {
		t.Errorf("no cycle length: page 0 rate %v, want the estimate %v", got[0], want[0])
	}
}
