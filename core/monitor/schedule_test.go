package monitor

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/stat"
)

var schedulers = []struct {
	name string
	s    Scheduler
}{{"list", List{}}, {"alpha-point", AlphaPoint{}}}

func randTasks(rng *rand.Rand, n int, T float64) []Task {
	ts := make([]Task, n)
	for k := range ts {
		ts[k] = Task{Page: int32(rng.IntN(5)), Instant: int32(k), Release: T * (1 - rng.Float64()), Fetch: 0.01 + rng.Float64()*0.2*T}
		if rng.IntN(4) == 0 && k > 0 { // shared release times
			ts[k].Release = ts[k-1].Release
		}
	}
	return ts
}

// Every schedule starts no task before its release time or before its
// process is free, never overlaps two tasks on a process, starts every run
// by the horizon, accounts for every task once, leaves each process free
// after its last run, and loses a task only when no process could take it
// by the horizon.
func TestScheduleInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	for trial := range 400 {
		T := 1.0
		M := 1 + rng.IntN(4)
		tasks := randTasks(rng, rng.IntN(60), T)
		initial := make([]float64, M)
		for m := range initial {
			initial[m] = rng.Float64() * 0.3 * T
		}
		for _, sc := range schedulers {
			free := slices.Clone(initial)
			s := sc.s.Schedule(tasks, free, T, rng)
			if len(s.Runs)+len(s.Lost) != len(tasks) {
				t.Fatalf("%s, trial %d: %d runs and %d lost of %d tasks", sc.name, trial, len(s.Runs), len(s.Lost), len(tasks))
			}
			var all []Task
			for _, r := range s.Runs {
				all = append(all, r.Task)
			}
			all = append(all, s.Lost...)
			byInstant := func(a, b Task) int { return cmp.Compare(a.Instant, b.Instant) }
			slices.SortFunc(all, byInstant)
			want := slices.Clone(tasks)
			slices.SortFunc(want, byInstant)
			if !slices.Equal(all, want) {
				t.Fatalf("%s, trial %d: the runs and the lost are not the tasks", sc.name, trial)
			}
			end := slices.Clone(initial)
			perMonitor := make([][]Placed, M)
			for _, r := range s.Runs {
				switch {
				case r.Start < r.Release:
					t.Fatalf("%s, trial %d: task starts at %v before its release %v", sc.name, trial, r.Start, r.Release)
				case r.Start < initial[r.Monitor]:
					t.Fatalf("%s, trial %d: task starts at %v on process %d, busy until %v", sc.name, trial, r.Start, r.Monitor, initial[r.Monitor])
				case r.Start > T:
					t.Fatalf("%s, trial %d: task starts at %v after the horizon", sc.name, trial, r.Start)
				}
				perMonitor[r.Monitor] = append(perMonitor[r.Monitor], r)
				end[r.Monitor] = max(end[r.Monitor], r.Start+r.Fetch)
			}
			for m, rs := range perMonitor {
				slices.SortFunc(rs, func(a, b Placed) int { return cmp.Compare(a.Start, b.Start) })
				for k := 1; k < len(rs); k++ {
					if rs[k].Start < rs[k-1].Start+rs[k-1].Fetch {
						t.Fatalf("%s, trial %d: process %d runs two tasks at once: [%v, %v) and from %v", sc.name, trial, m, rs[k-1].Start, rs[k-1].Start+rs[k-1].Fetch, rs[k].Start)
					}
				}
			}
			if !slices.Equal(free, end) {
				t.Fatalf("%s, trial %d: processes free at %v, runs end at %v", sc.name, trial, free, end)
			}
			if len(s.Lost) > 0 && slices.Min(free) <= T {
				t.Fatalf("%s, trial %d: %d tasks lost while a process is free at %v ≤ %v", sc.name, trial, len(s.Lost), slices.Min(free), T)
			}
		}
	}
}

