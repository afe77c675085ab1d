package monitorkind_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/monitor"
	"github.com/refreshlab/refreshlab/core/monitor/monitorkind"
)

// monitorSpec is the monitor kind's first request: the bundled pandey-cam,
// 5,000 tasks, CAM against the two weighted baselines.
func monitorSpec(repeats int) lab.Spec {
	return lab.Spec{Kind: monitorkind.ID, Dataset: lab.DatasetRef{ID: "pandey-cam"}, Budget: 5000, Repeats: repeats, Seed: 1,
		Policies: []lab.PolicySpec{{ID: "cam"}, {ID: "weighted-proportional"}, {ID: "weighted-uniform"}}}
}

// TestMonitorRun runs the first request and checks that each policy has
// its expected RIR with an interval over the repeats, in the order §5.2
// finds (CAM above weighted proportional above weighted uniform, each
// interval clear of the next), that the defaults are filled in (one epoch
// planned with the true update probabilities) and that the instance's
// facts are there.
func TestMonitorRun(t *testing.T) {
	res, err := lab.New().Run(monitorSpec(20))
	if err != nil {
		t.Fatal(err)
	}
	if ms := monitorkind.SpecOf(res.Spec); ms == nil || ms.Epochs != 1 || ms.Tracking != 0 || res.Spec.Repeats != 20 {
		t.Fatalf("resolved spec %+v, monitor %+v", res.Spec, monitorkind.SpecOf(res.Spec))
	}
	if len(res.Policies) != 3 {
		t.Fatalf("%d policies", len(res.Policies))
	}
	var prev *lab.PolicyResult
	for i := range res.Policies {
		p := &res.Policies[i]
		s := p.Metric(monitor.MetricRIR)
		if s.N != 20 || !(s.Lo <= s.Mean && s.Mean <= s.Hi) || !(s.Mean > 0 && s.Mean <= 1) {
			t.Errorf("%s: rir %+v", p.ID, s)
		}
		for _, id := range []string{monitor.MetricRealisedRIR, monitor.MetricMonitoringChange, monitor.MetricLostAllocation, monitor.MetricLostScheduling} {
			if p.Metric(id).N != 20 {
				t.Errorf("%s: %s %+v", p.ID, id, p.Metric(id))
			}
		}
		if prev != nil && !(prev.Metric(monitor.MetricRIR).Lo > s.Hi) {
			t.Errorf("%s's rir %+v does not clear %s's %+v", prev.ID, prev.Metric(monitor.MetricRIR), p.ID, s)
		}
		if ratio, ok := p.Fact(monitorkind.FactAppendixARatio); !ok || !(ratio > 1) {
			t.Errorf("%s: Appendix A ratio %v, %v", p.ID, ratio, ok)
		}
		if !p.Oracle && p.ID != "weighted-uniform" {
			t.Errorf("%s plans with the true ρ but is not marked an oracle", p.ID)
		}
		t.Logf("%s: rir %.4f [%.4f, %.4f], realised %.4f", p.ID, s.Mean, s.Lo, s.Hi, p.Metric(monitor.MetricRealisedRIR).Mean)
		prev = p
	}
}

// TestMonitorCatalog checks that the catalog lists the monitor kind with
// its policies (beside the schedule kind's of the same ids), its metrics
// and facts, its headline, and the pandey-cam dataset.
func TestMonitorCatalog(t *testing.T) {
	if !slices.Contains(lab.Kinds(), monitorkind.ID) {
		t.Errorf("kinds %v", lab.Kinds())
	}
	var ids []string
	for _, d := range lab.New().Policies() {
		if d.Kind == monitorkind.ID {
			ids = append(ids, d.ID)
		}
	}
	var want []string
	for _, d := range monitor.Descriptors() {
		want = append(want, d.ID)
	}
	if !slices.Equal(ids, want) {
		t.Errorf("monitor policies %v, want %v", ids, want)
	}
	for _, m := range monitor.Metrics() {
		lm, ok := lab.MetricByID(m.ID)
		if !ok || !lm.AppliesTo(monitorkind.ID) || lm.AppliesTo(lab.KindRefresh) {
			t.Errorf("metric %s: %+v, %v", m.ID, lm, ok)
		}
	}
	if _, ok := lab.FactByID(monitorkind.FactAppendixARatio); !ok {
		t.Error("no Appendix A fact")
	}
	if h := lab.Headline(monitorkind.ID); h != monitor.MetricRIR {
		t.Errorf("headline %q", h)
	}
	if !slices.ContainsFunc(lab.New().Datasets(), func(d dataset.Info) bool { return d.ID == "pandey-cam" }) {
		t.Error("no pandey-cam in the catalog")
	}
}

