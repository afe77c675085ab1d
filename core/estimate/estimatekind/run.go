package estimatekind

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/refreshlab/refreshlab/core/cluster"
	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/estimate"
	"github.com/refreshlab/refreshlab/core/estimate/prior"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/stat"

	"github.com/refreshlab/refreshlab/core/internal/quote"
)

// Limits and defaults of an estimate spec.
const (
	DefaultEstimatePages  = 1000
	DefaultEstimateEpochs = 20
	DefaultEstimatePool   = 5
	DefaultEstimatePaths  = 50
	DefaultFraction       = 0.8
	MaxEstimatePages      = 200000
	MaxEstimateEpochs     = 1000
	MaxEstimatePaths      = 200
	// MaxEstimateWork bounds pages × epochs × repeats × estimators (×
	// sweep values) of an estimate spec.
	MaxEstimateWork = 2e8
	// DefaultPathSpread is Fig. 2's range of initial intervals, 700 hours.
	DefaultPathSpread = 700 * estimate.Hour
	// PriorHourlyDays is how far the empirical prior keeps §4.3's 1-hour
	// bins; beyond it, PriorLogBins bins spaced evenly in log Δ reach the
	// longest period (the paper does not say how far its grid goes; 720
	// hourly bins keep the fit and the posterior quick).
	PriorHourlyDays = 30
	PriorLogBins    = 60
)

// FitSeed seeds prior.Fit's random stream.
const FitSeed = 20080101

// Crawl modes.
const (
	CrawlSequential = "sequential"
	CrawlFixed      = "fixed"
)

// Estimator ids of the catalog.
const (
	EstNaive         = "naive"
	EstCGM           = "cho-garcia-molina"
	EstMLE           = "mle"
	EstPseudoMLE     = "pseudo-mle"
	EstPosteriorMean = "posterior-mean"
	EstPosteriorMode = "posterior-mode"
	EstWeighted      = "weighted"
	EstDOverV        = "d-over-v"
)

// Descriptors lists the estimators of the estimate kind. Their New is nil:
// they are not refresh policies; the kind's Run builds them (estimator).
func Descriptors() []refresh.Descriptor {
	const gf = "Grimes & Ford, Estimation of Web Page Change Rates (2008)"
	ds := []refresh.Descriptor{
		{ID: EstNaive, Name: "Naive X/T", Paper: gf + " §3.2",
			Summary: "Changed intervals over total time: counts at most one change per interval, so it is biased low and never exceeds one change per interval."},
		{ID: EstCGM, Name: "Cho & Garcia-Molina", Paper: gf + " eq. 1 (Cho & Garcia-Molina, TOIT 2003)",
			Summary: "Bias-reduced estimator for regular intervals: −ln((n − X + 0.5)/(n + 0.5)) per interval."},
		{ID: EstMLE, Name: "MLE", Paper: gf + " eq. 2, §3.3",
			Summary: "Maximum likelihood for irregular intervals, with the paper's substitutes when nothing or everything changed (1/Σt and 1/min t)."},
		{ID: EstPseudoMLE, Name: "MLE + pseudo-intervals", Paper: gf + " §4.4",
			Summary: "The MLE with one changed and one unchanged fake interval prepended, fitted so the prior they induce matches the dataset's rates: no edge cases.",
			Params: []param.Param{
				param.Param{Name: "changed", Label: "Changed pseudo-interval (days)", Type: param.Float, Auto: "fitted", Step: 0.01, Help: "Length of the changed pseudo-interval, days; left out, it is fitted to the dataset's change periods by annealed Metropolis-Hastings (§4.4)."}.Range(1e-3, 1e4),
				param.Param{Name: "unchanged", Label: "Unchanged pseudo-interval (days)", Type: param.Float, Auto: "fitted", Step: 0.01, Help: "Length of the unchanged pseudo-interval, days; left out, fitted with changed."}.Range(1e-3, 1e4),
			}},
		pseudoMLEFeatureDescriptor(gf),
		{ID: EstPosteriorMean, Name: "Posterior mean", Paper: gf + " §4.3",
			Summary: "Bayes estimate under the dataset's empirical prior of change periods, 1-hour bins."},
		{ID: EstPosteriorMode, Name: "Posterior mode", Paper: gf + " §4.3",
			Summary: "Most probable rate under the dataset's empirical prior, 1-hour bins."},
		{ID: EstWeighted, Name: "History-weighted", Paper: "Tan et al., WebDB 2007, §4.2 eq. 5",
			Summary: "Weighted share of changed intervals over the weighted mean interval: nad, sad, aad or gad weights.",
			Params: []param.Param{
				{Name: "scheme", Label: "History weights", Type: param.Enum, Default: cluster.WeightsNAD, Options: cluster.WeightSchemes, OptionLabels: cluster.WeightSchemeLabels, Help: "nad: all intervals alike; sad: the latest only; aad: arithmetically more weight to recent ones; gad: geometrically."},
				param.Param{Name: "window", Label: "Latest intervals kept", Type: param.Int, Default: 0.0, Step: 1, Help: "Keep only the latest intervals (0: all)."}.Range(0, 1000),
			}},
		{ID: EstDOverV, Name: "D/V", Paper: "Al-Qaaideh (MSc thesis, 2009) §3.3.2.2",
			Summary: "Changes over the last V versions, per day of those intervals.",
			Params: []param.Param{
				param.Param{Name: "v", Label: "Versions kept (V)", Type: param.Int, Default: 5.0, Step: 1, Help: "Versions kept (intervals); 0 uses the whole history."}.Range(0, 1000),
			}},
	}
	for i := range ds {
		ds[i].Kind = ID
		if ds[i].Params == nil {
			ds[i].Params = []param.Param{}
		}
	}
	return ds
}

