package lab

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/refresh"

	"github.com/refreshlab/refreshlab/core/internal/quote"
)

// A Kind is an experiment kind that plugs into the lab: it names its
// policies, metrics, facts, spec fields and chart types, checks and
// completes its part
// of a spec, and runs it. The lab makes the checks every kind shares before
// it asks the kind (Kind.Resolve): the dataset exists, the repeats are in
// range, there is at least one policy and at most MaxPolicies, each is a
// policy of the kind with valid parameters and addressed unambiguously; and
// after it, that the work the kind estimates stays within MaxWork. A kind
// registers itself (Register) from the file or package that defines it, so
// adding one edits no other kind; its own members of a spec and results
// are types of its package (Sectioner).
//
// The refresh kind is the lab's own: its traces, splits and shared
// results are built around it. It is resolved and run by the lab's own
// code (Resolve, run), with the same shared checks (lookupDataset,
// checkRepeats, checkPolicyCount).
type Kind interface {
	// ID is the kind's name in Spec.Kind.
	ID() string
	// Policies lists the kind's policies for the catalog; the lab sets
	// their Kind to ID.
	Policies() []refresh.Descriptor
	// Metrics and Facts describe what the kind's results carry (their
	// Kinds are set to ID); Headline is the id of the metric its results
	// are compared by unless another is chosen.
	Metrics() []Metric
	Facts() []Fact
	Headline() string
	// Charts lists the ids of the chart types (core/api) that draw the
	// kind's results.
	Charts() []string
	// Fields lists the kind's own members of a spec that controls,
	// predictions and sweeps may set (their Kind is set to ID), such as
	// "monitor.tracking".
	Fields() []SpecField
	// Nouns names one of the kind's policies and several, for reports
	// ("schedule", "schedules").
	Nouns() (one, many string)
	// Design says in a few sentences how a result of the kind was made:
	// its repeats and seed, what each repeat draws from which random
	// stream, and so whether repeat r of two policies share random
	// numbers; a report's methods paragraph quotes it.
	Design(res *Result) string
	// DefaultRepeats is the repeats of a spec that gives none.
	DefaultRepeats() int
	// Resolve checks the kind's own fields of spec, whose shared fields
	// the lab has checked, on dataset d, and fills in their defaults. It
	// returns the resolved spec, the work of running it once (an estimate
	// of its computing time, which the lab multiplies by the runs of a
	// sweep and bounds by MaxWork; 0 for a kind that bounds its work in a
	// unit of its own) and a phrase saying what that work is, for the
	// error when it is too much. An error should be a *SpecError.
	Resolve(spec Spec, d *dataset.Dataset) (Spec, time.Duration, string, error)
	// Run runs a resolved spec on d: it stops with ctx's error once ctx
	// is done, checked at least between repeats, and calls progress with
	// the repeats finished so far in all its policies.
	Run(ctx context.Context, spec Spec, d *dataset.Dataset, progress func(repeats int)) (*Result, error)
}

// A Sharer is a Kind whose results also carry metrics and facts that
// another kind defines, such as the refresh kind's freshness: Register
// adds the kind to their Kinds.
type Sharer interface {
	Shared() (metrics, facts []string)
}

// A Streamer is a Kind whose repeats draw their random numbers as the
// refresh kind's do, repeat r of a policy from Stream(seed, id, r): two
// policies' repeats share nothing, and labelled copies of one policy share
// everything. A report then says so after the kind's Design.
type Streamer interface {
	Streams()
}

// registered are the kinds of Register, in the order they registered.
var registered []Kind

// Register adds a kind to every lab made after it, with its metrics and
// facts in Metrics and Facts. It is meant for a kind's init function; it
// panics when the id is taken or a metric or fact id is, a bug of the
// kind's that every test finds.
func Register(k Kind) {
	id := k.ID()
	if slices.Contains(Kinds(), id) {
		panic("lab: kind " + id + " registered twice")
	}
	for _, m := range k.Metrics() {
		if _, dup := MetricByID(m.ID); dup {
			panic("lab: kind " + id + ": metric " + m.ID + " is another kind's")
		}
		m.Kinds = []string{id}
		Metrics = append(Metrics, m)
	}
	for _, f := range k.Facts() {
		if _, dup := FactByID(f.ID); dup {
			panic("lab: kind " + id + ": fact " + f.ID + " is another kind's")
		}
		f.Kinds = []string{id}
		Facts = append(Facts, f)
	}
	if s, ok := k.(Sharer); ok {
		ms, fs := s.Shared()
		for _, m := range ms {
			i := slices.IndexFunc(Metrics, func(x Metric) bool { return x.ID == m })
			if i < 0 {
				panic("lab: kind " + id + " shares metric " + m + ", which no kind has")
			}
			Metrics[i].Kinds = append(slices.Clone(Metrics[i].Kinds), id)
		}
		for _, f := range fs {
			i := slices.IndexFunc(Facts, func(x Fact) bool { return x.ID == f })
			if i < 0 {
				panic("lab: kind " + id + " shares fact " + f + ", which no kind has")
			}
			Facts[i].Kinds = append(slices.Clone(Facts[i].Kinds), id)
		}
	}
	registered = append(registered, k)
}

