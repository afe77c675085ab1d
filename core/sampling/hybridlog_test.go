package sampling

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
)

// logHybridOn builds the full-log hybrid over sim's dataset.
func logHybridOn(t testing.TB, sim *refresh.Sim, repo refresh.Env, versions, samplePages int, rng *rand.Rand, redraw bool) *Hybrid {
	t.Helper()
	repo.Rand, repo.Truth = rng, sim
	repo.Params = param.Values{"samplePages": float64(samplePages), "reserve": 0.05, "redraw": redraw}
	h, err := NewHybridFromLog(repo, versions)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestLogPageRate checks C = D/V read from the log on TestPageRate's hand
// history: with every page in the sample from the first cycle the log and
// the policy's own downloads hold the same versions, so the estimates are
// TestPageRate's.
func TestLogPageRate(t *testing.T) {
	pattern, want3 := pageRatePattern, pageRateWant3
	d := patterned(t, pattern)
	sim := refresh.NewSim(d)
	h := logHybridOn(t, sim, refresh.Env{Repo: &d.Repository, Budget: 4, Cycles: 6}, 3, 4, rand.New(rand.NewPCG(1, 1)), false)
	var got []float64
	sim.After = func(int) { got = append(got, h.SiteEstimates()[0]) }
	sim.Run(h, 4, 6, nil)
	for c := range want3 {
		if math.Abs(got[c]-want3[c]) > 1e-12 {
			t.Errorf("estimate after cycle %d = %v, want %v", c+1, got[c], want3[c])
		}
	}
}

// TestLogHistoryIsTheTruth checks the full-log hybrid against a direct
// count on the Jordan sample, at small budgets where sample pages come and
// go: after every cycle t, each estimated site's rate is the mean over its
// sample pages of D/V, D the cycles among the last V (all t+1 at first) in
// which the page changed, whether or not the policy fetched it then. The
// policy's own downloads never see most of these versions: the honest
// hybrid's estimate differs. With redraw, every cycle draws new sample
// pages, each with its versions from the log.
func TestLogHistoryIsTheTruth(t *testing.T) {
	for _, redraw := range []bool{false, true} {
		logHistoryIsTheTruth(t, redraw)
	}
}

func logHistoryIsTheTruth(t *testing.T, redraw bool) {
	d := table41(t)
	changedIn := func(p int32, c int) bool {
		_, ok := slices.BinarySearch(d.Truth.Changed[c], p)
		return ok
	}
	differs, moved := 0, 0
	for seed := range uint64(6) {
		for _, v := range []int{1, 3, 8} {
			sim := refresh.NewSim(d)
			env := refresh.Env{Repo: &d.Repository, Budget: 20, Cycles: 21}
			h := logHybridOn(t, sim, env, v, 10, rand.New(rand.NewPCG(seed, 11)), redraw)
			var before [][]int32
			own := hybridOn(d, 20, v, 10, 0.05, rand.New(rand.NewPCG(seed, 11)))
			ownSim := refresh.NewSim(d)
			var ownEst [][]float64
			ownSim.After = func(int) { ownEst = append(ownEst, slices.Clone(own.SiteEstimates())) }
			ownSim.Run(own, 20, 21, nil)
			sim.After = func(c int) {
				for w := range h.pages {
					now := slices.Clone(h.pages[w][:h.members[w]])
					slices.Sort(now)
					if c > 0 && h.members[w] > 0 && !slices.Equal(now, before[w]) {
						moved++
					}
					if c == 0 {
						before = append(before, now)
					} else {
						before[w] = now
					}
				}
				for w, est := range h.SiteEstimates() {
					if h.members[w] == 0 {
						if est != -1 {
							t.Fatalf("seed %d V %d cycle %d: site %d has no sample but estimate %v", seed, v, c, w, est)
						}
						continue
					}
					k := min(v, c+1)
					var sum float64
					for _, p := range h.pages[w][:h.members[w]] {
						n := 0
						for c2 := c - k + 1; c2 <= c; c2++ {
							if changedIn(p, c2) {
								n++
							}
						}
						sum += float64(n) / float64(k)
					}
					if want := sum / float64(h.members[w]); math.Abs(est-want) > 1e-12 {
						t.Fatalf("seed %d V %d cycle %d site %d: estimate %v, want %v from the log", seed, v, c, w, est, want)
					}
					if est != ownEst[c][w] {
						differs++
					}
				}
			}
			sim.Run(h, 20, 21, nil)
		}
	}
	if differs == 0 {
		t.Errorf("redraw %v: the full-log hybrid estimated every site exactly as the honest one: the log added nothing", redraw)
	}
	// Without redraw a sample changes only when its allotment does; with
	// it, nearly every sample changes every cycle.
	if total := 6 * 3 * 20 * 9; redraw && moved < total/2 || !redraw && moved > total/2 {
		t.Errorf("redraw %v: samples changed %d times in %d site-cycles", redraw, moved, total)
	}
}

// TestLogNeedsTruth checks that the full-log hybrid is an oracle: marked
// so in the catalog, and refused without the truth.
func TestLogNeedsTruth(t *testing.T) {
	i := slices.IndexFunc(HybridDescriptors(), func(d refresh.Descriptor) bool { return d.ID == "frequency-greedy-log" })
	if i < 0 || !HybridDescriptors()[i].Oracle {
		t.Fatal("frequency-greedy-log is missing or not marked Oracle")
	}
	d := table41(t)
	_, err := NewHybridFromLog(refresh.Env{Repo: &d.Repository, Budget: 10, Rand: rand.New(rand.NewPCG(1, 1)), Params: param.Values{}}, 5)
	if err == nil {
		t.Fatal("built without the truth")
	}
}
