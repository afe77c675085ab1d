package schedule

import (
	"math"
	"testing"
)

// relDiff is |a − b| / max(|a|, |b|, tiny).
func relDiff(a, b float64) float64 {
	return math.Abs(a-b) / math.Max(math.Max(math.Abs(a), math.Abs(b)), 1e-300)
}

// TestDerivatives checks dF/df and dA/df (the Lagrange conditions' slopes)
// against central differences of F and A, over pages that are synced much
// more and much less often than they change.
func TestDerivatives(t *testing.T) {
	for _, lambda := range []float64{0.01, 0.3, 1, 5, 40} {
		for _, f := range []float64{0.02, 0.5, 1, 3, 50} {
			hs := 1e-5 * f
			dF := (Freshness(lambda, f+hs, Regular) - Freshness(lambda, f-hs, Regular)) / (2 * hs)
			if got := FreshnessSlope(lambda, f); relDiff(got, dF) > 1e-6 && math.Abs(got-dF) > 1e-12 {
				t.Errorf("λ=%v f=%v: dF/df = %v, finite difference %v", lambda, f, got, dF)
			}
			// Cho & Garcia-Molina's form of dF/df, written out.
			e := math.Exp(-lambda / f)
			if ref := (1-e)/lambda - e/f; relDiff(FreshnessSlope(lambda, f), ref) > 1e-8 && math.Abs(ref) > 1e-12 {
				t.Errorf("λ=%v f=%v: dF/df = %v, Cho & Garcia-Molina's expression %v", lambda, f, FreshnessSlope(lambda, f), ref)
			}
			dA := (Age(lambda, f+hs, Regular) - Age(lambda, f-hs, Regular)) / (2 * hs)
			if got := AgeSlope(lambda, f); relDiff(got, dA) > 1e-6 && math.Abs(got-dA) > 1e-9 {
				t.Errorf("λ=%v f=%v: dA/df = %v, finite difference %v", lambda, f, got, dA)
			}
			// The derivative term by term, before simplifying to −k(x)/λ²
			// (where its terms do not cancel to nothing: x ≥ 0.01).
			if ref := -1/(2*f*f) + (1-e)/(lambda*lambda) - e/(lambda*f); lambda/f >= 0.01 && relDiff(AgeSlope(lambda, f), ref) > 1e-6 {
				t.Errorf("λ=%v f=%v: dA/df = %v, term by term %v", lambda, f, AgeSlope(lambda, f), ref)
			}
		}
	}
}

// TestConcavity checks that F is concave and A convex in f (second
// differences), so the Lagrange conditions give the optimum.
func TestConcavity(t *testing.T) {
	for _, lambda := range []float64{0.1, 1, 5} {
		for _, f := range []float64{0.05, 0.5, 1, 4, 20} {
			if lambda/f > 30 {
				continue // F and A are linear in f there, to 1e-13
			}
			hs := 1e-3 * f
			d2F := Freshness(lambda, f+hs, Regular) - 2*Freshness(lambda, f, Regular) + Freshness(lambda, f-hs, Regular)
			d2A := Age(lambda, f+hs, Regular) - 2*Age(lambda, f, Regular) + Age(lambda, f-hs, Regular)
			if d2F >= 0 {
				t.Errorf("λ=%v f=%v: F not concave (second difference %v)", lambda, f, d2F)
			}
			if d2A <= 0 {
				t.Errorf("λ=%v f=%v: A not convex (second difference %v)", lambda, f, d2A)
			}
			// d²A/df² = x³(1 − e^{−x})/λ³ as the doc comment says.
			x := lambda / f
			want := x * x * x * -math.Expm1(-x) / (lambda * lambda * lambda)
			if got := d2A / (hs * hs); relDiff(got, want) > 1e-3 {
				t.Errorf("λ=%v f=%v: d²A/df² ≈ %v, formula %v", lambda, f, got, want)
			}
		}
	}
}

// TestSeriesMeetClosedForms checks each function that switches from a
// power series to a closed form gives the same value on both sides, and
// that the closed forms agree with the textbook expressions where those
// are well conditioned.
func TestSeriesMeetClosedForms(t *testing.T) {
	for _, x := range []float64{0.3, 0.45, 0.4999, 0.5, 0.5001, 0.7, 1.9, 2, 2.1} {
		e := math.Exp(-x)
		cases := []struct {
			name      string
			got, want float64
			tol       float64
		}{
			{"h", gain(x), 1 - (1+x)*e, 1e-13},
			{"k", ageDrop(x), x*x/2 - 1 + (1+x)*e, 1e-11},
			{"a", ageUnit(x), x/2 - 1 + (1-e)/x, 1e-11},
			{"ψ", psi(x), x - math.Log1p(x), 1e-12},
			{"U", utility(1.7, x/1.7), 1/1.7 - (x/1.7+1/1.7)*e, 1e-12},
		}
		for _, c := range cases {
			if relDiff(c.got, c.want) > c.tol {
				t.Errorf("%s(%v) = %v, closed form %v", c.name, x, c.got, c.want)
			}
		}
	}
	// Tiny arguments: the series, not the cancelling closed forms.
	for _, x := range []float64{1e-9, 1e-6, 1e-3} {
		if relDiff(gain(x), x*x/2-x*x*x/3) > 1e-2*x {
			t.Errorf("h(%v) = %v, leading terms %v", x, gain(x), x*x/2-x*x*x/3)
		}
		if relDiff(ageDrop(x), x*x*x/3-x*x*x*x/8) > 1e-2*x {
			t.Errorf("k(%v) = %v, leading terms %v", x, ageDrop(x), x*x*x/3)
		}
		if relDiff(ageUnit(x), x*x/6-x*x*x/24) > 1e-2*x {
			t.Errorf("a(%v) = %v, leading terms %v", x, ageUnit(x), x*x/6)
		}
	}
	// The harmonic average switches at M = 2.
	lo, hi := harmonicUnit(math.Nextafter(2, 0)), harmonicUnit(2)
	if relDiff(lo, hi) > 1e-12 {
		t.Errorf("regular harmonic staleness jumps at M = 2: %v, %v", lo, hi)
	}
}

