package policy

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// byValue orders indexes into vals by value, then by index: the strict
// total order the policies give topK (duplicates broken by page index).
func byValue(vals []int) func(a, b int32) bool {
	return func(a, b int32) bool {
		return vals[a] < vals[b] || vals[a] == vals[b] && a < b
	}
}

// checkTopK runs topK on the pages of s keyed so that smaller values come
// first (key −value, tie the page index), and checks it against a full
// sort: the result is a permutation of s whose first k elements are, as a
// set, the first k of the sorted slice.
func checkTopK(t *testing.T, s []int32, vals []int, k int) {
	t.Helper()
	before := byValue(vals)
	rs := make([]ranked, len(s))
	for i, p := range s {
		rs[i] = ranked{key: -float64(vals[p]), tie: p, id: p}
	}
	topK(rs, k)
	got := make([]int32, len(rs))
	for i, r := range rs {
		got[i] = r.id
	}
	sorted := slices.Clone(s)
	slices.SortFunc(sorted, func(a, b int32) int {
		if before(a, b) {
			return -1
		}
		if before(b, a) {
			return 1
		}
		return 0
	})
	if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(s))) {
		t.Fatalf("n=%d k=%d: result %v is not a permutation of the input %v", len(s), k, got, s)
	}
	head := slices.Sorted(slices.Values(got[:k]))
	want := slices.Sorted(slices.Values(sorted[:k]))
	if !slices.Equal(head, want) {
		t.Fatalf("n=%d k=%d: first k = %v, want %v (values %v, input %v)", len(s), k, head, want, vals, s)
	}
}

// TestTopKAgainstSort is a property test: on random inputs of many sizes,
// with few distinct values (so the index tie-break matters), every k from 0
// to n selects what a full sort selects. Sorted, reversed and constant
// inputs are included: they are the classic quickselect edge cases.
func TestTopKAgainstSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	sizes := []int{0, 1, 2, 3, 4, 5, 7, 8, 16, 31, 64, 100, 257}
	for _, n := range sizes {
		for trial := range 6 {
			vals := make([]int, n)
			for i := range vals {
				switch trial {
				case 0: // sorted
					vals[i] = i
				case 1: // reversed
					vals[i] = n - i
				case 2: // constant: only the index decides
					vals[i] = 7
				default: // few distinct values
					vals[i] = rng.IntN(1 + n/4)
				}
			}
			s := iota(n)
			if trial >= 3 {
				rng.Shuffle(n, func(i, j int) { s[i], s[j] = s[j], s[i] })
			}
			for k := 0; k <= n; k++ {
				checkTopK(t, s, vals, k)
			}
		}
	}
}

// FuzzTopK checks the same property on fuzzed values (one byte per element,
// so duplicates are frequent) and any k.
func FuzzTopK(f *testing.F) {
	f.Add([]byte{}, uint16(0))
	f.Add([]byte{3, 1, 2}, uint16(2))
	f.Add([]byte{5, 5, 5, 5, 5}, uint16(3))
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, uint16(9))
	f.Add([]byte{9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0}, uint16(1))
	f.Fuzz(func(t *testing.T, data []byte, k uint16) {
		n := len(data)
		vals := make([]int, n)
		for i, b := range data {
			vals[i] = int(b)
		}
		// The input order is the reverse of the index order, so the index
		// tie-break does not coincide with the input position.
		s := iota(n)
		slices.Reverse(s)
		checkTopK(t, s, vals, int(k)%(n+1))
	})
}
