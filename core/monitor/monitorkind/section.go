package monitorkind

import "github.com/refreshlab/refreshlab/core/lab"

// ID is the monitor kind's id: continuous
// queries served by monitoring tasks allocated over a page's update
// instants (Pandey, Ramamritham & Chakrabarti, WWW 2003), measured by the
// returned information ratio, RIR.
const ID = "monitor"

// Spec holds the monitor kind's own fields of a spec, "monitor" in its
// JSON (lab.Spec.Sections). lab.Spec.Budget is C, the
// monitoring tasks of an epoch (0: one per page); lab.Spec.Cycles is not used.
// On a dataset whose update probabilities the lab knows (pandey-cam, from
// its generator) the policies plan with them unless a tracking phase is
// asked for; on any other dataset, such as an uploaded change-event log,
// the log is cut into epochs of time slots (Slot, Slots, Phase), the first
// Tracking epochs estimate each page's update probability per slot, and
// the next Epochs are monitored.
type Spec struct {
	// Tracking is the epochs of the tracking phase, every instant
	// monitored (§2). 0 on a dataset with known probabilities; on a log,
	// 0 means a third of its whole epochs.
	Tracking int `json:"tracking"`
	// Epochs is the monitored epochs: 0 means 1 with known probabilities,
	// and the log's epochs after the tracking phase on a log.
	Epochs int `json:"epochs"`
	// Reallocate re-estimates and re-allocates every Reallocate epochs
	// (§5.5); 0 keeps the first plan. On a log, 0 means every epoch.
	Reallocate int `json:"reallocate"`
	// Window is how many latest observations of an instant (of a page,
	// with Reestimate "page") its estimate keeps (0: all; at most 64).
	Window int `json:"window"`
	// ChangeTimes says a monitor learns whether the page changed at its
	// task's own instant, not only since its previous monitoring.
	ChangeTimes bool `json:"changeTimes"`
	// Reestimate is how re-allocation reads §5.5's rule: "instant" (or
	// ""), each monitored instant's ρ from its own observations, or
	// "page", each page's rate from its latest observations at any of its
	// instants, spread over them in the first plan's profile.
	Reestimate string `json:"reestimate,omitempty"`
	// Scheduler is "" (every task runs at its instant) or a scheduler id
	// of core/monitor (list, alpha-point), with Monitors processes that
	// fetch Capacity documents of the mean size an epoch between them
	// (0: Monitors 1, Capacity the budget).
	Scheduler string  `json:"scheduler,omitempty"`
	Monitors  int     `json:"monitors,omitempty"`
	Capacity  float64 `json:"capacity,omitempty"`
	// Slot is a log's time slot in seconds, one update instant (0: an
	// hour); Slots the slots of an epoch (0: 24, a day of hours); Phase
	// where the log's first instant falls in its epoch, in seconds after
	// the epoch's start (see monitor.EventOptions).
	Slot  float64 `json:"slot,omitempty"`
	Slots int     `json:"slots,omitempty"`
	Phase float64 `json:"phase,omitempty"`
	// RateSkew, UpdateSkew, WeightSkew and Profile redraw a generated
	// dataset (pandey-cam) with one of its generator's parameters changed
	// (Pandey et al. §5.2–5.4 vary them): θ, the Zipf parameter of the
	// pages' change rates; the Zipf parameter of the update probabilities;
	// that of the page weights; and how a page's changes spread over its
	// instants ("humps" or "uniform"). nil or "" keeps the bundled draw's.
	RateSkew   *float64 `json:"rateSkew,omitempty"`
	UpdateSkew *float64 `json:"updateSkew,omitempty"`
	WeightSkew *float64 `json:"weightSkew,omitempty"`
	Profile    string   `json:"profile,omitempty"`
}

// Result describes the pages of a monitor run, "monitor" in a result's
// JSON (lab.Result.Sections), in the instance's order (on a generated dataset, the most dynamic first).
type Result struct {
	// Changes is each page's expected changes in an epoch, λ_i, where the
	// update probabilities are known (nil on a change log).
	Changes []float64 `json:"changes,omitempty"`
}

// PolicyResult is a monitoring policy's allocation, "monitor" in its JSON
// (lab.PolicyResult.Sections): each page's
// tasks in an epoch of its last plan, the mean over repeats (Pandey et al.
// Figs. 5 and 7 bin them by page).
type PolicyResult struct {
	Tasks []float64 `json:"tasks"`
}

// NewSpec, NewResult and NewPolicyResult make the kind's members of a
// spec and results (lab.Sectioner).
func (monitorKind) NewSpec() any         { return new(Spec) }
func (monitorKind) NewResult() any       { return new(Result) }
func (monitorKind) NewPolicyResult() any { return new(PolicyResult) }

// SpecOf returns the monitor fields of spec, or nil if it has none.
func SpecOf(spec lab.Spec) *Spec { return lab.SectionOf[Spec](spec.Sections, ID) }

// ResultOf returns what a monitor result says of its pages, or nil if res
// is not a monitor result.
func ResultOf(res *lab.Result) *Result { return lab.SectionOf[Result](res.Sections, ID) }

// PolicyResultOf returns a monitoring policy's allocation, or nil if p is
// not a monitoring policy's.
func PolicyResultOf(p lab.PolicyResult) *PolicyResult {
	return lab.SectionOf[PolicyResult](p.Sections, ID)
}
