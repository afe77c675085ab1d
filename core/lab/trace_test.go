package lab_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/estimate/estimatekind"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/stat"
)

// refreshPolicies lists the ids of the catalog's refresh policies.
func refreshPolicies() []string {
	var out []string
	for _, d := range lab.Policies() {
		if d.Kind == lab.KindRefresh {
			out = append(out, d.ID)
		}
	}
	return out
}

// samplers are the refresh policies that spend part of their budget on
// samples (refresh.Crawl.Sample); every other refresh policy spends none.
var samplers = map[string]bool{
	"site-greedy": true, "site-proportional": true, "site-adaptive": true, "site-grouped": true,
	"greedy-sample-allocation": true, "frequency-greedy": true, "frequency-greedy-log": true,
	"category-greedy": true, "category-proportional": true, "cluster-sampling": true,
}

// traceDatasets are the datasets every policy is traced on, with the
// cycles played (fewer on the larger ones, to keep the test short).
var traceDatasets = []struct {
	id     string
	cycles int
}{
	{"alqaaideh-jordan", 0},
	{"topic-web", 6},
	{"tan-webarchive-small", 4},
	{"cho-garcia-molina-5", 40},
}

// same reports whether two numbers are equal to the last bit, or both NaN.
func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// TestTraceEqualsRun checks, for every refresh policy on several datasets,
// that a trace of repeat 0 has, cycle by cycle, the ChangeRatio and
// freshness of a run of one repeat (its per-cycle series), and the run's
// headline numbers; and that sampling policies, and only they, record
// samples, which count among the downloads.
func TestTraceEqualsRun(t *testing.T) {
	l := lab.New()
	for _, ds := range traceDatasets {
		for _, id := range refreshPolicies() {
			t.Run(ds.id+"/"+id, func(t *testing.T) {
				spec := lab.Spec{Dataset: lab.DatasetRef{ID: ds.id}, Cycles: ds.cycles, Repeats: 1, Seed: 7, Policies: ids(id)}
				res, err := l.Run(spec)
				if err != nil {
					t.Fatal(err)
				}
				tr, err := l.Trace(spec, id, 0, 0)
				if err != nil {
					t.Fatal(err)
				}
				pr := res.Policies[0]
				cr, fr := pr.Series[lab.MetricChangeRatio], pr.Series[lab.MetricFreshness]
				if len(tr.Cycles) != len(cr) {
					t.Fatalf("%d cycles traced, the run has %d", len(tr.Cycles), len(cr))
				}
				samples := 0
				for c, cy := range tr.Cycles {
					if !same(cy.ChangeRatio, cr[c].Mean) || !same(cy.Freshness, fr[c].Mean) {
						t.Errorf("cycle %d: trace ChangeRatio %v freshness %v, run %v %v", c, cy.ChangeRatio, cy.Freshness, cr[c].Mean, fr[c].Mean)
					}
					tot := cy.Totals
					if tot.Downloads > 0 && !same(cy.ChangeRatio, float64(tot.Found)/float64(tot.Downloads)) {
						t.Errorf("cycle %d: ChangeRatio %v is not %d found / %d downloads", c, cy.ChangeRatio, tot.Found, tot.Downloads)
					}
					if n := tr.Dataset.Pages; !same(cy.Freshness, 1-float64(n-tot.Fresh)/float64(n)) {
						t.Errorf("cycle %d: freshness %v is not 1 − %d stale / %d pages", c, cy.Freshness, n-tot.Fresh, n)
					}
					if tot.Samples > tot.Downloads {
						t.Errorf("cycle %d: %d samples of %d downloads", c, tot.Samples, tot.Downloads)
					}
					samples += tot.Samples
				}
				if samplers[id] != (samples > 0) {
					t.Errorf("%d samples in all; a sampling policy: %v", samples, samplers[id])
				}
				if !same(tr.ChangeRatio, pr.Metrics[lab.MetricChangeRatio].Mean) || !same(tr.Freshness, pr.Metrics[lab.MetricFreshness].Mean) {
					t.Errorf("repeat's ChangeRatio %v freshness %v, run's %v %v", tr.ChangeRatio, tr.Freshness,
						pr.Metrics[lab.MetricChangeRatio].Mean, pr.Metrics[lab.MetricFreshness].Mean)
				}
			})
		}
	}
}

