package estimate

import "math"

// MLE is Cho & Garcia-Molina's maximum-likelihood estimator for irregular
// crawl intervals (Grimes & Ford eq. 2): λ̂ solves
//
//	F(λ) = Σ_changed t_c/(e^{λ t_c} − 1) − Σ_unchanged t_u = 0,
//
// the zero of the derivative of the censored-Poisson log-likelihood
// Σ_c ln(1 − e^{−λ t_c}) − λ Σ_u t_u (see LogLikelihood).
//
// The root exists and is unique whenever at least one interval changed and
// one did not: each term t/(e^{λt} − 1) decreases and is convex in λ, from +∞
// at λ → 0+ to 0 at λ → ∞, so F falls from +∞ to −Σt_u < 0. Since
// 1 − x/2 ≤ x/(e^x − 1) ≤ 1, the root lies in [L/(S_u + T_c/2), L/S_u] for L
// changed intervals of total length T_c and unchanged total S_u. We start from
// λ₀ = L·log1p(T_c/S_u)/T_c, the exact root when the changed intervals are
// equal and, by Jensen's inequality (t/(e^{λt} − 1) is convex in t), never
// beyond the root otherwise. Left of the root we take Halley steps
// (cubically convergent, and exact where F ≈ L/λ − S_u, so a start far below
// the root costs one step; with g = t/(e^{λt} − 1) the derivatives are
// dg/dλ = −g(g + t) and d²g/dλ² = g(g + t)(2g + t), no more exponentials);
// right of it, where F can be nearly flat and Halley would creep, Newton
// steps, which on a convex decreasing F land left of the root. A step that would leave the
// bracket is replaced by the bracket's geometric midpoint, and the loop is
// bounded (maxSolve steps), so it always ends with a finite positive rate; it
// stops once a step is below 1e-7·λ, leaving an error of order 1e-21·λ, far
// below rounding. e^{λt} − 1 is math.Expm1, accurate for small λt; it
// overflows to +Inf for λt > 709.78, where the term is correctly 0.
//
// The edge cases (§3.3: "if the page has never changed, use the sum of all
// time intervals sampled so far, and if the page has always changed, use the
// minimum interval sampled so far"): we read both as substitutes for the
// change period Δ = 1/λ, so nothing changed gives λ̂ = 1/Σt (Edge NoChange)
// and every interval changed gives λ̂ = 1/min t (Edge AllChanged). An empty
// history gives 0 (Edge Empty).
type MLE struct{}

// Estimate implements Estimator.
func (MLE) Estimate(h *History) Result {
	switch e := h.edge(); e {
	case Empty:
		return Result{Edge: Empty}
	case NoChange:
		return Result{Rate: 1 / h.Total(), Edge: NoChange}
	case AllChanged:
		return Result{Rate: 1 / h.Shortest(), Edge: AllChanged}
	}
	r, _ := solve(h.tc, 0, h.unchanged)
	return Result{Rate: r}
}

// DefaultPseudo is the length of each of Kolobov et al.'s two pseudo-intervals
// (NeurIPS 2019): half a day.
const DefaultPseudo = 0.5

// PseudoMLE is the MLE of eq. 2 on the history with two pseudo-intervals
// prepended, one that changed (Changed days long) and one that did not
// (Unchanged days): Grimes & Ford §4.4's approximation of an empirical prior,
// which "remov[es] any edge cases from the original MLE since at all times we
// have several initial data points". Maximising the likelihood of the
// augmented data is maximising L_pseudo(λ)·L_data(λ): the posterior mode under
// the prior density (1 − e^{−λ·Changed})·e^{−λ·Unchanged} in λ, which package
// prior fits to an empirical distribution.
//
// The zero value uses Kolobov et al.'s (NeurIPS 2019) two half-day intervals
// (DefaultPseudo); a zero or NaN length means DefaultPseudo, and other lengths
// are clamped to [MinInterval, MaxInterval]. On an empty history it returns
// the pseudo-intervals' own estimate, log1p(Changed/Unchanged)/Changed: the
// crawler's first interval (§5, step 1). Edge is always None.
type PseudoMLE struct {
	Changed, Unchanged float64 // days
}

