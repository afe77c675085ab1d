// Package pagerank computes PageRank as Tan et al. (WebDB 2007) §3.1 eq. 1
// states it, for the link graph of a repository: a page's popularity, one
// of the static linkage features that cluster-level sampling clusters on.
package pagerank

// DefaultDamping is the damping factor d of eq. 1. Tan et al. do not give
// d; 0.85 is the value of Page et al.'s report that eq. 1 cites ([17]).
const DefaultDamping = 0.85

// Options controls the power iteration of Rank.
type Options struct {
	Damping float64 // d of eq. 1; 0 means DefaultDamping
	// Tol stops the iteration when Σ_i |PR_new(i) − PR(i)| falls below it;
	// 0 means 1e-12.
	Tol float64
	// MaxIter bounds the iterations; 0 means 200.
	MaxIter int
}

// Rank returns PR(p_i) for every page of the graph whose out-links are
// links[i] (page indexes), by iterating eq. 1 of Tan et al. §3.1 from the
// uniform 1/N:
//
//	PR(p_i) = (1 − d)/N + d · Σ_{p_j ∈ IL(p_i)} PR(p_j) / OL(p_j)
//
// with IL(p_i) the pages linking to p_i and OL(p_j) the number of out-links
// of p_j. It also returns the iterations made.
//
// Our reading, where eq. 1 is silent:
//   - Eq. 1 as printed: a page without out-links passes its rank to no one,
//     so with such pages the ranks sum to less than 1 (they "leak"). We keep
//     that rather than the later convention of spreading dangling rank over
//     all pages: eq. 1 is what the paper clusters on, and only the relative
//     ranks matter to a clustering.
//   - A link listed twice counts twice in OL and in the sum, as a page with
//     two anchors to the same target gives it two shares; a self-link is a
//     link like any other.
//
// The iteration is a contraction with factor d, so it converges from any
// start; Rank is deterministic (fixed summation order, no math library
// calls), so natively and in WebAssembly it gives the same bits.
func Rank(links [][]int32, opt Options) ([]float64, int) {
	n := len(links)
	if n == 0 {
		return nil, 0
	}
	d := opt.Damping
	if d == 0 {
		d = DefaultDamping
	}
	tol := opt.Tol
	if tol == 0 {
		tol = 1e-12
	}
	maxIter := opt.MaxIter
	if maxIter == 0 {
		maxIter = 200
	}
	pr := make([]float64, n)
	next := make([]float64, n)
	for i := range pr {
		pr[i] = 1 / float64(n)
	}
	base := (1 - d) / float64(n)
	it := 0
	for it < maxIter {
		it++
		for i := range next {
			next[i] = base
		}
		for j, out := range links {
			if len(out) == 0 {
				continue
			}
			share := d * pr[j] / float64(len(out))
			for _, i := range out {
				next[i] += share
			}
		}
		var diff float64
		for i := range pr {
			x := next[i] - pr[i]
			if x < 0 {
				x = -x
			}
			diff += x
		}
		pr, next = next, pr
		if diff < tol {
			break
		}
	}
	return pr, it
}

// InLinks returns how many links point to each page: the "number of
// incoming links within the local repository" of §3.1.
func InLinks(links [][]int32) []int32 {
	in := make([]int32, len(links))
	for _, out := range links {
		for _, i := range out {
			in[i]++
		}
	}
	return in
}
