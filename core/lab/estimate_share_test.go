package lab

import (
	"github.com/refreshlab/refreshlab/core/dataset"
	"math"
	"testing"

	"github.com/refreshlab/refreshlab/core/stat"
)

// TestEdgeSharesHaveIntervals checks that a share of pages in an edge case
// that came out the same in every repeat (none, late in the MLE's paths;
// all, at its first crawl) still has an interval of positive width, while
// the estimators with a prior, which never meet an edge case, keep their
// exact zero.
func TestEdgeSharesHaveIntervals(t *testing.T) {
	res, err := New().Run(Spec{Kind: KindEstimate, Dataset: DatasetRef{ID: "grimes-ford"}, Repeats: 3, Seed: 1,
		Policies: []PolicySpec{{ID: EstMLE}, {ID: EstPseudoMLE}},
		Estimate: &EstimateSpec{Pages: 200, Epochs: 20, Paths: 1, Prior: EstimatePriorOptions{Steps: 100, Restarts: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	tied := 0
	for _, p := range res.Policies {
		r := p.Estimate
		all := append(append(append(stat.Series{}, r.NoChange...), r.AllChanged...), r.edge...)
		for k, s := range append(all, r.edgeShare) {
			if s.N < 2 || s.SD != 0 {
				continue
			}
			tied++
			exact := hasPrior(p.ID)
			if got := s.Hi - s.Lo; exact != (got == 0) || math.IsNaN(got) || !(s.Lo <= s.Mean && s.Mean <= s.Hi) {
				t.Errorf("%s, share %d: %v in every repeat, interval [%v, %v]; want zero width only for an estimator with a prior", p.ID, k, s.Mean, s.Lo, s.Hi)
			}
		}
	}
	if tied < 10 {
		t.Errorf("only %d shares came out the same in every repeat: the test checks too little", tied)
	}
}

// TestSiteEstimateTies checks a site estimate that came out the same in
// every repeat: exact, with a zero-width interval, when it is the truth;
// without an interval when it is not.
func TestSiteEstimateTies(t *testing.T) {
	tally := newSiteTally([]float64{0, 0.25, 0.5}, 3, 2)
	for r := range 2 {
		copy(tally.sum, []float64{0, 1.0 / 3, 0.4 + 0.2*float64(r)})
		copy(tally.count, []int{1, 1, 1})
		tally.endRepeat(r)
	}
	s := tally.result(&dataset.Dataset{})
	for w, want := range []bool{true, false, true} {
		for _, sum := range []stat.Summary{s.Estimate[w], s.Accuracy[w]} {
			if got := !math.IsNaN(sum.Lo) && !math.IsNaN(sum.Hi); got != want {
				t.Errorf("site %d: %+v has an interval %v, want %v", w, sum, got, want)
			}
		}
	}
	if s.Estimate[0].Lo != 0 || s.Estimate[0].Hi != 0 {
		t.Errorf("a site that never changed, estimated 0 in every repeat: %+v, want the exact [0, 0]", s.Estimate[0])
	}
}
