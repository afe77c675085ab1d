package monitor

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// Source supplies the changes of each epoch: coins tossed from the true ρ
// (Coins), or a recorded log (Recorded).
type Source interface {
	// Epochs returns how many epochs the source holds (math.MaxInt when it
	// makes them up).
	Epochs() int
	// Changes sets out[i] to the instants at which page i changes in epoch
	// e, ascending, reusing out[i]'s storage; a source that draws them
	// draws from rng.
	Changes(e int, rng *rand.Rand, out [][]int32)
	// Since returns when tracking of page i began, in epochs from the start
	// of epoch 0 (0 when tracked from the start): what a monitor sees of
	// the page over a span that began before it is no observation.
	Since(i int) float64
}

// Coins is the change process of §5.1: at each instant j, page i changes
// with probability Coins[i][j], "by tossing a coin with bias ρ_{i,j}",
// independently of every other page, instant and epoch.
type Coins [][]float64

// Epochs implements Source: coins never run out.
func (Coins) Epochs() int { return math.MaxInt }

// Changes implements Source: one draw of rng per instant with ρ > 0, page
// by page in order, instants in order.
func (c Coins) Changes(_ int, rng *rand.Rand, out [][]int32) {
	for i, row := range c {
		js := out[i][:0]
		for j, r := range row {
			if r > 0 && rng.Float64() < r {
				js = append(js, int32(j))
			}
		}
		out[i] = js
	}
}

// Since implements Source: every page is tracked from the start.
func (Coins) Since(int) float64 { return 0 }

// Recorded is a source of recorded changes: Changed[e][i] lists, ascending,
// the instants at which page i changed in epoch e; Tracked[i], when not
// nil, is when tracking of page i began, in epochs (see Source.Since).
type Recorded struct {
	Changed [][][]int32
	Tracked []float64
}

// Epochs implements Source.
func (r *Recorded) Epochs() int { return len(r.Changed) }

// Changes implements Source.
func (r *Recorded) Changes(e int, _ *rand.Rand, out [][]int32) {
	for i := range out {
		out[i] = append(out[i][:0], r.Changed[e][i]...)
	}
}

// Since implements Source.
func (r *Recorded) Since(i int) float64 {
	if r.Tracked == nil {
		return 0
	}
	return r.Tracked[i]
}

// Config is a monitoring run: a tracking phase, then epochs monitored under
// an allocation policy, re-allocated from what the monitors saw (§5.5).
type Config struct {
	Policy Policy
	// Budget is C, the monitoring tasks of an epoch.
	Budget int
	// Tracking is the number of epochs of the tracking phase (§2), in which
	// every instant of every page is monitored and nothing is allocated;
	// it gives the first estimates of ρ. Its epochs are not reported.
	Tracking int
	// Known, when not nil, is the ρ an instant is estimated at before any
	// monitor has observed it; with no tracking phase the first plan is
	// made from it. Giving the truth is the setting of §5.2–5.4, where the
	// policies know ρ; nil means 0.
	Known [][]float64
	// Epochs is the number of monitored epochs after the tracking phase.
	Epochs int
	// Reallocate re-estimates ρ and re-allocates every Reallocate epochs
	// (Figs. 13–14: 1 after every epoch); 0 keeps the first plan.
	Reallocate int
	// Window is how many of its latest observations each instant's
	// estimate keeps (§5.5: "five times in the last 10 monitoring
	// instants" gives 0.5); 0 keeps them all. At most 64.
	Window int
	// ChangeTimes says what a monitor learns of its page. False: whether
	// the page changed since its previous monitoring, all a monitor that
	// compares contents can tell; the outcome is recorded for the task's
	// instant, so after a span without monitors that instant's estimate is
	// biased up. True: whether the page changed at the task's own instant,
	// as a monitor that reads the time of the last change (a Last-Modified
	// header, a dated entry) can tell; every estimate is then the share of
	// the instant's own outcomes. §5.5 re-estimates "those update instants
	// which get monitored" from their outcomes and does not say which.
	ChangeTimes bool
	// Reestimate is how the observations give ρ: ReestimateInstant (or
	// ""), each instant from its own, or ReestimatePage, each page from its
	// latest across its instants (see ReestimatePage); Window counts the
	// instant's or the page's observations accordingly.
	Reestimate string
	// Scheduler, when not nil, places each epoch's tasks on Monitors
	// processes, fetching page i taking Fetch[i] (§4); tasks run late or
	// are lost. When nil every task runs at its instant.
	Scheduler Scheduler
	Monitors  int
	Fetch     []float64
}

