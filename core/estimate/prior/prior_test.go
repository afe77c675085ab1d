package prior_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/refreshlab/refreshlab/core/estimate"
	"github.com/refreshlab/refreshlab/core/estimate/prior"
)

// integrate returns ∫_0^∞ f by Simpson's rule on λ = s/(1−s), s ∈ [0, 1).
func integrate(f func(float64) float64) float64 {
	const n = 200000
	h := 1.0 / n
	var sum float64
	for i := 0; i < n; i++ { // the integrand vanishes at s = 1
		s := float64(i) * h
		lam := s / (1 - s)
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		if i == 0 {
			w = 1
		}
		sum += w * f(lam) / ((1 - s) * (1 - s))
	}
	return sum * h / 3
}

// TestInducedLaw checks the closed forms behind our reading of "the
// posterior given just these two intervals": the density is the normalised
// likelihood (1 − e^{−λc})e^{−λu}, integrates to 1, has mean 1/u + 1/(u+c),
// its survival function is its tail integral, and its mode is PseudoMLE's
// answer on an empty history.
func TestInducedLaw(t *testing.T) {
	for _, p := range []prior.Induced{{Changed: 0.5, Unchanged: 0.5}, {Changed: 2, Unchanged: 5}, {Changed: 0.01, Unchanged: 3}, {Changed: 40, Unchanged: 0.2}} {
		like := func(l float64) float64 { return -math.Expm1(-l*p.Changed) * math.Exp(-l*p.Unchanged) }
		z := integrate(like)
		if want := p.Changed / (p.Unchanged * (p.Changed + p.Unchanged)); math.Abs(z-want) > 1e-6*want {
			t.Errorf("%+v: ∫L = %v, want c/(u(u+c)) = %v", p, z, want)
		}
		for _, l := range []float64{0.01, 0.3, 1, 4, 30} {
			if got, want := p.Density(l), like(l)/z; math.Abs(got-want) > 1e-6*want+1e-300 {
				t.Errorf("%+v: density(%v) = %v, normalised likelihood %v", p, l, got, want)
			}
			tail := integrate(func(x float64) float64 { return p.Density(x + l) })
			if got := p.Survival(l); math.Abs(got-tail) > 1e-6 {
				t.Errorf("%+v: survival(%v) = %v, tail integral %v", p, l, got, tail)
			}
		}
		if got, want := integrate(func(l float64) float64 { return l * p.Density(l) }), p.Mean(); math.Abs(got-want) > 1e-5*want {
			t.Errorf("%+v: mean %v, closed form %v", p, got, want)
		}
		mode := estimate.PseudoMLE{Changed: p.Changed, Unchanged: p.Unchanged}.Estimate(&estimate.History{}).Rate
		for _, f := range []float64{0.99, 1.01} {
			if !(p.Density(mode*f) < p.Density(mode)) {
				t.Errorf("%+v: density at %v·mode is not below the mode's", p, f)
			}
		}
	}
	p := prior.Induced{Changed: 2, Unchanged: 5}
	if p.Density(-1) != 0 || p.Survival(0) != 1 || p.Survival(math.Inf(1)) != 0 {
		t.Error("boundaries")
	}
	m := p.Masses([]float64{0, 0.1, 1, 10}, nil)
	for k, want := range []float64{p.Survival(10), p.Survival(1) - p.Survival(10), p.Survival(0.1) - p.Survival(1)} {
		if m[k] != want {
			t.Errorf("mass %d = %v, want %v", k, m[k], want)
		}
	}
}

// exact returns the masses that p induces on edges, as an empirical
// distribution.
func exact(p prior.Induced, edges []float64) estimate.Dist {
	return estimate.Dist{Edges: edges, Mass: p.Masses(edges, nil)}
}

