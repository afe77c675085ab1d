package lab

import (
	"math"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/stat"
)

// SiteEstimates compares a sampling policy's estimates of each site's
// change fraction with the truth, as Al-Qaaideh's Table 4.2 does for the
// greedy and frequency-greedy policies.
type SiteEstimates struct {
	Sites []string `json:"sites"`
	// Truth is the mean over the run's cycles of the share of the site's
	// pages that changed in the cycle.
	Truth []float64 `json:"truth"`
	// Estimate is, per site, the policy's estimate averaged over the cycles
	// in which it made one, summarised across repeats.
	Estimate stat.Series `json:"estimate"`
	// Accuracy is, per site, 1 − |estimate − truth|: Table 4.2's
	// "percentage of accurate by comparison to real change rate", as a
	// fraction.
	Accuracy stat.Series `json:"accuracy"`
	// The accuracy averaged over the sites with an estimate (Table 4.2's
	// "Average" row) is the policy's MetricSiteAccuracy.
}

// siteTruth returns each site's mean share of pages changed per cycle over
// the first cycles of d.
func siteTruth(d *dataset.Dataset, cycles int) []float64 {
	ns := len(d.Sites)
	out := make([]float64, ns)
	if cycles == 0 {
		return out
	}
	changed := make([]int, ns)
	for c := range cycles {
		for _, p := range d.Truth.Changed[c] {
			changed[d.Pages[p].Site]++
		}
	}
	for w := range out {
		if n := len(d.SitePages(w)); n > 0 {
			out[w] = float64(changed[w]) / float64(n*cycles)
		}
	}
	return out
}

// siteTally gathers one policy's site estimates over a run.
type siteTally struct {
	truth    []float64
	sum      []float64 // this repeat: sum of estimates per site
	count    []int     // this repeat: cycles with an estimate per site
	estimate [][]float64
	accuracy [][]float64
	mean     []float64 // per repeat: the accuracy averaged over sites
}

// newSiteTally starts a tally over ns sites, the truth given, for the
// given repeats.
func newSiteTally(truth []float64, ns, repeats int) *siteTally {
	t := &siteTally{
		truth: truth, sum: make([]float64, ns), count: make([]int, ns),
		estimate: make([][]float64, ns), accuracy: make([][]float64, ns), mean: make([]float64, repeats),
	}
	for w := range ns {
		t.estimate[w] = make([]float64, repeats)
		t.accuracy[w] = make([]float64, repeats)
	}
	return t
}

// observe records a cycle's estimates.
func (t *siteTally) observe(e refresh.SiteEstimator) {
	for w, x := range e.SiteEstimates() {
		if w < len(t.sum) && x >= 0 {
			t.sum[w] += x
			t.count[w]++
		}
	}
}

// endRepeat closes repeat r.
func (t *siteTally) endRepeat(r int) {
	var accSum float64
	var accN int
	for w := range t.sum {
		est, acc := math.NaN(), math.NaN()
		if t.count[w] > 0 {
			est = t.sum[w] / float64(t.count[w])
			acc = 1 - math.Abs(est-t.truth[w])
			accSum += acc
			accN++
		}
		t.estimate[w][r], t.accuracy[w][r] = est, acc
		t.sum[w], t.count[w] = 0, 0
	}
	t.mean[r] = math.NaN()
	if accN > 0 {
		t.mean[r] = accSum / float64(accN)
	}
}

// result summarises the tally across repeats. A site's estimate that came
// out the same in every repeat is exact when it is the truth (a site that
// never changed, or sampled whole); otherwise it is a share of a few
// sampled pages that landed on the same value by chance, and its zero
// spread says nothing of its uncertainty, so it and its accuracy have no
// interval (stat.SummarizeMedians' rule).
func (t *siteTally) result(d *dataset.Dataset) *SiteEstimates {
	s := &SiteEstimates{Sites: d.Sites, Truth: t.truth}
	for w := range t.truth {
		est, acc := stat.Summarize(t.estimate[w]), stat.Summarize(t.accuracy[w])
		if est.N >= 2 && est.SD == 0 && est.Mean != t.truth[w] {
			est, acc = stat.SummarizeMedians(t.estimate[w]), stat.SummarizeMedians(t.accuracy[w])
		}
		s.Estimate = append(s.Estimate, est)
		s.Accuracy = append(s.Accuracy, acc)
	}
	return s
}
