package stat_test

// The statistical functions of the package, each checked against gonum
// (or, where gonum has no such function, against a direct computation)
// over a table of inputs, and pinned bit for bit so that the same tests
// run under GOOS=js GOARCH=wasm show that the browser computes the native
// numbers.

import (
	"fmt"
	"hash/fnv"
	"math"
	"testing"

	"github.com/refreshlab/refreshlab/core/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// relDiff returns |got − want| relative to |want| (absolute below 1).
func relDiff(got, want float64) float64 {
	return math.Abs(got-want) / max(1, math.Abs(want))
}

// TestNormalQuantile checks NormalQuantile against gonum's UnitNormal: its
// quantile (the same algorithm, computed with math.Log) to 1e-14, and its
// distribution function, computed independently from math.Erfc, which
// must give p back to 1e-12 relative to the tail probability min(p, 1−p).
// The table crosses both switches of AS 241 (|p − ½| = 0.425, and a tail
// of e^−25) and reaches far into the tails.
func TestNormalQuantile(t *testing.T) {
	for _, p := range []float64{
		1e-300, 1e-100, 1e-20, 1e-11, 1e-10, 1e-5, 0.001, 0.01, 0.025, 0.05,
		0.0749, 0.075, 0.0751, 0.1, 0.25, 0.4, 0.4999, 0.5, 0.5001, 0.6, 0.75,
		0.9, 0.9249, 0.925, 0.9251, 0.95, 0.975, 0.99, 0.995, 0.999, 1 - 1e-10, 1 - 1e-15,
	} {
		z := stat.NormalQuantile(p)
		if want := distuv.UnitNormal.Quantile(p); relDiff(z, want) > 1e-14 {
			t.Errorf("NormalQuantile(%v) = %.17g, gonum %.17g", p, z, want)
		}
		tail, back := p, distuv.UnitNormal.CDF(z)
		if p > 0.5 {
			tail, back = 1-p, distuv.UnitNormal.Survival(z)
		}
		if math.Abs(back-tail) > 1e-12*tail {
			t.Errorf("NormalQuantile(%v) = %.17g, whose tail probability is %.17g, not %.17g", p, z, back, tail)
		}
	}
	// Published values: Φ⁻¹(0.975) = 1.95996398454005423…,
	// Φ⁻¹(0.995) = 2.57582930354890076…, Φ⁻¹(10⁻¹⁰) = −6.36134090240406…
	for _, tt := range []struct{ p, want float64 }{
		{0.975, 1.959963984540054}, {0.995, 2.5758293035489008}, {1e-10, -6.361340902404056},
	} {
		if z := stat.NormalQuantile(tt.p); math.Abs(z-tt.want) > 4e-16*math.Abs(tt.want) {
			t.Errorf("NormalQuantile(%v) = %.17g, published %.17g", tt.p, z, tt.want)
		}
	}
}

// TestTQuantile checks TQuantile against gonum's StudentsT on both sides
// of the switch from the exact distribution function (ν ≤ 300) to the
// Cornish–Fisher expansion, to 1e-9 relative (the expansion's error at
// ν = 301), and in both tails.
func TestTQuantile(t *testing.T) {
	for _, p := range []float64{0.0005, 0.005, 0.025, 0.1, 0.4, 0.6, 0.75, 0.9, 0.95, 0.975, 0.995, 0.9995} {
		for _, nu := range []int{1, 2, 3, 4, 5, 9, 10, 29, 30, 99, 100, 101, 150, 300, 301, 1000, 30000} {
			got := stat.TQuantile(p, nu)
			if want := (distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(nu)}).Quantile(p); relDiff(got, want) > 1e-9 {
				t.Errorf("TQuantile(%v, %d) = %.12f, gonum %.12f", p, nu, got, want)
			}
		}
	}
	// Published 0.975 quantiles (tables to 6 decimals; ν = 127, 128 and
	// 1000 as R's qt gives them).
	for _, tt := range []struct {
		nu   int
		want float64
	}{{1, 12.706205}, {2, 4.302653}, {9, 2.262157}, {29, 2.045230}, {127, 1.978820}, {128, 1.978671}, {1000, 1.962339}} {
		if got := stat.TQuantile(0.975, tt.nu); math.Abs(got-tt.want) > 1e-6 {
			t.Errorf("TQuantile(0.975, %d) = %.6f, published %.6f", tt.nu, got, tt.want)
		}
	}
}

// TestQuantileEdges checks the ends of [0, 1], the centre, and arguments
// outside the domain.
func TestQuantileEdges(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	tests := []struct {
		p     float64
		nu    int
		z, tq float64 // NormalQuantile(p), TQuantile(p, nu)
	}{
		{0, 5, -inf, -inf},
		{1, 5, inf, inf},
		{0.5, 5, 0, 0},
		{0.5, 1000, 0, 0},
		{-0.1, 5, nan, nan},
		{1.1, 5, nan, nan},
		{nan, 5, nan, nan},
		{0.9, 0, 1.2815515655446004, nan},
	}
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	for _, tt := range tests {
		if z := stat.NormalQuantile(tt.p); !same(z, tt.z) && relDiff(z, tt.z) > 1e-15 {
			t.Errorf("NormalQuantile(%v) = %v, want %v", tt.p, z, tt.z)
		}
		if q := stat.TQuantile(tt.p, tt.nu); !same(q, tt.tq) {
			t.Errorf("TQuantile(%v, %d) = %v, want %v", tt.p, tt.nu, q, tt.tq)
		}
	}
}

// TestQuantilesSameEverywhere pins the bits of both quantiles over a grid
// of probabilities and degrees of freedom (both methods of TQuantile): the
// same hash natively and under GOOS=js GOARCH=wasm means both platforms
// compute the same intervals and make the same sampling decisions.
func TestQuantilesSameEverywhere(t *testing.T) {
	h := fnv.New64a()
	for i := 1; i < 1000; i++ {
		fmt.Fprintf(h, "%x;", math.Float64bits(stat.NormalQuantile(float64(i)/1000)))
	}
	for _, p := range []float64{1e-300, 1e-20, 1e-5, 1 - 1e-10} {
		fmt.Fprintf(h, "%x;", math.Float64bits(stat.NormalQuantile(p)))
	}
	for _, c := range []float64{0.5, 0.8, 0.9, 0.95, 0.99} {
		for nu := 1; nu <= 320; nu++ {
			fmt.Fprintf(h, "%x;", math.Float64bits(stat.TQuantile((1+c)/2, nu)))
		}
	}
	const pinned = 0xcf743f32b5757b1c
	if sum := h.Sum64(); sum != pinned {
		t.Errorf("hash of the quantiles is %#x, pinned %#x: this platform computes other bits", sum, uint64(pinned))
	}
}
