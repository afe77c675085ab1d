package prior_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/refreshlab/refreshlab/core/estimate"
	"github.com/refreshlab/refreshlab/core/estimate/prior"
)

// The prior that Kolobov et al.'s two half-day pseudo-intervals induce on
// the change rate.
func ExampleInduced() {
	p := prior.Induced{Changed: 0.5, Unchanged: 0.5}
	fmt.Printf("mean %.3f/day, mode %.3f/day, P(λ > 4/day) = %.3f\n",
		p.Mean(), estimate.PseudoMLE{}.Estimate(&estimate.History{}).Rate, p.Survival(4))
	// Output:
	// mean 3.000/day, mode 1.386/day, P(λ > 4/day) = 0.252
}

// Fitting the two pseudo-intervals to an empirical distribution of change
// periods (§4.4): here 20,000 pages' periods binned by the hour up to 25
// days, drawn from the prior of a changed interval of 3 days and an
// unchanged one of 2 (λ = E1 + E2, exponentials with rates 2 and 5, drawn by inversion with
// math.Log1p, which is pure Go, so the example prints the same in the
// browser). The
// fit comes close to (3, 2) and fits the noisy histogram slightly better.
func ExampleFit() {
	rng := rand.New(rand.NewPCG(1, 2))
	periods := make([]float64, 20000)
	for i := range periods {
		periods[i] = 1 / (-math.Log1p(-rng.Float64())/2 - math.Log1p(-rng.Float64())/5)
	}
	emp, _, err := estimate.Histogram(estimate.HourlyEdges(25), periods)
	if err != nil {
		panic(err)
	}
	fit, err := prior.Fit(emp, prior.Options{}, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		panic(err)
	}
	fmt.Printf("changed %.2f days, unchanged %.2f days, L2 loss %.4f\n", fit.Best.Changed, fit.Best.Unchanged, fit.Loss)
	fmt.Printf("restarts: loss %.4f to %.4f (median %.4f); the truth's loss %.4f\n",
		fit.LossMin, fit.LossMax, fit.LossMedian, prior.Loss(emp, prior.Induced{Changed: 3, Unchanged: 2}))
	// Output:
	// changed 3.14 days, unchanged 1.96 days, L2 loss 0.0067
	// restarts: loss 0.0067 to 0.0104 (median 0.0089); the truth's loss 0.0068
}

// A prior per page type (§6): 4,000 news pages whose rates follow the
// prior of pseudo-intervals (1, 0.5) days and 4,000 static pages following
// (30, 20), drawn by inversion as above. One pair fitted to each type's
// periods gives each new page a first estimate near its own type's, where
// one pair for all would give every page the same. (The slow type's
// changed length comes out far from 30: when it is long beside the
// periods, it says little, and the loss is flat in it, as §4.4's fit is.)
func ExampleFitByFeature() {
	rng := rand.New(rand.NewPCG(5, 6))
	var rates []float64
	var types []string
	for _, typ := range []struct {
		name string
		p    prior.Induced
	}{{"news", prior.Induced{Changed: 1, Unchanged: 0.5}}, {"static", prior.Induced{Changed: 30, Unchanged: 20}}} {
		for range 4000 {
			u, c := typ.p.Unchanged, typ.p.Changed
			rates = append(rates, -math.Log1p(-rng.Float64())/u-math.Log1p(-rng.Float64())/(u+c))
			types = append(types, typ.name)
		}
	}
	edges := append(estimate.HourlyEdges(30), estimate.LogEdges(30, 1000, 40)[1:]...)
	b, err := prior.FitByFeature(rates, types, edges, 100, prior.Options{Steps: 400, Restarts: 4}, func(v string) *rand.Rand { return rand.New(rand.NewPCG(7, uint64(len(v)))) })
	if err != nil {
		panic(err)
	}
	est := b.Estimator(estimate.PseudoMLE{})
	for k, v := range b.Values {
		first := estimate.ForPage(est, slices.Index(types, v)).Estimate(&estimate.History{})
		fmt.Printf("%s: %d pages, changed %.1f days, unchanged %.1f days, first estimate %.2f per day\n",
			v, b.Pages[k], b.Fits[k].Best.Changed, b.Fits[k].Best.Unchanged, first.Rate)
	}
	// Output:
	// news: 4000 pages, changed 1.0 days, unchanged 0.5 days, first estimate 1.11 per day
	// static: 4000 pages, changed 45.1 days, unchanged 18.2 days, first estimate 0.03 per day
}
