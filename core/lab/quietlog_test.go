package lab_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
)

// leavesPagesAlone lists the refresh policies whose nature is to leave some
// pages never refreshed, why, and what their catalog Summary (which the
// site shows beside the policy) must say for a learner to know it. Every
// other policy must refresh every page.
var leavesPagesAlone = map[string]struct {
	why  string
	says string // in the Summary, case aside
	// quiet: the pages it never downloads are pages that never change, so
	// leaving them costs no freshness.
	quiet bool
}{
	"oracle": {
		why:  "it reads the truth and downloads only stale pages: a page that never changes is never downloaded",
		says: "only pages that changed", quiet: true,
	},
	"rate-schedule-oracle": {
		why: "Cho & Garcia-Molina's optimal allocation gives a page of rate 0 no syncs (and gives up pages that change too fast for the budget): " +
			"from the true rates, a page that never changes is never downloaded",
		says: "never", quiet: true,
	},
	"rate-schedule": {
		why: "the same allocation on rates estimated from its own downloads: a page whose downloads all found it unchanged is estimated at 0 " +
			"and gets no syncs, so it is downloaded again only from budget the plan leaves over",
		says: "never",
	},
}

// quietRun is what a policy did over a log, per repeat.
type quietRun struct {
	freshness []float64 // mean over the cycles
	never     []int     // pages never downloaded
	lateNever []int     // pages not downloaded in the second half of the log
	changed   []int     // pages never downloaded that changed in the log
}

func (q *quietRun) mean() (m, se float64) {
	n := float64(len(q.freshness))
	for _, x := range q.freshness {
		m += x
	}
	m /= n
	var ss float64
	for _, x := range q.freshness {
		ss += (x - m) * (x - m)
	}
	return m, math.Sqrt(ss / (n - 1) / n)
}

// runQuiet plays policy desc with its default parameters over all of d's
// cycles, repeats times, each repeat with the lab's random stream for it
// (lab.Stream), and counts each page's downloads.
func runQuiet(t *testing.T, d *dataset.Dataset, desc refresh.Descriptor, budget, repeats int) *quietRun {
	t.Helper()
	n, cycles := len(d.Pages), d.Truth.Cycles()
	changes := make([]bool, n)
	for _, ch := range d.Truth.Changed {
		for _, p := range ch {
			changes[p] = true
		}
	}
	sim := refresh.NewSim(d)
	sim.Downloads = make([]int32, n)
	half := make([]int32, n)
	sim.After = func(c int) {
		if c == cycles/2-1 {
			copy(half, sim.Downloads)
		}
	}
	q := &quietRun{}
	for r := range repeats {
		sim.Reset()
		clear(sim.Downloads)
		vals, err := param.Check(desc.Params, nil)
		if err != nil {
			t.Fatal(err)
		}
		env := refresh.Env{Repo: &d.Repository, Budget: budget, Cycles: cycles, CycleDays: d.Info.CycleLength / 86400,
			Rand: lab.Stream(1, desc.ID, r), Params: vals} // no Memo: each repeat derives what it needs afresh
		if desc.Oracle {
			env.Truth = sim
		}
		p, err := desc.New(env)
		if err != nil {
			t.Fatalf("%s: %v", desc.ID, err)
		}
		var fr float64
		for _, cy := range sim.Run(p, budget, cycles, nil) {
			fr += cy.Freshness
		}
		q.freshness = append(q.freshness, fr/float64(cycles))
		var never, late, changed int
		for i, x := range sim.Downloads {
			if x == 0 {
				never++
				if changes[i] {
					changed++
				}
			}
			if x == half[i] {
				late++
			}
		}
		q.never, q.lateNever, q.changed = append(q.never, never), append(q.lateNever, late), append(q.changed, changed)
	}
	return q
}

