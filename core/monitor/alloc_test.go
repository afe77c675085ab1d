package monitor

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/stat"
)

// randInstance draws n pages over p instants at uniform gaps in an epoch of
// 1, weights from {0, 1, 2, 3}·(some), probabilities from a small set so
// that ties are common.
func randInstance(rng *rand.Rand, n, p int) *Instance {
	in := &Instance{T: 1, Times: UniformTimes(1, p), Weight: make([]float64, n), Rho: make([][]float64, n)}
	vals := []float64{0, 0.05, 0.1, 0.1, 0.25, 0.5, 0.9}
	for i := range n {
		in.Weight[i] = float64(rng.IntN(4)) * 0.5
		in.Rho[i] = make([]float64, p)
		for j := range p {
			in.Rho[i][j] = vals[rng.IntN(len(vals))]
		}
	}
	return in
}

// gain is the objective of §3.2: Σ W_i Σ_j ρ_ij y_ij.
func gain(in *Instance, a Allocation) float64 {
	var s float64
	for i, js := range a {
		for _, j := range js {
			s += in.Weight[i] * in.Rho[i][j]
		}
	}
	return s
}

// bruteBest is the largest objective of any set of exactly c cells.
func bruteBest(in *Instance, c int) float64 {
	n, p := in.Pages(), in.Instants()
	cells := n * p
	best := math.Inf(-1)
	for mask := uint32(0); mask < 1<<cells; mask++ {
		if bits.OnesCount32(mask) != c {
			continue
		}
		var s float64
		for k := range cells {
			if mask&(1<<k) != 0 {
				s += in.Weight[k/p] * in.Rho[k/p][k%p]
			}
		}
		best = max(best, s)
	}
	return best
}

// checkAllocation reports an allocation that is not a set of distinct
// instants per page, ascending, in range.
func checkAllocation(t *testing.T, in *Instance, a Allocation) {
	t.Helper()
	if len(a) != in.Pages() {
		t.Fatalf("%d pages allocated, want %d", len(a), in.Pages())
	}
	for i, js := range a {
		for k, j := range js {
			if j < 0 || int(j) >= in.Instants() || k > 0 && js[k-1] >= j {
				t.Fatalf("page %d: instants %v not ascending, distinct and in [0, %d)", i, js, in.Instants())
			}
		}
	}
}

// CAM's allocation is optimal: on small random instances (ties common) its
// objective equals the best of every set of C cells, for every C.
func TestCAMMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for trial := range 60 {
		n, p := 1+rng.IntN(3), 1+rng.IntN(4)
		in := randInstance(rng, n, p)
		for c := 0; c <= n*p; c++ {
			a, err := CAM{}.Allocate(in, c, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkAllocation(t, in, a)
			if a.Tasks() > c {
				t.Fatalf("trial %d, C = %d: %d tasks", trial, c, a.Tasks())
			}
			if got, want := gain(in, a), bruteBest(in, c); math.Abs(got-want) > 1e-12 {
				t.Fatalf("trial %d (%d pages, %d instants), C = %d: CAM gains %v, the best set %v\nW %v ρ %v\nallocation %v",
					trial, n, p, c, got, want, in.Weight, in.Rho, a)
			}
		}
	}
}

// CAM spends every task (§3.1: "all used up"): the cells worth monitoring
// first, nested as the budget grows (the greedy keeps the smaller budget's
// choices), so its RIR never falls; only then the others, and only on
// pages of positive weight.
func TestCAMSpendsEveryTask(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 1))
	for range 20 {
		in := randInstance(rng, 6, 10)
		worth, room := 0, 0
		for i, row := range in.Rho {
			if in.Weight[i] > 0 {
				room += len(row)
			}
			for _, r := range row {
				if in.Weight[i]*r > 0 {
					worth++
				}
			}
		}
		var prev Allocation
		for c := 0; c <= 70; c++ {
			a, err := CAM{}.Allocate(in, c, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkAllocation(t, in, a)
			if want := min(c, room); a.Tasks() != want {
				t.Fatalf("C = %d: %d tasks, want %d (%d cells on pages of positive weight)", c, a.Tasks(), want, room)
			}
			got := 0
			for i, js := range a {
				for _, j := range js {
					if in.Weight[i] == 0 {
						t.Fatalf("C = %d: a task on page %d of weight 0", c, i)
					}
					if in.Rho[i][j] > 0 {
						got++
					}
				}
			}
			if got != min(c, worth) {
				t.Fatalf("C = %d: %d cells worth monitoring used, want %d", c, got, min(c, worth))
			}
			for i := range prev {
				for _, j := range prev[i] {
					if in.Rho[i][j] > 0 && !slices.Contains(a[i], j) {
						t.Fatalf("C = %d drops page %d's instant %d that C − 1 monitored", c, i, j)
					}
				}
			}
			prev = a
		}
	}
}

