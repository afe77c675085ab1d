package lesson

import (
	"math"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
)

// monitorSet returns an edit that sets the lesson spec's generator fields
// and drops its sweep unless keep.
func monitorSet(ms lab.MonitorSpec, keep bool) func(*lab.Spec) {
	return func(s *lab.Spec) {
		s.Monitor = &ms
		if !keep {
			s.Sweep = nil
		}
	}
}

func ptrTo(x float64) *float64 { return &x }

// binTasks sums a policy's tasks over pages [lo, hi).
func binTasks(p lab.PolicyResult, lo, hi int) float64 {
	var s float64
	for _, x := range p.Monitor.Tasks[lo:hi] {
		s += x
	}
	return s
}

// TestClaimsWhereToSpendMonitoringTasks: CAM above weighted proportional
// above weighted uniform all along the sweep; at θ = 2 the first 50 pages
// make almost all the changes and CAM and weighted proportional spend most
// of their tasks there, weighted uniform 90% of its tasks on pages making
// about 1% of them; the ratio for 90% is below the paper's 20 on the
// bundled setting, about 23 with the update skew at 0 and 27 with a
// uniform profile, in the hundreds at θ = 1; skewed weights lift
// weighted uniform most, to about a quarter.
func TestClaimsWhereToSpendMonitoringTasks(t *testing.T) {
	const id = "where-to-spend-monitoring-tasks"
	res := claimRun(t, id, func(s *lab.Spec) { s.Repeats = 10 })
	sw := res.Sweep
	for k, v := range sw.Values {
		cam, wp, wu := sw.Policies[0].Metrics["rir"][k], sw.Policies[1].Metrics["rir"][k], sw.Policies[2].Metrics["rir"][k]
		claim(t, above(cam, wp) && above(wp, wu), "at %v tasks CAM (%.4f) above weighted proportional (%.4f) above weighted uniform (%.4f)", v, cam.Mean, wp.Mean, wu.Mean)
	}

	cam, wp, wu := policyOf(t, res, "cam"), policyOf(t, res, "weighted-proportional"), policyOf(t, res, "weighted-uniform")
	var first, all float64
	for i, x := range res.Monitor.Changes {
		if i < 50 {
			first += x
		}
		all += x
	}
	claim(t, first/all > 0.98, "the first 50 pages make almost all the changes (%.4f)", first/all)
	claim(t, all-first < 0.015*all, "the other 450 make about 1%% (%.4f)", (all-first)/all)
	budget := float64(res.Spec.Budget)
	claim(t, binTasks(cam, 0, 50) > budget/2 && binTasks(wp, 0, 50) > budget/2, "CAM and weighted proportional spend most of their tasks on the first bin (%.0f, %.0f of %v)",
		binTasks(cam, 0, 50), binTasks(wp, 0, 50), budget)
	claim(t, math.Abs(binTasks(wu, 50, 500)/budget-0.9) < 0.01, "weighted uniform spends 90%% of its tasks outside the first bin (%.3f)", binTasks(wu, 50, 500)/budget)

	ratio := func(ms lab.MonitorSpec) float64 {
		r, ok := policyOf(t, claimRun(t, id, monitorSet(ms, false)), "cam").Fact("camRatio90")
		if !ok {
			t.Fatal("no camRatio90")
		}
		return r
	}
	if r := ratio(lab.MonitorSpec{}); !(r < 20) {
		t.Errorf("claim does not hold: the bundled setting reaches 90%% below the paper's 20 (%.2f)", r)
	}
	if r := ratio(lab.MonitorSpec{UpdateSkew: ptrTo(0)}); math.Round(r) != 23 {
		t.Errorf("claim does not hold: update skew 0 needs about 23 (%.2f)", r)
	}
	if r := ratio(lab.MonitorSpec{Profile: "uniform"}); math.Round(r) != 27 {
		t.Errorf("claim does not hold: a uniform profile needs about 27 (%.2f)", r)
	}
	if r := ratio(lab.MonitorSpec{RateSkew: ptrTo(1)}); !(r > 100) {
		t.Errorf("claim does not hold: at θ = 1 the ratio runs into the hundreds (%.2f)", r)
	}

	skewed := claimRun(t, id, func(s *lab.Spec) {
		s.Sweep, s.Repeats = nil, 10
		s.Monitor = &lab.MonitorSpec{WeightSkew: ptrTo(1)}
	})
	gain := func(key string) float64 {
		return policyOf(t, skewed, key).Metric("rir").Mean - policyOf(t, res, key).Metric("rir").Mean
	}
	g := policyOf(t, skewed, "weighted-uniform").Metric("rir")
	claim(t, gain("weighted-uniform") > gain("cam") && gain("weighted-uniform") > gain("weighted-proportional") && math.Abs(g.Mean-0.25) < 0.03,
		"skewed weights lift weighted uniform most, to about a quarter (%.4f; gains %.4f, %.4f, %.4f)", g.Mean, gain("cam"), gain("weighted-proportional"), gain("weighted-uniform"))
}
