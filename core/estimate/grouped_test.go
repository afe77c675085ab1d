package estimate_test

import (
	"math/rand/v2"
	"testing"

	"github.com/refreshlab/refreshlab/core/estimate"
)

// TestGroupedPaths checks that Paths.Run estimates each page with its
// group's estimator, and starts it, with no initial interval, at the
// fraction of that estimator's own first estimate: a population split
// between two PseudoMLE priors gives exactly the summaries of running each
// half alone on the same coin flips, and a page outside every group gets
// the pooled estimator.
func TestGroupedPaths(t *testing.T) {
	fast, slow := estimate.PseudoMLE{Changed: 1, Unchanged: 0.5}, estimate.PseudoMLE{Changed: 50, Unchanged: 20}
	g := estimate.Grouped{Pooled: slow, Groups: []estimate.Estimator{fast, slow}, Of: []int{0, 1, -1}}
	for _, tc := range []struct {
		page int
		want estimate.Estimator
	}{{0, fast}, {1, slow}, {2, slow}, {3, fast}, {-1, slow}} {
		if got := estimate.ForPage(g, tc.page); got != tc.want {
			t.Errorf("ForPage(%d) = %v, want %v", tc.page, got, tc.want)
		}
	}
	if got := estimate.ForPage(fast, 7); got != fast {
		t.Errorf("ForPage of a plain estimator = %v, want itself", got)
	}

	sched := estimate.Schedule{Fraction: 0.8}
	run := func(est estimate.Estimator, rates []float64) estimate.Summary {
		p := estimate.Paths{Estimator: est, Schedule: sched, Epochs: 4}
		s, err := p.Run(rates, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// One page per run, so each run's coin flips are the page's own.
	for i, rate := range []float64{2, 0.1, 0.5} {
		grouped := estimate.Grouped{Pooled: slow, Groups: g.Groups, Of: g.Of[i:]}
		got, want := run(grouped, []float64{rate}), run(estimate.ForPage(g, i), []float64{rate})
		for e := range got.Mean {
			if got.Mean[e] != want.Mean[e] || got.Interval[e] != want.Interval[e] {
				t.Errorf("page %d, epoch %d: grouped gives %v after %v days, its group's estimator %v after %v", i, e, got.Mean[e], got.Interval[e], want.Mean[e], want.Interval[e])
			}
		}
	}
}
