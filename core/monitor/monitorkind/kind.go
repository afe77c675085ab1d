// Package monitorkind is the lab's monitor kind: continuous queries served
// by monitoring tasks (Pandey, Ramamritham & Chakrabarti, WWW 2003),
// measured by the returned information ratio. It registers itself with
// core/lab from init, so a program that runs monitor specs imports it
// (for its side effect, if nothing else).
package monitorkind

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/monitor"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/synth"

	"github.com/refreshlab/refreshlab/core/internal/quote"
)

// Monitor limits: a spec's epochs, and the cost of simulating one page at
// one instant of one epoch for one repeat of one policy, rounded up from
// core/monitor's benchmark of the bundled run, for the work bound.
const (
	MaxMonitorEpochs = 10000
	monitorCost      = 100 * time.Nanosecond
)

// Monitor fact ids: the instance's numbers under its true update
// probabilities.
const (
	FactExpectedChanges       = "expectedChanges"
	FactTotalInformation      = "totalInformation"
	FactAppendixARatio        = "appendixARatio"
	FactAppendixARatioUniform = "appendixARatioUnweighted"
	FactRatio90               = "ratioForNinety"
)

// generators are the datasets whose update probabilities the lab knows:
// each bundled generator's configuration, drawn with the bundled seed.
var generators = map[string]synth.PandeyCAMConfig{
	synth.PandeyCAMInfo.ID: synth.PandeyCAMDefault,
}

// models remembers the draws of generators, by configuration, so that a
// sweep or a slider's return to a value draws nothing again.
var models = struct {
	sync.Mutex
	m map[synth.PandeyCAMConfig]*drawn
}{m: map[synth.PandeyCAMConfig]*drawn{}}

// drawn is a generator's draw, the tasks an epoch needs for CAM to return
// 90% of its information (monitor.TasksForShare), computed once, and the
// changes its coins have drawn, which every run on it replays.
type drawn struct {
	model   *synth.PandeyCAMModel
	tasks90 int
	changes *monitor.Draws
	// reports remembers the reports of runs on the draw by their
	// experiment (ran), so that a sweep whose values a slider does not
	// change, or a return to a value, runs nothing again.
	mu      sync.Mutex
	reports map[ranKey]*monitor.Report
}

// ranKey is everything a report on a generator's draw depends on besides
// the draw: the experiment's settings and seed, the policies in order.
type ranKey struct {
	policies                             string
	budget, repeats                      int
	seed                                 uint64
	tracking, epochs, reallocate, window int
	changeTimes                          bool
	reestimate                           string
	scheduler                            string
	monitors                             int
	capacity                             float64
}

// Reports are remembered for runs of at most maxReportEpochs epochs (a
// report holds a series per epoch), at most maxReports per draw; beyond
// it the oldest are forgotten.
const (
	maxReports      = 32
	maxReportEpochs = 100
)

// run returns monitor.Run's report for x on the draw, remembered or run;
// a remembered one tells progress all its repeats at once. The report is
// shared: its reader must not change it.
func (g *drawn) run(x monitor.Experiment, seed uint64) (*monitor.Report, error) {
	k := ranKey{strings.Join(x.Policies, ","), x.Budget, x.Repeats, seed, x.Tracking, x.Epochs, x.Reallocate, x.Window,
		x.ChangeTimes, x.Reestimate, x.Scheduler, x.Monitors, x.Capacity}
	g.mu.Lock()
	rep, ok := g.reports[k]
	g.mu.Unlock()
	if ok {
		if x.Progress != nil {
			if err := x.Progress(len(x.Policies) * x.Repeats); err != nil {
				return nil, err
			}
		}
		return rep, nil
	}
	rep, err := monitor.Run(monitor.Data{Instance: &g.model.Instance, Sizes: g.model.Size, Draws: g.changes}, x, seed)
	if err != nil || x.Tracking+x.Epochs > maxReportEpochs {
		return rep, err
	}
	g.mu.Lock()
	if g.reports == nil || len(g.reports) >= maxReports {
		g.reports = map[ranKey]*monitor.Report{}
	}
	g.reports[k] = rep
	g.mu.Unlock()
	return rep, nil
}

// maxModels bounds models: beyond it the oldest draws are forgotten.
const maxModels = 16

