package lab

import (
	"math"
	"slices"
	"strings"

	"github.com/refreshlab/refreshlab/core/stat"
)

// Metric ids, as specs, charts and the site name them. A result carries
// each metric a policy has in PolicyResult.Metrics (and, per cycle or
// epoch, in Series), under these ids, so that no face needs to know which
// metrics a kind has.
const (
	MetricChangeRatio = "changeRatio"
	MetricFreshness   = "freshness"
	MetricAge         = "age"
	MetricDownloads   = "downloads"
	// MetricCaughtRIR is the returned information ratio of a refresh run,
	// the changes caught over the changes that happened (refresh.Cycle.RIR).
	// Its id is not the monitor kind's "rir", which is the expected RIR of
	// an allocation, computed from update probabilities a refresh dataset
	// does not have.
	MetricCaughtRIR = "caughtRir"
	// MetricDivergence is the changes a copy misses, averaged over pages
	// (Al-Qaaideh §2.4.4; refresh.Cycle.Divergence).
	MetricDivergence = "divergence"
	// MetricSiteAccuracy is 1 − |estimated − true change fraction| averaged
	// over sites, for policies that estimate sites (Al-Qaaideh Table 4.2).
	MetricSiteAccuracy = "siteAccuracy"

	// MetricMAD is the median absolute deviation of the estimated rates
	// from the true ones, pooled over the first epochs (Grimes & Ford §4.2).
	MetricMAD = "mad"
	// MetricMADPeriod is the median absolute error in the change period,
	// |1/λ̂ − 1/λ| in hours, pooled over the first epochs: Grimes & Ford
	// §5 and Fig. 7 measure error this way, in the paper's unit.
	MetricMADPeriod = "madPeriod"
	// MetricEdgeShare is the share of estimates in an edge case.
	MetricEdgeShare = "edgeShare"
	// MetricRateEstimate is the mean estimated rate, per epoch; its
	// headline is the last epoch's.
	MetricRateEstimate = "estimate"

	// MetricHarmonic is Kolobov et al.'s harmonic staleness (schedules).
	MetricHarmonic = "harmonic"
	// MetricSyncsPerDay is the syncs a schedule spent per day.
	MetricSyncsPerDay = "syncsPerDay"
)

// Fact ids: single numbers a run derives, without an interval, carried in
// PolicyResult.Facts.
const (
	FactExpectedChangeRatio = "expectedChangeRatio"
	FactExpectedFreshness   = "expectedFreshness"
	FactExpectedAge         = "expectedAge"
	FactExpectedHarmonic    = "expectedHarmonic"
	FactExpectedEstimate    = "expectedEstimate"
	FactEdgeFirst           = "edgeFirst"
	FactMADLast             = "madLast"
	FactBestInitial         = "bestInitial"
	FactPseudoChanged       = "pseudoChanged"
	FactPseudoUnchanged     = "pseudoUnchanged"
)

// Metric describes a measure of a run, for charts, readouts and live
// numbers. Its values live in the results (PolicyResult.Metrics, Series),
// not here.
type Metric struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Unit is "ratio" (0 to 1), "cycle" (a time in the dataset's cycles),
	// "day", "hour", "per day" or "" for a plain number.
	Unit   string  `json:"unit"`
	Max    float64 `json:"max"` // 1 for ratios, 0 when unbounded
	Better string  `json:"better"`
	Help   string  `json:"help"`
	// Kinds lists the experiment kinds whose results carry the metric.
	Kinds []string `json:"kinds"`
	// Exact names the fact that is the metric's exact expectation, where a
	// run can compute one (say, expectedChangeRatio of a one-cycle run).
	Exact string `json:"exact,omitempty"`
}

// Fact describes a single number a run derives, such as an exact
// expectation or the best value of a sweep.
type Fact struct {
	ID    string   `json:"id"`
	Name  string   `json:"name"`
	Unit  string   `json:"unit"` // as Metric.Unit
	Help  string   `json:"help"`
	Kinds []string `json:"kinds"`
}

var (
	refreshKinds  = []string{KindRefresh}
	scheduleKinds = []string{KindSchedule}
	estimateKinds = []string{KindEstimate}
	bothKinds     = []string{KindRefresh, KindSchedule}
)

