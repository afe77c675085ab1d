package estimatekind_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/estimate"
	"github.com/refreshlab/refreshlab/core/estimate/estimatekind"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/stat"
)

func ids(ids ...string) []lab.PolicySpec {
	var ps []lab.PolicySpec
	for _, id := range ids {
		ps = append(ps, lab.PolicySpec{ID: id})
	}
	return ps
}

// run runs spec in a new lab.
func run(t testing.TB, spec lab.Spec) *lab.Result {
	t.Helper()
	res, err := lab.New().Run(spec)
	if err != nil {
		t.Fatalf("Run(%+v): %v", spec, err)
	}
	return res
}

func estSpec(es *estimatekind.Spec, policies ...string) lab.Spec {
	spec := lab.Spec{Kind: estimatekind.ID, Dataset: lab.DatasetRef{ID: "grimes-ford"}, Repeats: 3, Seed: 4, Policies: ids(policies...)}
	if es != nil {
		spec.Sections = lab.Sections{estimatekind.ID: es}
	}
	return spec
}

// TestEstimateDefaults checks the defaults the estimate kind fills in:
// §4.2's 1000 pages, 20 epochs, the first 5 pooled (Fig. 4), a sequential
// crawl at 80% of the estimate (§4.1) from one day, 50 paths from 0-700 h
// (Fig. 2) of a page changing once a day.
func TestEstimateDefaults(t *testing.T) {
	spec, _, err := lab.New().Resolve(estSpec(nil, "mle"))
	if err != nil {
		t.Fatal(err)
	}
	want := estimatekind.Spec{Pages: 1000, Epochs: 20, Pool: 5, Paths: 50, PathRate: 1, PathSpread: 700 * estimate.Hour,
		Crawl: estimatekind.Crawl{Mode: "sequential", Initial: 1, Fraction: 0.8},
		Prior: estimatekind.PriorOptions{Steps: 1000, Restarts: 8}}
	if *estimatekind.SpecOf(spec) != want {
		t.Errorf("resolved %+v, want %+v", *estimatekind.SpecOf(spec), want)
	}
	fixed, _, err := lab.New().Resolve(estSpec(&estimatekind.Spec{Crawl: estimatekind.Crawl{Mode: "fixed", Initial: 2, Fraction: 0.5}}, "naive"))
	if err != nil || estimatekind.SpecOf(fixed).Crawl.Fraction != 0 {
		t.Errorf("fixed crawl: %+v, %v; want fraction 0 (every interval the initial one)", estimatekind.SpecOf(fixed), err)
	}
	// A dataset without true rates observes real histories, every 2nd cycle.
	jordan := estSpec(nil, "mle")
	jordan.Dataset.ID = "alqaaideh-jordan"
	js, _, err := lab.New().Resolve(jordan)
	if err != nil || estimatekind.SpecOf(js).Every != 2 || js.Repeats != 1 || estimatekind.SpecOf(js).Pages != 1140 {
		t.Errorf("jordan: %+v repeats %d, %v; want every 2, one repeat, all 1140 pages", estimatekind.SpecOf(js), js.Repeats, err)
	}
}

// TestEstimateResolveErrors checks that bad estimate specs name their field.
func TestEstimateResolveErrors(t *testing.T) {
	for _, tc := range []struct {
		name, field string
		spec        lab.Spec
	}{
		{"refresh policy", "policies[0].id", estSpec(nil, "random")},
		{"unknown estimator", "policies[0].id", estSpec(nil, "guess")},
		{"mode", "estimate.crawl.mode", estSpec(&estimatekind.Spec{Crawl: estimatekind.Crawl{Mode: "poisson"}}, "mle")},
		{"initial", "estimate.crawl.initial", estSpec(&estimatekind.Spec{Crawl: estimatekind.Crawl{Initial: -1}}, "mle")},
		{"fraction", "estimate.crawl.fraction", estSpec(&estimatekind.Spec{Crawl: estimatekind.Crawl{Fraction: -1}}, "mle")},
		{"epochs", "estimate.epochs", estSpec(&estimatekind.Spec{Epochs: 1001}, "mle")},
		{"pool", "estimate.pool", estSpec(&estimatekind.Spec{Epochs: 3, Pool: 4}, "mle")},
		{"pages", "estimate.pages", estSpec(&estimatekind.Spec{Pages: -2}, "mle")},
		{"every", "estimate.every", estSpec(&estimatekind.Spec{Every: 31}, "mle")},
		{"rate with every", "estimate.rate", estSpec(&estimatekind.Spec{Every: 2, Rate: 1}, "mle")},
		{"every on one cycle", "estimate.every", lab.Spec{Kind: estimatekind.ID, Dataset: lab.DatasetRef{ID: "taleghani-example"}, Policies: ids("mle")}},
		{"pseudo-interval out of range", "policies[0].params", lab.Spec{Kind: estimatekind.ID, Dataset: lab.DatasetRef{ID: "grimes-ford"},
			Policies: []lab.PolicySpec{{ID: "pseudo-mle", Params: param.Values{"changed": -1.0}}}}},
		{"budget", "budget", lab.Spec{Kind: estimatekind.ID, Dataset: lab.DatasetRef{ID: "grimes-ford"}, Budget: 5, Policies: ids("mle")}},
		{"estimator in a refresh spec", "policies[0].id", lab.Spec{Dataset: lab.DatasetRef{ID: "grimes-ford"}, Policies: ids("mle")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := lab.New().Run(tc.spec)
			var se *lab.SpecError
			if !errors.As(err, &se) || se.Field != tc.field {
				t.Errorf("error %v, want a SpecError on %s", err, tc.field)
			}
		})
	}
}

