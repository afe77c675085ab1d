package estimate

import (
	"errors"
	"fmt"
	"math"
)

// Dist is a discretised distribution of change periods Δ in days, the form of
// Grimes & Ford's empirical prior p(Δ) (§4.3, Fig. 3: "at a 1-hour
// discretization"): Mass[k] is the probability that Δ lies in bin
// [Edges[k], Edges[k+1]), so len(Edges) = len(Mass) + 1. Masses need not be
// normalised.
type Dist struct {
	Edges []float64
	Mass  []float64
}

// Check reports whether d is usable: at least one bin, edges increasing from
// a non-negative start to at most MaxInterval with every bin's Point at least
// MinInterval, masses finite and non-negative with a positive sum.
func (d Dist) Check() error {
	if len(d.Mass) == 0 || len(d.Edges) != len(d.Mass)+1 {
		return fmt.Errorf("estimate: a distribution needs len(Edges) = len(Mass)+1 ≥ 2, got %d edges and %d masses", len(d.Edges), len(d.Mass))
	}
	if !(d.Edges[0] >= 0) || !(d.Edges[len(d.Edges)-1] <= MaxInterval) {
		return fmt.Errorf("estimate: bin edges must lie in [0, %g] days", float64(MaxInterval))
	}
	var sum float64
	for k, m := range d.Mass {
		if !(d.Edges[k+1] > d.Edges[k]) {
			return fmt.Errorf("estimate: bin edges must increase, edge %d is %g after %g", k+1, d.Edges[k+1], d.Edges[k])
		}
		if d.Point(k) < MinInterval {
			return fmt.Errorf("estimate: bin %d's period %g is below MinInterval", k, d.Point(k))
		}
		if !(m >= 0) || math.IsInf(m, 1) {
			return fmt.Errorf("estimate: mass %d is %g, want finite and non-negative", k, m)
		}
		sum += m
	}
	if !(sum > 0) || math.IsInf(sum, 1) {
		return errors.New("estimate: the masses must have a finite positive sum")
	}
	return nil
}

// Point returns the period that stands for bin k: its midpoint.
func (d Dist) Point(k int) float64 { return (d.Edges[k] + d.Edges[k+1]) / 2 }

// HourlyEdges returns the bin edges 0, 1 h, 2 h, … up to the first multiple
// of an hour at or beyond days: the paper's 1-hour discretisation.
func HourlyEdges(days float64) []float64 {
	n := int(math.Ceil(days/Hour - 1e-9))
	e := make([]float64, n+1)
	for i := range e {
		e[i] = float64(i) * Hour
	}
	return e
}

// LogEdges returns n+1 bin edges spaced evenly in log Δ from lo to hi days
// (0 < lo < hi): a coarser grid that spans periods from hours to years in a
// few hundred bins.
func LogEdges(lo, hi float64, n int) []float64 {
	e := make([]float64, n+1)
	step := lnDet(hi/lo) / float64(n)
	for i := range e {
		e[i] = lo * expDet(float64(i)*step)
	}
	e[0], e[n] = lo, hi
	return e
}

// Histogram returns the distribution of the sample of change periods (days)
// over the bins edges, and how many periods fell outside the bins. Each
// mass is the share of the whole sample in its bin, so the masses sum to the
// share inside the bins, and what they leave is the share outside (which
// package prior compares with the mass a fitted prior puts there). To bin a
// sample of rates, pass their reciprocals.
func Histogram(edges, periods []float64) (d Dist, outside int, err error) {
	d = Dist{Edges: edges, Mass: make([]float64, max(len(edges)-1, 0))}
	in := 0
	for _, p := range periods {
		k := bin(edges, p)
		if k < 0 {
			outside++
			continue
		}
		d.Mass[k]++
		in++
	}
	if in == 0 {
		return d, outside, errors.New("estimate: no period falls inside the bins")
	}
	for k := range d.Mass {
		d.Mass[k] /= float64(len(periods))
	}
	return d, outside, d.Check()
}

// bin returns k with edges[k] ≤ x < edges[k+1], or −1.
func bin(edges []float64, x float64) int {
	if len(edges) < 2 || !(x >= edges[0] && x < edges[len(edges)-1]) {
		return -1
	}
	lo, hi := 0, len(edges)-1 // edges[lo] ≤ x < edges[hi]
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if x < edges[mid] {
			hi = mid
		} else {
			lo = mid
		}
	}
	return lo
}

// grid is a prior ready for the posterior: the rate λ_k = 1/Point(k) and
// ln p_k of every bin with positive mass.
type grid struct {
	lam, lnp []float64
}

func newGrid(prior Dist) (*grid, error) {
	if err := prior.Check(); err != nil {
		return nil, err
	}
	var sum float64
	for _, m := range prior.Mass {
		sum += m
	}
	g := &grid{}
	for k, m := range prior.Mass {
		if m > 0 {
			g.lam = append(g.lam, 1/prior.Point(k))
			g.lnp = append(g.lnp, lnDet(m/sum))
		}
	}
	return g, nil
}

