package estimate_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/refreshlab/refreshlab/core/estimate"
)

// A page crawled five times at irregular intervals (days), changed in three
// of them. Each estimator reads the same History.
func ExampleMLE() {
	h := &estimate.History{}
	for _, obs := range []struct {
		days    float64
		changed bool
	}{{1, true}, {2, false}, {0.5, true}, {3, true}, {1, false}} {
		if err := h.Add(obs.days, obs.changed); err != nil {
			panic(err)
		}
	}
	for _, e := range []struct {
		name string
		est  estimate.Estimator
	}{
		{"naive X/T", estimate.Naive{}},
		{"Cho & Garcia-Molina eq. 1 (mean interval)", estimate.ChoGarciaMolina{}},
		{"MLE eq. 2", estimate.MLE{}},
		{"MLE + two half-day pseudo-intervals", estimate.PseudoMLE{}},
	} {
		r := e.est.Estimate(h)
		fmt.Printf("%-42s λ̂ = %.4f/day, Δ̂ = %.2f days\n", e.name, r.Rate, r.Period())
	}
	// Output:
	// naive X/T                                  λ̂ = 0.4000/day, Δ̂ = 2.50 days
	// Cho & Garcia-Molina eq. 1 (mean interval)  λ̂ = 0.5256/day, Δ̂ = 1.90 days
	// MLE eq. 2                                  λ̂ = 0.6335/day, Δ̂ = 1.58 days
	// MLE + two half-day pseudo-intervals        λ̂ = 0.7417/day, Δ̂ = 1.35 days
}

// The MLE's edge cases and their substitutes (§3.3), and the pseudo-intervals
// that remove them (§4.4).
func ExampleMLE_edgeCases() {
	never, always := &estimate.History{}, &estimate.History{}
	for _, days := range []float64{1, 2, 4} {
		_ = never.Add(days, false)
		_ = always.Add(days, true)
	}
	for _, h := range []*estimate.History{never, always} {
		m := estimate.MLE{}.Estimate(h)
		p := estimate.PseudoMLE{}.Estimate(h)
		fmt.Printf("MLE %.4f (%v), pseudo-intervals %.4f (%v)\n", m.Rate, m.Edge, p.Rate, p.Edge)
	}
	// Output:
	// MLE 0.1429 (no change), pseudo-intervals 0.1291 (none)
	// MLE 1.0000 (all changed), pseudo-intervals 1.9724 (none)
}

// Tan et al.'s history weights on the same four daily cycles (oldest
// first): the recent changes count more under aad and gad.
func ExampleWeighted() {
	h := &estimate.History{}
	for _, changed := range []bool{true, true, false, true} {
		_ = h.Add(1, changed)
	}
	for _, s := range []estimate.Scheme{estimate.NAD, estimate.SAD, estimate.AAD, estimate.GAD} {
		fmt.Printf("%s %.4f %v\n", s, estimate.Weighted{Scheme: s}.Estimate(h).Rate, s.Weights(4, nil))
	}
	fmt.Printf("D/V, V = 2: %.2f\n", estimate.DOverV{V: 2}.Estimate(h).Rate)
	// Output:
	// nad 0.7500 [0.25 0.25 0.25 0.25]
	// sad 1.0000 [0 0 0 1]
	// aad 0.7000 [0.1 0.2 0.3 0.4]
	// gad 0.7333 [0.06666666666666667 0.13333333333333333 0.26666666666666666 0.5333333333333333]
	// D/V, V = 2: 0.50
}

// The posterior mean under a discretised prior over change periods: here
// half the pages change about every 12 hours and half about every 10 days.
func ExamplePosteriorMean() {
	prior := estimate.Dist{Edges: []float64{0, 1, 19}, Mass: []float64{0.5, 0.5}}
	pm, err := estimate.NewPosteriorMean(prior)
	if err != nil {
		panic(err)
	}
	h := &estimate.History{}
	fmt.Printf("no data: %.3f/day\n", pm.Estimate(h).Rate)
	_ = h.Add(2, false)
	fmt.Printf("unchanged for 2 days: %.3f/day\n", pm.Estimate(h).Rate)
	// Output:
	// no data: 1.050/day
	// unchanged for 2 days: 0.142/day
}

