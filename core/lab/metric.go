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
)

// Fact ids: single numbers a run derives, without an interval, carried in
// PolicyResult.Facts.
const (
	FactExpectedChangeRatio = "expectedChangeRatio"
	FactExpectedFreshness   = "expectedFreshness"
	FactExpectedAge         = "expectedAge"
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

var refreshKinds = []string{KindRefresh}

// Metrics lists every metric of every kind.
var Metrics = []Metric{
	{ID: MetricChangeRatio, Name: "ChangeRatio", Unit: "ratio", Max: 1, Better: "higher", Kinds: refreshKinds, Exact: FactExpectedChangeRatio,
		Help: "Share of the cycle's downloads that found the page changed (Taleghani & Ugur-Ozekinci eq. 1)."},
	{ID: MetricFreshness, Name: "Freshness", Unit: "ratio", Max: 1, Better: "higher", Kinds: refreshKinds, Exact: FactExpectedFreshness,
		Help: "Share of all pages whose copy is up to date at the end of the cycle (Taleghani & Ugur-Ozekinci eq. 3); for schedules, averaged over time."},
	{ID: MetricAge, Name: "Age", Unit: "cycle", Better: "lower", Kinds: refreshKinds, Exact: FactExpectedAge,
		Help: "Mean time since the first change a copy misses, 0 for fresh copies, at the end of the cycle (Taleghani & Ugur-Ozekinci eq. 5); for schedules, averaged over time, in days."},
	{ID: MetricCaughtRIR, Name: "RIR", Unit: "ratio", Max: 1, Better: "higher", Kinds: refreshKinds,
		Help: "Share of the changes that happened which the crawler caught: a change counts as caught when its page is downloaded after it and before it changes again, and as lost when it changes again first (the returned information ratio of Pandey, Ramamritham & Chakrabarti §5.1, under their complete-loss assumption). Each change counts its page's weight where the dataset gives weights, else 1. ChangeRatio divides the changes caught by the downloads spent; RIR divides them by the changes there were to catch, so a small budget can score a high ChangeRatio and a low RIR."},
	{ID: MetricDivergence, Name: "Divergence", Unit: "", Better: "lower", Kinds: refreshKinds,
		Help: "How far copies are behind the source, in versions: the cycles with a change since each copy was fetched, 0 for fresh copies, averaged over all pages at the end of the cycle. Al-Qaaideh §2.4.4 names divergence, how different a copy is from the original, without a formula; freshness asks whether a copy is behind, age for how long, divergence by how many changes."},
	{ID: MetricDownloads, Name: "Downloads", Unit: "", Better: "", Kinds: refreshKinds,
		Help: "Pages downloaded per cycle, samples included."},
	{ID: MetricSiteAccuracy, Name: "Site accuracy", Unit: "ratio", Max: 1, Better: "higher", Kinds: refreshKinds,
		Help: "1 − |estimated − true change fraction|, averaged over sites, for policies that estimate each site's change (Al-Qaaideh Table 4.2)."},
}

// Facts lists every fact of every kind.
var Facts = []Fact{
	{ID: FactExpectedChangeRatio, Name: "Exact expectation of ChangeRatio", Unit: "ratio", Kinds: refreshKinds,
		Help: "The exact expected ChangeRatio of a one-cycle run, summed over every possible sample; of a schedule, the plan's."},
}

// Headline returns the id of the metric a kind's results are compared by
// unless another is chosen: ChangeRatio for refresh cycles (Taleghani &
// Ugur-Ozekinci's measure), a registered kind's own (Kind.Headline); ""
// for an unknown kind.
func Headline(kind string) string {
	if kind == KindRefresh || kind == "" {
		return MetricChangeRatio
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

// SetFact records fact id when x is a number (NaN and ±Inf are none), for
// a kind's Run.
func (p *PolicyResult) SetFact(id string, x float64) { p.setFact(id, x) }

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