// TestEstimateExpectation checks the simulated mean estimate against its
// exact expectation (expectedEstimate: X is Binomial(n, 1 − e^{−λI}) under
// a fixed interval) for the naive, Cho & Garcia-Molina and MLE estimators,
// at every epoch, for two intervals around the true rate of one change a
// day. Each repeat's mean over 200 pages is one draw; over 60 repeats the
// mean must lie within 4 standard errors (the repeats' SD/√60), which a
// correct pair fails with probability about 6e-5 per comparison (normal
// approximation; 3 × 2 × 8 comparisons, so about 3e-3 for the test). The
// naive expectation is (1 − e^{−λI})/I at every epoch: below λ, so the
// test also checks the bias §3.2 describes.
func TestEstimateExpectation(t *testing.T) {
	for _, interval := range []float64{0.5, 2} {
		es := &estimatekind.Spec{Rate: 1, Pages: 200, Epochs: 8, Crawl: estimatekind.Crawl{Mode: "fixed", Initial: interval}}
		spec := estSpec(es, "naive", "cho-garcia-molina", "mle")
		spec.Repeats = 60
		res := run(t, spec)
		for _, p := range res.Policies {
			e := estimatekind.PolicyResultOf(p)
			if len(e.Expected) != 8 || e.TrueRate != 1 {
				t.Fatalf("%s: expected %v, true rate %v", p.ID, e.Expected, e.TrueRate)
			}
			mean := p.Series[estimatekind.MetricRateEstimate]
			if len(mean) != 8 {
				t.Fatalf("%s: mean estimate over %d epochs, want 8", p.ID, len(mean))
			}
			if x, ok := p.Fact(estimatekind.FactExpectedEstimate); !ok || x != e.Expected[7] {
				t.Errorf("%s: fact expectedEstimate %v (%v), want the last epoch's expectation %v", p.ID, x, ok, e.Expected[7])
			}
			if h := p.Metric(estimatekind.MetricRateEstimate); h != mean[7] {
				t.Errorf("%s: headline estimate %+v, want the last epoch's %+v", p.ID, h, mean[7])
			}
			for k, s := range mean {
				se := s.SD / math.Sqrt(float64(s.N))
				if d := math.Abs(s.Mean - e.Expected[k]); d > 4*se {
					t.Errorf("I=%v %s epoch %d: mean %.5f, expected %.5f (|d| %.2g > 4 SE %.2g)", interval, p.ID, k+1, s.Mean, e.Expected[k], d, 4*se)
				}
			}
			if p.ID == "naive" {
				want := -math.Expm1(-interval) / interval
				for k, x := range e.Expected {
					if math.Abs(x-want) > 1e-12 {
						t.Errorf("naive expectation at epoch %d: %v, want (1 − e^{−λI})/I = %v", k+1, x, want)
					}
				}
			}
		}
	}
}

