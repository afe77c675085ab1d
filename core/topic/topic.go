// Package topic finds the topics a page has a reputation on, by TOPIC's
// reputation ranks (Rafiei & Mendelzon, "What is this page known for?",
// 2000), as Taleghani & Ugur-Ozekinci §3.1.1 give them in Algorithm 1, and
// assigns each page to its top k topics (§3.1.1, Algorithm 2; §5.4): the
// categories that category sampling samples.
//
// A topic is a term. R(p,t) is the probability that a surfer who follows
// links, and with probability d jumps to a random page containing t,
// visits p: a PageRank personalised to term t. A page gets a high rank on t
// when pages containing t link to it, whether or not it contains t itself.
package topic

import (
	"errors"
	"fmt"
	"math"
)

// Defaults of Options.
const (
	// DefaultDamping is d, the random jump's probability: PageRank's 0.15
	// (a damping factor of 0.85).
	DefaultDamping = 0.15
	// DefaultTolerance stops a term's iteration when the L1 norm of its
	// ranks' change is at most this share of their L1 norm.
	DefaultTolerance = 1e-6
	// DefaultMaxIter caps the iterations per term.
	DefaultMaxIter = 1000
)

// Options tune Rank. The zero value means the defaults.
type Options struct {
	// Damping is Algorithm 1's d, in (0, 1].
	Damping float64
	// Tolerance ends the iteration for term t once
	// Σ_p |R_new(p,t) − R(p,t)| ≤ Tolerance · Σ_p R_new(p,t). Each
	// iteration is a contraction by 1 − d in the L1 norm, so the ranks are
	// then within (1 − d)/d · Tolerance (relative, L1) of the fixed point.
	Tolerance float64
	// MaxIter caps the iterations; a term that reaches it without meeting
	// the tolerance keeps its last ranks and is counted in
	// Ranking.Unconverged.
	MaxIter int
	// InLinks, when positive, is how many of a page's in-links its rank is
	// pulled from: the first InLinks, in ascending order of the linking
	// page for Rank and in crawl order for CrawlRank. Taleghani &
	// Ugur-Ozekinci §5.1 (Table 2) limit "the number of in-links that are
	// considered for each page" to between 10 and 300. The linking page's
	// out-links O(q) still count all of its links, so rank sent along a
	// link left out is lost. 0 takes every in-link.
	InLinks int
}

func (o Options) withDefaults() Options {
	if o.Damping == 0 {
		o.Damping = DefaultDamping
	}
	if o.Tolerance == 0 {
		o.Tolerance = DefaultTolerance
	}
	if o.MaxIter == 0 {
		o.MaxIter = DefaultMaxIter
	}
	return o
}

// Ranking holds, for each page, its highest reputation ranks: up to Keep
// terms, highest rank first, ties in ascending term order. Terms with rank
// 0 at a page are never kept.
type Ranking struct {
	Pages, Terms, Keep int
	start              []int32 // page p's terms are term[start[p]:start[p+1]]
	term               []int32
	rank               []float64
	// Iterations[t] is how many iterations term t took.
	Iterations []int
	// Unconverged counts the terms that reached MaxIter.
	Unconverged int
}

// Top returns page p's kept terms, highest rank first, and their ranks.
// The slices are shared: callers must not modify them.
func (r *Ranking) Top(p int) (terms []int32, ranks []float64) {
	a, b := r.start[p], r.start[p+1]
	return r.term[a:b], r.rank[a:b]
}

