package sampling

import (
	"fmt"
	"math"
	"slices"

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
// C(K,x)·C(n−K,z−x)/C(n,z), and sometimes ranks the sites wrongly.
// ExpectGroups sums over every combination of sample outcomes and every
// order of the sites (the policy's tie-breaker).
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
	groups := make([]Group, ns)
	for w := range ns {
		pages := d.SitePages(w)
		g := Group{Pages: len(pages), Sample: min(sampleSize, len(pages))}
		for _, p := range pages {
			if changed[p] {
				g.Changed++
			}
		}
		groups[w] = g
	}
	return ExpectGroups(groups, budget, alloc, nil)
}

// Group is one group of pages (a site, a category) in one cycle, for
// ExpectGroups.
type Group struct {
	Pages   int // n: pages in the group
	Changed int // K: how many of them changed in the cycle
	Sample  int // z: pages sampled from it, at most Pages
}

// ExpectGroups returns the exact expected ChangeRatio of one cycle of
// sampling over disjoint groups: each group's z-page sample is a uniform
// random sample without replacement, the groups are ranked by score(g, x)
// (x the changed pages in group g's sample; nil means x/z, the sample's
// change fraction) with ties in a uniformly random order, and the budget
// left after the samples is shared by Plan.Share with alloc.
//
// It sums over every combination of sample outcomes (hypergeometric) and
// every order of the groups that can change the allocation (Plan.Share
// reports which groups' order broke a tie that mattered: for Greedy, a
// block of equal estimates where the budget runs out; for Proportional,
// after a tie for the last unit of a largest-remainder split, the groups
// that were split among; only their orders are averaged), computes the
// allocation the policy would make,
// and counts the changed pages it would find in expectation: x_g in each
// sample and quota_g·(K_g−x_g)/(n_g−z_g) among the quota_g unsampled pages
// it downloads from group g. It refuses more than 6 groups, more than
// MaxExpectWork cases, and budgets that cannot pay for every sample.
func ExpectGroups(groups []Group, budget int, alloc Allocation, score func(g, x int) float64) (float64, error) {
	ns := len(groups)
	if ns == 0 || ns > 6 {
		return math.NaN(), fmt.Errorf("exact expectation needs 1 to 6 groups, got %d", ns)
	}
	n := make([]int, ns) // pages per group
	k := make([]int, ns) // changed pages per group
	z := make([]int, ns) // sample size per group
	pmf := make([][]float64, ns)
	lo := make([]int, ns)
	work, sampleTotal := float64(factorial(ns)), 0
	for w, g := range groups {
		if g.Pages < 0 || g.Changed < 0 || g.Changed > g.Pages || g.Sample < 0 || g.Sample > g.Pages {
			return math.NaN(), fmt.Errorf("group %d: %d changed and %d sampled of %d pages", w, g.Changed, g.Sample, g.Pages)
		}
		n[w], k[w], z[w] = g.Pages, g.Changed, g.Sample
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
	// est[w][i] is group w's score with lo[w]+i changed pages in its
	// sample, looked up rather than computed for every outcome.
	est := make([][]float64, ns)
	for w := range ns {
		if z[w] == 0 {
			continue
		}
		est[w] = make([]float64, len(pmf[w]))
		for i := range est[w] {
			if score == nil {
				est[w][i] = float64(lo[w]+i) / float64(z[w])
			} else {
				est[w][i] = score(w, lo[w]+i)
			}
		}
	}

	plan := NewPlan(ns)
	x := make([]int, ns)
	// value is the ChangeRatio of the outcome x with the groups in
	// plan.Order (before Share sorts it).
	value := func() float64 {
		found, downloads := 0.0, 0
		for v := range ns {
			plan.Left[v] = n[v] - z[v]
			plan.Est[v] = -1
			if z[v] > 0 {
				plan.Est[v] = est[v][x[v]-lo[v]]
			}
			found += float64(x[v])
			downloads += z[v]
		}
		plan.Share(alloc, budget-sampleTotal)
		for v := range ns {
			if q := plan.Quota[v]; q > 0 {
				found += float64(q) * float64(k[v]-x[v]) / float64(n[v]-z[v])
				downloads += q
			}
		}
		if downloads == 0 {
			return 0
		}
		return found / float64(downloads)
	}
	perms := make([][][]int, ns+1) // every order of m things, made when first needed
	orders := func(m int) [][]int {
		if perms[m] == nil {
			perms[m] = permutations(m)
		}
		return perms[m]
	}
	block := make([]int, 0, ns) // the groups whose order decides
	at := make([]int, 0, ns)    // their positions in sorted
	sorted := make([]int, ns)
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
		// The groups in a random order are the policy's tie-breaker. Share
		// says which groups' order decided anything; only their orders are
		// averaged over, each as likely as the others, the rest kept in
		// the order Share left (Greedy sorts Order by estimate, and its
		// stable sort keeps whatever order the tied groups are put in).
		for v := range plan.Order {
			plan.Order[v] = v
		}
		e := value()
		if dec := plan.decided(); len(dec) > 1 {
			copy(sorted, plan.Order)
			block = append(block[:0], dec...)
			at = at[:0]
			for i, v := range sorted {
				if slices.Contains(block, v) {
					at = append(at, i)
				}
			}
			e = 0
			for _, o := range orders(len(block)) {
				copy(plan.Order, sorted)
				for i, j := range o {
					plan.Order[at[i]] = block[j]
				}
				e += value()
			}
			e /= float64(len(orders(len(block))))
		}
		expect += prob * e
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