// TestEstimateMatchesPaths checks the runner against estimate.Paths
// directly: repeat r of estimator id is Paths.Run on the first Pages of the
// dataset's rates with Stream(seed, id, r).
func TestEstimateMatchesPaths(t *testing.T) {
	es := &estimatekind.Spec{Pages: 300, Epochs: 6, Crawl: estimatekind.Crawl{Initial: 3}}
	res := run(t, estSpec(es, "mle"))
	l := lab.New()
	d, _ := l.Dataset("grimes-ford")
	p := estimate.Paths{Estimator: estimate.MLE{}, Schedule: estimate.Schedule{Initial: 3, Fraction: 0.8}, Epochs: 6, Pool: 5}
	var pooled []float64
	for r := range 3 {
		s, err := p.Run(d.Truth.Rates[:300], lab.Stream(4, "mle", r))
		if err != nil {
			t.Fatal(err)
		}
		pooled = append(pooled, s.PooledMAD)
	}
	got := res.Policies[0].Metric(estimatekind.MetricMAD)
	mean := (pooled[0] + pooled[1] + pooled[2]) / 3
	if got.N != 3 || math.Abs(got.Mean-mean) > 1e-12*mean {
		t.Errorf("headline MAD %+v, want the mean %v of the repeats' pooled MADs %v", got, mean, pooled)
	}
	if n := len(estimatekind.PolicyResultOf(res.Policies[0]).Paths); n != 50 {
		t.Errorf("%d paths, want 50", n)
	}
	for j, q := range estimatekind.PolicyResultOf(res.Policies[0]).Paths {
		want := 700 * estimate.Hour * float64(j+1) / 50
		if math.Abs(q.Initial-want) > 1e-9 || len(q.Steps) != 6 || q.Rate != 1 {
			t.Errorf("path %d: initial %v (want %v), %d steps, rate %v", j, q.Initial, want, len(q.Steps), q.Rate)
		}
	}
}

// TestEstimateEdgeCases checks that the MLE's early epochs are mostly edge
// cases and that estimators with a prior have none (§4.1, §4.4).
func TestEstimateEdgeCases(t *testing.T) {
	res := run(t, estSpec(&estimatekind.Spec{Pages: 300, Epochs: 10}, "mle", "pseudo-mle"))
	mle := estimatekind.PolicyResultOf(res.Policies[0])
	mleEdge, pseudoEdge := res.Policies[0].Series[estimatekind.MetricEdgeShare], res.Policies[1].Series[estimatekind.MetricEdgeShare]
	if len(mleEdge) != 10 || len(pseudoEdge) != 10 {
		t.Fatalf("edge share over %d and %d epochs, want 10", len(mleEdge), len(pseudoEdge))
	}
	if mleEdge[0].Mean != 1 {
		t.Errorf("after one crawl every MLE estimate is an edge case, got share %v", mleEdge[0].Mean)
	}
	if !(mleEdge[9].Mean < mleEdge[0].Mean) {
		t.Errorf("edge share did not fall: %v then %v", mleEdge[0].Mean, mleEdge[9].Mean)
	}
	for k, s := range pseudoEdge {
		if s.Mean != 0 {
			t.Errorf("pseudo-mle epoch %d: edge share %v, want 0", k+1, s.Mean)
		}
	}
	if x := mle.NoChange[0].Mean + mle.AllChanged[0].Mean; math.Abs(x-mleEdge[0].Mean) > 1e-12 {
		t.Errorf("edge %v ≠ no change + all changed %v", mleEdge[0].Mean, x)
	}
}

