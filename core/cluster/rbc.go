package cluster

import (
	"math"
	"math/rand/v2"
)

// Options controls repeated bisection.
type Options struct {
	// K is the number of clusters wanted. Bisection stops earlier when no
	// cluster can be split any more (all its points alike).
	K int
	// Trials is how many random initialisations each bisection tries,
	// keeping the best (CLUTO's "ntrials"); 0 means 2.
	Trials int
	// MaxIter bounds the 2-means iterations of a trial; 0 means 10.
	MaxIter int
	// FitSample is how many of a cluster's points the trials fit on: a
	// uniform sample, so that bisecting 300,000 pages stays fast; 0 means
	// 256, negative means every point.
	FitSample int
	// Refine is how many 2-means passes over all of the cluster's points
	// follow the trials when they fitted a sample (stopping early when no
	// point moves); 0 means 2.
	Refine int
	// Seed seeds the initialisations. A clustering depends only on its
	// points and Seed.
	Seed uint64
}

func (o Options) withDefaults() Options {
	if o.K <= 0 {
		o.K = 1
	}
	if o.Trials <= 0 {
		o.Trials = 2
	}
	if o.MaxIter <= 0 {
		o.MaxIter = 10
	}
	if o.FitSample == 0 {
		o.FitSample = 256
	}
	if o.Refine <= 0 {
		o.Refine = 2
	}
	return o
}

// Node is a cluster of the bisection tree: the root holds every point, and
// each split replaces a leaf by its two halves.
type Node struct {
	Parent   int32
	Child    [2]int32  // -1 while the node is a leaf
	Step     int32     // the split that made it (0 for the root: made before any split)
	Centroid []float64 // unit direction of its points' sum (zero if they sum to 0)
	Weight   float64   // pages in it
	// Tau is ‖Σ x‖ over its points: Σ_p cos(p, C), its share of the
	// criterion τ of eq. 2.
	Tau    float64
	lo, hi int // its points in Tree.perm
	// A leaf's tentative bisection, found when the leaf was made.
	gain     float64
	mid      int
	cent     [2][]float64
	tau      [2]float64
	weight   [2]float64
	splitted bool
}

// Tree is a repeated-bisection clustering (RBC, Karypis' CLUTO; Tan et al.
// §3.3): starting from one cluster holding every point, it repeatedly
// bisects the cluster whose bisection most increases the criterion
//
//	τ = Σ_r Σ_{p ∈ S_r} cos(p, C_r)        (eq. 2 and 3)
//
// until there are K clusters. For unit vectors Σ_{p∈S} cos(p, C) is the
// length of the sum of S's vectors (CLUTO's I2 criterion), so a bisection
// of S into L and R gains ‖Σ_L‖ + ‖Σ_R‖ − ‖Σ_S‖ ≥ 0.
//
// Each bisection is spherical 2-means (cosine similarity on unit vectors):
// Trials initialisations (k-means++ seeding, see init) on a uniform sample
// of at most FitSample points, each iterated until no point changes side
// or MaxIter passes, keep the split with the largest I2 on the sample;
// then Refine passes over all of the cluster's points. Ties (a point as
// similar to both centroids) go to the first half. Each cluster draws from
// its own PCG stream (Seed, node index), so the result does not depend on
// the order of the work and is the same natively and in WebAssembly.
type Tree struct {
	Nodes []Node
	// Splits lists the split nodes in the order they were split: after
	// the first j splits there are j+1 clusters (the k-way solution of a
	// nested sequence, so one tree serves every k ≤ its leaves).
	Splits []int32
	perm   []int32 // the points, grouped by leaf
	space  Space
	opt    Options
}

