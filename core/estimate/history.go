package estimate

import (
	"errors"
	"fmt"
)

// Time is measured in days throughout the package, and rates in changes per
// day. Grimes & Ford use hours (Fig. 2: λ = 1/24 per hour, starting intervals
// of 0-700 hours) and days (Fig. 4: 0-25 days); Hour converts: an interval of
// 700 hours is 700*Hour days, and a rate of 1/24 per hour is 1 per day.
const (
	Hour = 1.0 / 24
	Day  = 1.0
)

// The range of interval lengths a History accepts, in days: from about 86
// microseconds to 2.7 million years. Bounding them keeps every estimate a
// finite positive number (the rates of the edge cases and of the root of
// eq. 2 lie within [1/(n·MaxInterval), n/MinInterval] for n intervals), so
// subnormal or astronomically long intervals are refused rather than allowed
// to overflow a rate.
const (
	MinInterval = 1e-9
	MaxInterval = 1e9
)

// ErrInterval is returned for an interval length outside [MinInterval,
// MaxInterval] (including zero, negative and NaN lengths: a zero-length
// interval carries no observation, and under a Poisson model it cannot show a
// change).
var ErrInterval = errors.New("estimate: interval length outside [MinInterval, MaxInterval] days")

// History is one page's record of crawl observations (Grimes & Ford §3.1):
// crawl interval j lasted t_j days and at its end the crawler saw whether the
// page had changed, z_j = 1 when at least one of the Poisson(λ·t_j) changes
// fell inside it. Only that bit is seen, so the data are censored.
//
// Appending is O(1) and keeps the running sums the estimators need (Σt, Σ of
// the unchanged intervals, the changed intervals' lengths, the shortest
// interval), so the edge cases and the naive estimators cost O(1) and the
// maximum-likelihood estimators touch only the changed intervals. Reset keeps
// the storage, so one History can be reused for many pages without
// allocating. The zero value is an empty history.
type History struct {
	t       []float64 // every interval, oldest first
	changed []bool    // z_j for each interval
	tc      []float64 // the changed intervals' lengths, oldest first

	total     float64 // Σ t_j
	unchanged float64 // Σ t_j over the unchanged intervals
	minT      float64 // the shortest interval
}

// Add appends an interval of t days that ended with changed = z_j. It
// refuses (with ErrInterval, leaving h as it was) a length outside
// [MinInterval, MaxInterval].
func (h *History) Add(t float64, changed bool) error {
	if !(t >= MinInterval && t <= MaxInterval) {
		return fmt.Errorf("%w: %g", ErrInterval, t)
	}
	if len(h.t) == 0 || t < h.minT {
		h.minT = t
	}
	h.t = append(h.t, t)
	h.changed = append(h.changed, changed)
	h.total += t
	if changed {
		h.tc = append(h.tc, t)
	} else {
		h.unchanged += t
	}
	return nil
}

// Reset empties h, keeping its storage.
func (h *History) Reset() {
	h.t, h.changed, h.tc = h.t[:0], h.changed[:0], h.tc[:0]
	h.total, h.unchanged, h.minT = 0, 0, 0
}

// Len returns the number of intervals n.
func (h *History) Len() int { return len(h.t) }

// At returns interval j's length and whether the page had changed at its
// end, j = 0 being the oldest.
func (h *History) At(j int) (t float64, changed bool) { return h.t[j], h.changed[j] }

// Changes returns X = Σ z_j, the number of intervals that ended with a
// change.
func (h *History) Changes() int { return len(h.tc) }

// Total returns T = Σ t_j in days.
func (h *History) Total() float64 { return h.total }

// Unchanged returns the total length of the intervals that showed no change.
func (h *History) Unchanged() float64 { return h.unchanged }

// Shortest returns the shortest interval, or 0 for an empty history.
func (h *History) Shortest() float64 { return h.minT }

// edge classifies h: Empty, NoChange, AllChanged or None.
func (h *History) edge() Edge {
	switch {
	case len(h.t) == 0:
		return Empty
	case len(h.tc) == 0:
		return NoChange
	case len(h.tc) == len(h.t):
		return AllChanged
	}
	return None
}

// Regular reports whether every interval has the same length (an empty
// history is regular): the setting of Cho & Garcia-Molina's eq. 1.
func (h *History) Regular() bool {
	for _, t := range h.t {
		if t != h.minT {
			return false
		}
	}
	return true
}
