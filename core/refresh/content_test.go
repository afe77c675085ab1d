package refresh_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/refresh"
)

// versions is a content model whose only attribute is the version number,
// so a test can see exactly which version a copy holds.
type versions struct{}

func (versions) Attributes() []string              { return []string{"version"} }
func (versions) Version(p, v int32, out []float64) { out[0] = float64(v) }
func (versions) Similarity(p, a, b int32) float64 {
	if a == b {
		return 1
	}
	return 0
}

// versionScript downloads the given pages in each cycle and records what the
// crawl shows of page 0's copies after them.
type versionScript struct {
	plan         [][]int32
	copy, prev   []float64
	similarities []float64
}

func (s *versionScript) Refresh(c *refresh.Crawl) {
	for _, p := range s.plan[c.Cycle()] {
		c.Download(p)
	}
	out := make([]float64, 1)
	c.Copy(0, out)
	s.copy = append(s.copy, out[0])
	c.Previous(0, out)
	s.prev = append(s.prev, out[0])
	s.similarities = append(s.similarities, c.Similarity(0))
}

// TestCopiesShowOnlyDownloadedVersions checks the content side of the
// no-peeking contract: a crawler sees the version it downloaded, never the
// source's newer one, and its previous copy is the one before its last
// download.
func TestCopiesShowOnlyDownloadedVersions(t *testing.T) {
	d := &dataset.Dataset{
		Repository: dataset.Repository{
			Pages: []dataset.Page{{URL: "a"}, {URL: "b"}}, Sites: []string{"s"}, Content: versions{},
		},
		Truth: dataset.Truth{Changed: [][]int32{{0}, {0}, {}, {0}, {}}},
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	// Page 0 changes in cycles 0, 1 and 3: versions 1, 2, 3.
	s := &versionScript{plan: [][]int32{{}, {0}, {0}, {}, {0}}}
	sim := refresh.NewSim(d)
	for run := range 2 { // the second run checks that Reset forgets versions
		s.copy, s.prev, s.similarities = nil, nil, nil
		sim.Reset()
		sim.Run(s, 2, 5, nil)
		wantCopy := []float64{0, 2, 2, 2, 3}
		wantPrev := []float64{0, 0, 2, 2, 2}
		wantSim := []float64{1, 0, 1, 1, 0}
		for c := range wantCopy {
			if s.copy[c] != wantCopy[c] || s.prev[c] != wantPrev[c] || s.similarities[c] != wantSim[c] {
				t.Fatalf("run %d: copies %v, previous %v, similarities %v; want %v, %v, %v",
					run, s.copy, s.prev, s.similarities, wantCopy, wantPrev, wantSim)
			}
		}
	}
}

func TestCopyWithoutContent(t *testing.T) {
	d := &dataset.Dataset{
		Repository: dataset.Repository{Pages: []dataset.Page{{URL: "a"}}, Sites: []string{"s"}},
		Truth:      dataset.Truth{Changed: [][]int32{{0}}},
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	var ok bool
	sim := refresh.NewSim(d)
	sim.Run(policyFunc(func(c *refresh.Crawl) { ok = c.Copy(0, make([]float64, 1)) }), 1, 1, nil)
	if ok {
		t.Error("Copy reported content for a dataset without a content model")
	}
}

// TestCopyVersionCountsChanges checks, on random change truths and random
// downloads, that a downloaded copy is the page's version at the source:
// the number of its changes up to and including the download's cycle. Each
// truth is run twice, to check that Reset forgets the versions.
func TestCopyVersionCountsChanges(t *testing.T) {
	for _, cycles := range []int{1, 12, 90} {
		const n = 30
		rng := rand.New(rand.NewPCG(uint64(cycles), 7))
		changed := make([][]int32, cycles)
		for c := range changed {
			for p := range int32(n) {
				if rng.IntN(3) == 0 {
					changed[c] = append(changed[c], p)
				}
			}
		}
		d := &dataset.Dataset{Truth: dataset.Truth{Changed: changed}}
		d.Sites, d.Content = []string{"s"}, versions{}
		for range n {
			d.Pages = append(d.Pages, dataset.Page{})
		}
		if err := d.Finish(); err != nil {
			t.Fatal(err)
		}
		sim := refresh.NewSim(d)
		for run := range 2 {
			sim.Reset()
			seen := make([]int, n) // the version each page's copy should hold
			checked := 0
			sim.Run(policyFunc(func(c *refresh.Crawl) {
				for p := range n {
					if slices.Contains(changed[c.Cycle()], int32(p)) {
						seen[p]++
					}
				}
				out := make([]float64, 1)
				for range 5 {
					p := int32(rng.IntN(n))
					c.Download(p)
					c.Copy(p, out)
					if int(out[0]) != seen[p] {
						t.Fatalf("%d cycles, run %d, cycle %d: page %d's copy is version %v, want %d (its changes so far)",
							cycles, run, c.Cycle(), p, out[0], seen[p])
					}
					checked++
				}
			}), 5, cycles, nil)
			if checked != 5*cycles {
				t.Fatalf("%d cycles: checked %d downloads, want %d", cycles, checked, 5*cycles)
			}
		}
	}
}
