package monitor_test

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/monitor"
	"github.com/refreshlab/refreshlab/core/synth"
)

// pandeyCAM is the bundled generator's instance, drawn once.
func pandeyCAM(t testing.TB, c synth.PandeyCAMConfig) *synth.PandeyCAMModel {
	t.Helper()
	m, err := synth.PandeyCAMWith(1, c)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The run the issue asks of the monitor kind: on pandey-cam with 5000
// tasks, CAM returns more than weighted proportional, which returns more
// than weighted uniform, each interval clear of the next.
func TestRunOrdersThePolicies(t *testing.T) {
	m := pandeyCAM(t, synth.PandeyCAMDefault)
	rep, err := monitor.Run(monitor.Data{Instance: &m.Instance, Sizes: m.Size},
		monitor.Experiment{Policies: []string{"cam", "weighted-proportional", "weighted-uniform"}, Budget: 5000, Repeats: 20, Epochs: 1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var prev float64 = math.Inf(1)
	for _, p := range rep.Policies {
		s := p.Metrics[monitor.MetricRIR]
		if s.N != 20 || !(s.Mean > 0 && s.Mean <= 1) {
			t.Fatalf("%s: RIR %+v", p.ID, s)
		}
		if !(s.Hi < prev) {
			t.Errorf("%s: RIR %v [%v, %v] not below the previous policy's lower bound %v", p.ID, s.Mean, s.Lo, s.Hi, prev)
		}
		prev = s.Lo
		if got := p.Metrics[monitor.MetricMonitoringChange].Mean; math.Abs(got-5000/rep.ExpectedChanges) > 1e-9 {
			t.Errorf("%s: monitoring-to-change ratio %v, want %v", p.ID, got, 5000/rep.ExpectedChanges)
		}
		t.Logf("%s: RIR %.4f [%.4f, %.4f], realised %.4f, expected returned %.4f", p.ID, s.Mean, s.Lo, s.Hi,
			p.Metrics[monitor.MetricRealisedRIR].Mean, p.Metrics[monitor.MetricExpectedReturned].Mean)
	}
}

// Run is Simulate repeated: its first repeat's numbers are one Simulate
// call's on streams 0 and 1 of the seed, and a replayed log (no truth)
// gives realised metrics and NaN for the expected ones.
func TestRunIsSimulateRepeated(t *testing.T) {
	c := synth.PandeyCAMDefault
	c.Pages, c.Queries, c.Instants, c.Changes, c.Humps, c.Epochs = 40, 40, 48, 10, 2, 6
	m := pandeyCAM(t, c)
	rep, err := monitor.Run(monitor.Data{Instance: &m.Instance}, monitor.Experiment{Policies: []string{"weighted-proportional"}, Budget: 30, Repeats: 1, Epochs: 3}, 7)
	if err != nil {
		t.Fatal(err)
	}
	res, err := monitor.Simulate(&m.Instance, monitor.Coins(m.Instance.Rho),
		monitor.Config{Policy: monitor.Share{Weighted: true, Proportional: true}, Budget: 30, Known: m.Instance.Rho, Epochs: 3},
		rand.New(rand.NewPCG(7, 0)), rand.New(rand.NewPCG(7, 1)))
	if err != nil {
		t.Fatal(err)
	}
	var ret, chg float64
	for _, e := range res.Epochs {
		ret += e.Returned
		chg += e.Changes
	}
	if got := rep.Policies[0].Metrics[monitor.MetricRealisedRIR].Mean; got != ret/chg {
		t.Errorf("realised RIR %v, Simulate's %v", got, ret/chg)
	}

	// The same pages replayed from their dataset's recorded changes.
	d := m.Dataset(3)
	r, err := monitor.FromEvents(d, monitor.EventOptions{Slot: c.Epoch / float64(c.Instants), Slots: c.Instants})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Changed) != c.Epochs {
		t.Fatalf("%d epochs replayed, want %d", len(r.Changed), c.Epochs)
	}
	rep, err = monitor.Run(monitor.Data{Instance: &r.Instance, Recorded: &r.Recorded},
		monitor.Experiment{Policies: []string{"cam", "uniform"}, Budget: 30, Repeats: 3, Tracking: 3, Epochs: 3}, 7)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Policies {
		if s := p.Metrics[monitor.MetricRIR]; s.N != 0 {
			t.Errorf("%s: an expected RIR %+v without a truth", p.ID, s)
		}
		if s := p.Metrics[monitor.MetricRealisedRIR]; !(s.Mean > 0 && s.Mean <= 1) {
			t.Errorf("%s: realised RIR %+v", p.ID, s)
		}
	}
	if _, err := monitor.Run(monitor.Data{Instance: &r.Instance, Recorded: &r.Recorded},
		monitor.Experiment{Policies: []string{"cam"}, Budget: 30, Repeats: 1, Epochs: 3}, 7); err == nil {
		t.Error("a replay without a tracking phase accepted")
	}
}

func TestRunRefusesBadExperiments(t *testing.T) {
	c := synth.PandeyCAMDefault
	c.Pages, c.Queries, c.Instants, c.Changes, c.Humps = 10, 10, 12, 2, 1
	m := pandeyCAM(t, c)
	d := monitor.Data{Instance: &m.Instance}
	good := monitor.Experiment{Policies: []string{"cam"}, Budget: 5, Repeats: 2, Epochs: 1}
	for _, tc := range []struct {
		name string
		edit func(*monitor.Experiment)
	}{
		{"no policies", func(x *monitor.Experiment) { x.Policies = nil }},
		{"unknown policy", func(x *monitor.Experiment) { x.Policies = []string{"cam", "greedy"} }},
		{"no repeats", func(x *monitor.Experiment) { x.Repeats = 0 }},
		{"no epochs", func(x *monitor.Experiment) { x.Epochs = 0 }},
		{"negative budget", func(x *monitor.Experiment) { x.Budget = -1 }},
		{"unknown scheduler", func(x *monitor.Experiment) { x.Scheduler = "fifo" }},
		{"scheduler without monitors", func(x *monitor.Experiment) { x.Scheduler, x.Capacity = monitor.SchedulerList, 10 }},
		{"scheduler without capacity", func(x *monitor.Experiment) { x.Scheduler, x.Monitors = monitor.SchedulerList, 2 }},
	} {
		x := good
		tc.edit(&x)
		if _, err := monitor.Run(d, x, 1); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
	if _, err := monitor.Run(d, good, 1); err != nil {
		t.Errorf("the good experiment: %v", err)
	}
}

// The numbers of a run with every policy, a tracking phase, re-allocation
// and the α-point scheduler, hashed to the bit: the same natively and in
// WebAssembly.
func TestRunGolden(t *testing.T) {
	c := synth.PandeyCAMDefault
	c.Pages, c.Queries, c.Instants, c.Changes, c.Humps, c.WeightSkew = 60, 60, 96, 12, 3, 1
	m := pandeyCAM(t, c)
	var ids []string
	for _, d := range monitor.Descriptors() {
		ids = append(ids, d.ID)
	}
	rep, err := monitor.Run(monitor.Data{Instance: &m.Instance, Sizes: m.Size}, monitor.Experiment{Policies: ids, Budget: 120, Repeats: 3,
		Tracking: 2, Epochs: 4, Reallocate: 1, Window: 10, Scheduler: monitor.SchedulerAlphaPoint, Monitors: 2, Capacity: 100}, 5)
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	put := func(x float64) { fmt.Fprintf(h, "%x;", math.Float64bits(x)) }
	put(rep.ExpectedChanges)
	put(rep.TotalInformation)
	put(rep.AppendixWeighted)
	put(rep.AppendixUnweighted)
	var metricIDs []string
	for _, mi := range monitor.Metrics() {
		metricIDs = append(metricIDs, mi.ID)
	}
	for _, p := range rep.Policies {
		for _, id := range metricIDs {
			s := p.Metrics[id]
			put(s.Mean)
			put(s.Lo)
		}
		for _, id := range []string{monitor.MetricRIR, monitor.MetricRealisedRIR} {
			for _, s := range p.Series[id] {
				put(s.Mean)
			}
		}
		for _, x := range p.Tasks {
			put(x)
		}
	}
	if got, want := h.Sum64(), uint64(0x80434c54d815046d); got != want {
		t.Errorf("hash %#x, want %#x", got, want)
	}
	if !slices.Equal(metricIDs[:2], []string{monitor.MetricRIR, monitor.MetricRealisedRIR}) {
		t.Errorf("metrics begin %v", metricIDs[:2])
	}
}

// TestRunProgress checks that Run tells its progress after every repeat of
// every policy, counting all of them, and stops with the error Progress
// returns.
func TestRunProgress(t *testing.T) {
	in := &monitor.Instance{T: 4, Times: monitor.UniformTimes(4, 4), Weight: []float64{1, 1},
		Rho: [][]float64{{0.1, 0.1, 0.1, 0.8}, {0.05, 0.05, 0.05, 0.05}}}
	x := monitor.Experiment{Policies: []string{"cam", "uniform"}, Budget: 2, Repeats: 3, Epochs: 1}
	var seen []int
	x.Progress = func(n int) error { seen = append(seen, n); return nil }
	if _, err := monitor.Run(monitor.Data{Instance: in}, x, 1); err != nil || !slices.Equal(seen, []int{1, 2, 3, 4, 5, 6}) {
		t.Errorf("error %v, progress %v", err, seen)
	}
	stop := errors.New("stop")
	seen = nil
	x.Progress = func(n int) error {
		seen = append(seen, n)
		if n == 4 {
			return stop
		}
		return nil
	}
	if rep, err := monitor.Run(monitor.Data{Instance: in}, x, 1); !errors.Is(err, stop) || rep != nil || !slices.Equal(seen, []int{1, 2, 3, 4}) {
		t.Errorf("report %v, error %v, progress %v", rep, err, seen)
	}
}