// EpochResult is what one monitored epoch returned.
type EpochResult struct {
	// Tasks is the tasks allocated; Run those that ran (all of them
	// without a scheduler).
	Tasks, Run int
	// Reallocated says the allocation was made (or remade) before it.
	Reallocated bool
	// Changes is Σ W_i over the changes that happened in the epoch;
	// Returned over those a monitor returned, at the epoch's monitors or
	// the next epoch's, before the page changed again (the complete-loss
	// rule of §3.1); Hits over the changes at an allocated instant that
	// its task saw as the page's latest change (the event RIR counts).
	Changes, Returned, Hits float64
	// The same, counting changes rather than weighing them.
	ChangeCount, ReturnedCount, HitCount int
	// Under the true ρ, when the instance has it (else NaN): Total is
	// Σ_i W_i λ_i; RIR the expected RIR of the epoch's allocation (§5.1);
	// ScheduledRIR that of its tasks as they ran (ScheduledRIR; RIR when
	// they all ran on time); CompleteLossRIR the expected share returned
	// by its monitoring times (CompleteLossRIR).
	Total, RIR, ScheduledRIR, CompleteLossRIR float64
}

// RealisedRIR returns Returned/Changes: the share of the epoch's
// information change that monitors returned (NaN when nothing changed).
func (r EpochResult) RealisedRIR() float64 { return ratio(r.Returned, r.Changes) }

// HitRIR returns Hits/Changes: the realised counterpart of RIR.
func (r EpochResult) HitRIR() float64 { return ratio(r.Hits, r.Changes) }

// Result is a run's outcome.
type Result struct {
	// Epochs are the monitored epochs, in order.
	Epochs []EpochResult
	// Estimate is the ρ the last plan was made from; Allocation that plan.
	Estimate   [][]float64
	Allocation Allocation
}

// probe is one monitoring of a page in an epoch: at time t, for the task
// allocated to instant j (in the tracking phase, every instant's own).
type probe struct {
	t float64
	j int32
}