// TestSamplersListed keeps samplers honest: it names only policies of the
// catalog, so a renamed policy cannot slip out of TestTraceEqualsRun's
// check.
func TestSamplersListed(t *testing.T) {
	all := refreshPolicies()
	for id := range samplers {
		if !slices.Contains(all, id) {
			t.Errorf("samplers lists %q, which is not a refresh policy of the catalog", id)
		}
	}
}

// TestTraceRepeats checks later repeats: the traces of every repeat of a
// run, summarised as the runner summarises them, give the run's per-cycle
// series to the last bit, so each trace is that repeat and no other.
func TestTraceRepeats(t *testing.T) {
	l := lab.New()
	const reps = 3
	for _, id := range refreshPolicies() {
		t.Run(id, func(t *testing.T) {
			spec := lab.Spec{Dataset: lab.DatasetRef{ID: "alqaaideh-jordan"}, Cycles: 8, Repeats: reps, Seed: 3, Policies: ids(id)}
			res, err := l.Run(spec)
			if err != nil {
				t.Fatal(err)
			}
			var cr, fr [][]float64 // per cycle, per repeat
			for r := range reps {
				tr, err := l.Trace(spec, id, r, 0)
				if err != nil {
					t.Fatal(err)
				}
				for c, cy := range tr.Cycles {
					if r == 0 {
						cr, fr = append(cr, nil), append(fr, nil)
					}
					cr[c], fr[c] = append(cr[c], cy.ChangeRatio), append(fr[c], cy.Freshness)
				}
			}
			pr := res.Policies[0]
			for c := range cr {
				got, want := stat.Summarize(cr[c]), pr.Series[lab.MetricChangeRatio]
				if !same(got.Mean, want[c].Mean) || !same(got.SD, want[c].SD) {
					t.Errorf("cycle %d: traces' ChangeRatio %v ± sd %v, run's %v ± %v", c, got.Mean, got.SD, want[c].Mean, want[c].SD)
				}
				gotF, wantF := stat.Summarize(fr[c]), pr.Series[lab.MetricFreshness]
				if !same(gotF.Mean, wantF[c].Mean) || !same(gotF.SD, wantF[c].SD) {
					t.Errorf("cycle %d: traces' freshness %v ± sd %v, run's %v ± %v", c, gotF.Mean, gotF.SD, wantF[c].Mean, wantF[c].SD)
				}
			}
		})
	}
}

// union returns a | b.
func union(a, b lab.Bits) lab.Bits {
	out := slices.Clone(a)
	for i := range out {
		out[i] |= b[i]
	}
	return out
}

