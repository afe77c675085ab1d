package stat

import "math"

// WilsonInterval returns Wilson's score interval (1927) for a proportion
// estimated from x successes in a sample of n drawn without replacement
// from a population of size, at the confidence level whose two-sided
// standard normal quantile is z: NormalQuantile((1+level)/2), 1.96 for 95%.
//
// Wilson's interval stays inside [0, 1] and keeps near its nominal coverage
// for small samples. The textbook Wald interval p̂ ± z·√(p̂(1−p̂)/n) does
// not: it collapses to a point when a small sample shows no success or
// only successes, as samples of a few pages often do. Because the sample is
// drawn without replacement, the variance is corrected by the
// finite-population factor f = (size−n)/(size−1): the bounds solve
// (p̂−p)² = z²·f·p(1−p)/n, which gives
//
//	(p̂ + z'²/2n ± z'·√(p̂(1−p̂)/n + z'²/4n²)) / (1 + z'²/n),  z'² = z²·f.
//
// A sample of the whole population (n ≥ size, f = 0) gives the exact
// fraction, and an empty sample [0, 1]. The ends are exact where they
// should be, 0 when x = 0 and 1 when x = n, rather than an ulp off.
// WilsonInterval uses only arithmetic and square roots, so it has the same
// bits natively and in WebAssembly.
func WilsonInterval(x, n, size int, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	p := float64(x) / float64(n)
	f := 0.0
	if size > n {
		f = float64(size-n) / float64(size-1)
	}
	nf := float64(n)
	zf := z * math.Sqrt(f) // z'
	z2 := zf * zf
	den := 1 + z2/nf
	mid := p + z2/(2*nf)
	half := zf * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo = max(0, (mid-half)/den)
	hi = min(1, (mid+half)/den)
	if x == 0 {
		lo = 0
	}
	if x == n {
		hi = 1
	}
	return lo, hi
}
