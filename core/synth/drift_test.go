package synth

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/stat"
)

// TestNoDriftIsTheBundledDataset checks that the drift option, off, gives
// AlQaaidehJordan byte for byte, whatever period it names.
func TestNoDriftIsTheBundledDataset(t *testing.T) {
	for seed := range uint64(3) {
		want := AlQaaidehJordan(seed)
		for _, c := range []AlQaaidehDrift{{}, {Period: 7}} {
			got, err := AlQaaidehJordanWith(seed, c)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("seed %d, %+v: differs from AlQaaidehJordan", seed, c)
			}
		}
	}
}

// TestDriftCheck checks the ranges of the drift's fields.
func TestDriftCheck(t *testing.T) {
	for _, tc := range []struct {
		c  AlQaaidehDrift
		ok bool
	}{
		{AlQaaidehDrift{}, true}, {AlQaaidehDrift{Drift: 1, Period: 1000}, true}, {AlQaaidehDrift{Drift: 0.5, Period: 1}, true},
		{AlQaaidehDrift{Drift: -0.1}, false}, {AlQaaidehDrift{Drift: 1.01}, false}, {AlQaaidehDrift{Drift: math.NaN()}, false},
		{AlQaaidehDrift{Drift: 0.5, Period: 0.5}, false}, {AlQaaidehDrift{Drift: 0.5, Period: 1001}, false},
	} {
		_, err := AlQaaidehJordanWith(1, tc.c)
		if (err == nil) != tc.ok {
			t.Errorf("%+v: error %v, want ok = %v", tc.c, err, tc.ok)
		}
	}
}

// TestDriftWarp checks the time change: it maps [0, M(21)] onto [0, 21],
// increasing, and M of a warped time gives back the time drawn.
func TestDriftWarp(t *testing.T) {
	for _, c := range []AlQaaidehDrift{{Drift: 0.3}, {Drift: 1}, {Drift: 0.7, Period: 5}, {Drift: 1, Period: 40}} {
		for _, phi := range []float64{0, 1, 3, 5.5} {
			warp, horizon := c.warp(phi, 21)
			L := c.Period
			if L == 0 {
				L = 21
				if math.Abs(horizon-21) > 1e-12 {
					t.Errorf("%+v φ %v: M(21) = %v over one whole period, want 21", c, phi, horizon)
				}
			}
			M := func(s float64) float64 {
				return s + c.Drift*L/(2*math.Pi)*(math.Cos(phi)-math.Cos(2*math.Pi*s/L+phi))
			}
			if w := warp(0); w > 1e-12 {
				t.Errorf("%+v φ %v: warp(0) = %v", c, phi, w)
			}
			prev := -1.0
			for i := range 200 {
				u := horizon * float64(i) / 199
				s := warp(u)
				if s < prev || s > 21 {
					t.Fatalf("%+v φ %v: warp(%v) = %v after %v", c, phi, u, s, prev)
				}
				if math.Abs(M(s)-u) > 1e-9 {
					t.Fatalf("%+v φ %v: M(warp(%v)) = %v", c, phi, u, M(s))
				}
				prev = s
			}
		}
	}
}

// TestDriftMovesChanges checks that a drifting site changes most when its
// intensity is high. For every seed and each of the four busiest drifting
// sites, the days are split at the median of the day's intensity
// ∫ m_w over the day (the phases are the generator's, drawn again
// here); pooled over 30 seeds, the share of the site's pages changed on
// its high days must exceed that on its low days by more than 5 standard
// errors at full drift, and differ by less than 4 without drift.
func TestDriftMovesChanges(t *testing.T) {
	const days, seeds = 21, 30
	busy := map[string]bool{"www.alaswaq.net": true, "www.mutah.edu.jo": true, "www.nitc.gov.jo": true, "www.alarabiya.net": true}
	for _, drift := range []float64{0, 1} {
		var diffs []float64
		for seed := range uint64(seeds) {
			d, err := AlQaaidehJordanWith(seed, AlQaaidehDrift{Drift: drift})
			if err != nil {
				t.Fatal(err)
			}
			phases := newRand(seed, "alqaaideh-jordan/drift")
			for w, s := range AlQaaidehTable41 {
				phi := 2 * math.Pi * phases.Float64()
				if !busy[s.Host] {
					continue
				}
				intensity := make([]float64, days)
				for day := range days {
					// ∫ over the day of 1 + sin(2πt/21 + φ)
					a, b := float64(day), float64(day+1)
					intensity[day] = 1 + 21/(2*math.Pi)*(math.Cos(2*math.Pi*a/21+phi)-math.Cos(2*math.Pi*b/21+phi))
				}
				share := make([]float64, days)
				for day, ch := range d.Truth.Changed {
					for _, p := range ch {
						if int(d.Pages[p].Site) == w {
							share[day]++
						}
					}
					share[day] /= float64(s.Pages)
				}
				sorted := slices.Sorted(slices.Values(intensity))
				med := sorted[days/2]
				var hi, lo float64
				var nh, nl int
				for day := range days {
					switch {
					case intensity[day] > med:
						hi += share[day]
						nh++
					case intensity[day] < med:
						lo += share[day]
						nl++
					}
				}
				diffs = append(diffs, (hi/float64(nh)-lo/float64(nl))/s.Rate)
			}
		}
		sum := stat.Summarize(diffs)
		mean, se := sum.Mean, sum.SD/math.Sqrt(float64(sum.N))
		t.Logf("drift %v: high-day share minus low-day share, relative to the site's rate: %.3f ± %.3f (SE)", drift, mean, se)
		if drift > 0 && !(mean > 5*se) {
			t.Errorf("drift %v: high days %.3f above low days, not more than 5 SE (%.3f)", drift, mean, se)
		}
		if drift == 0 && math.Abs(mean) > 4*se {
			t.Errorf("no drift: high days %.3f above low days, more than 4 SE (%.3f)", mean, se)
		}
	}
}
