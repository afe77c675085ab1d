package schedule

import (
	"github.com/refreshlab/refreshlab/core/param"
)

// Types of schedule a Descriptor builds: Type tells an allocation policy
// from an adaptive rule, apart from the lab's experiment kind.
const (
	TypeAllocation = "allocation" // a Policy: rates and a budget → a Plan
	TypeAdaptive   = "adaptive"   // a Rule: reacts to each sync's outcome
)

// Descriptor names a schedule, documents it and builds it from parameter
// values, for the lab's catalog (GET /api/policies).
type Descriptor struct {
	ID string `json:"id"`
	// LabID is the schedule's id in the lab's schedule experiments (the
	// names its lessons and specs use); "" keeps it out of them.
	LabID   string        `json:"labId,omitempty"`
	Name    string        `json:"name"`
	Paper   string        `json:"paper"`
	Summary string        `json:"summary"`
	Type    string        `json:"type"` // TypeAllocation or TypeAdaptive
	Params  []param.Param `json:"params"`
	// UsesRates says the policy plans from change rates, which the caller
	// supplies: an estimator's output, or the truth for an oracle run.
	UsesRates bool `json:"usesRates"`
	// UsesWeights says the policy plans with the request rates μ_i.
	UsesWeights bool `json:"usesWeights"`
	// Presets are named parameter sets: the crawlers' shipped defaults
	// and variants worth comparing.
	Presets []Preset `json:"presets,omitempty"`
	// NewPolicy builds an allocation policy (TypeAllocation) from checked
	// values (param.Check); missing values take the declared defaults.
	NewPolicy func(param.Values) (Policy, error) `json:"-"`
	// NewRule builds an adaptive rule (TypeAdaptive) likewise.
	NewRule func(param.Values) (Rule, error) `json:"-"`
}

// Preset is a named set of parameter values.
type Preset struct {
	ID     string       `json:"id"`
	Name   string       `json:"name"`
	Values param.Values `json:"values"`
}

// spacingParam lets uniform and proportional sync regularly or by Poisson
// process, to show what the spacing alone costs.
var spacingParam = param.Param{
	Name: "spacing", Label: "Spacing of syncs", Type: param.Enum, Default: "regular", Options: []string{"regular", "poisson"},
	OptionLabels: []string{"Even", "Poisson (random)"},
	Help:         "How each page's syncs are spread: evenly (Cho & Garcia-Molina) or as a Poisson process (Azar et al.; Kolobov et al.). At the same rate, even spacing keeps copies fresher.",
}

func spacingOf(v param.Values) (Spacing, error) { return ParseSpacing(v.String("spacing", "regular")) }

