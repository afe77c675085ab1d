package lab_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/estimate/estimatekind"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/param"
)

// TestSweepMatchesSeparateRuns checks that each point of a sweep is the
// run of the spec with that value, and that the main result is the spec's
// own run.
func TestSweepMatchesSeparateRuns(t *testing.T) {
	l := lab.New()
	base := lab.Spec{
		Dataset: lab.DatasetRef{ID: "taleghani-example"}, Budget: 100, Repeats: 50, Seed: 3,
		Policies: []lab.PolicySpec{{ID: "site-greedy"}, {ID: "random"}},
	}
	spec := base
	spec.Sweep = &lab.Sweep{Field: "params.sampleSize", Values: []float64{1, 5, 10, 20}}
	res, err := l.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	own, err := l.Run(base)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := mustJSON(t, res.Policies), mustJSON(t, own.Policies); got != want {
		t.Errorf("the main result differs from the spec's own run")
	}
	sw := res.Sweep
	if sw == nil || len(sw.Policies) != 2 {
		t.Fatalf("sweep: %+v", sw)
	}
	for i, v := range spec.Sweep.Values {
		one := base
		one.Policies = []lab.PolicySpec{{ID: "site-greedy", Params: param.Values{"sampleSize": v}}, {ID: "random"}}
		r, err := l.Run(one)
		if err != nil {
			t.Fatal(err)
		}
		for p := range r.Policies {
			if got, want := mustJSON(t, sw.Policies[p].Metrics[lab.MetricChangeRatio][i]), mustJSON(t, r.Policies[p].Metric(lab.MetricChangeRatio)); got != want {
				t.Errorf("%s at sampleSize %v: sweep %s, separate run %s", r.Policies[p].ID, v, got, want)
			}
			if len(sw.Policies[p].Metrics) != len(r.Policies[p].Metrics) {
				t.Errorf("%s: sweep has %d metrics, separate run %d", r.Policies[p].ID, len(sw.Policies[p].Metrics), len(r.Policies[p].Metrics))
			}
			for id, m := range r.Policies[p].Metrics {
				if got, want := mustJSON(t, sw.Policies[p].Metrics[id][i]), mustJSON(t, m); got != want {
					t.Errorf("%s %s at sampleSize %v: sweep %s, separate run %s", r.Policies[p].ID, id, v, got, want)
				}
			}
		}
		want, ok := r.Policies[0].Fact(lab.FactExpectedChangeRatio)
		if !ok {
			t.Fatalf("site-greedy at %v: the separate one-cycle run has no expectation", v)
		}
		if e := sw.Policies[0].Facts[lab.FactExpectedChangeRatio][i]; e == nil || *e != want {
			t.Errorf("site-greedy at %v: expectation %v, separate run %v", v, e, want)
		}
		if got := sw.Policies[0].Params[i]["sampleSize"]; got != v {
			t.Errorf("site-greedy params at point %d: sampleSize %v, want %v", i, got, v)
		}
	}
	if got := res.Policies[0].Auto; len(got) != 1 || got[0] != "sampleSize" {
		t.Errorf("main run's auto = %v, want [sampleSize]", got)
	}
}

func TestSweepErrors(t *testing.T) {
	l := lab.New()
	tests := []struct {
		sweep lab.Sweep
		field string
		msg   string
	}{
		{lab.Sweep{Values: []float64{1}}, "sweep.field", "missing"},
		{lab.Sweep{Field: "budget"}, "sweep.values", "expected 1 to"},
		{lab.Sweep{Field: "params.kappa", Values: []float64{1}}, "sweep.field", "no policy in the spec has"},
		{lab.Sweep{Field: "colour", Values: []float64{1}}, "sweep.field", "unknown field"},
		{lab.Sweep{Field: "budget", Values: []float64{1.5}}, "sweep.field", "whole numbers"},
		{lab.Sweep{Field: "params.sampleSize", Values: []float64{0}}, "sweep.values", "below the minimum"},
	}
	for _, tt := range tests {
		spec := lab.Spec{Dataset: lab.DatasetRef{ID: "taleghani-example"}, Repeats: 2,
			Policies: []lab.PolicySpec{{ID: "site-greedy"}}, Sweep: &tt.sweep}
		_, err := l.Run(spec)
		se, ok := err.(*lab.SpecError)
		if !ok || se.Field != tt.field || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("sweep %+v: error %v, want field %s containing %q", tt.sweep, err, tt.field, tt.msg)
		}
	}
}

