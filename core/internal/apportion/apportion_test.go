package apportion

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		name          string
		total         int
		weight        []float64
		limit, before []int
		want          []int
		given         int
	}{
		{"exact shares", 10, []float64{1, 2, 2}, []int{10, 10, 10}, nil, []int{2, 4, 4}, 10},
		// Shares 10/3 each: one unit left over goes to the first in order.
		{"a tie for the last unit, in the order given", 10, []float64{1, 1, 1}, []int{10, 10, 10}, nil, []int{4, 3, 3}, 10},
		// Shares 0.7, 2.1, 4.2: the one unit left goes to the largest remainder.
		{"largest remainders", 7, []float64{1, 3, 6}, []int{10, 10, 10}, nil, []int{1, 2, 4}, 7},
		// The first's share 8 exceeds its room of 2; the others share 8.
		{"a capped entry", 10, []float64{8, 1, 1}, []int{2, 10, 10}, nil, []int{2, 4, 4}, 10},
		{"zero weights get nothing", 6, []float64{0, 1, 0, 2}, []int{9, 9, 9, 9}, nil, []int{0, 2, 0, 4}, 6},
		{"everyone full", 10, []float64{1, 1}, []int{3, 4}, nil, []int{3, 4}, 7},
		{"room counts what is already there", 4, []float64{1, 1}, []int{3, 5}, []int{2, 1}, []int{3, 4}, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := make([]int, len(tc.weight))
			if tc.before != nil {
				copy(out, tc.before)
			}
			order := make([]int, len(out))
			for i := range order {
				order[i] = i
			}
			var scratch []Portion
			given := Split(tc.total, order, tc.weight, tc.limit, out, &scratch)
			if given != tc.given || !slices.Equal(out, tc.want) {
				t.Errorf("gave %d as %v, want %d as %v", given, out, tc.given, tc.want)
			}
		})
	}
}

// On random inputs: every entry within its limit, the units given are the
// total or every positive entry's room, and an entry that is not full is
// within one unit of its proportional share of what the non-full entries
// got.
func TestSplitProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var scratch []Portion
	for range 3000 {
		n := 1 + rng.IntN(8)
		weight, limit, out := make([]float64, n), make([]int, n), make([]int, n)
		room := 0
		for i := range n {
			if rng.IntN(4) > 0 {
				weight[i] = rng.Float64() * 5
			}
			limit[i] = rng.IntN(20)
			if weight[i] > 0 {
				room += limit[i]
			}
		}
		total := rng.IntN(60)
		given := Split(total, rng.Perm(n), weight, limit, out, &scratch)
		if given != min(total, room) {
			t.Fatalf("W %v, limits %v, total %d: gave %d, want %d", weight, limit, total, given, min(total, room))
		}
		var sw float64
		free := 0
		for i := range n {
			if out[i] > limit[i] || out[i] < 0 || weight[i] == 0 && out[i] != 0 {
				t.Fatalf("W %v, limits %v: split %v", weight, limit, out)
			}
			if weight[i] > 0 && out[i] < limit[i] {
				sw += weight[i]
				free += out[i]
			}
		}
		for i := range n {
			if weight[i] > 0 && out[i] < limit[i] {
				if share := weight[i] * float64(free) / sw; math.Abs(float64(out[i])-share) >= 1 {
					t.Fatalf("W %v, limits %v, total %d: entry %d got %d, share %v", weight, limit, total, i, out[i], share)
				}
			}
		}
	}
}
