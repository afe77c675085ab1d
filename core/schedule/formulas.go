package schedule

import (
	"fmt"
	"math"
)

// This file holds the expected time-averaged metrics of one page whose
// changes are a Poisson process of rate λ and whose syncs come at rate f,
// and the derivatives the optimal allocations need. Most are functions of
// x = λ/f alone, the expected number of changes per sync interval.
//
// For regular syncs these are Cho & Garcia-Molina's ("Synchronizing a
// database to improve freshness", SIGMOD 2000; "Effective page refresh
// policies for Web crawlers", ACM TODS 2003):
//
//	F(λ, f) = (f/λ)(1 − e^{−λ/f})                    expected freshness
//	A(λ, f) = 1/(2f) − 1/λ + (f/λ²)(1 − e^{−λ/f})    expected age
//	dF/df   = (1 − e^{−λ/f})/λ − e^{−λ/f}/f          (the optimum's slope)
//
// Each formula here is derived below and checked by a test:
//
//   - F and A for regular syncs: re-derived below and compared with the
//     simulator (TestSimulatorMatchesFormulas) and with finite differences
//     of their derivatives (TestDerivatives).
//   - F, A and H for Poisson syncs: derived below from the time since the
//     last sync being exponential, and compared with the simulator.
//   - H for regular syncs: derived below (the average of Ein), compared with
//     the simulator and with a direct sum over the Poisson distribution.

// expm1neg returns 1 − e^{−x} accurately for small x.
func expm1neg(x float64) float64 { return -math.Expm1(-x) }

// seriesCut is where the functions below switch from their power series to
// the closed forms: below it the closed forms lose digits to cancellation.
const seriesCut = 0.5

// seriesTerms is how many terms of the power series below are summed: for
// x < seriesCut the first term left out is below 1e-18 of the sum.
const seriesTerms = 18

// The series' coefficients, in powers of x after the leading power:
// gain h(x) = x²·Σ (−1)^m (m+1)/(m+2)! x^m, ageDrop k(x) = x³·Σ (−1)^m
// (m+2)/(m+3)! x^m and ageUnit a(x) = x²·Σ (−1)^m/(m+3)! x^m.
var gainSeries, ageDropSeries, ageUnitSeries = func() (g, k, a [seriesTerms]float64) {
	fact := 1.0 // (m+2)!
	for m := range seriesTerms {
		fact *= float64(m + 2)
		if m == 0 {
			fact = 2
		}
		sign := 1.0
		if m%2 == 1 {
			sign = -1
		}
		g[m] = sign * float64(m+1) / fact
		k[m] = sign * float64(m+2) / (fact * float64(m+3))
		a[m] = sign / (fact * float64(m+3))
	}
	return
}()

// horner evaluates Σ c[m]·x^m.
func horner(c []float64, x float64) float64 {
	s := c[len(c)-1]
	for m := len(c) - 2; m >= 0; m-- {
		s = s*x + c[m]
	}
	return s
}

// freshUnit is (1 − e^{−x})/x: a regularly synced page's expected freshness
// with x = λ/f changes expected per interval (Cho & Garcia-Molina: F(λ, f) =
// (f/λ)(1 − e^{−λ/f})). It is 1 at x = 0.
func freshUnit(x float64) float64 {
	if x == 0 {
		return 1
	}
	if math.IsInf(x, 1) {
		return 0
	}
	return expm1neg(x) / x
}

// ageUnit is a(x) = x/2 − 1 + (1 − e^{−x})/x, so that a regularly synced
// page's expected age is a(λ/f)/λ (Cho & Garcia-Molina: A(λ, f) = 1/(2f) −
// 1/λ + (f/λ²)(1 − e^{−λ/f})).
//
// Derivation, checked: in an interval of length I = 1/f after a sync, the
// age at time t is t − s if the first change came at s < t, so its
// expectation is ∫_0^t (t − s) λe^{−λs} ds = t − (1 − e^{−λt})/λ; averaged
// over t ∈ [0, I) it is I/2 − 1/λ + (1 − e^{−λI})/(λ²I), which is A.
// Below seriesCut we sum a(x) = Σ_{n≥2} (−1)^n x^n/(n+1)!, by Horner's
// rule.
func ageUnit(x float64) float64 {
	if x < seriesCut {
		return x * x * horner(ageUnitSeries[:], x)
	}
	return x/2 - 1 + expm1neg(x)/x
}

