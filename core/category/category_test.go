package category

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/sampling"
	"github.com/refreshlab/refreshlab/core/synth"
)

// zTolerance is how many standard errors a simulated mean may stray from
// its exact expectation: a correct implementation fails such a check with
// probability about 6e-5 (two-sided normal tail beyond 4σ).
const zTolerance = 4

// env returns an Env for one run on d.
func env(d *dataset.Dataset, budget int, seed uint64, params param.Values) refresh.Env {
	vals := param.Values{}
	for k, v := range params {
		vals[k] = v
	}
	return refresh.Env{Repo: &d.Repository, Budget: budget, Cycles: d.Truth.Cycles(), Rand: rand.New(rand.NewPCG(seed, 99)), Params: vals}
}

// simulate runs category sampling on d for repeats independent repeats of
// the given cycles and returns each repeat's cycles.
func simulate(t *testing.T, d *dataset.Dataset, alloc sampling.Allocation, budget, cycles, repeats int, seed uint64, params param.Values) [][]refresh.Cycle {
	t.Helper()
	sim := refresh.NewSim(d)
	var out [][]refresh.Cycle
	for r := range repeats {
		sim.Reset()
		p, err := New(env(d, budget, seed+uint64(r)*7919, params), alloc)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sim.Run(p, budget, cycles, nil))
	}
	return out
}

// newMemo returns a refresh.Env.Memo over a map, as the lab's.
func newMemo() func(string, func() (any, error)) (any, error) {
	m := map[string]any{}
	return func(key string, build func() (any, error)) (any, error) {
		if v, ok := m[key]; ok {
			return v, nil
		}
		v, err := build()
		if err == nil {
			m[key] = v
		}
		return v, err
	}
}

func meanSE(xs []float64) (mean, se float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1) / float64(len(xs)))
}

// hypergeometricPMF is the textbook C(k,x)·C(n−k,z−x)/C(n,z) through
// log-gamma, independent of the sampling package's recurrence.
func hypergeometricPMF(n, k, z, x int) float64 {
	if x < 0 || x > z || x > k || z-x > n-k {
		return 0
	}
	lchoose := func(n, k int) float64 {
		a, _ := math.Lgamma(float64(n + 1))
		b, _ := math.Lgamma(float64(k + 1))
		c, _ := math.Lgamma(float64(n - k + 1))
		return a - b - c
	}
	return math.Exp(lchoose(k, x) + lchoose(n-k, z-x) - lchoose(n, z))
}

// taleghaniGreedyExpectation derives, independently of the package, the
// exact expected ChangeRatio of greedy category sampling on Table 1's
// example (Taleghani §2.3.2): five categories of 40 pages with K = 40, 30,
// 20, 10 and 0 changed, a 4-page sample from each (20 downloads), then 80
// downloads to whole categories in decreasing order of their sample's
// count x, ties in random order. Each category has 36 unsampled pages, of
// which K − x changed, so downloading q of them at random finds
// q·(K − x)/36 in expectation.
//
// It sums over the 5^5 … combinations of the five samples' outcomes, and
// for ties averages over every way of ordering the tied categories, by
// enumerating the 120 orders of the five and sorting each stably by x.
func taleghaniGreedyExpectation() float64 {
	K := []int{40, 30, 20, 10, 0}
	const n, z, budget = 40, 4, 100
	var perms [][]int
	var permute func(p []int, i int)
	permute = func(p []int, i int) {
		if i == len(p) {
			perms = append(perms, slices.Clone(p))
			return
		}
		for j := i; j < len(p); j++ {
			p[i], p[j] = p[j], p[i]
			permute(p, i+1)
			p[i], p[j] = p[j], p[i]
		}
	}
	permute([]int{0, 1, 2, 3, 4}, 0)
	var total float64
	x := make([]int, 5)
	var rec func(c int, prob float64)
	rec = func(c int, prob float64) {
		if c < 5 {
			for v := 0; v <= z; v++ {
				if p := hypergeometricPMF(n, K[c], z, v); p > 0 {
					x[c] = v
					rec(c+1, prob*p)
				}
			}
			return
		}
		var sum float64
		for _, order := range perms {
			o := slices.Clone(order)
			slices.SortStableFunc(o, func(a, b int) int { return x[b] - x[a] })
			found, left := 0.0, budget-5*z
			for c := range 5 {
				found += float64(x[c])
			}
			for _, c := range o {
				q := min(left, n-z)
				found += float64(q) * float64(K[c]-x[c]) / float64(n-z)
				left -= q
			}
			sum += found / budget
		}
		total += prob * sum / float64(len(perms))
	}
	rec(0, 1)
	return total
}

