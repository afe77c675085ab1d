package schedule

import (
	"math"
	"math/rand/v2"
	"testing"
)

// countPolicies is every allocation policy, by the catalog's ids.
var countPolicies = []struct {
	name string
	p    Policy
}{
	{"cgm-uniform", Uniform{}},
	{"cgm-proportional", Proportional{}},
	{"cgm-optimal-freshness", ChoFreshness{}},
	{"cgm-optimal-age", ChoAge{}},
	{"azar-weighted", Azar{}},
	{"lambdacrawl", LambdaCrawl{}},
	{"lambdacrawl-approx", LambdaCrawlApprox{}},
	{"olston-pandey", OlstonPandey{}},
}

// TestCountsMatchExpanded checks Input.Counts against its definition: an
// entry of count c plans exactly as c identical pages would. Both inputs
// solve the same equations for the same multiplier; only the order of the
// budget sums differs (c·f_i added once rather than f_i added c times) and
// the root finders' iterates follow slightly different paths, so the rates
// agree to a few hundred ulps, far inside 1e-9 relative; a wrong weighting
// of any sum by the counts moves them by percents.
func TestCountsMatchExpanded(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for k := range 12 {
		n := 3 + rng.IntN(10)
		var in, ex Input
		in.Budget = 0.5 + 20*rng.Float64()
		ex.Budget = in.Budget
		weighted := k%2 == 1
		for range n {
			r := math.Pow(10, -2+3*rng.Float64()) // 0.01 to 10 changes a day
			if rng.IntN(6) == 0 {
				r = 0
			}
			w := 1.0
			if weighted {
				w = math.Pow(10, -1+2*rng.Float64())
			}
			c := 1 + rng.IntN(4)
			in.Rates = append(in.Rates, r)
			in.Counts = append(in.Counts, float64(c))
			if weighted {
				in.Weights = append(in.Weights, w)
			}
			for range c {
				ex.Rates = append(ex.Rates, r)
				if weighted {
					ex.Weights = append(ex.Weights, w)
				}
			}
		}
		for _, pc := range countPolicies {
			got, err := pc.p.Allocate(in, nil)
			if err != nil {
				t.Fatalf("case %d %s: %v", k, pc.name, err)
			}
			want, err := pc.p.Allocate(ex, nil)
			if err != nil {
				t.Fatalf("case %d %s expanded: %v", k, pc.name, err)
			}
			j := 0
			var spent float64
			for i, f := range got.Rates {
				spent += in.Counts[i] * f
				for range int(in.Counts[i]) {
					if g := want.Rates[j]; math.Abs(f-g) > 1e-9*math.Max(math.Abs(g), 1e-300) && !(f == 0 && g == 0) {
						t.Errorf("case %d %s: entry %d (λ=%g, count %v) gets %.17g, its page %d in the expanded input %.17g", k, pc.name, i, in.Rates[i], in.Counts[i], f, j, g)
					}
					j++
				}
			}
			if math.Abs(spent-want.Spent()) > 1e-9*in.Budget {
				t.Errorf("case %d %s: Σc·f = %g, expanded Σf = %g", k, pc.name, spent, want.Spent())
			}
		}
	}
}

func TestCountsCheck(t *testing.T) {
	for _, c := range []struct {
		counts []float64
		ok     bool
	}{
		{[]float64{1, 2}, true},
		{[]float64{0, 2.5}, true},
		{[]float64{1}, false},
		{[]float64{-1, 2}, false},
		{[]float64{math.NaN(), 2}, false},
		{[]float64{math.Inf(1), 2}, false},
		{[]float64{0, 0}, false},
	} {
		err := Input{Rates: []float64{1, 2}, Budget: 1, Counts: c.counts}.Check()
		if (err == nil) != c.ok {
			t.Errorf("counts %v: Check = %v, want ok %v", c.counts, err, c.ok)
		}
	}
}
