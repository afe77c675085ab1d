package estimatekind

import (
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/stat"
)

// Spec holds the estimate kind's own fields of a spec, "estimate" in its
// JSON (lab.Spec.Sections; Grimes & Ford,
// "Estimation of Web Page Change Rates", 2008 draft): how many pages to simulate, for how many crawl epochs, on which
// crawl schedule, and what to return for charts. The shared fields of lab.Spec
// keep their meaning: dataset (whose pages' true rates, Truth.Rates, are the
// population, or whose per-cycle truth gives real histories), repeats, seed,
// policies (estimator ids) and sweep ("estimate.crawl.initial", "estimate.rate",
// … see lab.Lab.With).
type Spec struct {
	// Pages is the number of pages simulated per repeat, their rates the
	// first Pages of the dataset's true rates (independent draws of its
	// distribution, so a random sample of it), cycling if there are fewer;
	// 0 means min(1000, the dataset's pages), §4.2's 1000.
	Pages int `json:"pages"`
	// Epochs is the number of crawls per page; 0 means 20.
	Epochs int `json:"epochs"`
	// Crawl is the crawl schedule of every page.
	Crawl Crawl `json:"crawl"`
	// Pool is how many first epochs the headline MAD pools, Fig. 4's
	// "initial 5 crawl epochs"; 0 means min(5, Epochs).
	Pool int `json:"pool"`
	// Rate, when positive, gives every simulated page this true rate
	// (changes per day) instead of the dataset's: one page's estimator
	// under repeated trials, as §3.2 and Fig. 2 use.
	Rate float64 `json:"rate,omitempty"`
	// Paths is how many single-page estimation paths to return for Fig. 2
	// (0 means 50, at most MaxEstimatePaths); PathRate is
	// their page's true rate (0 means Rate if set, else 1 per day: Fig.
	// 2's λ = 1/24 per hour);
	// their initial intervals are spread evenly over (0, PathSpread] days
	// (0 means 700 hours, Fig. 2's range).
	Paths      int     `json:"paths"`
	PathRate   float64 `json:"pathRate"`
	PathSpread float64 `json:"pathSpread"`
	// Every, when positive, estimates from real histories instead of
	// simulating: each page of the dataset observed every Every-th cycle
	// (dataset.Observe), compared with its rate from the full truth (see
	// runObserved). A dataset without true rates needs it;
	// 0 on such a dataset means 2.
	Every int `json:"every,omitempty"`
	// Prior tunes the fit of the two pseudo-intervals (pseudo-mle with
	// "auto" lengths).
	Prior PriorOptions `json:"prior"`
}

// Crawl is the crawl schedule of Grimes & Ford §4.1.
type Crawl struct {
	// Mode is "sequential" (the default: after each crawl the next interval
	// is Fraction times the current estimate of the change period) or
	// "fixed" (every interval is Initial).
	Mode string `json:"mode"`
	// Initial is the first interval in days; 0 means 1 day.
	Initial float64 `json:"initial"`
	// Fraction of the estimated period for the next interval; 0 means 0.8,
	// §4.1's "80% of the estimate".
	Fraction float64 `json:"fraction"`
	// PriorStart lets estimators with a prior (pseudo-mle, posterior-mean,
	// posterior-mode) choose the first interval themselves, Fraction times
	// the period their prior alone estimates (§5 step 1), instead of
	// Initial; a sweep over estimate.crawl.initial then leaves them flat.
	PriorStart bool `json:"priorStart,omitempty"`
}

// PriorOptions tune prior.Fit; 0 means its defaults.
type PriorOptions struct {
	Steps    int `json:"steps"`
	Restarts int `json:"restarts"`
}

