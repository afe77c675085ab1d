// Package lab runs experiments: it holds the catalog of datasets and
// policies, checks an experiment spec against it, runs it and summarises
// the result. A spec is the one JSON object that a lesson's controls edit, a
// shared link carries and a researcher pastes back to reproduce a figure.
package lab

import (
	"fmt"
	"time"

	"github.com/refreshlab/refreshlab/core/param"
)

// KindRefresh is the lab's own experiment kind: batch refresh cycles
// under a download budget.
const KindRefresh = "refresh"

// Kinds lists the experiment kinds, for GET /api/policies: the lab's own,
// then the registered ones (Register).
func Kinds() []string {
	ks := []string{KindRefresh}
	for _, k := range registered {
		ks = append(ks, k.ID())
	}
	return ks
}

// Spec is an experiment specification.
type Spec struct {
	Kind    string     `json:"kind"`
	Dataset DatasetRef `json:"dataset"`
	// Budget is the number of downloads per cycle; 0 means a tenth of the
	// dataset's pages.
	Budget int `json:"budget"`
	// Cycles is the number of cycles to play; 0 means all of the dataset's.
	Cycles int `json:"cycles"`
	// Repeats is the number of independent runs per policy, each with its
	// own random stream; 0 means DefaultRepeats.
	Repeats  int          `json:"repeats"`
	Seed     uint64       `json:"seed"`
	Policies []PolicySpec `json:"policies"`
	// Sweep, when set, also runs the spec once per value of one field, for
	// charts of a metric against, say, the sample size.
	Sweep *Sweep `json:"sweep,omitempty"`
	// Sections holds the registered kinds' own fields, each in its
	// kind's type and in JSON under its kind's id (such as "schedule",
	// core/schedule/schedulekind.Spec).
	Sections Sections `json:"-"`
}

// Sweep varies one numeric field of a spec: "budget", "cycles",
// "repeats", "seed", "params.NAME" (every policy that has parameter NAME)
// or "policies.ID.NAME" (policy ID only; ID may be a label, PolicySpec.Key).
type Sweep struct {
	Field  string    `json:"field"`
	Values []float64 `json:"values"`
}

// DatasetRef names a dataset of the catalog, and sets the options of its
// generator where it has some: alqaaideh-jordan's site rates may drift
// (synth.AlQaaidehDrift; 0, the default, is the bundled dataset).
type DatasetRef struct {
	ID          string  `json:"id"`
	Drift       float64 `json:"drift,omitempty"`
	DriftPeriod float64 `json:"driftPeriod,omitempty"`
}

// PolicySpec names a policy and sets its parameters. A spec may run one
// policy several times with different parameters (say, cluster sampling on
// each feature set) by giving each a distinct Label; the label then stands
// for it wherever a policy is addressed by id (a chart's policies, a live
// number, a control's or sweep's policies.ID.NAME) and is shown after its
// name. The random streams stay those of the id, so a labelled policy gives
// the numbers it gives unlabelled.
type PolicySpec struct {
	ID     string       `json:"id"`
	Label  string       `json:"label,omitempty"`
	Params param.Values `json:"params,omitempty"`
}

// Key is how a spec's policy is addressed: its label if it has one, else
// its id.
func (p PolicySpec) Key() string {
	if p.Label != "" {
		return p.Label
	}
	return p.ID
}

// Limits on a spec, so one request cannot freeze the lab.
const (
	DefaultRepeats = 10
	MaxRepeats     = 10000
	MaxPolicies    = 24
	// MaxWork bounds a run's estimated computing time: pages × cycles ×
	// repeats (× sweep values) times each policy's Cost per page-cycle.
	MaxWork = 20 * time.Second
	// MaxSweep bounds the values of a sweep.
	MaxSweep = 200
)

// SpecError is a spec that cannot run: Field says where, in the JSON path
// form of the spec ("policies[1].params.sampleSize"), and Msg what is wrong.
type SpecError struct {
	Field string `json:"field"`
	Msg   string `json:"error"`
}

func (e *SpecError) Error() string {
	if e.Field == "" {
		return e.Msg
	}
	return e.Field + ": " + e.Msg
}

func specErr(field, format string, args ...any) *SpecError {
	return &SpecError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// SpecErrorf returns the SpecError of field whose message is format with
// args, for a kind's checks (Kind.Resolve).
func SpecErrorf(field, format string, args ...any) *SpecError { return specErr(field, format, args...) }
