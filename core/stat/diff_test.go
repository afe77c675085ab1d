package stat_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/refreshlab/refreshlab/core/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// TestWelchByHand checks Welch's difference on samples small enough to do
// by hand: a = 1,2,3,4 (mean 2.5, s² = 5/3), b = 2,4,6 (mean 4, s² = 4).
// s²a/na = 5/12, s²b/nb = 4/3, so SE = √(21/12) = √1.75, and
// ν = 1.75² / ((5/12)²/3 + (4/3)²/2) = 3.0625 / (25/432 + 8/9) = 3.2345….
func TestWelchByHand(t *testing.T) {
	a := stat.Summarize([]float64{1, 2, 3, 4})
	b := stat.Summarize([]float64{2, 4, 6})
	d := stat.Welch(a, b)
	df := 3.0625 / (25.0/432 + 8.0/9)
	se := math.Sqrt(1.75)
	if !closeTo(d.Mean, -1.5, 1e-12) || !closeTo(d.SE, se, 1e-12) || !closeTo(d.DF, df, 1e-12) || d.Paired {
		t.Fatalf("Welch = %+v, want mean −1.5, se %v, df %v, unpaired", d, se, df)
	}
	// The exact t quantile at ν = 3.2345 is 3.0812 (gonum); the interval
	// uses TQuantileFrac's, within 0.13% of it.
	h := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(0.975) * se
	if !closeTo(d.Hi-d.Mean, h, 1.3e-3*h) || !closeTo(d.Mean-d.Lo, h, 1.3e-3*h) {
		t.Errorf("half-width %v, %v; want %v", d.Hi-d.Mean, d.Mean-d.Lo, h)
	}
	// Swapping the samples flips the difference and keeps its spread.
	if r := stat.Welch(b, a); !closeTo(r.Mean, 1.5, 1e-12) || !closeTo(r.Hi-r.Lo, d.Hi-d.Lo, 1e-12) {
		t.Errorf("Welch(b, a) = %+v", r)
	}
}

// TestWelchEdges: too few values give no interval; constant samples give
// the point difference; a median the same in every repeat
// (SummarizeMedians, Withheld) gives none, on either side.
func TestWelchEdges(t *testing.T) {
	one := stat.Summarize([]float64{3})
	four := stat.Summarize([]float64{1, 2, 3, 4})
	if d := stat.Welch(one, four); d.Mean != 0.5 || !math.IsNaN(d.Lo) || !math.IsNaN(d.Hi) {
		t.Errorf("one value: %+v, want mean 0.5 and no interval", d)
	}
	c1, c2 := stat.Summarize([]float64{2, 2, 2}), stat.Summarize([]float64{1, 1})
	if d := stat.Welch(c1, c2); d.Mean != 1 || d.Lo != 1 || d.Hi != 1 {
		t.Errorf("constants: %+v, want the point 1", d)
	}
	if d := stat.Welch(stat.Summarize(nil), four); !math.IsNaN(d.Mean) {
		t.Errorf("empty sample: %+v, want NaN", d)
	}
	tied := stat.SummarizeMedians([]float64{2, 2, 2})
	if !stat.Withheld(tied) || stat.Withheld(c1) || stat.Withheld(one) {
		t.Errorf("Withheld: tied medians %v, constants %v, one value %v; want true, false, false", stat.Withheld(tied), stat.Withheld(c1), stat.Withheld(one))
	}
	for _, pair := range [][2]stat.Summary{{tied, c2}, {c2, tied}, {tied, four}} {
		if d := stat.Welch(pair[0], pair[1]); math.IsNaN(d.Mean) || !math.IsNaN(d.Lo) || !math.IsNaN(d.Hi) {
			t.Errorf("against a tied median: %+v, want a mean and no interval", d)
		}
	}
}

// TestPairedByHand: differences 1, 2, 3 (a = 5,7,9, b = 4,5,6) have mean
// 2 and SD 1, so the interval is 2 ± t(0.975, 2)/√3 on 2 degrees of
// freedom; NaN pairs are skipped.
func TestPairedByHand(t *testing.T) {
	d := stat.Paired([]float64{5, 7, math.NaN(), 9}, []float64{4, 5, 1, 6})
	h := stat.TQuantile(0.975, 2) / math.Sqrt(3)
	if !d.Paired || d.Mean != 2 || d.DF != 2 || !closeTo(d.Hi, 2+h, 1e-12) || !closeTo(d.Lo, 2-h, 1e-12) || !closeTo(d.SE, 1/math.Sqrt(3), 1e-12) {
		t.Errorf("Paired = %+v, want 2 ± %v on 2 df", d, h)
	}
}

