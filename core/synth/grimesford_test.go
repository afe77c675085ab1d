package synth

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
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

// TestGrimesFordTyped checks that the page-type option leaves GrimesFord's
// bundled bytes alone (a digest of its JSON) and that grimes-ford-types is
// the same population with a type on every page: the same rates and
// changes, each type about a third of the pages (within 4 standard errors
// of the binomial), and the types' median periods ordered news < blog <
// static when the type carries a signal and not when it carries none.
func TestGrimesFordTyped(t *testing.T) {
	plain := GrimesFord(20260101)
	b, err := json.Marshal(plain)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%x", sha256.Sum256(b)); got != "e69ce63625b5d4f6b6d7c5b66e5036dfe45449e514ec93d385658662869cf62c" {
		t.Errorf("grimes-ford's bytes changed: digest %s", got)
	}
	for _, tc := range []struct {
		signal  float64
		ordered bool
	}{{GrimesFordTypeSignal, true}, {0, false}} {
		d := GrimesFordTyped(20260101, GrimesFordOptions{Types: GrimesFordTypes, Signal: tc.signal})
		checkWellFormed(t, d)
		if tc.signal == GrimesFordTypeSignal && d.Info != GrimesFordTypesInfo {
			t.Errorf("info %+v, want %+v", d.Info, GrimesFordTypesInfo)
		}
		if !slices.Equal(d.Truth.Rates, plain.Truth.Rates) || !reflect.DeepEqual(d.Truth.Changed, plain.Truth.Changed) || !reflect.DeepEqual(d.Truth.First, plain.Truth.First) {
			t.Fatalf("signal %v: rates or changes differ from grimes-ford's", tc.signal)
		}
		periods := make([][]float64, len(GrimesFordTypes))
		for i, p := range d.Pages {
			if len(p.Labels) != 1 {
				t.Fatalf("page %d has labels %v, want one type", i, p.Labels)
			}
			periods[p.Labels[0]] = append(periods[p.Labels[0]], 1/d.Truth.Rates[i])
		}
		n, share := float64(len(d.Pages)), 1/float64(len(GrimesFordTypes))
		se := math.Sqrt(n * share * (1 - share))
		var medians []float64
		for k, ps := range periods {
			if dev := math.Abs(float64(len(ps)) - n*share); dev > 4*se {
				t.Errorf("signal %v: type %s has %d pages, expected %.0f (|d| > 4 SE %.0f)", tc.signal, GrimesFordTypes[k], len(ps), n*share, 4*se)
			}
			slices.Sort(ps)
			medians = append(medians, ps[len(ps)/2])
		}
		// The sample median of a third of the log-periods has SE ≈ 1.2533·σ/√(n/3);
		// a signal of 0.8 puts the types' medians about 1.3σ apart.
		seMed := 1.2533 * GrimesFordSigma / math.Sqrt(n*share)
		gap := min(math.Log(medians[1]/medians[0]), math.Log(medians[2]/medians[1]))
		if got := gap > 4*seMed; got != tc.ordered {
			t.Errorf("signal %v: type medians %v days; ordered by more than 4 SE: %v, want %v", tc.signal, medians, got, tc.ordered)
		}
	}
}