// TestSweepLabelledCopy checks that a sweep of policies.LABEL.NAME varies
// only the copy with that label, that the copy keeps its label and name in
// the sweep, and that the unlabelled policy of the same id stays put.
func TestSweepLabelledCopy(t *testing.T) {
	l := lab.New()
	spec := lab.Spec{
		Dataset: lab.DatasetRef{ID: "taleghani-example"}, Budget: 100, Repeats: 20, Seed: 3,
		Policies: []lab.PolicySpec{{ID: "site-greedy", Params: param.Values{"sampleSize": 5.0}}, {ID: "site-greedy", Label: "big"}},
		Sweep:    &lab.Sweep{Field: "policies.big.sampleSize", Values: []float64{1, 20}},
	}
	res, err := l.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	sw := res.Sweep.Policies
	if len(sw) != 2 || sw[1].Key() != "big" || !strings.HasSuffix(sw[1].Name, " (big)") {
		t.Fatalf("sweep series %+v", sw)
	}
	for i, v := range spec.Sweep.Values {
		if got := sw[0].Params[i]["sampleSize"]; got != 5.0 {
			t.Errorf("at %v: the unlabelled copy's sampleSize became %v", v, got)
		}
		if got := sw[1].Params[i]["sampleSize"]; got != v {
			t.Errorf("at %v: the labelled copy's sampleSize is %v", v, got)
		}
	}
}

// TestEstimateSweepMatchesSeparateRuns checks that each point of an
// estimate sweep is the run of the spec at that value, metric for metric
// and fact for fact: the main run simulates all its epochs, and so must a
// sweep's, or its pages draw other coin flips.
func TestEstimateSweepMatchesSeparateRuns(t *testing.T) {
	l := lab.New()
	base := lab.Spec{
		Kind: estimatekind.ID, Dataset: lab.DatasetRef{ID: "grimes-ford"}, Repeats: 3, Seed: 4,
		Policies: []lab.PolicySpec{{ID: "mle"}, {ID: "naive"}},
		Sections: lab.Sections{estimatekind.ID: &estimatekind.Spec{Pages: 150, Epochs: 12, Pool: 4}},
	}
	spec := base
	spec.Sweep = &lab.Sweep{Field: "estimate.crawl.initial", Values: []float64{1, 3, 7}}
	res, err := l.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range spec.Sweep.Values {
		one := base
		es := *estimatekind.SpecOf(base)
		es.Crawl.Initial = v
		one.Sections = one.Sections.With(estimatekind.ID, &es)
		r, err := lab.New().Run(one)
		if err != nil {
			t.Fatal(err)
		}
		for p, pr := range r.Policies {
			ss := res.Sweep.Policies[p]
			if len(ss.Metrics) != len(pr.Metrics) {
				t.Errorf("%s: sweep has %d metrics, separate run %d", pr.ID, len(ss.Metrics), len(pr.Metrics))
			}
			for id, m := range pr.Metrics {
				if got, want := mustJSON(t, ss.Metrics[id][i]), mustJSON(t, m); got != want {
					t.Errorf("%s %s at initial %v: sweep %s, separate run %s", pr.ID, id, v, got, want)
				}
			}
			for id, x := range pr.Facts {
				if got := ss.Facts[id][i]; got == nil || *got != x {
					t.Errorf("%s fact %s at initial %v: sweep %v, separate run %v", pr.ID, id, v, got, x)
				}
			}
		}
	}
}

// TestEchoReproducesSweep checks that the echoed spec of a run whose
// sweep moves a computed parameter (category sampling's sample size
// follows topK) reproduces the run byte for byte: the echo leaves the
// computed parameter out, and reports its value beside it.
func TestEchoReproducesSweep(t *testing.T) {
	spec := lab.Spec{
		Dataset: lab.DatasetRef{ID: "topic-web"}, Budget: 200, Cycles: 3, Repeats: 2, Seed: 1,
		Policies: []lab.PolicySpec{{ID: "category-greedy", Params: param.Values{"categories": "topic"}}},
		Sweep:    &lab.Sweep{Field: "params.topK", Values: []float64{1, 6}},
	}
	res, err := lab.New().Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := res.Spec.Policies[0].Params["sampleSize"]; ok {
		t.Errorf("the echo fixes the computed sampleSize: %v", res.Spec.Policies[0].Params)
	}
	if p := res.Policies[0]; p.Params["sampleSize"] == nil || !slices.Contains(p.Auto, "sampleSize") {
		t.Errorf("the result does not report the computed sampleSize: params %v, auto %v", p.Params, p.Auto)
	}
	sizes := res.Sweep.Policies[0].Params
	if sizes[0]["sampleSize"] == sizes[1]["sampleSize"] {
		t.Fatalf("sampleSize %v at both topK: the test needs a computed value that moves", sizes[0]["sampleSize"])
	}
	var echo lab.Spec
	if err := json.Unmarshal([]byte(mustJSON(t, res.Spec)), &echo); err != nil {
		t.Fatal(err)
	}
	again, err := lab.New().Run(echo)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := mustJSON(t, res), mustJSON(t, again); a != b {
		t.Errorf("the echoed spec gives another result:\n%s", firstDiff([]byte(a), []byte(b)))
	}
}
