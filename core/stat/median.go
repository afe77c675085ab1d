package stat

import (
	"math"
	"math/bits"
	"slices"
)

// Median returns the median of x: its middle value, or the mean of its two
// middle values when len(x) is even; NaN when x is empty. It reorders x,
// selecting in expected linear time rather than sorting, and allocates
// nothing. x must not hold NaN, which has no place in the order; the
// infinities have theirs (the mean of middle values −Inf and +Inf is NaN).
//
// For int64 values the selection compares the integers; only the middle
// values are converted to float64.
func Median[T int64 | float64](x []T) float64 {
	n := len(x)
	if n == 0 {
		return math.NaN()
	}
	k := n / 2
	hi := nth(x, k)
	if n%2 == 1 {
		return float64(hi)
	}
	// nth left x[:k] ≤ x[k]: the lower middle value is the largest of them.
	return (float64(slices.Max(x[:k])) + float64(hi)) / 2
}

// nth reorders x so that x[k] is the value it would have were x sorted,
// with smaller or equal values before it and greater or equal ones after,
// and returns x[k]. It is quickselect with a median-of-three pivot and
// Hoare's partition, which splits runs of equal values evenly (they are
// common: gaps between crawls, deviations of 0), and insertion sort for
// short ranges. Should the pivots be poor, it sorts what is left, so it is
// never worse than O(n log n).
func nth[T int64 | float64](x []T, k int) T {
	lo, hi := 0, len(x)-1
	for budget := 2*bits.Len(uint(len(x))) + 8; hi > lo; budget-- {
		if hi-lo < 16 || budget == 0 {
			slices.Sort(x[lo : hi+1])
			break
		}
		mid := lo + (hi-lo)/2
		if x[mid] < x[lo] {
			x[mid], x[lo] = x[lo], x[mid]
		}
		if x[hi] < x[lo] {
			x[hi], x[lo] = x[lo], x[hi]
		}
		if x[hi] < x[mid] {
			x[hi], x[mid] = x[mid], x[hi]
		}
		pivot := x[mid]
		i, j := lo, hi
		for i <= j {
			for x[i] < pivot {
				i++
			}
			for x[j] > pivot {
				j--
			}
			if i <= j {
				x[i], x[j] = x[j], x[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return x[k]
		}
	}
	return x[k]
}

// SummarizeMedians is Summarize for values that are each a median, such
// as one median deviation per repeat. A median of discrete values (counts
// of changes, estimates on a grid of crawl intervals) lands on one of few
// values, and may land on the same one in every repeat although another
// run would move it: a standard deviation of 0 then says nothing of how
// far the expectation may lie, and the interval mean ± 0 would claim an
// exactness no run showed. So when every value is the same, the summary
// has the mean but no interval (Lo and Hi NaN); otherwise it is
// Summarize's.
func SummarizeMedians(xs []float64) Summary {
	s := Summarize(xs)
	if s.N < 2 {
		return s
	}
	first := math.NaN()
	for _, x := range xs {
		switch {
		case math.IsNaN(x):
		case math.IsNaN(first):
			first = x
		case x != first:
			return s
		}
	}
	s.Lo, s.Hi = math.NaN(), math.NaN()
	return s
}

// SummarizeShares summarises shares, one per repeat, each of n trials (say,
// the share of n pages whose estimate is in an edge case). Where the
// repeats differ it is Summarize's. Where every repeat gave the same share
// (most often none or all), the spread across repeats is zero but the
// share is not exact, and its interval is Wilson's for the pooled count
// (WilsonInterval: x of n·repeats, no finite-population correction):
// 0 of 600 gives [0, 0.0064], not [0, 0].
func SummarizeShares(xs []float64, n int) Summary {
	s := Summarize(xs)
	if s.N < 2 || n < 1 || s.SD != 0 {
		return s
	}
	trials := n * s.N
	x := int(math.Round(s.Mean * float64(trials)))
	s.Lo, s.Hi = WilsonInterval(x, trials, math.MaxInt, NormalQuantile((1+Level)/2))
	return s
}
