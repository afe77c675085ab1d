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
	selectDesc(s, 0, len(s)-1, k-1)
	return s[k-1]
}

// selectDesc reorders s[left..right] so that s[k] holds the value it
// would hold were they sorted in decreasing order, the values before it
// no smaller and those after it no larger: Floyd and Rivest's SELECT
// (CACM 18(3), 1975, Algorithm 489), which first narrows the range to a
// sample's estimate of where the k-th value lies: about n + min(k, n − k)
// comparisons, where a median-of-three quickselect expects up to about
// 2.75·n.
func selectDesc(s []uint64, left, right, k int) {
	for right > left {
		if right-left > 600 {
			n := float64(right - left + 1)
			i := float64(k - left + 1)
			z := math.Log(n)
			sz := 0.5 * math.Exp(2*z/3)
			sd := 0.5 * math.Sqrt(z*sz*(n-sz)/n)
			if i < n/2 {
				sd = -sd
			}
			selectDesc(s, max(left, int(float64(k)-i*sz/n+sd)), min(right, int(float64(k)+(n-i)*sz/n+sd)), k)
		}
		t := s[k]
		i, j := left, right
		s[left], s[k] = s[k], s[left]
		if s[right] < t {
			s[right], s[left] = s[left], s[right]
		}
		for i < j {
			s[i], s[j] = s[j], s[i]
			i++
			j--
			for s[i] > t {
				i++
			}
			for s[j] < t {
				j--
			}
		}
		if s[left] == t {
			s[left], s[j] = s[j], s[left]
		} else {
			j++
			s[j], s[right] = s[right], s[j]
		}
		if j <= k {
			left = j + 1
		}
		if k <= j {
			right = j - 1
		}
	}
}
