package lab

import (
	"fmt"
	"math"
	"slices"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/estimate"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/schedule"
	"github.com/refreshlab/refreshlab/core/stat"

	"github.com/refreshlab/refreshlab/core/internal/quote"
)

// KindSchedule is the experiment kind of package schedule: each page gets a
// sync rate within a budget of syncs per day (or an adaptive crawler rule
// sets its visits), and continuous time is simulated against the pages' true
// change rates.
const KindSchedule = "schedule"

// ScheduleSpec holds the schedule kind's own fields. Spec.Budget is the
// total syncs per day (0: one per page per day); Spec.Repeats defaults to
// schedule.DefaultRepeats; Spec.Cycles is not used.
type ScheduleSpec struct {
	// Days is the measured horizon in days; 0 means schedule.DefaultDays,
	// long enough that on cho-garcia-molina-5 every policy's mean freshness
	// has a standard error below 0.001 with the default repeats (derived in
	// core/schedule's TestDefaultRunLength, measured in TestScheduleDoneWhen).
	Days float64 `json:"days"`
	// Warmup is the simulated time before measuring, days; nil means
	// schedule.DefaultWarmup, which lets an adaptive rule forget its initial
	// interval.
	Warmup *float64 `json:"warmup,omitempty"`
	// Rates says which change rates the rate-using policies plan with:
	// RatesOracle (the true rates; such policies are labelled oracles) or
	// the id of an estimator of the estimate kind (naive,
	// cho-garcia-molina, mle), run on the policy's own observations of
	// each page during Observe days of uniform regular syncs at the same
	// budget.
	Rates string `json:"rates"`
	// Observe is the days of uniform observation an estimator gets; 0
	// means DefaultObserve.
	Observe float64 `json:"observe"`
}

// Schedule defaults.
const (
	RatesOracle    = "oracle"
	DefaultObserve = 30
	// MaxAllocationPages bounds the pages whose allocation a result lists
	// one by one (SchedulePolicyResult.Allocation).
	MaxAllocationPages = 200
)

// scheduleRateEstimators are the estimators a schedule may plan with: those
// that need no prior.
var scheduleRateEstimators = []string{EstNaive, EstCGM, EstMLE}

// rateLabels names the options of schedule.rates for people: the truth,
// then each estimator by its catalog name.
func rateLabels() []string {
	out := []string{"True rates (oracle)"}
	for _, id := range scheduleRateEstimators {
		for _, d := range EstimateDescriptors() {
			if d.ID == id {
				out = append(out, d.Name)
			}
		}
	}
	return out
}

// ScheduleResult describes a schedule run's truth.
type ScheduleResult struct {
	// TrueRates are the pages' change rates the simulation draws from
	// (changes per day), when the dataset has at most MaxAllocationPages.
	TrueRates []float64 `json:"trueRates,omitempty"`
	// RatesFrom says where the true rates came from: "truth" (the
	// dataset's Truth.Rates) or "estimated" (the dataset carries no rates,
	// so each page's rate is Cho & Garcia-Molina's estimate from its whole
	// per-cycle truth, as if crawled every cycle).
	RatesFrom string `json:"ratesFrom"`
	// Events is the expected number of simulated changes and syncs.
	Events float64 `json:"events"`
}

// SchedulePolicyResult is a schedule policy's own results.
type SchedulePolicyResult struct {
	Type string `json:"type"` // schedule.TypeAllocation or schedule.TypeAdaptive
	// Rates is what the policy planned with: "oracle", an estimator id, or
	// "" for a policy that uses no rates.
	Rates   string `json:"rates,omitempty"`
	Spacing string `json:"spacing,omitempty"` // regular or poisson; adaptive rules have their own
	// Allocation is each page's sync rate (syncs per day) across repeats:
	// the plan's for an allocation policy, the measured rate for an
	// adaptive rule; nil beyond MaxAllocationPages pages.
	Allocation []stat.Summary `json:"allocation,omitempty"`
}

// scheduleIDs maps the lab's schedule ids (issue 4) to core/schedule's.
var scheduleIDs = [][2]string{
	{"cho-optimal-freshness", "cgm-optimal-freshness"},
	{"cho-optimal-age", "cgm-optimal-age"},
	{"uniform", "cgm-uniform"},
	{"proportional", "cgm-proportional"},
	{"azar", "azar-weighted"},
	{"lambda-crawl", "lambdacrawl"},
	{"lambda-crawl-approx", "lambdacrawl-approx"},
	{"olston-pandey", "olston-pandey"},
	{"nutch", "nutch-adaptive"},
	{"heritrix", "heritrix-wait"},
	{"stormcrawler", "stormcrawler-adaptive"},
}

