// Package pipeline computes, for crawl histories too large for one process
// (a web archive's index of billions of captures), what the lab computes
// for an upload: each page's history and change rate, per-site aggregates,
// and a sample small enough to compare refresh policies on in the browser.
// Its Apache Beam pipeline (Build, Run) runs the same code on one machine
// (the Prism runner) or on Dataflow, Flink or Spark. The per-page
// computation here is plain Go, shared by the pipeline and its tests; it
// reads rows with the lab's own readers (dataset.ScanCrawlLog) and
// estimates with its own estimators (core/estimate).
package pipeline

import (
	"cmp"
	"math"
	"slices"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/estimate"
)

// Observation is one interval of a page's history: it ended at Time and saw
// a change or not.
type Observation struct {
	Time    int64 // unix nanoseconds
	Days    float64
	Changed bool
}

// PageRate is a page's history summed up: one row of the rates output.
type PageRate struct {
	Page, URL, Site string
	// Rate is the estimate in changes per day; Low and High bound its 95%
	// likelihood-ratio interval (High is +Inf when every interval changed).
	Rate, Low, High float64
	Edge            string // the MLE's edge case (estimate.Edge's name), "" for none
	Captures        int
	Observations    int // intervals between distinct capture times
	Changes         int // of those, how many saw a change
	First, Last     int64
}

// Row is the rates file's row for p.
func (p PageRate) Row() dataset.RateRow {
	return dataset.RateRow{Page: p.URL, Site: p.Site, Rate: p.Rate, Low: p.Low, High: p.High,
		Observations: p.Observations, Changes: p.Changes, First: p.First, Last: p.Last}
}

// History puts one page's captures in time order (ties in file, then line,
// order), marks the changes (a new digest in a log with a hash column, else
// the rows' own flags, as dataset.ReadCrawlLog reads them) and returns the intervals
// between them. Visits less than estimate.MinInterval apart are one
// observation: a change among them belongs to the interval that ends at
// that time (a change before the first time has no interval and is lost).
// vs is reordered.
func History(vs []dataset.Capture) []Observation {
	dataset.SortCaptures(vs, func(a, b *dataset.Capture) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	if len(vs) > 0 && vs[0].Hashed {
		dataset.MarkChanges(vs)
	}
	var obs []Observation
	for j := 1; j < len(vs); j++ {
		last := vs[0].Time
		if len(obs) > 0 {
			last = obs[len(obs)-1].Time
		}
		d := float64(vs[j].Time-last) / (86400 * 1e9)
		if d < estimate.MinInterval {
			if len(obs) > 0 && vs[j].Changed {
				obs[len(obs)-1].Changed = true
			}
			continue
		}
		obs = append(obs, Observation{Time: vs[j].Time, Days: d, Changed: vs[j].Changed})
	}
	return obs
}

// Estimate sums up a page's visits: its history (History), its rate by
// est, and the likelihood-ratio interval. est is estimate.MLE{} unless a
// prior is configured (estimate.PseudoMLE). The URL and site are the first
// visit's.
func Estimate(page string, vs []dataset.Capture, est estimate.Estimator) (PageRate, []Observation) {
	obs := History(vs)
	p := PageRate{Page: page, URL: vs[0].URL, Site: vs[0].Site, Captures: len(vs),
		First: vs[0].Time, Last: vs[len(vs)-1].Time}
	var h estimate.History
	for _, o := range obs {
		_ = h.Add(o.Days, o.Changed) // History keeps every interval within bounds
	}
	p.rate(&h, est)
	return p, obs
}

// EstimateEvents sums up a page of a change-event log from its rows (as
// dataset.ScanEventLog hands them on) and the log's window: its history as
// the lab's upload path computes it (dataset.ReadEventLog, then
// dataset.Observe with every cycle observed, as w.History does), its rate
// by est over those intervals, and the likelihood-ratio interval. First
// and Last are the page's earliest and latest rows; the URL and site are
// the earliest row's. vs is reordered.
func EstimateEvents(page string, vs []dataset.Capture, w *dataset.EventWindow, est estimate.Estimator) (PageRate, dataset.Observation, int64) {
	dataset.SortCaptures(vs, func(a, b *dataset.Capture) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	o, from := w.History(vs, nil)
	p := PageRate{Page: page, URL: vs[0].URL, Site: vs[0].Site, Captures: len(vs),
		First: vs[0].Time, Last: vs[len(vs)-1].Time}
	var h estimate.History
	for j, d := range o.Intervals {
		_ = h.Add(d, o.Changed[j]) // as the lab adds them, leaving out an interval too short
	}
	p.rate(&h, est)
	return p, o, from
}

// rate sets p's observations and changes from h, its rate by est, the
// MLE's edge case and the likelihood-ratio interval.
func (p *PageRate) rate(h *estimate.History, est estimate.Estimator) {
	p.Observations, p.Changes = h.Len(), h.Changes()
	p.Rate = est.Estimate(h).Rate
	if e := (estimate.MLE{}).Estimate(h).Edge; e != estimate.None {
		p.Edge = e.String()
	}
	p.Low, p.High = estimate.LikelihoodInterval(h)
}

// Allocate shares n sample pages among sites in proportion to their pages
// (sizes, by site), by largest remainder, ties to the site first in name
// order; every page when n covers them all. A site gets at most its pages.
func Allocate(sizes map[string]int, n int) map[string]int {
	total := 0
	names := make([]string, 0, len(sizes))
	for s, k := range sizes {
		total += k
		names = append(names, s)
	}
	slices.Sort(names)
	out := make(map[string]int, len(sizes))
	if n >= total {
		for s, k := range sizes {
			out[s] = k
		}
		return out
	}
	if n <= 0 {
		return out
	}
	type rem struct {
		site string
		frac float64
	}
	rems := make([]rem, 0, len(names))
	given := 0
	for _, s := range names {
		q := float64(n) * float64(sizes[s]) / float64(total)
		out[s] = int(math.Floor(q))
		given += out[s]
		rems = append(rems, rem{s, q - math.Floor(q)})
	}
	slices.SortStableFunc(rems, func(a, b rem) int { return cmp.Compare(b.frac, a.frac) })
	for i := 0; given < n; i++ {
		if s := rems[i%len(rems)].site; out[s] < sizes[s] {
			out[s]++
			given++
		}
	}
	return out
}

// SampleKey orders a site's pages for the sample: a site's quota is its
// pages with the smallest keys, a pseudo-random choice that any worker
// makes alike for a seed.
func SampleKey(seed uint64, page string) uint64 {
	h := uint64(14695981039346656037) ^ seed*0x9E3779B97F4A7C15
	for i := 0; i < len(page); i++ {
		h ^= uint64(page[i])
		h *= 1099511628211
	}
	// A final mix, so that pages sharing a prefix do not share high bits.
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}