// Categories returns, for each term t, the pages that have t among their
// k highest-ranked terms, in ascending page order: the categories of
// Algorithm 2 ("each page to its top k topics"). A page with fewer than k
// terms of positive rank is in fewer categories; a page with none is in
// none. k is capped at Keep.
func (r *Ranking) Categories(k int) [][]int32 {
	k = min(k, r.Keep)
	count := make([]int, r.Terms)
	for p := range r.Pages {
		ts, _ := r.Top(p)
		for _, t := range ts[:min(k, len(ts))] {
			count[t]++
		}
	}
	total := 0
	for _, c := range count {
		total += c
	}
	flat := make([]int32, total) // one allocation for every category
	cats := make([][]int32, r.Terms)
	off := 0
	for t, c := range count {
		cats[t] = flat[off : off : off+c]
		off += c
	}
	for p := range r.Pages {
		ts, _ := r.Top(p)
		for _, t := range ts[:min(k, len(ts))] {
			cats[t] = append(cats[t], int32(p))
		}
	}
	return cats
}

// Rank computes the reputation ranks R(p,t) of every page p on every term t
// by Algorithm 1 of Taleghani & Ugur-Ozekinci (after Rafiei & Mendelzon)
// and keeps each page's keep highest. links[q] lists page q's out-links;
// terms[p] lists the distinct terms page p contains, each in [0, numTerms).
//
// For each term t, with N_t the number of pages containing t and O(q) the
// out-links of q:
//
//	R(p,t) = 1/N_t if t appears in p, else 0            (lines 1-7)
//	repeat until converged:                             (lines 8-15)
//	    R'(p,t) = Σ_{q→p} R(q,t)/O(q)
//	    R(p,t)  = (1−d)·R'(p,t) + (d/N_t if t appears in p)
//
// Our readings, where the algorithm as printed leaves a choice:
//
//   - A page without out-links (O(q) = 0) passes its rank to nobody: line
//     11 has no link to follow, so rank "leaks" and Σ_p R(p,t) < 1 at the
//     fixed point. We keep that, as printed, rather than PageRank's usual
//     fix of spreading it over the teleport set; the fixed point still
//     exists and is unique (each step contracts by 1 − d).
//   - "Until converged" is Options.Tolerance on the L1 change, term by
//     term, with Options.MaxIter as a cap.
//   - A link listed twice counts twice in O(q) and in the sum, as given.
//
// Terms are iterated in blocks of up to 32 whose ranks sit side by side in
// each page's row, so one pass over the links moves them all; a block runs
// until its slowest term has converged (the others only get closer to
// their fixed point). Iterations[t] records when term t first met the
// tolerance. The input (each page's terms, the links) and the output (each
// page's top terms) are sparse; a block holds 2·32 ranks per page while it
// runs. Floating-point sums run in a fixed order, so the result is the same
// on every platform without fused multiply-adds (amd64 and WebAssembly).
func Rank(links, terms [][]int32, numTerms, keep int, opt Options) (*Ranking, error) {
	opt = opt.withDefaults()
	if err := validate(links, terms, numTerms, keep, opt); err != nil {
		return nil, err
	}
	n := len(terms)
	// The pages containing each term (an inverted index), in page order.
	holders := make([]int32, numTerms+1)
	for _, ts := range terms {
		for _, t := range ts {
			holders[t+1]++
		}
	}
	for t := range numTerms {
		holders[t+1] += holders[t]
	}
	inv := make([]int32, holders[numTerms])
	fill := append([]int32(nil), holders[:numTerms]...)
	for p, ts := range terms {
		for _, t := range ts {
			inv[fill[t]] = int32(p)
			fill[t]++
		}
	}

	r := &Ranking{Pages: n, Terms: numTerms, Keep: keep, Iterations: make([]int, numTerms)}
	top := newTopList(n, keep)
	blk := newBlock(n, min(numTerms, blockTerms))
	in := newInLinks(links, n)
	for t0 := 0; t0 < numTerms; t0 += blockTerms {
		t1 := min(numTerms, t0+blockTerms)
		has := make([][]int32, t1-t0)
		for t := t0; t < t1; t++ {
			has[t-t0] = inv[holders[t]:holders[t+1]]
		}
		blk.run(links, in, has, opt, r.Iterations[t0:t1])
		b := t1 - t0
		for p := range n {
			for j, x := range blk.cur[p*b : p*b+b] {
				if x > 0 {
					top.offer(int32(p), int32(t0+j), x)
				}
			}
		}
	}
	for t, it := range r.Iterations {
		if it > opt.MaxIter {
			r.Iterations[t] = opt.MaxIter
			r.Unconverged++
		}
	}
	r.start, r.term, r.rank = top.compact()
	return r, nil
}