// Descriptors lists every schedule: the allocation policies first, then
// the adaptive rules.
func Descriptors() []Descriptor {
	return []Descriptor{
		{
			ID: "cgm-uniform", LabID: "uniform", Name: "Uniform", Type: TypeAllocation,
			Paper:   "Cho & Garcia-Molina, SIGMOD 2000 / TODS 2003 (uniform policy)",
			Summary: "Every page gets the same share of the budget, B/N syncs per day, whatever its change rate.",
			Params:  []param.Param{spacingParam},
			NewPolicy: func(v param.Values) (Policy, error) {
				s, err := spacingOf(v)
				return Uniform{Spacing: s}, err
			},
		},
		{
			ID: "cgm-proportional", LabID: "proportional", Name: "Proportional", Type: TypeAllocation, UsesRates: true,
			Paper:   "Cho & Garcia-Molina, SIGMOD 2000 / TODS 2003 (proportional policy)",
			Summary: "Each page is synced in proportion to its change rate. It sounds right and loses to uniform on freshness and on age.",
			Params:  []param.Param{spacingParam},
			NewPolicy: func(v param.Values) (Policy, error) {
				s, err := spacingOf(v)
				return Proportional{Spacing: s}, err
			},
		},
		{
			ID: "cgm-optimal-freshness", LabID: "cho-optimal-freshness", Name: "Optimal for freshness", Type: TypeAllocation, UsesRates: true,
			Paper:     "Cho & Garcia-Molina, SIGMOD 2000 / TODS 2003 (optimal allocation, Lagrange condition dF/df = μ)",
			Summary:   "Maximises mean freshness: equal marginal freshness for every synced page; pages that change too often (1/λ ≤ μ) are given up.",
			Params:    []param.Param{},
			NewPolicy: func(param.Values) (Policy, error) { return ChoFreshness{}, nil },
		},
		{
			ID: "cgm-optimal-age", LabID: "cho-optimal-age", Name: "Optimal for age", Type: TypeAllocation, UsesRates: true,
			Paper:     "Cho & Garcia-Molina, TODS 2003 (age metric); Lagrange condition derived here",
			Summary:   "Minimises mean age: equal marginal age for every page; every changing page is synced, the fastest ones at a capped rate.",
			Params:    []param.Param{},
			NewPolicy: func(param.Values) (Policy, error) { return ChoAge{}, nil },
		},
		{
			ID: "olston-pandey", LabID: "olston-pandey", Name: "Utility threshold", Type: TypeAllocation, UsesRates: true,
			Paper:     "Olston & Pandey, WWW 2008 (utility U(t) = 1/λ − (t + 1/λ)e^{−λt})",
			Summary:   "Refreshes a page when the utility of refreshing it reaches one threshold for all pages, set so the budget is spent: the same schedule as Cho & Garcia-Molina's optimum, as an easy rule.",
			Params:    []param.Param{},
			NewPolicy: func(param.Values) (Policy, error) { return OlstonPandey{}, nil },
		},
		{
			ID: "azar-weighted", LabID: "azar", Name: "Request-weighted freshness", Type: TypeAllocation, UsesRates: true, UsesWeights: true,
			Paper:     "Azar, Horvitz, Lubetzky, Peres & Shahaf, PNAS 2018",
			Summary:   "Poisson crawls that maximise the share of requests finding a fresh copy: ρ = max(0, √(μΔ/λ) − Δ); rarely requested, fast-changing pages get nothing.",
			Params:    []param.Param{},
			NewPolicy: func(param.Values) (Policy, error) { return Azar{}, nil },
		},
		{
			ID: "lambdacrawl", LabID: "lambda-crawl", Name: "LambdaCrawl", Type: TypeAllocation, UsesRates: true, UsesWeights: true,
			Paper:     "Kolobov, Peres, Lu & Horvitz, NeurIPS 2019 (harmonic staleness)",
			Summary:   "Poisson crawls that minimise request-weighted harmonic staleness: ρ = (−Δ + √(Δ² + 4μΔ/λ))/2, positive for every page, so none starves.",
			Params:    []param.Param{},
			NewPolicy: func(param.Values) (Policy, error) { return LambdaCrawl{}, nil },
		},
		{
			ID: "lambdacrawl-approx", LabID: "lambda-crawl-approx", Name: "LambdaCrawlApprox", Type: TypeAllocation, UsesWeights: true,
			Paper:     "Kolobov, Peres, Lu & Horvitz, NeurIPS 2019",
			Summary:   "Crawl rates proportional to request rates, ρ ∝ μ: LambdaCrawl's limit when pages change faster than they are crawled, needing no change rates.",
			Params:    []param.Param{},
			NewPolicy: func(param.Values) (Policy, error) { return LambdaCrawlApprox{}, nil },
		},
		nutchDescriptor(),
		heritrixDescriptor(),
		stormDescriptor(),
	}
}

func interval(name, label, help string, def, lo, hi float64) param.Param {
	return param.Param{Name: name, Label: label, Type: param.Float, Default: def, Help: help}.Range(lo, hi)
}

