package cluster

import "math/rand/v2"

// CV is the result of choosing the number of clusters by v-fold
// cross-validation (Tan et al. §3.3).
type CV struct {
	// Tau[k-1] is the cross-validated criterion for k clusters: each
	// point's cosine to the centroid of the cluster it falls in when the
	// clustering is fitted on the other folds (eq. 2 and 3), averaged over
	// the points (weighted by Space.Weight).
	Tau []float64
	// Best is the chosen k: the elbow of Tau (see Elbow).
	Best int
}

// CrossValidate scores k = 1..kMax clusters by v-fold cross-validation as
// Tan et al. §3.3 describe it: the points are split into v folds at random
// (opt.Seed); for each fold, repeated bisection is fitted to the other v−1
// folds, the fold's points are put in the clusters by the fitted centroids
// (descending the bisection tree, as Tree.Assign does), and τ is summed
// over them. Repeated bisection gives nested solutions, so one tree per
// fold scores every k: the test points move down one split at a time.
// v < 2 is taken as 2; v above the number of points as that number.
func CrossValidate(s Space, v, kMax int, opt Options) CV {
	n := s.Len()
	v = max(2, min(v, n))
	kMax = max(1, kMax)
	perm := make([]int32, n)
	for i := range perm {
		perm[i] = int32(i)
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0xC5))
	rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	fold := make([]int, n)
	for i, p := range perm {
		fold[p] = i % v
	}
	tau := make([]float64, kMax)
	var total float64
	train := make([]int32, 0, n)
	test := make([]int32, 0, n/v+1)
	o := opt
	o.K = kMax
	for f := range v {
		train, test = train[:0], test[:0]
		for p := range n {
			if fold[p] == f {
				test = append(test, int32(p))
			} else {
				train = append(train, int32(p))
			}
		}
		if len(test) == 0 || len(train) == 0 {
			continue
		}
		tr := Bisect(s, train, o)
		for _, p := range test {
			total += s.Weight(p)
		}
		scoreFold(s, tr, test, tau)
	}
	if total > 0 {
		for k := range tau {
			tau[k] /= total
		}
	}
	return CV{Tau: tau, Best: Elbow(tau)}
}

// scoreFold adds to tau[k-1] the test points' weighted cosine to their
// cluster's centroid in the k-way solution of tr, for every k.
func scoreFold(s Space, tr *Tree, test []int32, tau []float64) {
	m := len(test)
	sim := make([]float64, m)
	o1 := make([]float64, m)
	idx := append([]int32(nil), test...)
	root := tr.Nodes[0].Centroid
	s.Sims2(idx, root, root, sim, o1)
	var cur float64
	for j, p := range idx {
		cur += s.Weight(p) * sim[j]
	}
	// Each node's test points are idx[lo[i]:hi[i]], with their current
	// similarities alongside in sim.
	lo, hi := make([]int, len(tr.Nodes)), make([]int, len(tr.Nodes))
	hi[0] = m
	tmp, tmpS := make([]int32, 0, m), make([]float64, 0, m)
	o0 := make([]float64, m)
	tau[0] += cur
	for j, node := range tr.Splits {
		if j+2 > len(tau) {
			break
		}
		l, r := tr.Nodes[node].Child[0], tr.Nodes[node].Child[1]
		pts, ps := idx[lo[node]:hi[node]], sim[lo[node]:hi[node]]
		a, b := o0[:len(pts)], o1[:len(pts)]
		s.Sims2(pts, tr.Nodes[l].Centroid, tr.Nodes[r].Centroid, a, b)
		nl := 0
		tmp, tmpS = tmp[:0], tmpS[:0]
		for q, p := range pts {
			w := s.Weight(p)
			if b[q] > a[q] {
				cur += w * (b[q] - ps[q])
				tmp, tmpS = append(tmp, p), append(tmpS, b[q])
				continue
			}
			cur += w * (a[q] - ps[q])
			pts[nl], ps[nl] = p, a[q]
			nl++
		}
		copy(pts[nl:], tmp)
		copy(ps[nl:], tmpS)
		lo[l], hi[l] = lo[node], lo[node]+nl
		lo[r], hi[r] = lo[node]+nl, hi[node]
		tau[j+1] += cur
	}
	// A tree that stopped early (nothing left to split) keeps its τ.
	for k := len(tr.Splits) + 1; k < len(tau); k++ {
		tau[k] += cur
	}
}

// Elbow returns the k (1-based index into tau) where the curve "switches
// from increasing to levelling off" (§3.3). The paper reads it off a
// chart; our reading makes it a rule, the knee of Satopää et al. (Kneedle,
// 2011): with k and τ both scaled to [0, 1] over the candidates, the knee
// is the k whose point lies furthest above the chord from the first
// candidate to the last, i.e. that maximises τ'(k) − k'. Ties go to the
// smaller k; a flat curve gives 1.
func Elbow(tau []float64) int {
	n := len(tau)
	if n <= 2 {
		return 1
	}
	lo, hi := tau[0], tau[0]
	for _, x := range tau {
		lo, hi = min(lo, x), max(hi, x)
	}
	if hi == lo {
		return 1
	}
	best, bestD := 1, 0.0
	for k := 1; k <= n; k++ {
		d := (tau[k-1]-tau[0])/(hi-lo) - float64(k-1)/float64(n-1)
		if d > bestD {
			best, bestD = k, d
		}
	}
	return best
}