// Estimate implements Estimator.
func (p PseudoMLE) Estimate(h *History) Result {
	c, u := pseudoLength(p.Changed), pseudoLength(p.Unchanged)
	r, _ := solve(h.tc, c, h.unchanged+u)
	return Result{Rate: r}
}

func pseudoLength(t float64) float64 {
	switch {
	case t == 0 || t != t:
		return DefaultPseudo
	case t < MinInterval:
		return MinInterval
	case t > MaxInterval:
		return MaxInterval
	}
	return t
}

// maxSolve bounds solve's steps. Within the interval limits the bracket's
// ratio hi/lo is below 2^100 or so, each bisection halves its logarithm, and
// the Halley and Newton steps converge within a few steps once near the root,
// so the bound is never reached in practice (TestSolveIterations and FuzzMLE
// check: the worst seen is about a dozen); if it were, the answer would still
// lie inside the proven bracket.
const maxSolve = 200

// solve returns the root of Σ g(t_c) + g(pc) − su, g(t) = t/(e^{λt} − 1),
// where pc > 0 adds a pseudo changed interval (0 adds none), and the number
// of steps taken. It needs at least one changed interval and su > 0.
func solve(tc []float64, pc, su float64) (float64, int) {
	n, sum := float64(len(tc)), 0.0
	for _, t := range tc {
		sum += t
	}
	if pc > 0 {
		n++
		sum += pc
	}
	lo, hi := n/(su+sum/2), n/su
	lam := n * math.Log1p(sum/su) / sum
	if !(lam >= lo) {
		lam = lo
	}
	if !(lam <= hi) {
		lam = hi
	}
	for it := 1; it <= maxSolve; it++ {
		f, d, d2 := -su, 0.0, 0.0
		for _, t := range tc {
			g := t / math.Expm1(lam*t)
			gg := g * (g + t)
			f += g
			d -= gg
			d2 += gg * (2*g + t)
		}
		if pc > 0 {
			g := pc / math.Expm1(lam*pc)
			gg := g * (g + pc)
			f += g
			d -= gg
			d2 += gg * (2*g + pc)
		}
		switch {
		case f > 0:
			lo = lam
		case f < 0:
			hi = lam
		default:
			return lam, it
		}
		// Left of the root, Halley's step (cubically convergent, and exact
		// where F ≈ L/λ − S). Right of it, where F can be nearly flat at −S
		// and Halley would creep by about 2/t a step, Newton's step, which
		// on a convex decreasing F lands left of the root (or outside the
		// bracket, and then we bisect).
		step := -f / d
		if f > 0 {
			step = -2 * f * d / (2*d*d - f*d2)
		}
		if math.Abs(step) <= 1e-7*lam { // converged: the error left is ~step³
			return min(max(lam+step, lo), hi), it
		}
		next := lam + step
		if !(next > lo && next < hi) {
			next = math.Sqrt(lo) * math.Sqrt(hi)
			if next <= lo || next >= hi { // the bracket is two adjacent floats
				return lo, it
			}
		}
		lam = next
	}
	return math.Sqrt(lo) * math.Sqrt(hi), maxSolve
}

// LogLikelihood returns the censored-Poisson log-likelihood of rate λ
// (changes per day) given h (§3.1, §4.3): each changed interval contributes
// ln(1 − e^{−λ t_c}), the chance of at least one change in it, and each
// unchanged one −λ t_u, the log-chance of none. It is −Inf for λ = 0 when
// something changed, and 0 for an empty history.
func LogLikelihood(h *History, rate float64) float64 {
	l := -rate * h.unchanged
	for _, t := range h.tc {
		l += lnDet(pChange(rate * t))
	}
	return l
}
