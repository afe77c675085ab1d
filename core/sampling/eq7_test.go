package sampling

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/synth"
)

// eq7Reference is eq. 7 written out independently of Eq7Size: math.Pow
// for the bandwidth, the threshold by explicit order statistics, and the
// kernel density as a plain sum.
func eq7Reference(n, r float64, est []float64) float64 {
	var ps []float64
	for _, x := range est {
		if x >= 0 {
			ps = append(ps, x)
		}
	}
	sort := slices.Clone(ps)
	slices.Sort(sort)
	g := float64(len(sort))
	mean := 0.0
	for _, x := range sort {
		mean += x / g
	}
	pos := (1 - r) * (g - 1)
	i := int(pos)
	pt := sort[i]
	if i+1 < len(sort) {
		pt += (pos - float64(i)) * (sort[i+1] - sort[i])
	}
	m := int(math.Ceil(r * g))
	top := 0.0
	for _, x := range sort[len(sort)-m:] {
		top += x / float64(m)
	}
	v := 0.0
	for _, x := range sort {
		v += (x - mean) * (x - mean) / (g - 1)
	}
	h := 1.06 * math.Sqrt(v) * math.Pow(g, -0.2) * math.Sqrt(5)
	f := 0.0
	for _, x := range sort {
		u := (x - pt) / h
		if math.Abs(u) < 1 {
			f += 3.0 / 4 * (1 - u*u) / (g * h)
		}
	}
	return math.Sqrt(n * r * f / (6 * (top - mean)))
}

// TestEq7Size checks eq. 7's terms on estimates small enough to follow by
// hand, and its size against an independent computation.
func TestEq7Size(t *testing.T) {
	tests := []struct {
		name              string
		n, r              float64
		est               []float64
		pt, top, mean, sz float64 // sz: NaN to check against eq7Reference
	}{
		// Sorted 0, 0.5, 1: p_t the median, the top ⌈1.5⌉ = 2 average 0.75;
		// σ = 0.5, so the kernel's half-width is √5·1.06·0.5/3^0.2 ≈ 0.9513.
		{"three", 100, 0.5, []float64{1, 0, 0.5}, 0.5, 0.75, 0.5, 4.6303},
		// Unsampled groups (−1) are skipped.
		{"skips unsampled", 100, 0.5, []float64{-1, 1, -1, 0, 0.5}, 0.5, 0.75, 0.5, 4.6303},
		// r = 0.1 of ten groups: p_t between the two largest, the top one alone.
		{"tenth", 200, 0.1, []float64{0, 0.1, 0.1, 0.2, 0.2, 0.2, 0.3, 0.4, 0.6, 0.9}, 0.63, 0.9, 0.3, math.NaN()},
		{"quarter", 50, 0.25, []float64{0.05, 0.25, 0.75, 0.5, 0.25, 0, 1, 0.5}, 0.5625, 0.875, 0.4125, math.NaN()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := Eq7Size(tt.n, tt.r, tt.est, nil)
			if math.Abs(e.Threshold-tt.pt) > 1e-12 || math.Abs(e.Top-tt.top) > 1e-12 || math.Abs(e.Mean-tt.mean) > 1e-12 {
				t.Errorf("p_t %v, p̄_r %v, p̄ %v; want %v, %v, %v", e.Threshold, e.Top, e.Mean, tt.pt, tt.top, tt.mean)
			}
			want := tt.sz
			tol := 5e-5
			if math.IsNaN(want) {
				want, tol = eq7Reference(tt.n, tt.r, tt.est), 1e-12
			}
			if math.Abs(e.Size-want) > tol*want {
				t.Errorf("s = %v, want %v", e.Size, want)
			}
			if got := math.Sqrt(e.N * e.R * e.Density / (6 * (e.Top - e.Mean))); math.Abs(got-e.Size) > 1e-12*got {
				t.Errorf("s = %v does not follow from its terms (%v)", e.Size, got)
			}
		})
	}
}

