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
	// A tree of K leaves has 2K − 1 nodes: reserve them, so that commit
	// never moves them.
	t.Nodes = make([]Node, 0, max(1, 2*min(opt.K, len(idx))-1))
	b := newBisector(s, opt)
	root := Node{Parent: -1, Child: [2]int32{-1, -1}, lo: 0, hi: len(idx)}
	c := make([]float64, s.Dim())
	s.Sum(idx, c)
	root.Tau = norm(c)
	root.Centroid = b.unitOf(c, root.Tau)
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
	var a assigner
	t.assign(&a, s, idx, k, leaf, sim)
}

// assign is Assign with the scratch a (kept between calls to save its
// allocation).
func (t *Tree) assign(a *assigner, s Space, idx []int32, k int, leaf []int32, sim []float64) {
	n := len(idx)
	if cap(a.o0) < n {
		a.o0, a.o1, a.cur = make([]float64, n), make([]float64, n), make([]float64, n)
		a.tmp, a.tmpS = make([]int32, n), make([]float64, n)
	}
	cur := a.cur[:n]
	// The similarities to the root's centroid are needed only when the
	// root is a cluster: descend replaces a node's by its children's.
	if t.isLeaf(0, k) {
		root := t.Nodes[0].Centroid
		s.Sims2(idx, root, root, cur, a.o1[:n])
	}
	t.descend(a, s, 0, idx, cur, k, leaf, sim)
}

type assigner struct {
	o0, o1, cur []float64
	tmp         []int32
	tmpS        []float64
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
	s      Space
	opt    Options
	w      []float64 // the space's weights, if it gives them (hasW; see weight)
	hasW   bool
	pcg    *rand.PCG
	rng    *rand.Rand // draws from pcg, reseeded for each leaf
	slab   []float64  // spare room for centroids (see unitOf)
	o0, o1 []float64
	c      [2][]float64
	// nc holds the norms of c, computed once per change of c: lloyd
	// needs them at the end of one pass (the score) and at the start of
	// the next (the sides), tentative for τ and the unit centroids.
	nc       [2]float64
	best     [2][]float64
	bestN    [2]float64
	bestSide []bool // the best trial's sides, when it converged
	fit      []int32
	side     []bool
	l, r     []int32 // scratch for each side's points
	one      []int32
}

func newBisector(s Space, opt Options) *bisector {
	d := s.Dim()
	pcg := rand.NewPCG(0, 0)
	var w []float64
	ws, hasW := s.(weighter)
	if hasW {
		w = ws.weights()
	}
	return &bisector{
		s: s, opt: opt, pcg: pcg, rng: rand.New(pcg), w: w, hasW: hasW,
		c:    [2][]float64{make([]float64, d), make([]float64, d)},
		best: [2][]float64{make([]float64, d), make([]float64, d)},
	}
}

