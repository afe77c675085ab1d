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
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/stat"
	gstat "gonum.org/v1/gonum/stat"
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

// wilsonByBisection finds the interval of WilsonInterval independently:
// the two roots, one on each side of p̂, of g(p) = (p̂−p)² − z²·f·p(1−p)/n,
// by bisection (g is positive at p̂ ± the far end and negative at p̂ when
// the interval has width).
func wilsonByBisection(x, n, size int, z float64) (lo, hi float64) {
	p := float64(x) / float64(n)
	f := 0.0
	if size > n {
		f = float64(size-n) / float64(size-1)
	}
	g := func(q float64) float64 { return (p-q)*(p-q) - z*z*f*q*(1-q)/float64(n) }
	root := func(a, b float64) float64 { // g(a) ≤ 0 < g(b) or the reverse
		ga := g(a)
		for range 200 {
			m := (a + b) / 2
			if (g(m) <= 0) == (ga <= 0) {
				a = m
			} else {
				b = m
			}
		}
		return (a + b) / 2
	}
	lo, hi = p, p
	if g(0) > 0 && p > 0 {
		lo = root(p, 0)
	} else if p > 0 {
		lo = 0
	}
	if g(1) > 0 && p < 1 {
		hi = root(p, 1)
	} else if p < 1 {
		hi = 1
	}
	return lo, hi
}

// TestWilsonInterval checks WilsonInterval (gonum has none) against the
// direct solution of its quadratic by bisection, to 1e-9, and against
// published intervals, to the 4 decimals they give; that it holds p̂
// inside [0, 1], that the finite-population correction only narrows it,
// that its ends are exactly 0 and 1 at x = 0 and x = n, and that a whole
// population, or an empty sample, gives the exact fraction, or [0, 1].
func TestWilsonInterval(t *testing.T) {
	z95 := stat.NormalQuantile(0.975)
	endless := 1 << 40 // a practically infinite population
	nan := math.NaN()
	tests := []struct {
		name           string
		x, n, size     int
		z              float64
		wantLo, wantHi float64 // published values, where there are some; else NaN
	}{
		// Published Wilson 95% intervals, with no finite-population
		// effect: 81/263 → (0.2553, 0.3662) is the score interval of one
		// of Newcombe's worked examples (Statistics in Medicine, 1998);
		// 0/10, 5/10 and 10/10 are the standard textbook values.
		{"0 of 10", 0, 10, endless, z95, 0, 0.2775},
		{"5 of 10", 5, 10, endless, z95, 0.2366, 0.7634},
		{"10 of 10", 10, 10, endless, z95, 0.7225, 1},
		{"81 of 263", 81, 263, endless, z95, 0.2553, 0.3662},
		// Finite populations.
		{"3 of 10 in 20", 3, 10, 20, z95, nan, nan},
		{"0 of 3 in 9", 0, 3, 9, stat.NormalQuantile(0.95), nan, nan},
		{"7 of 19 in 20", 7, 19, 20, z95, nan, nan},
		{"1 of 1 in 500", 1, 1, 500, stat.NormalQuantile(0.995), nan, nan},
		{"2 of 2 in 100", 2, 2, 100, z95, nan, nan},
		{"19 of 20 in 1000", 19, 20, 1000, z95, nan, nan},
		{"0 of 4 in 40", 0, 4, 40, z95, nan, nan},
		{"7 of 30 in 31", 7, 30, 31, stat.NormalQuantile(0.995), nan, nan},
		{"50 of 100 in 10⁶", 50, 100, 1e6, z95, nan, nan},
		// Where the formula's ends miss 0 or 1 by rounding (by 3.6e-17
		// and 1.1e-16).
		{"0 of 7 in 1000", 0, 7, 1000, z95, nan, nan},
		{"4 of 4 in 8", 4, 4, 8, z95, nan, nan},
		// Whole populations: the exact fraction.
		{"3 of 40 in 40", 3, 40, 40, z95, 0.075, 0.075},
		{"0 of 5 in 5", 0, 5, 5, z95, 0, 0},
		{"5 of 5 in 5", 5, 5, 5, z95, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := stat.WilsonInterval(tt.x, tt.n, tt.size, tt.z)
			blo, bhi := wilsonByBisection(tt.x, tt.n, tt.size, tt.z)
			if math.Abs(lo-blo) > 1e-9 || math.Abs(hi-bhi) > 1e-9 {
				t.Errorf("WilsonInterval = (%.10f, %.10f), direct solution (%.10f, %.10f)", lo, hi, blo, bhi)
			}
			if !math.IsNaN(tt.wantLo) && (math.Abs(lo-tt.wantLo) > 5e-5 || math.Abs(hi-tt.wantHi) > 5e-5) {
				t.Errorf("WilsonInterval = (%.4f, %.4f), published (%.4f, %.4f)", lo, hi, tt.wantLo, tt.wantHi)
			}
			p := float64(tt.x) / float64(tt.n)
			if lo > p || hi < p || lo < 0 || hi > 1 {
				t.Errorf("interval (%v, %v) does not hold p̂ = %v inside [0, 1]", lo, hi, p)
			}
			if tt.x == 0 && lo != 0 || tt.x == tt.n && hi != 1 || tt.n >= tt.size && (lo != p || hi != p) {
				t.Errorf("interval (%v, %v) of %d of %d in %d: an end is not exact", lo, hi, tt.x, tt.n, tt.size)
			}
			if tt.size < endless {
				ilo, ihi := stat.WilsonInterval(tt.x, tt.n, endless, tt.z)
				if lo < ilo-1e-12 || hi > ihi+1e-12 {
					t.Errorf("finite population (%v, %v) wider than infinite (%v, %v)", lo, hi, ilo, ihi)
				}
			}
		})
	}
	if lo, hi := stat.WilsonInterval(0, 0, 40, z95); lo != 0 || hi != 1 {
		t.Errorf("no sample: (%v, %v), want (0, 1)", lo, hi)
	}
	// Wider at a higher level, narrower with a larger sample.
	l1, h1 := stat.WilsonInterval(3, 10, 100, stat.NormalQuantile(0.9))
	l2, h2 := stat.WilsonInterval(3, 10, 100, stat.NormalQuantile(0.995))
	l3, h3 := stat.WilsonInterval(30, 100, 1000, stat.NormalQuantile(0.9))
	if !(l2 < l1 && h2 > h1 && l3 > l1 && h3 < h1) {
		t.Errorf("interval widths out of order: [%v %v] [%v %v] [%v %v]", l1, h1, l2, h2, l3, h3)
	}
}