// gain is h(x) = 1 − (1 + x)e^{−x}, the Gamma(2, 1) distribution function.
// λ·dF/df = h(λ/f), the marginal freshness of one more sync per day (see
// FreshnessSlope). Below seriesCut we sum h(x) = Σ_{n≥2} (−1)^n (n−1)x^n/n!.
func gain(x float64) float64 {
	if x < seriesCut {
		return x * x * horner(gainSeries[:], x)
	}
	return expm1neg(x) - x*(1-expm1neg(x))
}

// ageDrop is k(x) = x²/2 − h(x) = x²/2 − 1 + (1 + x)e^{−x}, so that
// dA/df = −k(λ/f)/λ² (see AgeSlope). It grows from 0 to ∞ like x³/3 near
// 0 and x²/2 − 1 far out; k'(x) = x(1 − e^{−x}) > 0. Below seriesCut we sum
// k(x) = Σ_{n≥3} (−1)^{n+1} (n−1)x^n/n!.
func ageDrop(x float64) float64 {
	if x < seriesCut {
		return x * x * x * horner(ageDropSeries[:], x)
	}
	return x*x/2 - gain(x)
}

// Freshness returns the expected time-averaged freshness of a page that
// changes at rate lambda and is synced at rate f with the given spacing:
// the share of time its copy is up to date.
//
//   - Regular: F = (f/λ)(1 − e^{−λ/f}) (Cho & Garcia-Molina).
//   - Poisson: F = f/(f + λ): the time since the last sync is exponential
//     of rate f, and the copy is fresh if no change came in it.
//
// A page that never changes is always fresh; one never synced (f = 0) that
// changes is never fresh in the long run.
func Freshness(lambda, f float64, s Spacing) float64 {
	switch {
	case lambda == 0:
		return 1
	case f == 0:
		return 0
	case s == Poisson:
		return f / (f + lambda)
	}
	return freshUnit(lambda / f)
}

// Age returns the expected time-averaged age of the copy, in days (0 while
// it is fresh, else the time since the first change it misses).
//
//   - Regular: A = 1/(2f) − 1/λ + (f/λ²)(1 − e^{−λ/f}) (Cho & Garcia-Molina).
//   - Poisson: A = λ/(f(f + λ)). Derivation: with τ the time since the
//     last sync, E[age | τ] = τ − (1 − e^{−λτ})/λ; τ is exponential of rate
//     f, so E[τ] = 1/f and E[e^{−λτ}] = f/(f + λ), giving 1/f − 1/(f + λ).
//
// A page that changes but is never synced has infinite age.
func Age(lambda, f float64, s Spacing) float64 {
	switch {
	case lambda == 0:
		return 0
	case f == 0:
		return math.Inf(1)
	case s == Poisson:
		return lambda / (f * (f + lambda))
	}
	return ageUnit(lambda/f) / lambda
}

// Harmonic returns the expected time-averaged harmonic staleness of
// Kolobov et al.: H(N) = 1 + 1/2 + … + 1/N for the N changes the copy
// misses.
//
//   - Poisson: ln(1 + λ/f). Derivation: N is geometric, P(N = n) = p qⁿ
//     with q = λ/(λ + f), so E[H(N)] = Σ_k q^k/k = −ln(1 − q) (Kolobov et
//     al.'s cost per unit of request rate).
//   - Regular: the average over an interval of E[H(Poisson(λt))], which is
//     Ein(λt) = ∫_0^{λt} (1 − e^{−s})/s ds (its derivative in the mean m is
//     E[1/(N+1)] = (1 − e^{−m})/m). Averaged over t ∈ [0, 1/f) with
//     M = λ/f: Σ_{k≥1} (−1)^{k+1} M^k/(k·(k+1)!) for small M, and
//     γ + ln M − 1 + (1 − e^{−M} + M·E1(M))/M otherwise.
func Harmonic(lambda, f float64, s Spacing) float64 {
	switch {
	case lambda == 0:
		return 0
	case f == 0:
		return math.Inf(1)
	case s == Poisson:
		return math.Log1p(lambda / f)
	}
	return harmonicUnit(lambda / f)
}

