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
