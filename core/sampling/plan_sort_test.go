package sampling

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPlanSortsAsTheLibrary checks that the insertion sorts Share uses for
// small plans (sortOrder, sortRems) order exactly as a stable library sort
// by decreasing value does, ties kept in their order, on random values with
// many ties, at every length up to and past smallSort.
func TestPlanSortsAsTheLibrary(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		n := 1 + trial%(smallSort+8)
		p := NewPlan(n)
		rng.Shuffle(n, func(a, b int) { p.Order[a], p.Order[b] = p.Order[b], p.Order[a] })
		rems := make([]remainder, n)
		for w := range n {
			p.Est[w] = float64(rng.IntN(4)) / 4 // few values: many ties
			rems[w] = remainder{w, float64(rng.IntN(3)) / 3}
		}
		wantOrder := slices.Clone(p.Order)
		slices.SortStableFunc(wantOrder, func(a, b int) int { return descending(p.Est[a], p.Est[b]) })
		wantRems := slices.Clone(rems)
		slices.SortStableFunc(wantRems, func(a, b remainder) int { return descending(a.frac, b.frac) })
		p.sortOrder()
		sortRems(rems)
		if !slices.Equal(p.Order, wantOrder) {
			t.Fatalf("n=%d: sortOrder gave %v, want %v (Est %v)", n, p.Order, wantOrder, p.Est)
		}
		if !slices.Equal(rems, wantRems) {
			t.Fatalf("n=%d: sortRems gave %v, want %v", n, rems, wantRems)
		}
	}
}
