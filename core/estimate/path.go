package estimate

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/refreshlab/refreshlab/core/stat"
)

// Schedule is how the crawler chooses each page's next crawl interval
// (Grimes & Ford §4.1, §5).
type Schedule struct {
	// Initial is the first interval in days. Zero asks the estimator for its
	// answer on an empty history and starts at Fraction·Δ̂, as §5 step 1 does
	// with the two pseudo-intervals ("estimate the initial crawl interval
	// using the two 'fake' data points"); only estimators with a prior
	// (PseudoMLE, PosteriorMean, PosteriorMode) can answer that.
	Initial float64
	// Fraction, when positive, makes the schedule sequential: after each
	// crawl the next interval is Fraction·Δ̂ = Fraction/λ̂ for the current
	// estimate. §4.1 uses 0.8 ("80% of the estimate"); §5 step 4 writes
	// C_{j+1} = Δ_{i,j}, that is 1. Zero keeps the Initial interval for
	// every crawl: a fixed-interval crawler.
	Fraction float64
	// Min and Max clamp every interval, in days; zero means MinInterval and
	// MaxInterval. A zero estimate (from an estimator without a substitute
	// for "nothing changed") asks for an infinite interval and gets Max.
	Min, Max float64
}

// Step is one epoch of one page's estimation path: the page was crawled
// after Interval days, showed Changed, and the estimator then said Result.
type Step struct {
	Interval float64
	Changed  bool
	Result
}

// Paths simulates estimation paths (Grimes & Ford §4.1, §4.2, §5; Figs. 2, 4
// and 7): a page whose changes are a Poisson process with a true rate λ is
// crawled Epochs times on Schedule, and after every crawl Estimator
// estimates λ from everything seen so far. Only whether at least one change
// fell in an interval matters, so each crawl after t days is one Bernoulli
// draw with P(change) = 1 − e^{−λt}: one rng.Float64 per page and epoch, in
// page order, so runs with the same seed share their random numbers and a
// sweep over initial intervals compares them on the same coin flips.
//
// A Paths keeps its scratch space between runs, so simulating many pages
// allocates nothing per page or epoch; it is not safe for concurrent use.
type Paths struct {
	Estimator Estimator
	Schedule  Schedule
	Epochs    int
	// Pool, when positive, also summarises the first Pool epochs together
	// (Summary.PooledMAD): our reading of Fig. 4's "median absolute
	// deviation of initial 5 crawl epochs" as the median over every page
	// and epoch among the first five. MAD[4] gives the other reading, the
	// deviation at the fifth epoch.
	Pool int

	h       History
	steps   []Step
	rates   []float64 // λ̂ per epoch and page: rates[e*pages + p]
	scratch []float64
}

// Summary aggregates the estimation paths of a set of pages per epoch
// (index e = the estimate after e+1 crawls).
type Summary struct {
	Pages int
	// Mean and SD are the mean and sample standard deviation of λ̂ over the
	// pages (changes per day); SD/√Pages is the mean's standard error. SD
	// is NaN for a single page.
	Mean, SD []float64
	// MAD is the median over the pages of |λ̂ − λ| in changes per day, the
	// measure of §4.2 and §5 ("median absolute deviation between the
	// estimated value and the true value").
	MAD []float64
	// MADPeriod is the median of |Δ̂ − Δ| = |1/λ̂ − 1/λ| in days: §5 reports
	// its result in hours ("a MAD of 100 hours less"), which suggests the
	// deviation of the change period. It is +Inf when more than half of the
	// pages estimate a zero rate (or have one).
	MADPeriod []float64
	// NoChange and AllChanged are the shares of pages whose estimate was in
	// that edge case (Fig. 2's blue and red points).
	NoChange, AllChanged []float64
	// Interval is the mean length of the epoch's crawl interval in days.
	Interval []float64
	// PooledMAD and PooledMADPeriod pool the first Pool epochs (NaN when
	// Pool is 0).
	PooledMAD, PooledMADPeriod float64
}