// TestTQuantileFrac compares the interpolated quantile with gonum's exact
// one over fractional degrees of freedom, within the bounds its doc
// comment states, and checks whole ν and symmetry.
func TestTQuantileFrac(t *testing.T) {
	for _, tc := range []struct {
		from, to, tol float64
	}{{1, 2, 0.03}, {2, 3, 5e-3}, {3, 4, 1.3e-3}, {4, 200, 5e-4}} {
		worst := 0.0
		for nu := tc.from + 0.01; nu < tc.to; nu += 0.01 {
			want := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nu}.Quantile(0.975)
			got := stat.TQuantileFrac(0.975, nu)
			worst = max(worst, math.Abs(got-want)/want)
		}
		if worst > tc.tol {
			t.Errorf("ν in (%v, %v): worst relative error %.3g, want below %v", tc.from, tc.to, worst, tc.tol)
		}
	}
	for _, nu := range []int{1, 2, 7, 30, 400} {
		if got, want := stat.TQuantileFrac(0.975, float64(nu)), stat.TQuantile(0.975, nu); got != want {
			t.Errorf("whole ν = %d: %v, want TQuantile's %v", nu, got, want)
		}
	}
	if got, want := stat.TQuantileFrac(0.025, 5.5), -stat.TQuantileFrac(0.975, 5.5); got != want {
		t.Errorf("lower tail %v, want %v", got, want)
	}
	if q := stat.TQuantileFrac(0.975, 0.5); !math.IsNaN(q) {
		t.Errorf("ν = 0.5: %v, want NaN", q)
	}
}

// TestWelchCoverage is the interval's promise as an expectation over many
// seeds: two independent normal samples of unequal sizes and variances
// (the case Welch's interval is for), whose true difference is known; the
// 95% interval covers it in 95% of trials, within four standard errors of
// that proportion. The paired interval of pairs that share a common
// random term covers the true difference as often, and is narrower than
// Welch's on the same data, which ignores the pairing.
func TestWelchCoverage(t *testing.T) {
	const trials = 4000
	rng := rand.New(rand.NewPCG(7, 11))
	tol := 4 * math.Sqrt(0.95*0.05/trials)
	cover := 0
	for range trials {
		a := make([]float64, 6)
		b := make([]float64, 15)
		for i := range a {
			a[i] = 1 + 3*rng.NormFloat64()
		}
		for i := range b {
			b[i] = 0.2 + 0.5*rng.NormFloat64()
		}
		d := stat.Welch(stat.Summarize(a), stat.Summarize(b))
		if d.Lo <= 0.8 && 0.8 <= d.Hi {
			cover++
		}
	}
	if got := float64(cover) / trials; math.Abs(got-0.95) > tol {
		t.Errorf("Welch's interval covered the true difference in %.4f of %d trials, want 0.95 ± %.4f", got, trials, tol)
	}

	cover, narrower := 0, 0
	for range trials {
		a, b := make([]float64, 10), make([]float64, 10)
		for i := range a {
			common := 2 * rng.NormFloat64()
			a[i] = 0.5 + common + 0.3*rng.NormFloat64()
			b[i] = common + 0.3*rng.NormFloat64()
		}
		d := stat.Paired(a, b)
		if d.Lo <= 0.5 && 0.5 <= d.Hi {
			cover++
		}
		if w := stat.Welch(stat.Summarize(a), stat.Summarize(b)); d.Hi-d.Lo < w.Hi-w.Lo {
			narrower++
		}
	}
	if got := float64(cover) / trials; math.Abs(got-0.95) > tol {
		t.Errorf("the paired interval covered the true difference in %.4f of %d trials, want 0.95 ± %.4f", got, trials, tol)
	}
	if narrower < trials*99/100 {
		t.Errorf("the paired interval was narrower than Welch's in %d of %d trials of strongly correlated pairs", narrower, trials)
	}
}

func closeTo(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestDifferenceJSON: a difference without an interval is written with
// nulls, which JSON can hold, rather than failing on NaN.
func TestDifferenceJSON(t *testing.T) {
	b, err := json.Marshal(stat.Welch(stat.Summarize([]float64{3}), stat.Summarize([]float64{1, 2})))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"mean":1.5,"lo":null,"hi":null,"se":null,"df":null,"paired":false}`; got != want {
		t.Errorf("JSON %s, want %s", got, want)
	}
}
