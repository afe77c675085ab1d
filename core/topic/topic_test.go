package topic

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/synth"
)

// The hand-worked graph of the tests: four pages, two terms.
//
//	links: 0→1, 1→2, 2→0, 2→3; page 3 has no out-links (its rank leaks).
//	terms: a (0) on page 0; b (1) on pages 1 and 3. Page 2 has none.
var (
	handLinks = [][]int32{{1}, {2}, {0, 3}, {}}
	handTerms = [][]int32{{0}, {1}, {}, {1}}
)

// rankOf returns R(p,t) from r, 0 when t is not kept for p.
func rankOf(r *Ranking, p int, t int32) float64 {
	ts, xs := r.Top(p)
	if i := slices.Index(ts, t); i >= 0 {
		return xs[i]
	}
	return 0
}

// TestHandIterations follows Algorithm 1 for one and two iterations on the
// hand graph with d = 0.15, against values worked by hand.
//
// Term a, N_a = 1. Start R = (1, 0, 0, 0).
//
//	iteration 1: R' = (0, 1, 0, 0)        (page 0 has one out-link, to 1)
//	             R  = 0.85·R' + (0.15 on page 0) = (0.15, 0.85, 0, 0)
//	iteration 2: R' = (0, 0.15, 0.85, 0)
//	             R  = (0.15, 0.1275, 0.7225, 0)
//
// Term b, N_b = 2. Start R = (0, 0.5, 0, 0.5).
//
//	iteration 1: R' = (0, 0, 0.5, 0)      (page 3's 0.5 leaks)
//	             R  = (0, 0.075, 0.425, 0.075)
//	iteration 2: R' = (0.2125, 0, 0.075, 0.2125)   (page 2 splits 0.425 in two)
//	             R  = (0.180625, 0.075, 0.06375, 0.255625)
func TestHandIterations(t *testing.T) {
	want := map[int][2][4]float64{
		1: {{0.15, 0.85, 0, 0}, {0, 0.075, 0.425, 0.075}},
		2: {{0.15, 0.1275, 0.7225, 0}, {0.180625, 0.075, 0.06375, 0.255625}},
	}
	for iters, w := range want {
		r, err := Rank(handLinks, handTerms, 2, 2, Options{Damping: 0.15, MaxIter: iters, Tolerance: 1e-300})
		if err != nil {
			t.Fatal(err)
		}
		if r.Unconverged != 2 || r.Iterations[0] != iters {
			t.Errorf("after %d iterations: unconverged %d, iterations %v", iters, r.Unconverged, r.Iterations)
		}
		for term := range 2 {
			for p := range 4 {
				if got := rankOf(r, p, int32(term)); math.Abs(got-w[term][p]) > 1e-15 {
					t.Errorf("iteration %d: R(%d,%c) = %v, want %v", iters, p, 'a'+term, got, w[term][p])
				}
			}
		}
	}
}

