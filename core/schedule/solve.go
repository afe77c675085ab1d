package schedule

import "math"

// solveMultiplier finds the Lagrange multiplier ν > 0 at which an
// allocation spends the budget: S(ν) = budget, where spend returns the
// total sync rate S(ν) = Σ f_i(ν) and its slope dS/dν. S must fall from
// +∞ as ν → 0 to 0 as ν → ∞ (true of every policy here when some page can
// use a sync). It takes Newton steps from start on ln S against ln ν,
// where the spends here are close to power laws (S ∝ ν^{−1/2} for small
// ν, say), so a step from far away lands close; steps are kept inside the
// bracket of ν values known to spend too much and too little, and when one
// leaves it or the slope is useless it bisects instead (geometrically
// while the bracket spans more than a factor of 2). It returns the final
// bracket, S(lo) ≥ budget ≥ S(hi), equal ends when it converged on a
// single ν, and ok = false if ν left the floating-point range.
//
// In floating point S can jump at the root: a page whose marginal value is
// flat to the last bit (one synced far less often than it changes)
// switches on at once. Newton then stalls, bisection narrows the bracket to
// a few ulps, and the caller blends the allocations at its ends (see
// spendBudget).
func solveMultiplier(spend func(nu float64) (s, ds float64), budget, start float64) (lo, hi float64, ok bool) {
	a, b := 0.0, math.Inf(1) // S(a) > budget > S(b), as far as we know
	nu := start
	for range 2000 {
		if !(nu > 0) || math.IsInf(nu, 1) {
			return 0, 0, false
		}
		s, ds := spend(nu)
		g := s - budget
		if g == 0 {
			return nu, nu, true
		}
		if g > 0 {
			a = nu
		} else {
			b = nu
		}
		// Newton on u = ln ν, v = ln S: dv/du = ν·S'/S = −p.
		p := -nu * ds / s
		next := nu * (1 + math.Expm1(math.Log1p(g/budget)/p))
		if !(p > 0) || !(next > a && next < b) {
			switch {
			case math.IsInf(b, 1):
				next = 2 * nu
			case a == 0:
				next = nu / 2
			case b > 2*a:
				next = math.Sqrt(a) * math.Sqrt(b)
			default:
				next = a + (b-a)/2
			}
		} else if math.Abs(next-nu) <= 2e-16*nu {
			return next, next, true
		}
		if a > 0 && !math.IsInf(b, 1) && b-a <= 4e-16*b {
			return a, b, true
		}
		nu = next
	}
	if a == 0 || math.IsInf(b, 1) {
		return 0, 0, false
	}
	return a, b, true
}

// spendBudget sets f to the allocation that spends budget at the
// multiplier solveMultiplier brackets in [lo, hi]: rates(ν) writes f(ν)
// into f and returns its sum. When the two ends spend different amounts
// it blends them, θ·f(lo) + (1 − θ)·f(hi) with θ chosen to spend the
// budget; both satisfy the Lagrange condition to a few ulps of ν, so the
// blend does too. scratch must be as long as f. With counts (nil = 1 each)
// rates returns Σ c_i f_i and the budget is spent as Σ c_i f_i.
func spendBudget(rates func(nu float64) float64, lo, hi, budget float64, f, scratch, counts []float64) {
	sHi := rates(hi)
	if lo == hi {
		normalize(f, budget, counts)
		return
	}
	copy(scratch, f)
	sLo := rates(lo)
	if sLo > sHi {
		theta := (budget - sHi) / (sLo - sHi)
		for i := range f {
			f[i] = theta*f[i] + (1-theta)*scratch[i]
		}
	}
	normalize(f, budget, counts)
}

// reuseLast wraps eval, which writes f(ν) into the plan and returns S(ν)
// and its slope, for solveMultiplier and spendBudget: spendBudget asking
// for S at the multiplier eval last wrote the plan at (where the solve
// often ends) reads it back instead of solving every page again.
func reuseLast(eval func(nu float64) (s, ds float64)) (solve func(float64) (float64, float64), spend func(float64) float64) {
	at, atS := math.NaN(), 0.0
	solve = func(nu float64) (float64, float64) {
		s, ds := eval(nu)
		at, atS = nu, s
		return s, ds
	}
	spend = func(nu float64) float64 {
		if nu == at {
			return atS
		}
		s, _ := solve(nu)
		return s
	}
	return solve, spend
}