// TestMonitorSpecErrors checks the monitor kind's spec errors, the shared
// ones (dataset, repeats, policies, work) among them.
func TestMonitorSpecErrors(t *testing.T) {
	l := lab.New()
	l.AddUpload(hourlyLog(t, 3))
	tests := []struct {
		name  string
		edit  func(*lab.Spec)
		field string
		msg   string
	}{
		{"no dataset", func(s *lab.Spec) { s.Dataset.ID = "" }, "dataset.id", "missing"},
		{"unknown dataset", func(s *lab.Spec) { s.Dataset.ID = "nope" }, "dataset.id", "unknown dataset"},
		{"negative repeats", func(s *lab.Spec) { s.Repeats = -1 }, "repeats", "between 1"},
		{"no policies", func(s *lab.Spec) { s.Policies = nil }, "policies", "cam, weighted-proportional"},
		{"a schedule's id", func(s *lab.Spec) { s.Policies = []lab.PolicySpec{{ID: "cho-optimal-age"}} }, "policies[0].id", "unknown monitoring policy"},
		{"twice", func(s *lab.Spec) { s.Policies = []lab.PolicySpec{{ID: "cam"}, {ID: "cam"}} }, "policies[1]", "appears twice"},
		{"an empty sweep", func(s *lab.Spec) { s.Sweep = &lab.Sweep{Field: "budget"} }, "sweep.values", "expected 1 to"},
		{"a sweep beyond the work", func(s *lab.Spec) {
			s.Repeats = 100
			s.Sweep = &lab.Sweep{Field: "budget", Values: make([]float64, 50)}
		}, "repeats", "× 51 runs"},
		{"a skew out of range", func(s *lab.Spec) {
			s.Sections = s.Sections.With(monitorkind.ID, &monitorkind.Spec{RateSkew: ptr(-1.0)})
		}, "monitor.rateSkew", "rateSkew = -1"},
		{"a skew on a log", func(s *lab.Spec) {
			s.Dataset.ID, s.Budget = "hourly-3", 1
			s.Sections = s.Sections.With(monitorkind.ID, &monitorkind.Spec{UpdateSkew: ptr(1.0)})
		}, "monitor.updateSkew", "not generated"},
		{"too much work", func(s *lab.Spec) { s.Repeats = 2000 }, "repeats", "too much work"},
		{"budget beyond the instants", func(s *lab.Spec) { s.Budget = 500*480 + 1 }, "budget", "500 pages × 480 instants"},
		{"slots on pandey-cam", func(s *lab.Spec) { s.Sections = s.Sections.With(monitorkind.ID, &monitorkind.Spec{Slots: 24}) }, "monitor.slot", "own update instants"},
		{"unknown scheduler", func(s *lab.Spec) { s.Sections = s.Sections.With(monitorkind.ID, &monitorkind.Spec{Scheduler: "fifo"}) }, "monitor.scheduler", "unknown scheduler"},
		{"monitors without a scheduler", func(s *lab.Spec) { s.Sections = s.Sections.With(monitorkind.ID, &monitorkind.Spec{Monitors: 2}) }, "monitor.scheduler", "need a scheduler"},
		{"a log of too few epochs", func(s *lab.Spec) {
			s.Dataset.ID, s.Budget = "hourly-3", 1
			s.Sections = s.Sections.With(monitorkind.ID, &monitorkind.Spec{Slots: 48})
		}, "monitor.slots", "at least two"},
		{"more epochs than the log", func(s *lab.Spec) {
			s.Dataset.ID, s.Budget = "hourly-3", 1
			s.Sections = s.Sections.With(monitorkind.ID, &monitorkind.Spec{Tracking: 2, Epochs: 2})
		}, "monitor.epochs", "holds 3 whole epochs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := monitorSpec(2)
			tt.edit(&spec)
			_, _, err := l.Resolve(spec)
			var se *lab.SpecError
			if !errors.As(err, &se) || se.Field != tt.field || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("error %v, want %s: …%s…", err, tt.field, tt.msg)
			}
		})
	}
}

// hourlyLog is a change-event log of days days in the Open Terms Archive
// layout: page Terms changes every day at 09:30 UTC and page Privacy at
// 15:30, so hour-of-day slots give each one instant with ρ = 1.
func hourlyLog(t *testing.T, days int) *dataset.Dataset {
	t.Helper()
	var b strings.Builder
	b.WriteString("ts_unix,ts_utc,service,document_type,event\n")
	const start = 1704067200 // 2024-01-01T00:00:00Z
	row := func(ts int64, doc, event string) {
		fmt.Fprintf(&b, "%d,X,X,%s,%s\n", ts, doc, event)
	}
	row(start, "Terms", "start")
	row(start, "Privacy", "start")
	for d := range int64(days) {
		row(start+d*86400+9*3600+1800, "Terms", "change")
		row(start+d*86400+15*3600+1800, "Privacy", "change")
	}
	row(start+int64(days)*86400, "Terms", "technical")
	d, _, err := dataset.ReadEventLog(strings.NewReader(b.String()), dataset.EventLogOptions{Name: "hourly", CycleLength: 3600})
	if err != nil {
		t.Fatal(err)
	}
	d.Info.ID = fmt.Sprintf("hourly-%d", days)
	return d
}

