package estimate_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/refreshlab/refreshlab/core/estimate"
)

// zTolerance is how many standard errors a simulated mean may stray from its
// exact expectation: for a mean of many independent draws (close to normal)
// a correct implementation fails one such check with probability about
// 6e-5.
const zTolerance = 4

// regular returns a history of n intervals of length interval of which the
// first x changed (the order does not matter to these estimators).
func regular(n, x int, interval float64) *estimate.History {
	h := &estimate.History{}
	for j := range n {
		_ = h.Add(interval, j < x)
	}
	return h
}

// binomialPMF returns P(X = x) for X ~ Binomial(n, p).
func binomialPMF(n, x int, p float64) float64 {
	lg := func(k int) float64 { v, _ := math.Lgamma(float64(k + 1)); return v }
	return math.Exp(lg(n) - lg(x) - lg(n-x) + float64(x)*math.Log(p) + float64(n-x)*math.Log1p(-p))
}

// exactMean returns E[λ̂] for n regular intervals of the given length and a
// true rate λ, summing the estimator's answer over the binomial distribution
// of the number of changed intervals X.
func exactMean(est estimate.Estimator, n int, interval, rate float64) float64 {
	p := -math.Expm1(-rate * interval)
	var e float64
	for x := 0; x <= n; x++ {
		e += binomialPMF(n, x, p) * est.Estimate(regular(n, x, interval)).Rate
	}
	return e
}

// simulate returns the mean and standard error of est over reps simulated
// histories of n regular intervals.
func simulate(est estimate.Estimator, n int, interval, rate float64, reps int, seed uint64) (mean, se float64) {
	rng := rand.New(rand.NewPCG(seed, 99))
	p := -math.Expm1(-rate * interval)
	h := &estimate.History{}
	var sum, sq float64
	for range reps {
		h.Reset()
		for range n {
			_ = h.Add(interval, rng.Float64() < p)
		}
		r := est.Estimate(h).Rate
		sum += r
		sq += r * r
	}
	mean = sum / float64(reps)
	sd := math.Sqrt((sq - float64(reps)*mean*mean) / float64(reps-1))
	return mean, sd / math.Sqrt(float64(reps))
}

// TestNaiveExpectation checks the naive estimator's bias under censoring
// (§3.2): with n regular intervals of length I, E[X/(nI)] = (1 − e^{−λI})/I
// exactly, whatever n is, so it can never reach λ once λI is large.
func TestNaiveExpectation(t *testing.T) {
	for _, tc := range []struct {
		n              int
		interval, rate float64
	}{{10, 1, 0.5}, {10, 1, 2}, {40, 0.25, 8}, {5, 3, 1}} {
		want := -math.Expm1(-tc.rate*tc.interval) / tc.interval
		if exact := exactMean(estimate.Naive{}, tc.n, tc.interval, tc.rate); math.Abs(exact-want) > 1e-12*want {
			t.Errorf("%+v: binomial sum %v, closed form %v", tc, exact, want)
		}
		mean, se := simulate(estimate.Naive{}, tc.n, tc.interval, tc.rate, 20000, uint64(tc.n))
		if math.Abs(mean-want) > zTolerance*se {
			t.Errorf("%+v: simulated mean %v ± %v, want %v", tc, mean, se, want)
		}
	}
}

// TestCGMExpectation checks eq. 1 against its exact expectation (a sum over
// the binomial distribution of X) by simulation, and a hand value.
func TestCGMExpectation(t *testing.T) {
	// n = 10, X = 5, I = 1 day: −ln(5.5/10.5).
	if got, want := (estimate.ChoGarciaMolina{}).Estimate(regular(10, 5, 1)).Rate, -math.Log(5.5/10.5); math.Abs(got-want) > 1e-15 {
		t.Errorf("n = 10, X = 5: %v, want %v", got, want)
	}
	// Intervals of 12 hours: λ̂ = r̂/I.
	if got, want := (estimate.ChoGarciaMolina{}).Estimate(regular(10, 5, 12*estimate.Hour)).Rate, -2*math.Log(5.5/10.5); math.Abs(got-want) > 1e-15 {
		t.Errorf("n = 10, X = 5, I = 12 h: %v, want %v", got, want)
	}
	for _, tc := range []struct {
		n              int
		interval, rate float64
	}{{10, 1, 0.5}, {10, 1, 2}, {20, 0.5, 6}, {50, 1, 3}} {
		exact := exactMean(estimate.ChoGarciaMolina{}, tc.n, tc.interval, tc.rate)
		mean, se := simulate(estimate.ChoGarciaMolina{}, tc.n, tc.interval, tc.rate, 20000, uint64(tc.n)+7)
		if math.Abs(mean-exact) > zTolerance*se {
			t.Errorf("%+v: simulated mean %v ± %v, exact expectation %v", tc, mean, se, exact)
		}
	}
}

// TestCGMLessBiased checks TOIT 2003's claim, repeated in §3.3, that eq. 1
// has "significantly smaller bias than the naive estimator for larger ratios
// of C/Δ and a reasonably small sample size": exactly, for λI from 0.5 to 3
// and 10 to 50 intervals, its bias is under a quarter of the naive one's.
func TestCGMLessBiased(t *testing.T) {
	for _, n := range []int{10, 20, 50} {
		for _, r := range []float64{0.5, 1, 2, 3} {
			cgm := exactMean(estimate.ChoGarciaMolina{}, n, 1, r) - r
			naive := exactMean(estimate.Naive{}, n, 1, r) - r
			if !(math.Abs(cgm) < math.Abs(naive)/4) {
				t.Errorf("n = %d, λI = %g: bias %.4f (eq. 1) vs %.4f (naive)", n, r, cgm, naive)
			}
		}
	}
}

// TestCGMConsistent checks our reading of eq. 1's left side: the right side
// estimates λ·C, so λ̂ = r̂/C converges to λ as n grows; the printed r̂ = Δ/C
// would give λ̂ = 1/(r̂·C), which converges to 1/(λC²) instead.
func TestCGMConsistent(t *testing.T) {
	const n, interval = 4000, 0.5
	for _, rate := range []float64{0.2, 1, 4} {
		e := exactMean(estimate.ChoGarciaMolina{}, n, interval, rate)
		if math.Abs(e-rate) > 0.01*rate {
			t.Errorf("λ = %g: E[λ̂] = %v with %d intervals", rate, e, n)
		}
		rhat := e * interval
		if printed := 1 / (rhat * interval); math.Abs(printed-rate) < 0.1*rate {
			t.Errorf("λ = %g: the printed reading also converges (%v)", rate, printed)
		}
	}
}

// TestRegularMLE checks the MLE's closed form for regular intervals: eq. 2
// with L changed intervals of length I out of n gives e^{λI} = n/(n − X).
func TestRegularMLE(t *testing.T) {
	for _, tc := range []struct{ n, x int }{{2, 1}, {10, 3}, {10, 9}, {100, 50}} {
		got := estimate.MLE{}.Estimate(regular(tc.n, tc.x, 0.5)).Rate
		want := math.Log(float64(tc.n)/float64(tc.n-tc.x)) / 0.5
		if math.Abs(got-want) > 1e-14*want {
			t.Errorf("n = %d, X = %d: %v, want %v", tc.n, tc.x, got, want)
		}
	}
}
