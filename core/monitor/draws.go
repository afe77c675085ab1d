package monitor

import (
	"math/rand/v2"
	"sync"
)

// Draws remembers the changes that coins draw from each random stream, so
// that whoever draws the same stream again replays them instead of tossing
// a coin at every page and instant again: the policies of one run (common
// random numbers give every policy repeat r's changes), the runs of a
// sweep and later runs with the same seed. A replay gives the very changes
// the coins would, so no number changes. It keeps at most a bounded number
// of changes; a stream drawn past that goes on drawing from its own copy of
// the generator. It is safe for concurrent use.
type Draws struct {
	coins Coins
	mu    sync.Mutex
	by    map[[2]uint64]*stream
	kept  int // changes kept, in all streams
	max   int
}

// stream is what Draws keeps of one PCG stream: the changes of its first
// epochs, each epoch's as (page, instant) pairs in page order, and the
// generator positioned after them.
type stream struct {
	epochs [][][2]int32
	pcg    rand.PCG
}

// MaxDrawn is how many changes a Draws keeps, in all its streams.
const MaxDrawn = 1 << 20

// NewDraws returns a Draws for the coins c, keeping at most MaxDrawn
// changes.
func NewDraws(c Coins) *Draws {
	return &Draws{coins: c, by: map[[2]uint64]*stream{}, max: MaxDrawn}
}

// source returns a Source that gives the changes Coins(d's coins) would
// draw from rand.NewPCG(seed, s), remembered or drawn.
func (d *Draws) source(seed, s uint64) *replay {
	d.mu.Lock()
	defer d.mu.Unlock()
	k := [2]uint64{seed, s}
	st, ok := d.by[k]
	if !ok {
		st = &stream{pcg: *rand.NewPCG(seed, s)}
		d.by[k] = st
	}
	return &replay{d: d, s: st}
}

// replay is a Source that reads one stream of a Draws, epoch by epoch.
type replay struct {
	d *Draws
	s *stream
	// own draws the epochs past what d keeps, from a copy of the stream's
	// generator where d stopped keeping; next is the epoch it draws next.
	own  *rand.Rand
	next int
}

// Epochs implements Source: coins never run out.
func (*replay) Epochs() int { return int(^uint(0) >> 1) }

// Since implements Source: every page is tracked from the start.
func (*replay) Since(int) float64 { return 0 }

// Changes implements Source; the rng it is given is not used, as the
// stream has its own. Epochs are asked for in order, from 0.
func (r *replay) Changes(e int, _ *rand.Rand, out [][]int32) {
	if r.own == nil {
		r.d.mu.Lock()
		for len(r.s.epochs) <= e && r.d.kept < r.d.max {
			r.keep()
		}
		if e < len(r.s.epochs) {
			pairs := r.s.epochs[e]
			r.d.mu.Unlock()
			for i := range out {
				out[i] = out[i][:0]
			}
			for _, p := range pairs {
				out[p[0]] = append(out[p[0]], p[1])
			}
			return
		}
		pcg := r.s.pcg
		r.own, r.next = rand.New(&pcg), len(r.s.epochs)
		r.d.mu.Unlock()
	}
	for ; r.next <= e; r.next++ {
		r.d.coins.Changes(r.next, r.own, out)
	}
}

// keep draws the stream's next epoch and keeps it; d.mu is held.
func (r *replay) keep() {
	n := len(r.d.coins)
	out := make([][]int32, n)
	r.d.coins.Changes(len(r.s.epochs), rand.New(&r.s.pcg), out)
	var pairs [][2]int32
	for i, js := range out {
		for _, j := range js {
			pairs = append(pairs, [2]int32{int32(i), j})
		}
	}
	r.s.epochs = append(r.s.epochs, pairs)
	r.d.kept += max(len(pairs), 1)
}