// harmonicUnit is the regular-sync harmonic staleness at M = λ/f changes
// per interval.
func harmonicUnit(m float64) float64 {
	if m < 2 {
		var sum float64
		p := m / 2 // M^k/(k+1)! at k = 1
		for k := 1; k < 80; k++ {
			t := p / float64(k)
			if k%2 == 0 {
				t = -t
			}
			sum += t
			if math.Abs(t) < 1e-18*math.Abs(sum) {
				break
			}
			p *= m / float64(k+2)
		}
		return sum
	}
	const eulerGamma = 0.57721566490153286061
	em := 1 - expm1neg(m) // e^{−M}
	return eulerGamma + math.Log1p(m-1) - 1 + (expm1neg(m)+m*expint1(m, em))/m
}

// expint1 returns the exponential integral E1(x) for x ≥ 1, given e^{−x},
// by its continued fraction (modified Lentz; Numerical Recipes §6.3).
func expint1(x, expNeg float64) float64 {
	const tiny = 1e-300
	b := x + 1
	c := 1 / tiny
	d := 1 / b
	h := d
	for i := 1; i < 200; i++ {
		an := -float64(i * i)
		b += 2
		d = 1 / (an*d + b)
		c = b + an/c
		del := c * d
		h *= del
		if math.Abs(del-1) < 1e-16 {
			break
		}
	}
	return h * expNeg
}

// FreshnessSlope returns dF/df for regular syncs: (1 − e^{−λ/f})/λ −
// e^{−λ/f}/f, the form of Cho & Garcia-Molina's Lagrange condition, which
// is h(λ/f)/λ with h(x) = 1 − (1 + x)e^{−x} (checked against a finite
// difference and against the unsimplified form in TestDerivatives). It
// falls from 1/λ at f = 0 to 0 as f grows.
func FreshnessSlope(lambda, f float64) float64 {
	if lambda == 0 {
		return 0
	}
	if f == 0 {
		return 1 / lambda
	}
	return gain(lambda/f) / lambda
}

// AgeSlope returns dA/df for regular syncs. Differentiating A(λ, f) =
// 1/(2f) − 1/λ + (f/λ²)(1 − e^{−λ/f}) term by term:
//
//	dA/df = −1/(2f²) + (1 − e^{−λ/f})/λ² − e^{−λ/f}/(λf)
//	      = −k(λ/f)/λ²,  k(x) = x²/2 − 1 + (1 + x)e^{−x},
//
// (multiply through by λ² and write x = λ/f). k > 0, so age falls as f
// grows; checked against a finite difference in TestDerivatives.
func AgeSlope(lambda, f float64) float64 {
	if lambda == 0 {
		return 0
	}
	if f == 0 {
		return math.Inf(-1)
	}
	return -ageDrop(lambda/f) / (lambda * lambda)
}

// psi is ψ(x) = x − ln(1 + x), summed as Σ_{n≥2} (−1)^n x^n/n below 0.1
// where the difference would cancel.
func psi(x float64) float64 {
	if x >= 0.1 {
		return x - math.Log1p(x)
	}
	var sum float64
	p := x * x // x^n at n = 2
	for n := 2; n < 40; n++ {
		t := p / float64(n)
		if n%2 == 1 {
			t = -t
		}
		sum += t
		if math.Abs(t) < 1e-18*sum {
			break
		}
		p *= x
	}
	return sum
}

// gainPieces and gainDegree shape gainTable: h⁻¹ on y ≤ 1/2 in pieces.
const (
	gainPieces = 32
	gainDegree = 8
)

