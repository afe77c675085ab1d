package stat

import (
	"math"

	"github.com/refreshlab/refreshlab/core/internal/detmath"
)

// The quantiles here have the same bits natively and in WebAssembly, so
// that the intervals and the sampling decisions built on them do not depend
// on where a run happens. gonum's quantiles go through math.Exp and
// math.Log, which amd64 computes in assembly and WebAssembly in pure Go,
// and the two may round differently in the last bit; these use only
// +, −, ×, ÷, Sqrt, Atan and a logarithm built on math.Log1p (package
// detmath), which are the same everywhere.

// NormalQuantile returns the p quantile of the standard normal
// distribution: the z with P(Z ≤ z) = p. It is −Inf at p = 0 and +Inf at
// p = 1, and NaN for p outside [0, 1]. The two-sided critical value at
// confidence level c, the z with P(|Z| ≤ z) = c, is NormalQuantile((1+c)/2).
//
// It is Wichura's algorithm AS 241 (PPND16; Applied Statistics 37, 1988),
// a rational approximation accurate to about 1e-16 relative.
func NormalQuantile(p float64) float64 {
	switch {
	case !(p >= 0 && p <= 1):
		return math.NaN()
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	}
	q := p - 0.5
	if math.Abs(q) <= 0.425 {
		r := 0.180625 - q*q
		return q * (((((((2509.0809287301226727*r+33430.575583588128105)*r+67265.770927008700853)*r+45921.953931549871457)*r+13731.693765509461125)*r+1971.5909503065514427)*r+133.14166789178437745)*r + 3.387132872796366608) /
			(((((((5226.495278852545925*r+28729.085735721942674)*r+39307.89580009271061)*r+21213.794301586595867)*r+5394.1960214247511077)*r+687.1870074920579083)*r+42.313330701600911252)*r + 1)
	}
	r := p // the smaller tail: p, or 1 − p, which is exact for p ≥ 0.5
	if q > 0 {
		r = 1 - p
	}
	r = math.Sqrt(-detmath.Log(r))
	var x float64
	if r <= 5 {
		r -= 1.6
		x = (((((((7.7454501427834140764e-4*r+0.0227238449892691845833)*r+0.24178072517745061177)*r+1.27045825245236838258)*r+3.64784832476320460504)*r+5.7694972214606914055)*r+4.6303378461565452959)*r + 1.42343711074968357734) /
			(((((((1.05075007164441684324e-9*r+5.475938084995344946e-4)*r+0.0151986665636164571966)*r+0.14810397642748007459)*r+0.68976733498510000455)*r+1.6763848301838038494)*r+2.05319162663775882187)*r + 1)
	} else {
		r -= 5
		x = (((((((2.01033439929228813265e-7*r+2.71155556874348757815e-5)*r+0.0012426609473880784386)*r+0.026532189526576123093)*r+0.29656057182850489123)*r+1.7848265399172913358)*r+5.4637849111641143699)*r + 6.6579046435011037772) /
			(((((((2.04426310338993978564e-15*r+1.4215117583164458887e-7)*r+1.8463183175100546818e-5)*r+7.868691311456132591e-4)*r+0.0148753612908506148525)*r+0.13692988092273580531)*r+0.59983220655588793769)*r + 1)
	}
	if q < 0 {
		x = -x
	}
	return x
}

// TQuantile returns the p quantile of Student's t distribution with nu
// degrees of freedom: the t with P(T ≤ t) = p. It is −Inf at p = 0 and
// +Inf at p = 1, and NaN for p outside [0, 1] or nu < 1. The two-sided
// critical value at confidence level c, the t with P(|T| ≤ t) = c, is
// TQuantile((1+c)/2, nu).
//
// For nu ≤ 300 it bisects the exact distribution function of integer
// degrees of freedom (Abramowitz & Stegun 26.7.3–4: with θ = atan(t/√ν), a
// finite series in sin θ and cos θ, which are algebraic in t), which costs
// about 60 evaluations of a series of ν/2 terms; the relative error is
// below 1e-13 for p in [0.01, 0.99] (3e-13 at 0.001 and 0.999) and grows in
// the far tails (3e-11 at p = 1 − 10⁻⁶), where the function is compared
// with a number close to 1. Above, it uses the Cornish–Fisher expansion in
// 1/ν to the fourth order (A&S 26.7.5) around NormalQuantile(p), whose
// error there is below 1e-9 relative.
func TQuantile(p float64, nu int) float64 {
	switch {
	case !(p >= 0 && p <= 1) || nu < 1:
		return math.NaN()
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	case p == 0.5:
		return 0
	}
	if nu > 300 {
		z := NormalQuantile(p)
		v := float64(nu)
		z2 := z * z
		g1 := (z2 + 1) * z / 4
		g2 := ((5*z2+16)*z2 + 3) * z / 96
		g3 := (((3*z2+19)*z2+17)*z2 - 15) * z / 384
		g4 := ((((79*z2+776)*z2+1482)*z2-1920)*z2 - 945) * z / 92160
		return z + g1/v + g2/(v*v) + g3/(v*v*v) + g4/(v*v*v*v)
	}
	// Solve P(|T| ≤ t) = |2p − 1| for t ≥ 0; 2p − 1 is exact for p ≥ 0.5,
	// and 1 − 2p for p ≥ 0.25.
	conf, sign := 2*p-1, 1.0
	if p < 0.5 {
		conf, sign = 1-2*p, -1
	}
	lo, hi := 0.0, 1.0
	for tCentral(hi, nu) < conf {
		hi *= 2
	}
	for range 200 {
		mid := (lo + hi) / 2
		if mid == lo || mid == hi {
			break
		}
		if tCentral(mid, nu) < conf {
			lo = mid
		} else {
			hi = mid
		}
	}
	return sign * (lo + hi) / 2
}

// tCentral returns P(|T| ≤ t) for Student's t with nu degrees of freedom
// (A&S 26.7.3 for odd ν, 26.7.4 for even ν).
func tCentral(t float64, nu int) float64 {
	v := float64(nu)
	r := math.Sqrt(v + t*t)
	sin, cos := t/r, math.Sqrt(v)/r
	c2 := cos * cos
	if nu%2 == 0 {
		// sin θ · [1 + ½cos²θ + (1·3)/(2·4)cos⁴θ + …], ν/2 terms.
		sum, term := 1.0, 1.0
		for k := 1; k <= (nu-2)/2; k++ {
			term *= c2 * float64(2*k-1) / float64(2*k)
			sum += term
		}
		return sin * sum
	}
	theta := math.Atan(t / math.Sqrt(v))
	if nu == 1 {
		return 2 * theta / math.Pi
	}
	// (2/π)[θ + sin θ (cos θ + (2/3)cos³θ + … )], (ν−1)/2 terms.
	sum, term := cos, cos
	for k := 1; k <= (nu-3)/2; k++ {
		term *= c2 * float64(2*k) / float64(2*k+1)
		sum += term
	}
	return 2 / math.Pi * (theta + sin*sum)
}
