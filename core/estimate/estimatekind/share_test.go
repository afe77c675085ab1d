package estimatekind_test

import (
	"math"
	"testing"

	"github.com/refreshlab/refreshlab/core/estimate/estimatekind"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/stat"
)

// TestEdgeSharesHaveIntervals checks that a share of pages in an edge case
// that came out the same in every repeat (none, late in the MLE's paths;
// all, at its first crawl) still has an interval of positive width, while
// the estimators with a prior, which never meet an edge case, keep their
// exact zero.
func TestEdgeSharesHaveIntervals(t *testing.T) {
	res, err := lab.New().Run(lab.Spec{Kind: estimatekind.ID, Dataset: lab.DatasetRef{ID: "grimes-ford"}, Repeats: 3, Seed: 1,
		Policies: []lab.PolicySpec{{ID: estimatekind.EstMLE}, {ID: estimatekind.EstPseudoMLE}},
		Sections: lab.Sections{estimatekind.ID: &estimatekind.Spec{Pages: 200, Epochs: 20, Paths: 1, Prior: estimatekind.PriorOptions{Steps: 100, Restarts: 2}}}})
	if err != nil {
		t.Fatal(err)
	}
	tied := 0
	for _, p := range res.Policies {
		r := estimatekind.PolicyResultOf(p)
		all := append(append(append(stat.Series{}, r.NoChange...), r.AllChanged...), p.Series[estimatekind.MetricEdgeShare]...)
		for k, s := range append(all, p.Metrics[estimatekind.MetricEdgeShare]) {
			if s.N < 2 || s.SD != 0 {
				continue
			}
			tied++
			exact := p.ID == estimatekind.EstPseudoMLE
			if got := s.Hi - s.Lo; exact != (got == 0) || math.IsNaN(got) || !(s.Lo <= s.Mean && s.Mean <= s.Hi) {
				t.Errorf("%s, share %d: %v in every repeat, interval [%v, %v]; want zero width only for an estimator with a prior", p.ID, k, s.Mean, s.Lo, s.Hi)
			}
		}
	}
	if tied < 10 {
		t.Errorf("only %d shares came out the same in every repeat: the test checks too little", tied)
	}
}