// Simulate runs cfg on the pages of in (weights, instants; in.Rho, when
// not nil, is the truth the expected metrics use) with the changes of src.
// Changes are drawn from changes; the policies' and schedulers' draws from
// decisions, so that two runs with the same changes stream see the same
// changes whatever they decide (common random numbers).
//
// Each epoch: the plan is made (the first monitored epoch, and every
// Reallocate epochs) from the estimates of ρ; the tasks are scheduled or
// run at their instants; the changes are played against the monitoring
// times in time order (a monitor at an instant's time follows the update
// there). A monitor observes whether the page changed since its previous
// monitoring, all a real monitor can tell, and that outcome is recorded
// for the instant of its task: so after a span without monitors the
// estimate of the next monitored instant is biased up, as the paper's is.
// The run simulates one epoch beyond the last, with the same plan, only to
// settle the last epoch's changes, so every epoch's Returned has the same
// expectation.
func Simulate(in *Instance, src Source, cfg Config, changes, decisions *rand.Rand) (*Result, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	n, p := in.Pages(), in.Instants()
	switch {
	case cfg.Policy == nil:
		return nil, errors.New("monitor: simulate: no policy")
	case cfg.Tracking < 0 || cfg.Epochs < 1 || cfg.Reallocate < 0 || cfg.Budget < 0:
		return nil, fmt.Errorf("monitor: simulate: tracking %d, epochs %d, reallocate %d, budget %d: expected epochs ≥ 1 and the others ≥ 0", cfg.Tracking, cfg.Epochs, cfg.Reallocate, cfg.Budget)
	case checkReestimate(cfg.Reestimate) != nil:
		return nil, checkReestimate(cfg.Reestimate)
	case cfg.Window < 0 || cfg.Window > 64:
		return nil, fmt.Errorf("monitor: simulate: window %d: expected 0 (all) to 64 observations", cfg.Window)
	case cfg.Tracking == 0 && cfg.Known == nil:
		return nil, errors.New("monitor: simulate: no tracking phase and no known update probabilities to make the first plan from")
	case cfg.Known != nil && len(cfg.Known) != n:
		return nil, fmt.Errorf("monitor: simulate: %d rows of known update probabilities for %d pages", len(cfg.Known), n)
	case src.Epochs() < cfg.Tracking+cfg.Epochs:
		return nil, fmt.Errorf("monitor: simulate: %d tracking and %d monitored epochs, but the source has %d", cfg.Tracking, cfg.Epochs, src.Epochs())
	}
	if cfg.Scheduler != nil && (cfg.Monitors < 1 || len(cfg.Fetch) != n) {
		return nil, fmt.Errorf("monitor: simulate: a scheduler needs at least one process (have %d) and a fetch time per page (have %d for %d pages)", cfg.Monitors, len(cfg.Fetch), n)
	}
	for i, row := range cfg.Known {
		if len(row) != p {
			return nil, fmt.Errorf("monitor: simulate: page %d: %d known update probabilities for %d instants", i, len(row), p)
		}
	}
	truth := in.Rho != nil
	var total float64
	if truth {
		total = TotalInformation(in)
	}

	est := newEstimator(n, p, cfg.Window, cfg.Known)
	if cfg.Reestimate == ReestimatePage {
		est.page = newPageEstimator(n, cfg.Window, in.Times, in.T)
	}
	plan := &Instance{T: in.T, Times: in.Times, Weight: in.Weight, Rho: make([][]float64, n)}
	for i := range plan.Rho {
		plan.Rho[i] = make([]float64, p)
	}
	res := &Result{Epochs: make([]EpochResult, cfg.Epochs)}
	ch := make([][]int32, n)
	probes := make([][]probe, n)
	free := make([]float64, cfg.Monitors)
	pending := make([]int, n) // epoch of the page's unreturned change, -1 when none
	for i := range pending {
		pending[i] = -1
	}
	seen := make([]bool, n)    // changed since its last monitoring
	prev := make([]float64, n) // time of its last monitoring, in epochs
	var alloc Allocation

	last := cfg.Tracking + cfg.Epochs
	if src.Epochs() > last {
		last++ // the settling epoch
	}
	for e := 0; e < last; e++ {
		m := e - cfg.Tracking // monitored epoch index
		settle := m == cfg.Epochs
		var r *EpochResult
		if m >= 0 && !settle {
			r = &res.Epochs[m]
		}
		for i := range probes {
			probes[i] = probes[i][:0]
		}
		if m < 0 {
			for i := range probes {
				for j, u := range in.Times {
					probes[i] = append(probes[i], probe{u, int32(j)})
				}
			}
		} else {
			if m == 0 || !settle && cfg.Reallocate > 0 && m%cfg.Reallocate == 0 {
				est.fill(plan.Rho)
				var err error
				if alloc, err = cfg.Policy.Allocate(plan, cfg.Budget, decisions); err != nil {
					return nil, err
				}
				if r != nil {
					r.Reallocated = true
				}
			}
			ran := alloc.Tasks()
			if cfg.Scheduler != nil {
				tasks, err := Tasks(in, alloc, cfg.Fetch)
				if err != nil {
					return nil, err
				}
				s := cfg.Scheduler.Schedule(tasks, free, in.T, decisions)
				for k := range free {
					free[k] = max(free[k]-in.T, 0)
				}
				for _, run := range s.Runs {
					probes[run.Page] = append(probes[run.Page], probe{run.Start, run.Instant})
				}
				for i := range probes {
					slices.SortFunc(probes[i], func(a, b probe) int {
						switch {
						case a.t < b.t:
							return -1
						case a.t > b.t:
							return 1
						}
						return int(a.j - b.j)
					})
				}
				ran = len(s.Runs)
				if r != nil && truth {
					r.ScheduledRIR = ScheduledRIR(in, s)
				}
			} else {
				for i, js := range alloc {
					for _, j := range js {
						probes[i] = append(probes[i], probe{in.Times[j], j})
					}
				}
				if r != nil && truth {
					r.ScheduledRIR = RIR(in, alloc)
				}
			}
			if r != nil {
				r.Tasks, r.Run = alloc.Tasks(), ran
				r.Total, r.RIR, r.CompleteLossRIR = math.NaN(), math.NaN(), math.NaN()
				if !truth {
					r.ScheduledRIR = math.NaN()
				}
			}
		}
		if r != nil && truth {
			r.Total = total
			r.RIR = RIR(in, alloc)
			times := make([][]float64, n)
			for i, ps := range probes {
				times[i] = make([]float64, len(ps))
				for k, pr := range ps {
					times[i][k] = pr.t
				}
			}
			var err error
			if r.CompleteLossRIR, err = CompleteLossRIR(in, times); err != nil {
				return nil, err
			}
		}

		src.Changes(e, changes, ch)
		for i := range n {
			w := in.Weight[i]
			since := src.Since(i)
			latest := int32(-1)
			cs, ps := ch[i], probes[i]
			for a, b := 0, 0; a < len(cs) || b < len(ps); {
				if a < len(cs) && (b == len(ps) || in.Times[cs[a]] <= ps[b].t) {
					// A change: it overwrites an unreturned one.
					if r != nil {
						r.Changes += w
						r.ChangeCount++
					}
					pending[i], latest, seen[i] = e, cs[a], true
					a++
					continue
				}
				pr := ps[b]
				b++
				if pending[i] >= cfg.Tracking && pending[i]-cfg.Tracking < cfg.Epochs {
					q := &res.Epochs[pending[i]-cfg.Tracking]
					q.Returned += w
					q.ReturnedCount++
				}
				pending[i] = -1
				if r != nil && latest == pr.j {
					r.Hits += w
					r.HitCount++
				}
				if !settle && prev[i] >= since {
					changed := seen[i]
					if cfg.ChangeTimes {
						_, changed = slices.BinarySearch(cs[:a], pr.j)
					}
					est.observe(i, int(pr.j), changed)
					if est.page != nil {
						est.page.observe(i, int(pr.j), changed, !cfg.ChangeTimes, prev[i], float64(e)+pr.t/in.T)
					}
				}
				seen[i], prev[i] = false, float64(e)+pr.t/in.T
			}
		}
	}
	res.Estimate = plan.Rho
	res.Allocation = alloc
	return res, nil
}

