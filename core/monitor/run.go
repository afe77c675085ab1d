package monitor

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/refreshlab/refreshlab/core/stat"
)

// Metric ids of a Report, as a result names them.
const (
	// MetricRIR is the expected RIR of §5.1 of each epoch's allocation,
	// under the true ρ.
	MetricRIR = "rir"
	// MetricRealisedRIR is the share of the weighted changes that monitors
	// returned in simulation, under the complete-loss assumption of §3.1.
	MetricRealisedRIR = "realisedRir"
	// MetricExpectedReturned is the expectation of MetricRealisedRIR for
	// the monitoring times used (CompleteLossRIR), under the true ρ.
	MetricExpectedReturned = "expectedReturned"
	// MetricHitRIR is the realised counterpart of MetricRIR: the weighted
	// share of changes that a task saw at its own instant.
	MetricHitRIR = "hitRir"
	// MetricScheduledRIR is the expected RIR of the tasks as they ran.
	MetricScheduledRIR = "scheduledRir"
	// MetricLostAllocation is 1 − RIR, the information lost by allocation;
	// MetricLostScheduling is RIR − ScheduledRIR, lost by scheduling
	// (Fig. 16).
	MetricLostAllocation = "lostInAllocation"
	MetricLostScheduling = "lostInScheduling"
	// MetricMonitoringChange is the monitoring-to-change ratio of §5.1:
	// tasks allocated over the changes expected in an epoch (Σ λ_i), or
	// over the changes recorded per epoch when there is no truth.
	MetricMonitoringChange = "monitoringChangeRatio"
	// MetricTasksRun is the share of allocated tasks that ran (all of them
	// without a scheduler; fewer when some could not start in the epoch).
	MetricTasksRun = "tasksRun"
)

// MetricInfo documents a metric of a Report.
type MetricInfo struct {
	ID, Name, Help string
	// Ratio says the metric is a share in [0, 1]; otherwise a plain number.
	Ratio bool
	// Truth says the metric needs the true ρ (NaN on a replayed log).
	Truth bool
}

// Metrics lists the metrics of a Report, in the order a table shows them.
func Metrics() []MetricInfo {
	return []MetricInfo{
		{MetricRIR, "RIR (expected)", "Returned information ratio (Pandey et al. §5.1): Σ W_i Σ_j ρ_ij y_ij / Σ W_i λ_i, the expected weighted share of changes that happen at a monitored instant.", true, true},
		{MetricRealisedRIR, "RIR (realised)", "The weighted share of the changes that happened which a monitor returned, a coin tossed per instant; a change counts as returned when the page is monitored at or after it and before its next change (the complete-loss assumption of §3.1).", true, false},
		{MetricExpectedReturned, "Returned (expected)", "The expectation of the realised RIR for the monitoring times used: at least the expected RIR, since a change between two monitors is returned when nothing overwrites it.", true, true},
		{MetricHitRIR, "RIR (hits)", "The weighted share of changes seen by a task at the change's own instant: the realised counterpart of the expected RIR.", true, false},
		{MetricScheduledRIR, "RIR (as scheduled)", "The expected RIR of the tasks as they ran on the monitoring processes: a task run late credits its instant's change only if no later change overwrote it.", true, true},
		{MetricLostAllocation, "Lost in allocation", "1 − RIR: the expected information the allocation leaves unmonitored (Fig. 16).", true, true},
		{MetricLostScheduling, "Lost in scheduling", "RIR − scheduled RIR: the expected information lost because tasks ran late or not at all (Fig. 16).", true, true},
		{MetricMonitoringChange, "Monitoring-to-change ratio", "Tasks allocated per change expected in an epoch (Σ λ_i), or per change recorded when the truth is unknown (§5.1).", false, false},
		{MetricTasksRun, "Tasks run", "The share of the allocated tasks that ran within their epoch.", true, false},
	}
}

// Scheduler ids for Experiment.Scheduler.
const (
	SchedulerList       = "list"
	SchedulerAlphaPoint = "alpha-point"
)

// Data is what an experiment monitors: an instance (weights and instants;
// Rho the true update probabilities when they are known, as for a
// generator) and, for a replayed log, its recorded changes. Sizes, when
// not nil, are the pages' document sizes, from which a scheduler's fetch
// times follow (equal sizes when nil).
type Data struct {
	Instance *Instance
	Recorded *Recorded
	Sizes    []float64
}