// scheduleCore returns core/schedule's descriptor of lab id.
func scheduleCore(id string) (schedule.Descriptor, bool) {
	i := slices.IndexFunc(scheduleIDs, func(p [2]string) bool { return p[0] == id })
	if i < 0 {
		return schedule.Descriptor{}, false
	}
	for _, d := range schedule.Descriptors() {
		if d.ID == scheduleIDs[i][1] {
			return d, true
		}
	}
	return schedule.Descriptor{}, false
}

// ScheduleDescriptors lists the schedule kind's policies for the catalog,
// under the lab's ids. Their New is nil: runSchedule builds them.
func ScheduleDescriptors() []refresh.Descriptor {
	var out []refresh.Descriptor
	for _, p := range scheduleIDs {
		d, ok := scheduleCore(p[0])
		if !ok {
			panic("lab: core/schedule has no " + p[1]) // a catalog bug, caught by every test
		}
		sum := d.Summary
		if d.UsesRates {
			sum += " Plans with the spec's rates: the truth (an oracle) or an estimator's."
		}
		params := d.Params
		if params == nil {
			params = []param.Param{}
		}
		out = append(out, refresh.Descriptor{ID: p[0], Name: d.Name, Paper: d.Paper, Summary: sum, Kind: KindSchedule, Params: params})
	}
	return out
}

