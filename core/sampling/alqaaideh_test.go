package sampling

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/synth"
)

// alQaaidehDescriptors are the policies of adaptive.go, group.go and
// hybrid.go.
func alQaaidehDescriptors() []refresh.Descriptor {
	var ds []refresh.Descriptor
	ds = append(ds, AdaptiveDescriptors()...)
	ds = append(ds, GroupDescriptors()...)
	return append(ds, HybridDescriptors()...)
}

// randomParams draws values for ps within their ranges (wide ranges are
// cut to a few times the dataset's size, where the behaviour changes).
func randomParams(rng *rand.Rand, ps []param.Param, pages int) param.Values {
	v := param.Values{}
	for _, p := range ps {
		switch p.Type {
		case param.Int:
			hi := min(*p.Max, float64(2*pages+2))
			v[p.Name] = float64(int(*p.Min) + rng.IntN(int(hi-*p.Min)+1))
		case param.Float:
			v[p.Name] = *p.Min + rng.Float64()*(*p.Max-*p.Min)
		case param.Enum:
			v[p.Name] = p.Options[rng.IntN(len(p.Options))]
		}
	}
	return v
}

// checkPolicy runs desc on a dataset whose every page changes every cycle
// and fails unless every cycle downloads min(budget, pages) distinct pages
// (a second download of a page in a cycle would find no change), the
// estimates are fractions or -1, and a reused policy repeats a new one's
// numbers.
func checkPolicy(t *testing.T, desc refresh.Descriptor, d *dataset.Dataset, budget int, params param.Values, seed uint64) {
	t.Helper()
	checked, err := param.Check(desc.Params, params)
	if err != nil {
		t.Fatalf("%s: %v", desc.ID, err)
	}
	cycles := d.Truth.Cycles()
	run := func(p refresh.Policy, sim *refresh.Sim) string {
		var ests []float64
		sim.After = func(int) { ests = append(ests, p.(refresh.SiteEstimator).SiteEstimates()...) }
		out := sim.Run(p, budget, cycles, nil)
		for c, cy := range out {
			if want := min(budget, len(d.Pages)); cy.Downloads != want || cy.Changed != want {
				t.Fatalf("%s %v budget %d cycle %d: %d downloads, %d changed; want %d distinct pages",
					desc.ID, params, budget, c, cy.Downloads, cy.Changed, want)
			}
		}
		for _, e := range ests {
			if e != -1 && (e < 0 || e > 1) {
				t.Fatalf("%s %v: estimate %v", desc.ID, params, e)
			}
		}
		return fmt.Sprint(out, ests)
	}
	env := func(r uint64, sim *refresh.Sim) refresh.Env {
		return refresh.Env{Repo: &d.Repository, Budget: budget, Cycles: cycles, Rand: rand.New(rand.NewPCG(seed, r)), Params: checked, Truth: truthOf(desc, sim)}
	}
	sim := refresh.NewSim(d)
	p, err := desc.New(env(0, sim))
	if err != nil {
		t.Fatal(err)
	}
	run(p, sim)
	sim = refresh.NewSim(d)
	p.(refresh.Reuser).Reuse(env(1, sim))
	reused := run(p, sim)
	sim = refresh.NewSim(d)
	p, _ = desc.New(env(1, sim))
	if fresh := run(p, sim); fresh != reused {
		t.Fatalf("%s %v: reused policy differs from a new one", desc.ID, params)
	}
}

// truthOf is the truth the lab gives desc: sim for an oracle, else none.
func truthOf(desc refresh.Descriptor, sim *refresh.Sim) refresh.Truth {
	if desc.Oracle {
		return sim
	}
	return nil
}

// randomSites returns sites of random sizes (some empty-ish) whose pages
// all change every cycle.
func randomSites(t testing.TB, rng *rand.Rand) *dataset.Dataset {
	sizes := make([]int, 1+rng.IntN(8))
	for i := range sizes {
		sizes[i] = 1 + rng.IntN(25)
	}
	return allChanging(t, sizes, 1+rng.IntN(5))
}

// TestBudgetProperty checks checkPolicy's invariants for every policy of
// this file's descriptors on 60 random datasets, budgets and parameters.
func TestBudgetProperty(t *testing.T) {
	for seed := range uint64(60) {
		rng := rand.New(rand.NewPCG(seed, 77))
		d := randomSites(t, rng)
		budget := 1 + rng.IntN(len(d.Pages)+5)
		for _, desc := range alQaaidehDescriptors() {
			checkPolicy(t, desc, d, budget, randomParams(rng, desc.Params, len(d.Pages)), seed)
		}
	}
}