// TestHandFixedPoint checks the converged ranks against the fixed point
// solved by hand, with c = 1 − d = 0.85 and c³ = 0.614125:
//
// Term a: R0 = 0.85·R2/2 + 0.15, R1 = c·R0, R2 = c·R1, R3 = c·R2/2, so
// R0 = 0.15 / (1 − c³/2) = 0.15/0.6929375 = 0.2164697…, R1 = c·R0 = 0.1839993…,
// R2 = c²·R0 = 0.1563994…, R3 = c³·R0/2 = 0.0664704…; the ranks sum to
// 0.6233… < 1: the leak through page 3.
//
// Term b: R1 = c·R0 + 0.075, R2 = c·R1, R0 = c·R2/2, R3 = c·R2/2 + 0.075, so
// R1 = 0.075/(1 − c³/2) = 0.1082349…, R2 = 0.0919996…, R0 = 0.0390998…,
// R3 = 0.1140998….
//
// So page 1, which does not contain a, is known for a (0.184 > 0.108): the
// link from page 0 carries a's reputation. Page 3 is known for b first.
func TestHandFixedPoint(t *testing.T) {
	const d = 0.15
	c := 1 - d
	a0 := d / (1 - c*c*c/2)
	b1 := (d / 2) / (1 - c*c*c/2)
	want := [2][4]float64{
		{a0, c * a0, c * c * a0, c * c * c * a0 / 2},
		{c * c * b1 / 2, b1, c * b1, c*c*b1/2 + d/2},
	}
	r, err := Rank(handLinks, handTerms, 2, 2, Options{Damping: d, Tolerance: 1e-13})
	if err != nil {
		t.Fatal(err)
	}
	if r.Unconverged != 0 {
		t.Fatalf("%d terms did not converge in %v iterations", r.Unconverged, r.Iterations)
	}
	// Converged to 1e-13 of the L1 norm: within (c/d)·1e-13 of the fixed
	// point, relative.
	for term := range 2 {
		for p := range 4 {
			if got := rankOf(r, p, int32(term)); math.Abs(got-want[term][p]) > 1e-12 {
				t.Errorf("R(%d,%c) = %.15f, want %.15f", p, 'a'+term, got, want[term][p])
			}
		}
	}
	if math.Abs(a0-0.2164697) > 1e-7 || math.Abs(b1-0.1082349) > 1e-7 {
		t.Errorf("hand values drifted: %v %v", a0, b1)
	}
	wantTop := [][]int32{{0, 1}, {0, 1}, {0, 1}, {1, 0}}
	for p, w := range wantTop {
		if ts, _ := r.Top(p); !slices.Equal(ts, w) {
			t.Errorf("page %d's topics %v, want %v", p, ts, w)
		}
	}
	if got := r.Categories(1); !reflect.DeepEqual(got, [][]int32{{0, 1, 2}, {3}}) {
		t.Errorf("top-1 categories %v", got)
	}
	if got := r.Categories(2); !reflect.DeepEqual(got, [][]int32{{0, 1, 2, 3}, {0, 1, 2, 3}}) {
		t.Errorf("top-2 categories %v", got)
	}
}

// TestConvergence checks the stopping rule: the number of iterations
// follows the contraction (the L1 change shrinks by 1 − d each step, so
// tolerance τ needs about log τ / log(1 − d) steps), tighter tolerances
// move the ranks by less than the bound (1 − d)/d · τ, and a smaller d
// takes longer.
func TestConvergence(t *testing.T) {
	links, terms := randomGraph(rand.New(rand.NewPCG(1, 2)), 400, 12, 6)
	tight, err := Rank(links, terms, 12, 12, Options{Tolerance: 1e-14})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []float64{0.15, 0.3, 0.6} {
		for _, tol := range []float64{1e-4, 1e-8} {
			r, err := Rank(links, terms, 12, 12, Options{Damping: d, Tolerance: tol})
			if err != nil {
				t.Fatal(err)
			}
			if r.Unconverged != 0 {
				t.Errorf("d=%v tol=%v: %d terms unconverged", d, tol, r.Unconverged)
			}
			bound := math.Log(tol)/math.Log(1-d) + 5
			for term, it := range r.Iterations {
				if float64(it) > bound {
					t.Errorf("d=%v tol=%v: term %d took %d iterations, more than log τ/log(1−d) + 5 = %.1f", d, tol, term, it, bound)
				}
			}
			if d != 0.15 {
				continue
			}
			// L1 distance to the tight ranks, per term, relative.
			for term := range 12 {
				var diff, norm float64
				for p := range 400 {
					diff += math.Abs(rankOf(r, p, int32(term)) - rankOf(tight, p, int32(term)))
					norm += rankOf(tight, p, int32(term))
				}
				if diff > (1-d)/d*tol*norm*1.01 {
					t.Errorf("tol=%v: term %d is %.3g (relative) from the fixed point, beyond (1−d)/d·τ", tol, term, diff/norm)
				}
			}
		}
	}
}