// logPosterior writes ln p_k + ln L(λ_k | h) into lp.
func (g *grid) logPosterior(h *History, lp []float64) {
	for k, lam := range g.lam {
		l := g.lnp[k] - lam*h.unchanged
		for _, t := range h.tc {
			l += lnDet(pChange(lam * t))
		}
		lp[k] = l
	}
}

// result turns a log posterior into the posterior mean or mode of λ. The
// weights e^{lp_k − max} are at most 1 and one of them is 1, so the sums
// cannot overflow and the mean is a finite convex combination of the λ_k.
func (g *grid) result(lp []float64, mode bool) Result {
	if len(lp) == 0 {
		return Result{Edge: Empty}
	}
	best := 0
	for k, l := range lp {
		if l > lp[best] {
			best = k
		}
	}
	if mode {
		return Result{Rate: g.lam[best]}
	}
	top := lp[best]
	var num, den float64
	for k, l := range lp {
		w := expDet(l - top)
		num += w * g.lam[k]
		den += w
	}
	return Result{Rate: num / den}
}

// PosteriorMean is the Bayes estimate E(λ | z) under a discretised empirical
// prior p(Δ) (Grimes & Ford §4.3): the prior's bins stand for point masses at
// Δ_k = Point(k) (bins with zero mass are dropped), the posterior is
// p_k·L(1/Δ_k | z) with the censored-Poisson likelihood
// L(λ | z) = Π_changed (1 − e^{−λ t_c}) · Π_unchanged e^{−λ t_u}, computed in log
// space (see LogLikelihood) and normalised by its largest term, and the
// estimate is Σ_k post_k/Δ_k. It has no edge cases: an empty history gives the
// prior mean of λ.
//
// It costs O(bins × changed intervals) per estimate, the expense §4.3 warns
// of; NewTracker keeps the log posterior between observations instead (the
// "additional storage of the computed posterior for each estimation step"),
// O(bins) per observation. Build it with NewPosteriorMean; the zero value
// returns Edge Empty.
type PosteriorMean struct{ g *grid }

// NewPosteriorMean returns the posterior-mean estimator under prior.
func NewPosteriorMean(prior Dist) (PosteriorMean, error) {
	g, err := newGrid(prior)
	return PosteriorMean{g}, err
}

// Estimate implements Estimator.
func (p PosteriorMean) Estimate(h *History) Result { return p.g.estimate(h, false) }

// NewTracker implements Sequential.
func (p PosteriorMean) NewTracker() Tracker { return p.g.tracker(false) }

// PosteriorMode is the maximum a posteriori rate on the same grid as
// PosteriorMean: §4.3 speaks of both the posterior expectation and "a
// maximization computation"; the mode is the Bayes counterpart of PseudoMLE,
// which maximises a likelihood augmented by a prior. Ties go to the shortest
// period. Build it with NewPosteriorMode.
type PosteriorMode struct{ g *grid }

// NewPosteriorMode returns the posterior-mode estimator under prior.
func NewPosteriorMode(prior Dist) (PosteriorMode, error) {
	g, err := newGrid(prior)
	return PosteriorMode{g}, err
}

// Estimate implements Estimator.
func (p PosteriorMode) Estimate(h *History) Result { return p.g.estimate(h, true) }

// NewTracker implements Sequential.
func (p PosteriorMode) NewTracker() Tracker { return p.g.tracker(true) }

func (g *grid) estimate(h *History, mode bool) Result {
	if g == nil {
		return Result{Edge: Empty}
	}
	lp := make([]float64, len(g.lam))
	g.logPosterior(h, lp)
	return g.result(lp, mode)
}

// Sequential is an Estimator that can also take a page's observations one
// at a time, keeping its state between them, which is cheaper than
// re-reading the whole history each time. Paths uses it when an estimator
// offers it; both ways give the same estimates to rounding.
type Sequential interface {
	Estimator
	NewTracker() Tracker
}

// Tracker follows one page at a time.
type Tracker interface {
	// Reset starts a new page with no observations.
	Reset()
	// Observe adds an interval of t days (which must lie in [MinInterval,
	// MaxInterval], or ErrInterval is returned) ending with changed.
	Observe(t float64, changed bool) error
	// Result returns the estimate given the observations so far.
	Result() Result
}

type gridTracker struct {
	g    *grid
	mode bool
	lp   []float64
}

func (g *grid) tracker(mode bool) Tracker {
	t := &gridTracker{g: g, mode: mode}
	if g != nil {
		t.lp = make([]float64, len(g.lam))
		t.Reset()
	}
	return t
}

func (t *gridTracker) Reset() {
	if t.g != nil {
		copy(t.lp, t.g.lnp)
	}
}

func (t *gridTracker) Observe(x float64, changed bool) error {
	if !(x >= MinInterval && x <= MaxInterval) {
		return fmt.Errorf("%w: %g", ErrInterval, x)
	}
	if t.g == nil {
		return nil
	}
	if changed {
		for k, lam := range t.g.lam {
			t.lp[k] += lnDet(pChange(lam * x))
		}
	} else {
		for k, lam := range t.g.lam {
			t.lp[k] -= lam * x
		}
	}
	return nil
}

func (t *gridTracker) Result() Result {
	if t.g == nil {
		return Result{Edge: Empty}
	}
	return t.g.result(t.lp, t.mode)
}