// Fig. 2 of Grimes & Ford: a page that changes once a day (1/24 per hour),
// crawled first after 700 hours and then at 80% of the estimated change
// period. The MLE sits in the "all changed" edge case, shrinking the interval
// by 0.8 each time, until an interval (here 117 hours) shows no change.
func ExamplePaths_Page() {
	p := &estimate.Paths{
		Estimator: estimate.MLE{},
		Schedule:  estimate.Schedule{Initial: 700 * estimate.Hour, Fraction: 0.8},
		Epochs:    14,
	}
	steps, err := p.Page(1, rand.New(rand.NewPCG(3, 3)), nil)
	if err != nil {
		panic(err)
	}
	for e, s := range steps {
		fmt.Printf("epoch %2d: crawled after %5.1f h, changed %-5v λ̂ = %.3f/day (%v)\n", e+1, s.Interval/estimate.Hour, s.Changed, s.Rate, s.Edge)
	}
	// Output:
	// epoch  1: crawled after 700.0 h, changed true  λ̂ = 0.034/day (all changed)
	// epoch  2: crawled after 560.0 h, changed true  λ̂ = 0.043/day (all changed)
	// epoch  3: crawled after 448.0 h, changed true  λ̂ = 0.054/day (all changed)
	// epoch  4: crawled after 358.4 h, changed true  λ̂ = 0.067/day (all changed)
	// epoch  5: crawled after 286.7 h, changed true  λ̂ = 0.084/day (all changed)
	// epoch  6: crawled after 229.4 h, changed true  λ̂ = 0.105/day (all changed)
	// epoch  7: crawled after 183.5 h, changed true  λ̂ = 0.131/day (all changed)
	// epoch  8: crawled after 146.8 h, changed true  λ̂ = 0.163/day (all changed)
	// epoch  9: crawled after 117.4 h, changed false λ̂ = 0.257/day (none)
	// epoch 10: crawled after  74.8 h, changed true  λ̂ = 0.308/day (none)
	// epoch 11: crawled after  62.3 h, changed true  λ̂ = 0.365/day (none)
	// epoch 12: crawled after  52.6 h, changed true  λ̂ = 0.426/day (none)
	// epoch 13: crawled after  45.1 h, changed false λ̂ = 0.363/day (none)
	// epoch 14: crawled after  52.9 h, changed true  λ̂ = 0.411/day (none)
}

// §4.2 and Fig. 4: a population of pages all starting from the same initial
// interval, scored per epoch by the median absolute deviation from their true
// rates; the same seed for every initial interval compares them on the same
// coin flips.
func ExamplePaths_Run() {
	rng := rand.New(rand.NewPCG(1, 1))
	rates := make([]float64, 1000) // a spread of true rates, from 1/30 to 4 per day
	for i := range rates {
		rates[i] = 1 / (0.25 + 29.75*rng.Float64())
	}
	p := &estimate.Paths{Estimator: estimate.MLE{}, Schedule: estimate.Schedule{Fraction: 0.8}, Epochs: 5}
	for _, days := range []float64{0.5, 4, 11, 25} {
		p.Schedule.Initial = days
		s, err := p.Run(rates, rand.New(rand.NewPCG(2, 2)))
		if err != nil {
			panic(err)
		}
		fmt.Printf("initial %4.1f days: MAD of λ̂ after 1 crawl %.3f, after 5 %.3f /day; of Δ̂ after 5 %4.1f days; edge cases at 5: %.0f%%\n",
			days, s.MAD[0], s.MAD[4], s.MADPeriod[4], 100*(s.NoChange[4]+s.AllChanged[4]))
	}
	// Output:
	// initial  0.5 days: MAD of λ̂ after 1 crawl 1.937, after 5 0.146 /day; of Δ̂ after 5 10.9 days; edge cases at 5: 61%
	// initial  4.0 days: MAD of λ̂ after 1 crawl 0.193, after 5 0.038 /day; of Δ̂ after 5  7.0 days; edge cases at 5: 13%
	// initial 11.0 days: MAD of λ̂ after 1 crawl 0.046, after 5 0.031 /day; of Δ̂ after 5  5.3 days; edge cases at 5: 12%
	// initial 25.0 days: MAD of λ̂ after 1 crawl 0.023, after 5 0.026 /day; of Δ̂ after 5  6.3 days; edge cases at 5: 26%
}
