// Package policy holds the baseline refresh policies every paper compares
// against: round-robin, random, change-frequency, and the oracle that knows
// which pages changed (the upper bound no crawler can reach).
package policy

import (
	"errors"
	"math"
	"math/rand/v2"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
)

// Descriptors lists the baseline policies for the catalog.
func Descriptors() []refresh.Descriptor {
	return []refresh.Descriptor{
		{
			ID: "round-robin", Name: "Round-robin",
			Cost:    10,
			Paper:   "Taleghani & Ugur-Ozekinci §2.1 (1); Tan et al. §5.1 (RR)",
			Summary: "Downloads pages in a fixed order, picking up where the last cycle stopped, so every page is refreshed once per pass.",
			New: func(env refresh.Env) (refresh.Policy, error) {
				return NewRoundRobin(len(env.Repo.Pages), env.Rand), nil
			},
			Expect: expectUniform,
		},
		{
			ID: "random", Name: "Random",
			Cost:    12,
			Paper:   "Tan et al. §5.1 (Rand)",
			Summary: "Downloads a uniformly random set of pages each cycle.",
			New: func(env refresh.Env) (refresh.Policy, error) {
				return NewRandom(len(env.Repo.Pages), env.Rand), nil
			},
			Expect: expectUniform,
		},
		{
			ID: "change-frequency", Name: "Change frequency",
			Cost:    45,
			Paper:   "Taleghani & Ugur-Ozekinci §2.1 (2); Tan et al. §5.1 (Freq)",
			Summary: "Ranks pages by the changes their own past downloads saw, per cycle watched, times the cycles since the last download.",
			New: func(env refresh.Env) (refresh.Policy, error) {
				return NewChangeFrequency(len(env.Repo.Pages), env.Rand), nil
			},
			// With no history yet, every page ties and the random
			// tie-break makes the first cycle's downloads uniform.
			Expect: expectUniform,
		},
		{
			ID: "oracle", Name: "Oracle (perfect foresight)", Oracle: true, UpperBound: true,
			Cost:    25,
			Paper:   "upper bound; not a crawler",
			Summary: "Reads the truth and downloads only pages that changed, those stale longest first. No real crawler can do this: it marks the ceiling.",
			New: func(env refresh.Env) (refresh.Policy, error) {
				return &Oracle{truth: env.Truth}, nil
			},
			Expect: func(d *dataset.Dataset, _ int, _ param.Values) (float64, error) {
				if len(d.Truth.Changed[0]) == 0 {
					return math.NaN(), errors.New("nothing changed in the first cycle, so the oracle downloads nothing")
				}
				return 1, nil
			},
		},
	}
}

// expectUniform is the exact expected ChangeRatio of one cycle of a policy
// whose downloads are a uniformly random set of pages, as random's are and
// round-robin's are in its first cycle: the share of pages that changed.
func expectUniform(d *dataset.Dataset, _ int, _ param.Values) (float64, error) {
	return float64(len(d.Truth.Changed[0])) / float64(len(d.Pages)), nil
}

// RoundRobin downloads pages in a fixed order, continuing each cycle from
// where the last one stopped, so every page is refreshed once per pass
// (Taleghani §2.1 (1); Tan §5.1, RR). The order is drawn at random once per
// run: the repository's listing order (often site by site) would otherwise
// decide what a short run sees. A budget larger than the repository
// downloads each page once.
type RoundRobin struct {
	order []int32
	next  int
}

// NewRoundRobin returns round-robin over n pages in an order drawn from rng.
func NewRoundRobin(n int, rng *rand.Rand) *RoundRobin {
	r := &RoundRobin{order: make([]int32, n)}
	r.reset(rng)
	return r
}

// Reuse implements refresh.Reuser.
func (r *RoundRobin) Reuse(env refresh.Env) { r.reset(env.Rand) }

func (r *RoundRobin) reset(rng *rand.Rand) {
	permute(r.order, rng)
	r.next = 0
}

// permute fills s with a random permutation of 0..len(s)-1, the one
// rng.Perm would draw, but in place.
func permute(s []int32, rng *rand.Rand) {
	for i := range s {
		s[i] = int32(i)
	}
	rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
}

// Refresh implements refresh.Policy.
func (r *RoundRobin) Refresh(c *refresh.Crawl) {
	for k := min(c.Remaining(), len(r.order)); k > 0; k-- {
		c.Download(r.order[r.next])
		r.next++
		if r.next == len(r.order) {
			r.next = 0
		}
	}
}

// Random downloads a uniformly random set of pages each cycle, without
// repeats within a cycle (Tan et al. §5.1, Rand).
type Random struct {
	perm []int32
	rng  *rand.Rand
}

// NewRandom returns a Random policy over n pages drawing from rng.
func NewRandom(n int, rng *rand.Rand) *Random {
	r := &Random{perm: make([]int32, n)}
	r.reset(rng)
	return r
}

