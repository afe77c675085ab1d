package monitor

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Task is one monitoring task of §4: page Page is to be fetched at its
// allocated instant, the task's release time rel_i, and the fetch keeps a
// monitoring process busy for Fetch (the page's processing time p_i).
type Task struct {
	Page, Instant int32
	Release       float64
	Fetch         float64
}

// Placed is a task as scheduled: started at Start ≥ Release on monitoring
// process Monitor, which it holds until Start + Fetch.
type Placed struct {
	Task
	Start   float64
	Monitor int32
}

// Delay returns Start − Release, the delay d_i of §4.
func (r Placed) Delay() float64 { return r.Start - r.Release }

// Schedule is the outcome of scheduling an epoch's tasks: the runs, in the
// order they were placed, and the tasks lost because no process could start
// them within the epoch.
type Schedule struct {
	Runs []Placed
	Lost []Task
}

// Scheduler places tasks on parallel monitoring processes (§4: each job on
// exactly one of M identical machines, release times, no preemption).
// free[m] is when process m is next free, relative to the epoch's start (0
// for an idle process; more when a fetch of the previous epoch runs over);
// Schedule advances it past the runs it places. A task is placed only if it
// can start by horizon (the epoch's end), else it is lost and holds no
// process. rng is for the schedulers that draw. Schedule only reads tasks,
// so the same tasks may be scheduled again.
type Scheduler interface {
	Schedule(tasks []Task, free []float64, horizon float64, rng *rand.Rand) Schedule
}

// Tasks lists the tasks of allocation a: one per monitored instant,
// released at the instant's time, taking fetch[i] for page i; ordered by
// release time, then page.
func Tasks(in *Instance, a Allocation, fetch []float64) ([]Task, error) {
	if len(fetch) != in.Pages() || len(a) != in.Pages() {
		return nil, fmt.Errorf("monitor: tasks: %d fetch times and %d allocations for %d pages", len(fetch), len(a), in.Pages())
	}
	for i, f := range fetch {
		if !(f > 0) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("monitor: tasks: page %d: fetch time %v: expected a finite positive number", i, f)
		}
	}
	ts := make([]Task, 0, a.Tasks())
	for i, js := range a {
		for _, j := range js {
			ts = append(ts, Task{Page: int32(i), Instant: j, Release: in.Times[j], Fetch: fetch[i]})
		}
	}
	slices.SortFunc(ts, func(x, y Task) int {
		if c := cmp.Compare(x.Release, y.Release); c != 0 {
			return c
		}
		return cmp.Compare(x.Page, y.Page)
	})
	return ts, nil
}

// FetchTimes turns document sizes into fetch times for M monitoring
// processes that, between them, can fetch capacity documents of the mean
// size in an epoch of length T: §5.6's "average monitoring capacity", the
// available bandwidth divided by the average document size. Each process
// then fetches at capacity·mean(size)/(M·T) bytes per unit of time, and
// page i takes size_i·M·T / (capacity·mean(size)).
func FetchTimes(sizes []float64, monitors int, capacity, T float64) ([]float64, error) {
	if monitors < 1 || !(capacity > 0) || !(T > 0) || math.IsInf(capacity, 0) || math.IsInf(T, 0) {
		return nil, fmt.Errorf("monitor: fetch times for %d processes, capacity %v, epoch %v: expected at least one process and finite positive numbers", monitors, capacity, T)
	}
	if len(sizes) == 0 {
		return nil, errors.New("monitor: fetch times: no sizes")
	}
	var sum float64
	for i, s := range sizes {
		if !(s > 0) || math.IsInf(s, 0) {
			return nil, fmt.Errorf("monitor: fetch times: page %d: size %v: expected a finite positive number", i, s)
		}
		sum += s
	}
	per := float64(monitors) * T / (capacity * (sum / float64(len(sizes))))
	out := make([]float64, len(sizes))
	for i, s := range sizes {
		out[i] = s * per
	}
	return out, nil
}

// List is plain list scheduling: the tasks in order of release time (ties
// to the lower page, then instant), each started on the process that is
// free first (ties to the lower process) as soon as it is released and
// that process is free. No process idles while a released task waits.
type List struct{}

