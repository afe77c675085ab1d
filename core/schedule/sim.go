package schedule

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/refreshlab/refreshlab/core/stat"
)

// Syncer says when the simulator syncs each page: a Plan (an allocation's
// rates, regular or Poisson) or an Adaptive rule. The lab's refresh
// experiments can drive it the same way to turn a schedule into each
// cycle's downloads.
type Syncer interface {
	// First returns the time of page i's first sync after time 0, when
	// its copy is fresh; +Inf for never.
	First(i int, rng *rand.Rand) float64
	// Next returns the time of the sync of page i after the one at time
	// now, which found the page changed (or not); +Inf for never.
	Next(i int, now float64, changed bool, rng *rand.Rand) float64
}

// Run lengths of a default simulation. With 40 repeats of 1,000 measured
// days, the standard error of the mean freshness and mean age of Cho &
// Garcia-Molina's five-page reference case (λ = 1..5 a day, B = 5) is at
// most 0.0009 for each of its optimal, uniform and proportional plans
// (0.00087 for proportional's age, the largest; derived in
// TestDefaultRunLength from the renewal-reward variance of one sync
// interval), so 4 standard errors plus the rounding of the paper's
// three-decimal figures stay within 0.005. The year of warm-up lets an adaptive rule forget its
// initial interval (Nutch starts at 30 days).
const (
	DefaultDays    = 1000
	DefaultWarmup  = 365
	DefaultRepeats = 40
)

// MaxEvents bounds a simulation's work: Simulate refuses a setting whose
// ExpectedEvents exceed it (about 1.5 s natively and 10 s in WebAssembly,
// at the 15 and 120 ns per event BenchmarkSimulate measures).
const MaxEvents = 1e8

// ExpectedEvents estimates the changes and syncs Simulate would draw for
// cfg and s, warm-up included: Σ_i (λ_i + f_i)·(Warmup + Days)·Repeats.
// For an adaptive rule f_i·(Warmup + Days) is taken as 2λ_i·(Warmup +
// Days), about what the crawlers' rules settle at
// (TestAdaptiveProportional), plus the syncs of a page that never changes,
// counted by playing the rule on such a page over the whole run (a
// crawler's visits to a quiet page depend on more than its maximum
// interval: Nutch's settle at 81 and 89.1 days, not 365). That count
// stops once it alone would pass MaxEvents, which a rule whose quiet
// page's syncs pile up (gaps shrinking towards 0) reaches.
func ExpectedEvents(cfg Config, s Syncer) float64 {
	var perDay, quiet float64
	for i, lambda := range cfg.Rates {
		perDay += lambda
		switch s := s.(type) {
		case Plan:
			if i < len(s.Rates) {
				perDay += s.Rates[i]
			}
		case *Adaptive:
			perDay += 2 * lambda
		}
	}
	reps := float64(max(cfg.Repeats, 0))
	if a, ok := s.(*Adaptive); ok && len(cfg.Rates) > 0 && reps > 0 {
		limit := int(min(MaxEvents/(float64(len(cfg.Rates))*reps), MaxEvents)) + 1
		quiet = float64(len(cfg.Rates) * quietSyncs(a.Rule, cfg.Warmup+cfg.Days, limit))
	}
	return (perDay*(cfg.Warmup+cfg.Days) + quiet) * reps
}

// quietSyncs returns how many times Simulate syncs a page that never
// changes under rule before time end, played through the Syncer itself,
// counting up to limit.
func quietSyncs(rule Rule, end float64, limit int) int {
	a := NewAdaptive(rule, 1)
	n := 0
	for t := a.First(0, nil); t < end && n < limit; n++ {
		t = after(t, a.Next(0, t, false, nil))
	}
	return n
}

// Config is a simulation's setting: the truth and the run length.
type Config struct {
	// Rates are the true change rates λ_i, changes per day. They drive
	// the simulated changes; a schedule never sees them (a Plan made from
	// them is an oracle's, see Input.Oracle).
	Rates []float64
	// Weights are the request rates μ_i that weight Result's Weighted
	// metrics; nil weights every page equally.
	Weights []float64
	Days    float64 // the measured horizon T, days after the warm-up
	Warmup  float64 // days simulated before measuring
	Repeats int     // independent runs, for the 95% intervals
	Seed    uint64
	// PerPage asks for each page's metrics as well (Result.Pages).
	PerPage bool
}

// Metrics are a page's or the whole repository's time-averaged metrics
// over the measured horizon, each summarised across repeats.
type Metrics struct {
	// Freshness is the share of time the copy is up to date.
	Freshness stat.Summary `json:"freshness"`
	// Age is the time since the first change the copy misses, 0 while it
	// is fresh, in days.
	Age stat.Summary `json:"age"`
	// Harmonic is Kolobov et al.'s harmonic staleness H(N) = 1 + 1/2 +
	// … + 1/N for the N changes the copy misses.
	Harmonic stat.Summary `json:"harmonic"`
	// SyncsPerDay is the sync rate: for the repository, the total (the
	// budget actually spent).
	SyncsPerDay stat.Summary `json:"syncsPerDay"`
	// ChangeRatio is the share of syncs that found a change.
	ChangeRatio stat.Summary `json:"changeRatio"`
}