// Reuse implements refresh.Reuser.
func (r *Random) Reuse(env refresh.Env) { r.reset(env.Rand) }

func (r *Random) reset(rng *rand.Rand) {
	for i := range r.perm {
		r.perm[i] = int32(i)
	}
	r.rng = rng
}

// Refresh implements refresh.Policy with a partial Fisher-Yates shuffle.
func (r *Random) Refresh(c *refresh.Crawl) {
	n := len(r.perm)
	k := min(c.Remaining(), n)
	for i := 0; i < k; i++ {
		j := i + r.rng.IntN(n-i)
		r.perm[i], r.perm[j] = r.perm[j], r.perm[i]
		c.Download(r.perm[i])
	}
}

// Oracle downloads only stale pages, those whose missed change is oldest
// first. It reads the truth, so it is an upper bound, not a crawler: every
// download finds a change (ChangeRatio 1 whenever anything changed), and no
// policy can leave fewer pages stale.
type Oracle struct {
	truth refresh.Truth
	sel   selector
	ids   []int32
	keys  []uint64
	ties  []int32
	pick  []int32
}

// Reuse implements refresh.Reuser.
func (o *Oracle) Reuse(env refresh.Env) { o.truth = env.Truth }

// Refresh implements refresh.Policy.
func (o *Oracle) Refresh(c *refresh.Crawl) {
	stale := o.truth.Stale()
	k := min(c.Remaining(), len(stale))
	// Copy the ids first: each download shrinks the shared stale list.
	o.ids = append(o.ids[:0], stale...)
	if k < len(o.ids) {
		// Oldest missed change first; the page index breaks ties so the
		// choice does not depend on the order of the stale list.
		o.keys, o.ties = o.keys[:0], o.ties[:0]
		for _, p := range o.ids {
			o.keys = append(o.keys, keyOf(-o.truth.StaleSince(p)))
			o.ties = append(o.ties, p)
		}
		o.pick = o.sel.top(o.ids, o.keys, o.ties, k, o.pick[:0])
	} else {
		o.pick = append(o.pick[:0], o.ids...)
	}
	for _, p := range o.pick {
		c.Download(p)
	}
}

// ChangeFrequency ranks pages by how often their own downloads found a
// change (Taleghani §2.1 (2), after Cho & Garcia-Molina; Tan §5.1, Freq).
//
// The papers give no formula. Our reading: a page's change rate is the
// changes its downloads saw per cycle watched, smoothed by half a change over
// one cycle so that pages never downloaded are explored rather than ignored,
// λ = (x + ½) / (T + 1), and each cycle the policy downloads the pages with
// the most expected changes since their last download, λ·(t − last). Ties
// go to a random order drawn once per run.
type ChangeFrequency struct {
	seen    []float64 // changes found by downloads (x)
	watched []float64 // cycles covered by downloads (T)
	last    []float64 // time of the last download; 0 is the initial copy
	rate    []float64 // λ, kept up to date at each download
	tie     []int32   // random rank of each page, to break ties
	ids     []int32   // 0..n-1
	keys    []uint64  // this cycle's score of each page, as a key
	sel     selector
	pick    []int32
}

// NewChangeFrequency returns the policy for n pages, breaking ties with rng.
func NewChangeFrequency(n int, rng *rand.Rand) *ChangeFrequency {
	f := &ChangeFrequency{
		seen: make([]float64, n), watched: make([]float64, n), last: make([]float64, n),
		rate: make([]float64, n), tie: make([]int32, n), ids: make([]int32, n), keys: make([]uint64, n),
	}
	for i := range f.ids {
		f.ids[i] = int32(i)
	}
	f.reset(rng)
	return f
}

// Reuse implements refresh.Reuser.
func (f *ChangeFrequency) Reuse(env refresh.Env) { f.reset(env.Rand) }

func (f *ChangeFrequency) reset(rng *rand.Rand) {
	clear(f.seen)
	clear(f.watched)
	clear(f.last)
	permute(f.tie, rng)
	for i := range f.rate {
		f.rate[i] = f.Rate(int32(i))
	}
}

// Rate returns the policy's current change-rate estimate for page p, in
// changes per cycle.
func (f *ChangeFrequency) Rate(p int32) float64 {
	return (f.seen[p] + 0.5) / (f.watched[p] + 1)
}

// Refresh implements refresh.Policy.
func (f *ChangeFrequency) Refresh(c *refresh.Crawl) {
	now := float64(c.Cycle() + 1)
	for p := range f.keys {
		f.keys[p] = keyOf(f.rate[p] * (now - f.last[p]))
	}
	k := min(c.Remaining(), len(f.keys))
	f.pick = f.sel.top(f.ids, f.keys, f.tie, k, f.pick[:0])
	for _, p := range f.pick {
		if c.Download(p) {
			f.seen[p]++
		}
		f.watched[p] += now - f.last[p]
		f.last[p] = now
		f.rate[p] = f.Rate(p)
	}
}
