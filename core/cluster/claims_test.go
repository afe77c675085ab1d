package cluster_test

import (
	"math"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
)

// TestClusterSamplingBeatsTheBaselines checks Tan et al.'s Fig. 4 claim
// on the lesson's dataset: cluster sampling (all features, nad) finds
// more changed pages per download than site sampling, change frequency,
// round-robin and random, with 8.8% of the pages downloaded a month (the
// paper's 25K of 285K). Each comparison is a difference of mean
// ChangeRatios over 12 independent repeats; it must exceed 4 standard
// errors of the difference (√(SE₁² + SE₂²), each SE = sd/√12), so if the
// policies were equal the test would pass with probability about 1e-3,
// and as the differences are many SE wide (logged) it does not fail by
// chance.
func TestClusterSamplingBeatsTheBaselines(t *testing.T) {
	l := lab.New()
	res, err := l.Run(lab.Spec{Dataset: lab.DatasetRef{ID: "tan-webarchive-small"}, Budget: 880, Repeats: 12, Seed: 5,
		Policies: []lab.PolicySpec{{ID: "cluster-sampling"}, {ID: "site-greedy"}, {ID: "change-frequency"}, {ID: "round-robin"}, {ID: "random"}}})
	if err != nil {
		t.Fatal(err)
	}
	se := func(i int) float64 {
		s := res.Policies[i].Metric(lab.MetricChangeRatio)
		return s.SD / math.Sqrt(float64(s.N))
	}
	cls := res.Policies[0].Metric(lab.MetricChangeRatio).Mean
	for i, p := range res.Policies[1:] {
		d := cls - p.Metric(lab.MetricChangeRatio).Mean
		s := math.Hypot(se(0), se(i+1))
		if d <= 4*s {
			t.Errorf("cluster sampling %.4f vs %s %.4f: difference %.4f is not above 4·SE = %.4f", cls, p.ID, p.Metric(lab.MetricChangeRatio).Mean, d, 4*s)
		}
		t.Logf("cluster sampling %.4f vs %-16s %.4f: +%.4f (%.0f SE)", cls, p.ID, p.Metric(lab.MetricChangeRatio).Mean, d, d/s)
	}
}