// hasPrior reports whether an estimator id uses a prior, so can choose its
// own first interval and has no edge cases.
func hasPrior(id string) bool {
	return id == EstPseudoMLE || id == EstPseudoMLEFeature || id == EstPosteriorMean || id == EstPosteriorMode
}

// Resolve checks the kind's own fields of a spec and fills in their
// defaults. Its work is bounded in page-epochs, by its own limit
// (MaxEstimateWork), so it reports none to the lab's bound.
func (kind) Resolve(spec lab.Spec, d *dataset.Dataset) (lab.Spec, time.Duration, string, error) {
	var es Spec
	if SpecOf(spec) != nil {
		es = *SpecOf(spec)
	}
	if spec.Budget != 0 || spec.Cycles != 0 {
		return spec, 0, "", specErr("budget", "an estimate experiment has no budget or cycles: set estimate.epochs and estimate.crawl")
	}
	switch {
	case es.Every < 0 || es.Every > max(1, d.Truth.Cycles()):
		return spec, 0, "", specErr("estimate.every", "must be between 1 and the dataset's %d cycles, got %d", d.Truth.Cycles(), es.Every)
	case es.Every == 0 && d.Truth.Rates == nil && es.Rate == 0:
		es.Every = 2
	}
	if es.Every > 0 && es.Rate != 0 {
		return spec, 0, "", specErr("estimate.rate", "real histories (estimate.every) have the dataset's own rates: leave rate out")
	}
	switch {
	case es.Pages == 0:
		es.Pages = min(DefaultEstimatePages, len(d.Pages))
		if es.Every > 0 {
			es.Pages = len(d.Pages)
		}
	case es.Pages < 1 || es.Pages > MaxEstimatePages:
		return spec, 0, "", specErr("estimate.pages", "must be between 1 and %d, got %d", MaxEstimatePages, es.Pages)
	}
	if es.Every > 0 {
		es.Pages = min(es.Pages, len(d.Pages))
	}
	switch {
	case es.Epochs == 0:
		es.Epochs = DefaultEstimateEpochs
	case es.Epochs < 1 || es.Epochs > MaxEstimateEpochs:
		return spec, 0, "", specErr("estimate.epochs", "must be between 1 and %d, got %d", MaxEstimateEpochs, es.Epochs)
	}
	switch {
	case es.Pool == 0:
		es.Pool = min(DefaultEstimatePool, es.Epochs)
	case es.Pool < 1 || es.Pool > es.Epochs:
		return spec, 0, "", specErr("estimate.pool", "must be between 1 and the %d epochs, got %d", es.Epochs, es.Pool)
	}
	switch es.Crawl.Mode {
	case "":
		es.Crawl.Mode = CrawlSequential
	case CrawlSequential, CrawlFixed:
	default:
		return spec, 0, "", specErr("estimate.crawl.mode", "unknown mode %s (expected %q or %q)", quote.Q(es.Crawl.Mode), CrawlSequential, CrawlFixed)
	}
	switch {
	case es.Crawl.Initial == 0:
		es.Crawl.Initial = 1
	case !(es.Crawl.Initial >= estimate.MinInterval && es.Crawl.Initial <= 1e6):
		return spec, 0, "", specErr("estimate.crawl.initial", "must be a positive number of days up to 1e6, got %v", es.Crawl.Initial)
	}
	switch {
	case es.Crawl.Mode == CrawlFixed:
		es.Crawl.Fraction = 0
	case es.Crawl.Fraction == 0:
		es.Crawl.Fraction = DefaultFraction
	case !(es.Crawl.Fraction > 0 && es.Crawl.Fraction <= 100):
		return spec, 0, "", specErr("estimate.crawl.fraction", "must be in (0, 100], got %v", es.Crawl.Fraction)
	}
	if !(es.Rate >= 0 && es.Rate <= 1e6) {
		return spec, 0, "", specErr("estimate.rate", "must be between 0 and 1e6 changes per day, got %v", es.Rate)
	}
	switch {
	case es.Paths == 0:
		es.Paths = DefaultEstimatePaths
	case es.Paths < 0 || es.Paths > MaxEstimatePaths:
		return spec, 0, "", specErr("estimate.paths", "must be between 1 and %d, got %d", MaxEstimatePaths, es.Paths)
	}
	switch {
	case es.PathRate == 0 && es.Rate > 0:
		es.PathRate = es.Rate
	case es.PathRate == 0:
		es.PathRate = 1
	case !(es.PathRate > 0 && es.PathRate <= 1e6):
		return spec, 0, "", specErr("estimate.pathRate", "must be in (0, 1e6] changes per day, got %v", es.PathRate)
	}
	switch {
	case es.PathSpread == 0:
		es.PathSpread = DefaultPathSpread
	case !(es.PathSpread > 0 && es.PathSpread <= 1e6):
		return spec, 0, "", specErr("estimate.pathSpread", "must be in (0, 1e6] days, got %v", es.PathSpread)
	}
	if es.Prior.Steps < 0 || es.Prior.Steps > 100000 {
		return spec, 0, "", specErr("estimate.prior.steps", "must be between 1 and 100000, got %d", es.Prior.Steps)
	}
	if es.Prior.Restarts < 0 || es.Prior.Restarts > 100 {
		return spec, 0, "", specErr("estimate.prior.restarts", "must be between 1 and 100, got %d", es.Prior.Restarts)
	}
	if es.Prior.Steps == 0 {
		es.Prior.Steps = 1000
	}
	if es.Prior.Restarts == 0 {
		es.Prior.Restarts = 8
	}
	if es.Every > 0 {
		spec.Repeats = 1 // real histories hold no randomness
	}
	points := 1.0
	if spec.Sweep != nil {
		points += float64(len(spec.Sweep.Values))
	}
	if work := float64(es.Pages) * float64(es.Epochs) * float64(spec.Repeats) * float64(len(spec.Policies)) * points; work > MaxEstimateWork {
		return spec, 0, "", specErr("repeats", "too much work: %d pages × %d epochs × %d repeats × %d estimators × %.0f runs exceeds %.0g page-epochs; use fewer repeats",
			es.Pages, es.Epochs, spec.Repeats, len(spec.Policies), points, MaxEstimateWork)
	}
	spec.Sections = spec.Sections.With(ID, &es)
	return spec, 0, "", nil
}