// TestTaleghaniCategoryGreedyGolden reproduces Taleghani §2.3.2. The paper
// gets 0.77 by assuming each 4-page sample shows its category's true change
// fraction (1, 0.75, 0.5, 0.25, 0). Real samples vary, and sometimes send
// the 80 downloads to the wrong categories: the exact expectation is near
// 0.74. ExpectedChangeRatio must equal the independent derivation, and the
// simulation's mean must agree with it within zTolerance standard errors.
func TestTaleghaniCategoryGreedyGolden(t *testing.T) {
	d := synth.TaleghaniExample(1)
	want := taleghaniGreedyExpectation()
	if want < 0.735 || want > 0.745 {
		t.Fatalf("derived expectation %.5f is not near 0.74", want)
	}
	params := param.Values{"sampleSize": 4.0}
	got, err := ExpectedChangeRatio(d, LabelSets(&d.Repository), 100, params, sampling.Greedy)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got-want) > 1e-12 {
		t.Fatalf("ExpectedChangeRatio = %.12f, independent derivation %.12f", got, want)
	}
	// The paper's own arithmetic, with samples showing the true fractions:
	// (4·(1+0.75+0.5+0.25) + 36·1 + 36·0.75 + 8·0.5)/100 = 0.77.
	if paper := (4*(1+0.75+0.5+0.25) + 36*1 + 36*0.75 + 8*0.5) / 100; math.Abs(paper-0.77) > 1e-12 || want >= paper {
		t.Fatalf("paper's figure %v; the expectation %v should fall below it", paper, want)
	}
	t.Logf("exact expected ChangeRatio %.5f (paper, exact samples: 0.77)", want)

	var ratios []float64
	for _, run := range simulate(t, d, sampling.Greedy, 100, 1, 20000, 5, params) {
		ratios = append(ratios, run[0].ChangeRatio())
	}
	mean, se := meanSE(ratios)
	if math.Abs(mean-want) > zTolerance*se {
		t.Errorf("simulated ChangeRatio %.5f ± %.5f (SE), want %.5f within %d SE", mean, se, want, zTolerance)
	}
}

// TestExpectationsAgainstSimulation checks Descriptor.Expect against the
// simulation for both allocations and every sizing and the interval rule,
// on the Table 1 example, within zTolerance standard errors each (about
// 6e-5 false-failure probability per case, 1e-3 for the 16).
func TestExpectationsAgainstSimulation(t *testing.T) {
	d := synth.TaleghaniExample(2)
	descs := Descriptors()
	for i, alloc := range []sampling.Allocation{sampling.Greedy, sampling.Proportional} {
		for _, params := range []param.Values{
			{"sampleSize": 1.0}, {"sampleSize": 4.0}, {"sampleSize": 9.0},
			{"sampleSize": 3.0, "sizing": SizingScaled},
			{"sampleSize": 3.0, "sizing": SizingScaledShared},
			{"sampleSize": 4.0, "interval": true},
			{"sampleSize": 6.0, "interval": true, "confidence": 0.6},
			{}, // √(N·r) = √(40·0.5) = 4.47 → 4
		} {
			want, err := descs[i].Expect(d, 100, params)
			if err != nil {
				t.Fatal(err)
			}
			var ratios []float64
			for _, run := range simulate(t, d, alloc, 100, 1, 4000, 11, params) {
				ratios = append(ratios, run[0].ChangeRatio())
			}
			mean, se := meanSE(ratios)
			t.Logf("%s %v: exact %.4f, simulated %.4f ± %.4f", descs[i].ID, params, want, mean, se)
			if math.Abs(mean-want) > zTolerance*se {
				t.Errorf("%s %v: simulated %.5f ± %.5f (SE), exact %.5f", descs[i].ID, params, mean, se, want)
			}
		}
	}
}

