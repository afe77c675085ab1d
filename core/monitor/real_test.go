package monitor_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/monitor"
)

// Monitoring a real change log, which the paper never did: the Open Terms
// Archive's platform-governance pages, cut into epochs of a day of 24
// hourly instants, the first third a tracking phase, the rest monitored
// with re-allocation every day. Each policy's realised RIR is a share in
// (0, 1] with its interval, and its monitoring-to-change ratio is the
// budget over the changes recorded per monitored epoch. On these pages,
// which change about once in 46 days each, uniform returns more than CAM:
// CAM spends its tasks on the instants the tracking phase saw change,
// every day on the same few pages, and under complete loss a page's change
// waits weeks for any monitor before the next one overwrites it, so
// monitoring every page now and then returns more (the crawling regime,
// not the paper's).
func TestRunOnRealLog(t *testing.T) {
	f, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "ota-pga-versions", "events.csv"))
	if err != nil {
		t.Skipf("skipped: the real Open Terms Archive change logs are not here (%v)", err)
	}
	d, s, err := dataset.ReadEventLog(bytes.NewReader(f), dataset.EventLogOptions{Name: "ota-pga-versions", CycleLength: 3600})
	if err != nil {
		t.Fatal(err)
	}
	start, err := time.Parse(time.RFC3339, s.Start)
	if err != nil {
		t.Fatal(err)
	}
	midnight := time.Date(start.Year(), start.Month(), start.Day(), 0, 0, 0, 0, time.UTC)
	r, err := monitor.FromEvents(d, monitor.EventOptions{Slot: 3600, Slots: 24, Phase: start.Sub(midnight).Seconds()})
	if err != nil {
		t.Fatal(err)
	}
	E := len(r.Changed)
	tracking := E / 3
	changes := 0
	for _, pages := range r.Changed[tracking:] {
		for _, js := range pages {
			changes += len(js)
		}
	}
	const budget = 14
	rep, err := monitor.Run(monitor.Data{Instance: &r.Instance, Recorded: &r.Recorded}, monitor.Experiment{
		Policies: []string{"cam", "weighted-proportional", "uniform"}, Budget: budget, Repeats: 5,
		Tracking: tracking, Epochs: E - tracking, Reallocate: 1, ChangeTimes: true}, 1)
	if err != nil {
		t.Fatal(err)
	}
	realised := map[string]float64{}
	for _, p := range rep.Policies {
		m := p.Metrics[monitor.MetricRealisedRIR]
		if !(m.Mean > 0 && m.Mean <= 1) || m.N != 5 {
			t.Errorf("%s: realised RIR %+v", p.ID, m)
		}
		if got, want := p.Metrics[monitor.MetricMonitoringChange].Mean, float64(budget)*float64(E-tracking)/float64(changes); math.Abs(got/want-1) > 1e-12 {
			t.Errorf("%s: monitoring-to-change ratio %v, want %v", p.ID, got, want)
		}
		if s := p.Metrics[monitor.MetricRIR]; s.N != 0 {
			t.Errorf("%s: an expected RIR %+v on a log without a truth", p.ID, s)
		}
		realised[p.ID] = m.Mean
		t.Logf("%s: realised RIR %.3f [%.3f, %.3f]", p.ID, m.Mean, m.Lo, m.Hi)
	}
	cam, uni := rep.Policies[0].Metrics[monitor.MetricRealisedRIR], rep.Policies[2].Metrics[monitor.MetricRealisedRIR]
	if !(uni.Lo > cam.Hi) {
		t.Errorf("uniform's realised RIR %v [%v, %v] does not clear CAM's %v [%v, %v]", uni.Mean, uni.Lo, uni.Hi, cam.Mean, cam.Lo, cam.Hi)
	}
	t.Logf("%d pages, %d daily epochs (%d tracked), %d changes monitored, budget %d", len(d.Pages), E, tracking, changes, budget)
}
