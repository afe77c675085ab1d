package policy

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSelectorAgainstSort checks selector.top against a full sort by (key
// descending, tie ascending) on inputs with many equal keys, every k.
func TestSelectorAgainstSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var sel selector
	for _, n := range []int{1, 2, 3, 5, 8, 33, 100, 257} {
		for trial := range 8 {
			ids := make([]int32, n)
			keys := make([]uint64, n)
			ties := make([]int32, n)
			floats := make([]float64, n)
			for i := range ids {
				ids[i] = int32(1000 + i)
				ties[i] = int32(i)
				switch trial {
				case 0:
					floats[i] = 1 // all equal: only ties decide
				case 1:
					floats[i] = float64(i)
				case 2:
					floats[i] = -float64(i) // negative keys
				default:
					floats[i] = float64(rng.IntN(1+n/5)) - float64(n/10)
				}
				keys[i] = keyOf(floats[i])
			}
			rng.Shuffle(n, func(i, j int) {
				ids[i], ids[j] = ids[j], ids[i]
				keys[i], keys[j] = keys[j], keys[i]
				ties[i], ties[j] = ties[j], ties[i]
				floats[i], floats[j] = floats[j], floats[i]
			})
			order := make([]int, n)
			for i := range order {
				order[i] = i
			}
			slices.SortFunc(order, func(a, b int) int {
				switch {
				case floats[a] > floats[b]:
					return -1
				case floats[a] < floats[b]:
					return 1
				}
				return int(ties[a] - ties[b])
			})
			for k := 0; k <= n; k++ {
				got := sel.top(ids, keys, ties, k, nil)
				want := make([]int32, k)
				for i := range want {
					want[i] = ids[order[i]]
				}
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Fatalf("n=%d trial=%d k=%d: got %v, want %v", n, trial, k, got, want)
				}
			}
		}
	}
}

func TestKeyOfKeepsOrder(t *testing.T) {
	xs := []float64{math.Inf(-1), -1e300, -2, -1, -1e-300, 0, 1e-300, 0.5, 1, 2, 1e300, math.Inf(1)}
	for i := 1; i < len(xs); i++ {
		if keyOf(xs[i-1]) >= keyOf(xs[i]) {
			t.Errorf("keyOf(%v) >= keyOf(%v)", xs[i-1], xs[i])
		}
	}
}

// TestKthLargestAgainstSort checks kthLargest against a full sort on inputs
// past the size where it narrows the range by a sample (600), with many
// equal values, sorted either way and all equal, at k from first to last.
func TestKthLargestAgainstSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{601, 1000, 4099, 30000} {
		for _, shape := range []string{"random", "few values", "increasing", "decreasing", "all equal"} {
			vals := make([]uint64, n)
			for i := range vals {
				switch shape {
				case "random":
					vals[i] = rng.Uint64()
				case "few values":
					vals[i] = uint64(rng.IntN(7))
				case "increasing":
					vals[i] = uint64(i)
				case "decreasing":
					vals[i] = uint64(n - i)
				default:
					vals[i] = 42
				}
			}
			sorted := slices.Clone(vals)
			slices.SortFunc(sorted, func(a, b uint64) int { return cmp.Compare(b, a) })
			for _, k := range []int{1, 2, n / 100, n / 3, n / 2, n - n/7, n - 1, n} {
				if k < 1 {
					continue
				}
				s := slices.Clone(vals)
				if got := kthLargest(s, k); got != sorted[k-1] {
					t.Fatalf("n %d, %s, k %d: got %d, want %d", n, shape, k, got, sorted[k-1])
				}
				for i, v := range s { // partitioned around the k-th
					if (i < k-1 && v < sorted[k-1]) || (i > k-1 && v > sorted[k-1]) {
						t.Fatalf("n %d, %s, k %d: s[%d] = %d on the wrong side of %d", n, shape, k, i, v, sorted[k-1])
					}
				}
			}
		}
	}
}