// Run runs a resolved estimate spec, one estimator after another.
func (k kind) Run(ctx context.Context, spec lab.Spec, d *dataset.Dataset, progress func(int)) (res *lab.Result, err error) {
	es := *SpecOf(spec)
	res = &lab.Result{Spec: spec, Dataset: d.Info}
	e, err := newRun(ctx, spec, d)
	if err != nil {
		return nil, err
	}
	for i, ps := range spec.Policies {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		desc, _ := descriptor(ps.ID)
		pr, err := e.policy(i, desc)
		if err != nil {
			return nil, err
		}
		progress((i + 1) * spec.Repeats)
		if ps.Label != "" {
			pr.Label, pr.Name = ps.Label, pr.Name+" ("+ps.Label+")"
		}
		res.Policies = append(res.Policies, pr)
	}
	how := fmt.Sprintf("%s, %s crawl from %s", count(es.Pages, "page", "pages"), es.Crawl.Mode, DaysText(es.Crawl.Initial))
	if es.Crawl.Mode == CrawlSequential {
		how += fmt.Sprintf(", each next interval %g of the estimated period", es.Crawl.Fraction)
	}
	if es.Every > 0 {
		how = fmt.Sprintf("real histories of %s observed every %s", count(es.Pages, "page", "pages"), count(es.Every, d.Info.CycleUnit, d.Info.CycleUnit+"s"))
	}
	res.Work = fmt.Sprintf("%s × %s × %s of %s", count(len(spec.Policies), "estimator", "estimators"), count(spec.Repeats, "repeat", "repeats"),
		count(es.Epochs, "crawl", "crawls"), count(es.Pages, "page", "pages"))
	if spec.Sweep != nil {
		res.Work += fmt.Sprintf(" × %d settings", len(spec.Sweep.Values)+1)
	}
	res.About = fmt.Sprintf("MAD and edge share pooled over the first %d of %s, the mean estimate after the last; mean over %s, ± the half-width of the 95%% interval across repeats (none for a median that came out the same in every repeat). %s: %s, seed %d.",
		es.Pool, count(es.Epochs, "crawl", "crawls"), count(spec.Repeats, "repeat", "repeats"), d.Info.Name, how, spec.Seed)
	return res, nil
}

// DaysText writes a length in days for people, in hours when under two
// days.
func DaysText(d float64) string {
	if d < 2 {
		return fmt.Sprintf("%.3g hours", d*24)
	}
	return fmt.Sprintf("%.3g days", d)
}

// FinishSweep reruns, over every epoch, each estimator whose headline MAD
// varies along a sweep over estimate.crawl.initial at the value where it
// is smallest (the first such value), and records it as the policy's
// Best.
func (kind) FinishSweep(ctx context.Context, res *lab.Result, d *dataset.Dataset) error {
	if res.Sweep.Field != "estimate.crawl.initial" {
		return nil
	}
	e, err := newRun(ctx, res.Spec, d)
	if err != nil {
		return err
	}
	sw := res.Sweep
	for i := range res.Policies {
		pr := &res.Policies[i]
		if i >= len(sw.Policies) {
			continue
		}
		mad := sw.Policies[i].Metrics[MetricMAD]
		if len(mad) != len(sw.Values) {
			continue
		}
		at, flat := 0, true
		for k, v := range mad {
			if v.Mean != mad[0].Mean {
				flat = false
			}
			if v.Mean < mad[at].Mean {
				at = k
			}
		}
		if flat {
			continue
		}
		run := *e
		run.es.Crawl.Initial = sw.Values[at]
		run.es.Paths = 0
		desc, _ := descriptor(pr.ID)
		vals := make(param.Values, len(pr.Params))
		for k, v := range pr.Params {
			vals[k] = v
		}
		est, _, _, err := run.estimator(i, vals)
		if err != nil {
			return specErr(fmt.Sprintf("policies[%d]", i), "%s: %v", desc.ID, err)
		}
		run.inSweep = true // no paths
		r, err := run.runSimulated(desc.ID, est)
		if err != nil {
			return specErr("sweep.values", "%s at %v: %v", desc.ID, sw.Values[at], err)
		}
		PolicyResultOf(*pr).Best = &Best{Initial: sw.Values[at], MAD: r.headline, MADSeries: r.mad, Edge: r.edge}
		pr.SetFact(FactBestInitial, sw.Values[at])
	}
	return nil
}