// With nothing worth monitoring, CAM's tasks go as weighted uniform's
// would with equal weights: ⌊C/n⌋ or ⌈C/n⌉ a page (the extra ones to the
// lower pages), each page's evenly in the middle of its runs.
func TestCAMSpreadsWhatGainsNothing(t *testing.T) {
	const n, p = 3, 12
	in := &Instance{T: 1, Times: UniformTimes(1, p), Weight: []float64{1, 1, 1}, Rho: make([][]float64, n)}
	for i := range in.Rho {
		in.Rho[i] = make([]float64, p)
	}
	for c := 0; c <= n*p; c++ {
		a, err := CAM{}.Allocate(in, c, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, js := range a {
			x := c / n
			if i < c%n {
				x++
			}
			if want := Spread(x, p, 0.5); !slices.Equal(js, want) {
				t.Fatalf("C = %d, page %d: instants %v, want %v", c, i, js, want)
			}
		}
	}
}

// The baselines split C in the proportions they are named for, each page
// at most its instants, and place each page's tasks evenly.
func TestShareProportions(t *testing.T) {
	in := &Instance{T: 1, Times: UniformTimes(1, 100), Weight: []float64{1, 2, 3, 4}, Rho: make([][]float64, 4)}
	for i, lam := range []float64{8, 4, 2, 1} {
		in.Rho[i] = make([]float64, 100)
		for j := range in.Rho[i] {
			in.Rho[i][j] = lam / 100
		}
	}
	for _, tc := range []struct {
		name   string
		s      Share
		budget int
		want   []int
	}{
		{"uniform", Share{}, 40, []int{10, 10, 10, 10}},
		{"weighted uniform", Share{Weighted: true}, 40, []int{4, 8, 12, 16}},
		{"proportional", Share{Proportional: true}, 60, []int{32, 16, 8, 4}},
		// W·λ = 8, 8, 6, 4: shares 14.8, 14.8, 11.1, 7.4; the two largest
		// remainders get the two tasks left.
		{"weighted proportional", Share{Weighted: true, Proportional: true}, 48, []int{15, 15, 11, 7}},
		// Page 0's share of 8/15·300 = 160 exceeds its 100 instants: it
		// gets 100, the rest share 200 as 4:2:1; page 1's 114 exceeds its
		// 100 too, and the last two share 100 as 2:1.
		{"proportional, capped", Share{Proportional: true}, 300, []int{100, 100, 67, 33}},
		{"more than all instants", Share{}, 1000, []int{100, 100, 100, 100}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := tc.s.Allocate(in, tc.budget, rand.New(rand.NewPCG(3, 3)))
			if err != nil {
				t.Fatal(err)
			}
			checkAllocation(t, in, a)
			for i, js := range a {
				if len(js) != tc.want[i] {
					t.Errorf("page %d: %d tasks, want %d", i, len(js), tc.want[i])
				}
			}
		})
	}
}

// Spread places x tasks one in each of x equal runs of the p instants, at
// the same offset φ·p/x into each: consecutive tasks are ⌊p/x⌋ or ⌈p/x⌉
// apart, all distinct and in range, and the phase moves them all.
func TestSpread(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for range 2000 {
		p := 1 + rng.IntN(500)
		x := rng.IntN(p + 1)
		phi := rng.Float64()
		js := Spread(x, p, phi)
		if len(js) != x {
			t.Fatalf("Spread(%d, %d, %v): %d instants", x, p, phi, len(js))
		}
		for k, j := range js {
			lo := float64(k) * float64(p) / float64(x)
			if float64(j) < math.Floor(lo) || float64(j) >= lo+float64(p)/float64(x) || int(j) >= p {
				t.Fatalf("Spread(%d, %d, %v)[%d] = %d, outside run [%v, %v)", x, p, phi, k, j, lo, lo+float64(p)/float64(x))
			}
			if k > 0 {
				gap := int(j - js[k-1])
				if gap < p/x || gap > (p+x-1)/x {
					t.Fatalf("Spread(%d, %d, %v): gap %d between tasks %d and %d, want ⌊p/x⌋ or ⌈p/x⌉", x, p, phi, gap, k-1, k)
				}
			}
		}
	}
	if got := Spread(4, 480, 0); !slices.Equal(got, []int32{0, 120, 240, 360}) {
		t.Errorf("Spread(4, 480, 0) = %v", got)
	}
	if got := Spread(4, 480, 0.5); !slices.Equal(got, []int32{60, 180, 300, 420}) {
		t.Errorf("Spread(4, 480, 0.5) = %v", got)
	}
	if got := Spread(3, 3, 0.9999999999999999); !slices.Equal(got, []int32{0, 1, 2}) {
		t.Errorf("Spread(3, 3, 1−ε) = %v", got)
	}
}

