package monitorkind_test

import (
	"math"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/monitor"
	"github.com/refreshlab/refreshlab/core/monitor/monitorkind"
)

func ptr[T any](v T) *T { return &v }

// TestMonitorSweeps sweeps a monitor spec along the budget, θ and the
// re-allocation period: each value's numbers are those of a run of the
// spec with the field set (the runs are deterministic for a seed), and the
// generator's fields redraw the instance: at θ = 0 every page changes
// alike, so Appendix A's unweighted ratio is 1; at θ = 2 it is far above.
func TestMonitorSweeps(t *testing.T) {
	l := lab.New()
	base := monitorSpec(2)
	base.Policies = base.Policies[:2]
	tests := []struct {
		field  string
		values []float64
		set    func(*lab.Spec, float64)
	}{
		{"budget", []float64{500, 2000}, func(s *lab.Spec, v float64) { s.Budget = int(v) }},
		{"monitor.rateSkew", []float64{0, 2}, func(s *lab.Spec, v float64) {
			s.Sections = s.Sections.With(monitorkind.ID, &monitorkind.Spec{RateSkew: &v})
		}},
		{"monitor.reallocate", []float64{1, 3}, func(s *lab.Spec, v float64) {
			s.Sections = s.Sections.With(monitorkind.ID, &monitorkind.Spec{Tracking: 1, Epochs: 3, Reallocate: int(v)})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			spec := base
			if tt.field == "monitor.reallocate" {
				spec.Sections = spec.Sections.With(monitorkind.ID, &monitorkind.Spec{Tracking: 1, Epochs: 3})
			}
			spec.Sweep = &lab.Sweep{Field: tt.field, Values: tt.values}
			res, err := l.Run(spec)
			if err != nil {
				t.Fatal(err)
			}
			sw := res.Sweep
			if sw == nil || len(sw.Policies) != 2 {
				t.Fatalf("sweep %+v", sw)
			}
			for k, v := range tt.values {
				one := base
				tt.set(&one, v)
				want, err := l.Run(one)
				if err != nil {
					t.Fatal(err)
				}
				for i, p := range sw.Policies {
					got, w := p.Metrics[monitor.MetricRIR][k], want.Policies[i].Metric(monitor.MetricRIR)
					if got != w {
						t.Errorf("%s at %v: rir %+v, a run at that value %+v", p.ID, v, got, w)
					}
				}
			}
			if tt.field != "monitor.rateSkew" {
				return
			}
			skewed := sw.Policies[0].Facts[monitorkind.FactAppendixARatioUniform]
			if a, b := *skewed[0], *skewed[1]; math.Abs(a-1) > 1e-9 || !(b > 10) {
				t.Errorf("Appendix A's unweighted ratio at θ = 0 and 2: %v and %v, want 1 and far above", a, b)
			}
		})
	}
}