// TestFitRecovers checks that when the empirical distribution is the prior
// two intervals induce, the fit finds those intervals. The chains end with
// moves a thousandth of a natural-log unit wide (0.1%), so we allow ten such
// moves: 1% on each length. (When the changed interval is much shorter than
// the unchanged one, Λ is close to a Gamma(2, u) law whatever c is, and c is
// barely identifiable: at c = 0.1, u = 30 days, c = 0.02 matches to 2e-7.)
func TestFitRecovers(t *testing.T) {
	edges := estimate.LogEdges(estimate.Hour, 1000, 200)
	for _, want := range []prior.Induced{{Changed: 2, Unchanged: 5}, {Changed: 0.5, Unchanged: 0.5}, {Changed: 20, Unchanged: 1}} {
		fit, err := prior.Fit(exact(want, edges), prior.Options{}, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		got := fit.Best
		if math.Abs(got.Changed/want.Changed-1) > 0.01 || math.Abs(got.Unchanged/want.Unchanged-1) > 0.01 {
			t.Errorf("fit %+v (loss %.2g), want %+v; restarts: losses %.2g…%.2g, changed %.3g…%.3g, unchanged %.3g…%.3g",
				got, fit.Loss, want, fit.LossMin, fit.LossMax, fit.ChangedMin, fit.ChangedMax, fit.UnchangedMin, fit.UnchangedMax)
		}
		if fit.Loss != fit.LossMin || !(fit.LossMin <= fit.LossMedian && fit.LossMedian <= fit.LossMax) ||
			!(fit.ChangedMin <= got.Changed && got.Changed <= fit.ChangedMax) || len(fit.Runs) != 8 {
			t.Errorf("summary inconsistent: %+v", fit)
		}
	}
}

// TestFitSample fits a histogram of a sample drawn from a known prior (an
// empirical distribution with sampling noise, the paper's case): the fit
// must match the histogram at least as well as the truth does.
func TestFitSample(t *testing.T) {
	truth := prior.Induced{Changed: 3, Unchanged: 2}
	rng := rand.New(rand.NewPCG(3, 4))
	periods := make([]float64, 20000)
	for i := range periods { // Λ = E1 + E2 with rates u and u + c
		lam := -math.Log1p(-rng.Float64())/truth.Unchanged - math.Log1p(-rng.Float64())/(truth.Unchanged+truth.Changed)
		periods[i] = 1 / lam
	}
	emp, _, err := estimate.Histogram(estimate.HourlyEdges(25), periods)
	if err != nil {
		t.Fatal(err)
	}
	fit, err := prior.Fit(emp, prior.Options{}, rand.New(rand.NewPCG(5, 6)))
	if err != nil {
		t.Fatal(err)
	}
	if at := prior.Loss(emp, truth); !(fit.Loss <= at) {
		t.Errorf("fit %+v has loss %v, the truth %v", fit.Best, fit.Loss, at)
	}
	t.Logf("truth %+v, fit %+v (loss %.4g vs %.4g)", truth, fit.Best, fit.Loss, prior.Loss(emp, truth))
}

func TestFitDeterministic(t *testing.T) {
	emp := exact(prior.Induced{Changed: 1, Unchanged: 4}, estimate.LogEdges(0.1, 100, 50))
	opt := prior.Options{Steps: 300, Restarts: 3}
	a, _ := prior.Fit(emp, opt, rand.New(rand.NewPCG(7, 7)))
	b, _ := prior.Fit(emp, opt, rand.New(rand.NewPCG(7, 7)))
	c, _ := prior.Fit(emp, opt, rand.New(rand.NewPCG(8, 8)))
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed gave different fits")
	}
	if reflect.DeepEqual(a.Runs, c.Runs) {
		t.Error("different seeds gave the same chains")
	}
}

func TestFitErrors(t *testing.T) {
	good := exact(prior.Induced{Changed: 1, Unchanged: 1}, estimate.LogEdges(0.1, 10, 10))
	if _, err := prior.Fit(good, prior.Options{}, nil); err == nil {
		t.Error("nil rng accepted")
	}
	if _, err := prior.Fit(estimate.Dist{}, prior.Options{}, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("empty distribution accepted")
	}
	if l := prior.Loss(estimate.Dist{}, prior.Induced{Changed: 1, Unchanged: 1}); !math.IsNaN(l) {
		t.Errorf("Loss of an invalid distribution = %v", l)
	}
}

func BenchmarkFit(b *testing.B) {
	for _, g := range []struct {
		name  string
		edges []float64
	}{{"log200", estimate.LogEdges(estimate.Hour, 1000, 200)}, {"hourly25d", estimate.HourlyEdges(25)}} {
		b.Run(g.name, func(b *testing.B) {
			emp := exact(prior.Induced{Changed: 2, Unchanged: 5}, g.edges)
			for b.Loop() {
				_, _ = prior.Fit(emp, prior.Options{}, rand.New(rand.NewPCG(1, 2)))
			}
		})
	}
}