// validate checks Rank's and CrawlRank's input.
func validate(links, terms [][]int32, numTerms, keep int, opt Options) error {
	if !(opt.Damping > 0 && opt.Damping <= 1) {
		return fmt.Errorf("topic: damping %v outside (0, 1]", opt.Damping)
	}
	if !(opt.Tolerance > 0) || opt.MaxIter < 1 {
		return errors.New("topic: tolerance must be positive and MaxIter at least 1")
	}
	if keep < 1 {
		return fmt.Errorf("topic: keep %d terms per page, want at least 1", keep)
	}
	if opt.InLinks < 0 {
		return fmt.Errorf("topic: %d in-links per page, want 0 (all) or more", opt.InLinks)
	}
	n := len(terms)
	if links != nil && len(links) != n {
		return fmt.Errorf("topic: %d link lists for %d pages", len(links), n)
	}
	for p, ts := range terms {
		for _, t := range ts {
			if t < 0 || int(t) >= numTerms {
				return fmt.Errorf("topic: page %d has term %d, outside [0, %d)", p, t, numTerms)
			}
		}
	}
	for q, out := range links {
		for _, p := range out {
			if p < 0 || int(p) >= n {
				return fmt.Errorf("topic: page %d links to page %d, outside [0, %d)", q, p, n)
			}
		}
	}
	return nil
}

// blockTerms is how many terms Rank iterates together: their ranks sit
// side by side in each page's row, so one pass over the links moves all
// of them, which is much faster than a pass per term.
const blockTerms = 32

// block iterates the ranks of up to blockTerms terms at once, over dense
// page × term rows.
type block struct {
	n         int
	cur, next []float64 // R(p, t0+j) at cur[p·b + j]
	share     []float64 // R(q, t0+j)/O(q)
	diff      []float64
	norm      []float64
}

func newBlock(n, b int) *block {
	return &block{n: n, cur: make([]float64, n*b), next: make([]float64, n*b), share: make([]float64, n*b), diff: make([]float64, b), norm: make([]float64, b)}
}

// inLinks lists each page's in-links: page p is linked from
// from[start[p]:start[p+1]], in ascending order of the linking page (a
// page linking twice is listed twice).
type inLinks struct {
	start, from []int32
}

func newInLinks(links [][]int32, n int) inLinks {
	in := inLinks{start: make([]int32, n+1)}
	for _, out := range links {
		for _, p := range out {
			in.start[p+1]++
		}
	}
	for p := range n {
		in.start[p+1] += in.start[p]
	}
	in.from = make([]int32, in.start[n])
	fill := append([]int32(nil), in.start[:n]...)
	for q, out := range links {
		for _, p := range out {
			in.from[fill[p]] = int32(q)
			fill[p]++
		}
	}
	return in
}

