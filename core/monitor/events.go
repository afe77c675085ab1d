package monitor

import (
	"fmt"
	"math"
	"slices"

	"github.com/refreshlab/refreshlab/core/dataset"
)

// EventOptions says how FromEvents cuts a dataset's time into epochs of
// update instants.
type EventOptions struct {
	// Slot is the length of a time slot in seconds (3600 for hours). Each
	// slot is one update instant, at the slot's end: a change anywhere in
	// the slot is a change at that instant, seen by a monitor at its end.
	Slot float64
	// Slots is the number of slots in an epoch: 24 hourly slots for an
	// epoch of a day (hour of day), 168 for a week (hour of week).
	Slots int
	// Phase is where the dataset's window start falls in its epoch, in
	// seconds after the epoch's start: for days in UTC, the start's seconds
	// since midnight UTC; for weeks, since the week's first midnight. Epoch
	// 0 is the first whole epoch: it starts at the first epoch boundary at
	// or after the window's start, and the window's tail after the last
	// whole epoch is left out.
	Phase float64
	// Weights, when not nil, are the pages' weights W_i; otherwise the
	// dataset's FeatureWeight feature, or 1 for every page without one.
	Weights []float64
}

// Replay is a dataset's changes cut into CAM epochs: an instance with the
// pages' weights and the slots' instants (Rho nil: a log holds what
// happened, not the probabilities it happened with), and the recorded
// changes of every whole epoch. Simulate plays it with Tracking set to the
// epochs of the tracking phase: the first epochs give each page's ρ per
// slot (the share of tracked epochs in which it changed in that slot) and
// the rest are monitored.
type Replay struct {
	Instance Instance
	Recorded
	// Offset is the time from the window's start to epoch 0's, in seconds.
	Offset float64
}

// FromEvents cuts the truth of d into epochs of o.Slots slots of o.Slot
// seconds. Each change of a page (its first in each cycle: Truth.First,
// which an event log holds to the nanosecond) marks the slot it falls in,
// slot j of an epoch covering (start + j·Slot, start + (j+1)·Slot]; two
// changes in one slot are one change at that instant. A dataset that
// records only the cycle of each change (no Truth.First) places it at
// mid-cycle, so its slots must be at least a cycle long to mean anything,
// and FromEvents refuses shorter ones. With cycles longer than a slot, a
// page's later changes within a cycle are not in the truth: read an event
// log with a cycle length no longer than the slot to keep every change.
//
// A page whose tracking began after the window's start (the
// dataset.FeatureTracked feature of event logs) has no changes before it,
// and no observations: Recorded.Tracked says when it began.
func FromEvents(d *dataset.Dataset, o EventOptions) (*Replay, error) {
	if err := d.Validate(); err != nil {
		return nil, fmt.Errorf("monitor: from events: %w", err)
	}
	if !(o.Slot >= 1e-9 && o.Slot <= 4e9) || o.Slots < 1 || o.Slots > 1<<20 {
		return nil, fmt.Errorf("monitor: from events: slots of %v s, %d an epoch: expected a slot between 1 ns and 4e9 s, and 1 to %d slots", o.Slot, o.Slots, 1<<20)
	}
	if o.Slot*float64(o.Slots) > 4e9 {
		return nil, fmt.Errorf("monitor: from events: %d slots of %v s make an epoch of %v s: expected at most 4e9 s", o.Slots, o.Slot, o.Slot*float64(o.Slots))
	}
	if math.IsNaN(o.Phase) || math.IsInf(o.Phase, 0) {
		return nil, fmt.Errorf("monitor: from events: phase %v: expected a finite number of seconds", o.Phase)
	}
	n := len(d.Pages)
	if o.Weights != nil && len(o.Weights) != n {
		return nil, fmt.Errorf("monitor: from events: %d weights for %d pages", len(o.Weights), n)
	}
	Lns := d.CycleNanos()
	slotNs := int64(math.Round(o.Slot * 1e9))
	if d.Truth.First == nil && slotNs < Lns {
		return nil, fmt.Errorf("monitor: from events: the dataset records only the cycle of each change, so a slot of %v s, shorter than its cycle of %v s, cannot place its changes", o.Slot, float64(Lns)/1e9)
	}
	epochNs := slotNs * int64(o.Slots)
	span := int64(d.Truth.Cycles()) * Lns
	phase := int64(math.Round(math.Mod(o.Phase, float64(epochNs)/1e9) * 1e9))
	phase = ((phase % epochNs) + epochNs) % epochNs
	offset := (epochNs - phase) % epochNs
	if span-offset < epochNs {
		return nil, fmt.Errorf("monitor: from events: the dataset's %v s hold no whole epoch of %d slots of %v s", float64(span)/1e9, o.Slots, o.Slot)
	}
	E := int((span - offset) / epochNs)

	w := o.Weights
	if w == nil {
		w = slices.Clone(d.Features[FeatureWeight])
	}
	if w == nil {
		w = make([]float64, n)
		for i := range w {
			w[i] = 1
		}
	}
	T := float64(epochNs) / 1e9
	r := &Replay{
		Instance: Instance{T: T, Times: UniformTimes(T, o.Slots), Weight: w},
		Recorded: Recorded{Changed: make([][][]int32, E)},
		Offset:   float64(offset) / 1e9,
	}
	for e := range r.Changed {
		r.Changed[e] = make([][]int32, n)
	}
	for c, ch := range d.Truth.Changed {
		for k, p := range ch {
			t := dataset.NanosAt(d.Truth.FirstChange(c, k), Lns) - offset
			if t <= 0 || t > int64(E)*epochNs {
				continue
			}
			e, j := (t-1)/epochNs, int32(((t-1)%epochNs)/slotNs)
			js := r.Changed[e][p]
			if len(js) == 0 || js[len(js)-1] != j {
				r.Changed[e][p] = append(js, j)
			}
		}
	}
	if tr := d.Features[dataset.FeatureTracked]; tr != nil {
		r.Tracked = make([]float64, n)
		for i, x := range tr {
			if x > 0 {
				r.Tracked[i] = max(float64(dataset.NanosAt(x, Lns)-offset)/float64(epochNs), 0)
			}
		}
	}
	if err := r.Instance.Validate(); err != nil {
		return nil, fmt.Errorf("from events: %w", err)
	}
	return r, nil
}