// Bisect clusters the points idx of s (every point when idx is nil) into
// at most opt.K clusters.
func Bisect(s Space, idx []int32, opt Options) *Tree {
	opt = opt.withDefaults()
	if idx == nil {
		idx = make([]int32, s.Len())
		for i := range idx {
			idx[i] = int32(i)
		}
	} else {
		idx = append([]int32(nil), idx...)
	}
	t := &Tree{perm: idx, space: s, opt: opt}
	b := newBisector(s, opt)
	root := Node{Parent: -1, Child: [2]int32{-1, -1}, lo: 0, hi: len(idx)}
	c := make([]float64, s.Dim())
	s.Sum(idx, c)
	root.Tau = norm(c)
	root.Centroid = unit(c)
	for _, i := range idx {
		root.Weight += s.Weight(i)
	}
	t.Nodes = append(t.Nodes, root)
	b.tentative(t, 0)
	for leaves := 1; leaves < opt.K; leaves++ {
		best := int32(-1)
		for i := range t.Nodes {
			n := &t.Nodes[i]
			if n.Child[0] < 0 && n.splitted && (best < 0 || n.gain > t.Nodes[best].gain) {
				best = int32(i)
			}
		}
		if best < 0 {
			break
		}
		t.commit(best)
		b.tentative(t, len(t.Nodes)-2)
		b.tentative(t, len(t.Nodes)-1)
	}
	// Drop the tentative splits of the leaves: they are not part of the
	// result and hold memory.
	for i := range t.Nodes {
		n := &t.Nodes[i]
		n.cent = [2][]float64{}
	}
	return t
}

// commit makes node i's tentative bisection real.
func (t *Tree) commit(i int32) {
	n := &t.Nodes[i]
	step := int32(len(t.Splits) + 1)
	for side := range 2 {
		lo, hi := n.lo, n.mid
		if side == 1 {
			lo, hi = n.mid, n.hi
		}
		t.Nodes = append(t.Nodes, Node{
			Parent: i, Child: [2]int32{-1, -1}, Step: step,
			Centroid: n.cent[side], Weight: n.weight[side], Tau: n.tau[side], lo: lo, hi: hi,
		})
		n = &t.Nodes[i] // append may move the slice
		n.Child[side] = int32(len(t.Nodes) - 1)
	}
	n.cent = [2][]float64{}
	t.Splits = append(t.Splits, i)
}

// K returns the number of clusters of the full tree.
func (t *Tree) K() int { return len(t.Splits) + 1 }

// Leaves returns the nodes that are the clusters of the k-way solution
// (k ≤ t.K()), in node order.
func (t *Tree) Leaves(k int) []int32 {
	var out []int32
	for i := range t.Nodes {
		if t.isLeaf(int32(i), k) {
			out = append(out, int32(i))
		}
	}
	return out
}

// isLeaf reports whether node i is a cluster of the k-way solution: made
// by one of the first k−1 splits (or the root) and not split by them.
func (t *Tree) isLeaf(i int32, k int) bool {
	n := &t.Nodes[i]
	if int(n.Step) > k-1 {
		return false
	}
	c := n.Child[0]
	return c < 0 || int(t.Nodes[c].Step) > k-1
}

// Tau returns the criterion τ (eq. 2) of the k-way solution on the points
// the tree was built from.
func (t *Tree) Tau(k int) float64 {
	var tau float64
	for _, i := range t.Leaves(k) {
		tau += t.Nodes[i].Tau
	}
	return tau
}

// Members returns node i's points (those the tree was built from).
func (t *Tree) Members(i int32) []int32 {
	n := &t.Nodes[i]
	return t.perm[n.lo:n.hi]
}

// Assign places points idx of space s (which must have the tree's
// dimensions, e.g. the tree's own space) in the k-way solution by
// descending the tree: at each split a point follows the half whose
// centroid is more similar (the first half on a tie). It writes each
// point's cluster (node index) and its cosine similarity to that
// cluster's centroid into leaf and sim, and reorders idx by cluster.
func (t *Tree) Assign(s Space, idx []int32, k int, leaf []int32, sim []float64) {
	a := newAssigner(s, len(idx))
	o := make([]float64, len(idx))
	root := t.Nodes[0].Centroid
	s.Sims2(idx, root, root, o, a.o1)
	t.descend(a, s, 0, idx, o, k, leaf, sim)
}

type assigner struct {
	o0, o1 []float64
	tmp    []int32
	tmpS   []float64
}

func newAssigner(s Space, n int) *assigner {
	return &assigner{o0: make([]float64, n), o1: make([]float64, n), tmp: make([]int32, n), tmpS: make([]float64, n)}
}

