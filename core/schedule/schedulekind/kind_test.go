package schedulekind_test

import (
	"errors"
	"math"
	"testing"

	"github.com/refreshlab/refreshlab/core/estimate/estimatekind"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/schedule/schedulekind"
)

func scheduleSpec(rates string, ids ...string) lab.Spec {
	s := lab.Spec{Kind: schedulekind.ID, Dataset: lab.DatasetRef{ID: "cho-garcia-molina-5"}, Budget: 5, Seed: 1,
		Sections: lab.Sections{schedulekind.ID: &schedulekind.Spec{Rates: rates}}}
	for _, id := range ids {
		s.Policies = append(s.Policies, lab.PolicySpec{ID: id})
	}
	return s
}

// TestScheduleMatchesExpectation checks each oracle plan's simulated mean
// freshness and age against schedule.Expect's exact values, within 4
// standard errors from the spread across repeats (false failure about 6e-5
// per comparison).
func TestScheduleMatchesExpectation(t *testing.T) {
	res, err := lab.New().Run(scheduleSpec("", "uniform", "proportional", "cho-optimal-age", "olston-pandey", "lambda-crawl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Policies {
		fresh, ok := p.Fact(lab.FactExpectedFreshness)
		if !ok {
			t.Fatalf("%s: no exact expectation", p.ID)
		}
		age, ok := p.Fact(lab.FactExpectedAge)
		if !ok {
			age = math.NaN() // infinite: olston-pandey gives the fastest page up
		}
		fr, ag := p.Metric(lab.MetricFreshness), p.Metric(lab.MetricAge)
		for _, c := range []struct {
			name string
			got  float64
			sd   float64
			n    int
			want float64
		}{{"freshness", fr.Mean, fr.SD, fr.N, fresh}, {"age", ag.Mean, ag.SD, ag.N, age}} {
			if math.IsNaN(c.want) {
				continue
			}
			if se := c.sd / math.Sqrt(float64(c.n)); math.Abs(c.got-c.want) > 4*se {
				t.Errorf("%s %s: simulated %.4f, exact %.4f (4 SE = %.4f)", p.ID, c.name, c.got, c.want, 4*se)
			}
		}
	}
}

// TestScheduleEstimatedRates runs the rate-using policies on rates a
// crawler estimates from its own observations: the results are not labelled
// oracles, say which estimator, vary by repeat (so no exact expectation),
// and still spend the budget.
func TestScheduleEstimatedRates(t *testing.T) {
	res, err := lab.New().Run(scheduleSpec(estimatekind.EstCGM, "cho-optimal-freshness", "uniform"))
	if err != nil {
		t.Fatal(err)
	}
	opt := res.Policies[0]
	expected := map[string]float64{}
	for _, id := range []string{lab.FactExpectedFreshness, lab.FactExpectedAge, schedulekind.FactExpectedHarmonic, lab.FactExpectedChangeRatio} {
		if x, ok := opt.Fact(id); ok {
			expected[id] = x
		}
	}
	if opt.Oracle || schedulekind.PolicyResultOf(opt).Rates != estimatekind.EstCGM || len(expected) != 0 {
		t.Errorf("estimated-rate plan: oracle %v, rates %q, expected %v", opt.Oracle, schedulekind.PolicyResultOf(opt).Rates, expected)
	}
	if s := opt.Metric(schedulekind.MetricSyncsPerDay); math.Abs(s.Mean-5) > 4*s.SD/math.Sqrt(float64(s.N))+0.05 {
		t.Errorf("spent %.3f syncs a day of 5", s.Mean)
	}
	if schedulekind.PolicyResultOf(res.Policies[1]).Rates != "" || res.Policies[1].Oracle {
		t.Errorf("uniform uses no rates but is labelled %q / oracle %v", schedulekind.PolicyResultOf(res.Policies[1]).Rates, res.Policies[1].Oracle)
	}
}

// TestScheduleSpecErrors checks that a refresh policy or an unknown rates
// source in a schedule spec is a SpecError naming the field.
func TestScheduleSpecErrors(t *testing.T) {
	for _, c := range []struct {
		spec  lab.Spec
		field string
	}{
		{scheduleSpec("", "random"), "policies[0].id"},
		{scheduleSpec("posterior-mean", "uniform"), "schedule.rates"},
		{func() lab.Spec { s := scheduleSpec("", "uniform"); schedulekind.SpecOf(s).Days = 1e9; return s }(), "schedule.days"},
	} {
		_, err := lab.New().Run(c.spec)
		var se *lab.SpecError
		if !errors.As(err, &se) || se.Field != c.field {
			t.Errorf("error %v, want a SpecError on %s", err, c.field)
		}
	}
}

// TestScheduleOnRefreshDataset runs a schedule on a dataset without true
// rates: they are estimated from its whole truth, and the result says so.
func TestScheduleOnRefreshDataset(t *testing.T) {
	s := scheduleSpec("", "uniform", "proportional")
	s.Dataset.ID = "taleghani-example"
	s.Repeats, schedulekind.SpecOf(s).Days = 2, 50
	res, err := lab.New().Run(s)
	if err != nil {
		t.Fatal(err)
	}
	if schedulekind.ResultOf(res).RatesFrom != "estimated" {
		t.Errorf("rates from %q, want estimated", schedulekind.ResultOf(res).RatesFrom)
	}
}

// BenchmarkRunSchedule runs the lesson's default view: three oracle
// allocations and Nutch on five pages. It reports ns per simulated event.
func BenchmarkRunSchedule(b *testing.B) {
	l := lab.New()
	s := scheduleSpec("", "cho-optimal-freshness", "uniform", "proportional", "nutch")
	var events float64
	for b.Loop() {
		res, err := l.Run(s)
		if err != nil {
			b.Fatal(err)
		}
		events = schedulekind.ResultOf(res).Events
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/events, "ns/event")
}
