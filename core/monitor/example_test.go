package monitor_test

import (
	"fmt"

	"github.com/refreshlab/refreshlab/core/monitor"
)

// Two pages of equal weight over an epoch of four instants: page 0 changes
// at instant 3 with probability 0.8 and seldom elsewhere, page 1 changes
// little. With two tasks CAM monitors page 0 at instant 3 and the best of
// the rest; weighted proportional splits by λ and places its tasks evenly,
// knowing how often a page changes but not when: instants 0 and 2 or 1
// and 3 by its random phase, an expected RIR of (0.2 + 0.9)/2/1.3 = 0.423.
func ExampleRun() {
	in := &monitor.Instance{
		T:      4,
		Times:  monitor.UniformTimes(4, 4),
		Weight: []float64{1, 1},
		Rho: [][]float64{
			{0.1, 0.1, 0.1, 0.8},
			{0.05, 0.05, 0.05, 0.05},
		},
	}
	rep, err := monitor.Run(monitor.Data{Instance: in},
		monitor.Experiment{Policies: []string{"cam", "weighted-proportional"}, Budget: 2, Repeats: 50, Epochs: 1}, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("expected changes %.1f, monitoring-to-change ratio %.2f\n", rep.ExpectedChanges, 2/rep.ExpectedChanges)
	for _, p := range rep.Policies {
		fmt.Printf("%s: RIR %.3f, tasks per page %.1f\n", p.ID, p.Metrics[monitor.MetricRIR].Mean, p.Tasks)
	}
	// Output:
	// expected changes 1.3, monitoring-to-change ratio 1.54
	// cam: RIR 0.692, tasks per page [2.0 0.0]
	// weighted-proportional: RIR 0.423, tasks per page [2.0 0.0]
}