// TestDeterministicAndTies checks that ranks and categories are the same
// run after run, and that equal ranks order by term: on a graph symmetric
// in two terms, the smaller term comes first everywhere.
func TestDeterministicAndTies(t *testing.T) {
	links, terms := randomGraph(rand.New(rand.NewPCG(3, 4)), 300, 20, 5)
	a, _ := Rank(links, terms, 20, 6, Options{})
	b, _ := Rank(links, terms, 20, 6, Options{})
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two runs on the same input differ")
	}
	// Two pages linking to each other, both holding terms 0 and 1.
	sym, err := Rank([][]int32{{1}, {0}}, [][]int32{{0, 1}, {0, 1}}, 2, 2, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for p := range 2 {
		ts, xs := sym.Top(p)
		if !slices.Equal(ts, []int32{0, 1}) || xs[0] != xs[1] {
			t.Errorf("page %d: tied terms %v with ranks %v, want [0 1] with equal ranks", p, ts, xs)
		}
	}
}

// TestNoLinksNoTerms covers the edges: without links a page's ranks are
// its own terms at d/N_t (rarest first); a page with no terms and no
// in-links has no topic; terms no page holds make empty categories.
func TestNoLinksNoTerms(t *testing.T) {
	terms := [][]int32{{0, 1}, {1}, {}, {1, 3}}
	r, err := Rank(nil, terms, 4, 3, Options{Damping: 0.2})
	if err != nil {
		t.Fatal(err)
	}
	// N_0 = 1, N_1 = 3, N_3 = 1: page 0 ranks 0 (0.2) over 1 (0.2/3).
	if ts, xs := r.Top(0); !slices.Equal(ts, []int32{0, 1}) || math.Abs(xs[0]-0.2) > 1e-15 || math.Abs(xs[1]-0.2/3) > 1e-15 {
		t.Errorf("page 0: %v %v", ts, xs)
	}
	if ts, _ := r.Top(2); len(ts) != 0 {
		t.Errorf("page 2 has no terms and no links, got topics %v", ts)
	}
	cats := r.Categories(1)
	if !reflect.DeepEqual(cats, [][]int32{{0}, {1}, {}, {3}}) {
		t.Errorf("top-1 categories %v", cats)
	}
}