// Result is a simulation's outcome.
type Result struct {
	// Mean averages the metrics over pages with equal weight.
	Mean Metrics `json:"mean"`
	// Weighted averages freshness, age and harmonic staleness over pages
	// weighted by μ_i, the share of requests that see each page (Azar et
	// al.'s and Kolobov et al.'s objectives); it equals Mean without
	// weights. Its SyncsPerDay and ChangeRatio are Mean's.
	Weighted Metrics `json:"weighted"`
	// Pages holds each page's metrics when Config.PerPage is set.
	Pages []Metrics `json:"pages,omitempty"`
}

// Check reports the first problem with c.
func (c Config) Check() error {
	if len(c.Rates) == 0 {
		return errors.New("no pages: give at least one true change rate")
	}
	if err := checkValues("true change rate", c.Rates); err != nil {
		return err
	}
	if c.Weights != nil {
		if len(c.Weights) != len(c.Rates) {
			return fmt.Errorf("%d weights for %d pages", len(c.Weights), len(c.Rates))
		}
		if err := checkValues("weight", c.Weights); err != nil {
			return err
		}
		var sum float64
		for _, w := range c.Weights {
			sum += w
		}
		if sum == 0 {
			return errors.New("every weight is 0")
		}
	}
	if !(c.Days > 0) || math.IsInf(c.Days, 0) {
		return fmt.Errorf("days %v (expected a finite horizon > 0)", c.Days)
	}
	if !(c.Warmup >= 0) || math.IsInf(c.Warmup, 0) {
		return fmt.Errorf("warm-up %v (expected a finite number of days ≥ 0)", c.Warmup)
	}
	if c.Repeats < 1 {
		return fmt.Errorf("repeats %d (expected at least 1)", c.Repeats)
	}
	return nil
}

// Random streams of a repeat: changes and syncs draw from separate PCG
// streams, so two schedules run with the same seed see the same changes
// (common random numbers: their difference is measured with less noise).
const (
	changeStream = 0x6368616e67657321 // "changes!"
	syncStream   = 0x73796e6373212121 // "syncs!!!"
	repeatStride = 0x9E3779B97F4A7C15
)

// pageRun is one page's tallies over the measured horizon.
type pageRun struct {
	fresh, age, harm float64 // integrals over the horizon, days × metric
	syncs, changed   int     // syncs in the horizon, and those that found a change
}

// Simulate plays schedule s against the true change rates of cfg. Each
// page's changes are a Poisson process of its true rate; each is synced
// when s says; between events nothing moves, so freshness, age (a linear
// function of time while stale) and harmonic staleness (constant between
// changes) are integrated exactly, with no time step. Only the horizon
// after the warm-up is measured. A Plan must have one rate per page.
func Simulate(cfg Config, s Syncer) (*Result, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	n := len(cfg.Rates)
	switch s := s.(type) {
	case Plan:
		if len(s.Rates) != n {
			return nil, fmt.Errorf("the plan has %d rates for %d pages", len(s.Rates), n)
		}
		for i, f := range s.Rates {
			if !(f >= 0) || math.IsInf(f, 0) {
				return nil, fmt.Errorf("page %d: sync rate %v (expected a finite rate ≥ 0)", i, f)
			}
		}
	case *Adaptive:
		if len(s.state) != n {
			return nil, fmt.Errorf("the adaptive rule holds %d pages, the simulation has %d", len(s.state), n)
		}
		if err := checkRule(s.Rule); err != nil {
			return nil, err
		}
	case nil:
		return nil, errors.New("no schedule")
	}
	if w := ExpectedEvents(cfg, s); w > MaxEvents {
		return nil, fmt.Errorf("about %.3g changes and syncs to simulate, above the limit of %.3g: shorten the horizon, or use fewer repeats or pages", w, float64(MaxEvents))
	}

	reps := cfg.Repeats
	var wsum float64
	for i := range n {
		wsum += cfg.weight(i)
	}
	type series struct{ fresh, age, harm, wfresh, wage, wharm, syncs, ratio []float64 }
	mk := func() []float64 { return make([]float64, reps) }
	all := series{mk(), mk(), mk(), mk(), mk(), mk(), mk(), mk()}
	var pages [][5][]float64 // per page: freshness, age, harmonic, syncs/day, change ratio
	if cfg.PerPage {
		pages = make([][5][]float64, n)
		for i := range pages {
			for k := range pages[i] {
				pages[i][k] = mk()
			}
		}
	}

	cpcg, spcg := rand.NewPCG(0, 0), rand.NewPCG(0, 0)
	crng, srng := rand.New(cpcg), rand.New(spcg)
	days := cfg.Days
	for r := range reps {
		cpcg.Seed(cfg.Seed, changeStream+uint64(r)*repeatStride)
		spcg.Seed(cfg.Seed, syncStream+uint64(r)*repeatStride)
		var fr, ag, hm, wfr, wag, whm float64
		var syncs, changed int
		for i, lambda := range cfg.Rates {
			p := runPage(lambda, cfg.Warmup, cfg.Warmup+days, s, i, crng, srng)
			// The pieces of [warm, warm + days) can add up to a few ulps
			// of the end time more than days.
			p.fresh = min(p.fresh, days)
			w := cfg.weight(i) / wsum
			fr += p.fresh / days
			ag += p.age / days
			hm += p.harm / days
			wfr += w * p.fresh / days
			wag += w * p.age / days
			whm += w * p.harm / days
			syncs += p.syncs
			changed += p.changed
			if pages != nil {
				pg := &pages[i]
				pg[0][r] = p.fresh / days
				pg[1][r] = p.age / days
				pg[2][r] = p.harm / days
				pg[3][r] = float64(p.syncs) / days
				pg[4][r] = ratio(p.changed, p.syncs)
			}
		}
		all.fresh[r] = fr / float64(n)
		all.age[r] = ag / float64(n)
		all.harm[r] = hm / float64(n)
		all.wfresh[r], all.wage[r], all.wharm[r] = wfr, wag, whm
		all.syncs[r] = float64(syncs) / days
		all.ratio[r] = ratio(changed, syncs)
	}

	res := &Result{}
	res.Mean = Metrics{
		Freshness: stat.Summarize(all.fresh), Age: stat.Summarize(all.age), Harmonic: stat.Summarize(all.harm),
		SyncsPerDay: stat.Summarize(all.syncs), ChangeRatio: stat.Summarize(all.ratio),
	}
	res.Weighted = res.Mean
	if cfg.Weights != nil {
		res.Weighted.Freshness = stat.Summarize(all.wfresh)
		res.Weighted.Age = stat.Summarize(all.wage)
		res.Weighted.Harmonic = stat.Summarize(all.wharm)
	}
	if pages != nil {
		res.Pages = make([]Metrics, n)
		for i, pg := range pages {
			res.Pages[i] = Metrics{
				Freshness: stat.Summarize(pg[0]), Age: stat.Summarize(pg[1]), Harmonic: stat.Summarize(pg[2]),
				SyncsPerDay: stat.Summarize(pg[3]), ChangeRatio: stat.Summarize(pg[4]),
			}
		}
	}
	return res, nil
}

