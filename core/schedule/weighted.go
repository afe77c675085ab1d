package schedule

import (
	"math"
	"slices"
)

// Azar is the request-weighted freshness optimum of Azar, Horvitz,
// Lubetzky, Peres & Shahaf ("Tractable near-optimal policies for crawling",
// PNAS 2018): pages synced by Poisson processes of rates ρ_i, maximise
// Σ μ_i ρ_i/(ρ_i + Δ_i), the rate at which requests find a fresh copy,
// subject to Σ ρ_i = R. Names: their Δ_i is our change rate λ_i, their ρ_i
// our f_i, their R our budget B and their multiplier λ our ν.
//
// The Lagrange condition μ_iΔ_i/(ρ_i + Δ_i)² = ν gives ρ_i = max(0,
// √(μ_iΔ_i/ν) − Δ_i): a page is synced only if μ_i/Δ_i > ν, so pages
// requested rarely for how often they change get nothing. We find ν
// exactly rather than by bisection, in O(n log n) like the paper's method:
// with the pages sorted by μ_i/Δ_i, if the first k are synced then √ν =
// Σ_{j≤k} √(μ_jΔ_j) / (R + Σ_{j≤k} Δ_j), and the right k is the first whose
// ν is at least the (k+1)-th ratio. Checked against a brute-force search of
// the simplex (TestAzarMatchesBruteForce).
//
// It spends the whole budget unless every page has Δ_i = 0 or μ_i = 0.
type Azar struct{}

// Allocate implements Policy.
func (Azar) Allocate(in Input, dst []float64) (Plan, error) {
	if err := in.Check(); err != nil {
		return Plan{}, err
	}
	f := resize(dst, len(in.Rates))
	clear(f)
	plan := Plan{Rates: f, Spacing: Poisson, Oracle: in.Oracle}
	if in.Budget == 0 {
		return plan, nil
	}
	type page struct {
		ratio float64 // μ_i/Δ_i
		i     int32
	}
	order := make([]page, 0, len(f))
	for i, r := range in.Rates {
		if w := in.weight(i); r > 0 && w > 0 {
			order = append(order, page{w / r, int32(i)})
		}
	}
	if len(order) == 0 {
		return plan, nil
	}
	slices.SortFunc(order, func(a, b page) int {
		switch {
		case a.ratio > b.ratio:
			return -1
		case a.ratio < b.ratio:
			return 1
		}
		return int(a.i - b.i)
	})
	// With Input.Counts an entry of count c adds c times to both sums; an
	// entry of count 0 adds nothing, and testing ν against its ratio
	// decides the same k as testing it against the next counted one.
	var sq, sd, nu float64
	for k, p := range order {
		c := in.count(int(p.i))
		sq += c * math.Sqrt(in.weight(int(p.i))*in.Rates[p.i])
		sd += c * in.Rates[p.i]
		r := sq / (in.Budget + sd)
		nu = r * r
		if k+1 == len(order) || nu >= order[k+1].ratio {
			break
		}
	}
	if nu == 0 { // every page that could use a sync has count 0
		return plan, nil
	}
	for _, p := range order {
		if rho := math.Sqrt(in.weight(int(p.i))*in.Rates[p.i]/nu) - in.Rates[p.i]; rho > 0 {
			f[p.i] = rho
		}
	}
	normalize(f, in.Budget, in.Counts)
	return plan, nil
}

// LambdaCrawl is Kolobov, Peres, Lu & Horvitz's optimal policy for harmonic
// staleness ("Staying up to date with online content changes using
// reinforcement learning for scheduling", NeurIPS 2019), for pages whose
// changes are seen only by crawling them: minimise Σ μ_i E[H(N_i)], N_i
// the changes page i's copy misses and H(N) = 1 + 1/2 + … + 1/N, with
// Poisson crawls of rates ρ_i summing to R.
//
// With Poisson crawls E[H(N_i)] = ln(1 + Δ_i/ρ_i) (see Harmonic; Δ_i is
// our λ_i), so the Lagrange condition μ_iΔ_i/(ρ_i(ρ_i + Δ_i)) = ν gives
//
//	ρ_i = (−Δ_i + √(Δ_i² + 4μ_iΔ_i/ν))/2,
//
// positive for every page that changes and is requested: the penalty of
// an uncrawled page grows without bound, so no page starves. We evaluate it
// as (2μ_iΔ_i/ν)/(Δ_i + √(Δ_i² + 4μ_iΔ_i/ν)), the same number without the
// cancellation, and find ν by Newton steps inside a bisection bracket
// (the paper bisects).
//
// It spends the whole budget unless every page has Δ_i = 0 or μ_i = 0.
type LambdaCrawl struct{}

