package pagerank

import (
	"fmt"
	"math"
	"testing"
)

// TestRankByHand checks eq. 1 against fixed points solved by hand.
func TestRankByHand(t *testing.T) {
	// Graph A: 0→1, 0→2, 1→2, 2→0; d = 0.85, N = 3, no dangling page.
	// With a = PR(0):
	//   PR(1) = 0.05 + 0.85·a/2           = 0.05 + 0.425a
	//   PR(2) = 0.05 + 0.85·(a/2 + PR(1)) = 0.0925 + 0.78625a
	//   a     = 0.05 + 0.85·PR(2)         = 0.128625 + 0.6683125a
	// so a = 0.128625 / 0.3316875, and the ranks sum to 1.
	a := 0.128625 / 0.3316875
	// Graph B: 0→1, 1→0, 1→2, page 2 without out-links; d = 0.5, N = 3:
	//   PR(1) = 1/6 + PR(0)/2, PR(0) = PR(2) = 1/6 + PR(1)/4
	//   ⇒ PR(1)·7/8 = 1/4, PR(1) = 2/7, PR(0) = PR(2) = 5/21:
	// page 2's rank leaks, and the ranks sum to 16/21.
	cases := []struct {
		name  string
		links [][]int32
		d     float64
		want  []float64
	}{
		{"cycle with a chord", [][]int32{{1, 2}, {2}, {0}}, 0.85, []float64{a, 0.05 + 0.425*a, 0.0925 + 0.78625*a}},
		{"dangling page leaks", [][]int32{{1}, {0, 2}, {}}, 0.5, []float64{5.0 / 21, 2.0 / 7, 5.0 / 21}},
		{"no links at all", [][]int32{{}, {}}, 0.85, []float64{0.075, 0.075}},
		{"self-link", [][]int32{{0}}, 0.85, []float64{1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pr, it := Rank(c.links, Options{Damping: c.d})
			if it >= 200 {
				t.Errorf("did not converge in %d iterations", it)
			}
			for i, w := range c.want {
				if math.Abs(pr[i]-w) > 1e-11 {
					t.Errorf("PR(%d) = %.15f, want %.15f", i, pr[i], w)
				}
			}
		})
	}
}

// TestRankSumsToOneWithoutDanglingPages checks a property of eq. 1: on a
// graph where every page links somewhere the ranks form a distribution.
func TestRankSumsToOneWithoutDanglingPages(t *testing.T) {
	const n = 500
	links := make([][]int32, n)
	for i := range links {
		links[i] = []int32{int32((i*7 + 3) % n), int32((i*i + 1) % n)}
	}
	pr, _ := Rank(links, Options{})
	var sum float64
	for _, x := range pr {
		sum += x
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("ranks sum to %v, want 1", sum)
	}
}

func TestInLinks(t *testing.T) {
	in := InLinks([][]int32{{1, 2, 2}, {2}, {}})
	if fmt.Sprint(in) != "[0 1 3]" {
		t.Errorf("InLinks = %v, want [0 1 3]", in)
	}
}

func ExampleRank() {
	// Three pages: 0 links to 1 and 2, 1 links to 2, 2 links back to 0.
	pr, _ := Rank([][]int32{{1, 2}, {2}, {0}}, Options{Damping: 0.85})
	fmt.Printf("%.4f %.4f %.4f\n", pr[0], pr[1], pr[2])
	// Output: 0.3878 0.2148 0.3974
}

func BenchmarkRank(b *testing.B) {
	const n = 300000
	links := make([][]int32, n)
	for i := range links {
		for j := range 6 {
			links[i] = append(links[i], int32((i*31+j*7919+j*j)%n))
		}
	}
	b.ResetTimer()
	for b.Loop() {
		Rank(links, Options{Tol: 1e-10})
	}
}