// schedule checks p and returns the first interval and the clamps.
func (p *Paths) schedule() (first, lo, hi float64, err error) {
	s := p.Schedule
	lo, hi = MinInterval, MaxInterval
	if s.Min != 0 {
		lo = s.Min
	}
	if s.Max != 0 {
		hi = s.Max
	}
	switch {
	case p.Estimator == nil:
		return 0, 0, 0, errors.New("estimate: Paths needs an Estimator")
	case p.Epochs < 1:
		return 0, 0, 0, fmt.Errorf("estimate: Paths needs at least one epoch, got %d", p.Epochs)
	case !(lo >= MinInterval && lo <= hi && hi <= MaxInterval):
		return 0, 0, 0, fmt.Errorf("estimate: the schedule's clamps [%g, %g] must lie within [MinInterval, MaxInterval] in order", lo, hi)
	case !(s.Fraction >= 0) || math.IsInf(s.Fraction, 1):
		return 0, 0, 0, fmt.Errorf("estimate: the schedule's fraction %g must be finite and non-negative", s.Fraction)
	}
	if s.Initial == 0 {
		if s.Fraction == 0 {
			return 0, 0, 0, errors.New("estimate: a fixed-interval schedule needs an initial interval")
		}
		p.h.Reset()
		r := p.Estimator.Estimate(&p.h)
		if r.Edge == Empty {
			return 0, 0, 0, errors.New("estimate: the estimator gives no estimate before the first crawl; set an initial interval")
		}
		return clamp(s.Fraction/r.Rate, lo, hi), lo, hi, nil
	}
	if !(s.Initial >= lo && s.Initial <= hi) {
		return 0, 0, 0, fmt.Errorf("estimate: the initial interval %g days is outside [%g, %g]", s.Initial, lo, hi)
	}
	return s.Initial, lo, hi, nil
}

func clamp(x, lo, hi float64) float64 {
	if !(x >= lo) { // also a NaN
		return lo
	}
	if x > hi { // a plain compare: Go's builtin min is a call in WebAssembly
		return hi
	}
	return x
}

// page simulates one page into steps[:Epochs] with estimator est.
func (p *Paths) page(est Estimator, rate, first, lo, hi float64, tr Tracker, rng *rand.Rand, steps []Step) {
	p.h.Reset()
	if tr != nil {
		tr.Reset()
	}
	t := first
	for e := range p.Epochs {
		changed := rng.Float64() < pChange(rate*t)
		var r Result
		if tr != nil {
			_ = tr.Observe(t, changed) // t is within [lo, hi]
			r = tr.Result()
		} else {
			_ = p.h.Add(t, changed)
			r = est.Estimate(&p.h)
		}
		steps[e] = Step{Interval: t, Changed: changed, Result: r}
		if p.Schedule.Fraction > 0 {
			t = clamp(p.Schedule.Fraction/r.Rate, lo, hi)
		}
	}
}

// tracker returns a Sequential estimator's tracker, nil for others and for
// a PerPage estimator, whose pages each have their own.
func (p *Paths) tracker() Tracker {
	if _, ok := p.Estimator.(PerPage); ok {
		return nil
	}
	if s, ok := p.Estimator.(Sequential); ok {
		return s.NewTracker()
	}
	return nil
}

func checkRate(rate float64) error {
	if !(rate >= 0) || math.IsInf(rate, 1) {
		return fmt.Errorf("estimate: a true rate must be finite and non-negative, got %g", rate)
	}
	return nil
}

// Page simulates one page with true rate λ (changes per day) and returns its
// path, appended to steps[:0]: Fig. 2 draws fifty of these.
func (p *Paths) Page(rate float64, rng *rand.Rand, steps []Step) ([]Step, error) {
	steps = steps[:0]
	first, lo, hi, err := p.schedule()
	if err == nil {
		err = checkRate(rate)
	}
	if err != nil {
		return steps, err
	}
	steps = slices.Grow(steps, p.Epochs)[:p.Epochs]
	p.page(p.Estimator, rate, first, lo, hi, p.tracker(), rng, steps)
	return steps, nil
}

