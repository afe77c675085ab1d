package schedule

import "math"

// Cho & Garcia-Molina's policies ("Synchronizing a database to improve
// freshness", SIGMOD 2000; "Effective page refresh policies for Web
// crawlers", TODS 2003): pages synced at regular intervals, the budget
// shared uniformly, in proportion to the change rates, or optimally for
// freshness or for age.

// Uniform syncs every page at the same rate, f_i = B/N, whatever its
// change rate (Cho & Garcia-Molina's uniform policy); with Input.Counts,
// f_i = B/Σc_i. It spends the whole budget.
type Uniform struct {
	Spacing Spacing // Regular in the paper
}

// Allocate implements Policy.
func (u Uniform) Allocate(in Input, dst []float64) (Plan, error) {
	if err := in.Check(); err != nil {
		return Plan{}, err
	}
	f := resize(dst, len(in.Rates))
	each := in.Budget / in.pages()
	for i := range f {
		f[i] = each
	}
	return Plan{Rates: f, Spacing: u.Spacing, Oracle: in.Oracle}, nil
}

// Proportional syncs each page in proportion to its change rate, f_i =
// B·λ_i/Σλ (Cho & Garcia-Molina's proportional policy). When every rate
// is 0 there is nothing to be proportional to, and it shares the budget
// uniformly (the limit of equal rates). With Input.Counts, f_i =
// B·λ_i/Σc_jλ_j. It spends the whole budget.
type Proportional struct {
	Spacing Spacing // Regular in the paper
}

// Allocate implements Policy.
func (p Proportional) Allocate(in Input, dst []float64) (Plan, error) {
	if err := in.Check(); err != nil {
		return Plan{}, err
	}
	var total float64
	for i, r := range in.Rates {
		total += in.count(i) * r
	}
	if total == 0 {
		return Uniform(p).Allocate(in, dst)
	}
	f := resize(dst, len(in.Rates))
	for i, r := range in.Rates {
		f[i] = in.Budget * r / total
	}
	return Plan{Rates: f, Spacing: p.Spacing, Oracle: in.Oracle}, nil
}

// ChoFreshness is Cho & Garcia-Molina's optimal allocation for freshness:
// maximise Σ F(λ_i, f_i) subject to Σ f_i = B, syncs at regular intervals.
// The Lagrange condition is dF/df(λ_i, f_i) = ν for every synced page,
// with dF/df = (1 − e^{−λ/f})/λ − e^{−λ/f}/f = h(λ/f)/λ and h(x) = 1 −
// (1 + x)e^{−x} rising from 0 to 1 (FreshnessSlope). So a page is synced
// only if 1/λ_i > ν (pages with 1/λ_i ≤ ν get f_i = 0: they change too
// often to be worth it), at f_i = λ_i/x_i with h(x_i) = λ_i·ν; ν is found
// so that Σ f_i = B (by Newton steps inside a bisection bracket, which
// reaches the ν a plain bisection would in a few passes over the pages).
// The multiplier is the paper's μ; we call it ν because μ is the request
// rate here.
//
// On the paper's five pages (λ = 1..5 a day, B = 5) it gives f = 1.15,
// 1.36, 1.35, 1.14, 0 and mean freshness 0.374 (TestChoReferenceAllocation,
// TestChoReferenceMetrics).
//
// Weights: with Input.Weights the objective is Σ μ_i F(λ_i, f_i), the
// condition μ_i·dF/df = ν, so h(x_i) = λ_i ν/μ_i. This is our extension
// (Cho & Garcia-Molina weight pages by importance in TODS 2003; we do not
// have that text here); with no weights it is the paper's condition.
//
// It spends the whole budget unless no page can use it (every page has
// λ_i = 0 or μ_i = 0, so syncing changes no freshness); then every f_i = 0.
type ChoFreshness struct{}

