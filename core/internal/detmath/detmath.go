// Package detmath holds an exponential and a logarithm that give the same
// bits natively and in WebAssembly, for results that feed a decision.
//
// math.Exp and math.Log are assembly on amd64 and pure Go in WebAssembly,
// and the two may differ in the last bit. Where a value feeds back into the
// run (an estimator's rate sets the next crawl interval; a quantile decides
// whether a sample is sufficient), such a difference would grow into
// different paths. These helpers use only math.Expm1, math.Log1p,
// math.Frexp and math.Ldexp, which are pure Go on both, and IEEE
// arithmetic, so every result is the same natively and in the browser.
package detmath

import "math"

// Splitting ln 2 as Cody & Waite do keeps k·ln2 exact for |k| < 2^20.
const (
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10
)

// Exp returns e^x to within about 2 ulp: x = k·ln2 + r with |r| ≤ ln2/2,
// e^x = 2^k·(1 + expm1(r)).
func Exp(x float64) float64 {
	switch {
	case x != x:
		return x
	case x > 709.8:
		return math.Inf(1)
	case x < -745.2:
		return 0
	}
	k := math.Floor(x/math.Ln2 + 0.5)
	r := (x - k*ln2Hi) - k*ln2Lo
	y := 1 + math.Expm1(r)
	if k >= -1021 && k <= 1022 { // 2^k is a normal float: multiply by it exactly
		return y * math.Float64frombits(uint64(int64(k)+1023)<<52)
	}
	return math.Ldexp(y, int(k))
}

// Log returns ln x for x > 0 to within about 2 ulp: x = m·2^e with
// m ∈ [0.5, 1), ln x = log1p(m − 1) + e·ln2, where m − 1 is exact.
func Log(x float64) float64 {
	switch {
	case x != x || x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	case math.IsInf(x, 1):
		return x
	}
	m, e := math.Frexp(x)
	if m < math.Sqrt2/2 { // keep m − 1 small, where log1p is most accurate
		m *= 2
		e--
	}
	return math.Log1p(m-1) + float64(e)*ln2Lo + float64(e)*ln2Hi
}