func TestRankErrors(t *testing.T) {
	tests := []struct {
		name  string
		links [][]int32
		terms [][]int32
		n     int
		keep  int
		opt   Options
	}{
		{"term out of range", nil, [][]int32{{2}}, 2, 1, Options{}},
		{"negative term", nil, [][]int32{{-1}}, 2, 1, Options{}},
		{"link out of range", [][]int32{{1}}, [][]int32{{0}}, 1, 1, Options{}},
		{"links for other pages", [][]int32{{}, {}}, [][]int32{{0}}, 1, 1, Options{}},
		{"damping above 1", nil, [][]int32{{0}}, 1, 1, Options{Damping: 1.5}},
		{"negative damping", nil, [][]int32{{0}}, 1, 1, Options{Damping: -0.1}},
		{"keep 0", nil, [][]int32{{0}}, 1, 0, Options{}},
		{"negative tolerance", nil, [][]int32{{0}}, 1, 1, Options{Tolerance: -1}},
	}
	for _, tt := range tests {
		if _, err := Rank(tt.links, tt.terms, tt.n, tt.keep, tt.opt); err == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
}

// randomGraph returns n pages with about deg out-links each (some pages
// none) and one to three of numTerms terms each.
func randomGraph(rng *rand.Rand, n, numTerms, deg int) (links, terms [][]int32) {
	links = make([][]int32, n)
	terms = make([][]int32, n)
	for p := range n {
		if rng.IntN(10) > 0 {
			for range 1 + rng.IntN(2*deg) {
				links[p] = append(links[p], int32(rng.IntN(n)))
			}
		}
		for t := range numTerms {
			if rng.IntN(numTerms) < 2 {
				terms[p] = append(terms[p], int32(t))
			}
		}
	}
	return links, terms
}

// FuzzRank feeds Rank arbitrary small graphs: it must not panic, and every
// kept rank must be positive and finite, at most 1, in decreasing order,
// with each term's ranks summing to at most 1 (rank only leaks).
func FuzzRank(f *testing.F) {
	f.Add([]byte{0, 1, 1, 2, 2, 0, 2, 3}, []byte{0, 0, 1, 1, 3, 1}, uint8(15))
	f.Add([]byte{}, []byte{0, 0}, uint8(100))
	f.Fuzz(func(t *testing.T, edges, holds []byte, damp uint8) {
		const n, nt = 8, 4
		links := make([][]int32, n)
		for i := 0; i+1 < len(edges); i += 2 {
			links[edges[i]%n] = append(links[edges[i]%n], int32(edges[i+1]%n))
		}
		terms := make([][]int32, n)
		for i := 0; i+1 < len(holds); i += 2 {
			p, term := holds[i]%n, int32(holds[i+1]%nt)
			if !slices.Contains(terms[p], term) {
				terms[p] = append(terms[p], term)
			}
		}
		d := float64(damp%100+1) / 100
		r, err := Rank(links, terms, nt, nt, Options{Damping: d})
		if err != nil {
			t.Fatal(err)
		}
		sums := make([]float64, nt)
		for p := range n {
			ts, xs := r.Top(p)
			for i, x := range xs {
				if !(x > 0 && x <= 1+1e-12) || math.IsInf(x, 0) {
					t.Fatalf("page %d term %d: rank %v", p, ts[i], x)
				}
				if i > 0 && (x > xs[i-1] || x == xs[i-1] && ts[i] < ts[i-1]) {
					t.Fatalf("page %d: ranks out of order %v %v", p, ts, xs)
				}
				sums[ts[i]] += x
			}
		}
		for term, s := range sums {
			if s > 1+1e-9 {
				t.Fatalf("term %d: ranks sum to %v > 1", term, s)
			}
		}
	})
}

// Example ranks the hand graph of the tests: page 1 does not contain term
// "a" but is linked from the page that does, so it is known for "a" first.
func Example() {
	links := [][]int32{{1}, {2}, {0, 3}, {}}
	terms := [][]int32{{0}, {1}, {}, {1}} // "a" on page 0; "b" on pages 1 and 3
	r, err := Rank(links, terms, 2, 2, Options{Damping: 0.15})
	if err != nil {
		panic(err)
	}
	names := []string{"a", "b"}
	for p := range 4 {
		ts, xs := r.Top(p)
		fmt.Printf("page %d:", p)
		for i, t := range ts {
			fmt.Printf(" %s %.3f", names[t], xs[i])
		}
		fmt.Println()
	}
	fmt.Println("top-1 categories:", r.Categories(1))
	// Output:
	// page 0: a 0.216 b 0.039
	// page 1: a 0.184 b 0.108
	// page 2: a 0.156 b 0.092
	// page 3: b 0.114 a 0.066
	// top-1 categories: [[0 1 2] [3]]
}

// TestTopicWebPinned pins the ranks of the bundled topic web (seed
// 20260101) bit for bit: the sums run in a fixed order without fused
// multiply-adds, so they must be the same natively (amd64) and in
// WebAssembly. If the algorithm changes on purpose, update the digest.
func TestTopicWebPinned(t *testing.T) {
	d := synth.TopicWeb(20260101)
	r, err := Rank(d.Links, d.Terms, len(d.TermNames), 8, Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	for p := range r.Pages {
		ts, xs := r.Top(p)
		binary.Write(h, binary.LittleEndian, ts)
		binary.Write(h, binary.LittleEndian, xs)
	}
	binary.Write(h, binary.LittleEndian, int64(r.Unconverged))
	const want = 0x8bf9f3f24aae8803
	if got := h.Sum64(); got != want {
		t.Errorf("ranks digest %#x, pinned %#x", got, uint64(want))
	}
}