// Run simulates one page for each true rate in rates and summarises the
// paths per epoch. A PerPage estimator estimates page i with For(i), and
// with Schedule.Initial 0 each page starts at the fraction of what For(i)
// says before any crawl.
func (p *Paths) Run(rates []float64, rng *rand.Rand) (Summary, error) {
	first, lo, hi, err := p.schedule()
	if err != nil {
		return Summary{}, err
	}
	if len(rates) == 0 {
		return Summary{}, errors.New("estimate: Run needs at least one page")
	}
	for _, r := range rates {
		if err := checkRate(r); err != nil {
			return Summary{}, err
		}
	}
	np, ne := len(rates), p.Epochs
	p.rates = grow(p.rates, np*ne)
	s := Summary{
		Pages: np, Mean: make([]float64, ne), SD: make([]float64, ne), MAD: make([]float64, ne),
		MADPeriod: make([]float64, ne), NoChange: make([]float64, ne), AllChanged: make([]float64, ne),
		Interval: make([]float64, ne), PooledMAD: math.NaN(), PooledMADPeriod: math.NaN(),
	}
	tr := p.tracker()
	p.steps = slices.Grow(p.steps[:0], ne)[:ne]
	pp, perPage := p.Estimator.(PerPage)
	for i, rate := range rates {
		est, start := p.Estimator, first
		if perPage {
			est = pp.For(i)
			if p.Schedule.Initial == 0 {
				p.h.Reset()
				start = clamp(p.Schedule.Fraction/est.Estimate(&p.h).Rate, lo, hi)
			}
		}
		p.page(est, rate, start, lo, hi, tr, rng, p.steps)
		for e, st := range p.steps {
			p.rates[e*np+i] = st.Rate
			s.Interval[e] += st.Interval
			switch st.Edge {
			case NoChange:
				s.NoChange[e]++
			case AllChanged:
				s.AllChanged[e]++
			}
		}
	}
	n := float64(np)
	for e := range ne {
		est := p.rates[e*np : (e+1)*np]
		var sum float64
		for _, r := range est {
			sum += r
		}
		mean := sum / n
		var ss float64
		for _, r := range est {
			ss += (r - mean) * (r - mean)
		}
		s.Mean[e] = mean
		s.SD[e] = math.NaN()
		if np > 1 {
			s.SD[e] = math.Sqrt(ss / (n - 1))
		}
		s.MAD[e], s.MADPeriod[e] = p.mad(rates, e, e+1)
		s.NoChange[e] /= n
		s.AllChanged[e] /= n
		s.Interval[e] /= n
	}
	if p.Pool > 0 {
		s.PooledMAD, s.PooledMADPeriod = p.mad(rates, 0, min(p.Pool, ne))
	}
	return s, nil
}

// mad returns the medians of |λ̂ − λ| and |1/λ̂ − 1/λ| over the pages and
// epochs [from, to).
func (p *Paths) mad(rates []float64, from, to int) (rate, period float64) {
	np := len(rates)
	p.scratch = grow(p.scratch, (to-from)*np)
	d := p.scratch
	for e := from; e < to; e++ {
		for i, r := range rates {
			d[(e-from)*np+i] = math.Abs(p.rates[e*np+i] - r)
		}
	}
	rate = stat.Median(d)
	for e := from; e < to; e++ {
		for i, r := range rates {
			d[(e-from)*np+i] = periodDeviation(p.rates[e*np+i], r)
		}
	}
	return rate, stat.Median(d)
}

// periodDeviation returns |1/a − 1/b|, +Inf when exactly one of them is 0
// and 0 when both are.
func periodDeviation(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(1/a - 1/b)
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
