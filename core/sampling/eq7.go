package sampling

import (
	"math"
	"slices"

	"github.com/refreshlab/refreshlab/core/param"
)

// Sample-size rules: how a sampling policy sizes each cycle's samples when
// the spec leaves the sample size automatic.
const (
	// RuleSqrt is the rough optimum √(N·r) in every cycle (Cho & Ntoulas;
	// Taleghani & Ugur-Ozekinci §4.1).
	RuleSqrt = "sqrt"
	// RuleEq7 starts at the sample size and then sizes each cycle's
	// samples by eq. 7 from the previous cycle's estimates (Eq7Size).
	RuleEq7 = "eq7"
)

// SampleRuleParam is the sampling policies' choice between √(N·r) and eq. 7.
var SampleRuleParam = param.Param{
	Name: "sampleRule", Label: "Sample size rule", Type: param.Enum, Default: RuleSqrt, Options: []string{RuleSqrt, RuleEq7},
	OptionLabels: []string{"√(N·r) every cycle", "Eq. 7 from the last cycle's estimates"},
	Help:         "How the sample size is set. √(N·r): the rough optimum of §4.1 in every cycle. Eq. 7: the first cycle samples the sample size, and each later cycle samples s ≈ √(N·r·f(p_t) / (6(p̄_r − p̄))), Cho & Ntoulas' optimum as Taleghani & Ugur-Ozekinci eq. 7 and Al-Qaaideh §2.6 give it, with p_t, f(p_t), p̄_r and p̄ read from the previous cycle's sample estimates.",
}

// Eq7 is Cho & Ntoulas' optimal sample size for the greedy policy as
// Taleghani & Ugur-Ozekinci §4.1 (eq. 7) and Al-Qaaideh §2.6 (Table 2.2)
// state it, with the terms it was computed from:
//
//	s ≈ √( N·r·f(p_t) / (6·(p̄_r − p̄)) )
//
// N is the average number of pages per group, r the share of the
// repository downloaded per cycle, f the density of the groups' change
// fractions p, p_t the threshold above which lie the top 100·r% of groups
// (those greedy refreshes), p̄_r the mean p of those groups and p̄ the mean
// p of all groups.
//
// Our reading, where the converted text of Taleghani & Ugur-Ozekinci is
// unclear: it defines p̄_r and p̄ "respectively" the other way round (the
// mean of all groups, then of those above the threshold), which would make
// the gap negative and the root imaginary; its own next sentence ("the
// higher the value of p̄_r − p̄ the more confidence") and Al-Qaaideh's Table
// 2.2 fix p̄_r as the mean above the threshold. Taleghani calls f(p_t) "the
// number of categories that have the changed page fraction value of p_t";
// we read it as Al-Qaaideh's "density function of all web sites", a
// density normalised to integrate to 1, since a count would make the
// optimal sample per group grow with the number of groups of the same
// kind.
type Eq7 struct {
	N, R      float64 // pages per group; share of the pages downloaded per cycle
	Threshold float64 // p_t
	Density   float64 // f(p_t)
	Top, Mean float64 // p̄_r, p̄
	// Size is the unrounded s: +Inf when the groups' estimates are all
	// equal (no gap to find), NaN when fewer than two groups were
	// estimated.
	Size float64
}

// Eq7Size computes eq. 7 from the groups' estimated change fractions est
// (negative entries, groups left unsampled, are skipped), with n pages per
// group and r the share downloaded per cycle. The paper's p values are the
// groups' true change fractions, which no crawler knows; a crawler that
// sampled last cycle knows its estimates of them, and this plugs those in:
//
//   - p_t is the (1 − r) quantile of the estimates (linear interpolation
//     between order statistics), p̄_r the mean of the ⌈r·G⌉ largest (at
//     least one) and p̄ the mean of all G;
//   - f(p_t) is a kernel density estimate at p_t: the Epanechnikov kernel
//     (exact in plain arithmetic, so the same bits in WebAssembly) with
//     half-width √5·1.06·σ·G^(−1/5), Scott's rule for a kernel of the
//     estimates' standard deviation σ.
//
// The estimates carry their samples' noise, so f is the density of the
// true fractions blurred by it. scratch, when long enough, is used for
// the sorted estimates.
func Eq7Size(n, r float64, est, scratch []float64) Eq7 {
	e := Eq7{N: n, R: r, Size: math.NaN()}
	ps := scratch[:0]
	for _, x := range est {
		if x >= 0 {
			ps = append(ps, x)
		}
	}
	g := len(ps)
	if g < 2 {
		return e
	}
	slices.Sort(ps)
	var sum float64
	for _, x := range ps {
		sum += x
	}
	e.Mean = sum / float64(g)
	pos := (1 - r) * float64(g-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, g-1)
	e.Threshold = ps[lo] + (pos-float64(lo))*(ps[hi]-ps[lo])
	m := max(1, int(math.Ceil(r*float64(g))))
	var top float64
	for _, x := range ps[g-m:] {
		top += x
	}
	e.Top = top / float64(m)
	var ss float64
	for _, x := range ps {
		ss += (x - e.Mean) * (x - e.Mean)
	}
	sd := math.Sqrt(ss / float64(g-1))
	if sd == 0 || e.Top <= e.Mean {
		e.Size = math.Inf(1)
		return e
	}
	a := math.Sqrt(5) * 1.06 * sd / fifthRoot(float64(g))
	var f float64
	for _, x := range ps {
		if u := (x - e.Threshold) / a; u > -1 && u < 1 {
			f += 0.75 * (1 - u*u)
		}
	}
	e.Density = f / (float64(g) * a)
	e.Size = math.Sqrt(n * r * e.Density / (6 * (e.Top - e.Mean)))
	return e
}

// RoundSize rounds eq. 7's sample size to whole pages within [1, most]
// (most: the largest size whose samples fit the budget): its +Inf (no gap
// between the groups) becomes most, and its NaN (too few groups estimated,
// as before the first cycle) becomes fallback, as it is.
func RoundSize(s float64, fallback, most int) int {
	if math.IsNaN(s) {
		return fallback
	}
	most = max(1, most)
	if s >= float64(most) {
		return most
	}
	return max(1, int(math.Round(s)))
}

// fifthRoot returns x^(1/5) for x ≥ 1 by Newton's method from x^(1/4),
// which lies above the root, so the iterates fall monotonically to it:
// plain arithmetic, the same bits on every platform (math.Pow is not).
func fifthRoot(x float64) float64 {
	y := math.Sqrt(math.Sqrt(x))
	for range 200 {
		y4 := y * y * y * y
		z := y - (y-x/y4)/5
		if z >= y {
			break
		}
		y = z
	}
	return y
}