// TestQuietLogEveryPageRefreshed plays every refresh policy of the catalog,
// with its default parameters, on the real Open Terms Archive change logs
// kept beside the project in ../shared/data (the test skips, saying so,
// where they are absent): terms-of-service pages read in 12-hour cycles,
// years of them, most pages quiet for months at a time (pga: 133 pages,
// about 3,000 cycles, a change in under 1% of page-cycles). The budget is
// a fifth of the pages a cycle, 10 repeats. A policy that leaves a page
// alone for the whole log, or refreshes some pages so seldom that its
// freshness falls more than 0.03 below random downloads' (by more than 4
// standard errors of the difference), starves pages. Only the policies of
// leavesPagesAlone may, and each must say so in its catalog Summary; the
// oracles' unvisited pages must be pages that never change.
//
// Each policy is a subtest of its log's, so a failure reads
// TestQuietLogEveryPageRefreshed/<log>/<policy id>.
func TestQuietLogEveryPageRefreshed(t *testing.T) {
	if testing.Short() {
		t.Skip("plays every refresh policy 10 times over two logs of thousands of cycles")
	}
	dir := filepath.Join("..", "..", "..", "shared", "data")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("skipped: the real Open Terms Archive change logs are not here (no folder %s beside the project)", dir)
	}
	const repeats = 10
	for _, name := range []string{"ota-pga-versions", "ota-dating-versions"} {
		t.Run(name, func(t *testing.T) {
			f, err := os.ReadFile(filepath.Join(dir, name, "events.csv"))
			if err != nil {
				t.Fatal(err)
			}
			d, _, err := dataset.ReadEventLog(bytes.NewReader(f), dataset.EventLogOptions{Name: name, CycleLength: 12 * 3600})
			if err != nil {
				t.Fatal(err)
			}
			budget := len(d.Pages) / 5
			random := runQuiet(t, d, descriptor(t, "random"), budget, repeats)
			rm, rse := random.mean()
			t.Logf("%d pages, %d cycles, %d downloads a cycle; random: freshness %.4f ± %.4f", len(d.Pages), d.Truth.Cycles(), budget, rm, rse)
			for _, desc := range lab.Policies() {
				if desc.Kind != lab.KindRefresh {
					continue
				}
				t.Run(desc.ID, func(t *testing.T) {
					q := runQuiet(t, d, desc, budget, repeats)
					m, se := q.mean()
					t.Logf("freshness %.4f ± %.4f (random %.4f); pages never downloaded %v, of which changed %v; not downloaded in the second half %v",
						m, se, rm, q.never, q.changed, q.lateNever)
					if alone, ok := leavesPagesAlone[desc.ID]; ok {
						if !strings.Contains(strings.ToLower(desc.Summary), alone.says) {
							t.Errorf("%s may leave pages never refreshed (%s), but its catalog Summary does not say so (want it to say %q): %q",
								desc.ID, alone.why, alone.says, desc.Summary)
						}
						for r, c := range q.changed {
							if alone.quiet && c > 0 {
								t.Errorf("repeat %d: %s never downloaded %d pages that changed", r, desc.ID, c)
							}
						}
						return
					}
					for r, never := range q.never {
						if never > 0 {
							t.Errorf("repeat %d: %s never downloaded %d of %d pages (%d of them changed)", r, desc.ID, never, len(d.Pages), q.changed[r])
						}
					}
					if d, s := rm-m, math.Hypot(se, rse); d > 0.03+4*s {
						t.Errorf("%s: freshness %.4f is %.4f below random's %.4f, more than 0.03 + 4 SE (%.4f): it refreshes some pages far too seldom "+
							"(%.1f pages on average not downloaded in the second half of the log)", desc.ID, m, d, rm, 0.03+4*s, meanInt(q.lateNever))
					}
				})
			}
		})
	}
}

// descriptor returns the catalog's policy id.
func descriptor(t *testing.T, id string) refresh.Descriptor {
	t.Helper()
	for _, d := range lab.Policies() {
		if d.ID == id {
			return d
		}
	}
	t.Fatalf("no policy %q in the catalog", id)
	return refresh.Descriptor{}
}

func meanInt(xs []int) float64 {
	var s float64
	for _, x := range xs {
		s += float64(x)
	}
	return s / float64(len(xs))
}
