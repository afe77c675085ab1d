package estimatekind

import "github.com/refreshlab/refreshlab/core/stat"

// shares summarises per-repeat shares of n pages each, such as the share in
// an edge case (stat.SummarizeShares: an interval even where every repeat
// gave the same share), except for estimator id with a prior, which never
// meets an edge case, so whose zero share is exact.
func (p perEpoch) shares(id string, n int) stat.Series {
	if hasPrior(id) {
		return p.series()
	}
	return p.summarize(func(xs []float64) stat.Summary { return stat.SummarizeShares(xs, n) })
}

// shareSummary is shares for one share per repeat.
func shareSummary(id string, xs []float64, n int) stat.Summary {
	if hasPrior(id) {
		return stat.Summarize(xs)
	}
	return stat.SummarizeShares(xs, n)
}
