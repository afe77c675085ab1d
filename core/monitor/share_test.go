package monitor_test

import (
	"testing"

	"github.com/refreshlab/refreshlab/core/monitor"
	"github.com/refreshlab/refreshlab/core/synth"
)

// TestTasksForShare checks the fewest tasks for a share against CAM's
// allocations on the bundled instance and on a skewed one: CAM with that
// many tasks returns at least the share in expected RIR, and with one task
// fewer less than it.
func TestTasksForShare(t *testing.T) {
	skewed := synth.PandeyCAMDefault
	skewed.Profile, skewed.WeightSkew = "uniform", 1
	for _, c := range []synth.PandeyCAMConfig{synth.PandeyCAMDefault, skewed} {
		m := pandeyCAM(t, c)
		for _, share := range []float64{0.5, 0.9, 0.99} {
			k := monitor.TasksForShare(&m.Instance, share)
			rir := func(budget int) float64 {
				a, err := (monitor.CAM{}).Allocate(&m.Instance, budget, nil)
				if err != nil {
					t.Fatal(err)
				}
				return monitor.RIR(&m.Instance, a)
			}
			if got, before := rir(k), rir(k-1); !(got >= share*(1-1e-12) && before < share) {
				t.Errorf("%s/%s share %v: %d tasks return %v, %d return %v", c.Profile, c.WeightOrder, share, k, got, k-1, before)
			}
		}
	}
	if k := monitor.TasksForShare(&pandeyCAM(t, synth.PandeyCAMDefault).Instance, 0); k != 0 {
		t.Errorf("share 0: %d tasks", k)
	}
}