// generated returns the generator configuration of dataset id with ms's
// changes to it, and whether the lab knows the dataset's generator.
func generated(id string, ms Spec) (synth.PandeyCAMConfig, bool) {
	c, ok := generators[id]
	if !ok {
		return c, false
	}
	if ms.RateSkew != nil {
		c.RateSkew = *ms.RateSkew
	}
	if ms.UpdateSkew != nil {
		c.UpdateSkew = *ms.UpdateSkew
	}
	if ms.WeightSkew != nil {
		c.WeightSkew = *ms.WeightSkew
	}
	if ms.Profile != "" {
		c.Profile = ms.Profile
	}
	return c, true
}

// model draws (or recalls) the generator's model for c with the bundled
// seed.
func model(c synth.PandeyCAMConfig) (*drawn, error) {
	models.Lock()
	defer models.Unlock()
	if d, ok := models.m[c]; ok {
		return d, nil
	}
	m, err := synth.PandeyCAMWith(lab.BundledSeed, c)
	if err != nil {
		return nil, err
	}
	if len(models.m) >= maxModels {
		clear(models.m)
	}
	d := &drawn{model: m, tasks90: monitor.TasksForShare(&m.Instance, 0.9), changes: monitor.NewDraws(m.Instance.Rho)}
	models.m[c] = d
	return d, nil
}

func init() { lab.Register(monitorKind{}) }

// monitorKind is the monitor kind (lab.Kind).
type monitorKind struct{}

func (monitorKind) ID() string       { return ID }
func (monitorKind) Headline() string { return monitor.MetricRIR }
func (monitorKind) Charts() []string {
	return []string{"forest", "sweep", "monitor-epochs", "monitor-allocation", "monitor-losses"}
}
func (monitorKind) DefaultRepeats() int { return lab.DefaultRepeats }

func (monitorKind) Fields() []lab.SpecField {
	n := float64(MaxMonitorEpochs)
	d := synth.PandeyCAMDefault
	return []lab.SpecField{
		{Param: param.Param{Name: "monitor.tracking", Label: "Tracking epochs", Type: param.Int, Help: "Epochs of the tracking phase, every instant monitored, before the first plan."}.Range(0, n)},
		{Param: param.Param{Name: "monitor.epochs", Label: "Monitored epochs", Type: param.Int, Help: "Monitored epochs after the tracking phase."}.Range(0, n)},
		{Param: param.Param{Name: "monitor.reallocate", Label: "Re-allocate every (epochs)", Type: param.Int, Help: "Re-estimate and re-allocate every this many epochs; 0 keeps the first plan."}.Range(0, n)},
		{Param: param.Param{Name: "monitor.window", Label: "Estimate window", Type: param.Int, Help: "Latest observations of an instant (of a page, re-estimating per page) its estimate keeps; 0 keeps them all."}.Range(0, 64)},
		{Param: param.Param{Name: "monitor.changeTimes", Label: "Monitors read change times", Type: param.Bool, Help: "A monitor learns whether the page changed at its task's own instant, not only since its previous monitoring."}},
		{Param: param.Param{Name: "monitor.reestimate", Label: "Re-estimate per", Type: param.Enum, Default: monitor.ReestimateInstant, Options: monitor.Reestimates(),
			OptionLabels: []string{"Instant", "Page"},
			Help:         "How re-allocation reads the paper's rule (5 changes in the last 10 monitored instants gives 0.5): each instant from its own observations, or each page from its latest at any instant, spread over its instants as the first plan's estimates were."}},
		{Param: param.Param{Name: "monitor.scheduler", Label: "Scheduler", Type: param.Enum, Default: "", Options: []string{"", monitor.SchedulerList, monitor.SchedulerAlphaPoint},
			OptionLabels: []string{"None (at their instants)", "List scheduling", "α-point"},
			Help:         "How the tasks run on the monitoring processes: at their instants (empty), list scheduling or the α-point 1.58-approximation."}},
		{Param: param.Param{Name: "monitor.monitors", Label: "Monitoring processes", Type: param.Int, Help: "M, the parallel monitoring processes of a scheduler."}.Range(0, 10000)},
		{Param: param.Param{Name: "monitor.capacity", Label: "Monitoring capacity", Type: param.Float, Help: "Documents of the mean size the monitors fetch in an epoch between them, which sets the fetch times."}.Range(0, 1e12)},
		{Param: param.Param{Name: "monitor.slot", Label: "Slot (s)", Type: param.Float, Help: "A change log's time slot, one update instant, in seconds."}.Range(0, 4e9)},
		{Param: param.Param{Name: "monitor.slots", Label: "Slots per epoch", Type: param.Int, Help: "A change log's slots per epoch."}.Range(0, 1<<20)},
		{Param: param.Param{Name: "monitor.phase", Label: "Phase (s)", Type: param.Float, Help: "Where a change log's first instant falls in its epoch, seconds after the epoch's start."}.Range(-4e9, 4e9)},
		{Param: param.Param{Name: "monitor.rateSkew", Label: "Change-rate skew θ", Type: param.Float, Default: d.RateSkew,
			Help: "θ, the Zipf parameter of the pages' change rates in a generated dataset: 0 gives every page the same rate (Pandey et al. §5.1)."}.Range(0, 10)},
		{Param: param.Param{Name: "monitor.updateSkew", Label: "Update-probability skew", Type: param.Float, Default: d.UpdateSkew,
			Help: "The Zipf parameter of a generated page's update probabilities over its instants: higher makes a few instants likelier (§5.3)."}.Range(0, 10)},
		{Param: param.Param{Name: "monitor.weightSkew", Label: "Page-weight skew", Type: param.Float, Default: d.WeightSkew,
			Help: "The Zipf parameter of a generated dataset's page weights: 0 weighs every page alike (§5.2.3)."}.Range(0, 10)},
		{Param: param.Param{Name: "monitor.profile", Label: "Update profile", Type: param.Enum, Default: d.Profile, Options: []string{"humps", "uniform"},
			OptionLabels: []string{"In humps", "Flat"},
			Help:         "How a generated page's changes spread over its instants: in humps, or equally at every instant (§5.2.1)."}},
	}
}