// weight returns μ_i, 1 without weights.
func (c Config) weight(i int) float64 {
	if c.Weights == nil {
		return 1
	}
	return c.Weights[i]
}

// ratio is changed/syncs, NaN without syncs.
func ratio(changed, syncs int) float64 {
	if syncs == 0 {
		return math.NaN()
	}
	return float64(changed) / float64(syncs)
}

// reciprocal[n] is 1/n, the step of H(n), looked up rather than divided
// in the simulator's inner loop.
var reciprocal = func() (r [1024]float64) {
	for n := 1; n < len(r); n++ {
		r[n] = 1 / float64(n)
	}
	return
}()

// runPage simulates page i from time 0, its copy fresh, to end, and
// returns its tallies over [warm, end). Changes come from crng, the
// schedule's randomness from srng.
func runPage(lambda, warm, end float64, s Syncer, i int, crng, srng *rand.Rand) pageRun {
	var p pageRun
	inf := math.Inf(1)
	nextChange := inf
	if lambda > 0 {
		nextChange = crng.ExpFloat64() / lambda
	}
	nextSync := s.First(i, srng)
	var (
		t      float64 // time of the last event
		missed int     // changes the copy misses
		h      float64 // H(missed)
		since  float64 // time of the first missed change
	)
	for {
		// Plain compares, not Go's builtin min and max: those are calls
		// into the runtime in WebAssembly (they order −0 before +0 and
		// carry NaN), and times here are never NaN or −0.
		next := nextChange
		if nextSync < next {
			next = nextSync
		}
		if end < next {
			next = end
		}
		// Add [t, next) ∩ [warm, end) to the tallies: the copy's state is
		// constant over it, its age linear.
		if next > warm {
			from := t
			if warm > from {
				from = warm
			}
			d := next - from
			if missed == 0 {
				p.fresh += d
			} else {
				p.age += d * ((from+next)/2 - since)
				p.harm += d * h
			}
		}
		t = next
		if next >= end {
			return p
		}
		if nextChange <= nextSync {
			missed++
			if missed < len(reciprocal) {
				h += reciprocal[missed]
			} else {
				h += 1 / float64(missed)
			}
			if missed == 1 {
				since = t
			}
			nextChange = t + crng.ExpFloat64()/lambda
			continue
		}
		changed := missed > 0
		if t >= warm {
			p.syncs++
			if changed {
				p.changed++
			}
		}
		missed, h = 0, 0
		nextSync = after(t, s.Next(i, t, changed, srng))
	}
}

// after returns next if it is later than t, else the least time after t:
// a schedule must move forward, and a rate so high that 1/f vanishes next
// to t, or a rule that syncs again at once, would stall.
func after(t, next float64) float64 {
	if next > t {
		return next
	}
	return math.Nextafter(t, math.Inf(1))
}