// sortedMedian is the median by sorting a copy of x: the middle value, or
// the mean of the two middle ones.
func sortedMedian[T int64 | float64](x []T) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return float64(s[n/2])
	}
	return (float64(s[n/2-1]) + float64(s[n/2])) / 2
}

// TestMedian checks Median against gonum's empirical quantile at ½ (the
// middle value) for odd counts, and against the median of the sorted
// values for every count, on random float64 and int64 values with many
// repeats, infinities and wide ranges, and on a few cases by hand.
func TestMedian(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, tt := range []struct {
		x    []float64
		want float64
	}{
		{nil, nan},
		{[]float64{3}, 3},
		{[]float64{2, 1}, 1.5},
		{[]float64{5, 1, 3}, 3},
		{[]float64{2, 2, 2, 2}, 2},
		{[]float64{inf, 1}, inf},
		{[]float64{inf, 1, inf, 0}, inf},
		{[]float64{-inf, inf}, nan},
		{[]float64{inf, 2, inf, 1, inf, inf}, inf},
		// The mean of the middle values, rounded once: 1.4000000000000000777…
		// (0.6 + (2.2 − 0.6)/2 rounds twice, to 1.4).
		{[]float64{2.2, 0.6}, 1.4000000000000001},
	} {
		got := stat.Median(slices.Clone(tt.x))
		if got != tt.want && !(math.IsNaN(got) && math.IsNaN(tt.want)) {
			t.Errorf("Median(%v) = %v, want %v", tt.x, got, tt.want)
		}
	}
	if got := stat.Median([]int64{1 << 62, 1<<62 + 1}); got != 1<<62 {
		t.Errorf("Median of two int64 = %v", got)
	}

	rng := rand.New(rand.NewPCG(9, 9))
	for _, n := range []int{1, 2, 3, 15, 16, 17, 31, 32, 33, 100, 299, 1000, 1001} {
		for _, spread := range []int64{1, 3, 1000, 1 << 40} {
			f := make([]float64, n)
			a := make([]int64, n)
			for i := range n {
				a[i] = rng.Int64N(spread)
				f[i] = float64(rng.Int64N(spread)) / 7
				if rng.IntN(10) == 0 {
					f[i] = inf
				}
			}
			if want := sortedMedian(f); stat.Median(slices.Clone(f)) != want {
				t.Fatalf("Median of %d float64 values below %d = %v, sorting %v", n, spread, stat.Median(slices.Clone(f)), want)
			}
			if want := sortedMedian(a); stat.Median(slices.Clone(a)) != want {
				t.Fatalf("Median of %d int64 values below %d = %v, sorting %v", n, spread, stat.Median(slices.Clone(a)), want)
			}
			if n%2 == 1 {
				s := slices.Sorted(slices.Values(f))
				if want := gstat.Quantile(0.5, gstat.Empirical, s, nil); stat.Median(f) != want {
					t.Fatalf("Median of %d float64 values = %v, gonum %v", n, stat.Median(f), want)
				}
			}
		}
	}
	// Already sorted and organ-pipe inputs, which defeat some pivot rules,
	// must take linear time, not quadratic (a million values).
	a := make([]int64, 1<<20)
	for i := range a {
		a[i] = int64(min(i, len(a)-i))
	}
	if got, want := stat.Median(a), float64(len(a)/4); got != want {
		t.Errorf("median of organ pipe = %v, want %v", got, want)
	}
	if got, want := stat.Median(a), float64(len(a)/4); got != want { // now sorted
		t.Errorf("median of sorted organ pipe = %v, want %v", got, want)
	}
}
