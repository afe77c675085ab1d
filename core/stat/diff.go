package stat

import (
	"math"

	"github.com/refreshlab/refreshlab/core/internal/detmath"
)

// Difference is the difference of two means, a − b, with its confidence
// interval at Level. DF is the degrees of freedom of the t quantile the
// interval uses (Welch–Satterthwaite's for independent means, n − 1 for
// paired ones); Paired says which of the two it is.
type Difference struct {
	Mean   float64 `json:"mean"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	SE     float64 `json:"se"` // standard error of the difference
	DF     float64 `json:"df"`
	Paired bool    `json:"paired"`
}

// Welch returns the difference a − b of two means estimated from
// independent samples, with Welch's interval (Welch 1947): the standard
// error √(s²a/na + s²b/nb), and the t quantile at the
// Welch–Satterthwaite degrees of freedom
//
//	ν = (s²a/na + s²b/nb)² / ((s²a/na)²/(na−1) + (s²b/nb)²/(nb−1)),
//
// which need not be a whole number (TQuantileFrac). It does not assume the
// two samples have the same variance. When both standard errors are zero
// (two constant samples) the interval is the point a − b, since there is
// no spread to estimate; when either sample has fewer than two values
// there is no interval (NaN bounds), nor when either summary withholds its
// own (Withheld).
func Welch(a, b Summary) Difference {
	d := Difference{Mean: a.Mean - b.Mean, Lo: math.NaN(), Hi: math.NaN(), SE: math.NaN(), DF: math.NaN()}
	if a.N < 2 || b.N < 2 || math.IsNaN(a.SD) || math.IsNaN(b.SD) || math.IsNaN(d.Mean) || Withheld(a) || Withheld(b) {
		return d
	}
	va, vb := a.SD*a.SD/float64(a.N), b.SD*b.SD/float64(b.N)
	d.SE = math.Sqrt(va + vb)
	if d.SE == 0 {
		d.Lo, d.Hi, d.DF = d.Mean, d.Mean, float64(a.N+b.N-2)
		return d
	}
	d.DF = (va + vb) * (va + vb) / (va*va/float64(a.N-1) + vb*vb/float64(b.N-1))
	h := TQuantileFrac((1+Level)/2, d.DF) * d.SE
	d.Lo, d.Hi = d.Mean-h, d.Mean+h
	return d
}

// Withheld reports whether s summarises several repeats but gives no
// interval: a median that came out the same in every repeat
// (SummarizeMedians), whose zero spread says nothing of how far its
// expectation may lie. A difference to or from it has no interval either:
// Welch's would be as narrow as the other side's alone, a paired one as
// narrow as the other side's repeats make it, and both zero when the two
// sides tie in every repeat.
func Withheld(s Summary) bool { return s.N >= 2 && (math.IsNaN(s.Lo) || math.IsNaN(s.Hi)) }

// Paired returns the mean of the differences a[i] − b[i] of paired
// observations with its t interval on n − 1 degrees of freedom: the
// interval of Summarize over the differences. Pairs where either value
// is NaN are skipped; a and b must have the same length (the shorter
// one's is used).
func Paired(a, b []float64) Difference {
	n := min(len(a), len(b))
	ds := make([]float64, 0, n)
	for i := range n {
		if !math.IsNaN(a[i]) && !math.IsNaN(b[i]) {
			ds = append(ds, a[i]-b[i])
		}
	}
	s := Summarize(ds)
	d := Difference{Mean: s.Mean, Lo: s.Lo, Hi: s.Hi, SE: math.NaN(), DF: math.NaN(), Paired: true}
	if s.N >= 2 {
		d.SE, d.DF = s.SD/math.Sqrt(float64(s.N)), float64(s.N-1)
	}
	return d
}

// TQuantileFrac is TQuantile for degrees of freedom that need not be whole,
// such as Welch–Satterthwaite's: between the whole numbers around nu it
// interpolates the logarithm of the quantile linearly in 1/ν, in which it
// is nearly straight. Against the exact quantile at p = 0.975 the relative
// error is below 3% for ν in (1, 2), below 0.5% in (2, 3), below 0.13% in
// (3, 4) and below 0.05% beyond: far less than the interval's own
// uncertainty at so few degrees of freedom. Whole nu gives TQuantile's
// value exactly; nu below 1 gives NaN, as TQuantile does. It uses
// package detmath's logarithm and exponential, so it has the same bits
// natively and in WebAssembly.
func TQuantileFrac(p, nu float64) float64 {
	if !(nu >= 1) {
		return math.NaN()
	}
	if nu > 1e9 {
		return NormalQuantile(p)
	}
	lo := math.Floor(nu)
	if lo == nu {
		return TQuantile(p, int(lo))
	}
	qlo, qhi := TQuantile(p, int(lo)), TQuantile(p, int(lo)+1)
	if !(qlo > 0 && qhi > 0) {
		// p at or below ½: the quantile's sign and log do not mix; the
		// t quantile is odd in p − ½.
		if p == 0.5 {
			return 0
		}
		return -TQuantileFrac(1-p, nu)
	}
	w := (1/lo - 1/nu) / (1/lo - 1/(lo+1))
	return detmath.Exp(detmath.Log(qlo) + w*(detmath.Log(qhi)-detmath.Log(qlo)))
}

// MarshalJSON writes NaN fields as null, as Summary does.
func (d Difference) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 112)
	for _, f := range []struct {
		name string
		x    float64
	}{{`{"mean":`, d.Mean}, {`,"lo":`, d.Lo}, {`,"hi":`, d.Hi}, {`,"se":`, d.SE}, {`,"df":`, d.DF}} {
		b = append(b, f.name...)
		b = appendFloat(b, f.x)
	}
	if d.Paired {
		return append(b, `,"paired":true}`...), nil
	}
	return append(b, `,"paired":false}`...), nil
}
