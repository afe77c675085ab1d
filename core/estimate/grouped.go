package estimate

// PerPage is an Estimator that knows more about a page than its history:
// For(i) is the estimator of page i of a population (Paths.Run's rates, or
// a dataset's pages), and Estimate answers for a page it knows nothing
// about. ForPage picks the one to use.
type PerPage interface {
	Estimator
	For(page int) Estimator
}

// ForPage returns e.For(page) when e is PerPage, else e.
func ForPage(e Estimator, page int) Estimator {
	if pp, ok := e.(PerPage); ok {
		return pp.For(page)
	}
	return e
}

// Grouped estimates each page with the estimator of its group: Grimes &
// Ford §6's priors tailored to "additional information ... available about
// the page when it is first seen, such as the pagerank, the page type
// (news, blog, static content), or topic cluster", where each group is a
// value of such a feature and its estimator a PseudoMLE whose two
// pseudo-intervals were fitted to that group's pages alone (package prior,
// FitByFeature). A page outside every group, and Estimate, use Pooled.
type Grouped struct {
	// Pooled is the estimator of a page without a group.
	Pooled Estimator
	// Groups holds each group's estimator.
	Groups []Estimator
	// Of gives page i's group, Of[i mod len(Of)] (so a population that
	// cycles through a dataset's pages keeps each page's group); a
	// negative entry means none.
	Of []int
}

// Estimate implements Estimator, for a page of no known group.
func (g Grouped) Estimate(h *History) Result { return g.Pooled.Estimate(h) }

// For implements PerPage.
func (g Grouped) For(page int) Estimator {
	if len(g.Of) == 0 || page < 0 {
		return g.Pooled
	}
	if k := g.Of[page%len(g.Of)]; k >= 0 && k < len(g.Groups) {
		return g.Groups[k]
	}
	return g.Pooled
}
