package policy

// ranked is a page with its sort key: pages with a larger key come first,
// and among equal keys the smaller tie.
type ranked struct {
	key float64
	tie int32
	id  int32
}

// before is the strict total order topK selects by.
func (a ranked) before(b ranked) bool {
	return a.key > b.key || a.key == b.key && a.tie < b.tie
}

// topK reorders s so that its first k elements are the k that come first
// (largest key, then smallest tie), in no particular order among
// themselves. It runs in expected linear time (quickselect with a
// median-of-three pivot), so a policy can pick its downloads from a large
// repository each cycle without sorting it. Ties must be distinct for the
// order to be total.
func topK(s []ranked, k int) {
	lo, hi := 0, len(s)-1
	for lo < hi && k > lo && k <= hi {
		// Median of three as pivot, moved to s[hi].
		mid := lo + (hi-lo)/2
		if s[mid].before(s[lo]) {
			s[mid], s[lo] = s[lo], s[mid]
		}
		if s[hi].before(s[lo]) {
			s[hi], s[lo] = s[lo], s[hi]
		}
		if s[mid].before(s[hi]) {
			s[mid], s[hi] = s[hi], s[mid]
		}
		pivot := s[hi]
		i := lo
		for j := lo; j < hi; j++ {
			if s[j].before(pivot) {
				s[i], s[j] = s[j], s[i]
				i++
			}
		}
		s[i], s[hi] = s[hi], s[i]
		// s[lo:i] come before the pivot, s[i] is the pivot, s[i+1:hi+1] after.
		if k <= i {
			hi = i - 1
		} else {
			lo = i + 1
		}
	}
}
