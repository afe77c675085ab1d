// Package estimate estimates a web page's change rate from a crawler's
// censored observations (Grimes & Ford, "Estimation of Web Page Change
// Rates", 2008 draft): every crawl interval of t days ends with one bit, did
// the page change, and the estimators turn a History of such bits into a
// rate λ̂ in changes per day.
//
// Every estimator is a small value type with the one method Estimate, in the
// style of gonum's distuv: the naive X/T (§3.2), Cho & Garcia-Molina's
// bias-reduced estimator for regular intervals (eq. 1), the irregular-interval
// maximum-likelihood estimator (eq. 2) with the paper's substitutes in its two
// edge cases (§3.3), the same with a prior made of two pseudo-intervals
// (§4.4), the posterior mean and mode under a discretised empirical prior
// (§4.3), and for comparison the history weights of Tan et al. (WebDB 2007,
// §4.2 eq. 5) and Al-Qaaideh's C(w) = D/V (MSc thesis 2009, §3.3.2).
//
// Paths simulates a page, or a population of pages, being re-crawled while
// its rate is estimated (§4.1, §4.2, §5; Figs. 2, 4, 7) and summarises each
// epoch by the median absolute deviation from the true rate and the share of
// estimates in an edge case. Package prior fits the two pseudo-intervals to an
// empirical distribution of change periods (§4.4).
//
// Units: days and changes per day throughout; Hour converts from the paper's
// hours.
package estimate

import "math"

// Estimator estimates a page's change rate from its history.
type Estimator interface {
	// Estimate returns λ̂ in changes per day. It never panics, and its Rate
	// is finite and non-negative; see Result.
	Estimate(h *History) Result
}

// Result is an estimate of a page's change rate.
type Result struct {
	// Rate is λ̂, changes per day: finite, and positive except where an
	// estimator documents a zero (an empty history, or an estimator without
	// a substitute when nothing changed).
	Rate float64
	// Edge says whether the history was in one of the degenerate cases where
	// the data carry no interior estimate, and the estimator answered with a
	// boundary value or a substitute. Estimators with a prior (PseudoMLE,
	// PosteriorMean, PosteriorMode) have no edge cases and report None.
	Edge Edge
}

// Period returns the estimated change period Δ̂ = 1/λ̂ in days, +Inf for a
// zero rate.
func (r Result) Period() float64 { return 1 / r.Rate }

// Edge names the degenerate cases of censored change data (§3.3, §4.1).
type Edge uint8

const (
	// None: some intervals changed and some did not (or the estimator has a
	// prior and needs no substitute).
	None Edge = iota
	// NoChange: no interval showed a change. The likelihood of eq. 2 then
	// grows without bound as λ → 0 (§4.3); Fig. 2 draws these in blue.
	NoChange
	// AllChanged: every interval showed a change; the likelihood grows
	// without bound as λ → ∞. Fig. 2 draws these in red.
	AllChanged
	// Empty: there are no observations at all.
	Empty
)

func (e Edge) String() string {
	switch e {
	case None:
		return "none"
	case NoChange:
		return "no change"
	case AllChanged:
		return "all changed"
	case Empty:
		return "empty"
	}
	return "unknown"
}

// Naive is the naive estimator λ̂ = X/T (§3.2, citing Taylor & Karlin): the
// number of intervals that showed a change over the total time observed. It
// counts at most one change per interval, so it is biased low under censoring
// and can never exceed 1/t̄ (the mean interval's reciprocal): with n regular
// intervals of length I its expectation is exactly (1 − e^{−λI})/I, however
// large n is. Nothing changed gives 0 (Edge NoChange); an empty history 0
// (Edge Empty).
type Naive struct{}

// Estimate implements Estimator.
func (Naive) Estimate(h *History) Result {
	e := h.edge()
	if e == Empty {
		return Result{Edge: Empty}
	}
	return Result{Rate: float64(h.Changes()) / h.Total(), Edge: e}
}

// ChoGarciaMolina is Cho & Garcia-Molina's bias-reduced estimator for a
// crawler with a regular interval I (TOIT 2003; Grimes & Ford eq. 1):
//
//	r̂ = −ln((n − X + 0.5)/(n + 0.5)),  λ̂ = r̂/I,
//
// with n intervals of which X showed a change (so n − X = Σ(1 − z_j), the
// count of unchanged intervals that eq. 1 writes).
//
// Our reading of eq. 1: the machine-converted text writes its left side as
// r̂ = Δ/C, but the right side estimates the frequency ratio r = λ·C = C/Δ
// (TOIT's r = λ/f, with f = 1/C the crawl frequency): as n grows, (n − X)/n →
// e^{−λC}, so the right side → λC. The text before it also says the estimator
// "is created in terms of the ratio of C/Δ". So λ̂ = r̂/C; TestCGMConsistent
// checks that this reading converges to the true rate and the printed one
// does not.
//
// Irregular intervals: the estimator assumes regular ones. Given irregular
// intervals we use their mean I = T/n, which keeps it defined (and equal to
// eq. 1 when the intervals are regular) but is no longer bias-reduced; use MLE
// for irregular histories. Nothing changed gives 0 (Edge NoChange); every
// interval changed gives ln(2n + 1)/I (Edge AllChanged), finite where the MLE
// is not.
type ChoGarciaMolina struct{}

// Estimate implements Estimator.
func (ChoGarciaMolina) Estimate(h *History) Result {
	e := h.edge()
	if e == Empty {
		return Result{Edge: Empty}
	}
	if e == NoChange {
		return Result{Edge: NoChange}
	}
	n := float64(h.Len())
	mean := h.Total() / n
	// −ln((n − X + 0.5)/(n + 0.5)) = −log1p(−X/(n + 0.5)).
	r := -math.Log1p(-float64(h.Changes()) / (n + 0.5))
	return Result{Rate: r / mean, Edge: e}
}