// estimateRun is one estimate run's shared state.
type estimateRun struct {
	d    *dataset.Dataset
	spec lab.Spec
	es   Spec
	memo func(string, func() (any, error)) (any, error)
	// shared holds the results of estimators whose numbers do not depend
	// on the swept value, by estimator and spec, within one run and its
	// sweep (lab.RunEnv.Shared).
	shared map[string]any
	// inSweep marks a sweep's runs, which draw no paths. They simulate
	// every epoch, as the main run does: a page's coin flips follow those
	// of the pages before it in one random stream, so simulating fewer
	// epochs would give every later page other flips, and a sweep point
	// other numbers than the run at the same setting.
	inSweep bool
	// Simulation: the pages' true rates.
	rates []float64
	// Real histories: each page's observations and reference rate (NaN
	// where undefined).
	obs []dataset.Observation
	ref []float64
	// refAll is every page's reference rate, for the empirical prior.
	refAll []float64
}

// newRun prepares a run of a resolved spec on d: the simulated pages'
// rates, or the real histories.
func newRun(ctx context.Context, spec lab.Spec, d *dataset.Dataset) (*estimateRun, error) {
	env := lab.EnvOf(ctx)
	es := *SpecOf(spec)
	e := &estimateRun{d: d, spec: spec, es: es, memo: env.Memo, shared: env.Shared, inSweep: env.InSweep}
	if es.Every > 0 {
		if err := e.observe(); err != nil {
			return nil, err
		}
		return e, nil
	}
	e.rates = make([]float64, es.Pages)
	for i := range e.rates {
		if es.Rate > 0 {
			e.rates[i] = es.Rate
		} else {
			e.rates[i] = d.Truth.Rates[i%len(d.Truth.Rates)]
		}
	}
	return e, nil
}

// observe prepares real histories: every page observed every k-th cycle,
// and its reference rate.
//
// Our reading of "compare with the page's rate from the full truth": where
// the dataset knows each page's generating rate (Truth.Rates) that is the
// reference; otherwise it is the MLE of eq. 2 on the page's full-resolution
// history (every cycle observed, k = 1), the most the per-cycle truth can
// say about a Poisson rate: unlike changes/time it corrects for several
// changes falling in one cycle. Pages whose full history is itself an edge
// case (never or always changed) have no interior estimate, so no
// reference, and are left out (counted in Excluded).
func (e *estimateRun) observe() error {
	key := fmt.Sprintf("estimate.observe/%d", e.es.Every)
	v, err := e.memo(key, func() (any, error) {
		obs, err := dataset.Observe(e.d, e.es.Every)
		if err != nil {
			return nil, err
		}
		ref := make([]float64, len(obs))
		if e.d.Truth.Rates != nil {
			copy(ref, e.d.Truth.Rates)
		} else {
			full, err := dataset.Observe(e.d, 1)
			if err != nil {
				return nil, err
			}
			var h estimate.History
			for i, o := range full {
				h.Reset()
				for j, t := range o.Intervals {
					_ = h.Add(t, o.Changed[j])
				}
				r := estimate.MLE{}.Estimate(&h)
				ref[i] = r.Rate
				if r.Edge != estimate.None {
					ref[i] = math.NaN()
				}
			}
		}
		return observed{obs, ref}, nil
	})
	if err != nil {
		return specErr("estimate.every", "%v", err)
	}
	o := v.(observed)
	e.obs, e.ref, e.refAll = o.obs[:e.es.Pages], o.ref[:e.es.Pages], o.ref
	return nil
}

type observed struct {
	obs []dataset.Observation
	ref []float64
}

// empirical returns the empirical distribution of change periods of the
// dataset's pages (§4.3's p(Δ)): 1-hour bins to PriorHourlyDays, then
// PriorLogBins log-spaced bins to the longest period. As in §4.2, the prior
// comes from the whole sample (the dataset's true rates, or its pages'
// reference rates for real histories), of which the simulated pages are a
// part; it does not depend on the spec's rate, pages or seed.
func (e *estimateRun) empirical() (estimate.Dist, float64, error) {
	key := fmt.Sprintf("estimate.empirical/%d", e.es.Every)
	v, err := e.memo(key, func() (any, error) {
		src := e.d.Truth.Rates
		if e.es.Every > 0 {
			src = e.refAll
		}
		var periods []float64
		longest := 0.0
		for _, r := range src {
			if r > 0 && !math.IsNaN(r) {
				periods = append(periods, 1/r)
				longest = max(longest, 1/r)
			}
		}
		if len(periods) == 0 {
			return nil, errors.New("no page has a positive rate to build a prior from")
		}
		edges := estimate.HourlyEdges(PriorHourlyDays)
		if hi := edges[len(edges)-1]; longest >= hi {
			edges = append(edges, estimate.LogEdges(hi, min(longest*(1+1e-9), estimate.MaxInterval), PriorLogBins)[1:]...)
		}
		dist, outside, err := estimate.Histogram(edges, periods)
		if err != nil {
			return nil, err
		}
		return empiricalPrior{dist, float64(outside) / float64(len(periods))}, nil
	})
	if err != nil {
		return estimate.Dist{}, 0, err
	}
	p := v.(empiricalPrior)
	return p.dist, p.outside, nil
}