// FuzzPolicies feeds random datasets, budgets and parameter values (as a
// spec would carry them, within the published ranges) to every policy of
// this file's descriptors and checks checkPolicy's invariants.
func FuzzPolicies(f *testing.F) {
	for _, s := range []uint64{1, 2, 3, 42, 1 << 40} {
		f.Add(s, uint8(0), uint16(10))
	}
	f.Fuzz(func(t *testing.T, seed uint64, which uint8, budget uint16) {
		rng := rand.New(rand.NewPCG(seed, 1))
		d := randomSites(t, rng)
		descs := alQaaidehDescriptors()
		desc := descs[int(which)%len(descs)]
		checkPolicy(t, desc, d, 1+int(budget)%(len(d.Pages)+5), randomParams(rng, desc.Params, len(d.Pages)), seed)
	})
}

// benchSites returns the benchmark dataset of the brief: 100,000 pages ×
// 12 cycles, here on 500 sites of 20 to 380 pages whose change rates are
// spread from 0 to 0.6 (each page changes in each cycle with its site's
// rate, seeded).
func benchSites(b testing.TB) *dataset.Dataset {
	rng := rand.New(rand.NewPCG(1, 2))
	d := &dataset.Dataset{Info: dataset.Info{ID: "bench-sites"}}
	var rate []float64
	for len(d.Pages) < 100_000 {
		w := int32(len(d.Sites))
		d.Sites = append(d.Sites, fmt.Sprintf("site-%d", w))
		r := 0.6 * rng.Float64() * rng.Float64()
		for range min(20+rng.IntN(361), 100_000-len(d.Pages)) {
			d.Pages = append(d.Pages, dataset.Page{Site: w})
			rate = append(rate, r)
		}
	}
	d.Truth.Changed = make([][]int32, 12)
	for c := range d.Truth.Changed {
		for p, r := range rate {
			if rng.Float64() < r {
				d.Truth.Changed[c] = append(d.Truth.Changed[c], int32(p))
			}
		}
	}
	if err := d.Finish(); err != nil {
		b.Fatal(err)
	}
	return d
}

// benchPolicy measures whole runs of one policy (a repeat: Reuse, then
// every cycle at a budget of 10% of the pages), as the lab runs repeats,
// and reports nanoseconds per page-cycle.
func benchPolicy(b *testing.B, d *dataset.Dataset, id string, params param.Values) {
	var desc refresh.Descriptor
	for _, x := range append(Descriptors(), alQaaidehDescriptors()...) {
		if x.ID == id {
			desc = x
		}
	}
	n, cycles := len(d.Pages), d.Truth.Cycles()
	budget := n / 10
	checked, err := param.Check(desc.Params, params)
	if err != nil {
		b.Fatal(err)
	}
	sim := refresh.NewSim(d)
	rng := rand.New(rand.NewPCG(3, 4))
	env := refresh.Env{Repo: &d.Repository, Budget: budget, Cycles: cycles, Rand: rng, Params: checked, Truth: truthOf(desc, sim)}
	p, err := desc.New(env)
	if err != nil {
		b.Fatal(err)
	}
	var out []refresh.Cycle
	b.ReportAllocs()
	for b.Loop() {
		sim.Reset()
		if r, ok := p.(refresh.Reuser); ok {
			r.Reuse(env)
		}
		out = sim.Run(p, budget, cycles, out[:0])
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n*cycles), "ns/page-cycle")
}

func BenchmarkAlQaaidehPolicies(b *testing.B) {
	jordan := synth.AlQaaidehJordan(1)
	big := benchSites(b)
	for _, tc := range []struct {
		id     string
		params param.Values
	}{
		{"site-greedy", nil}, // the baseline, for comparison
		{"site-adaptive", nil},
		{"site-grouped", nil},
		{"site-grouped", param.Values{"inner": InnerAdaptive}},
		{"greedy-sample-allocation", nil},
		{"frequency-greedy", nil},
		{"frequency-greedy-log", nil},
		{"frequency-greedy-log", param.Values{"redraw": true}},
	} {
		name := tc.id
		if tc.params != nil && tc.params.Bool("redraw", false) {
			name += "-redraw"
		} else if tc.params != nil {
			name += "-" + tc.params.String("inner", "")
		}
		b.Run(name+"/alqaaideh-jordan", func(b *testing.B) { benchPolicy(b, jordan, tc.id, tc.params) })
		b.Run(name+"/100k-sites", func(b *testing.B) { benchPolicy(b, big, tc.id, tc.params) })
	}
}