func (monitorKind) Nouns() (string, string) { return "monitoring policy", "monitoring policies" }

func (monitorKind) Design(res *lab.Result) string {
	spec := res.Spec
	ms := SpecOf(spec)
	if ms == nil {
		return ""
	}
	s := fmt.Sprintf("Each ran %s with seed %d, %s per epoch, each repeat's numbers the mean over its %s.",
		lab.Count(spec.Repeats, "time", "times"), spec.Seed, lab.Count(spec.Budget, "monitoring task", "monitoring tasks"), lab.Count(ms.Epochs, "monitored epoch", "monitored epochs"))
	if ms.Tracking > 0 {
		s += fmt.Sprintf(" Before them, a tracking phase of %s monitored every instant and gave the first estimates of the update probabilities, re-estimated every %s.",
			lab.Count(ms.Tracking, "epoch", "epochs"), lab.Count(ms.Reallocate, "epoch", "epochs"))
	} else {
		s += " The policies that use update probabilities planned with the true ones (Pandey et al. §5.2–5.4)."
	}
	if ms.Reallocate > 0 && ms.Reestimate == monitor.ReestimatePage {
		s += " Re-allocation read the rule per page: each page's latest observations, at whatever instants, rescaled the first plan's update probabilities over all its instants."
	}
	if _, known := generators[res.Dataset.ID]; known {
		s += " Repeat r draws the changes, a coin per page and update instant (§5.1), from PCG stream 2r of the seed, the same for every policy, and the baselines' placement of their tasks from stream 2r + 1."
	} else {
		s += fmt.Sprintf(" The changes are the log's, cut into epochs of %d slots of %g s, the same in every repeat; repeat r draws the baselines' placement of their tasks from PCG stream 2r + 1 of the seed.", ms.Slots, ms.Slot)
	}
	return s + " So repeat r of one policy monitors the same changes as repeat r of another: intervals of differences that treat the policies as independent ignore that pairing, which makes them wider than they need be when the policies fare alike on the same changes."
}

func (monitorKind) Policies() []refresh.Descriptor {
	var out []refresh.Descriptor
	for _, d := range monitor.Descriptors() {
		sum := d.Summary
		if d.UsesRates {
			sum += " Plans with the true update probabilities, or with those a tracking phase estimates."
		}
		out = append(out, refresh.Descriptor{ID: d.ID, Name: d.Name, Paper: d.Paper, Summary: sum, Params: []param.Param{}})
	}
	return out
}

