package schedulekind

import (
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/stat"
)

// Spec holds the schedule kind's own fields of a spec, "schedule" in its
// JSON (lab.Spec.Sections): each page gets a sync rate within a budget
// of syncs per day (or an adaptive crawler rule sets its visits), and
// continuous time is simulated against the pages' true change rates.
// Spec.Budget is the total syncs per day (0: one per page per day);
// Spec.Repeats defaults to schedule.DefaultRepeats; Spec.Cycles is not
// used.
type Spec struct {
	// Days is the measured horizon in days; 0 means schedule.DefaultDays,
	// long enough that on cho-garcia-molina-5 every policy's mean freshness
	// has a standard error below 0.001 with the default repeats (derived in
	// core/schedule's TestDefaultRunLength, measured in TestScheduleDoneWhen).
	Days float64 `json:"days"`
	// Warmup is the simulated time before measuring, days; nil means
	// schedule.DefaultWarmup, which lets an adaptive rule forget its initial
	// interval.
	Warmup *float64 `json:"warmup,omitempty"`
	// Rates says which change rates the rate-using policies plan with:
	// "oracle" (the true rates; such policies are labelled oracles) or
	// the id of an estimator of the estimate kind (naive,
	// cho-garcia-molina, mle), run on the policy's own observations of
	// each page during Observe days of uniform regular syncs at the same
	// budget.
	Rates string `json:"rates"`
	// Observe is the days of uniform observation an estimator gets; 0
	// means DefaultObserve.
	Observe float64 `json:"observe"`
}

// Result describes a schedule run's truth, "schedule" in a result's JSON
// (lab.Result.Sections).
type Result struct {
	// TrueRates are the pages' change rates the simulation draws from
	// (changes per day), when the dataset has at most
	// MaxAllocationPages.
	TrueRates []float64 `json:"trueRates,omitempty"`
	// RatesFrom says where the true rates came from: "truth" (the
	// dataset's Truth.Rates) or "estimated" (the dataset carries no rates,
	// so each page's rate is Cho & Garcia-Molina's estimate from its whole
	// per-cycle truth, as if crawled every cycle).
	RatesFrom string `json:"ratesFrom"`
	// Events is the expected number of simulated changes and syncs.
	Events float64 `json:"events"`
}

// PolicyResult is a schedule policy's own results, "schedule" in its
// JSON (lab.PolicyResult.Sections).
type PolicyResult struct {
	Type string `json:"type"` // schedule.TypeAllocation or schedule.TypeAdaptive
	// Rates is what the policy planned with: "oracle", an estimator id, or
	// "" for a policy that uses no rates.
	Rates   string `json:"rates,omitempty"`
	Spacing string `json:"spacing,omitempty"` // regular or poisson; adaptive rules have their own
	// Allocation is each page's sync rate (syncs per day) across repeats:
	// the plan's for an allocation policy, the measured rate for an
	// adaptive rule; nil beyond MaxAllocationPages pages.
	Allocation []stat.Summary `json:"allocation,omitempty"`
}

// NewSpec, NewResult and NewPolicyResult make the kind's members of a
// spec and results (lab.Sectioner).
func (kind) NewSpec() any         { return new(Spec) }
func (kind) NewResult() any       { return new(Result) }
func (kind) NewPolicyResult() any { return new(PolicyResult) }

// SpecOf returns the schedule fields of spec, or nil if it has none.
func SpecOf(spec lab.Spec) *Spec { return lab.SectionOf[Spec](spec.Sections, ID) }

// ResultOf returns what a schedule result says of its run as a whole
// (the pages' true rates), or nil if res is not a schedule result.
func ResultOf(res *lab.Result) *Result { return lab.SectionOf[Result](res.Sections, ID) }

// PolicyResultOf returns a schedule policy's own results (its allocation
// per page), or nil if p is not a schedule policy's.
func PolicyResultOf(p lab.PolicyResult) *PolicyResult {
	return lab.SectionOf[PolicyResult](p.Sections, ID)
}
