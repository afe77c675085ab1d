package schedule

import "math"

// atMultiplier is what an allocation's plan at a Lagrange multiplier ν
// tells solvePlan.
type atMultiplier struct {
	// s is S(ν) = Σ c_i f_i(ν), the budget the plan spends, and ds its
	// slope dS/dν.
	s, ds float64
	// elasticity is the largest |d ln f_i / d ln ν| of a synced entry: a
	// relative step δ in ν moves no rate by much more than elasticity·δ
	// of itself.
	elasticity float64
	// lo and hi bound the multipliers around ν between which no entry
	// starts or stops being synced (0 and +Inf where none can).
	lo, hi float64
}

// linearStep bounds the last step of solvePlan, taken along the rates'
// slopes rather than by solving every entry again: after a relative step
// δ in ν with δ·max(1, elasticity) ≤ linearStep, each rate is off the one
// at the new ν by terms of second order, about (elasticity·δ)² of itself.
const linearStep = 1e-8

// solvePlan finds the Lagrange multiplier ν > 0 at which an allocation
// spends the budget and leaves that plan in f. eval(ν) writes the plan at
// ν into f and each rate's slope df_i/dν into df, and returns S(ν), its
// slope and the rest of atMultiplier; S must fall from +∞ as ν → 0 to 0
// as ν → ∞ (true of every policy here when some page can use a sync).
// counts weights the budget as in Input.Counts (nil: 1 each); scratch
// must be as long as f. It reports false if ν left the floating-point
// range, and the caller then gives no page a sync.
//
// It takes Newton steps from start on ln S against ln ν, where the spends
// here are close to power laws (S ∝ ν^{−1/2} for small ν, say), so a step
// from far away lands close; steps are kept inside the bracket of ν values
// known to spend too much and too little, and when one leaves it or the
// slope is useless it bisects instead (geometrically while the bracket
// spans more than a factor of 2).
//
// The last step is not solved: once a Newton step is small enough for
// linearStep and no entry starts or stops being synced on the way, each
// rate moves along its slope, f_i + (df_i/dν)·Δν, and the plan is scaled
// to spend the budget exactly (normalize). Newton converges
// quadratically, so the multiplier after that step is off by terms of
// second order too, and the plan is the solved one to far below 1e-12 of
// each rate (TestSolversMatchReference). From a start near the root (the
// last cycle's multiplier, say) that is two passes over the entries: one
// step, then the linear one.
//
// In floating point S can jump at the root: a page whose marginal value is
// flat to the last bit (one synced far less often than it changes)
// switches on at once, and near that point its rate moves by much more
// than an ulp when ν moves by one. Then the linear step is not taken; a
// Newton step below an ulp moves to the neighbouring float on the root's
// side, the bracket closes on two neighbours, and the plan blends the
// allocations at its ends (see spendBudget).
func solvePlan(eval func(nu float64) atMultiplier, budget, start float64, f, df, scratch, counts []float64) bool {
	a, b := 0.0, math.Inf(1)   // S(a) > budget > S(b), as far as we know
	at, atS := math.NaN(), 0.0 // the multiplier f holds the plan at, and its spend
	spend := func(nu float64) float64 {
		if nu != at {
			at, atS = nu, eval(nu).s
		}
		return atS
	}
	nu := start
	for range 2000 {
		if !(nu > 0) || math.IsInf(nu, 1) {
			return false
		}
		m := eval(nu)
		at, atS = nu, m.s
		g := m.s - budget
		if g == 0 {
			normalize(f, budget, counts)
			return true
		}
		if g > 0 {
			a = nu
		} else {
			b = nu
		}
		// Newton on u = ln ν, v = ln S: dv/du = ν·S'/S = −p.
		p := -nu * m.ds / m.s
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
		} else if d := next - nu; math.Abs(d)*max(1, m.elasticity) <= linearStep*nu && next > m.lo && next < m.hi {
			for i, slope := range df {
				f[i] += slope * d
			}
			normalize(f, budget, counts)
			return true
		} else if next == nu {
			next = math.Nextafter(nu, b)
			if g < 0 {
				next = math.Nextafter(nu, a)
			}
		}
		if a > 0 && !math.IsInf(b, 1) && b-a <= 4e-16*b {
			spendBudget(spend, a, b, budget, f, scratch, counts)
			return true
		}
		nu = next
	}
	if a == 0 || math.IsInf(b, 1) {
		return false
	}
	spendBudget(spend, a, b, budget, f, scratch, counts)
	return true
}

// spendBudget sets f to the allocation that spends budget at the
// multiplier a solver brackets in [lo, hi]: rates(ν) writes f(ν)
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