// monitorBetter says which way each metric of core/monitor is better.
var monitorBetter = map[string]string{
	monitor.MetricLostAllocation: "lower", monitor.MetricLostScheduling: "lower", monitor.MetricMonitoringChange: "",
}

func (monitorKind) Metrics() []lab.Metric {
	var out []lab.Metric
	for _, m := range monitor.Metrics() {
		x := lab.Metric{ID: m.ID, Name: m.Name, Help: m.Help, Better: "higher"}
		if b, ok := monitorBetter[m.ID]; ok {
			x.Better = b
		}
		if m.Ratio {
			x.Unit, x.Max = "ratio", 1
		}
		if m.Truth {
			x.Help += " Needs the true update probabilities, so a change log has none."
		}
		out = append(out, x)
	}
	return out
}

func (monitorKind) Facts() []lab.Fact {
	return []lab.Fact{
		{ID: FactExpectedChanges, Name: "Changes expected per epoch", Help: "Σ λ_i, the changes all pages are expected to make in an epoch."},
		{ID: FactTotalInformation, Name: "Information per epoch", Help: "Σ W_i λ_i, the weighted changes of an epoch: RIR's denominator."},
		{ID: FactAppendixARatio, Name: "Appendix A ratio (weighted)",
			Help: "Expected RIR of weighted proportional over that of weighted uniform under uniform update probabilities, ΣW²λ²·ΣW / (ΣW²λ·ΣWλ) (Pandey et al. Appendix A, as derived in core/monitor)."},
		{ID: FactAppendixARatioUniform, Name: "Appendix A ratio (unweighted)",
			Help: "The same ratio with every weight 1, Σλ²·N / (Σλ)²: proportional over uniform for continuous queries."},
		{ID: FactRatio90, Name: "Ratio for 90% (CAM)",
			Help: "The monitoring-to-change ratio at which CAM's expected RIR first reaches 90%: the fewest tasks whose largest W_i ρ_ij sum to 90% of Σ W_i λ_i, over Σ λ_i (Pandey et al. §5.5, Fig. 12)."},
	}
}

// monitorData is what a resolved spec monitors, and how many epochs a log
// holds (0 with known probabilities); g is the generator's draw it comes
// from (nil for a log).
func monitorData(d *dataset.Dataset, ms Spec) (data monitor.Data, logEpochs int, g *drawn, err error) {
	if c, ok := generated(d.Info.ID, ms); ok {
		g, err := model(c)
		if err != nil {
			return monitor.Data{}, 0, nil, specErr(generatorField(ms), "%v", err)
		}
		return monitor.Data{Instance: &g.model.Instance, Sizes: g.model.Size, Draws: g.changes}, 0, g, nil
	}
	r, err := monitor.FromEvents(d, monitor.EventOptions{Slot: ms.Slot, Slots: ms.Slots, Phase: ms.Phase})
	if err != nil {
		return monitor.Data{}, 0, nil, specErr("monitor.slots", "%v", err)
	}
	return monitor.Data{Instance: &r.Instance, Recorded: &r.Recorded, Sizes: d.Features["size"]}, len(r.Changed), nil, nil
}

// generatorField names the first generator field ms sets, for an error.
func generatorField(ms Spec) string {
	switch {
	case ms.RateSkew != nil:
		return "monitor.rateSkew"
	case ms.UpdateSkew != nil:
		return "monitor.updateSkew"
	case ms.WeightSkew != nil:
		return "monitor.weightSkew"
	}
	return "monitor.profile"
}

