package cluster

import (
	"fmt"
	"math"
)

// Weights of the change history, Tan et al. §4.2 eq. 5.
const (
	WeightsNAD = "nad" // non-adaptive: w_i = 1/n
	WeightsSAD = "sad" // short-sighted adaptive: the last cycle only
	WeightsAAD = "aad" // arithmetically adaptive: w_i = i / Σ i
	WeightsGAD = "gad" // geometrically adaptive: w_i = 2^(i−1) / Σ 2^(i−1)
)

// WeightSchemes lists the settings of w_i in the order of §4.2.
var WeightSchemes = []string{WeightsNAD, WeightsSAD, WeightsAAD, WeightsGAD}

// WeightSchemeLabels name WeightSchemes for people, in the same order, by
// Tan et al.'s names for them (§4.2).
var WeightSchemeLabels = []string{"Non-adaptive (nad)", "Shortsighted adaptive (sad)", "Arithmetically adaptive (aad)", "Geometrically adaptive (gad)"}

// Weights returns w_1..w_n of eq. 5 for the given scheme: they sum to 1
// and never decrease with i ("changes occurred in the more recent download
// cycles are more important").
func Weights(scheme string, n int) ([]float64, error) {
	w := make([]float64, n)
	if n == 0 {
		return w, nil
	}
	switch scheme {
	case WeightsNAD:
		for i := range w {
			w[i] = 1 / float64(n)
		}
	case WeightsSAD:
		w[n-1] = 1
	case WeightsAAD:
		s := float64(n) * float64(n+1) / 2
		for i := range w {
			w[i] = float64(i+1) / s
		}
	case WeightsGAD:
		// Σ_{i=1}^n 2^(i−1) = 2^n − 1; as 2^(i−1−n) / (1 − 2^−n), which
		// stays finite for any n.
		d := 1 - math.Ldexp(1, -n)
		for i := range w {
			w[i] = math.Ldexp(1, i-n) / d
		}
	default:
		return nil, fmt.Errorf("unknown weights %q (expected nad, sad, aad or gad)", scheme)
	}
	return w, nil
}

// Phi is the download probability of eq. 4, φ = Pr{T ≤ 1} = 1 − e^(−λ):
// the chance that a page changing as a Poisson process of rate λ per cycle
// changes within one cycle. It is computed as −Expm1(−λ), pure Go on every
// platform, so decisions on it are the same natively and in WebAssembly.
func Phi(lambda float64) float64 { return -math.Expm1(-lambda) }

// History is the change history of every page as the crawler's local
// repository records it (eq. 5): L_i[p] is the copy of page p after cycle
// i, and I(L_i[p]) = 1 when it differs from L_{i−1}[p], i.e. when a
// download of p in cycle i found it changed.
//
// Our reading of eq. 5, where the converted text is ambiguous:
//   - The printed λ_p = Σ w_i·I(L_i[p]) / n with Σ w_i = 1 divides by n
//     twice (for nad, X/n² for X changes in n cycles). We take
//     λ_p = Σ_i w_i·I(L_i[p]), a weighted share of cycles with a change,
//     which for nad is the change frequency X/n the text describes. (For
//     pages with the same n the two differ by a common factor and rank
//     alike.)
//   - i runs over the cycles played so far, i = 1..n, n the current
//     cycle's number; a cycle in which the crawler did not download p
//     leaves its copy as it was, so I = 0 there: the local repository has
//     no record of a change, and a download after several cycles records
//     the changes between as one, in its own cycle. Only a page downloaded
//     every cycle has its exact change history.
//
// It keeps, per page, what each scheme needs in O(1) space: the number of
// changes (nad), Σ i over them (aad), the geometric sum and the cycle of
// the last change (gad, sad).
type History struct {
	pages []pageHistory
}

// pageHistory is one page's record, kept together so that updating it
// touches one cache line.
type pageHistory struct {
	count int32   // changes recorded
	last  int32   // cycle (1-based) of the latest recorded change; 0 if none
	isum  float64 // Σ i over the cycles of recorded changes
	geo   float64 // Σ 2^(i−last) over them
}

// NewHistory returns an empty history of n pages.
func NewHistory(n int) *History { return &History{pages: make([]pageHistory, n)} }

// Reset empties the history.
func (h *History) Reset() { clear(h.pages) }

// Changed records that a download of p in cycle i (1-based) found a
// change. A page is downloaded at most once a cycle.
func (h *History) Changed(p int32, i int) {
	r := &h.pages[p]
	if r.last > 0 {
		r.geo = math.Ldexp(r.geo, int(r.last)-i)
	}
	r.geo++
	r.count++
	r.isum += float64(i)
	r.last = int32(i)
}

// Lambda returns λ_p of eq. 5 after n cycles with the given scheme.
func (h *History) Lambda(p int32, n int, scheme string) float64 {
	if n <= 0 {
		return 0
	}
	r := &h.pages[p]
	switch scheme {
	case WeightsSAD:
		if int(r.last) == n {
			return 1
		}
		return 0
	case WeightsAAD:
		return r.isum / (float64(n) * float64(n+1) / 2)
	case WeightsGAD:
		if r.last == 0 {
			return 0
		}
		// Σ 2^(i−n) I_i / Σ 2^(i−n) = geo·2^(last−n) / (2 − 2^(1−n)).
		return math.Ldexp(r.geo, int(r.last)-n) / (2 - math.Ldexp(1, 1-n))
	}
	return float64(r.count) / float64(n)
}
