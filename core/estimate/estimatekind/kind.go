// Package estimatekind is the lab's estimate experiment kind: change-rate
// estimators (package estimate) on censored histories, simulated or real,
// after Grimes & Ford, "Estimation of Web Page Change Rates" (2008). It
// registers itself with the lab (lab.Register) when imported; each
// estimator is listed in Descriptors and built in estimator.
package estimatekind

import (
	"slices"

	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/stat"
)

// ID is the kind's name in lab.Spec.Kind.
const ID = "estimate"

func init() { lab.Register(kind{}) }

// Metric and fact ids of the kind.
const (
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

	FactExpectedEstimate = "expectedEstimate"
	FactEdgeFirst        = "edgeFirst"
	FactMADLast          = "madLast"
	FactBestInitial      = "bestInitial"
	FactPseudoChanged    = "pseudoChanged"
	FactPseudoUnchanged  = "pseudoUnchanged"
)

var (
	specErr = lab.SpecErrorf
	count   = lab.Count
)

// kind is the estimate kind (lab.Kind).
type kind struct{}

func (kind) ID() string          { return ID }
func (kind) Headline() string    { return MetricMAD }
func (kind) DefaultRepeats() int { return lab.DefaultRepeats }

func (kind) Charts() []string {
	return []string{"estimate-paths", "estimate-sweep", "estimate-prior", "estimate-epochs", "forest"}
}

func (kind) Nouns() (string, string) { return "change-rate estimator", "change-rate estimators" }

// Streams says the kind draws repeat r of an estimator from
// lab.Stream(seed, id, r) (lab.Streamer).
func (kind) Streams() {}

// Design says what ran; the report then describes the repeats' streams
// (Streams).
func (kind) Design(res *lab.Result) string { return "What ran: " + res.Work + "." }

func (kind) Policies() []refresh.Descriptor { return Descriptors() }

// descriptor returns estimator id's descriptor.
func descriptor(id string) (refresh.Descriptor, bool) {
	ds := Descriptors()
	i := slices.IndexFunc(ds, func(d refresh.Descriptor) bool { return d.ID == id })
	if i < 0 {
		return refresh.Descriptor{}, false
	}
	return ds[i], true
}

func (kind) Metrics() []lab.Metric {
	return []lab.Metric{
		{ID: MetricMAD, Name: "MAD", Unit: "per day", Better: "lower",
			Help: "Median over pages of |estimated − true rate|, changes per day, pooled over the first epochs (Grimes & Ford §4.2, Fig. 4); per epoch on epoch charts."},
		{ID: MetricMADPeriod, Name: "MAD of the period", Unit: "hour", Better: "lower",
			Help: "Median over pages of |1/estimated − 1/true rate|, the error in the change period in hours, pooled over the first epochs (Grimes & Ford §5, Fig. 7's unit): it weighs slow pages, whose periods are long, where MAD weighs fast ones; per epoch on epoch charts."},
		{ID: MetricEdgeShare, Name: "Edge share", Unit: "ratio", Max: 1, Better: "lower",
			Help: "Share of estimates in an edge case, nothing or everything changed (Grimes & Ford §3.3, Fig. 2), pooled over the first epochs; per epoch on epoch charts."},
		{ID: MetricRateEstimate, Name: "Mean estimate", Unit: "per day", Better: "closer to the true rate", Exact: FactExpectedEstimate,
			Help: "Mean over pages of the estimated rate, changes per day, after the last epoch; per epoch on epoch charts."},
	}
}

func (kind) Facts() []lab.Fact {
	return []lab.Fact{
		{ID: FactExpectedEstimate, Name: "Exact expectation of the estimate", Unit: "per day",
			Help: "The exact expected estimate after the last crawl, for one true rate crawled at a fixed interval."},
		{ID: FactEdgeFirst, Name: "Edge share after the first crawl", Unit: "ratio",
			Help: "Share of estimates in an edge case after the first crawl epoch, mean over repeats."},
		{ID: FactMADLast, Name: "MAD after the last crawl", Unit: "per day",
			Help: "MAD after the last crawl epoch, mean over repeats."},
		{ID: FactBestInitial, Name: "Best first interval", Unit: "day",
			Help: "The first crawl interval of the sweep with the lowest MAD, for estimators whose MAD depends on it."},
		{ID: FactPseudoChanged, Name: "Changed pseudo-interval", Unit: "day",
			Help: "Length of the changed pseudo-interval the estimator used (Grimes & Ford §4.4)."},
		{ID: FactPseudoUnchanged, Name: "Unchanged pseudo-interval", Unit: "day",
			Help: "Length of the unchanged pseudo-interval the estimator used (Grimes & Ford §4.4)."},
	}
}

// outcome is an estimator's run: the detail its result carries
// (PolicyResult) and the series its metrics are made of.
type outcome struct {
	PolicyResult
	// The policy's metrics: the median over pages of |λ̂ − λ| at each
	// epoch (§4.2, §5) and pooled over the first epochs (headline), the
	// share of pages in an edge case at each epoch and pooled, and the
	// mean estimate at each epoch (PolicyResult.Metrics and Series).
	mad, edge, mean     stat.Series
	headline, edgeShare stat.Summary
	// madPeriod and periodHeadline are the median error in the period, in
	// hours (§5's unit), per epoch and pooled.
	madPeriod      stat.Series
	periodHeadline stat.Summary
	// pooled, pooledEdge and pooledPeriod are the headlines' values in
	// each repeat (PolicyResult.Values); nil for real histories, which
	// have one.
	pooled, pooledEdge, pooledPeriod []float64
}

var _ lab.SweepFinisher = kind{}