// inducedPrior is what a pair of pseudo-intervals makes of the empirical
// prior: its loss (§4.4) and the masses it induces on the prior's bins.
type inducedPrior struct {
	loss   float64
	masses []float64
}

type empiricalPrior struct {
	dist    estimate.Dist
	outside float64
}

// fit returns the pseudo-intervals fitted to the empirical prior (§4.4),
// remembered per dataset, empirical prior and fit options. Its random
// numbers come from a fixed stream (FitSeed), not the spec's seed: the fit
// belongs to the dataset, like the prior, and a seed slider should not
// refit it.
func (e *estimateRun) fit() (prior.Result, error) {
	emp, _, err := e.empirical()
	if err != nil {
		return prior.Result{}, err
	}
	key := fmt.Sprintf("estimate.fit/%d/%d/%d", e.es.Every, e.es.Prior.Steps, e.es.Prior.Restarts)
	v, err := e.memo(key, func() (any, error) {
		return prior.Fit(emp, prior.Options{Steps: e.es.Prior.Steps, Restarts: e.es.Prior.Restarts}, lab.Stream(FitSeed, "prior.Fit", 0))
	})
	if err != nil {
		return prior.Result{}, err
	}
	return v.(prior.Result), nil
}

// estimator builds policy i's estimator, and the prior it uses.
func (e *estimateRun) estimator(i int, vals param.Values) (estimate.Estimator, *Prior, []string, error) {
	id := e.spec.Policies[i].ID
	switch id {
	case EstNaive:
		return estimate.Naive{}, nil, nil, nil
	case EstCGM:
		return estimate.ChoGarciaMolina{}, nil, nil, nil
	case EstMLE:
		return estimate.MLE{}, nil, nil, nil
	case EstWeighted:
		s := map[string]estimate.Scheme{"nad": estimate.NAD, "sad": estimate.SAD, "aad": estimate.AAD, "gad": estimate.GAD}[vals.String("scheme", "nad")]
		return estimate.Weighted{Scheme: s, Window: vals.Int("window", 0)}, nil, nil, nil
	case EstDOverV:
		return estimate.DOverV{V: vals.Int("v", 5)}, nil, nil, nil
	}
	emp, outside, err := e.empirical()
	if err != nil {
		return nil, nil, nil, err
	}
	pr := &Prior{Edges: emp.Edges, Empirical: emp.Mass, Outside: outside}
	switch id {
	case EstPseudoMLEFeature:
		return e.featurePrior(vals)
	case EstPosteriorMean:
		est, err := estimate.NewPosteriorMean(emp)
		return est, pr, nil, err
	case EstPosteriorMode:
		est, err := estimate.NewPosteriorMode(emp)
		return est, pr, nil, err
	case EstPseudoMLE:
		// A length left out takes its fitted value (§4.4); both given
		// means no fit at all.
		var auto []string
		ind := prior.Induced{Changed: vals.Float("changed", 0), Unchanged: vals.Float("unchanged", 0)}
		if !vals.Has("changed") || !vals.Has("unchanged") {
			f, err := e.fit()
			if err != nil {
				return nil, nil, nil, err
			}
			for _, name := range []string{"changed", "unchanged"} {
				if !vals.Has(name) {
					auto = append(auto, name)
				}
			}
			if !vals.Has("changed") {
				ind.Changed = f.Best.Changed
				vals["changed"] = ind.Changed
			}
			if !vals.Has("unchanged") {
				ind.Unchanged = f.Best.Unchanged
				vals["unchanged"] = ind.Unchanged
			}
			pr.Fitted = len(auto) == 2
			pr.LossMin, pr.LossMax = f.LossMin, f.LossMax
			pr.ChangedMin, pr.ChangedMax = f.ChangedMin, f.ChangedMax
			pr.UnchangedMin, pr.UnchangedMax = f.UnchangedMin, f.UnchangedMax
			pr.Restarts = len(f.Runs)
		}
		// The loss and the induced masses depend on the empirical prior and
		// the two lengths alone, not on what a sweep varies: remembered.
		key := fmt.Sprintf("estimate.induced/%d/%x/%x", e.es.Every, math.Float64bits(ind.Changed), math.Float64bits(ind.Unchanged))
		v, err := e.memo(key, func() (any, error) {
			return inducedPrior{prior.Loss(emp, ind), ind.Masses(emp.Edges, nil)}, nil
		})
		if err != nil {
			return nil, nil, nil, err
		}
		ip := v.(inducedPrior)
		pr.Loss, pr.Induced = ip.loss, slices.Clone(ip.masses)
		pr.Changed, pr.Unchanged = ind.Changed, ind.Unchanged
		return estimate.PseudoMLE{Changed: ind.Changed, Unchanged: ind.Unchanged}, pr, auto, nil
	}
	return nil, nil, nil, fmt.Errorf("estimator %q has no builder", id)
}

// schedule is the crawl schedule of an estimator starting at initial days.
func (e *estimateRun) crawlSchedule(id string, initial float64) estimate.Schedule {
	s := estimate.Schedule{Initial: initial, Fraction: e.es.Crawl.Fraction}
	if e.es.Crawl.PriorStart && hasPrior(id) && s.Fraction > 0 {
		s.Initial = 0 // §5 step 1: the prior's own estimate sets the first interval
	}
	return s
}