// TestEstimatePriorFit checks the pseudo-mle's fitted prior: reported as
// computed parameters, with its spread across restarts, the induced masses
// on the empirical bins, and explicit lengths used as given.
func TestEstimatePriorFit(t *testing.T) {
	spec := estSpec(&estimatekind.Spec{Pages: 500, Epochs: 5, Prior: estimatekind.PriorOptions{Steps: 300, Restarts: 4}}, "pseudo-mle", "posterior-mean")
	res := run(t, spec)
	p := res.Policies[0]
	pr := estimatekind.PolicyResultOf(p).Prior
	if pr == nil || !pr.Fitted || pr.Restarts != 4 || len(p.Auto) != 2 {
		t.Fatalf("prior %+v, auto %v", pr, p.Auto)
	}
	if p.Params["changed"] != pr.Changed || p.Params["unchanged"] != pr.Unchanged || !(pr.Changed > 0 && pr.Unchanged > 0) {
		t.Errorf("params %v, fitted %v, %v", p.Params, pr.Changed, pr.Unchanged)
	}
	if !(pr.ChangedMin <= pr.Changed && pr.Changed <= pr.ChangedMax && pr.LossMin == pr.Loss && pr.Loss <= pr.LossMax) {
		t.Errorf("spread %+v does not bracket the best", pr)
	}
	if len(pr.Induced) != len(pr.Empirical) || len(pr.Edges) != len(pr.Empirical)+1 || pr.Edges[1] != estimate.Hour {
		t.Errorf("bins: %d induced, %d empirical, %d edges, first bin %v days", len(pr.Induced), len(pr.Empirical), len(pr.Edges), pr.Edges[1])
	}
	sum := pr.Outside
	for _, m := range pr.Empirical {
		sum += m
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("empirical masses and outside share sum to %v", sum)
	}
	if estimatekind.PolicyResultOf(res.Policies[1]).Prior == nil || estimatekind.PolicyResultOf(res.Policies[1]).Prior.Induced != nil {
		t.Errorf("posterior-mean's prior: %+v", estimatekind.PolicyResultOf(res.Policies[1]).Prior)
	}
	// Given lengths are used, not fitted, and echoed.
	spec.Policies = []lab.PolicySpec{{ID: "pseudo-mle", Params: param.Values{"changed": 2.0, "unchanged": 3.0}}}
	res = run(t, spec)
	if pr := estimatekind.PolicyResultOf(res.Policies[0]).Prior; pr.Fitted || pr.Changed != 2 || pr.Unchanged != 3 || len(res.Policies[0].Auto) != 0 {
		t.Errorf("given lengths: %+v", pr)
	}
	// One given length: the other keeps its fitted value.
	fitted := p.Params["changed"]
	spec.Policies = []lab.PolicySpec{{ID: "pseudo-mle", Params: param.Values{"unchanged": 3.0}}}
	res = run(t, spec)
	if q := res.Policies[0]; q.Params["changed"] != fitted || q.Params["unchanged"] != 3.0 || len(q.Auto) != 1 || q.Auto[0] != "changed" || estimatekind.PolicyResultOf(q).Prior.Fitted {
		t.Errorf("one given length: params %v, auto %v, fitted %v", q.Params, q.Auto, estimatekind.PolicyResultOf(q).Prior.Fitted)
	}
}

// TestEstimateSweep runs Fig. 4's sweep over the initial interval: one MAD
// per value, and an estimator that chooses its own first interval
// (priorStart) is flat along it.
func TestEstimateSweep(t *testing.T) {
	spec := estSpec(&estimatekind.Spec{Pages: 300, Epochs: 5, Crawl: estimatekind.Crawl{PriorStart: true}}, "mle", "pseudo-mle")
	spec.Sweep = &lab.Sweep{Field: "estimate.crawl.initial", Values: []float64{1, 5, 10, 20}}
	res := run(t, spec)
	sw := res.Sweep
	if sw == nil || len(sw.Policies) != 2 {
		t.Fatalf("sweep %+v", sw)
	}
	mleMAD, pseudoMAD := sw.Policies[0].Metrics[estimatekind.MetricMAD], sw.Policies[1].Metrics[estimatekind.MetricMAD]
	if len(mleMAD) != 4 || len(pseudoMAD) != 4 {
		t.Fatalf("sweep: %d MADs for mle, %d for pseudo-mle, want 4", len(mleMAD), len(pseudoMAD))
	}
	if mleMAD[0].Mean == mleMAD[3].Mean {
		t.Error("the MLE's MAD does not depend on the initial interval")
	}
	for i, s := range pseudoMAD {
		if s != pseudoMAD[0] {
			t.Errorf("pseudo-mle with priorStart at value %d: %+v, want %+v (flat)", i, s, pseudoMAD[0])
		}
	}
	if estimatekind.SpecOf(res.Spec).Crawl.Initial != 1 {
		t.Errorf("the echo's initial interval %v, want the default 1", estimatekind.SpecOf(res.Spec).Crawl.Initial)
	}
	// Best: the MLE rerun in full at its best start, exactly the run with
	// that first interval; none for the flat pseudo-mle.
	best := estimatekind.PolicyResultOf(res.Policies[0]).Best
	if best == nil || estimatekind.PolicyResultOf(res.Policies[1]).Best != nil {
		t.Fatalf("best: mle %+v, pseudo-mle %+v", best, estimatekind.PolicyResultOf(res.Policies[1]).Best)
	}
	if len(best.MADSeries) != 5 {
		t.Errorf("best run: MAD over %d epochs, want all 5", len(best.MADSeries))
	}
	at := 0
	for k, v := range mleMAD {
		if v.Mean < mleMAD[at].Mean {
			at = k
		}
	}
	if best.Initial != spec.Sweep.Values[at] {
		t.Errorf("best initial %v, want %v (lowest MAD)", best.Initial, spec.Sweep.Values[at])
	}
	if x, ok := res.Policies[0].Fact(estimatekind.FactBestInitial); !ok || x != best.Initial {
		t.Errorf("mle's fact bestInitial %v (%v), want %v", x, ok, best.Initial)
	}
	if x, ok := res.Policies[1].Fact(estimatekind.FactBestInitial); ok {
		t.Errorf("flat pseudo-mle has a bestInitial %v", x)
	}
	direct := spec
	direct.Sweep = nil
	direct.Sections = direct.Sections.With(estimatekind.ID, &estimatekind.Spec{Pages: 300, Epochs: 5, Crawl: estimatekind.Crawl{Initial: best.Initial}})
	dres := run(t, direct)
	if got, want := fmt.Sprint(best.MADSeries), fmt.Sprint(dres.Policies[0].Series[estimatekind.MetricMAD]); got != want || best.MAD != dres.Policies[0].Metric(estimatekind.MetricMAD) {
		t.Errorf("best run %s, direct run %s", got, want)
	}
	if _, err := lab.New().With(spec, "estimate.nonsense", 1); err == nil {
		t.Error("With accepted estimate.nonsense")
	}
}