// Allocate implements Policy.
func (LambdaCrawl) Allocate(in Input, dst []float64) (Plan, error) {
	if err := in.Check(); err != nil {
		return Plan{}, err
	}
	f := resize(dst, len(in.Rates))
	clear(f)
	plan := Plan{Rates: f, Spacing: Poisson, Oracle: in.Oracle}
	var wsum, guessed, atGuess float64
	for i, r := range in.Rates {
		if r > 0 {
			c, w := in.count(i), in.weight(i)
			wsum += c * w
			if g := in.guess(i); g > 0 && c > 0 && w > 0 {
				// The condition at the guessed plan's multiplier.
				guessed += c
				atGuess += c * w * r / (g * (g + r))
			}
		}
	}
	if wsum == 0 || in.Budget == 0 {
		return plan, nil
	}
	// eval writes f(ν) and df/dν into f and df, with q = 4μΔ/ν:
	// dρ/dν = −q/(4ν√(Δ² + q)), and the elasticity −d ln ρ/d ln ν =
	// (Δ + √(Δ² + q))/(2√(Δ² + q)), between 1/2 and 1.
	df := make([]float64, len(f))
	eval := func(nu float64) atMultiplier {
		m := atMultiplier{hi: math.Inf(1)}
		for i, d := range in.Rates {
			w := in.weight(i)
			f[i], df[i] = 0, 0
			if d == 0 || w == 0 {
				continue
			}
			q := 4 * w * d / nu
			root := math.Sqrt(d*d + q)
			f[i] = (q / 2) / (d + root)
			df[i] = -q / (4 * nu * root)
			c := in.count(i)
			m.s += c * f[i]
			m.ds += c * df[i]
			m.elasticity = max(m.elasticity, (d+root)/(2*root))
		}
		return m
	}
	// For pages that change far more often than they are crawled ρ_i ≈
	// μ_i/ν, so Σμ/R is close when the budget is small.
	start := startFrom(atGuess, guessed, func() float64 { return wsum / in.Budget })
	if !solvePlan(eval, in.Budget, start, f, df, make([]float64, len(f)), in.Counts) {
		clear(f)
	}
	return plan, nil
}

// LambdaCrawlApprox is Kolobov et al.'s approximation of LambdaCrawl that
// needs no change rates: ρ_i = R·μ_i/Σμ, the limit of LambdaCrawl's ρ_i ≈
// μ_i/ν − μ_i²/(ν²Δ_i) + … when every page changes much faster than it is
// crawled. It ignores Input.Rates; with no weights it is the uniform
// policy with Poisson crawls. When every weight is 0 it shares the budget
// uniformly. With Input.Counts, ρ_i = R·μ_i/Σc_jμ_j. It spends the whole
// budget.
type LambdaCrawlApprox struct{}

// Allocate implements Policy.
func (LambdaCrawlApprox) Allocate(in Input, dst []float64) (Plan, error) {
	if err := in.Check(); err != nil {
		return Plan{}, err
	}
	var wsum float64
	for i := range in.Rates {
		wsum += in.count(i) * in.weight(i)
	}
	if wsum == 0 {
		return Uniform{Spacing: Poisson}.Allocate(in, dst)
	}
	f := resize(dst, len(in.Rates))
	for i := range f {
		f[i] = in.Budget * in.weight(i) / wsum
	}
	return Plan{Rates: f, Spacing: Poisson, Oracle: in.Oracle}, nil
}

// OlstonPandey is the utility-threshold rule of Olston & Pandey ("Recrawl
// scheduling based on information longevity", WWW 2008) for pages with
// Poisson changes: the utility of refreshing a page t days after its last
// refresh is U(t) = 1/λ − (t + 1/λ)e^{−λt}, and a page is refreshed when
// its utility reaches a threshold τ, the same for every page; τ is found
// by bisection so that the refreshes spend the budget. Each page is then
// refreshed every I_i days with U_i(I_i) = τ, at regular intervals.
//
// Why it is Cho & Garcia-Molina's optimum (checked, and tested in
// TestOlstonPandeyIsChoOptimum): U(I) = h(λI)/λ with h(x) = 1 − (1 +
// x)e^{−x}, so U(I_i) = τ is h(λ_i/f_i) = λ_iτ, which is ChoFreshness's
// Lagrange condition with ν = τ. Pages with 1/λ_i ≤ τ never reach the
// threshold (U rises only to 1/λ) and are never refreshed. With weights
// the rule compares μ_i·U_i(t) with τ.
//
// This type computes the schedule on its own path, in the time domain: a
// bisection on τ around a safeguarded Newton solve of U_i(I) = τ/μ_i per
// page, so the test compares two computations, not one.
type OlstonPandey struct{}

