package schedulekind

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/estimate"
	"github.com/refreshlab/refreshlab/core/estimate/estimatekind"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/schedule"
	"github.com/refreshlab/refreshlab/core/stat"

	"github.com/refreshlab/refreshlab/core/internal/quote"
)

var specErr = lab.SpecErrorf

// Resolve checks the kind's own fields of a spec and fills in their
// defaults. Its work is bounded in simulated events, by its own limit
// (schedule.MaxEvents), so it reports none to the lab's bound.
func (kind) Resolve(spec lab.Spec, d *dataset.Dataset) (lab.Spec, time.Duration, string, error) {
	n := len(d.Pages)
	switch {
	case spec.Budget == 0:
		spec.Budget = n
	case spec.Budget < 0 || float64(spec.Budget) > schedule.Limit:
		return spec, 0, "", specErr("budget", "must be at least 1 sync per day, got %d", spec.Budget)
	}
	spec.Cycles = 0
	ss := Spec{}
	if s := SpecOf(spec); s != nil {
		ss = *s
	}
	switch {
	case ss.Days == 0:
		ss.Days = schedule.DefaultDays
	case !(ss.Days > 0) || ss.Days > 1e6:
		return spec, 0, "", specErr("schedule.days", "must be between 0 and 1,000,000 days, got %v", ss.Days)
	}
	if ss.Warmup == nil {
		w := float64(schedule.DefaultWarmup)
		ss.Warmup = &w
	} else if w := *ss.Warmup; !(w >= 0) || w > 1e6 {
		return spec, 0, "", specErr("schedule.warmup", "must be between 0 and 1,000,000 days, got %v", w)
	}
	if ss.Rates == "" {
		ss.Rates = RatesOracle
	}
	if ss.Rates != RatesOracle && !slices.Contains(rateEstimators, ss.Rates) {
		return spec, 0, "", specErr("schedule.rates", "unknown rates %s (expected %q or an estimator: %v)", quote.Q(ss.Rates), RatesOracle, rateEstimators)
	}
	switch {
	case ss.Observe == 0:
		ss.Observe = DefaultObserve
	case !(ss.Observe > 0) || ss.Observe > 1e5:
		return spec, 0, "", specErr("schedule.observe", "must be between 0 and 100,000 days, got %v", ss.Observe)
	}
	spec.Sections = spec.Sections.With(ID, &ss)
	// The work bound: every simulated change and sync, as schedule's own.
	truth, _ := trueRates(d)
	var sum float64
	for _, r := range truth {
		sum += r
	}
	points := 1.0
	if spec.Sweep != nil {
		points += float64(len(spec.Sweep.Values))
	}
	events := (sum + 3*float64(spec.Budget)) * (*ss.Warmup + ss.Days) * float64(spec.Repeats) * float64(len(spec.Policies)) * points
	if events > schedule.MaxEvents {
		return spec, 0, "", specErr("schedule.days", "too much work: about %.3g simulated events exceeds %.0g; use fewer days, repeats or policies", events, float64(schedule.MaxEvents))
	}
	return spec, 0, "", nil
}

// trueRates returns the pages' true change rates in changes per day and
// where they come from: the dataset's Truth.Rates, else Cho &
// Garcia-Molina's estimator (Grimes & Ford eq. 1) on each page's whole
// per-cycle truth, as if every cycle were crawled, with a cycle of
// Info.CycleLength seconds (a day when it has none).
func trueRates(d *dataset.Dataset) ([]float64, string) {
	if d.Truth.Rates != nil {
		return d.Truth.Rates, "truth"
	}
	cycle := 1.0
	if d.Info.CycleLength > 0 {
		cycle = d.Info.CycleLength / 86400
	}
	changes := make([]int, len(d.Pages))
	for _, c := range d.Truth.Changed {
		for _, p := range c {
			changes[p]++
		}
	}
	n := float64(d.Truth.Cycles())
	out := make([]float64, len(d.Pages))
	for i, x := range changes {
		// −ln((n − X + 0.5)/(n + 0.5))/I, written with Log1p.
		out[i] = min(-math.Log1p(-(float64(x))/(n+0.5))/cycle, schedule.Limit)
	}
	return out, "estimated"
}

