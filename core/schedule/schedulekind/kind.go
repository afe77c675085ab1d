// Package schedulekind is the lab's schedule experiment kind: each page
// gets a sync rate within a budget of syncs per day (or an adaptive
// crawler rule sets its visits), and continuous time is simulated against
// the pages' true change rates (package schedule). It registers itself
// with the lab (lab.Register) when imported.
package schedulekind

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/refreshlab/refreshlab/core/estimate/estimatekind"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/schedule"
)

// ID is the kind's name in lab.Spec.Kind.
const ID = "schedule"

func init() { lab.Register(kind{}) }

// Metric and fact ids of the kind's own. Its results also carry the
// refresh kind's ChangeRatio, freshness and age, and the exact expected
// ChangeRatio, freshness and age of a plan (lab.FactExpected…).
const (
	// MetricHarmonic is Kolobov et al.'s harmonic staleness.
	MetricHarmonic = "harmonic"
	// MetricSyncsPerDay is the syncs a schedule spent per day.
	MetricSyncsPerDay = "syncsPerDay"
	// FactExpectedHarmonic is a plan's exact expected harmonic staleness.
	FactExpectedHarmonic = "expectedHarmonic"
)

// Schedule defaults.
const (
	// RatesOracle plans with the true rates (Spec.Rates).
	RatesOracle = "oracle"
	// DefaultObserve is the days of uniform observation an estimator gets.
	DefaultObserve = 30
	// MaxAllocationPages bounds the pages whose allocation a result lists
	// one by one (PolicyResult.Allocation).
	MaxAllocationPages = 200
)

// rateEstimators are the estimators a schedule may plan with: those that
// need no prior.
var rateEstimators = []string{estimatekind.EstNaive, estimatekind.EstCGM, estimatekind.EstMLE}

// kind is the schedule kind (lab.Kind).
type kind struct{}

func (kind) ID() string          { return ID }
func (kind) Headline() string    { return lab.MetricFreshness }
func (kind) DefaultRepeats() int { return schedule.DefaultRepeats }

func (kind) Charts() []string { return []string{"bars", "sweep", "allocation", "forest"} }

func (kind) Nouns() (string, string) { return "schedule", "schedules" }

// Shared names the refresh kind's metrics and fact a schedule's results
// carry too (lab.Sharer).
func (kind) Shared() (metrics, facts []string) {
	return []string{lab.MetricChangeRatio, lab.MetricFreshness, lab.MetricAge}, []string{lab.FactExpectedChangeRatio}
}

// Streams says the kind draws repeat r of a policy from lab.Stream(seed,
// id, r), as the refresh kind does (lab.Streamer).
func (kind) Streams() {}

func (kind) Metrics() []lab.Metric {
	return []lab.Metric{
		{ID: MetricHarmonic, Name: "Harmonic staleness", Unit: "", Better: "lower", Exact: FactExpectedHarmonic,
			Help: "Time-averaged H(N) = 1 + 1/2 + … + 1/N for the N changes the copy misses (Kolobov et al., NeurIPS 2019): every missed change costs, each less than the one before."},
		{ID: MetricSyncsPerDay, Name: "Syncs per day", Unit: "per day", Better: "",
			Help: "Syncs the schedule spent per day, over all pages (adaptive rules set their own)."},
	}
}

func (kind) Facts() []lab.Fact {
	return []lab.Fact{
		{ID: lab.FactExpectedFreshness, Name: "Exact expectation of freshness", Unit: "ratio",
			Help: "The plan's exact expected time-averaged freshness (Cho & Garcia-Molina), where the plan is the same in every repeat."},
		{ID: lab.FactExpectedAge, Name: "Exact expectation of age", Unit: "day",
			Help: "The plan's exact expected time-averaged age, in days."},
		{ID: FactExpectedHarmonic, Name: "Exact expectation of harmonic staleness", Unit: "",
			Help: "The plan's exact expected harmonic staleness."},
	}
}

