package stat

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

// TestSummarizeKnown checks mean, sample SD (n−1 denominator) and the
// interval mean ± t(0.975, n−1)·SD/√n on data small enough to do by hand.
func TestSummarizeKnown(t *testing.T) {
	tests := []struct {
		name     string
		xs       []float64
		mean, sd float64
		n        int
	}{
		// Mean 5, squared deviations 9+1+1+9 = 20, SD √(20/3).
		{"four values", []float64{2, 4, 6, 8}, 5, math.Sqrt(20.0 / 3), 4},
		// Mean 0.5, SD √(0.5).
		{"two values", []float64{0, 1}, 0.5, math.Sqrt(0.5), 2},
		// The classic 2,4,4,4,5,5,7,9: mean 5, Σd² = 32, SD √(32/7).
		{"eight values", []float64{2, 4, 4, 4, 5, 5, 7, 9}, 5, math.Sqrt(32.0 / 7), 8},
		{"constant", []float64{3, 3, 3}, 3, 0, 3},
		// NaN is skipped, not counted.
		{"NaN skipped", []float64{math.NaN(), 2, 4, math.NaN(), 6, 8}, 5, math.Sqrt(20.0 / 3), 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Summarize(tt.xs)
			h := TQuantile((1+Level)/2, tt.n-1) * tt.sd / math.Sqrt(float64(tt.n))
			if s.N != tt.n || !near(s.Mean, tt.mean) || !near(s.SD, tt.sd) || !near(s.Lo, tt.mean-h) || !near(s.Hi, tt.mean+h) {
				t.Errorf("Summarize(%v) = %+v, want mean %v sd %v n %d interval [%v, %v]", tt.xs, s, tt.mean, tt.sd, tt.n, tt.mean-h, tt.mean+h)
			}
		})
	}
	// One worked interval with the tabled quantile: 2,4,6,8 gives
	// 5 ± 3.182446·√(20/3)/2.
	s := Summarize([]float64{2, 4, 6, 8})
	if h := 3.182446 * math.Sqrt(20.0/3) / 2; math.Abs(s.Hi-(5+h)) > 1e-5 {
		t.Errorf("upper bound %v, want %v", s.Hi, 5+h)
	}
}

// near compares hand-computed values, which may differ from the
// implementation's in the last bits only.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*max(1, math.Abs(b)) }

// TestSummarizeSmall checks the degenerate cases: no observations (or only
// NaN) give NaN everywhere and n = 0; one observation gives its value as
// the mean and no interval or SD.
func TestSummarizeSmall(t *testing.T) {
	tests := []struct {
		name string
		xs   []float64
		mean float64
		n    int
	}{
		{"nil", nil, math.NaN(), 0},
		{"only NaN", []float64{math.NaN(), math.NaN()}, math.NaN(), 0},
		{"one", []float64{0.25}, 0.25, 1},
		{"one and NaN", []float64{math.NaN(), 0.25}, 0.25, 1},
	}
	for _, tt := range tests {
		s := Summarize(tt.xs)
		meanOK := s.Mean == tt.mean || math.IsNaN(s.Mean) && math.IsNaN(tt.mean)
		if s.N != tt.n || !meanOK || !math.IsNaN(s.Lo) || !math.IsNaN(s.Hi) || !math.IsNaN(s.SD) {
			t.Errorf("%s: Summarize(%v) = %+v, want mean %v, n %d, NaN sd and interval", tt.name, tt.xs, s, tt.mean, tt.n)
		}
	}
}