// descend handles node i's points idx with their similarities cur to its
// centroid.
func (t *Tree) descend(a *assigner, s Space, i int32, idx []int32, cur []float64, k int, leaf []int32, sim []float64) {
	if len(idx) == 0 {
		return
	}
	n := &t.Nodes[i]
	if t.isLeaf(i, k) {
		for j, p := range idx {
			leaf[p], sim[p] = i, cur[j]
		}
		return
	}
	l, r := n.Child[0], n.Child[1]
	o0, o1 := a.o0[:len(idx)], a.o1[:len(idx)]
	s.Sims2(idx, t.Nodes[l].Centroid, t.Nodes[r].Centroid, o0, o1)
	// Stable partition: left points first, then right.
	nl := 0
	tmp, tmpS := a.tmp[:0], a.tmpS[:0]
	for j, p := range idx {
		if o1[j] > o0[j] {
			tmp = append(tmp, p)
			tmpS = append(tmpS, o1[j])
			continue
		}
		idx[nl], cur[nl] = p, o0[j]
		nl++
	}
	copy(idx[nl:], tmp)
	copy(cur[nl:], tmpS)
	t.descend(a, s, l, idx[:nl], cur[:nl], k, leaf, sim)
	t.descend(a, s, r, idx[nl:], cur[nl:], k, leaf, sim)
}

// bisector holds the scratch of the bisections.
type bisector struct {
	s          Space
	opt        Options
	o0, o1     []float64
	c          [2][]float64
	best       [2][]float64
	fit        []int32
	side, prev []bool
	l, r       []int32 // scratch for each side's points
	one        []int32
}

func newBisector(s Space, opt Options) *bisector {
	d := s.Dim()
	return &bisector{
		s: s, opt: opt,
		c:    [2][]float64{make([]float64, d), make([]float64, d)},
		best: [2][]float64{make([]float64, d), make([]float64, d)},
	}
}

func (b *bisector) grow(n int) {
	if cap(b.o0) < n {
		b.o0, b.o1 = make([]float64, n), make([]float64, n)
		b.side, b.prev = make([]bool, n), make([]bool, n)
	}
}

// tentative finds the bisection of leaf i and records it on the node,
// partitioning the leaf's points in t.perm into its two halves.
func (b *bisector) tentative(t *Tree, i int) {
	n := &t.Nodes[i]
	pts := t.perm[n.lo:n.hi]
	n.splitted = false
	if len(pts) < 2 {
		return
	}
	rng := rand.New(rand.NewPCG(b.opt.Seed, uint64(i)*0x9E3779B97F4A7C15+1))
	// The fit sample: the first FitSample points of a partial shuffle of
	// a copy (the leaf's own order stays as it is).
	fit := append(b.fit[:0], pts...)
	if m := b.opt.FitSample; m > 0 && len(fit) > m {
		for j := range m {
			q := j + rng.IntN(len(fit)-j)
			fit[j], fit[q] = fit[q], fit[j]
		}
		fit = fit[:m]
	}
	b.fit = fit
	b.grow(len(pts))
	bestScore := -1.0
	for range b.opt.Trials {
		if !b.init(rng, fit) {
			continue
		}
		score, ok := b.lloyd(fit, b.opt.MaxIter)
		if ok && score > bestScore {
			bestScore = score
			copy(b.best[0], b.c[0])
			copy(b.best[1], b.c[1])
		}
	}
	if bestScore < 0 {
		return // every point alike: no split
	}
	copy(b.c[0], b.best[0])
	copy(b.c[1], b.best[1])
	// Refine on every point of the leaf (when the trials fitted all of
	// them, one pass recovers the best trial's sides).
	passes := b.opt.Refine
	if len(fit) == len(pts) {
		passes = 1
	}
	if _, ok := b.lloyd(pts, passes); !ok {
		return
	}
	// b.side holds the final sides of pts and b.c the sums of the halves.
	mid := b.partition(pts, b.side[:len(pts)])
	var w [2]float64
	for j, p := range pts {
		side := 0
		if j >= mid {
			side = 1
		}
		w[side] += b.s.Weight(p)
	}
	tl, tr := norm(b.c[0]), norm(b.c[1])
	n = &t.Nodes[i]
	n.gain = tl + tr - n.Tau
	n.mid = n.lo + mid
	n.cent = [2][]float64{unit(b.c[0]), unit(b.c[1])}
	n.tau = [2]float64{tl, tr}
	n.weight = w
	n.splitted = mid > 0 && mid < len(pts)
}