// Metrics lists every metric of every kind.
var Metrics = []Metric{
	{ID: MetricChangeRatio, Name: "ChangeRatio", Unit: "ratio", Max: 1, Better: "higher", Kinds: bothKinds, Exact: FactExpectedChangeRatio,
		Help: "Share of the cycle's downloads that found the page changed (Taleghani & Ugur-Ozekinci eq. 1)."},
	{ID: MetricFreshness, Name: "Freshness", Unit: "ratio", Max: 1, Better: "higher", Kinds: bothKinds, Exact: FactExpectedFreshness,
		Help: "Share of all pages whose copy is up to date at the end of the cycle (Taleghani & Ugur-Ozekinci eq. 3); for schedules, averaged over time."},
	{ID: MetricAge, Name: "Age", Unit: "cycle", Better: "lower", Kinds: bothKinds, Exact: FactExpectedAge,
		Help: "Mean time since the first change a copy misses, 0 for fresh copies, at the end of the cycle (Taleghani & Ugur-Ozekinci eq. 5); for schedules, averaged over time, in days."},
	{ID: MetricCaughtRIR, Name: "RIR", Unit: "ratio", Max: 1, Better: "higher", Kinds: refreshKinds,
		Help: "Share of the changes that happened which the crawler caught: a change counts as caught when its page is downloaded after it and before it changes again, and as lost when it changes again first (the returned information ratio of Pandey, Ramamritham & Chakrabarti §5.1, under their complete-loss assumption). Each change counts its page's weight where the dataset gives weights, else 1. ChangeRatio divides the changes caught by the downloads spent; RIR divides them by the changes there were to catch, so a small budget can score a high ChangeRatio and a low RIR."},
	{ID: MetricDivergence, Name: "Divergence", Unit: "", Better: "lower", Kinds: refreshKinds,
		Help: "How far copies are behind the source, in versions: the cycles with a change since each copy was fetched, 0 for fresh copies, averaged over all pages at the end of the cycle. Al-Qaaideh §2.4.4 names divergence, how different a copy is from the original, without a formula; freshness asks whether a copy is behind, age for how long, divergence by how many changes."},
	{ID: MetricDownloads, Name: "Downloads", Unit: "", Better: "", Kinds: refreshKinds,
		Help: "Pages downloaded per cycle, samples included."},
	{ID: MetricSiteAccuracy, Name: "Site accuracy", Unit: "ratio", Max: 1, Better: "higher", Kinds: refreshKinds,
		Help: "1 − |estimated − true change fraction|, averaged over sites, for policies that estimate each site's change (Al-Qaaideh Table 4.2)."},
	{ID: MetricMAD, Name: "MAD", Unit: "per day", Better: "lower", Kinds: estimateKinds,
		Help: "Median over pages of |estimated − true rate|, changes per day, pooled over the first epochs (Grimes & Ford §4.2, Fig. 4); per epoch on epoch charts."},
	{ID: MetricMADPeriod, Name: "MAD of the period", Unit: "hour", Better: "lower", Kinds: estimateKinds,
		Help: "Median over pages of |1/estimated − 1/true rate|, the error in the change period in hours, pooled over the first epochs (Grimes & Ford §5, Fig. 7's unit): it weighs slow pages, whose periods are long, where MAD weighs fast ones; per epoch on epoch charts."},
	{ID: MetricEdgeShare, Name: "Edge share", Unit: "ratio", Max: 1, Better: "lower", Kinds: estimateKinds,
		Help: "Share of estimates in an edge case, nothing or everything changed (Grimes & Ford §3.3, Fig. 2), pooled over the first epochs; per epoch on epoch charts."},
	{ID: MetricRateEstimate, Name: "Mean estimate", Unit: "per day", Better: "closer to the true rate", Kinds: estimateKinds, Exact: FactExpectedEstimate,
		Help: "Mean over pages of the estimated rate, changes per day, after the last epoch; per epoch on epoch charts."},
	{ID: MetricHarmonic, Name: "Harmonic staleness", Unit: "", Better: "lower", Kinds: scheduleKinds, Exact: FactExpectedHarmonic,
		Help: "Time-averaged H(N) = 1 + 1/2 + … + 1/N for the N changes the copy misses (Kolobov et al., NeurIPS 2019): every missed change costs, each less than the one before."},
	{ID: MetricSyncsPerDay, Name: "Syncs per day", Unit: "per day", Better: "", Kinds: scheduleKinds,
		Help: "Syncs the schedule spent per day, over all pages (adaptive rules set their own)."},
}

