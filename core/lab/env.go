package lab

import (
	"context"

	"github.com/refreshlab/refreshlab/core/dataset"
)

// RunEnv is what the lab lends a registered kind's Run and FinishSweep
// beside the spec, through their context (EnvOf).
type RunEnv struct {
	// Memo remembers values built from the run's dataset across runs
	// (refresh.Env.Memo), such as a prior fitted to it.
	Memo func(key string, build func() (any, error)) (any, error)
	// Shared holds what one run and the runs of its sweep share, such as
	// results that do not depend on the swept value.
	Shared map[string]any
	// InSweep marks a run at one value of a sweep, of whose result the
	// sweep keeps the metrics and facts alone.
	InSweep bool
}

type envKey struct{}

// EnvOf returns the RunEnv of a kind's run; outside a lab's run, one that
// remembers nothing and shares nothing.
func EnvOf(ctx context.Context) RunEnv {
	if e, ok := ctx.Value(envKey{}).(RunEnv); ok {
		return e
	}
	return RunEnv{Memo: func(_ string, build func() (any, error)) (any, error) { return build() }, Shared: map[string]any{}}
}

// A SweepFinisher is a Kind that completes a result once its sweep has
// run, such as the estimate kind, which reruns each estimator at the best
// value of a sweep over its first crawl interval.
type SweepFinisher interface {
	FinishSweep(ctx context.Context, res *Result, d *dataset.Dataset) error
}

// envFor returns the context of a run of spec on d under w.
func (l *Lab) envFor(w *watch, d *dataset.Dataset) context.Context {
	if w.shared == nil {
		w.shared = map[string]any{}
	}
	return context.WithValue(w.ctx, envKey{}, RunEnv{Memo: l.memoFor(d.Info.ID), Shared: w.shared, InSweep: w.inSweep})
}

// StreamState returns the PCG seed and stream of Stream(seed, policyID,
// repeat), for a kind that reseeds one generator rather than allocate one
// per repeat.
func StreamState(seed uint64, policyID string, repeat int) (uint64, uint64) {
	return seed, streamOf(policyID, repeat)
}
