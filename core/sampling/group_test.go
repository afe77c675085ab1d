package sampling

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/synth"
)

// allChanging builds sites of the given sizes whose every page changes in
// every one of cycles: after a cycle, exactly the pages downloaded in it
// are fresh, and a page downloaded twice in a cycle would show no change
// the second time.
func allChanging(t testing.TB, sizes []int, cycles int) *dataset.Dataset {
	t.Helper()
	d := &dataset.Dataset{Info: dataset.Info{ID: "all-changing"}}
	for w, n := range sizes {
		d.Sites = append(d.Sites, string(rune('a'+w%26))+string(rune('a'+w/26)))
		for range n {
			d.Pages = append(d.Pages, dataset.Page{Site: int32(w)})
		}
	}
	d.Truth.Changed = make([][]int32, cycles)
	for c := range cycles {
		for p := range d.Pages {
			d.Truth.Changed[c] = append(d.Truth.Changed[c], int32(p))
		}
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	return d
}

// groupOf returns the group of site w in g's current deal, or −1.
func groupOf(g *Grouped, w int) int {
	for i, v := range g.deal {
		if v == w {
			return i % g.groups
		}
	}
	return -1
}

func groupedOn(d *dataset.Dataset, budget int, params param.Values, rng *rand.Rand) *Grouped {
	return NewGrouped(refresh.Env{Repo: &d.Repository, Budget: budget, Cycles: d.Truth.Cycles(), Rand: rng, Params: params})
}

// TestGroupRoundRobin checks §2.8's schedule: the sites are dealt into G
// groups of equal size (±1), and cycle c downloads only from group c mod G,
// so each site's group has the budget once every G cycles; the estimates
// cover that group only.
func TestGroupRoundRobin(t *testing.T) {
	sizes := []int{30, 30, 30, 30, 30, 30, 30}
	d := allChanging(t, sizes, 9)
	for _, inner := range []string{InnerGreedy, InnerProportional, InnerAdaptive} {
		for seed := range uint64(10) {
			g := groupedOn(d, 40, param.Values{"groups": 3.0, "inner": inner}, rand.New(rand.NewPCG(seed, 4)))
			count := make([]int, 3)
			for w := range sizes {
				count[groupOf(g, w)]++
			}
			if slices.Max(count)-slices.Min(count) > 1 {
				t.Fatalf("%s seed %d: group sizes %v, want equal ±1", inner, seed, count)
			}
			sim := refresh.NewSim(d)
			sim.After = func(c int) {
				fresh := make([]bool, len(d.Pages))
				for p := range fresh {
					fresh[p] = true
				}
				for _, p := range sim.Stale() {
					fresh[p] = false
				}
				for p, f := range fresh {
					if w := int(d.Pages[p].Site); f && groupOf(g, w) != c%3 {
						t.Errorf("%s seed %d cycle %d: page %d of site %d (group %d) downloaded, want group %d only", inner, seed, c, p, w, groupOf(g, w), c%3)
						return
					}
				}
				for w, e := range g.SiteEstimates() {
					if (e >= 0) != (groupOf(g, w) == c%3) {
						t.Errorf("%s seed %d cycle %d: site %d (group %d) has estimate %v", inner, seed, c, w, groupOf(g, w), e)
					}
				}
			}
			for c, cy := range sim.Run(g, 40, 9, nil) {
				if cy.Downloads != 40 || cy.Changed != 40 {
					t.Errorf("%s seed %d cycle %d: %d downloads, %d changed; want 40 distinct pages", inner, seed, c, cy.Downloads, cy.Changed)
				}
			}
		}
	}
}

// TestGroupSpill checks that a group with fewer pages than the budget
// passes the rest to the next groups in turn, within the cycle.
func TestGroupSpill(t *testing.T) {
	d := allChanging(t, []int{10, 10, 10, 10}, 4)
	for _, inner := range []string{InnerGreedy, InnerProportional, InnerAdaptive} {
		sim := refresh.NewSim(d)
		g := groupedOn(d, 25, param.Values{"groups": 4.0, "inner": inner}, rand.New(rand.NewPCG(1, 1)))
		sim.After = func(c int) {
			perGroup := make([]int, 4)
			fresh := make([]bool, len(d.Pages))
			for p := range fresh {
				fresh[p] = true
			}
			for _, p := range sim.Stale() {
				fresh[p] = false
			}
			for p, f := range fresh {
				if f {
					perGroup[groupOf(g, int(d.Pages[p].Site))]++
				}
			}
			want := make([]int, 4)
			want[c%4], want[(c+1)%4], want[(c+2)%4] = 10, 10, 5
			if !slices.Equal(perGroup, want) {
				t.Errorf("%s cycle %d: pages per group %v, want %v", inner, c, perGroup, want)
			}
		}
		sim.Run(g, 25, 4, nil)
	}
}

// TestOneGroupIsInner checks that one group is exactly the inner policy:
// site-grouped with G = 1 gives the numbers and estimates of site-greedy,
// site-proportional and site-adaptive on the same random stream.
func TestOneGroupIsInner(t *testing.T) {
	d := synth.AlQaaidehJordan(3)
	for _, tc := range []struct {
		inner string
		build func(env refresh.Env) refresh.Policy
	}{
		{InnerGreedy, func(env refresh.Env) refresh.Policy { return NewSite(env, Greedy) }},
		{InnerProportional, func(env refresh.Env) refresh.Policy { return NewSite(env, Proportional) }},
		{InnerAdaptive, func(env refresh.Env) refresh.Policy { return NewAdaptive(env) }},
	} {
		run := func(p func(refresh.Env) refresh.Policy, params param.Values) string {
			sim := refresh.NewSim(d)
			pol := p(refresh.Env{Repo: &d.Repository, Budget: 114, Cycles: 10, Rand: rand.New(rand.NewPCG(5, 6)), Params: params})
			var ests [][]float64
			sim.After = func(int) { ests = append(ests, slices.Clone(pol.(refresh.SiteEstimator).SiteEstimates())) }
			out, _ := json.Marshal(struct {
				C []refresh.Cycle
				E [][]float64
			}{sim.Run(pol, 114, 10, nil), ests})
			return string(out)
		}
		want := run(tc.build, param.Values{"kappa": 3.0, "alpha": 0.95})
		got := run(func(env refresh.Env) refresh.Policy { return NewGrouped(env) }, param.Values{"groups": 1.0, "inner": tc.inner, "kappa": 3.0, "alpha": 0.95})
		if got != want {
			t.Errorf("inner %s: one group differs from the inner policy:\n%s\n%s", tc.inner, got, want)
		}
	}
}

// TestGroupDeal checks the deal: drawn anew for each repeat (Reuse), so
// the groups differ between repeats, and the same for the same stream.
func TestGroupDeal(t *testing.T) {
	d := allChanging(t, make12(), 1)
	deal := func(g *Grouped) []int { return slices.Clone(g.deal) }
	g := groupedOn(d, 10, param.Values{"groups": 4.0}, rand.New(rand.NewPCG(1, 1)))
	first := deal(g)
	g.Reuse(refresh.Env{Repo: &d.Repository, Rand: rand.New(rand.NewPCG(1, 1))})
	if !slices.Equal(deal(g), first) {
		t.Errorf("same stream, another deal: %v, %v", deal(g), first)
	}
	g.Reuse(refresh.Env{Repo: &d.Repository, Rand: rand.New(rand.NewPCG(2, 1))})
	if slices.Equal(deal(g), first) {
		t.Errorf("another stream, the same deal %v", first)
	}
	// G above the number of sites counts as one group per site.
	g = groupedOn(d, 10, param.Values{"groups": 50.0}, rand.New(rand.NewPCG(1, 1)))
	if g.groups != 12 {
		t.Errorf("groups = %d for 50 asked and 12 sites, want 12", g.groups)
	}
}

func make12() []int {
	s := make([]int, 12)
	for i := range s {
		s[i] = 3 + i
	}
	return s
}

// TestGroupDefaultSampleSize checks the default sample size of the inner
// greedy policy, √(N·r) for one group: N pages per site, r·G of a group's
// pages downloaded in its cycle. On Al-Qaaideh's sample with 114 downloads
// and 3 groups: √(126.7 · 0.1 · 3) = 6.2 → 6. Adaptive records none.
func TestGroupDefaultSampleSize(t *testing.T) {
	d := synth.AlQaaidehJordan(1)
	params := param.Values{"groups": 3.0}
	groupedOn(d, 114, params, rand.New(rand.NewPCG(1, 1)))
	if params["sampleSize"] != 6.0 {
		t.Errorf("default sampleSize %v, want 6", params["sampleSize"])
	}
	params = param.Values{"groups": 3.0, "inner": InnerAdaptive}
	groupedOn(d, 114, params, rand.New(rand.NewPCG(1, 1)))
	if params.Has("sampleSize") {
		t.Errorf("adaptive inner policy recorded sampleSize %v", params["sampleSize"])
	}
}