func (monitorKind) Resolve(spec lab.Spec, d *dataset.Dataset) (lab.Spec, time.Duration, string, error) {
	var ms Spec
	if s := SpecOf(spec); s != nil {
		ms = *s
	}
	spec.Cycles = 0
	_, known := generators[d.Info.ID]
	if !known {
		if ms.RateSkew != nil || ms.UpdateSkew != nil || ms.WeightSkew != nil || ms.Profile != "" {
			return spec, 0, "", specErr(generatorField(ms), "%s is not generated: rateSkew, updateSkew, weightSkew and profile redraw a generated dataset such as pandey-cam", d.Info.ID)
		}
		switch {
		case ms.Slot == 0:
			ms.Slot = 3600
		case !(ms.Slot > 0):
			return spec, 0, "", specErr("monitor.slot", "must be a positive number of seconds, got %v", ms.Slot)
		}
		if ms.Slots == 0 {
			ms.Slots = 24
		}
	} else if ms.Slot != 0 || ms.Slots != 0 || ms.Phase != 0 {
		return spec, 0, "", specErr("monitor.slot", "%s has its own update instants: slot, slots and phase cut a change log", d.Info.ID)
	}
	data, logEpochs, _, err := monitorData(d, ms)
	if err != nil {
		return spec, 0, "", err
	}
	in := data.Instance
	n, p := in.Pages(), len(in.Times)
	switch {
	case spec.Budget == 0:
		spec.Budget = n
	case spec.Budget < 0 || spec.Budget > n*p:
		return spec, 0, "", specErr("budget", "must be between 1 and the %d pages × %d instants of an epoch, got %d", n, p, spec.Budget)
	}
	if ms.Tracking < 0 || ms.Tracking > MaxMonitorEpochs || ms.Epochs < 0 || ms.Epochs > MaxMonitorEpochs {
		return spec, 0, "", specErr("monitor.epochs", "tracking and epochs must be between 0 and %d, got %d and %d", MaxMonitorEpochs, ms.Tracking, ms.Epochs)
	}
	if known {
		if ms.Epochs == 0 {
			ms.Epochs = 1
		}
	} else {
		if logEpochs < 2 {
			return spec, 0, "", specErr("monitor.slots", "%s holds %d whole epoch of %d slots of %v s: a log needs at least two, one to track and one to monitor", d.Info.ID, logEpochs, ms.Slots, ms.Slot)
		}
		if ms.Tracking == 0 {
			ms.Tracking = max(1, logEpochs/3)
		}
		if ms.Epochs == 0 {
			ms.Epochs = logEpochs - ms.Tracking
		}
		if ms.Tracking+ms.Epochs > logEpochs {
			return spec, 0, "", specErr("monitor.epochs", "tracking %d and epochs %d: the log holds %d whole epochs of %d slots of %v s", ms.Tracking, ms.Epochs, logEpochs, ms.Slots, ms.Slot)
		}
		if ms.Reallocate == 0 {
			ms.Reallocate = 1
		}
	}
	if ms.Epochs < 1 {
		return spec, 0, "", specErr("monitor.epochs", "must be at least 1, got %d", ms.Epochs)
	}
	if ms.Reallocate < 0 || ms.Window < 0 || ms.Window > 64 {
		return spec, 0, "", specErr("monitor.window", "reallocate must be at least 0 and window between 0 and 64, got %d and %d", ms.Reallocate, ms.Window)
	}
	if ms.Reestimate != "" && !slices.Contains(monitor.Reestimates(), ms.Reestimate) {
		return spec, 0, "", specErr("monitor.reestimate", "unknown reading %s (expected %q or %q)", quote.Q(ms.Reestimate), monitor.ReestimateInstant, monitor.ReestimatePage)
	}
	if ms.Scheduler != "" {
		if !slices.ContainsFunc(monitor.Schedulers(), func(s monitor.SchedulerDescriptor) bool { return s.ID == ms.Scheduler }) {
			return spec, 0, "", specErr("monitor.scheduler", "unknown scheduler %s (expected \"\", %q or %q)", quote.Q(ms.Scheduler), monitor.SchedulerList, monitor.SchedulerAlphaPoint)
		}
		if ms.Monitors == 0 {
			ms.Monitors = 1
		}
		if ms.Capacity == 0 {
			ms.Capacity = float64(spec.Budget)
		}
		if ms.Monitors < 1 || ms.Monitors > 10000 || !(ms.Capacity > 0) {
			return spec, 0, "", specErr("monitor.monitors", "monitors must be between 1 and 10,000 and capacity positive, got %d and %v", ms.Monitors, ms.Capacity)
		}
	} else if ms.Monitors != 0 || ms.Capacity != 0 {
		return spec, 0, "", specErr("monitor.scheduler", "monitors and capacity need a scheduler (%q or %q)", monitor.SchedulerList, monitor.SchedulerAlphaPoint)
	}
	spec.Sections = spec.Sections.With(ID, &ms)
	epochs := ms.Tracking + ms.Epochs
	units := float64(n) * float64(p) * float64(epochs) * float64(spec.Repeats) * float64(len(spec.Policies))
	what := fmt.Sprintf("%d pages × %d instants × %d epochs × %d repeats of %s", n, p, epochs, spec.Repeats, lab.Count(len(spec.Policies), "policy", "policies"))
	return spec, time.Duration(units * float64(monitorCost)), what, nil
}

