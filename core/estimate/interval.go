package estimate

import "math"

// halfChi2 is half the 95% quantile of the χ² distribution with one degree
// of freedom: a rate is inside the likelihood-ratio interval when its
// log-likelihood is within this of the maximum.
const halfChi2 = 3.841458820694124 / 2

// LikelihoodInterval returns the 95% likelihood-ratio interval [lo, hi] for
// a page's change rate given h (changes per day): the rates λ with
// 2(ℓ_max − ℓ(λ)) ≤ χ²₁(0.95), ℓ being LogLikelihood (Wilks's theorem; the
// log-likelihood is concave in λ, so the set is an interval). Unlike a
// normal interval around the MLE it stays meaningful at the edge cases of
// Grimes & Ford §3.3, where the likelihood peaks at a boundary: when nothing
// changed the supremum is at λ = 0 and the interval is [0, 1.92/Σt]; when
// every interval changed it is at λ → ∞ and hi is +Inf; an empty history
// gives [0, +Inf].
func LikelihoodInterval(h *History) (lo, hi float64) {
	switch h.edge() {
	case Empty:
		return 0, math.Inf(1)
	case NoChange:
		return 0, halfChi2 / h.Total()
	}
	top, lmax := math.Inf(1), 0.0 // AllChanged: the supremum, 0, as λ → ∞
	if h.edge() == None {
		top = MLE{}.Estimate(h).Rate
		lmax = LogLikelihood(h, top)
	}
	target := lmax - halfChi2
	below := func(r float64) bool { return LogLikelihood(h, r) < target }
	start := top
	if math.IsInf(top, 1) {
		start = 1 / h.Shortest()
	}
	lo = crossing(start, 0.5, below)
	if !math.IsInf(top, 1) {
		hi = crossing(top, 2, below)
	} else {
		hi = math.Inf(1)
	}
	return lo, hi
}

// crossing finds, from a rate inside the interval (where below is false,
// or, for the all-changed case, a start on either side), the rate where
// below turns true going in the direction of factor (0.5: down, 2: up):
// steps by the factor to bracket it, then bisects geometrically to a
// relative width of 1e-12.
func crossing(start, factor float64, below func(float64) bool) float64 {
	in, out := start, start
	for !below(out) {
		in = out
		out *= factor
		if out == 0 || math.IsInf(out, 0) {
			return in
		}
	}
	for below(in) && in != 0 { // the all-changed start may lie outside
		out = in
		in /= factor
		if math.IsInf(in, 0) {
			return out
		}
	}
	for range 200 {
		mid := math.Sqrt(in * out)
		if below(mid) {
			out = mid
		} else {
			in = mid
		}
		if math.Abs(out-in) <= 1e-12*in {
			break
		}
	}
	return in
}