// estimator keeps, for each instant of each page, its latest observations
// (did the page change since its previous monitoring?) and estimates ρ as
// their share (§5.5), or the prior where there are none; with page set it
// estimates per page instead (ReestimatePage).
type estimator struct {
	p, window int
	prior     [][]float64
	page      *pageEstimator
	// With a window: the last observations, newest in bit 0, and how many
	// (at most window). Without: counts of observations and of changes.
	bits []uint64
	n    []uint8
	obs  []int32
	hits []int32
}

func newEstimator(pages, p, window int, prior [][]float64) *estimator {
	e := &estimator{p: p, window: window, prior: prior}
	if window > 0 {
		e.bits = make([]uint64, pages*p)
		e.n = make([]uint8, pages*p)
	} else {
		e.obs = make([]int32, pages*p)
		e.hits = make([]int32, pages*p)
	}
	return e
}

func (e *estimator) observe(i, j int, changed bool) {
	k := i*e.p + j
	var b uint64
	if changed {
		b = 1
	}
	if e.window > 0 {
		e.bits[k] = e.bits[k]<<1 | b
		e.n[k] = min(e.n[k]+1, uint8(e.window))
		return
	}
	e.obs[k]++
	e.hits[k] += int32(b)
}

// fill writes the estimates into rho.
func (e *estimator) fill(rho [][]float64) {
	if e.page != nil {
		e.page.fill(e, rho)
		return
	}
	e.fillInstant(rho)
}

// fillInstant writes the per-instant estimates into rho.
func (e *estimator) fillInstant(rho [][]float64) {
	for i, row := range rho {
		for j := range row {
			k := i*e.p + j
			var c, n int
			if e.window > 0 {
				n = int(e.n[k])
				c = bits.OnesCount64(e.bits[k] & (1<<n - 1))
			} else {
				n, c = int(e.obs[k]), int(e.hits[k])
			}
			switch {
			case n > 0:
				row[j] = float64(c) / float64(n)
			case e.prior != nil:
				row[j] = e.prior[i][j]
			default:
				row[j] = 0
			}
		}
	}
}