// Schedule implements Scheduler.
func (List) Schedule(tasks []Task, free []float64, horizon float64, _ *rand.Rand) Schedule {
	order := slices.Clone(tasks)
	slices.SortStableFunc(order, func(x, y Task) int {
		if c := cmp.Compare(x.Release, y.Release); c != 0 {
			return c
		}
		if c := cmp.Compare(x.Page, y.Page); c != 0 {
			return c
		}
		return cmp.Compare(x.Instant, y.Instant)
	})
	return inOrder(order, free, horizon)
}

// inOrder places tasks in the order given, each on the process free first
// (ties to the lower process), at max(release, free); a task that would
// start after horizon is lost.
func inOrder(order []Task, free []float64, horizon float64) Schedule {
	s := Schedule{Runs: make([]Placed, 0, len(order))}
	for _, t := range order {
		m := 0
		for k := range free {
			if free[k] < free[m] {
				m = k
			}
		}
		start := max(t.Release, free[m])
		if start > horizon {
			s.Lost = append(s.Lost, t)
			continue
		}
		s.Runs = append(s.Runs, Placed{Task: t, Start: start, Monitor: int32(m)})
		free[m] = start + t.Fetch
	}
	return s
}

// AlphaPoint is the scheduler §4 used as its heuristic: the
// (e/(e−1) ≈ 1.58)-approximation for total completion time with release
// dates. The paper attributes it to its reference [11] (Lenstra, Rinnooy
// Kan & Brucker), which proves the problem NP-complete; the 1.58 algorithm
// is Chekuri, Motwani, Natarajan & Stein's (SODA 1997), and this is it:
//
//  1. Solve the preemptive relaxation: shortest remaining processing time
//     first (SRPT), optimal for total completion time with preemption, on
//     one process M times as fast as each of the M (their relaxation for
//     parallel machines);
//  2. draw one α ∈ (0, 1] with density e^α/(e − 1) and note each task's
//     α-point, the time by which an α share of it has been processed;
//  3. run the tasks without preemption in order of α-points (ties to the
//     earlier release, then the lower page and instant), each on the
//     process free first as soon as it is released and free.
//
// On one process the expected total completion time is at most e/(e−1)
// times the preemptive optimum; on M processes the conversion carries no
// such guarantee and, as in the paper, it is a heuristic. §4 notes that a
// good total completion time is not a good total delay, which is what
// loses information; List is the plain alternative.
type AlphaPoint struct{}

// Schedule implements Scheduler.
func (AlphaPoint) Schedule(tasks []Task, free []float64, horizon float64, rng *rand.Rand) Schedule {
	// α = ln(1 + U·(e−1)) has density e^α/(e−1) on [0, 1].
	alpha := math.Log1p(rng.Float64() * (math.E - 1))
	ap := alphaPoints(tasks, float64(len(free)), alpha)
	idx := make([]int, len(tasks))
	for k := range idx {
		idx[k] = k
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if c := cmp.Compare(ap[a], ap[b]); c != 0 {
			return c
		}
		x, y := tasks[a], tasks[b]
		if c := cmp.Compare(x.Release, y.Release); c != 0 {
			return c
		}
		if c := cmp.Compare(x.Page, y.Page); c != 0 {
			return c
		}
		return cmp.Compare(x.Instant, y.Instant)
	})
	order := make([]Task, len(tasks))
	for k, i := range idx {
		order[k] = tasks[i]
	}
	return inOrder(order, free, horizon)
}