// TestExpectedCategoryAboveSite compares the exact expectations on
// taleghani-example: category-greedy with 4-page samples against
// site-greedy with 10-page samples. Greedy category sampling's expectation (≈ 0.74) beats site
// sampling's (≈ 0.65).
func TestExpectedCategoryAboveSite(t *testing.T) {
	d := synth.TaleghaniExample(1)
	cat, err := ExpectedChangeRatio(d, LabelSets(&d.Repository), 100, param.Values{"sampleSize": 4.0}, sampling.Greedy)
	if err != nil {
		t.Fatal(err)
	}
	site, err := sampling.ExpectedChangeRatio(d, 100, 10, sampling.Greedy)
	if err != nil {
		t.Fatal(err)
	}
	if !(cat > site+0.05) {
		t.Errorf("category greedy %.4f, site greedy %.4f: categories should win clearly", cat, site)
	}
}

// overlapping returns a dataset of n pages, every one changed in every
// cycle, on one site, labelled with the given categories.
func overlapping(n, cycles int, cats [][]int32) *dataset.Dataset {
	d := &dataset.Dataset{Info: dataset.Info{ID: "overlap"}}
	d.Sites = []string{"example.org"}
	for p := range n {
		d.Pages = append(d.Pages, dataset.Page{URL: fmt.Sprintf("/%d", p)})
	}
	for i, c := range cats {
		d.Labels = append(d.Labels, fmt.Sprintf("C%d", i))
		for _, p := range c {
			d.Pages[p].Labels = append(d.Pages[p].Labels, int32(i))
		}
	}
	all := make([]int32, n)
	for p := range all {
		all[p] = int32(p)
	}
	for range cycles {
		d.Truth.Changed = append(d.Truth.Changed, all)
	}
	if err := d.Finish(); err != nil {
		panic(err)
	}
	return d
}

func span(lo, hi int32) []int32 {
	var s []int32
	for p := lo; p < hi; p++ {
		s = append(s, p)
	}
	return s
}

// TestEachPageOncePerCycle checks, on heavily overlapping categories where
// every page changes every cycle, that no page is downloaded twice in a
// cycle (a second download would find the fresh copy unchanged, so the
// ChangeRatio would fall below 1) and that the whole budget is spent, for
// both allocations and many seeds.
func TestEachPageOncePerCycle(t *testing.T) {
	cats := [][]int32{span(0, 60), span(30, 90), span(0, 100), span(80, 100), {1, 3, 5, 7, 91}, span(40, 50)}
	d := overlapping(120, 3, cats) // pages 100-119 unlabelled: the (no label) category
	for _, alloc := range []sampling.Allocation{sampling.Greedy, sampling.Proportional} {
		for _, budget := range []int{7, 40, 119, 120, 500} {
			for _, params := range []param.Values{{"sampleSize": 3.0}, {"sampleSize": 25.0}, {"sampleSize": 2.0, "sizing": SizingScaled}} {
				for _, run := range simulate(t, d, alloc, budget, 3, 20, 1, params) {
					for c, cy := range run {
						if cy.Downloads != min(budget, 120) || cy.Changed != cy.Downloads {
							t.Fatalf("alloc %d budget %d %v cycle %d: %d downloads, %d changed; want %d, all changed",
								alloc, budget, params, c, cy.Downloads, cy.Changed, min(budget, 120))
						}
					}
				}
			}
		}
	}
}

