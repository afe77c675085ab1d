// Package schedule turns change rates into sync schedules and measures them
// in continuous time, the setting of Cho & Garcia-Molina (SIGMOD 2000, TODS
// 2003), Azar et al. (PNAS 2018), Kolobov et al. (NeurIPS 2019) and Olston
// & Pandey (WWW 2008): page i changes as a Poisson process of rate λ_i
// (changes per day), requests for it arrive at rate μ_i, and the crawler
// may spend B syncs per day.
//
// Two kinds of schedule live here:
//
//   - An allocation Policy maps the change rates it is told, the weights μ
//     and the budget B to a Plan: a sync rate f_i ≥ 0 per page with
//     Σ f_i = B, and whether the syncs of a page are evenly spaced
//     (Regular, as Cho & Garcia-Molina model them) or a Poisson process
//     (as Azar et al. and Kolobov et al. do).
//   - An adaptive Rule (Apache Nutch, Heritrix, StormCrawler) knows no
//     rates and no budget: after each sync it sets the page's next interval
//     from whether that sync found a change.
//
// Refresher plays an allocation Policy in the lab's batch refresh cycles
// (refresh.Policy), planning from rates it estimates from its own
// downloads, or from the truth as an oracle (RefreshDescriptors).
//
// The seam between what a policy is told and the truth is explicit: Input
// carries the rates a policy plans with (an estimator's output, or the true
// rates with Oracle set), while Config carries the true rates that drive the
// simulated changes. Simulate plays either kind of schedule against the
// truth and reports time-averaged freshness, age and harmonic staleness,
// each integrated exactly between events.
//
// Every transcendental function used here (math.Expm1, math.Log1p,
// math.Cbrt, math.Sqrt) is computed by the same Go code natively and in
// WebAssembly, so the same inputs and seed give the same bits on both
// (TestSameBitsEverywhere); math.Exp and math.Log, which amd64 computes in
// assembly, are avoided.
package schedule

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Spacing says how a page's syncs are spread in time.
type Spacing int

const (
	// Regular syncs a page every 1/f days, with a random phase (Cho &
	// Garcia-Molina's model).
	Regular Spacing = iota
	// Poisson syncs a page at the events of a Poisson process of rate f
	// (Azar et al.'s and Kolobov et al.'s model).
	Poisson
)

// String returns "regular" or "poisson".
func (s Spacing) String() string {
	switch s {
	case Regular:
		return "regular"
	case Poisson:
		return "poisson"
	}
	return fmt.Sprintf("Spacing(%d)", int(s))
}

// ParseSpacing reads "regular" or "poisson".
func ParseSpacing(s string) (Spacing, error) {
	switch s {
	case "regular":
		return Regular, nil
	case "poisson":
		return Poisson, nil
	}
	return 0, fmt.Errorf("unknown spacing %q (expected regular or poisson)", s)
}

// Input is what an allocation policy is told.
type Input struct {
	// Rates are the change rates λ_i, in changes per day, that the policy
	// plans with. They come from the caller: an estimator's output, or the
	// true rates, in which case the caller sets Oracle so that the plan and
	// its results are labelled as an oracle's. A policy never sees anything
	// else about the pages' changes.
	Rates []float64
	// Oracle records that Rates are the truth. Policies ignore it; Plan
	// carries it to the results.
	Oracle bool
	// Weights are the request (importance) rates μ_i of Azar et al. and
	// Kolobov et al., per day; nil means 1 for every page.
	Weights []float64
	// Budget is B, the syncs per day to share among the pages.
	Budget float64
	// Counts, when not nil, makes entry i stand for Counts[i] identical
	// pages (same rate, same weight), each given the rate f_i: the budget
	// constraint becomes Σ c_i f_i = B and every objective sum is weighted
	// by c_i, while each page's Lagrange condition, which does not depend
	// on how many pages share it, is unchanged. A caller planning for many
	// pages that fall into few classes (Refresher) allocates per class.
	// nil means 1 for every entry. Counts need not be integers.
	Counts []float64
	// Guess, when not nil, is a plan's rates for the same entries, the last
	// one made for nearly the same input, say (Refresher plans every cycle
	// from input that moves a little). The policies that solve for their
	// plan (ChoFreshness, ChoAge, LambdaCrawl, OlstonPandey) start from it
	// and reach the plan in fewer steps; it moves the plan by no more than
	// the solvers' own precision (a few ulps; OlstonPandey's bisection
	// stops at 1e-13 of its threshold). An entry beyond its length, or
	// guessed 0 or out of range, starts as without a guess. It must not
	// share dst's array.
	Guess []float64
}

// Limit bounds every rate, weight and budget: each is 0 or between
// 1/Limit and Limit (per day). The range spans one change in billions of
// years to a trillion a day, and keeps every intermediate quantity of the
// allocations far from overflow and underflow.
const Limit = 1e12

// inRange reports whether v is 0 or within [1/Limit, Limit].
func inRange(v float64) bool { return v == 0 || v >= 1/Limit && v <= Limit }

// checkValues reports the first of vs that is out of range, naming it as
// "page i: what".
func checkValues(what string, vs []float64) error {
	for i, v := range vs {
		if !inRange(v) {
			return fmt.Errorf("page %d: %s %v (expected 0 or a number between 1e-12 and 1e12)", i, what, v)
		}
	}
	return nil
}