// run iterates Algorithm 1 for the terms held by the pages has[j]
// (ascending) until every one has converged or opt.MaxIter is reached,
// leaving R in cur (b = len(has) values per page). iters[j] gets the
// iteration at which term j first met the tolerance, or MaxIter+1 if it
// never did. Terms that converge early keep iterating with the others,
// which only brings them closer to the fixed point.
func (k *block) run(links [][]int32, in inLinks, has [][]int32, opt Options, iters []int) {
	b := len(has)
	cur, next := k.cur[:k.n*b], k.next[:k.n*b]
	clear(cur)
	jump := make([]float64, b)
	left := 0
	for j, ps := range has {
		iters[j] = 0
		if len(ps) == 0 {
			continue // no page holds the term: its ranks stay 0
		}
		nt := float64(len(ps))
		jump[j] = opt.Damping / nt
		for _, p := range ps {
			cur[int(p)*b+j] = 1 / nt
		}
		left++
	}
	keep := 1 - opt.Damping
	share := k.share[:k.n*b]
	for it := 1; it <= opt.MaxIter && left > 0; it++ {
		// R(q)/O(q) for every page q; a page without out-links passes
		// nothing on (its rank leaks).
		for q, out := range links {
			row, src := share[q*b:][:b], cur[q*b:][:b]
			if len(out) == 0 {
				clear(row)
				continue
			}
			o := float64(len(out))
			for j := range row {
				row[j] = src[j] / o
			}
		}
		// R'(p) = Σ_{q→p} R(q)/O(q), pulled over p's in-links in
		// ascending q, then (1 − d)·R'.
		var acc [blockTerms]float64
		for p := 0; p < k.n; p++ {
			sum := acc[:b]
			clear(sum)
			from := in.from[in.start[p]:in.start[p+1]]
			if opt.InLinks > 0 && len(from) > opt.InLinks {
				from = from[:opt.InLinks]
			}
			for _, q := range from {
				row := share[int(q)*b:][:len(sum)]
				for j := range sum {
					sum[j] += row[j]
				}
			}
			dst := next[p*b:][:len(sum)]
			for j := range dst {
				dst[j] = sum[j] * keep
			}
		}
		for j, ps := range has {
			for _, p := range ps {
				next[int(p)*b+j] += jump[j]
			}
		}
		diff, norm := k.diff[:b], k.norm[:b]
		clear(diff)
		clear(norm)
		for p := 0; p < k.n; p++ {
			row, old := next[p*b:][:b], cur[p*b:][:b]
			diff, norm := diff[:len(row)], norm[:len(row)]
			for j := range row {
				diff[j] += math.Abs(row[j] - old[j])
				norm[j] += row[j]
			}
		}
		cur, next = next, cur
		for j := range has {
			if iters[j] == 0 && len(has[j]) > 0 && diff[j] <= opt.Tolerance*norm[j] {
				iters[j] = it
				left--
			}
		}
	}
	for j := range has {
		if iters[j] == 0 && len(has[j]) > 0 {
			iters[j] = opt.MaxIter + 1
		}
	}
	k.cur, k.next = cur[:cap(cur)], next[:cap(next)]
}

// topList keeps each page's best terms, highest rank first and ties by
// ascending term, in fixed-size slots.
type topList struct {
	keep  int
	count []int32
	term  []int32
	rank  []float64
}

func newTopList(n, keep int) *topList {
	return &topList{keep: keep, count: make([]int32, n), term: make([]int32, n*keep), rank: make([]float64, n*keep)}
}

// offer adds term t with rank x to page p's list if it is among the best.
// Terms arrive in ascending order, so an equal rank goes after the ones
// already kept.
func (l *topList) offer(p, t int32, x float64) {
	base := int(p) * l.keep
	c := int(l.count[p])
	if c == l.keep && !(x > l.rank[base+c-1]) {
		return
	}
	if c < l.keep {
		c++
		l.count[p] = int32(c)
	}
	i := c - 1 // shift worse entries down to make room
	for i > 0 && x > l.rank[base+i-1] {
		l.term[base+i], l.rank[base+i] = l.term[base+i-1], l.rank[base+i-1]
		i--
	}
	l.term[base+i], l.rank[base+i] = t, x
}

// compact returns the lists in CSR form.
func (l *topList) compact() (start, term []int32, rank []float64) {
	n := len(l.count)
	start = make([]int32, n+1)
	for p, c := range l.count {
		start[p+1] = start[p] + c
	}
	term = make([]int32, start[n])
	rank = make([]float64, start[n])
	for p, c := range l.count {
		copy(term[start[p]:start[p+1]], l.term[p*l.keep:p*l.keep+int(c)])
		copy(rank[start[p]:start[p+1]], l.rank[p*l.keep:p*l.keep+int(c)])
	}
	return start, term, rank
}