// policy runs estimator i over every repeat.
func (e *estimateRun) policy(i int, desc refresh.Descriptor) (pr lab.PolicyResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("estimator %s failed: %v", desc.ID, r)
		}
	}()
	vals := make(param.Values, len(e.spec.Policies[i].Params))
	for k, v := range e.spec.Policies[i].Params {
		vals[k] = v
	}
	est, pri, auto, err := e.estimator(i, vals)
	if err != nil {
		return pr, specErr(fmt.Sprintf("policies[%d]", i), "%s: %v", desc.ID, err)
	}
	pr = lab.PolicyResult{ID: desc.ID, Name: desc.Name, Params: vals, Auto: auto}
	var r *outcome
	switch {
	case e.es.Every > 0:
		r, err = e.runObserved(est)
	case e.crawlSchedule(desc.ID, e.es.Crawl.Initial).Initial == 0:
		// The estimator picks its own first interval, so the spec's does
		// not matter: a sweep over it runs the estimator once, not at
		// every value.
		es := e.es
		es.Crawl.Initial = 0
		key, _ := json.Marshal(struct {
			ID      string
			Params  param.Values
			Est     Spec
			NoPaths bool
			Seed    uint64
			Repeats int
		}{desc.ID, vals, es, e.inSweep, e.spec.Seed, e.spec.Repeats})
		if c, ok := e.shared["estimate/"+string(key)].(*outcome); ok {
			cp := *c // a copy: the cached one stays as it was
			r = &cp
			break
		}
		if r, err = e.runSimulated(desc.ID, est); err == nil {
			cp := *r
			e.shared["estimate/"+string(key)] = &cp
		}
	default:
		r, err = e.runSimulated(desc.ID, est)
	}
	if err != nil {
		field := "estimate.crawl"
		if e.es.Every > 0 {
			field = "estimate.every"
		}
		return pr, specErr(field, "%s: %v", desc.ID, err)
	}
	r.Prior = pri
	pr.Sections = lab.Sections{ID: &r.PolicyResult}
	pr.Metrics = map[string]stat.Summary{MetricMAD: r.headline, MetricMADPeriod: r.periodHeadline, MetricEdgeShare: r.edgeShare}
	if r.pooled != nil {
		pr.Values = map[string][]float64{MetricMAD: r.pooled, MetricMADPeriod: r.pooledPeriod, MetricEdgeShare: r.pooledEdge}
	}
	pr.Metrics[MetricRateEstimate] = stat.Summarize(nil)
	pr.Series = map[string]stat.Series{MetricMAD: r.mad, MetricMADPeriod: r.madPeriod, MetricEdgeShare: r.edge, MetricRateEstimate: r.mean}
	if n := len(r.mean); n > 0 {
		pr.Metrics[MetricRateEstimate] = r.mean[n-1]
		pr.SetFact(FactMADLast, r.mad[n-1].Mean)
		pr.SetFact(FactEdgeFirst, r.edge[0].Mean)
	}
	if n := len(r.Expected); n > 0 {
		pr.SetFact(FactExpectedEstimate, r.Expected[n-1])
	}
	if pri != nil && pri.Induced != nil {
		pr.SetFact(FactPseudoChanged, pri.Changed)
		pr.SetFact(FactPseudoUnchanged, pri.Unchanged)
	}
	return pr, nil
}

// perEpoch collects one value per repeat at each epoch.
type perEpoch [][]float64

func newPerEpoch(epochs, reps int) perEpoch {
	p := make(perEpoch, epochs)
	for i := range p {
		p[i] = make([]float64, reps)
	}
	return p
}

func (p perEpoch) series() stat.Series { return p.summarize(stat.Summarize) }

// medians summarises values that are each a median over pages, which
// have no interval when every repeat gave the same (stat.SummarizeMedians).
func (p perEpoch) medians() stat.Series { return p.summarize(stat.SummarizeMedians) }

func (p perEpoch) summarize(f func([]float64) stat.Summary) stat.Series {
	s := make(stat.Series, len(p))
	for i, xs := range p {
		s[i] = f(xs)
	}
	return s
}