// PolicyResult is what an estimate run adds to a lab.PolicyResult,
// "estimate" in its JSON (lab.PolicyResult.Sections).
// Per-epoch series are summarised across repeats (index e: the estimate
// after e+1 crawls); rates are in changes per day.
type PolicyResult struct {
	// NoChange and AllChanged are the shares of pages in that edge case
	// (Fig. 2's blue and red points).
	NoChange   stat.Series `json:"noChange"`
	AllChanged stat.Series `json:"allChanged"`
	// Interval is the mean crawl interval in days.
	Interval stat.Series `json:"interval"`
	// Expected is the exact expected estimate at each epoch, where it is
	// known: every page with one rate (spec Rate) crawled at a fixed
	// interval, for naive, cho-garcia-molina and mle (see expectedEstimate).
	Expected []float64 `json:"expected,omitempty"`
	// TrueRate is the rate every page has, when the spec sets one.
	TrueRate float64 `json:"trueRate,omitempty"`
	// Pages is how many pages each epoch compared (real histories: the
	// pages observed at least once and whose reference rate is defined);
	// Excluded how many were left out for lack of a reference.
	Pages    int `json:"pages"`
	Excluded int `json:"excluded,omitempty"`
	// Paths are single-page estimation paths for Fig. 2.
	Paths []Path `json:"paths,omitempty"`
	// Prior is the fitted prior, for estimators that use one.
	Prior *Prior `json:"prior,omitempty"`
	// Best is the run at the first interval with the lowest headline MAD
	// of a sweep over estimate.crawl.initial, for estimators whose MAD depends on
	// it (Fig. 7's "best uniform initial interval").
	Best *Best `json:"best,omitempty"`
}

// Best is an estimator run at the best first interval of a sweep.
type Best struct {
	Initial   float64      `json:"initial"` // days
	MAD       stat.Summary `json:"mad"`     // headline, at this start
	MADSeries stat.Series  `json:"madSeries"`
	Edge      stat.Series  `json:"edge"`
}

// Path is one page's estimation path: its first interval, its true
// rate and one step per epoch.
type Path struct {
	Initial float64 `json:"initial"`
	Rate    float64 `json:"rate"`
	Steps   []Step  `json:"steps"`
}

// Step is one epoch of a path: the interval crawled (days), whether
// the page had changed, the estimate and its edge case ("", "noChange",
// "allChanged").
type Step struct {
	Interval float64 `json:"t"`
	Changed  bool    `json:"z"`
	Rate     float64 `json:"rate"`
	Edge     string  `json:"edge,omitempty"`
}

// Prior is the prior an estimator used: the empirical distribution
// of change periods (§4.3's p(Δ)), and for pseudo-mle the two fitted
// pseudo-intervals, the prior they induce on the same bins (Fig. 6) and the
// spread of the fit across restarts (§4.4).
type Prior struct {
	Edges     []float64 `json:"edges"` // days
	Empirical []float64 `json:"empirical"`
	Outside   float64   `json:"outside"` // empirical share beyond the bins
	Induced   []float64 `json:"induced,omitempty"`
	Changed   float64   `json:"changed,omitempty"`   // days
	Unchanged float64   `json:"unchanged,omitempty"` // days
	Fitted    bool      `json:"fitted,omitempty"`
	Loss      float64   `json:"loss,omitempty"`
	// The restarts' range of final losses and lengths.
	LossMin      float64 `json:"lossMin,omitempty"`
	LossMax      float64 `json:"lossMax,omitempty"`
	ChangedMin   float64 `json:"changedMin,omitempty"`
	ChangedMax   float64 `json:"changedMax,omitempty"`
	UnchangedMin float64 `json:"unchangedMin,omitempty"`
	UnchangedMax float64 `json:"unchangedMax,omitempty"`
	Restarts     int     `json:"restarts,omitempty"`
	// ByFeature holds pseudo-mle-feature's prior per feature value.
	ByFeature []PriorGroup `json:"byFeature,omitempty"`
}

// PriorGroup is the prior of one feature value: its pages and its
// two fitted pseudo-intervals (days), with the fit's loss.
type PriorGroup struct {
	Value     string  `json:"value"`
	Pages     int     `json:"pages"`
	Changed   float64 `json:"changed"`
	Unchanged float64 `json:"unchanged"`
	Loss      float64 `json:"loss"`
}

// NewSpec, NewResult and NewPolicyResult make the kind's members of a
// spec and a policy's result; an estimate result has none of its own as a
// whole (lab.Sectioner).
func (kind) NewSpec() any         { return new(Spec) }
func (kind) NewResult() any       { return nil }
func (kind) NewPolicyResult() any { return new(PolicyResult) }

// SpecOf returns the estimate fields of spec, or nil if it has none.
func SpecOf(spec lab.Spec) *Spec { return lab.SectionOf[Spec](spec.Sections, ID) }

// PolicyResultOf returns an estimator's own results (its paths, prior and
// per-epoch series), or nil if p is not an estimator's.
func PolicyResultOf(p lab.PolicyResult) *PolicyResult {
	return lab.SectionOf[PolicyResult](p.Sections, ID)
}