// Allocate implements Policy.
func (OlstonPandey) Allocate(in Input, dst []float64) (Plan, error) {
	if err := in.Check(); err != nil {
		return Plan{}, err
	}
	n := len(in.Rates)
	f := resize(dst, n)
	clear(f)
	plan := Plan{Rates: f, Spacing: Regular, Oracle: in.Oracle}
	var hiTau float64 // above max μ_i/λ_i no page is ever refreshed
	for i, r := range in.Rates {
		if w := in.weight(i); r > 0 && w > 0 && in.count(i) > 0 {
			hiTau = math.Max(hiTau, w/r)
		}
	}
	if hiTau == 0 || in.Budget == 0 {
		return plan, nil
	}
	last := make([]float64, n) // each page's last interval, a warm start
	var guessed, atGuess float64
	for i, r := range in.Rates {
		if g, w, c := in.guess(i), in.weight(i), in.count(i); g > 0 && r > 0 && w > 0 && c > 0 {
			// The guessed plan's interval, and the threshold it met.
			last[i] = 1 / g
			guessed += c
			atGuess += c * w * utility(r, 1/g)
		}
	}
	spend := func(tau float64) float64 {
		var s float64
		for i, r := range in.Rates {
			w := in.weight(i)
			f[i] = 0
			if r == 0 || w == 0 || tau*r >= w {
				continue
			}
			last[i] = utilityInterval(r, tau/w, last[i])
			f[i] = 1 / last[i]
			s += in.count(i) * f[i]
		}
		return s
	}
	// Bisection on τ in (0, hiTau): spend falls as τ rises. The bracket's
	// low end starts at hiTau, or just above the guessed plan's threshold,
	// and halves until the budget is spent.
	lo, hi := hiTau, hiTau
	if tau := atGuess / guessed; guessed > 0 && tau > 0 && tau*1.001 < hiTau {
		lo = tau * 1.001
	}
	for spend(lo) < in.Budget {
		hi = lo
		lo /= 2
		if lo == 0 {
			return plan, nil
		}
	}
	for hi-lo > 1e-13*hi {
		mid := lo + (hi-lo)/2
		if spend(mid) >= in.Budget {
			lo = mid
		} else {
			hi = mid
		}
	}
	spendBudget(spend, lo, hi, in.Budget, f, make([]float64, n), in.Counts)
	return plan, nil
}

// utility is Olston & Pandey's U(t) = 1/λ − (t + 1/λ)e^{−λt} for Poisson
// changes of rate λ, computed as written for λt ≥ 1/2 and by its series
// U(t) = λt² Σ_{n≥0} (−λt)^n (n+1)/(n+2)! below, where the two terms cancel.
func utility(lambda, t float64) float64 {
	x := lambda * t
	if x < 0.5 {
		var sum float64
		term := 0.5 // (n+1)/(n+2)! at n = 0
		p := 1.0
		for n := 0; n < 60; n++ {
			s := p * term
			sum += s
			if math.Abs(s) < 1e-18*math.Abs(sum) {
				break
			}
			p *= -x
			term *= float64(n+2) / (float64(n+1) * float64(n+3))
		}
		return lambda * t * t * sum
	}
	e := 1 - expm1neg(x) // e^{−λt}
	return 1/lambda - (t+1/lambda)*e
}

// utilityInterval returns the t > 0 with U(t) = tau for 0 < tau < 1/λ,
// by Newton's method on U, whose slope is U'(t) = λte^{−λt}, kept inside
// a bracket that halves when a step leaves it.
func utilityInterval(lambda, tau, start float64) float64 {
	lo, hi := 0.0, math.Inf(1)
	t := start
	if !(t > 0) {
		t = math.Sqrt(2*tau/lambda) + tau // U ≈ λt²/2 near 0
	}
	for range 300 {
		u := utility(lambda, t) - tau
		if u == 0 {
			return t
		}
		if u < 0 {
			lo = t
		} else {
			hi = t
		}
		slope := lambda * t * (1 - expm1neg(lambda*t))
		nt := t - u/slope
		if !(nt > lo && nt < hi) {
			if math.IsInf(hi, 1) {
				nt = 2 * t
			} else {
				nt = lo + (hi-lo)/2
			}
		} else if math.Abs(nt-t) <= 1e-9*t {
			// Newton's error after this step is about (step/t)²·t·(1 −
			// λt)/(2λt): a few ulps at most over the rates we accept.
			return nt
		}
		if !math.IsInf(hi, 1) && hi-lo <= 1e-15*hi {
			return nt
		}
		t = nt
	}
	return t
}