// Experiment is a monitoring experiment: the policies (ids of Descriptors)
// under one budget, each run Repeats times. Every repeat draws its changes
// from its own stream of the seed, the same for every policy (common
// random numbers), so differences between policies are measured on the
// same changes.
type Experiment struct {
	Policies []string
	// Budget is C, the monitoring tasks of an epoch.
	Budget  int
	Repeats int
	// Tracking, Epochs, Reallocate, Window and ChangeTimes are as in
	// Config. With no tracking phase the policies plan from the true ρ
	// (the setting of §5.2–5.4); a replayed log needs a tracking phase.
	Tracking, Epochs, Reallocate, Window int
	ChangeTimes                          bool
	// Reestimate is Config.Reestimate: "" or ReestimateInstant per
	// instant, ReestimatePage per page.
	Reestimate string
	// Scheduler is "" (every task runs at its instant) or the id of one of
	// Schedulers; Monitors is M, and Capacity the documents of the
	// mean size the M processes fetch in an epoch between them (§5.6's
	// average monitoring capacity), which sets the fetch times.
	Scheduler string
	Monitors  int
	Capacity  float64
	// Progress, when not nil, is told after every repeat of every policy
	// how many repeats have finished in all; when it returns an error Run
	// stops with that error (a caller's cancellation, say).
	Progress func(repeats int) error
}

// PolicyReport is one policy's outcome: each metric's mean over the
// repeats with its 95% interval (a repeat's value is its mean over the
// monitored epochs; the realised RIR is its returned over its changes), and
// per epoch (Figs. 13–14) the expected and realised RIR.
type PolicyReport struct {
	ID      string
	Metrics map[string]stat.Summary
	Series  map[string]stat.Series
	// Tasks is each page's tasks in the last plan, the mean over repeats
	// (the allocation per page of Figs. 5 and 7).
	Tasks []float64
}

// Report is an experiment's outcome, policies in the order asked.
type Report struct {
	Policies []PolicyReport
	// Facts of the instance, from the true ρ (NaN without it): Σ λ_i, the
	// changes expected in an epoch; Σ W_i λ_i, RIR's denominator; and
	// AppendixARatio with the pages' weights and with equal weights.
	ExpectedChanges, TotalInformation    float64
	AppendixWeighted, AppendixUnweighted float64
}

// PolicyByID returns the descriptor of the allocation policy id.
func PolicyByID(id string) (Descriptor, bool) {
	for _, d := range Descriptors() {
		if d.ID == id {
			return d, true
		}
	}
	return Descriptor{}, false
}

