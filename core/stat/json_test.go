package stat

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

// TestAppendFloatMatchesEncodingJSON checks that Summary's hand-written JSON
// writes every number exactly as encoding/json would.
func TestAppendFloatMatchesEncodingJSON(t *testing.T) {
	xs := []float64{0, 1, -1, 0.1, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21, 123456789.125, -2.5e-9, math.SmallestNonzeroFloat64, math.MaxFloat64, 1.0 / 3}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		xs = append(xs, math.Float64frombits(rng.Uint64()))
	}
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		want, _ := json.Marshal(x)
		if got := appendFloat(nil, x); string(got) != string(want) {
			t.Errorf("appendFloat(%v) = %s, encoding/json writes %s", x, got, want)
		}
	}
	if got := string(appendFloat(nil, math.NaN())); got != "null" {
		t.Errorf("NaN written as %s, want null", got)
	}
}

// TestSeriesJSONRoundTrip checks that a series survives its columnar JSON,
// NaN included.
func TestSeriesJSONRoundTrip(t *testing.T) {
	in := Series{Summarize([]float64{1, 2, 3}), Summarize([]float64{5}), Summarize(nil), Summarize([]float64{0.25, 0.5})}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(b) {
		t.Fatalf("invalid JSON %s", b)
	}
	var out Series
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	for i := range in {
		a, b := in[i], out[i]
		if !same(a.Mean, b.Mean) || !same(a.Lo, b.Lo) || !same(a.Hi, b.Hi) || !same(a.SD, b.SD) || a.N != b.N {
			t.Errorf("summary %d: %+v came back as %+v", i, a, b)
		}
	}
	if err := json.Unmarshal([]byte(`{"mean":[1],"lo":[],"hi":[1],"sd":[1],"n":[1]}`), &out); err == nil {
		t.Error("columns of different lengths were accepted")
	}
}