// The baselines' expected RIR, averaged over their random phases, is what
// evenly spaced tasks that know nothing of the instants earn: x_i times
// page i's mean ρ. A placement that looked at ρ would beat it on a profile
// with humps.
func TestShareIgnoresInstants(t *testing.T) {
	in := &Instance{T: 1, Times: UniformTimes(1, 48), Weight: []float64{1, 1}, Rho: make([][]float64, 2)}
	for i := range in.Rho {
		in.Rho[i] = make([]float64, 48)
		for j := range 48 {
			if j%12 == 11 { // a hump every 12 instants
				in.Rho[i][j] = 0.8
			} else {
				in.Rho[i][j] = 0.01
			}
		}
	}
	rng := rand.New(rand.NewPCG(5, 5))
	xs := make([]float64, 4000)
	for k := range xs {
		a, err := Share{Proportional: true}.Allocate(in, 8, rng)
		if err != nil {
			t.Fatal(err)
		}
		xs[k] = RIR(in, a)
	}
	s := stat.Summarize(xs)
	lam := in.Lambda(0)
	want := 8 * (lam / 48) / (2 * lam) // 4 tasks a page at the mean ρ each
	if se := s.SD / math.Sqrt(float64(s.N)); math.Abs(s.Mean-want) > 4*se {
		t.Errorf("proportional's mean RIR %v ± %v, want %v (x_i × mean ρ)", s.Mean, se, want)
	}
	a, _ := CAM{}.Allocate(in, 8, nil)
	if got := RIR(in, a); math.Abs(got-8*0.8/(2*lam)) > 1e-12 {
		t.Errorf("CAM's RIR %v, want the 8 humps' %v", got, 8*0.8/(2*lam))
	}
}

func TestAllocateRefusesBadPlans(t *testing.T) {
	good := func() *Instance {
		return &Instance{T: 1, Times: []float64{0.5, 1}, Weight: []float64{1}, Rho: [][]float64{{0.1, 0.2}}}
	}
	for _, tc := range []struct {
		name   string
		edit   func(*Instance)
		budget int
	}{
		{"negative budget", func(*Instance) {}, -1},
		{"no probabilities", func(in *Instance) { in.Rho = nil }, 1},
		{"probability above 1", func(in *Instance) { in.Rho[0][1] = 1.5 }, 1},
		{"NaN probability", func(in *Instance) { in.Rho[0][0] = math.NaN() }, 1},
		{"short row", func(in *Instance) { in.Rho[0] = in.Rho[0][:1] }, 1},
		{"negative weight", func(in *Instance) { in.Weight[0] = -1 }, 1},
		{"instants out of order", func(in *Instance) { in.Times = []float64{1, 0.5} }, 1},
		{"instant beyond T", func(in *Instance) { in.Times = []float64{0.5, 2} }, 1},
		{"instant at 0", func(in *Instance) { in.Times = []float64{0, 1} }, 1},
		{"no epoch", func(in *Instance) { in.T = 0 }, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := good()
			tc.edit(in)
			for _, d := range Descriptors() {
				if _, err := d.Policy.Allocate(in, tc.budget, rand.New(rand.NewPCG(1, 1))); err == nil {
					t.Errorf("%s allocated", d.ID)
				}
			}
		})
	}
	for _, d := range Descriptors() {
		if _, err := d.Policy.Allocate(good(), 1, rand.New(rand.NewPCG(1, 1))); err != nil {
			t.Errorf("%s: %v", d.ID, err)
		}
	}
}

// Among instants of equal ρ CAM takes them spread out: on a flat profile
// of a power-of-two number of instants its x tasks are evenly spaced for
// every x that is a power of two, and for any x no gap (around the epoch)
// exceeds twice the even one.
func TestCAMSpreadsTies(t *testing.T) {
	for _, p := range []int{16, 480} {
		in := &Instance{T: 1, Times: UniformTimes(1, p), Weight: []float64{1}, Rho: [][]float64{make([]float64, p)}}
		for j := range p {
			in.Rho[0][j] = 0.01
		}
		for x := 1; x <= p; x++ {
			a, err := CAM{}.Allocate(in, x, nil)
			if err != nil {
				t.Fatal(err)
			}
			js := a[0]
			if p == 16 && x&(x-1) == 0 {
				if want := Spread(x, p, 0); !slices.Equal(js, want) {
					t.Fatalf("p = %d, x = %d: %v, want %v", p, x, js, want)
				}
			}
			for k := range js {
				gap := int(js[(k+1)%len(js)]) - int(js[k])
				if gap <= 0 {
					gap += p
				}
				if limit := 2 * ((p + x - 1) / x); gap > limit {
					t.Fatalf("p = %d, x = %d: gap %d after instant %d exceeds %d: %v", p, x, gap, js[k], limit, js)
				}
			}
		}
	}
}
