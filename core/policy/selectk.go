package policy

import "math"

// selector picks the top k of a set of pages by a key, the largest first,
// ties going to the smaller tie rank. It selects on the keys alone (plain
// uint64 compares, the fast part), then breaks ties only among the pages
// whose key equals the k-th largest. Its buffers are kept between calls.
type selector struct {
	scratch []uint64
	cand    []int32
	tieKeys []uint64
}

// keyOf maps a float64 to a uint64 with the same order, for the keys.
func keyOf(x float64) uint64 {
	if x == 0 {
		x = 0 // −0 and +0 are equal keys
	}
	b := math.Float64bits(x)
	if b>>63 == 1 {
		return ^b // negative: reverse
	}
	return b | 1<<63
}

// top appends to out the ids of the k entries with the largest keys, ties
// broken by the smaller tie (ties must be distinct), and returns out. ids,
// keys and ties are parallel; k is at most len(ids).
func (s *selector) top(ids []int32, keys []uint64, ties []int32, k int, out []int32) []int32 {
	if k <= 0 {
		return out
	}
	if k >= len(ids) {
		return append(out, ids...)
	}
	s.scratch = append(s.scratch[:0], keys...)
	kth := kthLargest(s.scratch, k)
	s.cand, s.tieKeys = s.cand[:0], s.tieKeys[:0]
	taken := 0
	for i, key := range keys {
		switch {
		case key > kth:
			out = append(out, ids[i])
			taken++
		case key == kth:
			s.cand = append(s.cand, ids[i])
			s.tieKeys = append(s.tieKeys, ^uint64(uint32(ties[i]))) // smaller tie, larger key
		}
	}
	// Among the entries tied at the k-th key, the smaller tie ranks: the
	// same selection again, on the ties (distinct, so no ties left).
	need := k - taken
	if need == len(s.cand) {
		return append(out, s.cand...)
	}
	s.scratch = append(s.scratch[:0], s.tieKeys...)
	cut := kthLargest(s.scratch, need)
	for i, tk := range s.tieKeys {
		if tk >= cut {
			out = append(out, s.cand[i])
		}
	}
	return out
}

// kthLargest returns the k-th largest value of s (1-based), reordering s.
func kthLargest(s []uint64, k int) uint64 {
	// Find the element that would sit at index k-1 if s were sorted in
	// decreasing order.
	target := k - 1
	lo, hi := 0, len(s)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		// Median of three, in decreasing order: s[lo] >= s[mid] >= s[hi].
		if s[mid] > s[lo] {
			s[mid], s[lo] = s[lo], s[mid]
		}
		if s[hi] > s[lo] {
			s[hi], s[lo] = s[lo], s[hi]
		}
		if s[hi] > s[mid] {
			s[hi], s[mid] = s[mid], s[hi]
		}
		pivot := s[mid]
		// Hoare partition: left part >= pivot, right part <= pivot.
		i, j := lo, hi
		for i <= j {
			for s[i] > pivot {
				i++
			}
			for s[j] < pivot {
				j--
			}
			if i <= j {
				s[i], s[j] = s[j], s[i]
				i++
				j--
			}
		}
		switch {
		case target <= j:
			hi = j
		case target >= i:
			lo = i
		default:
			return s[target]
		}
	}
	return s[target]
}