// Facts lists every fact of every kind.
var Facts = []Fact{
	{ID: FactExpectedChangeRatio, Name: "Exact expectation of ChangeRatio", Unit: "ratio", Kinds: bothKinds,
		Help: "The exact expected ChangeRatio of a one-cycle run, summed over every possible sample; of a schedule, the plan's."},
	{ID: FactExpectedFreshness, Name: "Exact expectation of freshness", Unit: "ratio", Kinds: scheduleKinds,
		Help: "The plan's exact expected time-averaged freshness (Cho & Garcia-Molina), where the plan is the same in every repeat."},
	{ID: FactExpectedAge, Name: "Exact expectation of age", Unit: "day", Kinds: scheduleKinds,
		Help: "The plan's exact expected time-averaged age, in days."},
	{ID: FactExpectedHarmonic, Name: "Exact expectation of harmonic staleness", Unit: "", Kinds: scheduleKinds,
		Help: "The plan's exact expected harmonic staleness."},
	{ID: FactExpectedEstimate, Name: "Exact expectation of the estimate", Unit: "per day", Kinds: estimateKinds,
		Help: "The exact expected estimate after the last crawl, for one true rate crawled at a fixed interval."},
	{ID: FactEdgeFirst, Name: "Edge share after the first crawl", Unit: "ratio", Kinds: estimateKinds,
		Help: "Share of estimates in an edge case after the first crawl epoch, mean over repeats."},
	{ID: FactMADLast, Name: "MAD after the last crawl", Unit: "per day", Kinds: estimateKinds,
		Help: "MAD after the last crawl epoch, mean over repeats."},
	{ID: FactBestInitial, Name: "Best first interval", Unit: "day", Kinds: estimateKinds,
		Help: "The first crawl interval of the sweep with the lowest MAD, for estimators whose MAD depends on it."},
	{ID: FactPseudoChanged, Name: "Changed pseudo-interval", Unit: "day", Kinds: estimateKinds,
		Help: "Length of the changed pseudo-interval the estimator used (Grimes & Ford §4.4)."},
	{ID: FactPseudoUnchanged, Name: "Unchanged pseudo-interval", Unit: "day", Kinds: estimateKinds,
		Help: "Length of the unchanged pseudo-interval the estimator used (Grimes & Ford §4.4)."},
}

// Headline returns the id of the metric a kind's results are compared by
// unless another is chosen: ChangeRatio for refresh cycles (Taleghani &
// Ugur-Ozekinci's measure), time-averaged freshness for schedules (the
// objective of Cho & Garcia-Molina's optimal schedule) and the pooled MAD
// for estimators (Grimes & Ford §4.2); "" for an unknown kind.
func Headline(kind string) string {
	switch kind {
	case KindRefresh, "":
		return MetricChangeRatio
	case KindSchedule:
		return MetricFreshness
	case KindEstimate:
		return MetricMAD
	}
	if k, ok := kindByID(kind); ok {
		return k.Headline()
	}
	return ""
}

// AppliesTo reports whether the metric measures runs of the given kind.
func (m Metric) AppliesTo(kind string) bool { return slices.Contains(m.Kinds, kind) }

// MetricByID returns the metric with the given id.
func MetricByID(id string) (Metric, bool) {
	i := slices.IndexFunc(Metrics, func(m Metric) bool { return m.ID == id })
	if i < 0 {
		return Metric{}, false
	}
	return Metrics[i], true
}

// FactByID returns the fact with the given id.
func FactByID(id string) (Fact, bool) {
	i := slices.IndexFunc(Facts, func(f Fact) bool { return f.ID == id })
	if i < 0 {
		return Fact{}, false
	}
	return Facts[i], true
}

// MetricIDs lists the metric ids of kind (every kind when kind is ""), for
// error messages.
func MetricIDs(kind string) string {
	var ids []string
	for _, m := range Metrics {
		if kind == "" || m.AppliesTo(kind) {
			ids = append(ids, m.ID)
		}
	}
	return strings.Join(ids, ", ")
}

// FactIDs lists the fact ids of kind (every kind when kind is ""), for
// error messages.
func FactIDs(kind string) string {
	var ids []string
	for _, f := range Facts {
		if kind == "" || slices.Contains(f.Kinds, kind) {
			ids = append(ids, f.ID)
		}
	}
	return strings.Join(ids, ", ")
}

// Metric returns the policy's headline summary of metric id; a summary of
// nothing (NaN, n = 0) when it has none.
func (p PolicyResult) Metric(id string) stat.Summary {
	if s, ok := p.Metrics[id]; ok {
		return s
	}
	return stat.Summarize(nil)
}

// Fact returns the policy's fact id and whether it has one.
func (p PolicyResult) Fact(id string) (float64, bool) {
	v, ok := p.Facts[id]
	return v, ok
}

// setFact records fact id when x is a number (NaN and ±Inf are none).
func (p *PolicyResult) setFact(id string, x float64) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return
	}
	if p.Facts == nil {
		p.Facts = map[string]float64{}
	}
	p.Facts[id] = x
}