// gainTable approximates h⁻¹ on 0 < y ≤ 1/2 (x up to 1.68) by a
// polynomial in each of gainPieces equal pieces of s = √(2y) ∈ (0, 1]: x =
// s·P(s), where P(s) = x/s is smooth with P(0) = 1 (h(x) ≈ x²/2 near 0, so
// x ≈ s). Piece j's polynomial is in u = 2N·s − (2j + 1) ∈ [−1, 1], N =
// gainPieces (exact in floating point, N being a power of 2), and
// interpolates P at the gainDegree + 1 Chebyshev points of the piece,
// where x is solved to the last bit by newtonGain. P is analytic well
// beyond each piece's width, so the interpolation error is far below the
// rounding of the polynomial's evaluation: the table is good to a few
// ulps (TestInvertGainTable). The optimal-freshness plans of a long crawl
// solve most of their pages here, so a solve is one square root and a
// polynomial, with no start needed.
var gainTable = func() (t [gainPieces][gainDegree + 1]float64) {
	const n = gainDegree + 1
	// cheb[m] is the Chebyshev polynomial T_m in powers of u: T_0 = 1,
	// T_1 = u, T_{m+1} = 2uT_m − T_{m−1}.
	var cheb [n][n]float64
	cheb[0][0], cheb[1][1] = 1, 1
	for m := 2; m < n; m++ {
		for i := range n {
			if i > 0 {
				cheb[m][i] = 2 * cheb[m-1][i-1]
			}
			cheb[m][i] -= cheb[m-2][i]
		}
	}
	// node(m, k) is T_m at the k-th Chebyshev point u_k = cos(π(k + ½)/n),
	// so node(1, k) is u_k itself.
	node := func(m, k int) float64 { return math.Cos(math.Pi * float64(m) * (float64(k) + 0.5) / n) }
	// interpolate adds to p, in powers of u, the polynomial through (u_k,
	// vals[k]): Σ c_m T_m with c_m = (2/n)Σ_k vals[k]·T_m(u_k), halved for
	// m = 0.
	interpolate := func(p *[n]float64, vals [n]float64) {
		for m := range n {
			var c float64
			for k, v := range vals {
				c += v * node(m, k)
			}
			c *= 2.0 / n
			if m == 0 {
				c /= 2
			}
			for i := range p {
				p[i] += c * cheb[m][i]
			}
		}
	}
	for j := range t {
		var vals [n]float64
		for k := range vals {
			s := (float64(2*j+1) + node(1, k)) / (2 * gainPieces)
			vals[k] = newtonGain(s*s/2, 0) / s
		}
		// Interpolate, then interpolate what rounding left at the nodes
		// (one step of iterative refinement).
		interpolate(&t[j], vals)
		var left [n]float64
		for k := range left {
			left[k] = vals[k] - horner(t[j][:], node(1, k))
		}
		interpolate(&t[j], left)
	}
	return t
}()

// invertGain returns the x > 0 with h(x) = y for 0 < y < 1: from gainTable
// up to y = 1/2, by newtonGain from start above.
func invertGain(y, start float64) float64 {
	if y <= 0.5 {
		s := math.Sqrt(2 * y)
		j := min(int(s*gainPieces), gainPieces-1)
		return s * horner(gainTable[j][:], s*(2*gainPieces)-float64(2*j+1))
	}
	return newtonGain(y, start)
}

// newtonGain returns the x > 0 with h(x) = y for 0 < y < 1. It solves the
// equivalent ψ(x) = x − ln(1 + x) = −ln(1 − y) (from 1 − y = (1 + x)e^{−x})
// by Newton's method: ψ is increasing and convex on x > 0, so from any
// start the iterates fall monotonically to the root after the first step.
// start, when positive, is a guess (the last solution, say); otherwise
// √(2c) + c is used, close to the root both near 0 (ψ ≈ x²/2) and far out.
func newtonGain(y, start float64) float64 {
	c := -math.Log1p(-y)
	x := start
	if !(x > 0) {
		x = math.Sqrt(2*c) + c
	}
	for range 100 {
		nx := x - (psi(x)-c)*(1+x)/x
		if nx <= 0 {
			nx = x / 2
		}
		// Near the root the error after a step is about (step/x)²·x/2
		// (ψ''/2ψ' = 1/(2x(1 + x))): below 1e-18 once a step is 1e-9.
		if math.Abs(nx-x) <= 1e-9*nx {
			return nx
		}
		x = nx
	}
	return x
}