// List places tasks first come, first served; the α-point order lets a
// short task released during a long one go first. Two tasks on one process:
// A released at 0 taking 4, B at 1 taking 1. In SRPT B preempts A at 1, so
// with α = 1/2 the α-points are 3 (A) and 1.5 (B): B, then A.
func TestSchedulesByHand(t *testing.T) {
	tasks := []Task{{Page: 0, Release: 0, Fetch: 4}, {Page: 1, Instant: 1, Release: 1, Fetch: 1}}
	if ap := alphaPoints(tasks, 1, 0.5); ap[0] != 3 || ap[1] != 1.5 {
		t.Errorf("α-points at α = 1/2: %v, want [3 1.5]", ap)
	}
	if ap := alphaPoints(tasks, 1, 1); ap[0] != 5 || ap[1] != 2 {
		t.Errorf("SRPT completion times: %v, want [5 2]", ap)
	}
	if ap := alphaPoints(tasks, 2, 0); ap[0] != 0 || ap[1] != 1 {
		t.Errorf("α-points at α = 0 on a process twice as fast: %v, want the starts [0 1]", ap)
	}
	s := List{}.Schedule(tasks, []float64{0}, math.Inf(1), nil)
	if s.Runs[0].Start != 0 || s.Runs[1].Start != 4 {
		t.Errorf("list: %+v", s.Runs)
	}
	// B's α-point is 1 + α; A's 4α when α ≤ 1/4, else 1 + 4α: B goes
	// first when α > 1/4, which happens with probability
	// 1 − (e^{1/4} − 1)/(e − 1) ≈ 0.83.
	rng := rand.New(rand.NewPCG(1, 2))
	firsts := 0
	for range 100 {
		s = AlphaPoint{}.Schedule(tasks, []float64{0}, math.Inf(1), rng)
		first := s.Runs[0]
		switch {
		case first.Page == 1 && (first.Start != 1 || s.Runs[1].Start != 2):
			t.Fatalf("α-point, B first: %+v", s.Runs)
		case first.Page == 0 && (first.Start != 0 || s.Runs[1].Start != 4):
			t.Fatalf("α-point, A first: %+v", s.Runs)
		case first.Page == 1:
			firsts++
		}
	}
	if firsts < 65 || firsts == 100 {
		t.Errorf("B first in %d of 100 draws of α, want about 83", firsts)
	}
}

// completion returns Σ (start + fetch) over the runs.
func completion(s Schedule) float64 {
	var c float64
	for _, r := range s.Runs {
		c += r.Start + r.Fetch
	}
	return c
}

// bestOrder is the least total completion time of any order of the tasks
// on one process, each as early as its release and the process allow.
func bestOrder(tasks []Task) float64 {
	best := math.Inf(1)
	idx := make([]int, len(tasks))
	for k := range idx {
		idx[k] = k
	}
	var perm func(k int)
	perm = func(k int) {
		if k == len(idx) {
			order := make([]Task, len(idx))
			for i, j := range idx {
				order[i] = tasks[j]
			}
			best = min(best, completion(inOrder(order, []float64{0}, math.Inf(1))))
			return
		}
		for i := k; i < len(idx); i++ {
			idx[k], idx[i] = idx[i], idx[k]
			perm(k + 1)
			idx[k], idx[i] = idx[i], idx[k]
		}
	}
	perm(0)
	return best
}

// On one process the α-point schedule's expected total completion time is
// at most e/(e−1) ≈ 1.582 times SRPT's, the preemptive optimum (Chekuri et
// al.), which is at most the best order's: checked on small random task
// sets, the expectation over α estimated from 400 draws.
func TestAlphaPointBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	bound := math.E / (math.E - 1)
	for trial := range 60 {
		tasks := randTasks(rng, 1+rng.IntN(7), 1)
		var srpt float64
		for _, c := range alphaPoints(tasks, 1, 1) {
			srpt += c
		}
		opt := bestOrder(tasks)
		if srpt > opt+1e-12 {
			t.Fatalf("trial %d: SRPT's total completion %v exceeds the best order's %v", trial, srpt, opt)
		}
		xs := make([]float64, 400)
		for k := range xs {
			xs[k] = completion(AlphaPoint{}.Schedule(tasks, []float64{0}, math.Inf(1), rng))
			if xs[k] < opt-1e-12 {
				t.Fatalf("trial %d: α-point's %v beats the best order's %v", trial, xs[k], opt)
			}
		}
		s := stat.Summarize(xs)
		if se := s.SD / math.Sqrt(float64(s.N)); s.Mean > bound*srpt+4*se+1e-12 {
			t.Fatalf("trial %d: α-point's mean total completion %v ± %v exceeds e/(e−1) × SRPT's %v", trial, s.Mean, se, srpt)
		}
	}
}