// Run runs x on d with the random streams of seed: repeat r draws its
// changes from stream 2r and its decisions (the baselines' phases, the
// α of the α-point scheduler) from stream 2r+1. It is the same to the last
// bit natively and in WebAssembly.
func Run(d Data, x Experiment, seed uint64) (*Report, error) {
	in := d.Instance
	if in == nil {
		return nil, errors.New("monitor: run: no instance")
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	n := in.Pages()
	truth := in.Rho != nil
	switch {
	case len(x.Policies) == 0:
		return nil, errors.New("monitor: run: no policies")
	case x.Repeats < 1:
		return nil, fmt.Errorf("monitor: run: repeats %d: expected at least 1", x.Repeats)
	case !truth && d.Recorded == nil:
		return nil, errors.New("monitor: run: no update probabilities and no recorded changes to monitor")
	case !truth && x.Tracking < 1:
		return nil, errors.New("monitor: run: a recorded log has no known update probabilities: a tracking phase of at least one epoch must estimate them")
	case d.Recorded != nil && len(d.Recorded.Changed) > 0 && len(d.Recorded.Changed[0]) != n:
		return nil, fmt.Errorf("monitor: run: recorded changes of %d pages for %d pages", len(d.Recorded.Changed[0]), n)
	}
	pols := make([]Policy, len(x.Policies))
	for k, id := range x.Policies {
		desc, ok := PolicyByID(id)
		if !ok {
			return nil, fmt.Errorf("monitor: run: unknown policy %q", id)
		}
		pols[k] = desc.Policy
	}
	cfg := Config{Budget: x.Budget, Tracking: x.Tracking, Epochs: x.Epochs, Reallocate: x.Reallocate, Window: x.Window, ChangeTimes: x.ChangeTimes, Reestimate: x.Reestimate}
	if x.Tracking == 0 {
		cfg.Known = in.Rho
	}
	if x.Scheduler != "" {
		var ok bool
		for _, d := range Schedulers() {
			if d.ID == x.Scheduler {
				cfg.Scheduler, ok = d.Scheduler, true
			}
		}
		if !ok {
			return nil, fmt.Errorf("monitor: run: scheduler %q: expected \"\" (none), %q or %q", x.Scheduler, SchedulerList, SchedulerAlphaPoint)
		}
		sizes := d.Sizes
		if sizes == nil {
			sizes = make([]float64, n)
			for i := range sizes {
				sizes[i] = 1
			}
		}
		if len(sizes) != n {
			return nil, fmt.Errorf("monitor: run: %d sizes for %d pages", len(sizes), n)
		}
		fetch, err := FetchTimes(sizes, x.Monitors, x.Capacity, in.T)
		if err != nil {
			return nil, err
		}
		cfg.Monitors, cfg.Fetch = x.Monitors, fetch
	}
	var src Source = Coins(in.Rho)
	if d.Recorded != nil {
		src = d.Recorded
	}

	rep := &Report{ExpectedChanges: math.NaN(), TotalInformation: math.NaN(), AppendixWeighted: math.NaN(), AppendixUnweighted: math.NaN()}
	if truth {
		lam, ones := make([]float64, n), make([]float64, n)
		var sum float64
		for i := range lam {
			lam[i], ones[i] = in.Lambda(i), 1
			sum += lam[i]
		}
		rep.ExpectedChanges, rep.TotalInformation = sum, TotalInformation(in)
		rep.AppendixWeighted, rep.AppendixUnweighted = AppendixARatio(in.Weight, lam), AppendixARatio(ones, lam)
	}
	ids := []string{MetricRIR, MetricRealisedRIR, MetricExpectedReturned, MetricHitRIR, MetricScheduledRIR,
		MetricLostAllocation, MetricLostScheduling, MetricMonitoringChange, MetricTasksRun}
	for k, pol := range pols {
		cfg.Policy = pol
		per := make(map[string][]float64, len(ids))
		epochRIR := make([][]float64, x.Epochs)
		epochReal := make([][]float64, x.Epochs)
		tasks := make([]float64, n)
		for r := range x.Repeats {
			changes := rand.New(rand.NewPCG(seed, uint64(2*r)))
			decisions := rand.New(rand.NewPCG(seed, uint64(2*r+1)))
			res, err := Simulate(in, src, cfg, changes, decisions)
			if err != nil {
				return nil, fmt.Errorf("policy %s: %w", x.Policies[k], err)
			}
			if x.Progress != nil {
				if err := x.Progress(k*x.Repeats + r + 1); err != nil {
					return nil, err
				}
			}
			for i, js := range res.Allocation {
				tasks[i] += float64(len(js)) / float64(x.Repeats)
			}
			var m struct{ rir, exp, sched, alloc, run, count, ret, chg, hit float64 }
			for e, er := range res.Epochs {
				m.rir += er.RIR
				m.exp += er.CompleteLossRIR
				m.sched += er.ScheduledRIR
				m.alloc += float64(er.Tasks)
				m.run += float64(er.Run)
				m.count += float64(er.ChangeCount)
				m.ret += er.Returned
				m.chg += er.Changes
				m.hit += er.Hits
				epochRIR[e] = append(epochRIR[e], er.RIR)
				epochReal[e] = append(epochReal[e], er.RealisedRIR())
			}
			E := float64(len(res.Epochs))
			rir := m.rir / E
			mcr := ratio(m.alloc, m.count)
			if truth {
				mcr = (m.alloc / E) / rep.ExpectedChanges
			}
			for id, v := range map[string]float64{
				MetricRIR:              rir,
				MetricRealisedRIR:      ratio(m.ret, m.chg),
				MetricExpectedReturned: m.exp / E,
				MetricHitRIR:           ratio(m.hit, m.chg),
				MetricScheduledRIR:     m.sched / E,
				MetricLostAllocation:   1 - rir,
				MetricLostScheduling:   rir - m.sched/E,
				MetricMonitoringChange: mcr,
				MetricTasksRun:         ratio(m.run, m.alloc),
			} {
				per[id] = append(per[id], v)
			}
		}
		pr := PolicyReport{ID: x.Policies[k], Metrics: make(map[string]stat.Summary, len(ids)), Tasks: tasks,
			Series: map[string]stat.Series{MetricRIR: make(stat.Series, x.Epochs), MetricRealisedRIR: make(stat.Series, x.Epochs)}}
		for _, id := range ids {
			pr.Metrics[id] = stat.Summarize(per[id])
		}
		for e := range x.Epochs {
			pr.Series[MetricRIR][e] = stat.Summarize(epochRIR[e])
			pr.Series[MetricRealisedRIR][e] = stat.Summarize(epochReal[e])
		}
		rep.Policies = append(rep.Policies, pr)
	}
	return rep, nil
}
