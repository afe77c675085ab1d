package category

import (
	"fmt"
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

// skewed is §7.1.1's pitfall as a dataset: four categories of 100 pages on
// one site; in C0 the same 5 pages change every cycle (a change ratio of
// 0.05 among pages refreshed each cycle), in C1-C3 a fresh random 30 pages
// each cycle.
func skewed(cycles int) *dataset.Dataset {
	d := &dataset.Dataset{Info: dataset.Info{ID: "skewed"}}
	d.Sites = []string{"example.org"}
	for c := range 4 {
		d.Labels = append(d.Labels, fmt.Sprintf("C%d", c))
		for p := range 100 {
			d.Pages = append(d.Pages, dataset.Page{URL: fmt.Sprintf("/%d/%d", c, p), Labels: []int32{int32(c)}})
		}
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for range cycles {
		changed := []int32{0, 1, 2, 3, 4}
		for c := int32(1); c < 4; c++ {
			for _, p := range rng.Perm(100)[:30] {
				changed = append(changed, 100*c+int32(p))
			}
		}
		slices.Sort(changed)
		d.Truth.Changed = append(d.Truth.Changed, changed)
	}
	if err := d.Finish(); err != nil {
		panic(err)
	}
	return d
}

// TestHistoryCorrectsSkew: with 2-page samples, C0's sample sometimes
// catches one of its 5 fast pages and shows 0.5 or 1, and greedy then
// spends the cycle on a category whose pages hardly change (§7.1.1). A
// category history (weight 0.5) keeps C0 down: ChangeRatio over cycles
// 2-10, mean over 300 repeats, is higher by more than 4 combined standard
// errors than without history, and so it is with history alone (weight 1).
func TestHistoryCorrectsSkew(t *testing.T) {
	d := skewed(10)
	mean := func(w float64) (float64, float64) {
		var xs []float64
		for _, run := range simulate(t, d, sampling.Greedy, 108, 10, 300, 11, param.Values{"sampleSize": 2.0, "history": w}) {
			chg, dl := 0, 0
			for _, c := range run[1:] {
				chg += c.Changed
				dl += c.Downloads
			}
			xs = append(xs, float64(chg)/float64(dl))
		}
		return meanSE(xs)
	}
	m0, se0 := mean(0)
	for _, w := range []float64{0.5, 1} {
		m, se := mean(w)
		if m-m0 <= zTolerance*math.Hypot(se, se0) {
			t.Errorf("history %v: ChangeRatio %.4f ± %.4f, without %.4f ± %.4f: want clearly higher", w, m, se, m0, se0)
		}
	}
}

// TestEq7Sizes checks category sampling's sampleRule eq7: the first cycle
// samples √(N·r) (or the set size) per category, and each later cycle the
// size eq. 7 gives from the cycle before's estimates, through sizing.
func TestEq7Sizes(t *testing.T) {
	d := synth.TopicWeb(4)
	for _, tt := range []struct {
		params param.Values
		budget int
	}{
		{param.Values{"sampleRule": sampling.RuleEq7}, 200},
		{param.Values{"sampleRule": sampling.RuleEq7, "sizing": SizingScaled}, 400},
		{param.Values{"sampleRule": sampling.RuleEq7, "sampleSize": 9.0}, 100},
	} {
		p, err := New(env(d, tt.budget, 3, tt.params), sampling.Greedy)
		if err != nil {
			t.Fatal(err)
		}
		sets, sizing := p.Sets(), tt.params.String("sizing", SizingEqual)
		base := tt.params.Int("sampleSize", DefaultSampleSize(sets, tt.budget))
		want := SampleSizes(sets, base, sizing)
		varied := false
		sim := refresh.NewSim(d)
		sim.After = func(c int) {
			if !slices.Equal(p.SampleSizes(), want) {
				t.Errorf("%v cycle %d: sizes %v, want %v", tt.params, c, p.SampleSizes(), want)
			}
			e := sampling.Eq7Size(sets.MeanSize(), float64(tt.budget)/float64(sets.Pages), p.Estimates(), nil)
			want = SampleSizes(sets, sampling.RoundSize(e.Size, base, tt.budget/sets.Len()), sizing)
			varied = varied || !slices.Equal(want, p.SampleSizes())
		}
		sim.Run(p, tt.budget, d.Truth.Cycles(), nil)
		if !varied {
			t.Errorf("%v: eq. 7 never changed the sizes", tt.params)
		}
	}
}

// TestCrawlCategories: categories "crawl" are TOPIC's at crawl time
// (topic.CrawlRank), built once per parameters through the memo and
// distinct from the batch ranks; a limit of in-links reaches them; and a
// dataset without terms is refused as for "topic".
func TestCrawlCategories(t *testing.T) {
	d := synth.TopicWeb(1)
	memo := newMemo()
	sets := func(params param.Values) *Sets {
		e := env(d, 200, 1, params)
		e.Memo = memo
		p, err := New(e, sampling.Greedy)
		if err != nil {
			t.Fatal(err)
		}
		return p.Sets()
	}
	crawl := sets(param.Values{"categories": FromCrawl, "topK": 1.0})
	if again := sets(param.Values{"categories": FromCrawl, "topK": 1.0}); again != crawl {
		t.Error("crawl categories built twice")
	}
	batch := sets(param.Values{"categories": FromTopic, "topK": 1.0})
	if reflect.DeepEqual(crawl, batch) {
		t.Error("crawl-time categories equal the batch ones")
	}
	if limited := sets(param.Values{"categories": FromCrawl, "topK": 1.0, "inLinks": 1.0}); reflect.DeepEqual(limited, crawl) {
		t.Error("one in-link per page changed no category")
	}
	if _, err := New(env(synth.TaleghaniExample(1), 100, 1, param.Values{"categories": FromCrawl}), sampling.Greedy); err != ErrNoTerms {
		t.Errorf("no terms: error %v, want ErrNoTerms", err)
	}
}

// TestHistoryPredict follows the history by hand on C0 = {0, 1},
// C1 = {1, 2, 3}, C2 = {3}. Cycle 0 downloads page 0 (changed) and page 1
// (not): each had been left 1 cycle. Cycle 1 downloads page 2 (changed),
// left 2 cycles. Then, per category, changes / exposure × mean cycles since
// the last download, at most 1:
//
//	cycle 1: C0 1/2 × (1 − (0+0)/2) = 0.5;  C1 0/1 × … = 0;  C2 no history
//	cycle 2: C0 1/2 × (2 − 0) = 1;  C1 1/3 × (2 − (0+1−1)/3) = 2/3
func TestHistoryPredict(t *testing.T) {
	sets := newSets(4, []string{"C0", "C1", "C2"}, [][]int32{{0, 1}, {1, 2, 3}, {3}}, NoLabel)
	h := newHistory(sets)
	type want struct {
		cat int
		p   float64
		ok  bool
	}
	steps := []struct {
		downloads []int32
		changed   []bool
		then      []want // predictions at the start of the next cycle
	}{
		{[]int32{0, 1}, []bool{true, false}, []want{{0, 0.5, true}, {1, 0, true}, {2, 0, false}}},
		{[]int32{2}, []bool{true}, []want{{0, 1, true}, {1, 2.0 / 3, true}, {2, 0, false}}},
	}
	for c, st := range steps {
		h.fold()
		for i, u := range st.downloads {
			h.record(u, st.changed[i], c)
		}
		h.fold()
		for _, w := range st.then {
			if p, ok := h.predict(w.cat, c+1); ok != w.ok || math.Abs(p-w.p) > 1e-15 {
				t.Errorf("cycle %d: C%d predicted %v (%v), want %v (%v)", c+1, w.cat, p, ok, w.p, w.ok)
			}
		}
	}
	h.reset()
	if _, ok := h.predict(0, 0); ok {
		t.Error("history kept after reset")
	}
}