// Runs at their release times credit what RIR counts; a delayed run
// credits less; a lost task nothing.
func TestScheduledRIR(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	for range 100 {
		in := randInstance(rng, 5, 20)
		a, err := CAM{}.Allocate(in, 40, nil)
		if err != nil {
			t.Fatal(err)
		}
		if math.IsNaN(RIR(in, a)) {
			continue
		}
		fetch := make([]float64, in.Pages())
		for i := range fetch {
			fetch[i] = 1e-9
		}
		tasks, err := Tasks(in, a, fetch)
		if err != nil {
			t.Fatal(err)
		}
		for k := 1; k < len(tasks); k++ {
			if tasks[k].Release < tasks[k-1].Release {
				t.Fatal("tasks not in order of release")
			}
		}
		for _, sc := range schedulers {
			s := sc.s.Schedule(tasks, make([]float64, 40), in.T, rng)
			if got, want := ScheduledRIR(in, s), RIR(in, a); math.Abs(got-want) > 1e-12 {
				t.Fatalf("%s on ample processes: scheduled RIR %v, RIR %v", sc.name, got, want)
			}
			for i := range fetch {
				fetch[i] = 0.02 + rng.Float64()*0.1
			}
			slow, _ := Tasks(in, a, fetch)
			s = sc.s.Schedule(slow, []float64{0}, in.T, rng)
			if got, want := ScheduledRIR(in, s), RIR(in, a); got > want+1e-12 {
				t.Fatalf("%s on one slow process: scheduled RIR %v above RIR %v", sc.name, got, want)
			}
		}
	}
	// One page, ρ 0.5 at both instants (λ = 1), monitored at the first:
	// run before the second instant it credits 0.5; at or after it, 0.5·0.5.
	in := &Instance{T: 2, Times: []float64{1, 2}, Weight: []float64{1}, Rho: [][]float64{{0.5, 0.5}}}
	task := Task{Page: 0, Instant: 0, Release: 1, Fetch: 0.1}
	for _, c := range []struct {
		start, want float64
	}{{1, 0.5}, {1.9, 0.5}, {2, 0.25}} {
		if got := ScheduledRIR(in, Schedule{Runs: []Placed{{Task: task, Start: c.start}}}); got != c.want {
			t.Errorf("run at %v: %v, want %v", c.start, got, c.want)
		}
	}
	if got := ScheduledRIR(in, Schedule{Lost: []Task{task}}); got != 0 {
		t.Errorf("lost: %v, want 0", got)
	}
}

func TestFetchTimes(t *testing.T) {
	sizes := []float64{1000, 5000, 24000}
	f, err := FetchTimes(sizes, 4, 120, 900)
	if err != nil {
		t.Fatal(err)
	}
	mean := (f[0] + f[1] + f[2]) / 3
	if got := 4 * 900 / mean; math.Abs(got-120) > 1e-9 {
		t.Errorf("M·T/mean fetch = %v, want the capacity 120", got)
	}
	if math.Abs(f[2]/f[0]-24) > 1e-12 {
		t.Errorf("fetch times %v not proportional to sizes", f)
	}
	for _, bad := range []struct {
		sizes    []float64
		m        int
		capacity float64
	}{{sizes, 0, 1}, {sizes, 1, 0}, {nil, 1, 1}, {[]float64{0}, 1, 1}, {[]float64{math.Inf(1)}, 1, 1}, {sizes, 1, math.NaN()}} {
		if _, err := FetchTimes(bad.sizes, bad.m, bad.capacity, 900); err == nil {
			t.Errorf("FetchTimes(%v, %d, %v) accepted", bad.sizes, bad.m, bad.capacity)
		}
	}
	in := &Instance{T: 1, Times: []float64{1}, Weight: []float64{1}, Rho: [][]float64{{1}}}
	if _, err := Tasks(in, Allocation{{0}}, []float64{0}); err == nil {
		t.Error("a zero fetch time accepted")
	}
}