// invertAgeDrop returns the x > 0 with k(x) = c for c > 0, by Newton's
// method: k is increasing and convex on x > 0 (k” = 1 − e^{−x} + xe^{−x}
// > 0), so the iterates fall monotonically to the root after the first
// step.
func invertAgeDrop(c, start float64) float64 {
	x := start
	if !(x > 0) {
		// k ≈ x³/3 near 0, x²/2 − 1 far out: start above both.
		x = math.Max(math.Cbrt(3*c), math.Sqrt(2*(c+1)))
	}
	for range 200 {
		slope := x * expm1neg(x)
		nx := x - (ageDrop(x)-c)/slope
		if nx <= 0 {
			nx = x / 2
		}
		// Near the root the error after a step is about (step/x)²·x·C
		// with C = xk''/(2k') ≤ 1: below 1e-18 once a step is 1e-9.
		if math.Abs(nx-x) <= 1e-9*nx {
			return nx
		}
		x = nx
	}
	return x
}

// ChangeRatio returns the expected share of syncs that find the page
// changed: 1 − e^{−λ/f} for regular syncs (a change in the interval), and
// λ/(λ + f) for Poisson syncs (a change comes before the next sync). It is
// NaN for f = 0 (no syncs).
func ChangeRatio(lambda, f float64, s Spacing) float64 {
	switch {
	case f == 0:
		return math.NaN()
	case s == Poisson:
		return lambda / (lambda + f)
	}
	return expm1neg(lambda / f)
}

// Expectation holds a plan's exact expected time-averaged metrics.
type Expectation struct {
	Freshness   float64 `json:"freshness"`
	Age         float64 `json:"age"` // days; +Inf when a changing page is never synced
	Harmonic    float64 `json:"harmonic"`
	SyncsPerDay float64 `json:"syncsPerDay"`
	ChangeRatio float64 `json:"changeRatio"` // over all syncs
}

// Expect returns what Simulate's means converge to for plan p against the
// true change rates: the metrics averaged over pages with equal weight,
// and weighted by weights (nil for equal weights). It is exact, from the
// per-page formulas above; the change ratio is Σ f_i·c_i / Σ f_i.
func Expect(truth, weights []float64, p Plan) (mean, weighted Expectation, err error) {
	cfg := Config{Rates: truth, Weights: weights, Days: 1, Repeats: 1}
	if err := cfg.Check(); err != nil {
		return mean, weighted, err
	}
	if len(p.Rates) != len(truth) {
		return mean, weighted, fmt.Errorf("the plan has %d rates for %d pages", len(p.Rates), len(truth))
	}
	var wsum, changes float64
	for i := range truth {
		wsum += cfg.weight(i)
	}
	n := float64(len(truth))
	for i, lambda := range truth {
		f := p.Rates[i]
		fr, ag, hm := Freshness(lambda, f, p.Spacing), Age(lambda, f, p.Spacing), Harmonic(lambda, f, p.Spacing)
		mean.Freshness += fr / n
		mean.Age += ag / n
		mean.Harmonic += hm / n
		if w := cfg.weight(i) / wsum; w > 0 {
			weighted.Freshness += w * fr
			weighted.Age += w * ag
			weighted.Harmonic += w * hm
		}
		mean.SyncsPerDay += f
		if f > 0 {
			changes += f * ChangeRatio(lambda, f, p.Spacing)
		}
	}
	mean.ChangeRatio = math.NaN()
	if mean.SyncsPerDay > 0 {
		mean.ChangeRatio = changes / mean.SyncsPerDay
	}
	weighted.SyncsPerDay, weighted.ChangeRatio = mean.SyncsPerDay, mean.ChangeRatio
	return mean, weighted, nil
}
