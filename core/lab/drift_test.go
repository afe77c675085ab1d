package lab_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
)

// TestDriftSpec checks alqaaideh-jordan's drift as spec fields: a run with
// drift differs from the bundled dataset's and echoes its setting, a lab
// that ran the bundled dataset first gives the drifting run the numbers a
// fresh lab gives (its remembered results are kept apart), a sweep over
// dataset.drift runs each setting, drift 0 is the bundled dataset, and bad
// settings are errors on their fields.
func TestDriftSpec(t *testing.T) {
	spec := func(drift, period float64) lab.Spec {
		return lab.Spec{Dataset: lab.DatasetRef{ID: "alqaaideh-jordan", Drift: drift, DriftPeriod: period}, Repeats: 3, Seed: 1,
			Policies: []lab.PolicySpec{{ID: "frequency-greedy"}, {ID: "site-greedy"}}}
	}
	l := lab.New()
	plain, err := l.Run(spec(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	drifting, err := l.Run(spec(1, 0))
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := lab.New().Run(spec(1, 0))
	if err != nil {
		t.Fatal(err)
	}
	js := func(r any) string {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if js(drifting) != js(fresh) {
		t.Error("the drifting run differs after a run of the bundled dataset: remembered results mixed")
	}
	if drifting.Policies[0].Metric(lab.MetricChangeRatio).Mean == plain.Policies[0].Metric(lab.MetricChangeRatio).Mean {
		t.Error("drift 1 gives the bundled dataset's ChangeRatio")
	}
	if drifting.Spec.Dataset.Drift != 1 || drifting.Dataset.Name == plain.Dataset.Name {
		t.Errorf("echo %+v, dataset %q: the drift is not shown", drifting.Spec.Dataset, drifting.Dataset.Name)
	}
	if zero, err := l.Run(spec(0, 7)); err != nil || js(zero.Policies) != js(plain.Policies) {
		t.Errorf("drift 0 with a period: %v, or numbers differ from the bundled dataset's", err)
	}
	sw := spec(0, 0)
	sw.Sweep = &lab.Sweep{Field: "dataset.drift", Values: []float64{0, 1}}
	res, err := l.Run(sw)
	if err != nil {
		t.Fatal(err)
	}
	got := res.Sweep.Policies[0].Metrics[lab.MetricChangeRatio]
	if got[0] != plain.Policies[0].Metric(lab.MetricChangeRatio) || got[1] != drifting.Policies[0].Metric(lab.MetricChangeRatio) {
		t.Errorf("sweep over dataset.drift: %v, want the runs' %v and %v", got, plain.Policies[0].Metric(lab.MetricChangeRatio), drifting.Policies[0].Metric(lab.MetricChangeRatio))
	}
	for _, tc := range []struct {
		spec  lab.Spec
		field string
	}{
		{spec(1.5, 0), "dataset.drift"},
		{spec(-1, 0), "dataset.drift"},
		{spec(0.5, 0.2), "dataset.driftPeriod"},
		{lab.Spec{Dataset: lab.DatasetRef{ID: "topic-web", Drift: 0.5}, Policies: []lab.PolicySpec{{ID: "round-robin"}}}, "dataset.drift"},
	} {
		_, err := l.Run(tc.spec)
		var se *lab.SpecError
		if !errors.As(err, &se) || se.Field != tc.field {
			t.Errorf("%+v: error %v, want one on %s", tc.spec.Dataset, err, tc.field)
		}
	}
}
