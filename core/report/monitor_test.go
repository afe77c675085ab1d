package report_test

import (
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/monitor/monitorkind"
	"github.com/refreshlab/refreshlab/core/report"
)

// TestMonitorMethods reports a monitor run: ranked by RIR, its methods
// paragraph names monitoring policies and says, as the monitor kind's
// Design does, that the policies' repeats share their changes, not that
// they share no random number as refresh runs' do.
func TestMonitorMethods(t *testing.T) {
	l := lab.New()
	res, err := l.Run(lab.Spec{Kind: monitorkind.ID, Dataset: lab.DatasetRef{ID: "pandey-cam"}, Budget: 1000, Repeats: 3, Seed: 2,
		Policies: []lab.PolicySpec{{ID: "cam"}, {ID: "uniform"}}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := report.New(res, l.Policies(), report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Metric.ID != "rir" || r.Rows[0].Key != "cam" {
		t.Errorf("ranked by %s, first %s", r.Metric.ID, r.Rows[0].Key)
	}
	for _, want := range []string{"We compared 2 monitoring policies", "the same for every policy", "Each ran 3 times with seed 2, 1,000 monitoring tasks per epoch"} {
		if !strings.Contains(r.Methods, want) {
			t.Errorf("methods lack %q: %s", want, r.Methods)
		}
	}
	if strings.Contains(r.Methods, "share no random number") || strings.Contains(r.Methods, "chosen by the policy's id") {
		t.Errorf("methods describe a refresh run's streams: %s", r.Methods)
	}
}