// TestEstimateDeterministic checks that a spec gives the same bytes twice
// and that adding an estimator leaves another's numbers alone.
func TestEstimateDeterministic(t *testing.T) {
	es := &estimatekind.Spec{Pages: 200, Epochs: 6}
	a := run(t, estSpec(es, "mle", "naive"))
	b := run(t, estSpec(es, "naive"))
	ja, _ := json.Marshal(a.Policies[1])
	jb, _ := json.Marshal(b.Policies[0])
	if !bytes.Equal(ja, jb) {
		t.Error("naive's result changed when mle was added")
	}
	c := run(t, estSpec(es, "mle", "naive"))
	jc, _ := json.Marshal(c)
	ja, _ = json.Marshal(a)
	if !bytes.Equal(ja, jc) {
		t.Error("same spec, different result")
	}
}

// TestEstimateObservedJordan estimates from the real-history shape: the
// Jordan sample's per-cycle truth observed every k-th day. With k = 1 the
// MLE on the whole history is the reference itself, so its deviation at
// the last epoch (every page crawled all 21 days) is exactly 0; pages whose
// full history is an edge case are excluded, and compared + excluded is
// every page.
func TestEstimateObservedJordan(t *testing.T) {
	spec := lab.Spec{Kind: estimatekind.ID, Dataset: lab.DatasetRef{ID: "alqaaideh-jordan"}, Policies: ids("mle", "naive"),
		Sections: lab.Sections{estimatekind.ID: &estimatekind.Spec{Every: 1, Epochs: 21}}}
	res := run(t, spec)
	mle := estimatekind.PolicyResultOf(res.Policies[0])
	if mle.Pages+mle.Excluded != 1140 || mle.Pages == 0 || mle.Excluded == 0 {
		t.Errorf("%d pages compared, %d excluded, want 1140 in all", mle.Pages, mle.Excluded)
	}
	if mad := res.Policies[0].Series[estimatekind.MetricMAD]; len(mad) != 21 || mad[20].Mean != 0 {
		t.Errorf("MLE at the last of %d epochs: MAD %+v, want exactly 0", len(mad), mad[len(mad)-1])
	}
	if res.Policies[1].Series[estimatekind.MetricMAD][20].Mean == 0 {
		t.Error("the naive estimator matches the MLE reference exactly, which it cannot on censored days")
	}
	if per := res.Policies[0].Series[estimatekind.MetricMADPeriod]; len(per) != 21 || per[20].Mean != 0 || !(res.Policies[0].Metric(estimatekind.MetricMADPeriod).Mean > 0) {
		t.Errorf("MLE's error in the period: last epoch %+v (want exactly 0), pooled %+v (want positive)", per[len(per)-1], res.Policies[0].Metric(estimatekind.MetricMADPeriod))
	}
	// Every 3rd day: 7 intervals of 3 days.
	spec.Sections = spec.Sections.With(estimatekind.ID, &estimatekind.Spec{Every: 3})
	res = run(t, spec)
	if m, mad := estimatekind.PolicyResultOf(res.Policies[0]), res.Policies[0].Series[estimatekind.MetricMAD]; len(mad) != 7 || m.Interval[0].Mean != 3 || !(mad[6].Mean > 0) {
		t.Errorf("every 3rd day: %d epochs, first interval %v days, last MAD %v", len(mad), m.Interval[0].Mean, mad[len(mad)-1].Mean)
	}
}