// Check reports the first problem with in: no pages, weights or counts of
// the wrong length, a count that is negative, NaN or infinite, counts that
// sum to 0, or a rate, weight or budget that is not 0 or within [1/Limit,
// Limit] (negative, NaN and infinite values included).
func (in Input) Check() error {
	if len(in.Rates) == 0 {
		return errors.New("no pages: give at least one change rate")
	}
	if in.Weights != nil && len(in.Weights) != len(in.Rates) {
		return fmt.Errorf("%d weights for %d pages", len(in.Weights), len(in.Rates))
	}
	if err := checkValues("change rate", in.Rates); err != nil {
		return err
	}
	if err := checkValues("weight", in.Weights); err != nil {
		return err
	}
	if in.Counts != nil {
		if len(in.Counts) != len(in.Rates) {
			return fmt.Errorf("%d counts for %d pages", len(in.Counts), len(in.Rates))
		}
		var total float64
		for i, c := range in.Counts {
			if !(c >= 0) || math.IsInf(c, 1) {
				return fmt.Errorf("page %d: count %v (expected a finite number ≥ 0)", i, c)
			}
			total += c
		}
		if !(total > 0) || math.IsInf(total, 1) {
			return fmt.Errorf("counts sum to %v (expected a finite positive number of pages)", total)
		}
	}
	if !inRange(in.Budget) {
		return fmt.Errorf("budget %v (expected 0 or a number of syncs per day between 1e-12 and 1e12)", in.Budget)
	}
	return nil
}

// weight returns μ_i, 1 when there are no weights.
func (in Input) weight(i int) float64 {
	if in.Weights == nil {
		return 1
	}
	return in.Weights[i]
}

// count returns c_i, 1 when there are no counts.
func (in Input) count(i int) float64 {
	if in.Counts == nil {
		return 1
	}
	return in.Counts[i]
}

// guess returns entry i's guessed rate, 0 without a usable one.
func (in Input) guess(i int) float64 {
	if i < len(in.Guess) && inRange(in.Guess[i]) {
		return in.Guess[i]
	}
	return 0
}

// startFrom returns sum/n, a solver's starting multiplier averaged over n
// guessed entries, or fallback() when there are none or it is no positive
// finite number.
func startFrom(sum, n float64, fallback func() float64) float64 {
	if s := sum / n; n > 0 && s > 0 && !math.IsInf(s, 1) {
		return s
	}
	return fallback()
}

// pages returns Σ c_i, the number of pages the entries stand for.
func (in Input) pages() float64 {
	if in.Counts == nil {
		return float64(len(in.Rates))
	}
	var s float64
	for _, c := range in.Counts {
		s += c
	}
	return s
}

// Policy allocates a budget of syncs among pages from their change rates.
type Policy interface {
	// Allocate returns the plan for in, which it checks first. The plan's
	// rates are written into dst when it is long enough, so a caller can
	// reuse one slice.
	Allocate(in Input, dst []float64) (Plan, error)
}

// Plan is an allocation: how often each page is synced and how the syncs
// are spaced. It is also a Syncer, so Simulate can play it.
type Plan struct {
	Rates   []float64 // f_i, syncs per day
	Spacing Spacing
	Oracle  bool // planned from the true change rates
}

// Spent returns Σ f_i, the syncs per day the plan uses (per entry: with
// Input.Counts the budget spent is Σ c_i f_i).
func (p Plan) Spent() float64 {
	var s float64
	for _, f := range p.Rates {
		s += f
	}
	return s
}

// First implements Syncer: a regular page is first synced at a uniformly
// random phase of its interval, a Poisson page after an exponential wait;
// a page with f = 0 never.
func (p Plan) First(i int, rng *rand.Rand) float64 {
	f := p.Rates[i]
	if f <= 0 {
		return math.Inf(1)
	}
	if p.Spacing == Poisson {
		return rng.ExpFloat64() / f
	}
	return rng.Float64() / f
}

// Next implements Syncer: one interval 1/f after now for a regular page,
// an exponential wait of mean 1/f for a Poisson page. Regular syncs step
// by adding the interval; over the horizons Simulate runs (thousands of
// days), the rounding this accumulates stays below a millisecond.
func (p Plan) Next(i int, now float64, _ bool, rng *rand.Rand) float64 {
	f := p.Rates[i]
	if f <= 0 {
		return math.Inf(1)
	}
	if p.Spacing == Poisson {
		return now + rng.ExpFloat64()/f
	}
	return now + 1/f
}

// resize returns dst resized to n, or a new slice when it is too short.
func resize(dst []float64, n int) []float64 {
	if cap(dst) >= n {
		return dst[:n]
	}
	return make([]float64, n)
}

// normalize scales the positive rates of f so that Σ c_i f_i = budget
// exactly (up to rounding), removing what is left of a root finder's
// tolerance; counts nil means c_i = 1. It leaves f alone when nothing is
// positive.
func normalize(f []float64, budget float64, counts []float64) {
	var s float64
	for i, x := range f {
		if counts != nil {
			x *= counts[i]
		}
		s += x
	}
	if s <= 0 {
		return
	}
	c := budget / s
	for i := range f {
		f[i] *= c
	}
}
