package lab_test

import (
	"math"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/param"
)

// TestSiteEstimatesAreUnbiased checks the per-site diagnostics on the
// Taleghani example: a 10-page sample of a 100-page site estimates its
// change fraction without bias (the hypergeometric mean is z·K/n), so over
// many repeats each site's mean estimate sits within 4 standard errors of
// the truth (0.7 and 0.3); accuracy is 1 − |estimate − truth| per repeat.
func TestSiteEstimatesAreUnbiased(t *testing.T) {
	res, err := lab.New().Run(lab.Spec{
		Dataset: lab.DatasetRef{ID: "taleghani-example"}, Budget: 100, Repeats: 3000, Seed: 9,
		Policies: []lab.PolicySpec{{ID: "site-proportional", Params: param.Values{"sampleSize": 10.0}}, {ID: "random"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Policies[1].Sites != nil {
		t.Error("random does not estimate sites, but its result has site estimates")
	}
	if s, ok := res.Policies[1].Metrics[lab.MetricSiteAccuracy]; ok {
		t.Errorf("random does not estimate sites, but its result has a site accuracy %+v", s)
	}
	s := res.Policies[0].Sites
	if s == nil {
		t.Fatal("site sampling reported no site estimates")
	}
	want := []float64{0.7, 0.3}
	for w, truth := range s.Truth {
		if truth != want[w] {
			t.Errorf("site %s: truth %v, want %v", s.Sites[w], truth, want[w])
		}
		est := s.Estimate[w]
		se := est.SD / math.Sqrt(float64(est.N))
		if math.Abs(est.Mean-truth) > 4*se {
			t.Errorf("site %s: mean estimate %.4f ± %.4f (SE), truth %v", s.Sites[w], est.Mean, se, truth)
		}
		if acc := s.Accuracy[w]; acc.Mean > 1 || acc.Mean < 0.8 {
			t.Errorf("site %s: accuracy %.3f out of the plausible range", s.Sites[w], acc.Mean)
		}
	}
	if m := res.Policies[0].Metric(lab.MetricSiteAccuracy).Mean; math.Abs(m-(s.Accuracy[0].Mean+s.Accuracy[1].Mean)/2) > 1e-12 {
		t.Errorf("mean accuracy %v is not the mean of the sites' accuracies", m)
	}
}
