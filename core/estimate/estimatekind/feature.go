package estimatekind

import (
	"fmt"
	"math/rand/v2"

	"github.com/refreshlab/refreshlab/core/estimate"
	"github.com/refreshlab/refreshlab/core/estimate/prior"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
)

// EstPseudoMLEFeature is the pseudo-interval estimator with a prior per
// value of a page feature (Grimes & Ford §6; prior.ByFeature).
const EstPseudoMLEFeature = "pseudo-mle-feature"

// The page features a prior can be conditioned on.
const (
	FeatureLabel = "label" // the page's first category label (say, its page type)
	FeatureSite  = "site"  // the page's site
)

// DefaultFeatureMinPages is how many pages with a positive rate a feature
// value needs for a prior of its own; the paper gives no number, and fewer
// pages leave a histogram on hour bins too sparse to stand for a
// distribution.
const DefaultFeatureMinPages = 100

func pseudoMLEFeatureDescriptor(gf string) refresh.Descriptor {
	return refresh.Descriptor{ID: EstPseudoMLEFeature, Name: "MLE + pseudo-intervals per feature", Paper: gf + " §6",
		Summary: "The MLE with two pseudo-intervals fitted, as in §4.4, to the change periods of the pages that share the new page's feature (its page type or site), the pooled pair for a value with too few pages.",
		Params: []param.Param{
			{Name: "by", Label: "Page feature", Type: param.Enum, Default: FeatureLabel, Options: []string{FeatureLabel, FeatureSite},
				OptionLabels: []string{"Category label (page type)", "Site"},
				Help:         "label: the page's first category label, such as its page type; site: its site. A page without one uses the pooled prior."},
			param.Param{Name: "minPages", Label: "Pages for a prior of its own", Type: param.Int, Default: float64(DefaultFeatureMinPages), Step: 1,
				Help: "A feature value with fewer pages (with a positive rate) than this uses the pooled prior."}.Range(1, MaxEstimatePages),
		}}
}

// featurePrior builds pseudo-mle-feature: the pooled pseudo-intervals (as
// pseudo-mle fits them) for pages without a prior of their own, and one
// pair per feature value, fitted from the same rates as the pooled prior
// (the dataset's true rates, or its reference rates for real histories)
// on the same bins, remembered per dataset and options. Page i of the
// simulated population is dataset page i mod the dataset's pages, so it
// carries that page's feature.
func (e *estimateRun) featurePrior(vals param.Values) (estimate.Estimator, *Prior, []string, error) {
	emp, outside, err := e.empirical()
	if err != nil {
		return nil, nil, nil, err
	}
	f, err := e.fit()
	if err != nil {
		return nil, nil, nil, err
	}
	by, minPages := vals.String("by", FeatureLabel), vals.Int("minPages", DefaultFeatureMinPages)
	key := fmt.Sprintf("estimate.byFeature/%d/%s/%d/%d/%d", e.es.Every, by, minPages, e.es.Prior.Steps, e.es.Prior.Restarts)
	v, err := e.memo(key, func() (any, error) {
		rates := e.d.Truth.Rates
		if e.es.Every > 0 {
			rates = e.refAll
		}
		values := make([]string, len(e.d.Pages))
		for i, p := range e.d.Pages {
			switch {
			case by == FeatureSite:
				values[i] = e.d.Sites[p.Site]
			case len(p.Labels) > 0:
				values[i] = e.d.Labels[p.Labels[0]]
			}
		}
		return prior.FitByFeature(rates, values, emp.Edges, minPages, prior.Options{Steps: e.es.Prior.Steps, Restarts: e.es.Prior.Restarts},
			func(value string) *rand.Rand { return lab.Stream(FitSeed, "prior.Fit/"+by+"="+value, 0) })
	})
	if err != nil {
		return nil, nil, nil, err
	}
	b := v.(prior.ByFeature)
	pr := &Prior{Edges: emp.Edges, Empirical: emp.Mass, Outside: outside, Changed: f.Best.Changed, Unchanged: f.Best.Unchanged,
		Fitted: true, Loss: f.Loss, Induced: f.Best.Masses(emp.Edges, nil), Restarts: len(f.Runs)}
	for k, value := range b.Values {
		pr.ByFeature = append(pr.ByFeature, PriorGroup{Value: value, Pages: b.Pages[k],
			Changed: b.Fits[k].Best.Changed, Unchanged: b.Fits[k].Best.Unchanged, Loss: b.Fits[k].Loss})
	}
	return b.Estimator(estimate.PseudoMLE{Changed: f.Best.Changed, Unchanged: f.Best.Unchanged}), pr, nil, nil
}
