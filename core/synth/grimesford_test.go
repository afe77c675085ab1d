package synth

import (
	"math"
	"slices"
	"testing"
)

// TestGrimesFord checks the dataset against its documented law
// (datasets/README.md, grimes-ford): every period a whole number of hours
// between 1 hour and a year; the log of the sample median within 4 standard
// errors of ln 5 days (the sample median of n normal draws has SE ≈
// 1.2533·σ/√n; false failure about 6e-5); and the share of page-cycles with
// a change within 4 standard errors of its expectation Σ(1 − e^{−λ})/n,
// the SE from the Bernoulli variances, so the truth follows Truth.Rates.
func TestGrimesFord(t *testing.T) {
	d := GrimesFord(20260101)
	checkWellFormed(t, d)
	if len(d.Truth.Rates) != GrimesFordPages || d.Info != GrimesFordInfo {
		t.Fatalf("%d rates; info %+v, want %+v", len(d.Truth.Rates), d.Info, GrimesFordInfo)
	}
	periods := make([]float64, len(d.Truth.Rates))
	var want, varSum float64
	for i, r := range d.Truth.Rates {
		periods[i] = 1 / r
		h := periods[i] * 24
		if math.Abs(h-math.Round(h)) > 1e-9 || h < 1-1e-9 || h > GrimesFordMaxPeriod*24+1e-9 {
			t.Fatalf("page %d: period %v hours, want whole hours in [1, %v]", i, h, GrimesFordMaxPeriod*24)
		}
		p := -math.Expm1(-r)
		want += p * GrimesFordDays
		varSum += p * (1 - p) * GrimesFordDays
	}
	slices.Sort(periods)
	med := (periods[len(periods)/2-1] + periods[len(periods)/2]) / 2
	se := 1.2533 * GrimesFordSigma / math.Sqrt(float64(len(periods)))
	if d := math.Abs(math.Log(med) - math.Log(GrimesFordMedian)); d > 4*se {
		t.Errorf("median period %v days: |ln − ln %v| = %.4f > 4 SE %.4f", med, GrimesFordMedian, d, 4*se)
	}
	got := 0.0
	for _, ch := range d.Truth.Changed {
		got += float64(len(ch))
	}
	if d := math.Abs(got - want); d > 4*math.Sqrt(varSum) {
		t.Errorf("%v page-cycles changed, expected %.0f (|d| %.0f > 4 SE %.0f)", got, want, d, 4*math.Sqrt(varSum))
	}
}

// TestGrimesFordPeriod checks the discretisation at its ends and median.
func TestGrimesFordPeriod(t *testing.T) {
	for _, tc := range []struct{ z, want float64 }{
		{0, GrimesFordMedian},
		{-10, 1.0 / 24},
		{10, GrimesFordMaxPeriod},
		{math.Log(1.01/24/GrimesFordMedian) / GrimesFordSigma, 1.0 / 24},
		{math.Log(2.4/24/GrimesFordMedian) / GrimesFordSigma, 2.0 / 24},
	} {
		if got := GrimesFordPeriod(tc.z); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("GrimesFordPeriod(%v) = %v, want %v", tc.z, got, tc.want)
		}
	}
}