// init sets b.c to two points of fit that differ, reporting whether it
// found them: the first drawn uniformly, the second with probability
// proportional to its cosine distance 1 − cos from the first (and to its
// weight): the k-means++ seeding (Arthur & Vassilvitskii 2007) for two
// centroids under cosine similarity, which rarely seeds both halves in one
// group.
func (b *bisector) init(rng *rand.Rand, fit []int32) bool {
	n := len(fit)
	if b.one == nil {
		b.one = make([]int32, 1)
	}
	for range 4 {
		first := fit[rng.IntN(n)]
		clear(b.c[0])
		b.one[0] = first
		b.s.Sum(b.one, b.c[0])
		n0 := norm(b.c[0])
		if n0 == 0 {
			continue
		}
		o0, o1 := b.o0[:n], b.o1[:n]
		b.s.Sims2(fit, b.c[0], b.c[0], o0, o1)
		var total float64
		for j, p := range fit {
			d := max(0, 1-o0[j]/n0) * b.s.Weight(p)
			o1[j] = d
			total += d
		}
		if !(total > 1e-12) {
			return false // every point points the same way
		}
		u := rng.Float64() * total
		second := fit[n-1]
		for j, d := range o1 {
			if u < d {
				second = fit[j]
				break
			}
			u -= d
		}
		clear(b.c[1])
		b.one[0] = second
		b.s.Sum(b.one, b.c[1])
		if norm(b.c[1]) > 0 {
			return true
		}
	}
	return false
}

// lloyd runs up to iters 2-means passes over pts from the centroid sums in
// b.c, leaving the sides in b.side and the halves' sums in b.c. It returns
// the split's I2 (‖Σ_L‖ + ‖Σ_R‖) and whether both halves are non-empty.
func (b *bisector) lloyd(pts []int32, iters int) (float64, bool) {
	o0, o1 := b.o0[:len(pts)], b.o1[:len(pts)]
	side, prev := b.side[:len(pts)], b.prev[:len(pts)]
	var score float64
	for it := range iters {
		n0, n1 := norm(b.c[0]), norm(b.c[1])
		if n0 == 0 || n1 == 0 {
			return 0, false
		}
		b.s.Sims2(pts, b.c[0], b.c[1], o0, o1)
		moved := false
		n := 0
		for j := range pts {
			s := o1[j]*n0 > o0[j]*n1 // o1/n1 > o0/n0, without dividing
			if it == 0 || s != prev[j] {
				moved = true
			}
			side[j] = s
			if s {
				n++
			}
		}
		if n == 0 || n == len(pts) {
			return 0, false
		}
		copy(prev, side)
		clear(b.c[0])
		clear(b.c[1])
		b.sumSides(pts, side)
		score = norm(b.c[0]) + norm(b.c[1])
		if !moved {
			break
		}
	}
	return score, true
}

// sumSides sums pts into b.c[0] (side false) and b.c[1] (side true).
func (b *bisector) sumSides(pts []int32, side []bool) {
	// Sum takes index lists: gather each side (in order) into the fit
	// buffer's spare capacity.
	l, r := b.l[:0], b.r[:0]
	for j, p := range pts {
		if side[j] {
			r = append(r, p)
		} else {
			l = append(l, p)
		}
	}
	b.s.Sum(l, b.c[0])
	b.s.Sum(r, b.c[1])
	b.l, b.r = l, r
}

// partition reorders pts so that the points with side false come first
// (each side keeping its order) and returns how many they are.
func (b *bisector) partition(pts []int32, side []bool) int {
	r := b.r[:0]
	defer func() { b.r = r }()
	n := 0
	for j, p := range pts {
		if side[j] {
			r = append(r, p)
			continue
		}
		pts[n] = p
		n++
	}
	copy(pts[n:], r)
	return n
}

func norm(c []float64) float64 {
	var s float64
	for _, x := range c {
		s += x * x
	}
	return math.Sqrt(s)
}

// unit returns c scaled to unit length (a copy), or the zero vector.
func unit(c []float64) []float64 {
	out := make([]float64, len(c))
	n := norm(c)
	if n == 0 {
		return out
	}
	for i, x := range c {
		out[i] = x / n
	}
	return out
}
