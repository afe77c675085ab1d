// Package prior fits Grimes & Ford's two pseudo-intervals to an empirical
// distribution of change periods (§4.4, Fig. 6): one "changed" and one
// "unchanged" interval, prepended to every page's history, whose induced
// prior best matches the distribution across all pages, so that the MLE on
// the augmented history (estimate.PseudoMLE) behaves as if that distribution
// were its prior and never meets an edge case.
package prior

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/refreshlab/refreshlab/core/estimate"
	"github.com/refreshlab/refreshlab/core/internal/detmath"
	"github.com/refreshlab/refreshlab/core/stat"
)

// Induced is the prior on λ that two pseudo-intervals induce: "the posterior
// given just these two intervals" (§4.4).
//
// Our reading: the posterior of λ given a changed interval of length c and an
// unchanged one of length u, under a flat reference measure in λ, is the
// normalised likelihood L(λ) = (1 − e^{−λc})·e^{−λu}. Flat in λ is the
// reading consistent with how the prior is used: the MLE of the augmented
// history maximises L_pseudo(λ)·L_data(λ) over λ, which is the posterior mode
// under this density in λ. (A flat reference in Δ would not normalise: L(1/Δ)
// ≈ c/Δ as Δ → ∞.) The normalised density is
//
//	π(λ) = u(u + c)/c · (e^{−λu} − e^{−λ(u + c)}),
//
// the density of the sum of two independent exponentials with rates u and
// u + c (a hypoexponential law), so its mean is 1/u + 1/(u + c) and
// P(Λ > λ) = e^{−λu}·(1 + (u/c)(1 − e^{−λc})). Lengths are in days, λ in
// changes per day.
type Induced struct {
	Changed, Unchanged float64
}

// Density returns π(λ) in days (per unit rate).
func (p Induced) Density(rate float64) float64 {
	if !(rate >= 0) {
		return 0
	}
	c, u := p.Changed, p.Unchanged
	return u * (u + c) / c * expNeg(rate*u) * -math.Expm1(-rate*c)
}

// Survival returns P(Λ > λ) under the induced prior.
func (p Induced) Survival(rate float64) float64 {
	if !(rate > 0) {
		return 1
	}
	c, u := p.Changed, p.Unchanged
	return expNeg(rate*u) * (1 + u/c*-math.Expm1(-rate*c))
}

// Mean returns the prior mean of λ, 1/u + 1/(u + c).
func (p Induced) Mean() float64 {
	return 1/p.Unchanged + 1/(p.Unchanged+p.Changed)
}

// Masses writes into dst (resized) the induced prior's probability of each
// change-period bin [edges[k], edges[k+1]) in days, P(1/edges[k+1] < Λ ≤
// 1/edges[k]), and returns it. What the bins leave out is 1 − Σ dst.
func (p Induced) Masses(edges []float64, dst []float64) []float64 {
	dst = dst[:0]
	if len(edges) < 2 {
		return dst
	}
	prev := p.Survival(1 / edges[0])
	for _, e := range edges[1:] {
		s := p.Survival(1 / e)
		dst = append(dst, s-prev)
		prev = s
	}
	return dst
}

// expNeg returns e^{−x}, the same to the last bit natively and in
// WebAssembly (detmath).
func expNeg(x float64) float64 { return detmath.Exp(-x) }

// Options tune Fit; zero fields take the defaults.
type Options struct {
	// Steps is the number of Metropolis-Hastings steps per restart
	// (default 1000).
	Steps int
	// Restarts is the number of independent chains from different random
	// starting lengths (default 8).
	Restarts int
	// Step is the initial half-width of a proposal, in natural-log units of
	// the lengths (default 1: a move by up to a factor e).
	Step float64
	// Temperature is the starting temperature as a fraction of the starting
	// loss (default 0.1): at first, a move that worsens the loss by a tenth of
	// its starting value is kept with probability 1/e.
	Temperature float64
}

func (o Options) withDefaults() Options {
	if o.Steps <= 0 {
		o.Steps = 1000
	}
	if o.Restarts <= 0 {
		o.Restarts = 8
	}
	if !(o.Step > 0) {
		o.Step = 1
	}
	if !(o.Temperature > 0) {
		o.Temperature = 0.1
	}
	return o
}

// Run is one restart's chain.
type Run struct {
	Start, Best Induced
	Loss        float64 // the loss at Best
	Accepted    int     // moves kept
}

// Result is the outcome of Fit: the best pseudo-intervals over all restarts
// and how much the restarts agree ("restarting the process many times and
// from different points gives a measure of confidence that the final answer
// is close to the global minima", §4.4).
type Result struct {
	Best Induced
	Loss float64
	Runs []Run
	// The spread of the restarts' final losses and lengths.
	LossMin, LossMedian, LossMax float64
	ChangedMin, ChangedMax       float64
	UnchangedMin, UnchangedMax   float64
}

// Loss is the L2 distance between the empirical distribution's bin masses
// and the masses the pseudo-intervals induce on the same bins, with the mass
// outside the bins counted as one more bin: §4.4's "L2 distance between the
// posterior and empirical distributions" on the grid of emp's bins (the
// paper's is 1-hour bins of Δ, estimate.HourlyEdges). Masses summing to at
// most 1 are read as probabilities, the rest lying outside the bins (as
// estimate.Histogram leaves them); masses summing to more are normalised to 1.
func Loss(emp estimate.Dist, p Induced) float64 {
	f, err := newFitter(emp)
	if err != nil {
		return math.NaN()
	}
	return f.loss(p)
}

type fitter struct {
	inv []float64 // 1/edges
	emp []float64 // empirical masses as probabilities
	out float64   // the empirical mass outside the bins
	lo  float64   // ln of the shortest and longest period on the grid
	hi  float64
}

