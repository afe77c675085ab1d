package category

import "math"

// Interval returns the confidence interval l ≤ p ≤ h of eq. 9 (§7.1.3) for
// the change fraction p of a category of size pages, from a sample of n of
// them (drawn without replacement) of which x changed, at the confidence
// level whose two-sided normal quantile is z (normalQuantile).
//
// The paper names the interval but not its formula; we use the Wilson
// score interval, which stays inside [0, 1] and does not collapse to a
// point when a small sample shows 0 or all changes (the normal-approximation
// interval p̂ ± z·√(p̂(1−p̂)/n) does, and samples of a few pages often do),
// with the finite-population correction: the variance of a sample mean
// without replacement shrinks by (N−n)/(N−1), which we apply as an
// effective sample size n·(N−1)/(N−n). A sample of the whole category
// (n = N) knows p exactly: l = h = x/n. A sample of nothing knows nothing:
// [0, 1].
func Interval(x, n, size int, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	p := float64(x) / float64(n)
	if n >= size {
		return p, p
	}
	ne := float64(n) * float64(size-1) / float64(size-n)
	z2 := z * z
	denom := 1 + z2/ne
	center := (p + z2/(2*ne)) / denom
	half := z / denom * math.Sqrt(p*(1-p)/ne+z2/(4*ne*ne))
	return max(0, center-half), min(1, center+half)
}

// normalQuantile returns z with P(|Z| ≤ z) = level for a standard normal
// Z: √2·erf⁻¹(level). It is not the same code on every platform: for
// level above 0.85 math.Erfinv calls math.Log, which is assembly on amd64
// and pure Go in WebAssembly, and the two are not bound to agree in the
// last bit. TestInterval pins z at the default level, 0.95, where they do.
func normalQuantile(level float64) float64 {
	return math.Sqrt2 * math.Erfinv(level)
}