// Run runs a resolved schedule spec, one policy after another.
func (kind) Run(ctx context.Context, spec lab.Spec, d *dataset.Dataset, progress func(int)) (*lab.Result, error) {
	truth, from := trueRates(d)
	sres := &Result{RatesFrom: from}
	res := &lab.Result{Spec: spec, Dataset: d.Info, Sections: lab.Sections{ID: sres}}
	res.Spec.Policies = slices.Clone(spec.Policies)
	if len(truth) <= MaxAllocationPages {
		sres.TrueRates = truth
	}
	for i, ps := range spec.Policies {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pr, err := runPolicy(spec, truth, i)
		if err != nil {
			return nil, err
		}
		progress((i + 1) * spec.Repeats)
		sres.Events += pr.events
		if ps.Label != "" {
			pr.Label, pr.Name = ps.Label, pr.Name+" ("+ps.Label+")"
		}
		res.Policies = append(res.Policies, pr.PolicyResult)
	}
	ss := SpecOf(spec)
	res.Work = fmt.Sprintf("%s × %s × %g simulated days of %s", lab.Count(len(spec.Policies), "schedule", "schedules"), lab.Count(spec.Repeats, "repeat", "repeats"),
		*ss.Warmup+ss.Days, lab.Count(len(d.Pages), "page", "pages"))
	src := ""
	if from == "estimated" {
		src = " The dataset carries no true rates: they are estimated from its whole truth."
	}
	res.About = fmt.Sprintf("Time-averaged over %g days after %g days of warm-up, mean over %s; ± is the half-width of the 95%% interval across repeats. %s, %s per day, seed %d; rates planned with: %s.%s",
		ss.Days, *ss.Warmup, lab.Count(spec.Repeats, "repeat", "repeats"), d.Info.Name, lab.Count(spec.Budget, "sync", "syncs"), spec.Seed, ss.Rates, src)
	return res, nil
}

type policyRun struct {
	lab.PolicyResult
	events float64
}

// observeRates estimates each page's rate as a crawler would before it
// plans: Observe days of regular syncs every N/B days (at a random phase,
// so the first interval is whole), each seeing only whether the page
// changed, then the chosen estimator on that history.
func observeRates(rng interface{ Float64() float64 }, truth []float64, budget float64, days float64, est estimate.Estimator, out []float64) {
	interval := float64(len(truth)) / budget
	k := max(1, int(days/interval))
	var h estimate.History
	for i, lam := range truth {
		h.Reset()
		p := -math.Expm1(-lam * interval) // P(at least one change in an interval)
		for range k {
			_ = h.Add(interval, rng.Float64() < p)
		}
		out[i] = min(est.Estimate(&h).Rate, schedule.Limit)
	}
}

