package pipeline

import (
	"math"
)

// The rate histogram's bins: BinsPerDecade log-spaced bins from MinRate
// to MaxRate changes per day, one bin for rates below (zero among them)
// and one above.
const (
	MinRate       = 1e-6
	MaxRate       = 1e4
	BinsPerDecade = 10
	decades       = 10 // log10(MaxRate/MinRate)
	rateBins      = decades*BinsPerDecade + 2
)

// RateHist counts pages by estimated rate in fixed log-spaced bins, so that
// workers' counts add up exactly in any order (a mergeable summary of
// billions of rates).
type RateHist struct {
	Counts []int64 // rateBins entries once used; bin 0 is below MinRate, the last at or above MaxRate
}

// Add counts rate r.
func (h *RateHist) Add(r float64) {
	if h.Counts == nil {
		h.Counts = make([]int64, rateBins)
	}
	h.Counts[rateBin(r)]++
}

// Merge adds o's counts to h's.
func (h *RateHist) Merge(o RateHist) {
	if o.Counts == nil {
		return
	}
	if h.Counts == nil {
		h.Counts = make([]int64, rateBins)
	}
	for i, c := range o.Counts {
		h.Counts[i] += c
	}
}

// rateBin is the bin of rate r.
func rateBin(r float64) int {
	if !(r >= MinRate) {
		return 0
	}
	if r >= MaxRate {
		return rateBins - 1
	}
	b := int(math.Floor(math.Log10(r/MinRate) * BinsPerDecade))
	return 1 + min(max(b, 0), rateBins-3)
}

// binEdges returns the rates bounding bin b (0 for the low end of bin 0,
// +Inf for the high end of the last).
func binEdges(b int) (lo, hi float64) {
	edge := func(k int) float64 { return MinRate * math.Pow(10, float64(k)/BinsPerDecade) }
	switch b {
	case 0:
		return 0, MinRate
	case rateBins - 1:
		return MaxRate, math.Inf(1)
	}
	return edge(b - 1), edge(b)
}

// Bin is one bin of a rate distribution.
type Bin struct {
	Low   float64 `json:"low"`  // changes per day
	High  float64 `json:"high"` // changes per day; the last bin's is omitted (no bound)
	Pages int64   `json:"pages"`
}

// Bins lists the non-empty bins in increasing rate. The last bin's High,
// unbounded, is given as 0.
func (h *RateHist) Bins() []Bin {
	var out []Bin
	for b, c := range h.Counts {
		if c == 0 {
			continue
		}
		lo, hi := binEdges(b)
		if math.IsInf(hi, 1) {
			hi = 0
		}
		out = append(out, Bin{Low: lo, High: hi, Pages: c})
	}
	return out
}

// Quantile returns the q-quantile of the counted rates as the geometric
// middle of the bin that holds it (within a twentieth of a decade of the
// exact quantile), the low edge for the outer bins (0 below MinRate,
// MaxRate above), or NaN when nothing was counted.
func (h *RateHist) Quantile(q float64) float64 {
	var n int64
	for _, c := range h.Counts {
		n += c
	}
	if n == 0 {
		return math.NaN()
	}
	rank := int64(math.Ceil(q * float64(n)))
	rank = min(max(rank, 1), n)
	var seen int64
	for b, c := range h.Counts {
		seen += c
		if seen >= rank {
			lo, hi := binEdges(b)
			if b == 0 || b == rateBins-1 {
				return lo
			}
			return math.Sqrt(lo * hi)
		}
	}
	return math.NaN()
}

// Totals are the counts the summary adds up over pages.
type Totals struct {
	Pages        int64            `json:"pages"`
	Captures     int64            `json:"captures"`
	Observations int64            `json:"observations"` // intervals between a page's captures
	Changes      int64            `json:"changes"`      // of those, how many saw a change
	Edges        map[string]int64 `json:"edges"`        // pages in each of the MLE's edge cases
	Rates        RateHist         `json:"-"`
}

// Add counts one page.
func (t *Totals) Add(p PageRate) {
	t.Pages++
	t.Captures += int64(p.Captures)
	t.Observations += int64(p.Observations)
	t.Changes += int64(p.Changes)
	if p.Edge != "" {
		if t.Edges == nil {
			t.Edges = map[string]int64{}
		}
		t.Edges[p.Edge]++
	}
	t.Rates.Add(p.Rate)
}

// Merge adds o to t.
func (t *Totals) Merge(o Totals) {
	t.Pages += o.Pages
	t.Captures += o.Captures
	t.Observations += o.Observations
	t.Changes += o.Changes
	for k, v := range o.Edges {
		if t.Edges == nil {
			t.Edges = map[string]int64{}
		}
		t.Edges[k] += v
	}
	t.Rates.Merge(o.Rates)
}

// SiteTotals aggregate one site's pages: a row of the sites output.
type SiteTotals struct {
	Site         string
	Pages        int64
	Captures     int64
	Observations int64
	Changes      int64
	NoChange     int64 // pages that never changed
	// Rates is the sum of the pages' rates, for their mean.
	Rates float64
}

// Add counts one page of the site.
func (s *SiteTotals) Add(p PageRate) {
	s.Site = p.Site
	s.Pages++
	s.Captures += int64(p.Captures)
	s.Observations += int64(p.Observations)
	s.Changes += int64(p.Changes)
	if p.Changes == 0 {
		s.NoChange++
	}
	s.Rates += p.Rate
}

// Merge adds o to s.
func (s *SiteTotals) Merge(o SiteTotals) {
	if s.Site == "" {
		s.Site = o.Site
	}
	s.Pages += o.Pages
	s.Captures += o.Captures
	s.Observations += o.Observations
	s.Changes += o.Changes
	s.NoChange += o.NoChange
	s.Rates += o.Rates
}
