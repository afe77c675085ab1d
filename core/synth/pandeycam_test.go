package synth

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/monitor"
)

// The relations datasets/README.md lists for pandey-cam, checked on the
// bundled configuration and on variations of it: λ_i Zipf over pages and
// the sum of page i's ρ; every ρ in [0, rhoMax]; the weights Zipf over
// the rank the order gives, each the sum of its page's relevances to
// queriesPerPage distinct queries of importance 1; sizes at most sizeMax,
// the smallest to the heaviest pages.
func TestPandeyCAMRelations(t *testing.T) {
	base := PandeyCAMDefault
	for _, tc := range []struct {
		name string
		edit func(*PandeyCAMConfig)
	}{
		{"bundled", func(*PandeyCAMConfig) {}},
		{"uniform profile, skewed weights", func(c *PandeyCAMConfig) { c.Profile, c.WeightSkew = "uniform", 1 }},
		{"flat rates, static weights", func(c *PandeyCAMConfig) { c.RateSkew, c.WeightSkew, c.WeightOrder = 0, 2, "static" }},
		{"random weights, coarse ladder", func(c *PandeyCAMConfig) { c.WeightSkew, c.WeightOrder, c.Levels, c.UpdateSkew = 1, "random", 5, 2 }},
		{"most changes the clip allows", func(c *PandeyCAMConfig) { c.Changes = 0.3 * 480 * zipfSum(500, 2) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := base
			tc.edit(&c)
			m, err := PandeyCAMWith(11, c)
			if err != nil {
				t.Fatal(err)
			}
			in := &m.Instance
			if err := in.Validate(); err != nil {
				t.Fatal(err)
			}
			if in.Pages() != c.Pages || in.Instants() != c.Instants || in.T != c.Epoch {
				t.Fatalf("%d pages, %d instants, epoch %v", in.Pages(), in.Instants(), in.T)
			}
			z := zipfSum(c.Pages, c.RateSkew)
			var sum float64
			for i := range c.Pages {
				want := c.Changes * math.Pow(float64(i+1), -c.RateSkew) / z
				if got := in.Lambda(i); math.Abs(got-want) > 1e-9*max(1, want) {
					t.Fatalf("page %d: Σ_j ρ = %v, want λ = %v", i, got, want)
				}
				sum += in.Lambda(i)
				for j, r := range in.Rho[i] {
					if !(r >= 0 && r <= c.RhoMax) {
						t.Fatalf("page %d, instant %d: ρ = %v outside [0, %v]", i, j, r, c.RhoMax)
					}
					if c.Profile == "uniform" && math.Abs(r-in.Lambda(i)/float64(c.Instants)) > 1e-15 {
						t.Fatalf("uniform profile: page %d, instant %d: ρ = %v, want λ/p", i, j, r)
					}
				}
			}
			if math.Abs(sum-c.Changes) > 1e-9*c.Changes {
				t.Errorf("Σλ = %v, want %v", sum, c.Changes)
			}
			ranks := make([]float64, c.Pages)
			for i := range c.Pages {
				var w float64
				qs := map[int32]bool{}
				for _, r := range m.Relevance[i] {
					if !(r.R > 0) || qs[r.Query] || r.Query < 0 || int(r.Query) >= c.Queries {
						t.Fatalf("page %d: relevance %+v (queries so far %v)", i, r, qs)
					}
					qs[r.Query] = true
					w += m.Importance[r.Query] * r.R
				}
				if len(qs) != c.QueriesPerPage || w != in.Weight[i] {
					t.Fatalf("page %d: %d queries, Σ ω r = %v, weight %v", i, len(qs), w, in.Weight[i])
				}
				// W = rank^−s: the rank back from the weight.
				ranks[i] = 1
				if c.WeightSkew > 0 {
					ranks[i] = math.Pow(in.Weight[i], -1/c.WeightSkew)
				}
			}
			for _, o := range m.Importance {
				if o != 1 {
					t.Fatalf("query importance %v, want 1", o)
				}
			}
			if c.WeightSkew > 0 {
				got := slices.Clone(ranks)
				slices.Sort(got)
				for k, r := range got {
					if math.Abs(r-float64(k+1)) > 1e-6*float64(k+1) {
						t.Fatalf("weights are not Zipf over the ranks 1..N: the %d-th rank is %v", k+1, r)
					}
				}
				switch c.WeightOrder {
				case "dynamic":
					if !slices.IsSorted(ranks) {
						t.Error("dynamic order: a less dynamic page weighs more")
					}
				case "static":
					if !slices.IsSortedFunc(ranks, func(a, b float64) int { return -cmpF(a, b) }) {
						t.Error("static order: a more dynamic page weighs more")
					}
				}
			}
			for i := range c.Pages {
				if !(m.Size[i] > 0 && m.Size[i] <= c.SizeMax) {
					t.Fatalf("page %d: size %v outside (0, %v]", i, m.Size[i], c.SizeMax)
				}
				for k := range c.Pages {
					if in.Weight[k] > in.Weight[i] && m.Size[k] > m.Size[i] {
						t.Fatalf("page %d weighs more than page %d but is larger (%v > %v bytes)", k, i, m.Size[k], m.Size[i])
					}
				}
			}
		})
	}
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// The update probabilities of a page take the values of a ladder of
// Levels steps, step k drawn with probability ∝ k^−updateSkew; with no
// clipping, a row's values are its steps times one scale, so each row's
// count of each step is multinomial. The counts over rows, pooled, match
// their expectation within four standard errors.
func TestPandeyCAMLadder(t *testing.T) {
	c := PandeyCAMDefault
	c.Pages, c.Queries, c.Instants, c.Levels, c.UpdateSkew, c.Changes, c.Humps = 50, 50, 2000, 4, 1, 50, 3
	m, err := PandeyCAMWith(5, c)
	if err != nil {
		t.Fatal(err)
	}
	count := make([]float64, c.Levels)
	for i, row := range m.Instance.Rho {
		lo := slices.Min(row)
		for j, r := range row {
			k := int(math.Round(r/lo)) - 1
			if k < 0 || k >= c.Levels || math.Abs(r/lo-float64(k+1)) > 1e-9 {
				t.Fatalf("page %d, instant %d: ρ = %v is not a whole multiple (1 to %d) of the row's least %v", i, j, r, c.Levels, lo)
			}
			count[k]++
		}
	}
	// Every row has its least step at least once (with 2000 draws the
	// chance it has not is negligible), so the scale is that step's.
	var z float64
	for k := range c.Levels {
		z += 1 / float64(k+1)
	}
	total := float64(c.Pages * c.Instants)
	for k, got := range count {
		p := 1 / float64(k+1) / z
		if se := math.Sqrt(total * p * (1 - p)); math.Abs(got-total*p) > 4*se {
			t.Errorf("step %d: %v values, want %v ± %v", k+1, got, total*p, se)
		}
	}
}

// The dataset view holds the coins of §5.1: over its epochs, page i's
// changes number Epochs·λ_i in expectation; pooled over pages the count is
// within four standard errors (Bernoulli variances) of it. Weight and
// size features are the model's.
func TestPandeyCAMDataset(t *testing.T) {
	m, err := PandeyCAMWith(2, PandeyCAMDefault)
	if err != nil {
		t.Fatal(err)
	}
	d := m.Dataset(2)
	checkWellFormed(t, d)
	c := PandeyCAMDefault
	if d.Info.ID != "pandey-cam" || d.Truth.Cycles() != c.Epochs*c.Instants || len(d.Pages) != c.Pages {
		t.Fatalf("info %+v, %d cycles, %d pages", d.Info, d.Truth.Cycles(), len(d.Pages))
	}
	if !slices.Equal(d.Features[monitor.FeatureWeight], m.Instance.Weight) || !slices.Equal(d.Features["size"], m.Size) {
		t.Error("weight or size feature differs from the model")
	}
	var got, want, v float64
	for _, ch := range d.Truth.Changed {
		got += float64(len(ch))
	}
	for _, row := range m.Instance.Rho {
		for _, r := range row {
			want += r * float64(c.Epochs)
			v += r * (1 - r) * float64(c.Epochs)
		}
	}
	if math.Abs(got-want) > 4*math.Sqrt(v) {
		t.Errorf("%v changes, want %v ± %v", got, want, math.Sqrt(v))
	}
	c.Pages = 499
	m2, err := PandeyCAMWith(2, c)
	if err != nil {
		t.Fatal(err)
	}
	if id := m2.Dataset(2).Info.ID; id == "pandey-cam" || !strings.HasPrefix(id, "pandey-cam-") {
		t.Errorf("a changed configuration's id %q", id)
	}
}

// Check names the field out of range by its JSON name.
func TestPandeyCAMCheck(t *testing.T) {
	var names []string
	ty := reflect.TypeFor[PandeyCAMConfig]()
	for i := range ty.NumField() {
		names = append(names, ty.Field(i).Tag.Get("json"))
	}
	for _, tc := range []struct {
		field string
		edit  func(*PandeyCAMConfig)
	}{
		{"queries", func(c *PandeyCAMConfig) { c.Queries = 0 }},
		{"pages", func(c *PandeyCAMConfig) { c.Pages = 0 }},
		{"instants", func(c *PandeyCAMConfig) { c.Instants = 0 }},
		{"epoch", func(c *PandeyCAMConfig) { c.Epoch = math.Inf(1) }},
		{"rhoMax", func(c *PandeyCAMConfig) { c.RhoMax = 0 }},
		{"changes", func(c *PandeyCAMConfig) { c.Changes = math.NaN() }},
		{"changes", func(c *PandeyCAMConfig) { c.Changes = 240 }}, // the busiest page past 0.3 × 480
		{"rateSkew", func(c *PandeyCAMConfig) { c.RateSkew = -1 }},
		{"profile", func(c *PandeyCAMConfig) { c.Profile = "flat" }},
		{"updateSkew", func(c *PandeyCAMConfig) { c.UpdateSkew = 11 }},
		{"levels", func(c *PandeyCAMConfig) { c.Levels = -1 }},
		{"humps", func(c *PandeyCAMConfig) { c.Humps = 0 }},
		{"weightSkew", func(c *PandeyCAMConfig) { c.WeightSkew = math.NaN() }},
		{"weightOrder", func(c *PandeyCAMConfig) { c.WeightOrder = "popular" }},
		{"queriesPerPage", func(c *PandeyCAMConfig) { c.QueriesPerPage = 501 }},
		{"sizeMedian", func(c *PandeyCAMConfig) { c.SizeMedian = 0 }},
		{"sizeSigma", func(c *PandeyCAMConfig) { c.SizeSigma = 6 }},
		{"tailShare", func(c *PandeyCAMConfig) { c.TailShare = 2 }},
		{"tailMin", func(c *PandeyCAMConfig) { c.TailMin = -1 }},
		{"tailAlpha", func(c *PandeyCAMConfig) { c.TailAlpha = 0 }},
		{"sizeMax", func(c *PandeyCAMConfig) { c.SizeMax = 1 }},
		{"epochs", func(c *PandeyCAMConfig) { c.Epochs = 0 }},
	} {
		if !slices.Contains(names, tc.field) {
			t.Errorf("%s: not the JSON name of a field (%v)", tc.field, names)
		}
		c := PandeyCAMDefault
		tc.edit(&c)
		err := c.Check()
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: error %v, want one naming it", tc.field, err)
		}
	}
	if err := PandeyCAMDefault.Check(); err != nil {
		t.Errorf("the defaults: %v", err)
	}
}