// Allocate implements Policy.
func (ChoFreshness) Allocate(in Input, dst []float64) (Plan, error) {
	if err := in.Check(); err != nil {
		return Plan{}, err
	}
	n := len(in.Rates)
	f := resize(dst, n)
	clear(f)
	plan := Plan{Rates: f, Spacing: Regular, Oracle: in.Oracle}
	xs := make([]float64, n) // warm starts for the per-page Newton solves
	var guessed, atGuess, useful float64
	for i, r := range in.Rates {
		w, c := in.weight(i), in.count(i)
		if r > 0 && w > 0 && c > 0 {
			useful += c
			if g := in.guess(i); g > 0 {
				// At the guessed plan's multiplier a synced page's
				// marginal value is ν, and x = λ/f.
				xs[i] = r / g
				guessed += c
				atGuess += c * w * FreshnessSlope(r, g)
			}
		}
	}
	if useful == 0 || in.Budget == 0 {
		return plan, nil
	}
	start := startFrom(atGuess, guessed, func() float64 {
		// The mean marginal value under a uniform share.
		var s float64
		pages := in.pages()
		for i, r := range in.Rates {
			if w, c := in.weight(i), in.count(i); r > 0 && w > 0 && c > 0 {
				s += c * w * FreshnessSlope(r, in.Budget/pages)
			}
		}
		return s / useful
	})
	// eval writes f(ν) and df/dν into f and df. With y = λν/μ, dx/dy =
	// 1/h'(x) = (1 + x)/(x(1 − y)) (h' = xe^{−x} and 1 − y = (1 + x)e^{−x}),
	// so the elasticity −d ln f/d ln ν = d ln x/d ln y is y(1 + x)/(x²(1 −
	// y)). A page stops being synced where y reaches 1.
	df := make([]float64, n)
	weights, counts := in.Weights, in.Counts
	eval := func(nu float64) atMultiplier {
		m := atMultiplier{hi: math.Inf(1)}
		on, off := 0.0, math.Inf(1) // the largest y below 1, the smallest above
		perNu := 1 / nu
		for i, r := range in.Rates {
			f[i], df[i] = 0, 0
			if r == 0 {
				continue
			}
			y := r * nu
			if weights != nil {
				if weights[i] == 0 {
					continue
				}
				y /= weights[i]
			}
			if y >= 1 {
				off = min(off, y)
				continue
			}
			on = max(on, y)
			x := invertGain(y, xs[i])
			xs[i] = x
			perX := 1 / x
			e := y * (1 + x) * perX * perX / (1 - y)
			fi := r * perX
			dfi := -fi * e * perNu
			f[i], df[i] = fi, dfi
			if counts != nil {
				fi *= counts[i]
				dfi *= counts[i]
			}
			m.s += fi
			m.ds += dfi
			m.elasticity = max(m.elasticity, e)
		}
		if on > 0 {
			m.hi = nu / on
		}
		if off < math.Inf(1) {
			m.lo = nu / off
		}
		return m
	}
	if !solvePlan(eval, in.Budget, start, f, df, make([]float64, n), in.Counts) {
		clear(f)
	}
	return plan, nil
}

// ChoAge is Cho & Garcia-Molina's optimal allocation for age: minimise
// Σ A(λ_i, f_i) subject to Σ f_i = B, syncs at regular intervals, with
// A(λ, f) = 1/(2f) − 1/λ + (f/λ²)(1 − e^{−λ/f}).
//
// The Lagrange condition, derived here (the papers' age formula is A; the
// condition is ours):
// dA/df(λ_i, f_i) = −ν for every page, and
//
//	dA/df = −1/(2f²) + (1 − e^{−λ/f})/λ² − e^{−λ/f}/(λf) = −k(λ/f)/λ²
//
// with k(x) = x²/2 − 1 + (1 + x)e^{−x} (AgeSlope; checked against finite
// differences). k rises from 0 to ∞, so unlike freshness every changing
// page gets syncs: an unsynced page's age grows without bound. f_i =
// λ_i/x_i with k(x_i) = ν·λ_i², and ν solves Σ f_i = B. A is convex in f,
// d²A/df² = k'(x)·x²/λ³ = x³(1 − e^{−x})/λ³ > 0 with k'(x) = x(1 − e^{−x}),
// so the condition gives the minimum. With weights the objective is Σ μ_i A_i and
// k(x_i) = ν λ_i²/μ_i (our extension, as for ChoFreshness).
//
// It spends the whole budget unless every page has λ_i = 0 or μ_i = 0.
type ChoAge struct{}

// Allocate implements Policy.
func (ChoAge) Allocate(in Input, dst []float64) (Plan, error) {
	if err := in.Check(); err != nil {
		return Plan{}, err
	}
	n := len(in.Rates)
	f := resize(dst, n)
	clear(f)
	plan := Plan{Rates: f, Spacing: Regular, Oracle: in.Oracle}
	xs := make([]float64, n)
	var guessed, atGuess, useful float64
	for i, r := range in.Rates {
		w, c := in.weight(i), in.count(i)
		if r > 0 && w > 0 && c > 0 {
			useful += c
			if g := in.guess(i); g > 0 {
				// At the guessed plan's multiplier μ·dA/df = −ν, and
				// x = λ/f.
				xs[i] = r / g
				guessed += c
				atGuess -= c * w * AgeSlope(r, g)
			}
		}
	}
	if useful == 0 || in.Budget == 0 {
		return plan, nil
	}
	start := startFrom(atGuess, guessed, func() float64 {
		var s float64
		pages := in.pages()
		for i, r := range in.Rates {
			if w, c := in.weight(i), in.count(i); r > 0 && w > 0 && c > 0 {
				s -= c * w * AgeSlope(r, in.Budget/pages)
			}
		}
		return s / useful
	})
	// eval writes f(ν) and df/dν into f and df. With c = νλ²/μ = k(x),
	// dx/dc = 1/k'(x) with k'(x) = x(1 − e^{−x}), so the elasticity
	// −d ln f/d ln ν = d ln x/d ln c is c/(x·k'(x)).
	df := make([]float64, n)
	eval := func(nu float64) atMultiplier {
		m := atMultiplier{hi: math.Inf(1)}
		for i, r := range in.Rates {
			w := in.weight(i)
			f[i], df[i] = 0, 0
			if r == 0 || w == 0 {
				continue
			}
			c := nu * r * r / w
			x := invertAgeDrop(c, xs[i])
			xs[i] = x
			e := c / (x * x * expm1neg(x))
			f[i] = r / x
			df[i] = -f[i] * e / nu
			k := in.count(i)
			m.s += k * f[i]
			m.ds += k * df[i]
			m.elasticity = max(m.elasticity, e)
		}
		return m
	}
	if !solvePlan(eval, in.Budget, start, f, df, make([]float64, n), in.Counts) {
		clear(f)
	}
	return plan, nil
}