func newFitter(emp estimate.Dist) (*fitter, error) {
	if err := emp.Check(); err != nil {
		return nil, err
	}
	f := &fitter{inv: make([]float64, len(emp.Edges)), emp: make([]float64, len(emp.Mass))}
	for k, e := range emp.Edges {
		f.inv[k] = 1 / e
	}
	var sum float64
	for _, m := range emp.Mass {
		sum += m
	}
	f.out = 1 - min(1, sum)
	sum = max(sum, 1)
	for k, m := range emp.Mass {
		f.emp[k] = m / sum
	}
	f.lo = detmath.Log(max(emp.Edges[0], emp.Point(0)))
	f.hi = detmath.Log(emp.Edges[len(emp.Edges)-1])
	return f, nil
}

// survival is Induced.Survival to 1e-16 absolute rather than relative
// accuracy, which is all masses need, with e^{−x} as 1 + expm1(−x): about
// half the cost.
func survival(c, u, rate float64) float64 {
	if !(rate > 0) {
		return 1
	}
	return (1 + math.Expm1(-rate*u)) * (1 + u/c*-math.Expm1(-rate*c))
}

func (f *fitter) loss(p Induced) float64 {
	var ss, in float64
	c, u := p.Changed, p.Unchanged
	prev := survival(c, u, f.inv[0])
	for k, m := range f.emp {
		s := survival(c, u, f.inv[k+1])
		d := s - prev - m
		ss += d * d
		in += s - prev
		prev = s
	}
	out := 1 - in - f.out
	return math.Sqrt(ss + out*out)
}

// The annealing schedule: over a chain the temperature falls by a factor of
// a million and the proposal width by a thousand.
var (
	lnTempRange  = detmath.Log(1e-6)
	lnWidthRange = detmath.Log(1e-3)
)

// Fit finds the two pseudo-interval lengths whose induced prior is closest to
// emp in Loss, by Metropolis-Hastings with simulated annealing as §4.4
// describes: "on successive steps of the Markov chain, the interval lengths
// are randomly changed and this change either kept or undone. If the
// resulting posterior distribution is closer to the empirical distribution
// then the new interval lengths are kept. If the distributions are further
// apart then the change is kept with a probability depending on how much
// worse the match is", that probability falling toward zero, with restarts
// from different points.
//
// What the paper leaves open, and our choices: a chain moves both lengths at
// once by independent uniform steps in log-length (a symmetric proposal, so
// the acceptance is exp(−Δloss/T)); the temperature falls geometrically from
// Temperature × the starting loss to a millionth of that, and the proposal
// width from Step to a thousandth of it, over Steps steps; each restart
// starts from lengths drawn log-uniformly over the grid's periods; lengths
// stay within [MinInterval, MaxInterval] (a move outside is rejected). Every
// random number comes from rng, uniform draws only, and every exponential
// and logarithm is pure Go (math.Expm1, detmath), so a seed gives the same
// fit to the last bit natively and in WebAssembly.
func Fit(emp estimate.Dist, opt Options, rng *rand.Rand) (Result, error) {
	if rng == nil {
		return Result{}, errors.New("prior: Fit needs a random source")
	}
	f, err := newFitter(emp)
	if err != nil {
		return Result{}, fmt.Errorf("prior: %w", err)
	}
	opt = opt.withDefaults()
	lnMin, lnMax := detmath.Log(estimate.MinInterval), detmath.Log(estimate.MaxInterval)
	res := Result{Runs: make([]Run, opt.Restarts), Loss: math.Inf(1)}
	for r := range res.Runs {
		x := [2]float64{f.lo + (f.hi-f.lo)*rng.Float64(), f.lo + (f.hi-f.lo)*rng.Float64()}
		at := func(x [2]float64) Induced { return Induced{Changed: detmath.Exp(x[0]), Unchanged: detmath.Exp(x[1])} }
		run := Run{Start: at(x)}
		cur := f.loss(run.Start)
		run.Best, run.Loss = run.Start, cur
		t0 := opt.Temperature * cur
		for k := range opt.Steps {
			frac := float64(k) / float64(max(opt.Steps-1, 1))
			temp := t0 * detmath.Exp(frac*lnTempRange)
			width := opt.Step * detmath.Exp(frac*lnWidthRange)
			y := [2]float64{x[0] + width*(2*rng.Float64()-1), x[1] + width*(2*rng.Float64()-1)}
			u := rng.Float64()
			if y[0] < lnMin || y[0] > lnMax || y[1] < lnMin || y[1] > lnMax {
				continue
			}
			p := at(y)
			l := f.loss(p)
			if l <= cur || (temp > 0 && u < expNeg((l-cur)/temp)) {
				x, cur = y, l
				run.Accepted++
				if l < run.Loss {
					run.Best, run.Loss = p, l
				}
			}
		}
		res.Runs[r] = run
		if run.Loss < res.Loss {
			res.Best, res.Loss = run.Best, run.Loss
		}
	}
	losses := make([]float64, len(res.Runs))
	res.ChangedMin, res.UnchangedMin = math.Inf(1), math.Inf(1)
	for i, run := range res.Runs {
		losses[i] = run.Loss
		res.ChangedMin = min(res.ChangedMin, run.Best.Changed)
		res.ChangedMax = max(res.ChangedMax, run.Best.Changed)
		res.UnchangedMin = min(res.UnchangedMin, run.Best.Unchanged)
		res.UnchangedMax = max(res.UnchangedMax, run.Best.Unchanged)
	}
	slices.Sort(losses)
	res.LossMin, res.LossMax = losses[0], losses[len(losses)-1]
	res.LossMedian = stat.Median(losses)
	return res, nil
}