// alphaPoints returns each task's α-point in the preemptive SRPT schedule
// on one process of the given speed: the first time by which α·Fetch of it
// has been processed (its start when α is 0).
func alphaPoints(tasks []Task, speed, alpha float64) []float64 {
	n := len(tasks)
	ap := make([]float64, n)
	rem := make([]float64, n)
	byRelease := make([]int, n)
	for k := range tasks {
		rem[k] = tasks[k].Fetch
		byRelease[k] = k
		ap[k] = math.NaN()
	}
	slices.SortStableFunc(byRelease, func(a, b int) int { return cmp.Compare(tasks[a].Release, tasks[b].Release) })
	// A min-heap of released, unfinished tasks by remaining work (ties to
	// the lower index).
	before := func(a, b int32) bool { return rem[a] < rem[b] || rem[a] == rem[b] && a < b }
	h := make([]int32, 0, n)
	push := func(k int32) {
		h = append(h, k)
		for c := len(h) - 1; c > 0; {
			p := (c - 1) / 2
			if !before(h[c], h[p]) {
				break
			}
			h[c], h[p] = h[p], h[c]
			c = p
		}
	}
	t := 0.0
	next := 0
	for done := 0; done < n; {
		if len(h) == 0 {
			t = max(t, tasks[byRelease[next]].Release)
		}
		for next < n && tasks[byRelease[next]].Release <= t {
			push(int32(byRelease[next]))
			next++
		}
		k := h[0]
		// Run k until it finishes or the next release, whichever is first.
		until := t + rem[k]/speed
		if next < n {
			until = min(until, tasks[byRelease[next]].Release)
		}
		f := tasks[k].Fetch
		doneBefore := f - rem[k]
		doneAfter := doneBefore + (until-t)*speed
		if math.IsNaN(ap[k]) && doneAfter >= alpha*f {
			ap[k] = t + max(alpha*f-doneBefore, 0)/speed
		}
		if until == t+rem[k]/speed {
			rem[k] = 0
			done++
			h[0] = h[len(h)-1]
			h = h[:len(h)-1]
		} else {
			rem[k] = f - doneAfter
		}
		siftDown(h, 0, before)
		t = until
	}
	return ap
}

// ScheduledRIR is RIR for the tasks as they ran: each run credits the
// change at its allocated instant j when that change is still the page's
// latest at the run's start, with probability ρ_{i,j}·Π (1 − ρ_{i,l}) over
// the instants l in (u_j, start]; a lost task credits nothing. With every
// run at its release time it equals RIR of the allocation, so RIR minus
// this is the information lost in scheduling, beside 1 − RIR lost in
// allocation (§5.6, Fig. 16).
func ScheduledRIR(in *Instance, s Schedule) float64 {
	return ratio(scheduledInformation(in, s), TotalInformation(in))
}

// scheduledInformation is ScheduledRIR's numerator: the expected weighted
// changes the runs of s return.
func scheduledInformation(in *Instance, s Schedule) float64 {
	var got float64
	for _, r := range s.Runs {
		row := in.Rho[r.Page]
		c := row[r.Instant]
		for l := int(r.Instant) + 1; l < len(in.Times) && in.Times[l] <= r.Start; l++ {
			c *= 1 - row[l]
		}
		got += in.Weight[r.Page] * c
	}
	return got
}

// Monitors returns each page's monitoring times in schedule s, ascending:
// the start times of its runs.
func (s Schedule) Monitors(pages int) [][]float64 {
	out := make([][]float64, pages)
	for _, r := range s.Runs {
		out[r.Page] = append(out[r.Page], r.Start)
	}
	for _, ms := range out {
		slices.Sort(ms)
	}
	return out
}

// SchedulerDescriptor names a scheduler and documents it, for a catalog.
type SchedulerDescriptor struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Paper     string    `json:"paper"`
	Summary   string    `json:"summary"`
	Scheduler Scheduler `json:"-"`
}

// Schedulers lists the schedulers of §4: the paper's heuristic, then plain
// list scheduling.
func Schedulers() []SchedulerDescriptor {
	return []SchedulerDescriptor{
		{ID: SchedulerAlphaPoint, Name: "α-point (1.58-approximation)", Paper: pandey + ", §4 (after Chekuri, Motwani, Natarajan & Stein 1997)", Scheduler: AlphaPoint{},
			Summary: "Orders the tasks by when a random share of each is done in the preemptive shortest-remaining-time schedule, then runs them without preemption on the process free first."},
		{ID: SchedulerList, Name: "List scheduling", Paper: pandey + ", §4", Scheduler: List{},
			Summary: "Runs the tasks in order of release on the process free first, as soon as each is released and a process is free."},
	}
}