// registeredFields lists the spec fields of the registered kinds, each
// marked with its kind.
func registeredFields() []SpecField {
	var fs []SpecField
	for _, k := range registered {
		for _, f := range k.Fields() {
			f.Kind = k.ID()
			fs = append(fs, f)
		}
	}
	return fs
}

// Registered lists the kinds added by Register.
func Registered() []Kind { return slices.Clone(registered) }

// KindByID returns the registered kind id (Register); the lab's own
// kinds are not among them.
func KindByID(id string) (Kind, bool) { return kindByID(id) }

// kindByID returns the registered kind id.
func kindByID(id string) (Kind, bool) {
	i := slices.IndexFunc(registered, func(k Kind) bool { return k.ID() == id })
	if i < 0 {
		return nil, false
	}
	return registered[i], true
}

// registeredPolicies lists the policies of the registered kinds, each
// marked with its kind.
func registeredPolicies() []refresh.Descriptor {
	var ds []refresh.Descriptor
	for _, k := range registered {
		for _, d := range k.Policies() {
			d.Kind = k.ID()
			ds = append(ds, d)
		}
	}
	return ds
}

// lookupDataset returns the dataset a spec names: the first check of
// every kind.
func (l *Lab) lookupDataset(spec Spec) (*dataset.Dataset, error) {
	if spec.Dataset.ID == "" {
		return nil, specErr("dataset.id", "missing: name a dataset (one of %s)", l.datasetIDs())
	}
	d, ok := l.Dataset(spec.Dataset.ID)
	if !ok {
		return nil, specErr("dataset.id", "unknown dataset %s (expected one of %s)", quote.Q(spec.Dataset.ID), l.datasetIDs())
	}
	return l.withDrift(spec.Dataset, d)
}

// checkRepeats fills in the spec's repeats (def when it gives none) or
// checks that they are between 1 and MaxRepeats.
func checkRepeats(spec *Spec, def int) error {
	switch {
	case spec.Repeats == 0:
		spec.Repeats = def
	case spec.Repeats < 0 || spec.Repeats > MaxRepeats:
		return specErr("repeats", "must be between 1 and %d, got %d", MaxRepeats, spec.Repeats)
	}
	return nil
}

// checkPolicyCount checks that a spec names at least one policy and at
// most MaxPolicies; noun and nouns say what a policy is, ids which there
// are.
func checkPolicyCount(spec Spec, noun, nouns, ids string) error {
	if len(spec.Policies) == 0 {
		return specErr("policies", "empty: name at least one %s (one of %s)", noun, ids)
	}
	if len(spec.Policies) > MaxPolicies {
		return specErr("policies", "at most %d %s per run, got %d", MaxPolicies, nouns, len(spec.Policies))
	}
	return nil
}

// resolveKind makes the shared checks of a spec of the registered kind k,
// then k's own, and bounds the work, that of its sweep's runs included
// (each value costs about what the spec does).
func (l *Lab) resolveKind(k Kind, spec Spec) (Spec, *dataset.Dataset, error) {
	d, err := l.lookupDataset(spec)
	if err != nil {
		return spec, nil, err
	}
	if err := checkRepeats(&spec, k.DefaultRepeats()); err != nil {
		return spec, nil, err
	}
	one, many := k.Nouns()
	if err := checkPolicyCount(spec, one, many, l.policyIDsOf(k.ID())); err != nil {
		return spec, nil, err
	}
	points := 1.0 // the spec's run and its sweep's
	if spec.Sweep != nil {
		if err := checkSweep(spec.Sweep); err != nil {
			return spec, nil, err
		}
		points += float64(len(spec.Sweep.Values))
	}
	ps, err := l.checkPolicies(spec.Policies, k.ID(), one)
	if err != nil {
		return spec, nil, err
	}
	spec.Policies = ps
	spec, work, what, err := k.Resolve(spec, d)
	if err != nil {
		return spec, nil, err
	}
	if points > 1 {
		work = time.Duration(float64(work) * points)
		what += fmt.Sprintf(" × %.0f runs", points)
	}
	if work > MaxWork {
		return spec, nil, specErr("repeats", "too much work: %s would take about %v, more than the %v a run may take; use fewer repeats",
			what, work.Round(time.Second), MaxWork)
	}
	return spec, d, nil
}

// runKind resolves and runs a spec of the registered kind k, and its
// sweep.
func (l *Lab) runKind(k Kind, spec Spec, w *watch) (*Result, error) {
	spec, d, err := l.resolveKind(k, spec)
	if err != nil {
		return nil, err
	}
	start := w.done
	ctx := l.envFor(w, d)
	res, err := k.Run(ctx, spec, d, func(n int) {
		if start+n > w.done {
			w.add(start + n - w.done)
		}
	})
	if err != nil {
		return nil, err
	}
	if spec.Sweep != nil {
		if res.Sweep, err = l.runSweep(spec, w); err != nil {
			return nil, err
		}
		if f, ok := k.(SweepFinisher); ok {
			if err := f.FinishSweep(ctx, res, d); err != nil {
				return nil, err
			}
		}
	}
	pairedValues(res)
	return res, nil
}