// TestMonitorOnEventLog monitors an uploaded change-event log: hourly
// slots in daily epochs, a tracking phase of a third of the days, then
// re-allocation every day. After tracking, CAM with two tasks a day spends
// them on the two instants where the pages change, so every change is seen
// at its own instant (hits and realised RIR 1); uniform gives each page
// one task a day at an hour drawn afresh at each re-allocation, which sees
// a change at its own instant only when the hour is right, and loses it
// when the next day's task comes after the next change. The
// monitoring-to-change ratio is
// the two tasks over the two changes of a day; the expected RIR, which
// needs the true update probabilities, is absent.
func TestMonitorOnEventLog(t *testing.T) {
	l := lab.New()
	l.AddUpload(hourlyLog(t, 30))
	res, err := l.Run(lab.Spec{Kind: monitorkind.ID, Dataset: lab.DatasetRef{ID: "hourly-30"}, Budget: 2, Repeats: 10, Seed: 1,
		Policies: []lab.PolicySpec{{ID: "cam"}, {ID: "uniform"}}})
	if err != nil {
		t.Fatal(err)
	}
	ms := monitorkind.SpecOf(res.Spec)
	// The log's window ends at the last event, so it holds 30 whole days.
	if ms.Slot != 3600 || ms.Slots != 24 || ms.Tracking != 10 || ms.Epochs != 20 || ms.Reallocate != 1 {
		t.Fatalf("resolved %+v", ms)
	}
	cam, uni := res.Policies[0], res.Policies[1]
	for _, p := range res.Policies {
		if _, ok := p.Metrics[monitor.MetricRIR]; ok {
			t.Errorf("%s: an expected RIR on a log", p.ID)
		}
		if r := p.Metric(monitor.MetricMonitoringChange).Mean; r != 1 {
			t.Errorf("%s: monitoring-to-change ratio %v, want 1", p.ID, r)
		}
		if p.Oracle {
			t.Errorf("%s: an oracle on a log", p.ID)
		}
	}
	if h, r := cam.Metric(monitor.MetricHitRIR).Mean, cam.Metric(monitor.MetricRealisedRIR).Mean; h != 1 || r != 1 {
		t.Errorf("cam: hits %v, realised RIR %v, want 1 and 1", h, r)
	}
	if h, r := uni.Metric(monitor.MetricHitRIR), uni.Metric(monitor.MetricRealisedRIR); !(h.Hi < 0.5) || !(r.Hi < 1) {
		t.Errorf("uniform: hits %+v, realised RIR %+v, want below 1", h, r)
	}
}

// TestMonitorCancel cancels a run after its first repeat: the run stops
// with the context's error, having told its progress.
func TestMonitorCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var seen []int
	_, err := lab.New().RunContext(ctx, monitorSpec(5), func(n int) {
		seen = append(seen, n)
		cancel()
	})
	if !errors.Is(err, context.Canceled) || !slices.Equal(seen, []int{1}) {
		t.Errorf("error %v after progress %v", err, seen)
	}
	var all []int
	if _, err := lab.New().RunContext(context.Background(), monitorSpec(2), func(n int) { all = append(all, n) }); err != nil || !slices.Equal(all, []int{1, 2, 3, 4, 5, 6}) {
		t.Errorf("error %v, progress %v", err, all)
	}
}

// TestMonitorFields sets the monitor kind's own fields by path, as a
// control or a prediction does: the run resolves and uses them, and a
// refresh spec refuses them.
func TestMonitorFields(t *testing.T) {
	l := lab.New()
	spec := monitorSpec(2)
	for _, set := range []struct {
		path string
		v    any
	}{{"monitor.tracking", 2.0}, {"monitor.reallocate", 1.0}, {"monitor.scheduler", "list"}, {"monitor.monitors", 3.0}} {
		f, err := l.Field(spec, set.path)
		if err != nil {
			t.Fatal(err)
		}
		if spec, err = f.Set(spec, set.v); err != nil {
			t.Fatal(err)
		}
	}
	res, err := l.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	if ms := monitorkind.SpecOf(res.Spec); ms.Tracking != 2 || ms.Reallocate != 1 || ms.Scheduler != "list" || ms.Monitors != 3 || ms.Capacity != 5000 {
		t.Errorf("resolved %+v", ms)
	}
	if res.Policies[0].Oracle || !strings.Contains(res.About, "tracking phase of 2 epochs") {
		t.Errorf("after tracking: oracle %v, about %q", res.Policies[0].Oracle, res.About)
	}
	if run := res.Policies[0].Metric(monitor.MetricTasksRun).Mean; !(run < 1) {
		t.Errorf("three list-scheduled monitors ran %v of the tasks, want fewer than all", run)
	}
	if _, err := l.Field(lab.Spec{Dataset: lab.DatasetRef{ID: "taleghani-example"}}, "monitor.tracking"); err == nil {
		t.Error("a refresh spec took monitor.tracking")
	}
}
