package lesson

import (
	"math"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/monitor/monitorkind"
)

// TestClaimsMonitoringIsNotCrawling: 500 pages of equal weight change
// about 100 times an epoch, most of it on a few pages, so 5,000 tasks are a
// monitoring-to-change ratio of about 50; the appendix ratio with equal
// weights is N Σλ²/(Σλ)²; weighted proportional would give the busiest
// page about 3,000 of the 5,000 tasks, more than its 480 instants; at
// 5,000 tasks CAM returns more than weighted proportional, which returns
// more than weighted uniform, and weighted uniform about 10 of 480, some
// 2%; the simulation's quotient comes near the appendix's at 1,000 tasks
// and far below it at 5,000; at 1,000 tasks weighted proportional's
// realised RIR beats CAM's.
func TestClaimsMonitoringIsNotCrawling(t *testing.T) {
	const id = "monitoring-is-not-crawling"
	res := claimRun(t, id, nil)
	cam, wp, wu := policyOf(t, res, "cam"), policyOf(t, res, "weighted-proportional"), policyOf(t, res, "weighted-uniform")
	fact := func(p lab.PolicyResult, id string) float64 {
		x, ok := p.Fact(id)
		if !ok {
			t.Fatalf("no fact %s", id)
		}
		return x
	}

	lambda := monitorkind.ResultOf(res).Changes
	var sum, sq, top float64
	for i, x := range lambda {
		sum += x
		sq += x * x
		if i < 10 {
			top += x
		}
	}
	claim(t, len(lambda) == 500, "500 pages (%d)", len(lambda))
	claim(t, fact(cam, "totalInformation") == fact(cam, "expectedChanges") && fact(cam, "appendixARatio") == fact(cam, "appendixARatioUnweighted"),
		"the pages weigh the same (Σ W λ %.4f, Σ λ %.4f)", fact(cam, "totalInformation"), fact(cam, "expectedChanges"))
	claim(t, math.Abs(sum-100) < 5 && math.Abs(fact(cam, "expectedChanges")-sum) < 1e-9, "they change about 100 times an epoch (%.2f)", sum)
	claim(t, top > sum/2, "most of it on a few pages: the first 10 make %.2f of %.2f", top, sum)
	mcr := cam.Metric("monitoringChangeRatio").Mean
	claim(t, math.Abs(mcr-50) < 2.5, "5,000 tasks are a monitoring-to-change ratio of about 50 (%.2f)", mcr)
	want := float64(len(lambda)) * sq / (sum * sum)
	claim(t, math.Abs(fact(cam, "appendixARatio")-want) < 1e-9*want, "with equal weights the appendix ratio is N Σλ²/(Σλ)² (%.4f, %.4f)", fact(cam, "appendixARatio"), want)
	busiest := float64(res.Spec.Budget) * lambda[0] / sum
	claim(t, busiest > 2500 && busiest < 3500, "weighted proportional would give the busiest page about 3,000 tasks (%.0f)", busiest)

	r := func(p lab.PolicyResult) float64 { return p.Metric("rir").Mean }
	claim(t, above(cam.Metric("rir"), wp.Metric("rir")) && above(wp.Metric("rir"), wu.Metric("rir")),
		"at 5,000 tasks CAM (%.4f) above weighted proportional (%.4f) above weighted uniform (%.4f)", r(cam), r(wp), r(wu))
	claim(t, near(wu.Metric("rir"), 10.0/480), "weighted uniform returns about 10 of 480 (%.4f ± %.4f)", r(wu), se(wu.Metric("rir")))
	claim(t, r(wu) > 0.01 && r(wu) < 0.05, "weighted uniform's RIR lies in the prediction's bin 0.01–0.05 (%.4f)", r(wu))

	at1000 := claimRun(t, id, func(s *lab.Spec) { s.Budget = 1000 })
	wp1, wu1, cam1 := policyOf(t, at1000, "weighted-proportional"), policyOf(t, at1000, "weighted-uniform"), policyOf(t, at1000, "cam")
	app := fact(cam, "appendixARatio")
	q1, q5 := r(wp1)/r(wu1), r(wp)/r(wu)
	claim(t, math.Abs(q1/app-1) < 0.25, "at 1,000 tasks the quotient (%.2f) comes near the appendix's %.2f", q1, app)
	claim(t, q5 < app/2, "at 5,000 it (%.2f) is far below the appendix's %.2f", q5, app)
	claim(t, above(wp1.Metric("realisedRir"), cam1.Metric("realisedRir")),
		"at 1,000 tasks weighted proportional's realised RIR (%.4f) beats CAM's (%.4f)", wp1.Metric("realisedRir").Mean, cam1.Metric("realisedRir").Mean)
}
