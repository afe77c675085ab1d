package cluster

import (
	"cmp"
	"math"
	"slices"
)

// ReclusterFit bounds the points a re-clustering with dynamic features is
// fitted on (a uniform sample of them; every point is then placed by
// descending the tree), so that it stays within the browser's speed budget
// on 300,000 pages.
const ReclusterFit = 1024

// Each re-clustering's bisections try one k-means++ initialisation and
// at most five 2-means passes: on tan-webarchive-small more trials or
// passes changed ChangeRatio by less than its 95% interval and cost up to
// twice the time.
const (
	reTrials = 1
	reIter   = 5
)

// reclusterer holds the scratch of re-clustering with dynamic features.
type reclusterer struct {
	space   rows64  // the points' float32 values, held as float64
	ids     []int32 // per point: micro-cluster
	changed []bool  // per point: does it stand for changed pages?
	page    []int32 // dynamic set: per point, its page (−1 for the unchanged)
	count   [2][]float64
	sum     []float64 // per micro-cluster: Σ standardised dynamic features of its changed pages
	leaf    []int32
	sim     []float64
	items   []int32
	assign  assigner
	cluster []int32 // per tree node: its cluster's number, or −1
	mean    []float64
	sd      []float64
	keep    []int
	start   []int32
	order   []int32
}

