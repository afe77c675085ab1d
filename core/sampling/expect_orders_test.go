package sampling

import (
	"math"
	"math/rand/v2"
	"testing"
)

// expectAllOrders is ExpectGroups without the shortcut: for every outcome
// it averages over all n! orders of the groups, whether or not the order
// decides anything.
func expectAllOrders(groups []Group, budget int, alloc Allocation) float64 {
	ns := len(groups)
	plan := NewPlan(ns)
	x := make([]int, ns)
	var expect float64
	var visit func(w int, prob float64)
	visit = func(w int, prob float64) {
		if w < ns {
			g := groups[w]
			lo := max(0, g.Sample-(g.Pages-g.Changed))
			for i, p := range hypergeometric(g.Pages, g.Changed, g.Sample) {
				x[w] = lo + i
				visit(w+1, prob*p)
			}
			return
		}
		orders := permutations(ns)
		var sum float64
		for _, o := range orders {
			copy(plan.Order, o)
			found, downloads := 0.0, 0
			for v, g := range groups {
				plan.Left[v] = g.Pages - g.Sample
				plan.Est[v] = -1
				if g.Sample > 0 {
					plan.Est[v] = float64(x[v]) / float64(g.Sample)
				}
				found += float64(x[v])
				downloads += g.Sample
			}
			plan.Share(alloc, budget-downloads)
			for v, g := range groups {
				if q := plan.Quota[v]; q > 0 {
					found += float64(q) * float64(g.Changed-x[v]) / float64(g.Pages-g.Sample)
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
	return expect
}

// TestExpectGroupsOrdersThatMatter checks ExpectGroups, which averages only
// over the orders of the groups that Plan.Share says decide the quotas,
// against the average over every order, on random groups with many ties
// (small samples, equal sizes) and both allocations. A tie Share fails to
// report shows up here as a difference.
func TestExpectGroupsOrdersThatMatter(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for c := range 400 {
		ns := 1 + rng.IntN(5)
		groups := make([]Group, ns)
		samples := 0
		size := 4 + rng.IntN(20)
		for w := range groups {
			n := size
			if rng.IntN(3) == 0 {
				n = 2 + rng.IntN(30)
			}
			groups[w] = Group{Pages: n, Changed: rng.IntN(n + 1), Sample: min(n, rng.IntN(4))}
			samples += groups[w].Sample
		}
		budget := samples + rng.IntN(ns*size+1)
		for _, alloc := range []Allocation{Greedy, Proportional} {
			got, err := ExpectGroups(groups, budget, alloc, nil)
			if err != nil {
				t.Fatalf("case %d: %v", c, err)
			}
			want := expectAllOrders(groups, budget, alloc)
			if math.Abs(got-want) > 1e-12 {
				t.Fatalf("case %d %v budget %d alloc %d: ExpectGroups %.15f, every order %.15f", c, groups, budget, alloc, got, want)
			}
		}
	}
}
