package sampling

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/synth"
)

// hybridOn builds a Hybrid over d with V versions, P sample pages and the
// given reserve.
func hybridOn(d *dataset.Dataset, budget, versions, samplePages int, reserve float64, rng *rand.Rand) *Hybrid {
	return NewHybrid(refresh.Env{
		Repo: &d.Repository, Budget: budget, Cycles: d.Truth.Cycles(), Rand: rng,
		Params: param.Values{"samplePages": float64(samplePages), "reserve": reserve},
	}, versions)
}

// table41 is a dataset with the sites and page counts of Al-Qaaideh Table
// 4.1 (its changes do not matter to the allotments).
func table41(t testing.TB) *dataset.Dataset {
	return synth.AlQaaidehJordan(1)
}

// TestFirstSample checks §3.3.1 on the thesis' own web sample: P = 100
// sample pages over its W = 9 sites gives F = P/W = 11.1 each ("each web
// site got about 10 pages for sampling", §4.3): 11 or 12 pages, except
// that madabacity.gov.jo has only 9 and lends the rest to the others.
func TestFirstSample(t *testing.T) {
	d := table41(t)
	for seed := range uint64(10) {
		h := hybridOn(d, 200, 1, 100, 0.05, rand.New(rand.NewPCG(seed, 3)))
		h.rng.Shuffle(len(h.order), func(i, j int) { h.order[i], h.order[j] = h.order[j], h.order[i] })
		h.allocate()
		total := 0
		for w, f := range h.allot {
			total += f
			switch {
			case d.Sites[w] == "www.madabacity.gov.jo":
				if f != 9 {
					t.Errorf("seed %d: madabacity (9 pages) gets %d", seed, f)
				}
			case f != 11 && f != 12:
				t.Errorf("seed %d: %s gets %d sample pages, want 11 or 12", seed, d.Sites[w], f)
			}
		}
		if total != 100 {
			t.Errorf("seed %d: allotments %v sum to %d, want P = 100", seed, h.allot, total)
		}
	}
}

// TestAllotment checks F(w) = c_w·P / Σc (§3.3.3) with the reserve for
// zero-rate sites, on crafted rates.
func TestAllotment(t *testing.T) {
	rates41 := make([]float64, len(synth.AlQaaidehTable41))
	sizes41 := make([]int, len(synth.AlQaaidehTable41))
	for i, s := range synth.AlQaaidehTable41 {
		rates41[i], sizes41[i] = s.Rate, s.Pages
	}
	tests := []struct {
		name    string
		sizes   []int
		rates   []float64
		p       int
		reserve float64
		want    []int
	}{
		// Table 4.1's rates as estimates, P = 100. The two zero-rate sites
		// get ⌈0.05·100⌉ = 5 each; the other 90 go by rate, c·90/1.6743,
		// but jordandaily.com's share 44.05 exceeds its 20 pages: it gets
		// 20, and the other 70 are shared by the rest (Σc = 0.8548):
		// c·70/0.8548 = 2.68, 21.10, 1.82, 1.26, 35.70, 7.44, by largest
		// remainder 3, 21, 2, 1, 36, 7. (Appendix A's code would floor
		// c/Σc·100 and give every site under 5 pages P/20 = 5:
		// 5, 15, 5, 48, 5, 5, 5, 26, 5, which is 119 pages, not 100.)
		{"table 4.1", sizes41, rates41, 100, 0.05, []int{3, 21, 2, 20, 5, 5, 1, 36, 7}},
		// No reserve: zero-rate sites get nothing.
		{"no reserve", []int{100, 100, 100, 100}, []float64{0.5, 0.3, 0.2, 0}, 50, 0, []int{25, 15, 10, 0}},
		{"reserve", []int{100, 100, 100, 100}, []float64{0.5, 0.3, 0.2, 0}, 50, 0.1, []int{23, 13, 9, 5}},
		// A site never estimated counts as zero.
		{"unknown", []int{100, 100, 100}, []float64{0.4, -1, 0.4}, 20, 0.1, []int{9, 2, 9}},
		// Every estimate zero: back to P/W.
		{"all zero", []int{100, 100, 100, 100}, []float64{0, 0, 0, 0}, 40, 0.05, []int{10, 10, 10, 10}},
		// The changing sites are sampled whole: the rest to the others.
		{"saturated", []int{5, 100, 100}, []float64{1, 0, 0}, 30, 0.1, []int{5, 13, 12}},
		// The reserve eats all of P.
		{"reserve exceeds P", []int{100, 100, 100, 100}, []float64{0.5, 0, 0, 0}, 4, 0.5, []int{0, 2, 2, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := len(tt.sizes)
			h := &Hybrid{sample: tt.p, reserve: tt.reserve, allot: make([]int, n), rate: slices.Clone(tt.rates),
				order: make([]int, n), weight: make([]float64, n), limit: slices.Clone(tt.sizes)}
			for w := range h.order {
				h.order[w] = w
			}
			h.allocate()
			if !slices.Equal(h.allot, tt.want) {
				t.Errorf("allotment %v, want %v", h.allot, tt.want)
			}
		})
	}
}

