package monitor

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDrawsReplay reads streams of a Draws, several times over and past
// what it keeps, and checks every epoch against the coins drawn afresh
// from the same stream.
func TestDrawsReplay(t *testing.T) {
	c := Coins{{0.5, 0.1, 0.9}, {0, 0.3, 0.2}, {1, 0, 0.05}, {0.6, 0.6, 0.6}}
	for _, keep := range []int{MaxDrawn, 0, 1, 7} {
		d := NewDraws(c)
		d.max = keep
		for _, read := range []struct {
			seed, stream uint64
			epochs       int
		}{{1, 0, 5}, {1, 0, 9}, {1, 2, 3}, {2, 0, 4}, {1, 0, 12}, {1, 2, 8}} {
			want := make([][]int32, len(c))
			rng := rand.New(rand.NewPCG(read.seed, read.stream))
			src := d.source(read.seed, read.stream)
			got := make([][]int32, len(c))
			for e := range read.epochs {
				c.Changes(e, rng, want)
				src.Changes(e, nil, got)
				for i := range c {
					if !slices.Equal(got[i], want[i]) {
						t.Fatalf("keep %d, stream (%d, %d), epoch %d, page %d: replayed %v, drawn %v", keep, read.seed, read.stream, e, i, got[i], want[i])
					}
				}
			}
		}
		if d.kept > max(keep, 1)+len(c)*3 {
			t.Errorf("keep %d: kept %d changes", keep, d.kept)
		}
	}
}