// TestEq7SizeEdges: no gap between equal estimates asks for as many pages
// as the budget allows (+Inf), fewer than two estimates for none (NaN);
// N four times larger doubles s.
func TestEq7SizeEdges(t *testing.T) {
	if e := Eq7Size(100, 0.1, []float64{0.3, 0.3, 0.3, -1}, nil); !math.IsInf(e.Size, 1) {
		t.Errorf("equal estimates: s = %v, want +Inf", e.Size)
	}
	for _, est := range [][]float64{nil, {0.5}, {-1, 0.5, -1}} {
		if e := Eq7Size(100, 0.1, est, nil); !math.IsNaN(e.Size) {
			t.Errorf("estimates %v: s = %v, want NaN", est, e.Size)
		}
	}
	est := []float64{0.1, 0.2, 0.25, 0.5, 0.6, 0.9}
	a, b := Eq7Size(50, 0.2, est, nil), Eq7Size(200, 0.2, est, make([]float64, 0, 8))
	if math.Abs(b.Size-2*a.Size) > 1e-12 {
		t.Errorf("N×4 gives s %v, want twice %v", b.Size, a.Size)
	}
}

func TestRoundSize(t *testing.T) {
	tests := []struct {
		s              float64
		fallback, most int
		want           int
	}{
		{2.49, 4, 10, 2}, {2.5, 4, 10, 3}, {0.2, 4, 10, 1}, {12, 4, 10, 10},
		{math.Inf(1), 4, 10, 10}, {math.NaN(), 4, 10, 4}, {math.NaN(), 40, 10, 40}, {3, 4, 0, 1},
	}
	for _, tt := range tests {
		if got := RoundSize(tt.s, tt.fallback, tt.most); got != tt.want {
			t.Errorf("RoundSize(%v, %d, %d) = %d, want %d", tt.s, tt.fallback, tt.most, got, tt.want)
		}
	}
}

func TestFifthRoot(t *testing.T) {
	for _, x := range []float64{1, 2, 3, 12, 32, 40, 243, 1000, 1e6, 123456.789} {
		if got, want := fifthRoot(x), math.Pow(x, 0.2); math.Abs(got-want) > 1e-14*want {
			t.Errorf("fifthRoot(%v) = %v, want %v", x, got, want)
		}
	}
}

// TestSiteEq7Sizes checks site sampling's sampleRule: with sqrt every
// cycle samples the first cycle's size; with eq7 the first cycle samples
// it and every later one the size eq. 7 gives from the cycle before's
// estimates, capped where the samples would take the budget.
func TestSiteEq7Sizes(t *testing.T) {
	d := synth.AlQaaidehJordan(1)
	budget := len(d.Pages) / 10
	for _, rule := range []string{RuleSqrt, RuleEq7} {
		env := refresh.Env{Repo: &d.Repository, Budget: budget, Rand: rand.New(rand.NewPCG(1, 2)), Params: param.Values{"sampleRule": rule}}
		s := NewSite(env, Greedy)
		first := s.SampleSize()
		if first != DefaultSampleSize(len(d.Pages), len(d.Sites), budget) {
			t.Fatalf("%s: first size %d, want √(N·r)", rule, first)
		}
		sim := refresh.NewSim(d)
		want, prev := first, []float64(nil)
		varied := false
		sim.After = func(c int) {
			if s.SampleSize() != want {
				t.Errorf("%s cycle %d: sampled %d per site, want %d", rule, c, s.SampleSize(), want)
			}
			prev = slices.Clone(s.SiteEstimates())
			if rule == RuleEq7 {
				want = RoundSize(Eq7Size(float64(len(d.Pages))/float64(len(d.Sites)), float64(budget)/float64(len(d.Pages)), prev, nil).Size, first, budget/len(d.Sites))
				varied = varied || want != first
			}
		}
		sim.Run(s, budget, d.Truth.Cycles(), nil)
		if rule == RuleEq7 && !varied {
			t.Errorf("eq7 never moved from %d", first)
		}
	}
}
