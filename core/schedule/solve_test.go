package schedule

import (
	"math"
	"testing"
)

// TestSolvePlanLinearStepStopsAtASwitch checks that solvePlan's last,
// linear step is not taken across a multiplier where an entry starts or
// stops being synced, where the rates jump rather than follow their
// slopes. Entry 0 spends 1/√ν; entry 1 spends J = 1e-10 below ν = 1 and
// nothing above (as a page with λν/μ reaching 1 does). The root is 1e-10
// to one side of 1 and the solve starts 1e-10 to the other, so a Newton
// step of about 4e-10 crosses the switch: the plan must give entry 1
// exactly what the root does.
func TestSolvePlanLinearStepStopsAtASwitch(t *testing.T) {
	const jump = 1e-10
	for _, tc := range []struct {
		name        string
		root, start float64
	}{
		{"entry 1 stops on the way", 1 + 1e-10, 1 - 1e-10},
		{"entry 1 starts on the way", 1 - 1e-10, 1 + 1e-10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, df := make([]float64, 2), make([]float64, 2)
			eval := func(nu float64) atMultiplier {
				f[0], df[0] = 1/math.Sqrt(nu), -0.5/(nu*math.Sqrt(nu))
				f[1], df[1] = 0, 0
				m := atMultiplier{elasticity: 0.5, lo: 1, hi: math.Inf(1)}
				if nu < 1 {
					f[1] = jump
					m.lo, m.hi = 0, 1
				}
				m.s, m.ds = f[0]+f[1], df[0]
				return m
			}
			want := []float64{1 / math.Sqrt(tc.root), 0}
			if tc.root < 1 {
				want[1] = jump
			}
			budget := want[0] + want[1]
			if !solvePlan(eval, budget, tc.start, f, df, make([]float64, 2), nil) {
				t.Fatal("no plan")
			}
			if f[1] != want[1] || relDiff(f[0], want[0]) > 1e-15 {
				t.Errorf("plan %.17g, want %.17g", f, want)
			}
		})
	}
}