// runSimulated simulates the population over every repeat (§4.2): repeat
// r of estimator id draws from Stream(seed, id, r), so estimators do not
// share coin flips but a sweep over the initial interval does, and so do
// labelled copies of one estimator with other parameters (a paired
// comparison).
func (e *estimateRun) runSimulated(id string, est estimate.Estimator) (*outcome, error) {
	es, reps := e.es, e.spec.Repeats
	p := &estimate.Paths{Estimator: est, Schedule: e.crawlSchedule(id, es.Crawl.Initial), Epochs: es.Epochs, Pool: es.Pool}
	mad, madP, noc, all, edge, mean, iv := newPerEpoch(es.Epochs, reps), newPerEpoch(es.Epochs, reps), newPerEpoch(es.Epochs, reps),
		newPerEpoch(es.Epochs, reps), newPerEpoch(es.Epochs, reps), newPerEpoch(es.Epochs, reps), newPerEpoch(es.Epochs, reps)
	pooled, pooledEdge, pooledPeriod := make([]float64, reps), make([]float64, reps), make([]float64, reps)
	pcg := rand.NewPCG(0, 0)
	rng := rand.New(pcg)
	for r := range reps {
		pcg.Seed(lab.StreamState(e.spec.Seed, id, r))
		s, err := p.Run(e.rates, rng)
		if err != nil {
			return nil, err
		}
		sumEdge := 0.0
		for k := range es.Epochs {
			mad[k][r], madP[k][r], noc[k][r], all[k][r] = s.MAD[k], s.MADPeriod[k]/estimate.Hour, s.NoChange[k], s.AllChanged[k]
			edge[k][r] = s.NoChange[k] + s.AllChanged[k]
			mean[k][r], iv[k][r] = s.Mean[k], s.Interval[k]
			if k < es.Pool {
				sumEdge += edge[k][r]
			}
		}
		pooled[r], pooledEdge[r], pooledPeriod[r] = s.PooledMAD, sumEdge/float64(es.Pool), s.PooledMADPeriod/estimate.Hour
	}
	res := &outcome{
		PolicyResult: PolicyResult{NoChange: noc.shares(id, len(e.rates)), AllChanged: all.shares(id, len(e.rates)), Interval: iv.series(), Pages: len(e.rates), TrueRate: es.Rate},
		mad:          mad.medians(), madPeriod: madP.medians(), edge: edge.shares(id, len(e.rates)),
		edgeShare: shareSummary(id, pooledEdge, len(e.rates)*es.Pool), mean: mean.series(),
	}
	res.headline, res.periodHeadline = stat.SummarizeMedians(pooled), stat.SummarizeMedians(pooledPeriod)
	res.pooled, res.pooledEdge, res.pooledPeriod = pooled, pooledEdge, pooledPeriod
	if es.Rate > 0 && es.Crawl.Mode == CrawlFixed {
		res.Expected = expectedEstimate(id, es.Rate, es.Crawl.Initial, es.Epochs)
	}
	// Fig. 2: one page, initial intervals spread over (0, PathSpread].
	rng = lab.Stream(e.spec.Seed, id+"/paths", 0)
	var steps []estimate.Step
	for j := range es.Paths {
		if e.inSweep {
			break
		}
		init := es.PathSpread * float64(j+1) / float64(es.Paths)
		p.Schedule = e.crawlSchedule(id, init)
		var err error
		if steps, err = p.Page(es.PathRate, rng, steps); err != nil {
			return nil, err
		}
		res.Paths = append(res.Paths, Path{Initial: steps[0].Interval, Rate: es.PathRate, Steps: pathSteps(steps)})
	}
	return res, nil
}

func pathSteps(steps []estimate.Step) []Step {
	out := make([]Step, len(steps))
	for i, s := range steps {
		out[i] = Step{Interval: s.Interval, Changed: s.Changed, Rate: s.Rate, Edge: edgeName(s.Edge)}
	}
	return out
}

func edgeName(e estimate.Edge) string {
	switch e {
	case estimate.NoChange:
		return "noChange"
	case estimate.AllChanged:
		return "allChanged"
	}
	return ""
}

// runObserved estimates from real histories: each page's observed
// intervals in order, the estimate after each compared with the page's
// reference rate (see observe). Epoch k's statistics are over the pages
// observed at least k+1 times.
func (e *estimateRun) runObserved(est estimate.Estimator) (*outcome, error) {
	es := e.es
	epochs := 0
	for _, o := range e.obs {
		epochs = max(epochs, len(o.Intervals))
	}
	epochs = min(epochs, es.Epochs)
	if epochs == 0 {
		return nil, fmt.Errorf("observing every %d cycles of %d leaves no page crawled even once", es.Every, e.d.Truth.Cycles())
	}
	dev := make([][]float64, epochs)
	devP := make([][]float64, epochs)
	sum := make([]float64, epochs)
	sumT := make([]float64, epochs)
	noc, all := make([]float64, epochs), make([]float64, epochs)
	var pooledDev, pooledDevP []float64
	res := &outcome{}
	var h estimate.History
	for i, o := range e.obs {
		ref := e.ref[i]
		if math.IsNaN(ref) || len(o.Intervals) == 0 {
			res.Excluded++
			continue
		}
		res.Pages++
		h.Reset()
		est := estimate.ForPage(est, i)
		var steps []Step
		for k := range min(epochs, len(o.Intervals)) {
			t := o.Intervals[k]
			if err := h.Add(t, o.Changed[k]); err != nil {
				return nil, err
			}
			r := est.Estimate(&h)
			d := math.Abs(r.Rate - ref)
			dev[k] = append(dev[k], d)
			dp := math.Abs(r.Period()-1/ref) / estimate.Hour
			devP[k] = append(devP[k], dp)
			if k < es.Pool {
				pooledDev = append(pooledDev, d)
				pooledDevP = append(pooledDevP, dp)
			}
			sum[k] += r.Rate
			sumT[k] += t
			switch r.Edge {
			case estimate.NoChange:
				noc[k]++
			case estimate.AllChanged:
				all[k]++
			}
			if len(res.Paths) < es.Paths {
				steps = append(steps, Step{Interval: t, Changed: o.Changed[k], Rate: r.Rate, Edge: edgeName(r.Edge)})
			}
		}
		if len(res.Paths) < es.Paths {
			res.Paths = append(res.Paths, Path{Initial: o.Intervals[0], Rate: ref, Steps: steps})
		}
	}
	if res.Pages == 0 {
		return nil, errors.New("no page has both observations and a reference rate")
	}
	one := func(x float64) stat.Summary { return stat.Summarize([]float64{x}) }
	edgeSum := 0.0
	for k := range epochs {
		n := float64(len(dev[k]))
		res.mad = append(res.mad, one(stat.Median(dev[k])))
		res.madPeriod = append(res.madPeriod, one(stat.Median(devP[k])))
		res.NoChange = append(res.NoChange, one(noc[k]/n))
		res.AllChanged = append(res.AllChanged, one(all[k]/n))
		res.edge = append(res.edge, one((noc[k]+all[k])/n))
		res.mean = append(res.mean, one(sum[k]/n))
		res.Interval = append(res.Interval, one(sumT[k]/n))
		if k < es.Pool {
			edgeSum += (noc[k] + all[k]) / n
		}
	}
	res.edgeShare = one(edgeSum / float64(min(es.Pool, epochs)))
	res.headline, res.periodHeadline = one(stat.Median(pooledDev)), one(stat.Median(pooledDevP))
	return res, nil
}