// resolveSchedule checks a schedule spec and fills in its defaults.
func (l *Lab) resolveSchedule(spec Spec) (Spec, *dataset.Dataset, error) {
	d, err := l.lookupDataset(spec)
	if err != nil {
		return spec, nil, err
	}
	n := len(d.Pages)
	switch {
	case spec.Budget == 0:
		spec.Budget = n
	case spec.Budget < 0 || float64(spec.Budget) > schedule.Limit:
		return spec, nil, specErr("budget", "must be at least 1 sync per day, got %d", spec.Budget)
	}
	spec.Cycles = 0
	if err := checkRepeats(&spec, schedule.DefaultRepeats); err != nil {
		return spec, nil, err
	}
	ss := ScheduleSpec{}
	if spec.Schedule != nil {
		ss = *spec.Schedule
	}
	switch {
	case ss.Days == 0:
		ss.Days = schedule.DefaultDays
	case !(ss.Days > 0) || ss.Days > 1e6:
		return spec, nil, specErr("schedule.days", "must be between 0 and 1,000,000 days, got %v", ss.Days)
	}
	if ss.Warmup == nil {
		w := float64(schedule.DefaultWarmup)
		ss.Warmup = &w
	} else if w := *ss.Warmup; !(w >= 0) || w > 1e6 {
		return spec, nil, specErr("schedule.warmup", "must be between 0 and 1,000,000 days, got %v", w)
	}
	if ss.Rates == "" {
		ss.Rates = RatesOracle
	}
	if ss.Rates != RatesOracle && !slices.Contains(scheduleRateEstimators, ss.Rates) {
		return spec, nil, specErr("schedule.rates", "unknown rates %s (expected %q or an estimator: %v)", quote.Q(ss.Rates), RatesOracle, scheduleRateEstimators)
	}
	switch {
	case ss.Observe == 0:
		ss.Observe = DefaultObserve
	case !(ss.Observe > 0) || ss.Observe > 1e5:
		return spec, nil, specErr("schedule.observe", "must be between 0 and 100,000 days, got %v", ss.Observe)
	}
	spec.Schedule = &ss
	if err := checkPolicyCount(spec, "schedule", "policies", l.policyIDsOf(KindSchedule)); err != nil {
		return spec, nil, err
	}
	if spec.Sweep != nil {
		if err := checkSweep(spec.Sweep); err != nil {
			return spec, nil, err
		}
	}
	ps, err := l.checkPolicies(spec.Policies, KindSchedule, "schedule")
	if err != nil {
		return spec, nil, err
	}
	spec.Policies = ps
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
	events := (sum + 3*float64(spec.Budget)) * (*ss.Warmup + ss.Days) * float64(spec.Repeats) * float64(len(ps)) * points
	if events > schedule.MaxEvents {
		return spec, nil, specErr("schedule.days", "too much work: about %.3g simulated events exceeds %.0g; use fewer days, repeats or policies", events, float64(schedule.MaxEvents))
	}
	return spec, d, nil
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

// runSchedule runs a schedule spec.
func (l *Lab) runSchedule(spec Spec, w *watch) (*Result, error) {
	spec, d, err := l.resolveSchedule(spec)
	if err != nil {
		return nil, err
	}
	truth, from := trueRates(d)
	res := &Result{Spec: spec, Dataset: d.Info, Schedule: &ScheduleResult{RatesFrom: from}}
	res.Spec.Policies = slices.Clone(spec.Policies)
	if len(truth) <= MaxAllocationPages {
		res.Schedule.TrueRates = truth
	}
	for i, ps := range spec.Policies {
		if err := w.stopped(); err != nil {
			return nil, err
		}
		pr, err := runSchedulePolicy(spec, truth, i)
		if err != nil {
			return nil, err
		}
		w.add(spec.Repeats)
		res.Schedule.Events += pr.events
		if ps.Label != "" {
			pr.Label, pr.Name = ps.Label, pr.Name+" ("+ps.Label+")"
		}
		res.Policies = append(res.Policies, pr.PolicyResult)
	}
	if spec.Sweep != nil {
		if res.Sweep, err = l.runSweep(spec, w); err != nil {
			return nil, err
		}
	}
	pairedValues(res)
	ss := spec.Schedule
	res.Work = fmt.Sprintf("%s × %s × %g simulated days of %s", count(len(spec.Policies), "schedule", "schedules"), count(spec.Repeats, "repeat", "repeats"),
		*ss.Warmup+ss.Days, count(len(d.Pages), "page", "pages"))
	src := ""
	if from == "estimated" {
		src = " The dataset carries no true rates: they are estimated from its whole truth."
	}
	res.About = fmt.Sprintf("Time-averaged over %g days after %g days of warm-up, mean over %s; ± is the half-width of the 95%% interval across repeats. %s, %s per day, seed %d; rates planned with: %s.%s",
		ss.Days, *ss.Warmup, count(spec.Repeats, "repeat", "repeats"), d.Info.Name, count(spec.Budget, "sync", "syncs"), spec.Seed, ss.Rates, src)
	return res, nil
}

type schedulePolicyRun struct {
	PolicyResult
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

func runSchedulePolicy(spec Spec, truth []float64, i int) (pr schedulePolicyRun, err error) {
	ps := spec.Policies[i]
	desc, _ := scheduleCore(ps.ID)
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("schedule %s failed: %v", ps.ID, r)
		}
	}()
	ss := spec.Schedule
	n := len(truth)
	reps := spec.Repeats
	budget := float64(spec.Budget)
	oracle := desc.UsesRates && ss.Rates == RatesOracle
	sr := &SchedulePolicyResult{Type: desc.Type}
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
	case EstNaive:
		est = estimate.Naive{}
	case EstCGM:
		est = estimate.ChoGarciaMolina{}
	case EstMLE:
		est = estimate.MLE{}
	}
	planRates := make([]float64, n)
	dst := make([]float64, n)
	var fixed *schedule.Plan
	for r := range reps {
		rng := Stream(spec.Seed, ps.ID, r)
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
	pr.PolicyResult = PolicyResult{
		ID: ps.ID, Name: desc.Name, Oracle: oracle, Params: ps.Params,
		Metrics: map[string]stat.Summary{
			MetricFreshness: stat.Summarize(fr), MetricAge: stat.Summarize(ag), MetricChangeRatio: stat.Summarize(cr),
			MetricHarmonic: stat.Summarize(hs), MetricSyncsPerDay: stat.Summarize(sp),
		},
		Values:   map[string][]float64{MetricFreshness: fr, MetricAge: ag, MetricChangeRatio: cr, MetricHarmonic: hs, MetricSyncsPerDay: sp},
		Schedule: sr,
	}
	if fixed != nil {
		// The plan is the same in every repeat (oracle rates, or none): its
		// exact expectations (an infinite or undefined one is left out).
		if mean, _, err := schedule.Expect(truth, nil, *fixed); err == nil {
			pr.setFact(FactExpectedFreshness, mean.Freshness)
			pr.setFact(FactExpectedAge, mean.Age)
			pr.setFact(FactExpectedHarmonic, mean.Harmonic)
			pr.setFact(FactExpectedChangeRatio, mean.ChangeRatio)
		}
	}
	return pr, nil
}

// scheduleFields are the schedule kind's members a control or sweep may
// set (Field).
var scheduleFields = []SpecField{
	{Param: param.Param{Name: "schedule.days", Label: "Days measured", Type: param.Float, Help: "Measured horizon, days."}.Range(0, 1e6), Kind: KindSchedule},
	{Param: param.Param{Name: "schedule.warmup", Label: "Warm-up days", Type: param.Float, Help: "Simulated days before measuring."}.Range(0, 1e6), Kind: KindSchedule},
	{Param: param.Param{Name: "schedule.observe", Label: "Days observed before planning", Type: param.Float, Help: "Days of uniform observation an estimator gets before planning."}.Range(0, 1e5), Kind: KindSchedule},
	{Param: param.Param{Name: "schedule.rates", Label: "Rates planned with", Type: param.Enum, Default: RatesOracle, Options: append([]string{RatesOracle}, scheduleRateEstimators...), OptionLabels: rateLabels(),
		Help: "The change rates the rate-using policies plan with: the truth (oracle) or an estimator's, from its own observations."}, Kind: KindSchedule},
}
