package sampling

import (
	"fmt"
	"math"

	"github.com/refreshlab/refreshlab/core/dataset"
)

// MaxExpectWork bounds the enumeration of ExpectedChangeRatio: sample
// outcomes × site orders.
const MaxExpectWork = 4_000_000

// ExpectedChangeRatio returns the exact expected ChangeRatio of one cycle
// (the dataset's first) of site sampling with the given allocation, budget
// and per-site sample size: what the simulation's mean converges to.
//
// The papers' worked examples (Taleghani §2.3.1: 0.66; Al-Qaaideh §2.5.4:
// 56 changed pages) assume each sample shows its site's true change
// fraction. A real sample of z pages from a site of n pages, K of them
// changed, shows x changed pages with the hypergeometric probability
// C(K,x)·C(n−K,z−x)/C(n,z), and sometimes ranks the sites wrongly. This
// function sums over every combination of sample outcomes and every order of
// the sites (the policy's tie-breaker), computes the allocation the policy
// would make, and counts the changed pages it would find in expectation:
// x_w in each sample and quota_w·(K_w−x_w)/(n_w−z_w) among the quota_w
// unsampled pages it downloads from site w.
//
// It enumerates, so it refuses datasets with more than 6 sites or more than
// MaxExpectWork cases, and budgets that cannot pay for every sample.
func ExpectedChangeRatio(d *dataset.Dataset, budget, sampleSize int, alloc Allocation) (float64, error) {
	ns := len(d.Sites)
	if ns == 0 || ns > 6 {
		return math.NaN(), fmt.Errorf("exact expectation needs 1 to 6 sites, the dataset has %d", ns)
	}
	if d.Truth.Cycles() == 0 {
		return math.NaN(), fmt.Errorf("the dataset has no cycles")
	}
	changed := make([]bool, len(d.Pages))
	for _, p := range d.Truth.Changed[0] {
		changed[p] = true
	}
	n := make([]int, ns) // pages per site
	k := make([]int, ns) // changed pages per site
	z := make([]int, ns) // sample size per site
	pmf := make([][]float64, ns)
	lo := make([]int, ns)
	work, sampleTotal := float64(factorial(ns)), 0
	for w := range ns {
		pages := d.SitePages(w)
		n[w] = len(pages)
		for _, p := range pages {
			if changed[p] {
				k[w]++
			}
		}
		z[w] = min(sampleSize, n[w])
		sampleTotal += z[w]
		lo[w] = max(0, z[w]-(n[w]-k[w]))
		pmf[w] = hypergeometric(n[w], k[w], z[w])
		work *= float64(len(pmf[w]))
	}
	if sampleTotal > budget {
		return math.NaN(), fmt.Errorf("the budget of %d cannot pay for samples of %d pages", budget, sampleTotal)
	}
	if work > MaxExpectWork {
		return math.NaN(), fmt.Errorf("%.0f cases to enumerate exceed the limit of %d", work, MaxExpectWork)
	}

	s := &Site{
		alloc: alloc, pages: make([][]int32, ns), order: make([]int, ns), sampled: make([]int, ns),
		changed: make([]int, ns), est: make([]float64, ns), quota: make([]int, ns), add: make([]int, ns),
	}
	for w := range ns {
		s.pages[w] = make([]int32, n[w])
	}
	orders := permutations(ns)
	x := make([]int, ns)
	var expect float64
	var visit func(w int, prob float64)
	visit = func(w int, prob float64) {
		if w < ns {
			for i, p := range pmf[w] {
				x[w] = lo[w] + i
				visit(w+1, prob*p)
			}
			return
		}
		var sum float64
		for _, o := range orders {
			copy(s.order, o)
			found, downloads := 0.0, 0
			for v := range ns {
				s.sampled[v] = z[v]
				s.est[v] = -1
				if z[v] > 0 {
					s.est[v] = float64(x[v]) / float64(z[v])
				}
				found += float64(x[v])
				downloads += z[v]
			}
			s.plan(budget - sampleTotal)
			for v := range ns {
				if q := s.quota[v]; q > 0 {
					found += float64(q) * float64(k[v]-x[v]) / float64(n[v]-z[v])
					downloads += q
				}
			}
			if downloads > 0 {
				sum += found / float64(downloads)
			}
		}
		expect += prob * sum / float64(len(orders))
	}
	visit(0, 1)
	return expect, nil
}

// hypergeometric returns the probabilities that a sample of z pages drawn
// without replacement from n pages, k of them changed, holds x changed ones,
// for x from max(0, z−(n−k)) to min(z, k). It walks the ratio
// P(x+1)/P(x) = (k−x)(z−x) / ((x+1)(n−k−z+x+1)) and normalises, using only
// multiplication and division, so the result is the same to the last bit
// natively and in WebAssembly (whose math.Exp differs from amd64's).
func hypergeometric(n, k, z int) []float64 {
	lo, hi := max(0, z-(n-k)), min(z, k)
	p := make([]float64, hi-lo+1)
	p[0] = 1
	sum := 1.0
	for x := lo; x < hi; x++ {
		r := float64((k-x)*(z-x)) / float64((x+1)*(n-k-z+x+1))
		p[x-lo+1] = p[x-lo] * r
		sum += p[x-lo+1]
		if sum > 1e250 { // keep far from overflow on large sites
			for i := range p[:x-lo+2] {
				p[i] /= sum
			}
			sum = 1
		}
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}

func factorial(n int) int {
	f := 1
	for i := 2; i <= n; i++ {
		f *= i
	}
	return f
}

// permutations returns every order of 0..n-1.
func permutations(n int) [][]int {
	var out [][]int
	perm := make([]int, n)
	used := make([]bool, n)
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			out = append(out, append([]int(nil), perm...))
			return
		}
		for v := range n {
			if !used[v] {
				used[v] = true
				perm[i] = v
				rec(i + 1)
				used[v] = false
			}
		}
	}
	rec(0)
	return out
}
