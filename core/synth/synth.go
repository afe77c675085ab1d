// Package synth rebuilds the papers' setups as datasets: seeded, so the
// same seed always gives the same pages and the same changes, natively and
// in WebAssembly.
package synth

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"

	"github.com/refreshlab/refreshlab/core/dataset"
	"gonum.org/v1/gonum/stat/distuv"
)

// newRand returns the generator's random source for seed. Every generator
// draws from its own PCG stream so adding one does not shift another.
func newRand(seed uint64, stream string) *rand.Rand {
	h := fnv.New64a() // the stream is the hash of its name
	h.Write([]byte(stream))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// poissonCycles draws a Poisson change process of the given rate (changes
// per cycle) over cycles [0, cycles) and calls mark(c, t) with the time t of
// the first change in each cycle c that has one.
func poissonCycles(rng *rand.Rand, rate float64, cycles int, mark func(c int, t float64)) {
	poissonWarped(rng, rate, float64(cycles), nil, mark)
}

// poissonWarped is poissonCycles with time changed: it draws a Poisson
// process of the given rate over [0, horizon] and moves each change from t
// to warp(t) (increasing, onto [0, cycles]) before marking it; a nil warp
// leaves times as drawn, horizon then being the cycles. A process whose
// intensity varies as rate·m(s) is one of constant rate seen through the
// inverse of M(s) = ∫₀ˢ m, with horizon M(cycles) (the time-change theorem
// for Poisson processes).
func poissonWarped(rng *rand.Rand, rate, horizon float64, warp func(float64) float64, mark func(c int, t float64)) {
	if rate <= 0 {
		return
	}
	t := 0.0
	last := -1
	for {
		t += rng.ExpFloat64() / rate
		if t > horizon {
			return
		}
		at := t
		if warp != nil {
			at = warp(t)
		}
		c := int(math.Ceil(at)) - 1 // cycle c covers (c, c+1]
		if c < 0 {
			c = 0
		}
		if c != last {
			mark(c, at)
			last = c
		}
	}
}

// builder accumulates a dataset's truth cycle by cycle.
type builder struct {
	d *dataset.Dataset
}

func newBuilder(info dataset.Info, cycles int, continuous bool) *builder {
	d := &dataset.Dataset{Info: info}
	d.Truth.Changed = make([][]int32, cycles)
	if continuous {
		d.Truth.First = make([][]float64, cycles)
	}
	return &builder{d: d}
}

func (b *builder) site(name string) int32 {
	b.d.Sites = append(b.d.Sites, name)
	return int32(len(b.d.Sites) - 1)
}

func (b *builder) page(url string, site int32, labels ...int32) int32 {
	b.d.Pages = append(b.d.Pages, dataset.Page{URL: url, Site: site, Labels: labels})
	return int32(len(b.d.Pages) - 1)
}

// change records that page p changed in cycle c, first at time t. Pages
// must be added to a cycle in ascending order.
func (b *builder) change(c int, p int32, t float64) {
	b.d.Truth.Changed[c] = append(b.d.Truth.Changed[c], p)
	if b.d.Truth.First != nil {
		b.d.Truth.First[c] = append(b.d.Truth.First[c], t)
	}
}

func (b *builder) finish() *dataset.Dataset {
	if err := b.d.Finish(); err != nil {
		panic(fmt.Sprintf("synth: %s: %v", b.d.Info.ID, err)) // a generator bug
	}
	return b.d
}

// betaMean draws from the Beta distribution with mean m and concentration
// k (α = m·k, β = (1−m)·k). A mean of 0 or 1 gives that value.
func betaMean(rng *rand.Rand, m, k float64) float64 {
	if m <= 0 || m >= 1 {
		return min(max(m, 0), 1)
	}
	return distuv.Beta{Alpha: m * k, Beta: (1 - m) * k, Src: rng}.Rand()
}
