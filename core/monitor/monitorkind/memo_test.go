package monitorkind

import (
	"fmt"
	"testing"

	"github.com/refreshlab/refreshlab/core/monitor"
	"github.com/refreshlab/refreshlab/core/synth"
)

// TestRememberedReports runs experiments on a generator's draw through its
// memory of reports, each after one that differs from it in one setting,
// and twice: each report must be the one monitor.Run makes afresh, without
// the draw's remembered changes either, and a remembered one must tell
// progress all its repeats.
func TestRememberedReports(t *testing.T) {
	g, err := model(synth.PandeyCAMDefault)
	if err != nil {
		t.Fatal(err)
	}
	base := monitor.Experiment{Policies: []string{"cam", "weighted-proportional"}, Budget: 900, Repeats: 2, Epochs: 2}
	tracked := func(x *monitor.Experiment) { x.Tracking, x.Reallocate = 3, 1 }
	scheduled := func(x *monitor.Experiment) { x.Scheduler, x.Monitors, x.Capacity = monitor.SchedulerList, 1, 20 }
	// Each test remembers the report of an experiment (from), then asks for
	// one that differs from it in one setting (set, and seed).
	tests := []struct {
		name string
		from func(*monitor.Experiment)
		seed uint64
		set  func(*monitor.Experiment)
	}{
		{"same", nil, 1, nil},
		{"seed", nil, 2, nil},
		{"policies", nil, 1, func(x *monitor.Experiment) { x.Policies = []string{"weighted-proportional", "cam"} }},
		{"budget", nil, 1, func(x *monitor.Experiment) { x.Budget = 2000 }},
		{"repeats", nil, 1, func(x *monitor.Experiment) { x.Repeats = 3 }},
		{"tracking", nil, 1, func(x *monitor.Experiment) { x.Tracking = 1 }},
		{"epochs", nil, 1, func(x *monitor.Experiment) { x.Epochs = 3 }},
		{"reallocate", nil, 1, func(x *monitor.Experiment) { x.Reallocate = 1 }},
		{"window", tracked, 1, func(x *monitor.Experiment) { x.Window = 2 }},
		{"changeTimes", tracked, 1, func(x *monitor.Experiment) { x.ChangeTimes = true }},
		{"reestimate", tracked, 1, func(x *monitor.Experiment) { x.Reestimate = monitor.ReestimatePage }},
		{"scheduler", nil, 1, scheduled},
		{"monitors", scheduled, 1, func(x *monitor.Experiment) { x.Monitors = 2 }},
		{"capacity", scheduled, 1, func(x *monitor.Experiment) { x.Capacity = 5 }},
		{"alpha-point", scheduled, 1, func(x *monitor.Experiment) { x.Scheduler = monitor.SchedulerAlphaPoint }},
	}
	for _, tt := range tests {
		from := base
		if tt.from != nil {
			tt.from(&from)
		}
		if _, err := g.run(from, 1); err != nil {
			t.Fatal(err)
		}
		x := from
		if tt.set != nil {
			tt.set(&x)
		}
		want, err := monitor.Run(monitor.Data{Instance: &g.model.Instance, Sizes: g.model.Size}, x, tt.seed)
		if err != nil {
			t.Fatal(err)
		}
		for pass := range 2 {
			told := 0
			y := x
			y.Progress = func(n int) error { told = n; return nil }
			got, err := g.run(y, tt.seed)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := fmt.Sprintf("%+v", *got), fmt.Sprintf("%+v", *want); a != b {
				t.Errorf("%s, pass %d: report\n%s\nafresh\n%s", tt.name, pass, a, b)
			}
			if told != len(x.Policies)*x.Repeats {
				t.Errorf("%s, pass %d: progress told %d repeats, want %d", tt.name, pass, told, len(x.Policies)*x.Repeats)
			}
		}
	}
}