// TestSummaryJSON checks that NaN fields are written as null (JSON has no
// NaN, and encoding/json would fail on it) and read back as NaN, and that
// finite fields survive the round trip exactly.
func TestSummaryJSON(t *testing.T) {
	tests := []struct {
		name string
		s    Summary
		json string
	}{
		{"empty", Summarize(nil), `{"mean":null,"lo":null,"hi":null,"sd":null,"n":0}`},
		{"one", Summarize([]float64{0.5}), `{"mean":0.5,"lo":null,"hi":null,"sd":null,"n":1}`},
		{"full", Summary{Mean: 0.1, Lo: -1.5, Hi: 1.7, SD: 0.3, N: 12}, `{"mean":0.1,"lo":-1.5,"hi":1.7,"sd":0.3,"n":12}`},
		{"infinite", Summary{Mean: math.Inf(1), Lo: math.NaN(), Hi: math.NaN(), SD: math.NaN(), N: 2}, `{"mean":null,"lo":null,"hi":null,"sd":null,"n":2}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.s)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.json {
				t.Errorf("Marshal = %s, want %s", b, tt.json)
			}
			var back Summary
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			for _, f := range [][2]float64{{back.Mean, tt.s.Mean}, {back.Lo, tt.s.Lo}, {back.Hi, tt.s.Hi}, {back.SD, tt.s.SD}} {
				got, want := f[0], f[1]
				if math.IsInf(want, 0) {
					want = math.NaN() // written as null, read as NaN
				}
				if !(got == want || math.IsNaN(got) && math.IsNaN(want)) {
					t.Errorf("round trip: got %+v from %+v", back, tt.s)
					break
				}
			}
			if back.N != tt.s.N {
				t.Errorf("round trip: n %d, want %d", back.N, tt.s.N)
			}
		})
	}
	// Summaries nested in a struct and a slice, as results carry them.
	in := struct{ S []Summary }{[]Summary{Summarize([]float64{1, 2, 3}), Summarize(nil)}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out struct{ S []Summary }
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out.S[0] != in.S[0] || out.S[1].N != 0 || !math.IsNaN(out.S[1].Mean) {
		t.Errorf("nested round trip: %+v, want %+v", out.S, in.S)
	}
	if err := json.Unmarshal([]byte(`{"mean":"x"}`), &out.S[0]); err == nil {
		t.Error("Unmarshal of a string mean succeeded")
	}
}

// TestCoverage checks that the 95% interval is calibrated: for 4000
// independent normal samples of size 10 (mean 3, SD 2), the share of
// intervals containing the true mean estimates the coverage, exactly 0.95
// for normal data. Its SE is √(0.95·0.05/4000) ≈ 0.0034; the test fails
// outside 0.95 ± 4·SE (±0.0138), which a correct interval does with
// probability about 6e-5. A z interval (1.96 instead of t(0.975, 9) =
// 2.262) covers only about 0.917 and fails.
func TestCoverage(t *testing.T) {
	const runs, n, mu, sigma = 4000, 10, 3.0, 2.0
	covered := 0
	xs := make([]float64, n)
	for seed := range uint64(runs) {
		rng := rand.New(rand.NewPCG(seed, 99))
		for i := range xs {
			xs[i] = mu + sigma*rng.NormFloat64()
		}
		if s := Summarize(xs); s.Lo <= mu && mu <= s.Hi {
			covered++
		}
	}
	p := float64(covered) / runs
	se := math.Sqrt(Level * (1 - Level) / runs)
	if math.Abs(p-Level) > 4*se {
		t.Errorf("coverage %.4f over %d runs, want %.2f ± %.4f (4·SE)", p, runs, Level, 4*se)
	}
}

// TestSummarizeMedians checks that medians which all came out the same
// have no interval, and that medians which differ keep Summarize's.
func TestSummarizeMedians(t *testing.T) {
	tie := 0.1 + 0.2 // a value whose repeated sum is not n times it exactly
	tests := []struct {
		name     string
		xs       []float64
		interval bool
	}{
		{"all equal", []float64{tie, tie, tie, tie, tie, tie, tie}, false},
		{"all equal but a NaN", []float64{tie, math.NaN(), tie}, false},
		{"one differs", []float64{tie, tie, tie, 0.4}, true},
		{"spread", []float64{0.1, 0.2, 0.3}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, plain := SummarizeMedians(tt.xs), Summarize(tt.xs)
			if got.Mean != plain.Mean || got.N != plain.N || got.SD != plain.SD {
				t.Errorf("mean, n or sd differ from Summarize: %+v, %+v", got, plain)
			}
			has := !math.IsNaN(got.Lo) && !math.IsNaN(got.Hi)
			if has != tt.interval {
				t.Errorf("interval [%v, %v], want one: %v", got.Lo, got.Hi, tt.interval)
			}
			if has && (got.Lo != plain.Lo || got.Hi != plain.Hi || got.Hi <= got.Lo) {
				t.Errorf("interval [%v, %v], want Summarize's [%v, %v] of positive width", got.Lo, got.Hi, plain.Lo, plain.Hi)
			}
		})
	}
	if s := SummarizeMedians([]float64{0.5}); s.Mean != 0.5 || !math.IsNaN(s.Lo) {
		t.Errorf("one median: %+v", s)
	}
}
