package detmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ulps returns how many float64 steps separate a and b.
func ulps(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / (math.Nextafter(b, math.Inf(1)) - b)
}

// Both functions agree with the standard library's to within 2 ulp (both are
// accurate to about 1 ulp) over their whole range.
func TestAgainstMath(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		x := (rng.Float64()*2 - 1) * 745
		if d := ulps(Exp(x), math.Exp(x)); d > 2 && math.Exp(x) > 1e-300 {
			t.Fatalf("Exp(%v) = %v, math.Exp %v (%v ulp)", x, Exp(x), math.Exp(x), d)
		}
		y := math.Ldexp(0.5+rng.Float64(), rng.IntN(2000)-1000)
		if d := ulps(Log(y), math.Log(y)); d > 2 {
			t.Fatalf("Log(%v) = %v, math.Log %v (%v ulp)", y, Log(y), math.Log(y), d)
		}
	}
	for _, c := range []struct{ got, want float64 }{
		{Exp(0), 1}, {Exp(1000), math.Inf(1)}, {Exp(-1000), 0}, {Log(1), 0}, {Log(0), math.Inf(-1)},
		{Log(math.Inf(1)), math.Inf(1)}, {Exp(math.Inf(-1)), 0}, {Log(math.E), 1},
	} {
		if c.got != c.want {
			t.Errorf("got %v, want %v", c.got, c.want)
		}
	}
	if !math.IsNaN(Log(-1)) || !math.IsNaN(Exp(math.NaN())) || !math.IsNaN(Log(math.NaN())) {
		t.Error("NaN cases")
	}
	// ln 2^-1074 (amd64's assembly math.Log answers −709.09 here, which is
	// ln of the smallest normal float's neighbourhood, not of the subnormal).
	if got, want := Log(5e-324), -1074*math.Ln2; math.Abs(got-want) > 1e-12 {
		t.Errorf("Log(2^-1074) = %v, want %v", got, want)
	}
}