func nutchDescriptor() Descriptor {
	d := NutchDefault
	return Descriptor{
		ID: "nutch-adaptive", LabID: "nutch", Name: "Apache Nutch AdaptiveFetchSchedule", Type: TypeAdaptive,
		Paper:   "Apache Nutch 1.x, org.apache.nutch.crawl.AdaptiveFetchSchedule with CrawlDbReducer's forced re-fetch and Generator's pull-back; defaults from nutch-default.xml",
		Summary: "Shrinks a page's interval by DEC when a visit finds a change and stretches it by INC when not; SYNC_DELTA also pulls the next visit earlier after a quiet spell; past 90 days the crawler forces a re-fetch.",
		Params: []param.Param{
			param.Param{Name: "incRate", Label: "Growth after no change", Type: param.Float, Default: d.IncRate, Step: 0.05, Help: "db.fetch.schedule.adaptive.inc_rate: the interval grows by this share after a visit that finds no change."}.Range(0, 10),
			param.Param{Name: "decRate", Label: "Shrink after a change", Type: param.Float, Default: d.DecRate, Step: 0.05, Help: "db.fetch.schedule.adaptive.dec_rate: the interval shrinks by this share after a visit that finds a change."}.Range(0, 0.99),
			interval("minInterval", "Shortest interval (days)", "min_interval in days (Nutch: 60 s).", d.Min, 1e-6, 365),
			interval("maxInterval", "Longest interval (days)", "max_interval in days (Nutch: 365 days).", d.Max, 1e-3, 3650),
			interval("initialInterval", "First interval (days)", "db.fetch.interval.default in days: the interval after the first fetch (Nutch: 30 days).", d.Initial, 1e-3, 3650),
			{Name: "syncDelta", Label: "Pull visits earlier after quiet spells", Type: param.Bool, Default: d.SyncDelta, Help: "db.fetch.schedule.adaptive.sync_delta: after a visit that finds no change, schedule the next one earlier by a share of the time since the last change seen."},
			param.Param{Name: "syncDeltaRate", Label: "Share pulled earlier", Type: param.Float, Default: d.SyncDeltaRate, Step: 0.05, Help: "db.fetch.schedule.adaptive.sync_delta_rate: that share."}.Range(0, 1),
			interval("maxFetchInterval", "Forced re-fetch after (days)", "db.fetch.interval.max in days (Nutch: 90 days): a visit that leaves the interval above it forces a re-fetch (the interval cut to 0.9 of it, the next visit comparing nothing), and a fetch list pulls any next visit more than this far ahead back to its own time.", d.MaxFetch, 1e-3, 3650),
		},
		Presets: []Preset{
			{ID: "nutch-default", Name: "nutch-default.xml", Values: nutchValues(NutchDefault)},
			{ID: "nutch-multiplicative", Name: "nutch-default.xml without SYNC_DELTA (the pure multiplicative rule)", Values: nutchValues(func() Nutch { r := NutchDefault; r.SyncDelta = false; return r }())},
			{ID: "nutch-code-fallbacks", Name: "AdaptiveFetchSchedule's own fallbacks (inc 0.2, sync delta rate 0.2)", Values: nutchValues(func() Nutch { r := NutchDefault; r.IncRate, r.SyncDeltaRate = 0.2, 0.2; return r }())},
		},
		NewRule: func(v param.Values) (Rule, error) {
			r := Nutch{
				IncRate: v.Float("incRate", d.IncRate), DecRate: v.Float("decRate", d.DecRate),
				Min: v.Float("minInterval", d.Min), Max: v.Float("maxInterval", d.Max), Initial: v.Float("initialInterval", d.Initial),
				SyncDelta: v.Bool("syncDelta", d.SyncDelta), SyncDeltaRate: v.Float("syncDeltaRate", d.SyncDeltaRate),
				MaxFetch: v.Float("maxFetchInterval", d.MaxFetch),
			}
			return r, checkRule(r)
		},
	}
}

func nutchValues(r Nutch) param.Values {
	return param.Values{
		"incRate": r.IncRate, "decRate": r.DecRate, "minInterval": r.Min, "maxInterval": r.Max,
		"initialInterval": r.Initial, "syncDelta": r.SyncDelta, "syncDeltaRate": r.SyncDeltaRate,
		"maxFetchInterval": r.MaxFetch,
	}
}