// TestEstimateObservedTrueRates observes grimes-ford's per-cycle truth every
// 2nd day and compares with the pages' true rates (Truth.Rates): no page is
// excluded, and the MLE's MAD falls from the first epoch to the last.
func TestEstimateObservedTrueRates(t *testing.T) {
	res := run(t, estSpec(&estimatekind.Spec{Every: 2, Pages: 2000}, "mle"))
	m, mad := estimatekind.PolicyResultOf(res.Policies[0]), res.Policies[0].Series[estimatekind.MetricMAD]
	if m.Pages != 2000 || m.Excluded != 0 || len(mad) != 15 {
		t.Fatalf("%d pages, %d excluded, %d epochs (want 15: 30 days every 2nd)", m.Pages, m.Excluded, len(mad))
	}
	if !(mad[14].Mean < mad[0].Mean) {
		t.Errorf("MAD did not fall: %v then %v", mad[0].Mean, mad[14].Mean)
	}
}

// TestEstimateEventLogOTA estimates from the real Open Terms Archive logs
// kept beside the project in ../shared/data, not in the repository (the
// test skips, saying so, where they are absent): the pages on the 12-hour run
// grid since 2023 observed every 4th run (2 days), compared with the MLE on
// every run. Real change processes are not Poisson, so we check only what
// must hold: the reference exists for some pages, every estimator gives a
// finite MAD at every epoch, the MLE's MAD falls from its first epoch (all
// edge cases) to its last, and the pseudo-intervals leave no edge case.
// (These pages change about once a month or less, so at a 2-day interval
// censoring barely biases the naive estimator; the logs show it.)
func TestEstimateEventLogOTA(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "data")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("skipped: the real Open Terms Archive change logs are not here (no folder %s beside the project)", dir)
	}
	for _, name := range []string{"ota-pga-versions", "ota-dating-versions"} {
		t.Run(name, func(t *testing.T) {
			f, err := os.ReadFile(filepath.Join(dir, name, "events.csv"))
			if err != nil {
				t.Fatal(err)
			}
			d, _, err := dataset.ReadEventLog(bytes.NewReader(f), dataset.EventLogOptions{Name: name, CycleLength: 12 * 3600,
				Start: time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)})
			if err != nil {
				t.Fatal(err)
			}
			l := lab.New()
			l.AddUpload(d)
			res, err := l.Run(lab.Spec{Kind: estimatekind.ID, Dataset: lab.DatasetRef{ID: d.Info.ID}, Policies: ids("mle", "naive", "pseudo-mle"),
				Sections: lab.Sections{estimatekind.ID: &estimatekind.Spec{Every: 4, Epochs: 200}}})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range res.Policies {
				e, mad := estimatekind.PolicyResultOf(p), p.Series[estimatekind.MetricMAD]
				if e.Pages == 0 {
					t.Fatalf("%s: no page compared (%d excluded)", p.ID, e.Excluded)
				}
				for k, s := range mad {
					if math.IsNaN(s.Mean) || math.IsInf(s.Mean, 0) {
						t.Errorf("%s epoch %d: MAD %v", p.ID, k+1, s.Mean)
					}
				}
				t.Logf("%s: %d pages (%d excluded), %d epochs, MAD first %.4f last %.4f per day, edge share (first %d) %.2f",
					p.ID, e.Pages, e.Excluded, len(mad), mad[0].Mean, mad[len(mad)-1].Mean, estimatekind.SpecOf(res.Spec).Pool, p.Metric(estimatekind.MetricEdgeShare).Mean)
			}
			mle, pseudo := res.Policies[0].Series[estimatekind.MetricMAD], res.Policies[2]
			if last := len(mle) - 1; !(mle[last].Mean < mle[0].Mean) {
				t.Errorf("MLE MAD did not fall: first %v, last %v", mle[0].Mean, mle[last].Mean)
			}
			if es := pseudo.Metric(estimatekind.MetricEdgeShare); es.Mean != 0 {
				t.Errorf("pseudo-mle edge share %v, want 0", es.Mean)
			}
		})
	}
}

