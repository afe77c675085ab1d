package estimate

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// bigPrec is the precision of the reference computations: with intervals
// within [MinInterval, MaxInterval] every quantity below needs far fewer
// bits, so the reference root is exact to the float64 it is rounded to.
const bigPrec = 320

func newBig(x float64) *big.Float { return new(big.Float).SetPrec(bigPrec).SetFloat64(x) }

// bigExpm1 returns e^x − 1 for x ≥ 0 by halving x until it is below 2^-30,
// summing the Taylor series of e^y − 1 there, and doubling back with
// e^{2y} − 1 = (e^y − 1)(e^y − 1 + 2), which loses no accuracy for small y.
func bigExpm1(x *big.Float) *big.Float {
	y := new(big.Float).SetPrec(bigPrec).Set(x)
	halvings := 0
	small := newBig(math.Ldexp(1, -30))
	for y.Cmp(small) > 0 {
		y.Quo(y, newBig(2))
		halvings++
	}
	sum := new(big.Float).SetPrec(bigPrec)
	term := new(big.Float).SetPrec(bigPrec).SetFloat64(1)
	for k := 1; k < 40; k++ {
		term.Mul(term, y)
		term.Quo(term, newBig(float64(k)))
		sum.Add(sum, term)
	}
	two := newBig(2)
	for range halvings {
		t := new(big.Float).SetPrec(bigPrec).Add(sum, two)
		sum.Mul(sum, t)
	}
	return sum
}

// bigF returns the sign of eq. 2's F(λ) = Σ t_c/(e^{λ t_c} − 1) − Σ t_u,
// computed with bigPrec bits. Terms with λt > 2000 are below 1e-860 of
// anything else and are dropped (halving 2000 to 2^-30 would take long).
func bigF(lam float64, tc []float64, tu []float64) int {
	f := new(big.Float).SetPrec(bigPrec)
	for _, t := range tu {
		f.Sub(f, newBig(t))
	}
	for _, t := range tc {
		x := new(big.Float).SetPrec(bigPrec).Mul(newBig(lam), newBig(t))
		if xf, _ := x.Float64(); xf > 2000 {
			continue
		}
		g := new(big.Float).SetPrec(bigPrec).Quo(newBig(t), bigExpm1(x))
		f.Add(f, g)
	}
	return f.Sign()
}

// referenceRoot bisects in float64 with the sign of F taken in big
// arithmetic, until the bracket is two adjacent floats, and returns the one
// nearer the sign change (its lower end: F(lo) > 0 ≥ F(hi)).
func referenceRoot(t *testing.T, tc, tu []float64) float64 {
	var su, sc float64
	for _, x := range tu {
		su += x
	}
	for _, x := range tc {
		sc += x
	}
	n := float64(len(tc))
	lo, hi := n/(su+sc/2)*(1-1e-9), n/su*(1+1e-9)
	if bigF(lo, tc, tu) <= 0 || bigF(hi, tc, tu) > 0 {
		t.Fatalf("bracket [%g, %g] does not hold the root", lo, hi)
	}
	for {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			return lo
		}
		if bigF(mid, tc, tu) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
}

// rootTolerance bounds |λ̂ − λ*| from rounding: each term g_c = t/expm1(λt)
// is evaluated with relative error at most (3 + λt)ε (λt rounded, expm1's
// 1 ulp amplified by d ln expm1(x)/d ln x ≤ 1 + x, the division), the n-term
// sum adds nε of the sum of magnitudes, and a rounding error δF in F moves
// the root by δF/|F'|. Halley's last step, taken when it was below 1e-7·λ,
// leaves an error of order (1 + λ t_max)²·1e-21·λ. We allow twice the sum
// plus 4 ulp.
func rootTolerance(lam float64, tc, tu []float64) float64 {
	const eps = 0x1p-52
	n := float64(len(tc) + len(tu))
	var mag, d, xmax float64
	for _, t := range tc {
		x := lam * t
		g := t / math.Expm1(x)
		mag += (3 + x + n) * g
		d += g * (g + t)
		xmax = max(xmax, x)
	}
	for _, t := range tu {
		mag += n * t
	}
	return 2*(eps*mag/d+(1+xmax)*(1+xmax)*1e-21*lam) + 4*eps*lam
}