func runPolicy(spec lab.Spec, truth []float64, i int) (pr policyRun, err error) {
	ps := spec.Policies[i]
	desc, _ := byLabID(ps.ID)
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("schedule %s failed: %v", ps.ID, r)
		}
	}()
	ss := SpecOf(spec)
	n := len(truth)
	reps := spec.Repeats
	budget := float64(spec.Budget)
	oracle := desc.UsesRates && ss.Rates == RatesOracle
	sr := &PolicyResult{Type: desc.Type}
	if desc.UsesRates {
		sr.Rates = ss.Rates
	}
	fr, ag, hs, sp, cr := make([]float64, reps), make([]float64, reps), make([]float64, reps), make([]float64, reps), make([]float64, reps)
	keep := n <= MaxAllocationPages
	var alloc [][]float64
	if keep {
		alloc = make([][]float64, n)
		for j := range alloc {
			alloc[j] = make([]float64, reps)
		}
	}
	var policy schedule.Policy
	var rule schedule.Rule
	if desc.Type == schedule.TypeAllocation {
		policy, err = desc.NewPolicy(ps.Params)
	} else {
		rule, err = desc.NewRule(ps.Params)
	}
	if err != nil {
		return pr, specErr(fmt.Sprintf("policies[%d].params", i), "%s: %v", ps.ID, err)
	}
	var est estimate.Estimator
	switch ss.Rates {
	case estimatekind.EstNaive:
		est = estimate.Naive{}
	case estimatekind.EstCGM:
		est = estimate.ChoGarciaMolina{}
	case estimatekind.EstMLE:
		est = estimate.MLE{}
	}
	planRates := make([]float64, n)
	dst := make([]float64, n)
	var fixed *schedule.Plan
	for r := range reps {
		rng := lab.Stream(spec.Seed, ps.ID, r)
		var s schedule.Syncer
		var plan schedule.Plan
		switch {
		case policy != nil && fixed != nil:
			plan = *fixed
			s = plan
		case policy != nil:
			if desc.UsesRates && !oracle {
				observeRates(rng, truth, budget, ss.Observe, est, planRates)
			} else {
				copy(planRates, truth)
			}
			plan, err = policy.Allocate(schedule.Input{Rates: planRates, Oracle: oracle, Budget: budget}, dst)
			if err != nil {
				return pr, specErr(fmt.Sprintf("policies[%d]", i), "%s: %v", ps.ID, err)
			}
			plan.Rates = slices.Clone(plan.Rates)
			if !desc.UsesRates || oracle {
				fixed = &plan
			}
			s = plan
			sr.Spacing = plan.Spacing.String()
		default:
			s = schedule.NewAdaptive(rule, n)
		}
		cfg := schedule.Config{Rates: truth, Days: ss.Days, Warmup: *ss.Warmup, Repeats: 1, Seed: rng.Uint64(), PerPage: keep && rule != nil}
		pr.events += schedule.ExpectedEvents(cfg, s)
		out, err := schedule.Simulate(cfg, s)
		if err != nil {
			return pr, specErr(fmt.Sprintf("policies[%d]", i), "%s: %v", ps.ID, err)
		}
		m := out.Mean
		fr[r], ag[r], hs[r], sp[r], cr[r] = m.Freshness.Mean, m.Age.Mean, m.Harmonic.Mean, m.SyncsPerDay.Mean, m.ChangeRatio.Mean
		if keep {
			for j := range n {
				if rule != nil {
					alloc[j][r] = out.Pages[j].SyncsPerDay.Mean
				} else {
					alloc[j][r] = plan.Rates[j]
				}
			}
		}
	}
	if keep {
		sr.Allocation = make([]stat.Summary, n)
		for j := range n {
			sr.Allocation[j] = stat.Summarize(alloc[j])
		}
	}
	pr.PolicyResult = lab.PolicyResult{
		ID: ps.ID, Name: desc.Name, Oracle: oracle, Params: ps.Params,
		Metrics: map[string]stat.Summary{
			lab.MetricFreshness: stat.Summarize(fr), lab.MetricAge: stat.Summarize(ag), lab.MetricChangeRatio: stat.Summarize(cr),
			MetricHarmonic: stat.Summarize(hs), MetricSyncsPerDay: stat.Summarize(sp),
		},
		Values:   map[string][]float64{lab.MetricFreshness: fr, lab.MetricAge: ag, lab.MetricChangeRatio: cr, MetricHarmonic: hs, MetricSyncsPerDay: sp},
		Sections: lab.Sections{ID: sr},
	}
	if fixed != nil {
		// The plan is the same in every repeat (oracle rates, or none): its
		// exact expectations (an infinite or undefined one is left out).
		if mean, _, err := schedule.Expect(truth, nil, *fixed); err == nil {
			pr.SetFact(lab.FactExpectedFreshness, mean.Freshness)
			pr.SetFact(lab.FactExpectedAge, mean.Age)
			pr.SetFact(FactExpectedHarmonic, mean.Harmonic)
			pr.SetFact(lab.FactExpectedChangeRatio, mean.ChangeRatio)
		}
	}
	return pr, nil
}