// TestAlgorithm4Reuse checks the reuse of pages sampled for another
// category (Taleghani §7.1.2, Alg. 4): a reused page joins the sample and
// counts toward its estimate without a download, and the category still
// downloads k_i pages of its own ("the sample-size increases by one").
func TestAlgorithm4Reuse(t *testing.T) {
	// Two identical categories: whichever is sampled second reuses all the
	// first one's pages and can download nothing new (its pages are all
	// sampled), so the cycle's sampling costs 10 downloads, not 20.
	d := overlapping(10, 1, [][]int32{span(0, 10), span(0, 10)})
	for seed := range uint64(20) {
		p, err := New(env(d, 10, seed, param.Values{"sampleSize": 10.0}), sampling.Greedy)
		if err != nil {
			t.Fatal(err)
		}
		sim := refresh.NewSim(d)
		cy := sim.Run(p, 10, 1, nil)[0]
		if cy.Downloads != 10 || !slices.Equal(p.Samples(), []int{10, 10}) || !slices.Equal(p.Estimates(), []float64{1, 1}) {
			t.Fatalf("seed %d: %d downloads, samples %v, estimates %v", seed, cy.Downloads, p.Samples(), p.Estimates())
		}
	}
	// A = pages 0-9, B = pages 5-14, k_A = 10, k_B = 3. Pages 5-9 changed,
	// 10-14 did not (and 0-4 changed). B downloads exactly 3 pages of
	// 10-14 (unchanged) when A goes first and reuses the pages of 5-9 it
	// draws on the way: its sample holds 3 + r pages, r of them changed.
	d = overlapping(15, 1, [][]int32{span(0, 10), span(5, 15)})
	d.Truth.Changed[0] = span(0, 10)
	reusedSeen := 0
	for seed := range uint64(200) {
		p, err := New(env(d, 13, seed, param.Values{"sampleSize": 10.0}), sampling.Greedy)
		if err != nil {
			t.Fatal(err)
		}
		p.size[1] = 3 // B's sample: 3 downloads of its own
		sim := refresh.NewSim(d)
		sim.Run(p, 13, 1, nil)
		got, est := p.Samples(), p.Estimates()
		if got[1] > 3 { // B reused some of A's pages: A went first
			r := got[1] - 3
			reusedSeen++
			if math.Abs(est[1]*float64(got[1])-float64(r)) > 1e-9 {
				t.Fatalf("seed %d: B's sample of %d holds %d reused changed pages, estimate %v", seed, got[1], r, est[1])
			}
			if got[0] != 10 || est[0] != 1 {
				t.Fatalf("seed %d: A sampled %d, estimate %v", seed, got[0], est[0])
			}
		}
	}
	if reusedSeen == 0 {
		t.Error("no seed made B reuse a page of A's sample")
	}
}

