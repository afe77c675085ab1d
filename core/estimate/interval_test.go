package estimate

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLikelihoodIntervalEdges checks the interval at the edge cases and
// that its ends are where the log-likelihood has fallen by χ²₁(0.95)/2.
func TestLikelihoodIntervalEdges(t *testing.T) {
	hist := func(ts []float64, ch []bool) *History {
		var h History
		for i := range ts {
			if err := h.Add(ts[i], ch[i]); err != nil {
				t.Fatal(err)
			}
		}
		return &h
	}
	for _, tc := range []struct {
		name   string
		h      *History
		lo, hi float64 // NaN: check the log-likelihood instead
	}{
		{"empty", hist(nil, nil), 0, math.Inf(1)},
		{"nothing changed", hist([]float64{1, 2, 3}, []bool{false, false, false}), 0, halfChi2 / 6},
		{"all changed", hist([]float64{1, 2}, []bool{true, true}), math.NaN(), math.Inf(1)},
		{"interior", hist([]float64{1, 1, 2, 0.5, 3}, []bool{true, false, true, false, false}), math.NaN(), math.NaN()},
		{"one change in many", hist([]float64{10, 10, 10, 10, 10, 10}, []bool{false, false, true, false, false, false}), math.NaN(), math.NaN()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lo, hi := LikelihoodInterval(tc.h)
			lmax := 0.0
			if r := (MLE{}).Estimate(tc.h); r.Edge == None {
				lmax = LogLikelihood(tc.h, r.Rate)
				if !(lo < r.Rate && r.Rate < hi) {
					t.Fatalf("[%v, %v] misses the MLE %v", lo, hi, r.Rate)
				}
			}
			for _, e := range []struct{ got, want float64 }{{lo, tc.lo}, {hi, tc.hi}} {
				switch {
				case !math.IsNaN(e.want):
					if e.got != e.want {
						t.Fatalf("[%v, %v], want [%v, %v]", lo, hi, tc.lo, tc.hi)
					}
				case math.Abs(LogLikelihood(tc.h, e.got)-(lmax-halfChi2)) > 1e-9:
					t.Fatalf("log-likelihood %v at %v, want %v", LogLikelihood(tc.h, e.got), e.got, lmax-halfChi2)
				}
			}
		})
	}
}

// TestLikelihoodIntervalCoverage checks that the interval covers the true
// rate in about 95% of pages observed over many intervals, within three
// standard errors of the proportion.
func TestLikelihoodIntervalCoverage(t *testing.T) {
	const pages, intervals = 2000, 100
	rng := rand.New(rand.NewPCG(7, 11))
	covered := 0
	var h History
	for i := range pages {
		rate := 0.2 + 1.8*float64(i%10)/9 // 0.2 to 2 changes per day
		h.Reset()
		for range intervals {
			ti := 0.25 + rng.Float64()*1.5 // irregular intervals, 6 h to 1.75 days
			_ = h.Add(ti, rng.Float64() < pChange(rate*ti))
		}
		if lo, hi := LikelihoodInterval(&h); lo <= rate && rate <= hi {
			covered++
		}
	}
	p := float64(covered) / pages
	se := math.Sqrt(0.95 * 0.05 / pages)
	if math.Abs(p-0.95) > 3*se {
		t.Fatalf("coverage %.4f, want 0.95 ± %.4f", p, 3*se)
	}
}