// TestTracePages checks the pages of a trace that shows them all, cycle
// by cycle: a page found changed was out of date and downloaded; a page is
// stale after the cycle when it was out of date and not downloaded; a
// cycle starts as the last ended; and the shown pages' counts are the
// cycle's totals (samples among the downloads).
func TestTracePages(t *testing.T) {
	l := lab.New()
	for _, id := range refreshPolicies() {
		t.Run(id, func(t *testing.T) {
			spec := lab.Spec{Dataset: lab.DatasetRef{ID: "alqaaideh-jordan"}, Repeats: 1, Seed: 11, Policies: ids(id)}
			tr, err := l.Trace(spec, id, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			n := tr.Dataset.Pages
			if len(tr.Pages) != n || len(tr.Labels) != n {
				t.Fatalf("%d pages and %d labels shown of %d", len(tr.Pages), len(tr.Labels), n)
			}
			seen := make([]bool, n)
			for _, p := range tr.Pages {
				if seen[p] {
					t.Fatalf("page %d shown twice", p)
				}
				seen[p] = true
			}
			for c, cy := range tr.Cycles {
				tot := cy.Totals
				due := union(cy.Stale, cy.Changed)
				fetched := union(cy.Sampled, cy.Downloaded)
				for i := range n {
					if cy.Found.Has(i) != (due.Has(i) && fetched.Has(i)) {
						t.Fatalf("cycle %d, page %d: found %v, out of date %v, downloaded %v", c, tr.Pages[i], cy.Found.Has(i), due.Has(i), fetched.Has(i))
					}
					if cy.StaleAfter.Has(i) != (due.Has(i) && !fetched.Has(i)) {
						t.Fatalf("cycle %d, page %d: stale after %v, out of date %v, downloaded %v", c, tr.Pages[i], cy.StaleAfter.Has(i), due.Has(i), fetched.Has(i))
					}
				}
				if c > 0 && !slices.Equal(cy.Stale, tr.Cycles[c-1].StaleAfter) {
					t.Errorf("cycle %d does not start as cycle %d ended", c, c-1)
				}
				if cy.Changed.Count() != tot.Changed || cy.Stale.Count() != tot.Stale || due.Count() != tot.OutOfDate ||
					cy.Found.Count() != tot.Found || n-cy.StaleAfter.Count() != tot.Fresh {
					t.Errorf("cycle %d: shown changed %d stale %d out of date %d found %d fresh %d; totals %+v",
						c, cy.Changed.Count(), cy.Stale.Count(), due.Count(), cy.Found.Count(), n-cy.StaleAfter.Count(), tot)
				}
				// A page may be downloaded twice in a cycle (the second
				// download finds nothing), so the pages are at most the
				// downloads; none of these policies does it on this run.
				if fetched.Count() != tot.Downloads || cy.Sampled.Count() != tot.Samples {
					t.Errorf("cycle %d: %d pages downloaded, %d sampled; totals %d downloads, %d samples",
						c, fetched.Count(), cy.Sampled.Count(), tot.Downloads, tot.Samples)
				}
			}
		})
	}
}

// TestTraceGroups checks how a trace groups its pages: by site, or by the
// policy's own groups (categories, clusters) when it has them, every page
// in one group.
func TestTraceGroups(t *testing.T) {
	l := lab.New()
	tests := []struct {
		dataset, policy, groupBy string
	}{
		{"alqaaideh-jordan", "site-greedy", "site"},
		{"alqaaideh-jordan", "random", "site"},
		{"topic-web", "category-greedy", "category"},
		{"topic-web", "cluster-sampling", "cluster"},
	}
	for _, tt := range tests {
		t.Run(tt.policy, func(t *testing.T) {
			spec := lab.Spec{Dataset: lab.DatasetRef{ID: tt.dataset}, Cycles: 3, Repeats: 1, Policies: ids(tt.policy)}
			tr, err := l.Trace(spec, tt.policy, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			d, _ := l.Dataset(tt.dataset)
			if tr.GroupBy != tt.groupBy {
				t.Errorf("grouped by %q, want %q", tr.GroupBy, tt.groupBy)
			}
			at := 0
			for _, g := range tr.Groups {
				if g.Start != at || g.Shown != g.Pages || g.Shown == 0 || g.Name == "" {
					t.Errorf("group %+v after %d pages: want every group whole, named, in order", g, at)
				}
				if tt.groupBy == "site" {
					for _, p := range tr.Pages[g.Start : g.Start+g.Shown] {
						if d.Sites[d.Pages[p].Site] != g.Name {
							t.Errorf("page %d of site %s shown in %s", p, d.Sites[d.Pages[p].Site], g.Name)
						}
					}
				}
				at += g.Shown
			}
			if at != len(d.Pages) || len(tr.Pages) != len(d.Pages) {
				t.Errorf("groups hold %d pages, %d shown, of %d", at, len(tr.Pages), len(d.Pages))
			}
		})
	}
}

// TestTraceShowsPart checks the pages a trace shows of a large dataset:
// at most maxPages, whole sites spread through the list, or the first
// pages of the one site; and that the totals stay those of every page.
func TestTraceShowsPart(t *testing.T) {
	l := lab.New()
	tests := []struct {
		dataset  string
		maxPages int
		whole    bool
		says     string
	}{
		{"tan-webarchive-small", 2000, true, "of the 212 sites, each whole"},
		{"tan-webarchive-small", 300, true, "of the 212 sites, each whole"},
		{"grimes-ford", 500, false, "The first 500 of the 10,000 pages of site"},
	}
	for _, tt := range tests {
		t.Run(tt.dataset, func(t *testing.T) {
			spec := lab.Spec{Dataset: lab.DatasetRef{ID: tt.dataset}, Cycles: 3, Repeats: 1, Policies: ids("site-greedy")}
			tr, err := l.Trace(spec, "site-greedy", 0, tt.maxPages)
			if err != nil {
				t.Fatal(err)
			}
			n := len(tr.Pages)
			if n > tt.maxPages || n < tt.maxPages/2 {
				t.Errorf("%d pages shown, want at most %d and not far fewer", n, tt.maxPages)
			}
			if !strings.Contains(tr.Shown, tt.says) {
				t.Errorf("Shown = %q, want it to say %q", tr.Shown, tt.says)
			}
			first, last := -1, -1
			d, _ := l.Dataset(tt.dataset)
			for _, g := range tr.Groups {
				if tt.whole && g.Shown != g.Pages {
					t.Errorf("site %s: %d of %d pages shown, want it whole", g.Name, g.Shown, g.Pages)
				}
				w := slices.Index(d.Sites, g.Name)
				if first < 0 {
					first = w
				}
				last = w
			}
			if tt.whole && (first > len(d.Sites)/4 || last < 3*len(d.Sites)/4) {
				t.Errorf("sites %d to %d of %d shown: want them spread through the list", first, last, len(d.Sites))
			}
			for c, cy := range tr.Cycles {
				if len(cy.Changed) != (n+7)/8 {
					t.Fatalf("cycle %d: a bitset of %d bytes for %d pages", c, len(cy.Changed), n)
				}
				if cy.Totals.Changed != len(d.Truth.Changed[c]) || cy.Totals.Downloads != spec.Budget && cy.Totals.Downloads != len(d.Pages)/10 {
					t.Errorf("cycle %d: totals %+v, want the dataset's %d changes and the budget's downloads", c, cy.Totals, len(d.Truth.Changed[c]))
				}
			}
		})
	}
}

// longLog is an upload-like dataset of 300 pages over 1,000 cycles, in
// which nothing changes in the first cycle and page i changes in cycle c
// > 0 when i + c is a multiple of 97.
func longLog(t testing.TB) *dataset.Dataset {
	t.Helper()
	d := &dataset.Dataset{Info: dataset.Info{ID: "long-upload", Name: "long", Source: "upload"}}
	d.Sites = []string{"a.example", "b.example", "c.example"}
	for i := range 300 {
		d.Pages = append(d.Pages, dataset.Page{URL: fmt.Sprintf("https://%s/%d", d.Sites[i%3], i), Site: int32(i % 3)})
	}
	d.Truth.Changed = make([][]int32, 1000)
	for c := 1; c < 1000; c++ {
		for i := range int32(300) {
			if (int(i)+c)%97 == 0 {
				d.Truth.Changed[c] = append(d.Truth.Changed[c], i)
			}
		}
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestTraceLimits checks what a trace refuses, and that it says where.
func TestTraceLimits(t *testing.T) {
	l := lab.New()
	l.AddUpload(longLog(t))
	jordan := lab.Spec{Dataset: lab.DatasetRef{ID: "alqaaideh-jordan"}, Repeats: 4, Policies: ids("random", "site-greedy")}
	long := lab.Spec{Dataset: lab.DatasetRef{ID: "long-upload"}, Repeats: 1, Policies: ids("random")}
	tests := []struct {
		name     string
		spec     lab.Spec
		policy   string
		repeat   int
		maxPages int
		field    string
		says     string
	}{
		{"unknown policy", jordan, "oracle", 0, 0, "policy", `"oracle" is not a policy of the spec (expected one of random, site-greedy)`},
		{"negative repeat", jordan, "random", -1, 0, "repeat", "between 0 and 3"},
		{"repeat past the run's", jordan, "random", 4, 0, "repeat", "between 0 and 3"},
		{"too many pages", jordan, "random", 0, lab.MaxTracePages + 1, "maxPages", "between 1 and 5000"},
		{"negative pages", jordan, "random", 0, -5, "maxPages", "between 1 and 5000"},
		{"too many cells", long, "random", 0, 0, "maxPages", "300 pages × 1,000 cycles is 300,000 page-cycles, over the limit of 250,000: ask for at most 250 pages"},
		{"one too many", long, "random", 0, 251, "maxPages", "251 pages × 1,000 cycles"},
		{"bad spec", lab.Spec{Dataset: lab.DatasetRef{ID: "nope"}, Policies: ids("random")}, "random", 0, 0, "dataset.id", "unknown dataset"},
		{"another kind", lab.Spec{Kind: estimatekind.ID}, "mle", 0, 0, "kind", "refresh experiment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := l.Trace(tt.spec, tt.policy, tt.repeat, tt.maxPages)
			var se *lab.SpecError
			if !errors.As(err, &se) {
				t.Fatalf("error %v, want a *SpecError", err)
			}
			if se.Field != tt.field || !strings.Contains(se.Msg, tt.says) {
				t.Errorf("error at %q: %q; want at %q, saying %q", se.Field, se.Msg, tt.field, tt.says)
			}
		})
	}
	// Within the limits.
	if _, err := l.Trace(jordan, "site-greedy", 3, lab.MaxTracePages); err != nil {
		t.Errorf("the last repeat, with the most pages: %v", err)
	}
	if tr, err := l.Trace(long, "random", 0, 250); err != nil || len(tr.Pages) != 200 {
		t.Errorf("the most pages 1,000 cycles allow (two of the three sites of 100 pages): %v", err)
	}
}

// TestTraceJSON checks the trace's JSON: bitsets in base64 that decode to
// the same sets, and a cycle that downloaded nothing with a null
// ChangeRatio (the oracle on a day when no page changed).
func TestTraceJSON(t *testing.T) {
	l := lab.New()
	l.AddUpload(longLog(t))
	spec := lab.Spec{Dataset: lab.DatasetRef{ID: "long-upload"}, Cycles: 50, Repeats: 1, Budget: 1, Policies: ids("oracle")}
	tr, err := l.Trace(spec, "oracle", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Cycles []struct {
			Changed     []byte   `json:"changed"`
			ChangeRatio *float64 `json:"changeRatio"`
		} `json:"cycles"`
		ChangeRatio *float64 `json:"changeRatio"`
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	nulls := 0
	for c, cy := range back.Cycles {
		if !slices.Equal(cy.Changed, tr.Cycles[c].Changed) {
			t.Fatalf("cycle %d: changed %v after JSON, %v before", c, cy.Changed, tr.Cycles[c].Changed)
		}
		switch {
		case cy.ChangeRatio == nil:
			nulls++
			if !math.IsNaN(tr.Cycles[c].ChangeRatio) {
				t.Errorf("cycle %d: null for ChangeRatio %v", c, tr.Cycles[c].ChangeRatio)
			}
		case *cy.ChangeRatio != tr.Cycles[c].ChangeRatio:
			t.Errorf("cycle %d: ChangeRatio %v after JSON, %v before", c, *cy.ChangeRatio, tr.Cycles[c].ChangeRatio)
		}
	}
	if nulls == 0 {
		t.Error("no cycle without downloads: the test needs one")
	}
	if back.ChangeRatio == nil || *back.ChangeRatio != tr.ChangeRatio {
		t.Errorf("the repeat's ChangeRatio %v after JSON, %v before", back.ChangeRatio, tr.ChangeRatio)
	}
}

// doneAfter is a context that is done (cancelled) from its n+1-th call of
// Err on, and counts the calls.
type doneAfter struct {
	context.Context
	n, calls int
}

func (c *doneAfter) Err() error {
	c.calls++
	if c.calls > c.n {
		return context.Canceled
	}
	return nil
}

// TestTraceStops checks that a trace stops with the context's error once
// its context is done: before it starts, and after the cycle in which it
// became done, not at the end of a long log; and that the lab traces in
// full afterwards.
func TestTraceStops(t *testing.T) {
	l := lab.New()
	l.AddUpload(longLog(t))
	spec := lab.Spec{Dataset: lab.DatasetRef{ID: "long-upload"}, Repeats: 1, Policies: ids("change-frequency")}
	for _, n := range []int{0, 1, 10} {
		ctx := &doneAfter{Context: context.Background(), n: n}
		tr, err := l.TraceContext(ctx, spec, "change-frequency", 0, 200)
		if !errors.Is(err, context.Canceled) || tr != nil {
			t.Errorf("done after %d checks: trace %v, error %v; want context.Canceled", n, tr != nil, err)
		}
		// One check before the run, then one after each cycle: the cycle
		// that saw the context done is the last played.
		if ctx.calls != n+1 {
			t.Errorf("done after %d checks: checked %d times, want %d (it played on)", n, ctx.calls, n+1)
		}
	}
	if tr, err := l.TraceContext(context.Background(), spec, "change-frequency", 0, 200); err != nil || len(tr.Cycles) != 1000 {
		t.Errorf("a trace afterwards: %v", err)
	}
}

// BenchmarkTrace measures a trace as the first lesson's crawler view asks
// for it: one repeat of greedy site sampling on the Jordanian sites (1,140
// pages, 21 days), every page shown.
func BenchmarkTrace(b *testing.B) {
	l := lab.New()
	spec := lab.Spec{Dataset: lab.DatasetRef{ID: "alqaaideh-jordan"}, Repeats: 20, Policies: ids("random", "site-greedy")}
	for b.Loop() {
		if _, err := l.Trace(spec, "site-greedy", 0, lab.DefaultTracePages); err != nil {
			b.Fatal(err)
		}
	}
}
