package monitor

import (
	"fmt"
	"math"
	"slices"
)

// How re-allocation re-estimates ρ from the monitors' observations (Pandey,
// Ramamritham & Chakrabarti §5.5). The paper modifies "update probabilities
// (ρ_{i,j}) of those update instants which get monitored in the epoch" by
// "estimating the average rate of occurrence of updates: if a page was
// updated five times in the last 10 monitoring instants, the probability of
// expecting a change at the next update instant is simply set to 0.5". The
// first sentence speaks of instants, the second of a page's last monitoring
// instants, whatever instants they were; both readings are defensible, and
// the text does not settle which.
const (
	// ReestimateInstant reads the rule per instant: a monitored instant's
	// ρ becomes the share of its own latest observations that found a
	// change, and an instant never observed keeps its estimate. It is what
	// CAM's allocation needs, an estimate per instant, but an instant
	// dropped after a few observations of "no change" is never watched
	// again, so the plan confirms itself.
	ReestimateInstant = "instant"
	// ReestimatePage reads the rule per page: the page's latest
	// observations, at whatever instants, give its rate, spread over its
	// instants in the shape the first plan's estimates had (the tracking
	// phase's profile, or the known ρ). Page i's estimate at instant j is
	// min(1, s_i·π_{i,j}), where π_i is that profile and s_i the page's c
	// changes found over what the profile expected its observations to
	// find: Σ π_{i,j} over the instants observed when a monitor learns
	// the change at its instant, or the chance of a change since the
	// previous monitoring when it learns only that. Watching every
	// instant, 5 changes in the last 10 gives 0.5 on a flat profile, the
	// paper's example. The profile is learnt once, so the estimates can
	// only rescale it, never reshape it.
	ReestimatePage = "page"
)

// Reestimates lists the readings of the re-estimation rule, the default
// first.
func Reestimates() []string { return []string{ReestimateInstant, ReestimatePage} }

// checkReestimate returns an error unless s is "" (per instant) or one of
// Reestimates.
func checkReestimate(s string) error {
	switch s {
	case "", ReestimateInstant, ReestimatePage:
		return nil
	}
	return fmt.Errorf("monitor: re-estimate %q: expected %q or %q", s, ReestimateInstant, ReestimatePage)
}

// pageEstimator keeps, for ReestimatePage, each page's latest observations
// across its instants and the profile its estimates rescale. An
// observation weighs what the profile expected it to find: the chance of a
// change over the span it covers, since the page's previous monitoring
// (just the task's instant when monitors read change times, and in the
// tracking phase, which watches every instant).
type pageEstimator struct {
	window int
	times  []float64 // the instants as fractions of an epoch
	// With a window: a ring of each page's last observations (outcome in
	// bits, newest in bit 0; the instant, and the expected share, or -1
	// for "the profile at the instant" before the profile is known) and
	// how many it holds. Without: each page's totals once the profile is
	// known.
	at   [][]int32
	mass [][]float64
	bits []uint64
	n    []int
	c    []int
	sum  []float64
	// profile is the first plan's estimates, nil until then; hazard[i][k]
	// is Σ −log(1−π_{i,l}) over the first k instants.
	profile, hazard [][]float64
}

func newPageEstimator(pages, window int, times []float64, T float64) *pageEstimator {
	pe := &pageEstimator{window: window, times: make([]float64, len(times))}
	for j, u := range times {
		pe.times[j] = u / T
	}
	if window > 0 {
		pe.at = make([][]int32, pages)
		pe.mass = make([][]float64, pages)
		for i := range pe.at {
			pe.at[i] = make([]int32, window)
			pe.mass[i] = make([]float64, window)
		}
		pe.bits = make([]uint64, pages)
	} else {
		pe.c = make([]int, pages)
		pe.sum = make([]float64, pages)
	}
	pe.n = make([]int, pages)
	return pe
}

// cum returns page i's cumulative hazard under the profile from the start
// of epoch 0 to time t, in epochs (instants at t included).
func (pe *pageEstimator) cum(i int, t float64) float64 {
	h := pe.hazard[i]
	e := math.Floor(t)
	k, _ := slices.BinarySearch(pe.times, t-e)
	for k < len(pe.times) && pe.times[k] <= t-e {
		k++
	}
	return e*h[len(h)-1] + h[k]
}

// observe records page i's observation at instant j; from and to are the
// times (in epochs) of its previous monitoring and of this one, and span
// says the observation covers the whole span rather than the instant.
func (pe *pageEstimator) observe(i, j int, changed, span bool, from, to float64) {
	m := -1.0 // the profile at j, once known
	if pe.profile != nil {
		if span {
			m = -math.Expm1(-(pe.cum(i, to) - pe.cum(i, from)))
		} else {
			m = pe.profile[i][j]
		}
	}
	if pe.window == 0 {
		if pe.profile != nil {
			pe.n[i]++
			pe.sum[i] += m
			if changed {
				pe.c[i]++
			}
		}
		return
	}
	at, ms := pe.at[i], pe.mass[i]
	copy(at[1:], at[:len(at)-1])
	copy(ms[1:], ms[:len(ms)-1])
	at[0], ms[0] = int32(j), m
	var b uint64
	if changed {
		b = 1
	}
	pe.bits[i] = pe.bits[i]<<1 | b
	pe.n[i] = min(pe.n[i]+1, pe.window)
}

// fill writes the page estimates into rho; inst is the instant estimator,
// whose estimates (the first time) become the profile and whose counts
// give, without a window, the observations made before it.
func (pe *pageEstimator) fill(inst *estimator, rho [][]float64) {
	if pe.profile == nil {
		inst.fillInstant(rho)
		pe.profile = make([][]float64, len(rho))
		pe.hazard = make([][]float64, len(rho))
		for i, row := range rho {
			pe.profile[i] = append([]float64(nil), row...)
			h := make([]float64, len(row)+1)
			for j, r := range row {
				h[j+1] = h[j] - math.Log1p(-min(r, 1-1e-12))
			}
			pe.hazard[i] = h
			if pe.window == 0 {
				for j, r := range row {
					k := i*inst.p + j
					pe.n[i] += int(inst.obs[k])
					pe.c[i] += int(inst.hits[k])
					pe.sum[i] += float64(inst.obs[k]) * r
				}
			}
		}
		return
	}
	for i, row := range rho {
		prof := pe.profile[i]
		n := pe.n[i]
		var c int
		var mass float64 // what the profile expected the observations to find
		if pe.window > 0 {
			for k := range n {
				m := pe.mass[i][k]
				if m < 0 {
					m = prof[pe.at[i][k]]
				}
				mass += m
				c += int(pe.bits[i] >> k & 1)
			}
		} else {
			c, mass = pe.c[i], pe.sum[i]
		}
		switch {
		case n == 0:
			copy(row, prof)
		case mass == 0:
			// The profile expected nothing where the monitors looked:
			// spread the observed share evenly.
			for j := range row {
				row[j] = float64(c) / float64(n)
			}
		default:
			s := float64(c) / mass
			for j := range row {
				row[j] = min(1, s*prof[j])
			}
		}
	}
}