// expectedEstimate returns the exact expectation of estimator id's estimate
// after each of epochs crawls at a fixed interval I of a page with rate λ,
// or nil where we have none. Each interval changes with probability
// q = 1 − e^{−λI}, independently, so X after n crawls is Binomial(n, q), and
// the estimators are functions of X:
//
//   - naive X/(nI): expectation q/I at every n (§3.2: biased, whatever n);
//   - Cho & Garcia-Molina, −ln((n − X + 0.5)/(n + 0.5))/I (eq. 1);
//   - MLE with regular intervals: eq. 2 solves to ln(n/(n − X))/I for
//     0 < X < n, with the substitutes 1/(nI) at X = 0 and 1/I at X = n.
func expectedEstimate(id string, rate, interval float64, epochs int) []float64 {
	var f func(n, x int) float64
	switch id {
	case EstNaive:
		f = func(n, x int) float64 { return float64(x) / (float64(n) * interval) }
	case EstCGM:
		f = func(n, x int) float64 {
			return -math.Log((float64(n-x)+0.5)/(float64(n)+0.5)) / interval
		}
	case EstMLE:
		f = func(n, x int) float64 {
			switch x {
			case 0:
				return 1 / (float64(n) * interval)
			case n:
				return 1 / interval
			}
			return math.Log(float64(n)/float64(n-x)) / interval
		}
	default:
		return nil
	}
	q := -math.Expm1(-rate * interval)
	out := make([]float64, epochs)
	for n := 1; n <= epochs; n++ {
		s := 0.0
		for x := 0; x <= n; x++ {
			s += binomPMF(n, x, q) * f(n, x)
		}
		out[n-1] = s
	}
	return out
}

// binomPMF is P(X = x) for X ~ Binomial(n, q), in log space.
func binomPMF(n, x int, q float64) float64 {
	switch {
	case q <= 0:
		if x == 0 {
			return 1
		}
		return 0
	case q >= 1:
		if x == n {
			return 1
		}
		return 0
	}
	ln, _ := math.Lgamma(float64(n + 1))
	lx, _ := math.Lgamma(float64(x + 1))
	lnx, _ := math.Lgamma(float64(n - x + 1))
	return math.Exp(ln - lx - lnx + float64(x)*math.Log(q) + float64(n-x)*math.Log1p(-q))
}

// Fields lists the kind's members a control or sweep may set (lab.Field).
func (kind) Fields() []lab.SpecField {
	return []lab.SpecField{
		{Param: param.Param{Name: "estimate.rate", Label: "True change rate (per day)", Type: param.Float, Help: "Every simulated page's true rate, changes per day; 0: the dataset's rates."}.Range(0, 1e6)},
		{Param: param.Param{Name: "estimate.pages", Label: "Simulated pages", Type: param.Int, Help: "Pages simulated per repeat."}.Range(1, MaxEstimatePages)},
		{Param: param.Param{Name: "estimate.epochs", Label: "Crawls per page", Type: param.Int, Help: "Crawls of each page."}.Range(1, MaxEstimateEpochs)},
		{Param: param.Param{Name: "estimate.pool", Label: "Crawls pooled in the error", Type: param.Int, Help: "First epochs the headline MAD pools."}.Range(1, MaxEstimateEpochs)},
		{Param: param.Param{Name: "estimate.every", Label: "Observe real histories every (cycles)", Type: param.Int, Help: "Observe real histories every this many cycles (0: simulate)."}.Range(0, math.MaxInt32)},
		{Param: param.Param{Name: "estimate.paths", Label: "Estimation paths", Type: param.Int, Help: "Single-page estimation paths to return (Fig. 2)."}.Range(1, MaxEstimatePaths)},
		{Param: param.Param{Name: "estimate.pathRate", Label: "True rate of the path's page (per day)", Type: param.Float, Help: "The true rate of the page whose paths are drawn, changes per day."}.Range(0, 1e6)},
		{Param: param.Param{Name: "estimate.crawl.initial", Label: "Initial crawl interval (days)", Type: param.Float, Help: "First crawl interval, days."}.Range(estimate.MinInterval, 1e6)},
		{Param: param.Param{Name: "estimate.crawl.fraction", Label: "Next interval, share of the estimated period", Type: param.Float, Help: "Next interval as a fraction of the estimated change period (sequential crawls)."}.Range(0, 100)},
		{Param: param.Param{Name: "estimate.crawl.mode", Label: "Crawl intervals", Type: param.Enum, Default: CrawlSequential, Options: []string{CrawlSequential, CrawlFixed},
			OptionLabels: []string{"Sequential (from each estimate)", "Fixed (every interval the first)"},
			Help:         "sequential: each next interval a fraction of the estimated period (§4.1); fixed: every interval the first."}},
	}
}