func (b *bisector) grow(n int) {
	if cap(b.o0) < n {
		b.o0, b.o1 = make([]float64, n), make([]float64, n)
		b.side, b.bestSide = make([]bool, n), make([]bool, n)
		b.l, b.r = make([]int32, 0, n), make([]int32, 0, n)
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
	// The leaf's own stream: reseeding the bisector's PCG draws the same
	// numbers as a new one, without allocating.
	b.pcg.Seed(b.opt.Seed, uint64(i)*0x9E3779B97F4A7C15+1)
	rng := b.rng
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
	all := len(fit) == len(pts) // fit is then pts, in the same order
	bestScore := -1.0
	bestConverged, bestLast := false, false
	for trial := range b.opt.Trials {
		if !b.init(rng, fit) {
			continue
		}
		score, converged, ok := b.lloyd(fit, b.opt.MaxIter, true)
		if ok && score > bestScore {
			bestScore = score
			bestConverged, bestLast = converged, trial == b.opt.Trials-1
			copy(b.best[0], b.c[0])
			copy(b.best[1], b.c[1])
			b.bestN = b.nc
			if all && converged && !bestLast {
				copy(b.bestSide, b.side[:len(pts)])
			}
		}
	}
	if bestScore < 0 {
		return // every point alike: no split
	}
	copy(b.c[0], b.best[0])
	copy(b.c[1], b.best[1])
	b.nc = b.bestN
	// Refine on every point of the leaf (when the trials fitted all of
	// them, one pass recovers the best trial's sides).
	switch {
	case all && bestConverged:
		// That pass would compute the best trial's sides again, from the
		// sums of those very sides (they no longer moved), and the same
		// sums from them: skip it. b.side holds them if the best trial
		// was the last, else bestSide does.
		if !bestLast {
			copy(b.side[:len(pts)], b.bestSide[:len(pts)])
		}
	default:
		passes := b.opt.Refine
		if all {
			passes = 1
		}
		if _, _, ok := b.lloyd(pts, passes, false); !ok {
			return
		}
	}
	// b.side holds the final sides of pts, b.c the sums of the halves and
	// b.nc their norms.
	mid := b.partition(pts, b.side[:len(pts)])
	var w [2]float64
	for j, p := range pts {
		side := 0
		if j >= mid {
			side = 1
		}
		w[side] += b.weight(p)
	}
	tl, tr := b.nc[0], b.nc[1]
	n = &t.Nodes[i]
	n.gain = tl + tr - n.Tau
	n.mid = n.lo + mid
	n.cent = [2][]float64{b.unitOf(b.c[0], tl), b.unitOf(b.c[1], tr)}
	n.tau = [2]float64{tl, tr}
	n.weight = w
	n.splitted = mid > 0 && mid < len(pts)
}

// init sets b.c to two points of fit that differ, reporting whether it
// found them: the first drawn uniformly, the second with probability
// proportional to its cosine distance 1 − cos from the first (and to its
// weight): the k-means++ seeding (Arthur & Vassilvitskii 2007) for two
// centroids under cosine similarity, which rarely seeds both halves in one
// group. It also sets b.nc to the norms of b.c, and leaves in b.o0 the
// similarities of fit to b.c[0] (see lloyd's fresh0).
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
		if !b.sims1(fit, b.c[0], o0) {
			b.s.Sims2(fit, b.c[0], b.c[0], o0, o1)
		}
		var total float64
		for j, p := range fit {
			// max(0, 1 − cos) by a plain compare (Go's builtin max is a
			// call in WebAssembly); 1 − cos is never −0, and a NaN stays.
			d := 1 - o0[j]/n0
			if d < 0 {
				d = 0
			}
			d *= b.weight(p)
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
		if n1 := norm(b.c[1]); n1 > 0 {
			b.nc = [2]float64{n0, n1}
			return true
		}
	}
	return false
}

// lloyd runs up to iters 2-means passes over pts from the centroid sums in
// b.c (their norms in b.nc), leaving the sides in b.side, the halves' sums
// in b.c and their norms in b.nc. It returns the split's I2 (‖Σ_L‖ +
// ‖Σ_R‖), whether it converged (its last pass moved no point, so b.c
// holds the sums of the sides that b.c's previous value gave), and
// whether both halves are non-empty.
//
// With fresh0, b.o0 already holds the similarities of pts to b.c[0] (init
// left them there), and the first pass computes only those to b.c[1]:
// Sims2's first output does not depend on its second centroid.
func (b *bisector) lloyd(pts []int32, iters int, fresh0 bool) (score float64, converged, ok bool) {
	o0, o1 := b.o0[:len(pts)], b.o1[:len(pts)]
	side := b.side[:len(pts)]
	for it := range iters {
		n0, n1 := b.nc[0], b.nc[1]
		if n0 == 0 || n1 == 0 {
			return 0, false, false
		}
		// The sides, whether any changed (every side is new on the first
		// pass), and each side's points in order, for the sums.
		l, r := b.l[:len(pts)], b.r[:len(pts)]
		var nl, nr int
		var moved, done bool
		if it > 0 || !fresh0 {
			if sd, ok := b.s.(sideser); ok {
				nl, nr, moved, done = sd.sides(pts, b.c[0], b.c[1], n0, n1, side, l, r)
			}
		}
		if !done {
			if it > 0 || !fresh0 || !b.sims1(pts, b.c[1], o1) {
				b.s.Sims2(pts, b.c[0], b.c[1], o0, o1)
			}
			nl, nr, moved = sidesOf(pts, o0, o1, n0, n1, side, l, r)
		}
		moved = moved || it == 0
		if nl == 0 || nr == 0 {
			return 0, false, false
		}
		if !moved {
			// The sides are those b.c was summed from: summing them again
			// (in the same order) would give b.c and b.nc again.
			return b.nc[0] + b.nc[1], true, true
		}
		clear(b.c[0])
		clear(b.c[1])
		b.s.Sum(l[:nl], b.c[0])
		b.s.Sum(r[:nr], b.c[1])
		b.nc[0], b.nc[1] = norm2(b.c[0], b.c[1])
		score = b.nc[0] + b.nc[1]
	}
	return score, false, true
}