// reclusterNow clusters the pages on the feature set with the dynamic
// features the crawler's copies give now. The points clustered are:
//
//   - combined set: for each micro-cluster of the Codebook, one point for
//     its pages whose latest download found no change (their dynamic
//     features are all 0) and one for those whose latest download found a
//     change, with their mean dynamic features, each weighted by its
//     pages; the static part of both is the micro-cluster's centroid;
//   - dynamic set: one point for all the pages whose latest download found
//     no change, and one point per page whose latest download found a
//     change.
//
// Each dynamic feature is standardised over all pages (zeros included); a
// feature that is constant is left out. The clustering is repeated
// bisection into k clusters, fitted on at most ReclusterFit points; a
// page is in the cluster of its point, its similarity to the cluster's
// centroid is its point's, and a cluster's pages are ordered by that
// similarity, the pages of a micro-cluster in their order in it (nearest
// its own centroid first).
func (p *Policy) reclusterNow() {
	re := &p.re
	nd := len(DynamicNames)
	// Standardise the dynamic features: the pages without any count as 0.
	re.mean, re.sd, re.keep = resize(re.mean, nd), resize(re.sd, nd), re.keep[:0]
	clear(re.mean)
	clear(re.sd)
	for s := range p.dynPages {
		for j, x := range p.dynAt(s) {
			re.mean[j] += x
			re.sd[j] += x * x
		}
	}
	n := float64(p.n)
	for j := range nd {
		m := re.mean[j] / n
		v := re.sd[j]/n - m*m
		re.mean[j], re.sd[j] = m, 0
		if v > 1e-18 {
			re.sd[j] = math.Sqrt(v)
			re.keep = append(re.keep, j)
		}
	}
	rd := len(re.keep)
	d := &re.space
	d.W, d.Rows = d.W[:0], d.Rows[:0]
	re.ids, re.changed, re.page = re.ids[:0], re.changed[:0], re.page[:0]
	z0 := func() {
		for _, j := range re.keep {
			d.Rows = append(d.Rows, float64(float32(-re.mean[j]/re.sd[j])))
		}
	}
	if p.book != nil {
		m := p.book.M
		for s := range re.count {
			re.count[s] = resize(re.count[s], m)
			clear(re.count[s])
		}
		re.sum = resize(re.sum, m*rd)
		clear(re.sum)
		for g := range m {
			re.count[0][g] = float64(p.book.Start[g+1] - p.book.Start[g])
		}
		for s := range p.dynPages {
			g := int(p.dynG[s])
			re.count[0][g]--
			re.count[1][g]++
			v := p.dynAt(s)
			for q, j := range re.keep {
				re.sum[g*rd+q] += (v[j] - re.mean[j]) / re.sd[j]
			}
		}
		// Each point's row: its micro-cluster's centroid, then its
		// dynamic features. (Two points share a centroid at most, so a
		// table block would save nothing.)
		for g := range m {
			for side := range 2 {
				c := re.count[side][g]
				if c == 0 {
					continue
				}
				re.ids = append(re.ids, int32(g))
				re.changed = append(re.changed, side == 1)
				d.W = append(d.W, c)
				for _, x := range p.book.Rows[g*p.book.Dim : (g+1)*p.book.Dim] {
					d.Rows = append(d.Rows, float64(float32(x)))
				}
				if side == 0 {
					z0()
					continue
				}
				for q := range rd {
					d.Rows = append(d.Rows, float64(float32(re.sum[g*rd+q]/c)))
				}
			}
		}
	} else {
		if unchanged := p.n - len(p.dynPages); unchanged > 0 {
			re.ids, re.changed, re.page = append(re.ids, 0), append(re.changed, false), append(re.page, -1)
			d.W = append(d.W, float64(unchanged))
			z0()
		}
		for s, pg := range p.dynPages {
			re.ids, re.changed, re.page = append(re.ids, 0), append(re.changed, true), append(re.page, pg)
			d.W = append(d.W, 1)
			v := p.dynAt(s)
			for _, j := range re.keep {
				d.Rows = append(d.Rows, float64(float32((v[j]-re.mean[j])/re.sd[j])))
			}
		}
	}
	np := len(re.ids)
	d.n, d.RowDim = np, rd
	if p.book != nil {
		d.RowDim += p.book.Dim
	}
	d.finish()
	// How many clusters.
	k := p.k
	if k == 0 {
		if p.kChosen == 0 {
			p.kChosen = CrossValidate(d, p.folds, min(p.kMax, np), Options{Seed: RBCSeed}).Best
		}
		k = p.kChosen
	}
	t := Bisect(d, sampleOf(np, ReclusterFit), Options{K: k, Seed: RBCSeed, Trials: reTrials, MaxIter: reIter})
	re.leaf, re.sim = resizeInt32(re.leaf, np), resize(re.sim, np)
	re.items = resizeInt32(re.items, np)
	for i := range re.items {
		re.items[i] = int32(i)
	}
	t.assign(&re.assign, d, re.items, t.K(), re.leaf, re.sim)
	// Number the clusters in node order and sort each one's points by
	// similarity (ties to the earlier point): place the points by cluster
	// in index order (a counting sort), then sort each cluster's.
	re.cluster = resizeInt32(re.cluster, len(t.Nodes))
	kk := 0
	for i := range t.Nodes {
		re.cluster[i] = -1
		if t.isLeaf(int32(i), t.K()) {
			re.cluster[i] = int32(kk)
			kk++
		}
	}
	re.start = resizeInt32(re.start, kk+1)
	clear(re.start)
	for i, l := range re.leaf {
		c := re.cluster[l]
		re.leaf[i] = c // from now on, the cluster's number
		re.start[c+1]++
	}
	for c := range kk {
		re.start[c+1] += re.start[c]
	}
	// re.order's first kk entries serve as each cluster's next slot.
	re.order = append(re.order[:0], re.start[:kk]...)
	for i, c := range re.leaf {
		re.items[re.order[c]] = int32(i)
		re.order[c]++
	}
	for r := range kk {
		slices.SortFunc(re.items[re.start[r]:re.start[r+1]], func(a, b int32) int {
			if c := cmp.Compare(re.sim[b], re.sim[a]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
	}
	// Expand the points into pages (re.start becomes the clusters' starts
	// in pages).
	if cap(re.order) < p.n {
		re.order = make([]int32, 0, p.n)
	}
	re.order = re.order[:0]
	cur := -1
	for _, i := range re.items {
		r := int(re.leaf[i])
		for cur < r {
			cur++
			re.start[cur] = int32(len(re.order))
		}
		sim := float32(re.sim[i])
		if p.book == nil {
			if pg := re.page[i]; pg >= 0 {
				re.order = append(re.order, pg)
				p.sim[pg] = sim
				continue
			}
			for _, pg := range p.tie {
				if p.dynBit[pg>>6]&(1<<(pg&63)) == 0 { // not in dynPages
					re.order = append(re.order, pg)
					p.sim[pg] = sim
				}
			}
			continue
		}
		// The micro-cluster's pages on the point's side, in order (each
		// page is written and kept only if it is on that side: no branch
		// on sides that are as good as random to a branch predictor).
		g := re.ids[i]
		want := re.changed[i]
		lo, hi := p.book.Start[g], p.book.Start[g+1]
		re.order = slices.Grow(re.order, int(hi-lo))
		n := len(re.order)
		out := re.order[n : n+int(hi-lo)]
		m := 0
		for j, pg := range p.book.Order[lo:hi] {
			out[m] = pg
			m += b2i(p.inD[int(lo)+j] == want)
		}
		re.order = re.order[:n+m]
		for _, pg := range out[:m] {
			p.sim[pg] = sim
		}
	}
	for cur < kk {
		cur++
		re.start[cur] = int32(len(re.order))
	}
	p.setOrder(kk, re.order, re.start)
}

// dynAt returns the raw dynamic features of the page in slot s of
// dynPages.
func (p *Policy) dynAt(s int) []float64 {
	nd := len(DynamicNames)
	return p.dyn[s*nd : (s+1)*nd]
}

// sampleOf returns every one of n points up to m, else a uniform sample
// of m of them (drawn with RBCSeed), in index order; nil means all.
func sampleOf(n, m int) []int32 {
	if n <= m {
		return nil
	}
	idx := allPoints(n)
	rng := newRNG(RBCSeed, 0x5A3)
	for j := range m {
		q := j + rng.IntN(n-j)
		idx[j], idx[q] = idx[q], idx[j]
	}
	idx = idx[:m]
	slices.Sort(idx)
	return idx
}

func resize(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

func resizeInt32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}