// patterned builds one site whose page i changes in cycle c when
// pattern[i][c] is '1'.
func patterned(t testing.TB, pattern []string) *dataset.Dataset {
	t.Helper()
	d := &dataset.Dataset{Info: dataset.Info{ID: "pattern"}, Repository: dataset.Repository{Sites: []string{"s"}}}
	d.Truth.Changed = make([][]int32, len(pattern[0]))
	for i, row := range pattern {
		d.Pages = append(d.Pages, dataset.Page{URL: fmt.Sprint(i)})
		for c, ch := range row {
			if ch == '1' {
				d.Truth.Changed[c] = append(d.Truth.Changed[c], int32(i))
			}
		}
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	return d
}

// pageRatePattern is a hand history: four pages of one site, page i
// changing in cycle c when pageRatePattern[i][c] is '1'.
var pageRatePattern = []string{
	"110101",
	"000000",
	"111111",
	"001100",
}

// pageRateWant3 is the site's rate after each cycle of pageRatePattern
// with V = 3, by hand:
//
//	page 0: 1/1, 2/2, 2/3, 2/3, 1/3, 2/3
//	page 1: 0 throughout
//	page 2: 1/1, 2/2, 3/3, 3/3, 3/3, 3/3
//	page 3: 0/1, 0/2, 1/3, 2/3, 2/3, 1/3
var pageRateWant3 = []float64{
	(1 + 0 + 1 + 0) / 4.0,
	(1 + 0 + 1 + 0) / 4.0,
	(2.0/3 + 0 + 1 + 1.0/3) / 4,
	(2.0/3 + 0 + 1 + 2.0/3) / 4,
	(1.0/3 + 0 + 1 + 2.0/3) / 4,
	(2.0/3 + 0 + 1 + 1.0/3) / 4,
}

// TestPageRate checks C = D/V (§3.3.2.2) on a hand history: four pages
// monitored every cycle, the site's rate the mean C of its pages over
// their last V versions (fewer at first).
func TestPageRate(t *testing.T) {
	pattern, want3 := pageRatePattern, pageRateWant3
	// V = 1: the share of the four pages that changed in the cycle.
	want1 := []float64{0.5, 0.5, 0.5, 0.75, 0.25, 0.5}
	d := patterned(t, pattern)
	for _, tc := range []struct {
		v    int
		want []float64
	}{{3, want3}, {1, want1}} {
		sim := refresh.NewSim(d)
		h := hybridOn(d, 4, tc.v, 4, 0.05, rand.New(rand.NewPCG(1, 1)))
		var got []float64
		sim.After = func(int) { got = append(got, h.SiteEstimates()[0]) }
		sim.Run(h, 4, len(pattern[0]), nil)
		for c := range tc.want {
			if math.Abs(got[c]-tc.want[c]) > 1e-12 {
				t.Errorf("V = %d: estimate after cycle %d = %v, want %v", tc.v, c+1, got[c], tc.want[c])
			}
		}
	}
}

// TestJoinerHistory checks which downloads make a version: site 0's pages
// always change, site 1's never, so after cycle 0 the reserve shrinks
// site 1's sample to one page and site 0's grows by one. The page joining
// site 0 adds a version in its first cycle only if the crawler's copy of it
// is one cycle old, that is, if the greedy phase downloaded it in cycle 0.
func TestJoinerHistory(t *testing.T) {
	pattern := make([]string, 20)
	for i := range pattern {
		pattern[i] = "000"
		if i < 10 {
			pattern[i] = "111"
		}
	}
	d := patterned(t, pattern)
	d.Sites = []string{"a", "b"}
	for i := 10; i < 20; i++ {
		d.Pages[i].Site = 1
	}
	d = rebuilt(t, d)
	for _, tc := range []struct {
		budget       int
		freshJoiners int // joiners of site 0 with a version after cycle 1
	}{{4, 0}, {12, 1}} {
		for seed := range uint64(10) {
			sim := refresh.NewSim(d)
			h := hybridOn(d, tc.budget, 5, 4, 0.25, rand.New(rand.NewPCG(seed, 5)))
			var members, versioned []int
			sim.After = func(int) {
				members = append(members, h.members[0])
				n := 0
				for i := range h.members[0] {
					if h.nobs[0][i] > 0 {
						n++
					}
				}
				versioned = append(versioned, n)
			}
			sim.Run(h, tc.budget, 3, nil)
			if !slices.Equal(members, []int{2, 3, 3}) {
				t.Fatalf("budget %d seed %d: site 0's sample %v per cycle, want 2, 3, 3", tc.budget, seed, members)
			}
			if want := []int{2, 2 + tc.freshJoiners, 3}; !slices.Equal(versioned, want) {
				t.Errorf("budget %d seed %d: sample pages with a version %v, want %v", tc.budget, seed, versioned, want)
			}
			if h.SiteEstimates()[0] != 1 || h.SiteEstimates()[1] != 0 {
				t.Errorf("budget %d seed %d: estimates %v, want 1 and 0", tc.budget, seed, h.SiteEstimates())
			}
		}
	}
}

// rebuilt re-indexes d after its pages' sites were edited.
func rebuilt(t testing.TB, d *dataset.Dataset) *dataset.Dataset {
	t.Helper()
	out := &dataset.Dataset{Info: d.Info, Repository: dataset.Repository{Pages: d.Pages, Sites: d.Sites}, Truth: d.Truth}
	if err := out.Finish(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSamplePersists checks that a site's sample pages stay from cycle to
// cycle while its allotment does not change (§4.3).
func TestSamplePersists(t *testing.T) {
	d := patterned(t, []string{"0101", "1100", "0000", "1111", "0011", "1000"})
	sim := refresh.NewSim(d)
	h := hybridOn(d, 5, 3, 3, 0.05, rand.New(rand.NewPCG(2, 2)))
	var samples [][]int32
	sim.After = func(int) {
		s := slices.Clone(h.pages[0][:h.members[0]])
		slices.Sort(s)
		samples = append(samples, s)
	}
	sim.Run(h, 5, 4, nil)
	for c := 1; c < len(samples); c++ {
		if !slices.Equal(samples[c], samples[0]) {
			t.Errorf("cycle %d: sample %v, cycle 1: %v", c+1, samples[c], samples[0])
		}
	}
}

// TestHybridUnbiased checks the estimate on one site, where the allotment
// is always P, so the sample is a uniformly random set of P pages kept for
// the whole run: the expected estimate after cycle t is exactly the share
// of the site's pages that changed in cycle t (V = 1), or the mean of that
// share over the cycles t−V+1..t (fewer at first). Over 4,000 repeats each
// cycle's mean estimate must be within 4 standard errors of it; a correct
// policy fails one of the 16 comparisons with probability about 1e-3.
func TestHybridUnbiased(t *testing.T) {
	const pages, cycles, reps = 50, 8, 4000
	rng := rand.New(rand.NewPCG(7, 7))
	pattern := make([]string, pages)
	for i := range pattern {
		q := rng.Float64() * rng.Float64() // skewed: most pages change rarely
		b := make([]byte, cycles)
		for c := range b {
			b[c] = '0'
			if rng.Float64() < q {
				b[c] = '1'
			}
		}
		pattern[i] = string(b)
	}
	d := patterned(t, pattern)
	share := make([]float64, cycles)
	for c := range cycles {
		share[c] = float64(len(d.Truth.Changed[c])) / pages
	}
	for _, v := range []int{1, 3} {
		ests := make([][]float64, cycles)
		sim := refresh.NewSim(d)
		var h *Hybrid
		for r := range reps {
			sim.Reset()
			env := refresh.Env{Repo: &d.Repository, Budget: 10, Rand: rand.New(rand.NewPCG(uint64(r), 8)),
				Params: param.Values{"samplePages": 10.0, "reserve": 0.05}}
			if h == nil {
				h = NewHybrid(env, v)
			} else {
				h.Reuse(env)
			}
			sim.After = func(c int) { ests[c] = append(ests[c], h.SiteEstimates()[0]) }
			sim.Run(h, 10, cycles, nil)
		}
		for c := range cycles {
			want := 0.0
			from := max(0, c-v+1)
			for s := from; s <= c; s++ {
				want += share[s]
			}
			want /= float64(c - from + 1)
			mean, se := meanSE(ests[c])
			if math.Abs(mean-want) > zTolerance*se {
				t.Errorf("V = %d, cycle %d: mean estimate %.4f ± %.4f (SE), want %.4f", v, c+1, mean, se, want)
			}
		}
	}
}

// TestDefaultSamplePages checks the default P: 10% of the pages (§4.3), at
// most half the budget, at least one.
func TestDefaultSamplePages(t *testing.T) {
	tests := []struct{ pages, budget, want int }{
		{1140, 1000, 114}, // the thesis' 10%
		{1000, 1000, 100}, // "100 pages according the sample of 1000 pages"
		{1140, 114, 57},   // the lab's default budget: half of it
		{300000, 30000, 15000},
		{10, 1, 1},
	}
	for _, tt := range tests {
		if got := DefaultSamplePages(tt.pages, tt.budget); got != tt.want {
			t.Errorf("DefaultSamplePages(%d, %d) = %d, want %d", tt.pages, tt.budget, got, tt.want)
		}
	}
}

// TestNoRateWithoutSample checks that a site's estimate lasts only while a
// sample can measure it. 21 sites of 4 pages; site 0's pages change in
// the first cycle only, no other page ever changes; P = 21 and a reserve
// of 0.1, so the first cycle samples one page of every site and site 0
// shows a rate of 1; from then on every other site has a zero estimate
// and takes ⌈0.1·21⌉ = 3 reserve pages, the reserves take all of P, and
// site 0 gets no sample. Had it kept its rate of 1 it would rank first in
// every greedy step for ever, its four pages downloaded every cycle while
// the pages the samples miss wait; forgotten, it ranks with the others.
// After every cycle, a site with no sample page has no positive rate, and
// over 200 cycles of 30 downloads site 0's pages are not downloaded more
// than twice as often as the others'.
func TestNoRateWithoutSample(t *testing.T) {
	pattern := make([]string, 84)
	for i := range pattern {
		pattern[i] = "0" + strings.Repeat("0", 199)
		if i < 4 {
			pattern[i] = "1" + strings.Repeat("0", 199)
		}
	}
	d := patterned(t, pattern)
	d.Sites = make([]string, 21)
	for w := range d.Sites {
		d.Sites[w] = fmt.Sprintf("site%d", w)
	}
	for i := range d.Pages {
		d.Pages[i].Site = int32(i / 4)
	}
	d = rebuilt(t, d)
	for seed := range uint64(5) {
		sim := refresh.NewSim(d)
		sim.Downloads = make([]int32, len(d.Pages))
		h := hybridOn(d, 30, 1, 21, 0.1, rand.New(rand.NewPCG(seed, 9)))
		sim.After = func(c int) {
			for w, m := range h.members {
				if m == 0 && h.rate[w] > 0 {
					t.Fatalf("seed %d, cycle %d: site %d has no sample page and keeps the rate %v", seed, c, w, h.rate[w])
				}
			}
		}
		sim.Run(h, 30, 200, nil)
		var site0, others float64
		for i, n := range sim.Downloads {
			if i < 4 {
				site0 += float64(n) / 4
			} else {
				others += float64(n) / 80
			}
		}
		if site0 > 2*others {
			t.Errorf("seed %d: site 0's pages downloaded %.0f times each, the others' %.0f", seed, site0, others)
		}
	}
}