func heritrixDescriptor() Descriptor {
	d := HeritrixDefault
	return Descriptor{
		ID: "heritrix-wait", LabID: "heritrix", Name: "Heritrix 1.x WaitEvaluator", Type: TypeAdaptive,
		Paper:   "Heritrix 1.x adaptive revisiting, org.archive.crawler.postprocessor.WaitEvaluator (defaults)",
		Summary: "Divides a page's wait by 1.5 when a visit finds a change and multiplies it by 1.5 when not, between 1 hour and 4 weeks.",
		Params: []param.Param{
			param.Param{Name: "changedFactor", Label: "Wait divided after a change", Type: param.Float, Default: d.ChangedFactor, Step: 0.1, Help: "changed-factor: the wait is divided by this after a visit that finds a change."}.Range(1, 10),
			param.Param{Name: "unchangedFactor", Label: "Wait multiplied after no change", Type: param.Float, Default: d.UnchangedFactor, Step: 0.1, Help: "unchanged-factor: the wait is multiplied by this after a visit that finds none."}.Range(1, 10),
			interval("minWait", "Shortest wait (days)", "min-wait-interval in days (Heritrix: 1 hour).", d.Min, 1e-6, 365),
			interval("maxWait", "Longest wait (days)", "max-wait-interval in days (Heritrix: 4 weeks).", d.Max, 1e-3, 3650),
			interval("initialWait", "First wait (days)", "initial-wait-interval in days (Heritrix: 1 day).", d.Initial, 1e-3, 3650),
		},
		Presets: []Preset{{ID: "heritrix-default", Name: "WaitEvaluator defaults", Values: param.Values{
			"changedFactor": d.ChangedFactor, "unchangedFactor": d.UnchangedFactor, "minWait": d.Min, "maxWait": d.Max, "initialWait": d.Initial,
		}}},
		NewRule: func(v param.Values) (Rule, error) {
			r := Heritrix{
				ChangedFactor: v.Float("changedFactor", d.ChangedFactor), UnchangedFactor: v.Float("unchangedFactor", d.UnchangedFactor),
				Min: v.Float("minWait", d.Min), Max: v.Float("maxWait", d.Max), Initial: v.Float("initialWait", d.Initial),
			}
			return r, checkRule(r)
		},
	}
}

func stormDescriptor() Descriptor {
	d := StormCrawlerDefault
	return Descriptor{
		ID: "stormcrawler-adaptive", LabID: "stormcrawler", Name: "StormCrawler AdaptiveScheduler", Type: TypeAdaptive,
		Paper:   "StormCrawler, com.digitalpebble.stormcrawler.persistence.AdaptiveScheduler (defaults)",
		Summary: "After a change the interval moves halfway to the minimum; after no change it grows by half, up to 14 days.",
		Params: []param.Param{
			param.Param{Name: "incRate", Label: "Growth after no change", Type: param.Float, Default: d.IncRate, Step: 0.05, Help: "scheduler.adaptive.fetchInterval.rate.incr: the interval grows by this share after a visit that finds no change."}.Range(0, 10),
			param.Param{Name: "decRate", Label: "Move towards the shortest after a change", Type: param.Float, Default: d.DecRate, Step: 0.05, Help: "scheduler.adaptive.fetchInterval.rate.decr: after a change the interval moves this share of the way to the minimum."}.Range(0.01, 0.99),
			interval("minInterval", "Shortest interval (days)", "scheduler.adaptive.fetchInterval.min in days (StormCrawler: 60 minutes).", d.Min, 0, 365),
			interval("maxInterval", "Longest interval (days)", "scheduler.adaptive.fetchInterval.max in days (StormCrawler: 14 days).", d.Max, 1e-3, 3650),
			interval("initialInterval", "First interval (days)", "fetchInterval.default in days, DefaultScheduler's interval for the first fetch (StormCrawler: 1 day).", d.Initial, 1e-3, 3650),
		},
		Presets: []Preset{{ID: "stormcrawler-default", Name: "AdaptiveScheduler defaults", Values: param.Values{
			"incRate": d.IncRate, "decRate": d.DecRate, "minInterval": d.Min, "maxInterval": d.Max, "initialInterval": d.Initial,
		}}},
		NewRule: func(v param.Values) (Rule, error) {
			r := StormCrawler{
				IncRate: v.Float("incRate", d.IncRate), DecRate: v.Float("decRate", d.DecRate),
				Min: v.Float("minInterval", d.Min), Max: v.Float("maxInterval", d.Max), Initial: v.Float("initialInterval", d.Initial),
			}
			return r, checkRule(r)
		},
	}
}
