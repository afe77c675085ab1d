package prior_test

import (
	"fmt"
	"math"
	"math/rand/v2"

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