func (kind) Fields() []lab.SpecField {
	return []lab.SpecField{
		{Param: param.Param{Name: "schedule.days", Label: "Days measured", Type: param.Float, Help: "Measured horizon, days."}.Range(0, 1e6)},
		{Param: param.Param{Name: "schedule.warmup", Label: "Warm-up days", Type: param.Float, Help: "Simulated days before measuring."}.Range(0, 1e6)},
		{Param: param.Param{Name: "schedule.observe", Label: "Days observed before planning", Type: param.Float, Help: "Days of uniform observation an estimator gets before planning."}.Range(0, 1e5)},
		{Param: param.Param{Name: "schedule.rates", Label: "Rates planned with", Type: param.Enum, Default: RatesOracle, Options: append([]string{RatesOracle}, rateEstimators...), OptionLabels: rateLabels(),
			Help: "The change rates the rate-using policies plan with: the truth (oracle) or an estimator's, from its own observations."}},
	}
}

// rateLabels names the options of schedule.rates for people: the truth,
// then each estimator by its catalog name.
func rateLabels() []string {
	out := []string{"True rates (oracle)"}
	for _, id := range rateEstimators {
		for _, d := range estimatekind.Descriptors() {
			if d.ID == id {
				out = append(out, d.Name)
			}
		}
	}
	return out
}

// catalogOrder is the order in which the lab's catalog lists the
// schedules, which sets their styles (lab.PolicyStyle); a schedule not
// named here comes after these.
var catalogOrder = []string{"cho-optimal-freshness", "cho-optimal-age", "uniform", "proportional", "azar", "lambda-crawl", "lambda-crawl-approx", "olston-pandey", "nutch", "heritrix", "stormcrawler"}

// Policies lists the schedules of package schedule that the lab offers,
// under their lab ids (schedule.Descriptor.LabID), in catalogOrder.
func (kind) Policies() []refresh.Descriptor {
	ds := slices.DeleteFunc(schedule.Descriptors(), func(d schedule.Descriptor) bool { return d.LabID == "" })
	rank := func(d schedule.Descriptor) int {
		if i := slices.Index(catalogOrder, d.LabID); i >= 0 {
			return i
		}
		return len(catalogOrder)
	}
	slices.SortStableFunc(ds, func(a, b schedule.Descriptor) int { return cmp.Compare(rank(a), rank(b)) })
	var out []refresh.Descriptor
	for _, d := range ds {
		sum := d.Summary
		if d.UsesRates {
			sum += " Plans with the spec's rates: the truth (an oracle) or an estimator's."
		}
		params := d.Params
		if params == nil {
			params = []param.Param{}
		}
		out = append(out, refresh.Descriptor{ID: d.LabID, Name: d.Name, Paper: d.Paper, Summary: sum, Params: params})
	}
	return out
}

// byLabID returns package schedule's descriptor of lab id.
func byLabID(id string) (schedule.Descriptor, bool) {
	for _, d := range schedule.Descriptors() {
		if d.LabID != "" && d.LabID == id {
			return d, true
		}
	}
	return schedule.Descriptor{}, false
}

// Design says what the report's methods say of a schedule run before the
// repeats' random streams, which the report describes as the refresh
// kind's (Streams).
func (kind) Design(res *lab.Result) string {
	spec := res.Spec
	ss := SpecOf(spec)
	if ss == nil || ss.Warmup == nil {
		return ""
	}
	return fmt.Sprintf("Each schedule was given %s per day, and its syncs were simulated in continuous time for %g days after %g days of warm-up; the policies that plan with change rates were given %s.",
		lab.Count(spec.Budget, "sync", "syncs"), ss.Days, *ss.Warmup, ratesText(ss.Rates))
}

// ratesText says what the rates a schedule plans with are.
func ratesText(rates string) string {
	if rates == "" || rates == RatesOracle {
		return "the true rates"
	}
	return "the rates the " + rates + " estimator made from their own observations"
}
