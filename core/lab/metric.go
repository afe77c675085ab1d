package lab

import (
	"slices"
	"strings"

	"github.com/refreshlab/refreshlab/core/stat"
)

// Metric ids, as specs, charts and the site name them.
const (
	MetricChangeRatio = "changeRatio"
	MetricFreshness   = "freshness"
	MetricAge         = "age"
	// MetricSiteAccuracy is 1 − |estimated − true change fraction| averaged
	// over sites, for policies that estimate sites (Al-Qaaideh Table 4.2).
	MetricSiteAccuracy = "siteAccuracy"
)

// Metric describes a measure of a refresh run, for charts and readouts.
type Metric struct {
	ID     string  `json:"id"`
	Name   string  `json:"name"`
	Unit   string  `json:"unit"` // "ratio", or "cycle" for times in cycles
	Max    float64 `json:"max"`  // 1 for ratios, 0 when unbounded
	Better string  `json:"better"`
	Help   string  `json:"help"`
	// Kinds lists the experiment kinds the metric applies to; empty means
	// refresh only.
	Kinds []string `json:"kinds,omitempty"`

	Headline func(PolicyResult) stat.Summary `json:"-"`
	// PerCycle is nil for metrics with no per-cycle series.
	PerCycle func(PolicyResult) stat.Series `json:"-"`
	Sweep    func(SweepSeries) stat.Series  `json:"-"`
}

// Metrics lists the measures of a refresh run.
var Metrics = []Metric{
	{
		ID: MetricChangeRatio, Name: "ChangeRatio", Unit: "ratio", Max: 1, Better: "higher",
		Help:     "Share of the cycle's downloads that found the page changed (Taleghani eq. 1).",
		Headline: func(p PolicyResult) stat.Summary { return p.ChangeRatio },
		PerCycle: func(p PolicyResult) stat.Series { return p.PerCycle.ChangeRatio },
		Sweep:    func(s SweepSeries) stat.Series { return s.ChangeRatio },
	},
	{
		ID: MetricFreshness, Name: "Freshness", Unit: "ratio", Max: 1, Better: "higher",
		Help:     "Share of all pages whose copy is up to date at the end of the cycle (Taleghani eq. 3).",
		Headline: func(p PolicyResult) stat.Summary { return p.Freshness },
		PerCycle: func(p PolicyResult) stat.Series { return p.PerCycle.Freshness },
		Sweep:    func(s SweepSeries) stat.Series { return s.Freshness },
	},
	{
		ID: MetricAge, Name: "Age", Unit: "cycle", Better: "lower",
		Help:     "Mean time since the first change a copy misses, 0 for fresh copies, at the end of the cycle (Taleghani eq. 5).",
		Headline: func(p PolicyResult) stat.Summary { return p.Age },
		PerCycle: func(p PolicyResult) stat.Series { return p.PerCycle.Age },
		Sweep:    func(s SweepSeries) stat.Series { return s.Age },
	},
	{
		ID: MetricSiteAccuracy, Name: "Site accuracy", Unit: "ratio", Max: 1, Better: "higher",
		Help: "1 − |estimated − true change fraction|, averaged over sites, for policies that estimate each site's change (Al-Qaaideh Table 4.2).",
		Headline: func(p PolicyResult) stat.Summary {
			if p.Sites == nil {
				return stat.Summarize(nil)
			}
			return p.Sites.MeanAccuracy
		},
		Sweep: func(s SweepSeries) stat.Series { return s.SiteAccuracy },
	},
}

// Metrics of the estimate kind.
const (
	// MetricMAD is the median absolute deviation of the estimated rates
	// from the true ones, pooled over the first epochs (Grimes & Ford §4.2).
	MetricMAD = "mad"
	// MetricEdgeShare is the share of estimates in an edge case.
	MetricEdgeShare = "edgeShare"
	// MetricRateEstimate is the mean estimated rate, per epoch; its headline
	// is the last epoch's.
	MetricRateEstimate = "estimate"
)

func init() {
	Metrics = append(Metrics,
		Metric{
			ID: MetricMAD, Name: "MAD", Unit: "per day", Better: "lower", Kinds: []string{KindEstimate},
			Help:     "Median over pages of |estimated − true rate|, changes per day, pooled over the first epochs (Grimes & Ford §4.2, Fig. 4); per epoch on epoch charts.",
			Headline: func(p PolicyResult) stat.Summary { return p.MAD },
			PerCycle: func(p PolicyResult) stat.Series {
				if p.Estimate == nil {
					return nil
				}
				return p.Estimate.MAD
			},
			Sweep: func(s SweepSeries) stat.Series { return s.MAD },
		},
		Metric{
			ID: MetricEdgeShare, Name: "Edge share", Unit: "ratio", Max: 1, Better: "lower", Kinds: []string{KindEstimate},
			Help: "Share of estimates in an edge case, nothing or everything changed (Grimes & Ford §3.3, Fig. 2), pooled over the first epochs; per epoch on epoch charts.",
			Headline: func(p PolicyResult) stat.Summary {
				if p.Estimate == nil {
					return stat.Summarize(nil)
				}
				return p.Estimate.EdgeShare
			},
			PerCycle: func(p PolicyResult) stat.Series {
				if p.Estimate == nil {
					return nil
				}
				return p.Estimate.Edge
			},
			Sweep: func(s SweepSeries) stat.Series { return s.EdgeShare },
		},
		Metric{
			ID: MetricRateEstimate, Name: "Mean estimate", Unit: "per day", Better: "closer to the true rate", Kinds: []string{KindEstimate},
			Help: "Mean over pages of the estimated rate, changes per day, after the last epoch; per epoch on epoch charts.",
			Headline: func(p PolicyResult) stat.Summary {
				if p.Estimate == nil || len(p.Estimate.Mean) == 0 {
					return stat.Summarize(nil)
				}
				return p.Estimate.Mean[len(p.Estimate.Mean)-1]
			},
			PerCycle: func(p PolicyResult) stat.Series {
				if p.Estimate == nil {
					return nil
				}
				return p.Estimate.Mean
			},
			Sweep: func(SweepSeries) stat.Series { return nil },
		})
}

// AppliesTo reports whether the metric measures runs of the given kind.
func (m Metric) AppliesTo(kind string) bool {
	if len(m.Kinds) == 0 {
		return kind == KindRefresh
	}
	return slices.Contains(m.Kinds, kind)
}

// MetricByID returns the metric with the given id.
func MetricByID(id string) (Metric, bool) {
	for _, m := range Metrics {
		if m.ID == id {
			return m, true
		}
	}
	return Metric{}, false
}

// MetricIDs lists the metric ids, for error messages.
func MetricIDs() string {
	ids := make([]string, len(Metrics))
	for i, m := range Metrics {
		ids[i] = m.ID
	}
	return strings.Join(ids, ", ")
}