// sidesOf is rowsSides with the similarities o0 and o1 computed.
func sidesOf(pts []int32, o0, o1 []float64, n0, n1 float64, side []bool, l, r []int32) (nl, nr int, moved bool) {
	ch := 0
	o0, o1, side = o0[:len(pts)], o1[:len(pts)], side[:len(pts)]
	l, r = l[:len(pts)], r[:len(pts)]
	for j, p := range pts {
		s := o1[j]*n0 > o0[j]*n1 // o1/n1 > o0/n0, without dividing
		ch |= b2i(s) ^ b2i(side[j])
		side[j] = s
		l[nl], r[nr] = p, p
		nr += b2i(s)
		nl += 1 - b2i(s)
	}
	return nl, nr, ch != 0
}

// sideser is a Space that can run lloyd's assignment pass itself (see
// rowsSides); sides reports false when it cannot for this space.
type sideser interface {
	sides(pts []int32, c0, c1 []float64, n0, n1 float64, side []bool, l, r []int32) (nl, nr int, moved, ok bool)
}

// sims1 sets o to the similarities of pts to c, as Sims2's first output,
// when the space can do it for less than Sims2; it reports whether it did.
func (b *bisector) sims1(pts []int32, c, o []float64) bool {
	s, ok := b.s.(sims1er)
	return ok && s.sims1(pts, c, o)
}

// weight is b.s.Weight(p), read from the space's weights when it gives
// them (saving a call through the interface per point).
func (b *bisector) weight(p int32) float64 {
	switch {
	case !b.hasW:
		return b.s.Weight(p)
	case b.w == nil:
		return 1
	}
	return b.w[p]
}

// weighter is a Space whose weights are a slice, nil meaning every
// weight is 1.
type weighter interface {
	weights() []float64
}

// sims1er is a Space that can compute the similarities to one centroid
// (as Sims2's first output) for less than Sims2 does for two; sims1
// reports false when it cannot for this space.
type sims1er interface {
	sims1(idx []int32, c, o []float64) bool
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

// b2i is 1 for true and 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// norm2 returns norm(a) and norm(b) (len(b) ≥ len(a)), summing both in one
// loop: the same additions in the same order, but two independent chains
// of them.
func norm2(a, b []float64) (float64, float64) {
	b = b[:len(a)]
	var s, t float64
	for i, x := range a {
		y := b[i]
		s += x * x
		t += y * y
	}
	return math.Sqrt(s), math.Sqrt(t)
}

func norm(c []float64) float64 {
	var s float64
	for _, x := range c {
		s += x * x
	}
	return math.Sqrt(s)
}

// slabVectors is how many centroids of a small dimension a bisector
// allocates at a time.
const slabVectors = 64

// unitOf returns c scaled to unit length (a new vector), or the zero
// vector, given c's norm n. Centroids of up to 64 dimensions (dense
// spaces, re-clustered each cycle) are carved from a slab, so that the
// 4K or so centroids of a K-way tree (each leaf's tentative halves) cost
// a few allocations rather than one each; larger ones (word vectors) are
// allocated one by one, so that the tentative centroids the tree drops
// can be freed.
func (b *bisector) unitOf(c []float64, n float64) []float64 {
	d := len(c)
	if d > 64 {
		return unitInto(make([]float64, d), c, n)
	}
	if len(b.slab) < d {
		b.slab = make([]float64, slabVectors*d)
	}
	out := b.slab[:d:d]
	b.slab = b.slab[d:]
	return unitInto(out, c, n)
}

// unitInto sets out to c/n, or to the zero vector when n is 0, and
// returns it.
func unitInto(out, c []float64, n float64) []float64 {
	if n == 0 {
		clear(out)
		return out
	}
	for i, x := range c {
		out[i] = x / n
	}
	return out
}