func historyOf(t *testing.T, ts []float64, zs []bool) *History {
	t.Helper()
	h := &History{}
	for i := range ts {
		if err := h.Add(ts[i], zs[i]); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

func split(ts []float64, zs []bool) (tc, tu []float64) {
	for i, t := range ts {
		if zs[i] {
			tc = append(tc, t)
		} else {
			tu = append(tu, t)
		}
	}
	return tc, tu
}

// TestMLEAgainstReference compares the MLE with a root of eq. 2 found by
// bisection in 320-bit arithmetic, on fixed histories and on random ones
// whose intervals span up to twelve orders of magnitude.
func TestMLEAgainstReference(t *testing.T) {
	type history struct {
		ts []float64
		zs []bool
	}
	cases := []history{
		{[]float64{1, 1}, []bool{true, false}},                                                              // ln 2
		{[]float64{1, 2, 3, 4}, []bool{true, false, true, false}},                                           // mixed
		{[]float64{0.5, 0.5, 0.5, 0.5, 0.5}, []bool{true, true, true, true, false}},                         // regular
		{[]float64{1e-9, 1e9}, []bool{true, false}},                                                         // extremes
		{[]float64{1e9, 1e-9}, []bool{true, false}},                                                         // root far out
		{[]float64{1e-9, 1e9, 1e-9}, []bool{true, true, false}},                                             // doubling regime
		{[]float64{29.17, 23.3, 18.7, 15, 12, 9.6, 7.7}, []bool{true, true, true, true, true, true, false}}, // a §4.1 path
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 40 {
		n := 2 + rng.IntN(30)
		h := history{make([]float64, n), make([]bool, n)}
		spread := rng.Float64() * 12
		for i := range n {
			h.ts[i] = math.Pow(10, spread*(rng.Float64()-0.5))
			h.zs[i] = rng.IntN(2) == 0
		}
		h.zs[0], h.zs[1] = true, false
		cases = append(cases, h)
	}
	if testing.Short() {
		cases = cases[:12]
	}
	for i, c := range cases {
		h := historyOf(t, c.ts, c.zs)
		got := MLE{}.Estimate(h)
		if got.Edge != None {
			t.Fatalf("case %d: edge %v", i, got.Edge)
		}
		tc, tu := split(c.ts, c.zs)
		want := referenceRoot(t, tc, tu)
		tol := rootTolerance(want, tc, tu)
		if math.Abs(got.Rate-want) > tol {
			t.Errorf("case %d %v %v: MLE = %.17g, reference %.17g, |diff| %.3g > tolerance %.3g",
				i, c.ts, c.zs, got.Rate, want, math.Abs(got.Rate-want), tol)
		}
	}
	// The first case has the closed form ln 2.
	if got := (MLE{}).Estimate(historyOf(t, []float64{1, 1}, []bool{true, false})).Rate; math.Abs(got-math.Ln2) > 4e-16 {
		t.Errorf("one changed and one unchanged day: %v, want ln 2", got)
	}
}

// TestMLEEdgeCases checks the substitutes of §3.3 and the empty history.
func TestMLEEdgeCases(t *testing.T) {
	tests := []struct {
		name string
		ts   []float64
		zs   []bool
		want Result
	}{
		{"empty", nil, nil, Result{0, Empty}},
		{"never changed: 1/Σt", []float64{1, 2, 4.5}, []bool{false, false, false}, Result{1 / 7.5, NoChange}},
		{"always changed: 1/min t", []float64{3, 0.25, 2}, []bool{true, true, true}, Result{4, AllChanged}},
		{"one changed interval", []float64{Hour}, []bool{true}, Result{24, AllChanged}},
		{"one unchanged interval", []float64{10}, []bool{false}, Result{0.1, NoChange}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (MLE{}).Estimate(historyOf(t, tt.ts, tt.zs)); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// likelihoodEquation is eq. 2's F(λ) and its derivative, as solve computes
// them.
func likelihoodEquation(lam float64, tc []float64, su float64) (f, d float64) {
	f = -su
	for _, t := range tc {
		g := t / math.Expm1(lam*t)
		f += g
		d -= g * (g + t)
	}
	return f, d
}

// TestLikelihoodEquationMonotone checks what the solver's bracket rests on:
// F decreases strictly (F' < 0) from positive to negative across
// [L/(S_u + T_c/2), L/S_u], over rates spanning the bracket and beyond.
func TestLikelihoodEquationMonotone(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		n := 2 + rng.IntN(20)
		var tc []float64
		var su, sc float64
		for i := range n {
			x := math.Pow(10, 6*(rng.Float64()-0.5))
			if i == 0 || (i > 1 && rng.IntN(2) == 0) {
				tc = append(tc, x)
				sc += x
			} else {
				su += x
			}
		}
		l := float64(len(tc))
		lo, hi := l/(su+sc/2), l/su
		if f, _ := likelihoodEquation(lo, tc, su); !(f >= 0) {
			t.Fatalf("F(lo) = %g < 0", f)
		}
		if f, _ := likelihoodEquation(hi, tc, su); !(f <= 0) {
			t.Fatalf("F(hi) = %g > 0", f)
		}
		prev := math.Inf(1)
		for k := -40; k <= 40; k++ {
			lam := math.Sqrt(lo*hi) * math.Pow(hi/lo, float64(k)/40) * math.Pow(10, float64(k)/20)
			f, d := likelihoodEquation(lam, tc, su)
			if !(f < prev) && !(f == -su && prev == -su) {
				t.Fatalf("F not decreasing: F(%g) = %g after %g", lam, f, prev)
			}
			if !(d <= 0) {
				t.Fatalf("F'(%g) = %g > 0", lam, d)
			}
			prev = f
		}
	}
}

// TestMLEMaximisesLikelihood checks that the root of eq. 2 is the maximum of
// the log-likelihood it is the derivative of.
func TestMLEMaximisesLikelihood(t *testing.T) {
	h := historyOf(t, []float64{2, 1, 0.5, 3, 1}, []bool{true, false, true, false, true})
	r := MLE{}.Estimate(h).Rate
	at := LogLikelihood(h, r)
	for _, f := range []float64{0.5, 0.9, 0.999, 1.001, 1.1, 2} {
		if l := LogLikelihood(h, r*f); !(l < at) {
			t.Errorf("LogLikelihood(%g·λ̂) = %v ≥ LogLikelihood(λ̂) = %v", f, l, at)
		}
	}
	if got := LogLikelihood(&History{}, 3); got != 0 {
		t.Errorf("empty history: %v, want 0", got)
	}
}

// TestSolveIterations checks that the solver stays far from its bound, and
// is quick on ordinary histories, including the extremes of the interval
// range.
func TestSolveIterations(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	worst, total, count := 0, 0, 0
	for _, spread := range []float64{0, 1, 3, 18} {
		for range 2000 {
			n := 2 + rng.IntN(40)
			var tc []float64
			var su float64
			for i := range n {
				x := math.Pow(10, spread*(rng.Float64()-0.5))
				if i == 0 || (i > 1 && rng.IntN(2) == 0) {
					tc = append(tc, x)
				} else {
					su += x
				}
			}
			r, it := solve(tc, 0, su)
			if !(r > 0) || math.IsInf(r, 0) {
				t.Fatalf("solve(%v, %v) = %v", tc, su, r)
			}
			worst = max(worst, it)
			if spread <= 1 {
				total += it
				count++
			}
		}
	}
	// The extreme bracket: ratio 1e18 between the changed intervals.
	_, it := solve([]float64{1e-9, 1e9}, 0, 1e-9)
	worst = max(worst, it)
	t.Logf("solver steps: worst %d, mean %.2f on ordinary histories", worst, float64(total)/float64(count))
	if worst > 30 {
		t.Errorf("worst case took %d steps of %d", worst, maxSolve)
	}
	if mean := float64(total) / float64(count); mean > 6 {
		t.Errorf("ordinary histories took %.2f steps on average", mean)
	}
}

// TestPseudoMLEPrepends checks §4.4's construction: PseudoMLE is the MLE on
// the history with the two pseudo-intervals prepended.
func TestPseudoMLEPrepends(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 200 {
		c, u := math.Pow(10, 2*rng.Float64()-1), math.Pow(10, 2*rng.Float64()-1)
		n := rng.IntN(12)
		ts, zs := []float64{c, u}, []bool{true, false}
		h := &History{}
		for range n {
			x, z := 0.1+5*rng.Float64(), rng.IntN(2) == 0
			ts, zs = append(ts, x), append(zs, z)
			_ = h.Add(x, z)
		}
		got := PseudoMLE{Changed: c, Unchanged: u}.Estimate(h)
		want := MLE{}.Estimate(historyOf(t, ts, zs))
		if got.Edge != None || want.Edge != None || math.Abs(got.Rate-want.Rate) > 1e-13*want.Rate {
			t.Fatalf("PseudoMLE{%g, %g} on %v = %+v, MLE with them prepended %+v", c, u, ts[2:], got, want)
		}
	}
	// The zero value is Kolobov et al.'s two half days; on an empty history
	// the answer is log1p(c/u)/c, here ln 2 / 0.5.
	if got := (PseudoMLE{}).Estimate(&History{}); got.Edge != None || math.Abs(got.Rate-2*math.Ln2) > 1e-15 {
		t.Errorf("PseudoMLE{} on an empty history = %+v, want 2 ln 2", got)
	}
	if got := (PseudoMLE{Changed: 2, Unchanged: 3}).Estimate(&History{}).Rate; math.Abs(got-math.Log1p(2.0/3)/2) > 1e-15 {
		t.Errorf("PseudoMLE{2, 3} on an empty history = %v, want log1p(2/3)/2", got)
	}
	// Every history with nothing or everything changed gets an interior
	// estimate.
	for _, z := range []bool{false, true} {
		h := historyOf(t, []float64{1, 1, 1}, []bool{z, z, z})
		if got := (PseudoMLE{}).Estimate(h); got.Edge != None || !(got.Rate > 0) {
			t.Errorf("all %v: %+v", z, got)
		}
	}
}