// TestIntervalRanksByLowerBound checks the eq. 9 rule: with interval on,
// a category whose sample of 2 pages all changed (p̂ = 1, l ≈ 0.34 at 95%)
// ranks below one whose 20-page sample all changed (l ≈ 0.84), every time;
// without it the two tie and either may come first.
func TestIntervalRanksByLowerBound(t *testing.T) {
	// A: 100 pages, B: 1,000 pages, all changed. Scaled sizing with s = 11:
	// k = 11·2·|C|/1,100 → 2 and 20.
	d := overlapping(1100, 1, [][]int32{span(0, 100), span(100, 1100)})
	firstA := [2]int{}
	for _, interval := range []bool{false, true} {
		for seed := range uint64(40) {
			p, err := New(env(d, 200, seed, param.Values{"sampleSize": 11.0, "sizing": SizingScaled, "interval": interval}), sampling.Greedy)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(p.SampleSizes(), []int{2, 20}) {
				t.Fatalf("sample sizes %v, want [2 20]", p.SampleSizes())
			}
			refresh.NewSim(d).Run(p, 200, 1, nil)
			if p.plan.Order[0] == 0 {
				firstA[b2i(interval)]++
			}
		}
	}
	if firstA[1] != 0 {
		t.Errorf("with the interval, A came first %d times of 40", firstA[1])
	}
	if firstA[0] == 0 || firstA[0] == 40 {
		t.Errorf("without it, A came first %d times of 40: a tie should break both ways", firstA[0])
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestSampleSizes(t *testing.T) {
	// Categories of 10, 30 and 60 pages over 80 pages (page overlap 20):
	// n_c = 3, |R| = 80, Σ|C| = 100, N = 100/3.
	d := overlapping(80, 1, [][]int32{span(0, 10), span(10, 40), span(20, 80)})
	sets := LabelSets(&d.Repository)
	if sets.Len() != 3 || sets.Total != 100 || sets.Disjoint {
		t.Fatalf("sets: %d categories, total %d, disjoint %v", sets.Len(), sets.Total, sets.Disjoint)
	}
	tests := []struct {
		s      int
		sizing string
		want   []int
	}{
		{4, SizingEqual, []int{4, 4, 4}},
		{4, SizingScaled, []int{2, 5, 9}},       // 4·3·|C|/80 = 1.5, 4.5, 9 → rounded half away from zero
		{4, SizingScaledShared, []int{1, 4, 7}}, // 4·3·|C|/100 = 1.2, 3.6, 7.2
		{40, SizingEqual, []int{10, 30, 40}},    // capped at the category's size
		{1, SizingScaledShared, []int{1, 1, 2}}, // 0.3 → at least 1
	}
	for _, tt := range tests {
		if got := SampleSizes(sets, tt.s, tt.sizing); !slices.Equal(got, tt.want) {
			t.Errorf("SampleSizes(%d, %s) = %v, want %v", tt.s, tt.sizing, got, tt.want)
		}
	}
	// √(N·r) with N = 100/3 and r = 20/80: √8.33 = 2.89 → 3.
	if got := DefaultSampleSize(sets, 20); got != 3 {
		t.Errorf("DefaultSampleSize = %d, want 3", got)
	}
	// Taleghani's example: N = 40, r = 100/200: √20 = 4.47 → 4.
	tal := synth.TaleghaniExample(1)
	if got := DefaultSampleSize(LabelSets(&tal.Repository), 100); got != 4 {
		t.Errorf("DefaultSampleSize(taleghani-example, 100) = %d, want 4", got)
	}
}

func TestLabelSets(t *testing.T) {
	d := overlapping(6, 1, [][]int32{{0, 1}, {}, {1, 2}})
	s := LabelSets(&d.Repository)
	if !reflect.DeepEqual(s.Names, []string{"C0", "C2", NoLabel}) {
		t.Fatalf("names %v: empty categories dropped, unlabelled pages gathered", s.Names)
	}
	want := [][]int32{{0, 1}, {1, 2}, {3, 4, 5}}
	for i, w := range want {
		if !slices.Equal(s.Category(i), w) {
			t.Errorf("category %d: %v, want %v", i, s.Category(i), w)
		}
	}
	if !slices.Equal(s.Of(1), []int32{0, 1}) || !slices.Equal(s.Of(4), []int32{2}) {
		t.Errorf("page 1 in %v, page 4 in %v", s.Of(1), s.Of(4))
	}
	// A repository with no labels at all is one category of every page.
	j := synth.AlQaaidehExample(1)
	if all := LabelSets(&j.Repository); all.Len() != 1 || len(all.Category(0)) != 200 || !all.Disjoint {
		t.Errorf("unlabelled repository: %d categories", all.Len())
	}
}

// TestTopicSets checks TOPIC's categories on topic-web: every page in at
// most topK term categories (plus none in NoTopic unless it has no rank),
// each built once per dataset and parameters through env.Remember, and an
// error naming the way out on a dataset without terms.
func TestTopicSets(t *testing.T) {
	d := synth.TopicWeb(1)
	memo := map[string]any{}
	builds := 0
	e := env(d, 200, 1, param.Values{"categories": FromTopic, "topK": 3.0})
	e.Memo = func(key string, build func() (any, error)) (any, error) {
		if v, ok := memo[key]; ok {
			return v, nil
		}
		builds++
		v, err := build()
		memo[key] = v
		return v, err
	}
	p, err := New(e, sampling.Greedy)
	if err != nil {
		t.Fatal(err)
	}
	sets := p.Sets()
	for q := range int32(len(d.Pages)) {
		if n := len(sets.Of(q)); n < 1 || n > 3 {
			t.Fatalf("page %d in %d categories, want 1 to 3", q, n)
		}
	}
	if builds != 2 { // the ranks, then the top-3 categories
		t.Errorf("%d builds, want 2", builds)
	}
	e.Params = param.Values{"categories": FromTopic, "topK": 5.0}
	if _, err := New(e, sampling.Greedy); err != nil {
		t.Fatal(err)
	}
	if builds != 3 { // only the top-5 categories: the ranks are remembered
		t.Errorf("%d builds after a second topK, want 3", builds)
	}
	tal := synth.TaleghaniExample(1)
	if _, err := New(env(tal, 100, 1, param.Values{"categories": FromTopic}), sampling.Greedy); !errors.Is(err, ErrNoTerms) {
		t.Errorf("TOPIC on a dataset without terms: %v", err)
	}
}

// TestReuseMatchesNew checks the refresh.Reuser promise with TOPIC
// categories and every option on: a policy reused for a new repeat gives
// exactly the cycles of one built afresh.
func TestReuseMatchesNew(t *testing.T) {
	d := synth.TopicWeb(2)
	for _, params := range []param.Values{
		{"categories": FromTopic, "topK": 4.0, "sizing": SizingScaledShared, "interval": true},
		{"categories": FromCrawl, "topK": 2.0, "inLinks": 3.0, "sampleRule": sampling.RuleEq7, "history": 0.5},
	} {
		reuseMatchesNew(t, d, params)
	}
}

func reuseMatchesNew(t *testing.T, d *dataset.Dataset, params param.Values) {
	for _, alloc := range []sampling.Allocation{sampling.Greedy, sampling.Proportional} {
		sim := refresh.NewSim(d)
		var reused *Sampling
		for r := range uint64(3) {
			e := env(d, 300, r, params)
			fresh, err := New(e, alloc)
			if err != nil {
				t.Fatal(err)
			}
			sim.Reset()
			want := sim.Run(fresh, 300, 6, nil)
			if reused == nil {
				reused, _ = New(env(d, 300, 100, params), alloc)
				sim.Reset()
				sim.Run(reused, 300, 6, nil) // leave it in a used state
			}
			reused.Reuse(env(d, 300, r, params))
			sim.Reset()
			if got := sim.Run(reused, 300, 6, nil); !reflect.DeepEqual(got, want) {
				t.Fatalf("alloc %d repeat %d: reused %v, fresh %v", alloc, r, got, want)
			}
		}
	}
}

// TestTopicWebCategoriesBeatSites checks the premise topic-web builds in,
// through the policies: over many seeds of the one-cycle ChangeRatio,
// greedy sampling by the true topics (the labels) and by TOPIC's top-1
// topics both find more changed pages than greedy site sampling. Each
// comparison is of means over 400 repeats, beyond 4 combined SE.
func TestTopicWebCategoriesBeatSites(t *testing.T) {
	d := synth.TopicWeb(3)
	memo := newMemo()
	oneCycle := func(ps refresh.Descriptor, params param.Values) []float64 {
		sim := refresh.NewSim(d)
		var out []float64
		for r := range uint64(400) {
			sim.Reset()
			vals := param.Values{}
			for k, v := range params {
				vals[k] = v
			}
			p, err := ps.New(refresh.Env{Repo: &d.Repository, Budget: 200, Cycles: 1, Rand: rand.New(rand.NewPCG(r, 3)), Params: vals, Memo: memo})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, sim.Run(p, 200, 1, nil)[0].ChangeRatio())
		}
		return out
	}
	site := oneCycle(sampling.Descriptors()[0], param.Values{})
	ms, ses := meanSE(site)
	for _, params := range []param.Values{{}, {"categories": FromTopic, "topK": 1.0}} {
		cat := oneCycle(Descriptors()[0], params)
		mc, sec := meanSE(cat)
		t.Logf("category greedy %v: %.4f ± %.4f; site greedy %.4f ± %.4f", params, mc, sec, ms, ses)
		if mc-ms < zTolerance*math.Hypot(sec, ses) {
			t.Errorf("category greedy %v (%.4f) does not beat site greedy (%.4f) by 4 SE", params, mc, ms)
		}
	}
}

// Example reproduces Taleghani §2.3.2 exactly: the expected ChangeRatio
// of greedy category sampling with 4-page samples and 100 downloads on
// Table 1's example (the paper's 0.77 assumes every sample shows its
// category's true fraction).
func ExampleExpectedChangeRatio() {
	d := synth.TaleghaniExample(1)
	e, err := ExpectedChangeRatio(d, LabelSets(&d.Repository), 100, param.Values{"sampleSize": 4.0}, sampling.Greedy)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.4f\n", e)
	// Output: 0.7384
}

// ExampleNew runs greedy category sampling for one cycle of the Table 1
// example and prints each category's estimate from its 4-page sample.
// Here the samples happen to show the true fractions, as the paper
// assumes; the 8 downloads left for C3 found 2 changed pages where the
// paper counts on 4, so the cycle's ChangeRatio is 0.75 rather than 0.77.
func ExampleNew() {
	d := synth.TaleghaniExample(1)
	p, err := New(refresh.Env{
		Repo: &d.Repository, Budget: 100, Cycles: 1,
		Rand: rand.New(rand.NewPCG(1, 2)), Params: param.Values{"sampleSize": 4.0},
	}, sampling.Greedy)
	if err != nil {
		panic(err)
	}
	cy := refresh.NewSim(d).Run(p, 100, 1, nil)[0]
	for i, name := range p.Sets().Names {
		fmt.Printf("%s: %d of 4 changed\n", name, int(p.Estimates()[i]*4))
	}
	fmt.Printf("%d downloads, ChangeRatio %.2f\n", cy.Downloads, cy.ChangeRatio())
	// Output:
	// C1: 4 of 4 changed
	// C2: 3 of 4 changed
	// C3: 2 of 4 changed
	// C4: 1 of 4 changed
	// C5: 0 of 4 changed
	// 100 downloads, ChangeRatio 0.75
}

// TestTopicWebPinned pins six cycles of greedy and proportional category
// sampling with TOPIC categories and the interval rule on the bundled
// topic web (seed 20260101): every decision is arithmetic on
// math/rand/v2's draws (the interval's quantile is core/stat's), so the
// downloads and the changes they find must be the same natively and in
// WebAssembly. If the policy changes on purpose, update the digests.
func TestTopicWebPinned(t *testing.T) {
	d := synth.TopicWeb(20260101)
	params := param.Values{"categories": FromTopic, "topK": 3.0, "interval": true, "sizing": SizingScaledShared}
	want := map[sampling.Allocation]uint64{sampling.Greedy: 0x29eb26289378719f, sampling.Proportional: 0x477f80f89f2872e8}
	for alloc, w := range want {
		h := fnv.New64a()
		for _, run := range simulate(t, d, alloc, 300, 6, 3, 8, params) {
			for _, cy := range run {
				fmt.Fprintf(h, "%d %d %x %x\n", cy.Downloads, cy.Changed, math.Float64bits(cy.Freshness), math.Float64bits(cy.Age))
			}
		}
		if got := h.Sum64(); got != w {
			t.Errorf("alloc %d: digest %#x, pinned %#x", alloc, got, w)
		}
	}
}
