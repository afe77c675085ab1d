package category

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/sampling"
	"github.com/refreshlab/refreshlab/core/stat"
)

// expect returns a Descriptor.Expect for category sampling with alloc.
func expect(alloc sampling.Allocation) func(*dataset.Dataset, int, param.Values) (float64, error) {
	return func(d *dataset.Dataset, budget int, params param.Values) (float64, error) {
		if params.String("categories", FromDataset) != FromDataset {
			return math.NaN(), errors.New("the exact expectation is computed for the dataset's own categories only")
		}
		return ExpectedChangeRatio(d, LabelSets(&d.Repository), budget, params, alloc)
	}
}

// ExpectedChangeRatio returns the exact expected ChangeRatio of one cycle
// (the dataset's first) of category sampling over sets with the given
// allocation, budget and parameters (sampleSize, sizing, interval,
// confidence): what the simulation's mean converges to.
//
// Taleghani §2.3.2's 0.77 assumes each 4-page sample shows its category's
// true change fraction. A real sample of k_i pages from a category of n_i
// pages, K_i of them changed, shows x changed pages with the hypergeometric
// probability, and sometimes ranks the categories wrongly;
// sampling.ExpectGroups sums over every combination of outcomes and every
// order of the categories (the tie-breaker). It needs disjoint categories
// (then no sample is ever reused, Algorithm 4), at most 6 of them, and a
// budget that pays for every sample.
func ExpectedChangeRatio(d *dataset.Dataset, sets *Sets, budget int, params param.Values, alloc sampling.Allocation) (float64, error) {
	if !sets.Disjoint {
		return math.NaN(), errors.New("the exact expectation needs disjoint categories, and pages here are in several")
	}
	if d.Truth.Cycles() == 0 {
		return math.NaN(), errors.New("the dataset has no cycles")
	}
	s := params.Int("sampleSize", 0)
	if s == 0 {
		s = DefaultSampleSize(sets, budget)
	}
	size := SampleSizes(sets, s, params.String("sizing", SizingEqual))
	changed := make([]bool, len(d.Pages))
	for _, p := range d.Truth.Changed[0] {
		changed[p] = true
	}
	groups := make([]sampling.Group, sets.Len())
	for i := range groups {
		g := sampling.Group{Pages: len(sets.Category(i)), Sample: size[i]}
		for _, p := range sets.Category(i) {
			if changed[p] {
				g.Changed++
			}
		}
		groups[i] = g
	}
	var score func(g, x int) float64
	z := math.NaN()
	if params.Bool("interval", false) {
		z = stat.NormalQuantile((1 + params.Float("confidence", 0.95)) / 2)
		score = func(g, x int) float64 {
			lo, _ := stat.WilsonInterval(x, groups[g].Sample, groups[g].Pages, z)
			return lo
		}
	}
	key := fmt.Sprint(groups, budget, alloc, z)
	if e, ok := expectCache.get(key); ok {
		return e, nil
	}
	e, err := sampling.ExpectGroups(groups, budget, alloc, score)
	if err == nil {
		expectCache.put(key, e)
	}
	return e, err
}

// expectCache remembers exact expectations by their inputs (each
// category's pages, changed pages and sample size, the budget, the
// allocation and the interval's quantile): a lesson recomputes the same
// one-cycle run on every slider move that leaves them alone, and the
// enumeration takes milliseconds in the browser for larger samples.
var expectCache = &boundedCache{max: 512}

// boundedCache is a map safe for concurrent use that starts afresh when
// full.
type boundedCache struct {
	mu  sync.Mutex
	max int
	m   map[string]float64
}

func (c *boundedCache) get(k string) (float64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *boundedCache) put(k string, v float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= c.max {
		c.m = map[string]float64{}
	}
	c.m[k] = v
}
