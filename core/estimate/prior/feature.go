package prior

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/refreshlab/refreshlab/core/estimate"
)

// ByFeature is a prior per value of a page feature: Grimes & Ford §6's
// extension, where "additional information ... about the page when it is
// first seen, such as the pagerank, the page type (news, blog, static
// content), or topic cluster ... can be used to more correctly tailor the
// reference distribution, and the same mechanism can be followed to
// approximate the prior distribution".
//
// Our reading of that one paragraph, which gives no method beyond it: the
// reference distribution of §4.3 is taken over the pages that share the new
// page's feature value instead of over all pages, and §4.4's mechanism, two
// pseudo-intervals fitted by annealed Metropolis-Hastings (Fit), is run on
// each value's distribution separately, on the same bins as the pooled one.
// A new page then gets its value's two pseudo-intervals. The paper does not
// say what to do with a value seen on too few pages to have a distribution;
// we give such pages, and pages without the feature, the pooled prior,
// which is what the crawler would use knowing nothing of the page.
type ByFeature struct {
	// Values are the feature values with a prior of their own, sorted.
	Values []string
	// Pages is, per value, how many pages with a positive rate its prior
	// was fitted to.
	Pages []int
	// Fits holds each value's fit.
	Fits []Result
	// Of gives each page's index into Values, −1 for a page on the pooled
	// prior.
	Of []int
}

// FitByFeature fits two pseudo-intervals to the change periods 1/rates[i]
// of the pages of each value of a feature, values[i] being page i's ("" for
// none); pages whose rate is not positive (never changed) or NaN have no
// period and are left out of the distributions, as they are of the pooled
// one. Each distribution is a histogram on edges (estimate.Histogram); a
// value with fewer than minPages such pages gets no prior of its own. rng
// gives each value its own random stream, so adding a value does not move
// another's fit.
func FitByFeature(rates []float64, values []string, edges []float64, minPages int, opt Options, rng func(value string) *rand.Rand) (ByFeature, error) {
	if len(rates) != len(values) {
		return ByFeature{}, fmt.Errorf("prior: %d rates but %d feature values", len(rates), len(values))
	}
	if rng == nil {
		return ByFeature{}, errors.New("prior: FitByFeature needs a random source")
	}
	periods := map[string][]float64{}
	for i, r := range rates {
		if values[i] != "" && r > 0 && !math.IsInf(r, 1) {
			periods[values[i]] = append(periods[values[i]], 1/r)
		}
	}
	var b ByFeature
	for v, ps := range periods {
		if len(ps) >= max(minPages, 1) {
			b.Values = append(b.Values, v)
		}
	}
	slices.Sort(b.Values)
	index := make(map[string]int, len(b.Values))
	for k, v := range b.Values {
		index[v] = k
		emp, _, err := estimate.Histogram(edges, periods[v])
		if err != nil {
			return ByFeature{}, fmt.Errorf("prior: feature value %q: %w", v, err)
		}
		f, err := Fit(emp, opt, rng(v))
		if err != nil {
			return ByFeature{}, fmt.Errorf("prior: feature value %q: %w", v, err)
		}
		b.Pages = append(b.Pages, len(periods[v]))
		b.Fits = append(b.Fits, f)
	}
	b.Of = make([]int, len(values))
	for i, v := range values {
		k, ok := index[v]
		if !ok {
			k = -1
		}
		b.Of[i] = k
	}
	return b, nil
}

// Estimator returns the estimator of §6: page i estimated by the PseudoMLE
// of its value's pseudo-intervals, by pooled when it has none.
func (b ByFeature) Estimator(pooled estimate.Estimator) estimate.Grouped {
	g := estimate.Grouped{Pooled: pooled, Of: b.Of, Groups: make([]estimate.Estimator, len(b.Fits))}
	for k, f := range b.Fits {
		g.Groups[k] = estimate.PseudoMLE{Changed: f.Best.Changed, Unchanged: f.Best.Unchanged}
	}
	return g
}