func (k monitorKind) Run(ctx context.Context, spec lab.Spec, d *dataset.Dataset, progress func(int)) (*lab.Result, error) {
	ms := *SpecOf(spec)
	data, _, g, err := monitorData(d, ms)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(spec.Policies))
	for i, p := range spec.Policies {
		ids[i] = p.ID
	}
	run := func(x monitor.Experiment, seed uint64) (*monitor.Report, error) { return monitor.Run(data, x, seed) }
	if g != nil {
		run = g.run
	}
	rep, err := run(monitor.Experiment{
		Policies: ids, Budget: spec.Budget, Repeats: spec.Repeats,
		Tracking: ms.Tracking, Epochs: ms.Epochs, Reallocate: ms.Reallocate, Window: ms.Window, ChangeTimes: ms.ChangeTimes, Reestimate: ms.Reestimate,
		Scheduler: ms.Scheduler, Monitors: ms.Monitors, Capacity: ms.Capacity,
		Progress: func(n int) error {
			progress(n)
			return ctx.Err()
		},
	}, spec.Seed)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	mres := &Result{}
	res := &lab.Result{Spec: spec, Dataset: d.Info, Sections: lab.Sections{ID: mres}}
	if in := data.Instance; in.Rho != nil {
		mres.Changes = make([]float64, in.Pages())
		for i := range mres.Changes {
			mres.Changes[i] = in.Lambda(i)
		}
	}
	for i, pr := range rep.Policies {
		desc, _ := monitor.PolicyByID(pr.ID)
		ps := spec.Policies[i]
		out := lab.PolicyResult{ID: pr.ID, Label: ps.Label, Name: desc.Name, Oracle: desc.UsesRates && ms.Tracking == 0,
			Params: ps.Params, Metrics: maps.Clone(pr.Metrics), Series: maps.Clone(pr.Series), Sections: lab.Sections{ID: &PolicyResult{Tasks: slices.Clone(pr.Tasks)}}}
		if out.Params == nil {
			out.Params = param.Values{}
		}
		if ps.Label != "" {
			out.Name += " (" + ps.Label + ")"
		}
		for id, s := range out.Metrics {
			if s.N == 0 { // a metric that needs the truth, on a log
				delete(out.Metrics, id)
				delete(out.Series, id)
			}
		}
		out.SetFact(FactExpectedChanges, rep.ExpectedChanges)
		out.SetFact(FactTotalInformation, rep.TotalInformation)
		out.SetFact(FactAppendixARatio, rep.AppendixWeighted)
		out.SetFact(FactAppendixARatioUniform, rep.AppendixUnweighted)
		if g != nil && g.tasks90 > 0 {
			out.SetFact(FactRatio90, float64(g.tasks90)/rep.ExpectedChanges)
		}
		res.Policies = append(res.Policies, out)
	}
	planned := "with the true update probabilities"
	if ms.Tracking > 0 {
		planned = fmt.Sprintf("after a tracking phase of %s", lab.Count(ms.Tracking, "epoch", "epochs"))
	}
	res.Work = fmt.Sprintf("%s × %s × %s of %s", lab.Count(len(spec.Policies), "policy", "policies"), lab.Count(spec.Repeats, "repeat", "repeats"),
		lab.Count(ms.Epochs, "epoch", "epochs"), lab.Count(len(data.Instance.Weight), "page", "pages"))
	res.About = fmt.Sprintf("Mean over %s, averaged over %s; ± is the half-width of the 95%% interval across repeats. %s, %s per epoch planned %s, seed %d.",
		lab.Count(spec.Repeats, "repeat", "repeats"), lab.Count(ms.Epochs, "monitored epoch", "monitored epochs"), d.Info.Name, lab.Count(spec.Budget, "monitoring task", "monitoring tasks"), planned, spec.Seed)
	return res, nil
}

// specErr is a *lab.SpecError at field.
func specErr(field, format string, args ...any) *lab.SpecError {
	return &lab.SpecError{Field: field, Msg: fmt.Sprintf(format, args...)}
}