// TestInverses checks the Newton solves behind the optimal allocations:
// round trips where the problem is well conditioned, and the residual
// where it is not (far out, h(x) = y pins x only to the precision of
// 1 − y, which is e^{−x}(1 + x)).
func TestInverses(t *testing.T) {
	for _, x := range []float64{20, 30, 35} {
		y := gain(x)
		if r := gain(invertGain(y, 0)) - y; math.Abs(r) > 4e-16 {
			t.Errorf("h(h⁻¹(%v)) − %v = %v", y, y, r)
		}
		tau := utility(0.7, x/0.7)
		if r := utility(0.7, utilityInterval(0.7, tau, 0)) - tau; math.Abs(r) > 1e-14*tau {
			t.Errorf("U(U⁻¹(%v)) − %v = %v", tau, tau, r)
		}
	}
	for _, x := range []float64{1e-7, 1e-4, 0.01, 0.3, 0.5, 1, 2.5, 7, 15, 30} {
		if x <= 15 {
			if got := invertGain(gain(x), 0); relDiff(got, x) > 1e-9 {
				t.Errorf("h⁻¹(h(%v)) = %v", x, got)
			}
			if got := invertGain(gain(x), 3*x); relDiff(got, x) > 1e-9 {
				t.Errorf("h⁻¹(h(%v)) from a far start = %v", x, got)
			}
		}
		if got := invertAgeDrop(ageDrop(x), 0); relDiff(got, x) > 1e-9 {
			t.Errorf("k⁻¹(k(%v)) = %v", x, got)
		}
		if got := invertAgeDrop(ageDrop(x), x/100); relDiff(got, x) > 1e-9 {
			t.Errorf("k⁻¹(k(%v)) from a far start = %v", x, got)
		}
		lambda := 0.7
		if x <= 15 {
			tau := utility(lambda, x/lambda)
			if got := utilityInterval(lambda, tau, 0); relDiff(got, x/lambda) > 1e-9 {
				t.Errorf("U⁻¹(U(%v)) = %v", x/lambda, got)
			}
		}
	}
}

// TestHarmonicRegularDirect checks the regular-sync harmonic staleness
// against a direct computation: E[H(N)] for N ~ Poisson(λt), summed over
// the distribution, averaged over t by Simpson's rule.
func TestHarmonicRegularDirect(t *testing.T) {
	eh := func(m float64) float64 { // E[H(Poisson(m))]
		var sum, h float64
		p := math.Exp(-m)
		for n := 1; n < 400; n++ {
			p *= m / float64(n)
			h += 1 / float64(n)
			sum += p * h
		}
		return sum
	}
	for _, lambda := range []float64{0.2, 1, 3} {
		for _, f := range []float64{0.1, 0.5, 1, 4} {
			const steps = 2000
			I := 1 / f
			var s float64
			for k := 0; k <= steps; k++ {
				w := 2.0
				switch {
				case k == 0 || k == steps:
					w = 1
				case k%2 == 1:
					w = 4
				}
				s += w * eh(lambda*I*float64(k)/steps)
			}
			want := s / (3 * steps)
			if got := Harmonic(lambda, f, Regular); relDiff(got, want) > 1e-8 {
				t.Errorf("λ=%v f=%v: regular harmonic staleness %v, direct %v", lambda, f, got, want)
			}
			// Poisson syncs: E[H] = ln(1 + λ/f), against the geometric sum.
			q := lambda / (lambda + f)
			var geo, h float64
			pn := 1 - q
			for n := 1; n < 5000; n++ {
				pn *= q
				h += 1 / float64(n)
				geo += pn * h
			}
			if got := Harmonic(lambda, f, Poisson); relDiff(got, geo) > 1e-9 {
				t.Errorf("λ=%v f=%v: Poisson harmonic staleness %v, geometric sum %v", lambda, f, got, geo)
			}
		}
	}
}

// TestFormulaEdges pins the limits the simulator also reaches.
func TestFormulaEdges(t *testing.T) {
	for _, s := range []Spacing{Regular, Poisson} {
		if Freshness(0, 0, s) != 1 || Age(0, 0, s) != 0 || Harmonic(0, 3, s) != 0 {
			t.Errorf("%v: a page that never changes is not always fresh", s)
		}
		if Freshness(2, 0, s) != 0 || !math.IsInf(Age(2, 0, s), 1) || !math.IsInf(Harmonic(2, 0, s), 1) {
			t.Errorf("%v: a changing page never synced is not stale for ever", s)
		}
		// Syncing far more often than changes: fresh, young.
		if F := Freshness(1, 1e9, s); F < 1-1e-8 {
			t.Errorf("%v: F(1, 1e9) = %v", s, F)
		}
	}
	if r := ChangeRatio(1, 0, Regular); !math.IsNaN(r) {
		t.Errorf("change ratio without syncs = %v, want NaN", r)
	}
}