// TestEstimateCatalog checks the estimate kind's catalog entries: kind
// set, every id runs.
func TestEstimateCatalog(t *testing.T) {
	var est []string
	for _, d := range lab.Policies() {
		if d.Kind == estimatekind.ID {
			est = append(est, d.ID)
		}
	}
	if len(est) != 9 || !strings.Contains(strings.Join(est, ","), "pseudo-mle") {
		t.Fatalf("estimate entries %v", est)
	}
	res := run(t, estSpec(&estimatekind.Spec{Pages: 100, Epochs: 4, Prior: estimatekind.PriorOptions{Steps: 100, Restarts: 2}}, est...))
	for _, p := range res.Policies {
		if mad := p.Metric(estimatekind.MetricMAD); mad.N != 3 || math.IsNaN(mad.Mean) {
			t.Errorf("%s: headline MAD %+v", p.ID, mad)
		}
	}
}

// TestMedianIntervalsHaveWidth checks the intervals of the median metrics
// (MAD, headline and per epoch, and the median error in the period) on one
// rate crawled daily, where the estimates are a few fractions and a median
// often lands on the same one in every repeat: such a summary has no
// interval rather than one of zero width, and every other has a positive
// width.
func TestMedianIntervalsHaveWidth(t *testing.T) {
	spec := estSpec(&estimatekind.Spec{Rate: 1, Pages: 200, Epochs: 30, Paths: 1, Crawl: estimatekind.Crawl{Mode: estimatekind.CrawlFixed, Initial: 1}}, "naive", "cho-garcia-molina")
	spec.Repeats, spec.Seed = 8, 4
	res := run(t, spec)
	ties := 0
	for _, p := range res.Policies {
		all := map[string]stat.Series{"mad": p.Series[estimatekind.MetricMAD], "madPeriod": p.Series[estimatekind.MetricMADPeriod],
			"headline": {p.Metric(estimatekind.MetricMAD)}, "period headline": {p.Metric(estimatekind.MetricMADPeriod)}}
		for name, ser := range all {
			for e, s := range ser {
				switch {
				case math.IsNaN(s.Lo) && math.IsNaN(s.Hi):
					ties++
				case !(s.Hi > s.Lo):
					t.Errorf("%s %s at %d: interval [%v, %v] of no width", p.ID, name, e, s.Lo, s.Hi)
				}
			}
		}
	}
	if ties == 0 {
		t.Error("no median came out the same in every repeat: the test checks nothing")
	}
}

// TestMADPeriodInHours checks the median error in the change period
// against the simulation it summarises: each repeat's pooled median of
// |1/λ̂ − 1/λ| (estimate.Paths, on the same random stream), in hours.
func TestMADPeriodInHours(t *testing.T) {
	spec := estSpec(&estimatekind.Spec{Pages: 300, Epochs: 8, Pool: 3, Crawl: estimatekind.Crawl{Initial: 2}}, "mle")
	spec.Repeats = 2
	res := run(t, spec)
	d, _ := lab.New().Dataset("grimes-ford")
	p := &estimate.Paths{Estimator: estimate.MLE{}, Schedule: estimate.Schedule{Initial: 2, Fraction: estimatekind.DefaultFraction}, Epochs: 8, Pool: 3}
	sum := 0.0
	for r := range 2 {
		s, err := p.Run(d.Truth.Rates[:300], lab.Stream(spec.Seed, "mle", r))
		if err != nil {
			t.Fatal(err)
		}
		sum += s.PooledMADPeriod * 24
	}
	got := res.Policies[0].Metric(estimatekind.MetricMADPeriod)
	if math.Abs(got.Mean-sum/2) > 1e-9*sum || got.N != 2 {
		t.Errorf("madPeriod %+v, want the mean of the repeats' pooled errors in hours, %v", got, sum/2)
	}
	if m, ok := lab.MetricByID(estimatekind.MetricMADPeriod); !ok || m.Unit != "hour" || !m.AppliesTo(estimatekind.ID) {
		t.Errorf("catalog: %+v", m)
	}
	if per := res.Policies[0].Series[estimatekind.MetricMADPeriod]; len(per) != 8 {
		t.Errorf("madPeriod per epoch: %d epochs, want 8", len(per))
	}
}
