package lab_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/estimate/estimatekind"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/sampling"
	"github.com/refreshlab/refreshlab/core/schedule/schedulekind"
	"github.com/refreshlab/refreshlab/core/synth"
)

// tinyDataset is an upload-like dataset of 5 pages over 3 cycles, small
// enough that the default budget, a tenth of the pages, rounds to 0 and
// must be raised to 1.
func tinyDataset(t testing.TB) *dataset.Dataset {
	t.Helper()
	d := &dataset.Dataset{Info: dataset.Info{ID: "tiny-upload", Name: "tiny", Source: "upload"}}
	d.Sites = []string{"a.example", "b.example"}
	for i := range 5 {
		d.Pages = append(d.Pages, dataset.Page{URL: "p", Site: int32(i % 2)})
	}
	d.Truth.Changed = [][]int32{{0, 1}, {2}, {0, 3, 4}}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	return d
}

func ids(ids ...string) []lab.PolicySpec {
	var ps []lab.PolicySpec
	for _, id := range ids {
		ps = append(ps, lab.PolicySpec{ID: id})
	}
	return ps
}

// TestResolveDefaults checks the defaults Resolve fills in: kind refresh,
// budget a tenth of the pages but at least 1, all the dataset's cycles,
// DefaultRepeats repeats, declared parameter defaults; and that values the
// spec sets are kept.
func TestResolveDefaults(t *testing.T) {
	l := lab.New()
	l.AddUpload(tinyDataset(t))
	tests := []struct {
		name                    string
		spec                    lab.Spec
		budget, cycles, repeats int
		wantPolicies            []lab.PolicySpec
	}{
		{"taleghani defaults", lab.Spec{Dataset: lab.DatasetRef{ID: "taleghani-example"}, Policies: ids("random")},
			20, 1, lab.DefaultRepeats, []lab.PolicySpec{{ID: "random", Params: param.Values{}}}},
		{"jordan defaults", lab.Spec{Dataset: lab.DatasetRef{ID: "alqaaideh-jordan"}, Policies: ids("oracle", "site-greedy")},
			114, 21, lab.DefaultRepeats, []lab.PolicySpec{{ID: "oracle", Params: param.Values{}}, {ID: "site-greedy", Params: param.Values{"sampleRule": "sqrt"}}}},
		{"budget at least 1", lab.Spec{Dataset: lab.DatasetRef{ID: "tiny-upload"}, Policies: ids("round-robin")},
			1, 3, lab.DefaultRepeats, []lab.PolicySpec{{ID: "round-robin", Params: param.Values{}}}},
		{"values kept", lab.Spec{Kind: lab.KindRefresh, Dataset: lab.DatasetRef{ID: "alqaaideh-jordan"}, Budget: 7, Cycles: 5, Repeats: 3,
			Policies: []lab.PolicySpec{{ID: "site-proportional", Params: param.Values{"sampleSize": 4.0}}}},
			7, 5, 3, []lab.PolicySpec{{ID: "site-proportional", Params: param.Values{"sampleSize": 4.0, "sampleRule": "sqrt"}}}},
		{"limits are inclusive", lab.Spec{Dataset: lab.DatasetRef{ID: "tiny-upload"}, Cycles: 3, Repeats: lab.MaxRepeats, Policies: ids("random")},
			1, 3, lab.MaxRepeats, []lab.PolicySpec{{ID: "random", Params: param.Values{}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, d, err := l.Resolve(tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			if d == nil || d.Info.ID != tt.spec.Dataset.ID {
				t.Fatalf("Resolve returned dataset %v, want %s", d, tt.spec.Dataset.ID)
			}
			if got.Kind != lab.KindRefresh || got.Budget != tt.budget || got.Cycles != tt.cycles || got.Repeats != tt.repeats {
				t.Errorf("kind %q budget %d cycles %d repeats %d; want %q %d %d %d",
					got.Kind, got.Budget, got.Cycles, got.Repeats, lab.KindRefresh, tt.budget, tt.cycles, tt.repeats)
			}
			if !reflect.DeepEqual(got.Policies, tt.wantPolicies) {
				t.Errorf("policies %#v, want %#v", got.Policies, tt.wantPolicies)
			}
		})
	}
}

// TestResolveErrors checks that every kind of bad spec is refused with a
// *SpecError whose Field is the JSON path of the culprit and whose message
// says what is wrong (and, for unknown names, what is known).
func TestResolveErrors(t *testing.T) {
	l := lab.New()
	tal := lab.DatasetRef{ID: "taleghani-example"}
	jor := lab.DatasetRef{ID: "alqaaideh-jordan"}
	many := make([]lab.PolicySpec, lab.MaxPolicies+1)
	for i := range many {
		many[i] = lab.PolicySpec{ID: "random"}
	}
	tests := []struct {
		name  string
		spec  lab.Spec
		field string
		msg   []string
	}{
		{"unknown kind", lab.Spec{Kind: "crawl", Dataset: tal, Policies: ids("random")}, "kind", []string{`"crawl"`, `"refresh"`}},
		{"missing dataset", lab.Spec{Policies: ids("random")}, "dataset.id", []string{"missing", "taleghani-example"}},
		{"unknown dataset", lab.Spec{Dataset: lab.DatasetRef{ID: "nope"}, Policies: ids("random")}, "dataset.id", []string{`"nope"`, "alqaaideh-jordan"}},
		{"negative budget", lab.Spec{Dataset: tal, Budget: -1, Policies: ids("random")}, "budget", []string{"-1"}},
		{"cycles beyond the dataset", lab.Spec{Dataset: jor, Cycles: 22, Policies: ids("random")}, "cycles", []string{"21", "22"}},
		{"negative cycles", lab.Spec{Dataset: jor, Cycles: -1, Policies: ids("random")}, "cycles", []string{"-1"}},
		{"negative repeats", lab.Spec{Dataset: tal, Repeats: -1, Policies: ids("random")}, "repeats", []string{"-1"}},
		{"too many repeats", lab.Spec{Dataset: tal, Repeats: lab.MaxRepeats + 1, Policies: ids("random")}, "repeats", []string{"10001"}},
		{"no policies", lab.Spec{Dataset: tal}, "policies", []string{"empty", "round-robin"}},
		{"too many policies", lab.Spec{Dataset: tal, Policies: many}, "policies", []string{"25"}},
		{"unknown policy", lab.Spec{Dataset: tal, Policies: ids("random", "psychic")}, "policies[1].id", []string{`"psychic"`, "change-frequency"}},
		{"unknown param", lab.Spec{Dataset: tal, Policies: []lab.PolicySpec{{ID: "round-robin", Params: param.Values{"x": 1.0}}}},
			"policies[0].params", []string{"round-robin", `"x"`}},
		{"bad param value", lab.Spec{Dataset: tal, Policies: []lab.PolicySpec{{ID: "random"}, {ID: "site-greedy", Params: param.Values{"sampleSize": 2.5}}}},
			"policies[1].params", []string{"site-greedy", "sampleSize", "whole"}},
		{"param out of range", lab.Spec{Dataset: tal, Policies: []lab.PolicySpec{{ID: "site-greedy", Params: param.Values{"sampleSize": 0.0}}}},
			"policies[0].params", []string{"sampleSize", "minimum"}},
		// 1,140 pages × 21 cycles × 10,000 repeats × 100 ns > 20 s; the
		// same run of round-robin passes (TestWorkIsWeighedByCost).
		{"too much work", lab.Spec{Dataset: jor, Repeats: lab.MaxRepeats, Policies: ids("cluster-sampling")}, "repeats", []string{"too much work", "10000 repeats", "more than the 20s"}},
		{"a copy without a label", lab.Spec{Dataset: tal, Policies: ids("random", "round-robin", "random")}, "policies[2]", []string{"random", "twice", "policies[0]", "label"}},
		{"two copies, one label", lab.Spec{Dataset: tal, Policies: []lab.PolicySpec{{ID: "random", Label: "a"}, {ID: "random", Label: "a"}}},
			"policies[1].label", []string{`"a"`, "policies[0]"}},
		{"a label that is an id", lab.Spec{Dataset: tal, Policies: []lab.PolicySpec{{ID: "random"}, {ID: "random", Label: "oracle"}}},
			"policies[1].label", []string{`"oracle"`, "id of a policy"}},
		{"a label with a dot", lab.Spec{Dataset: tal, Policies: []lab.PolicySpec{{ID: "random", Label: "a.b"}}},
			"policies[0].label", []string{`"a.b"`, "letters"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, run := range []struct {
				name string
				f    func(lab.Spec) error
			}{
				{"Resolve", func(s lab.Spec) error { _, _, err := l.Resolve(s); return err }},
				{"Run", func(s lab.Spec) error { _, err := l.Run(s); return err }},
			} {
				err := run.f(tt.spec)
				var se *lab.SpecError
				if !errors.As(err, &se) {
					t.Fatalf("%s: error %v (%T), want a *SpecError", run.name, err, err)
				}
				if se.Field != tt.field {
					t.Errorf("%s: field %q, want %q (error %q)", run.name, se.Field, tt.field, se)
				}
				for _, s := range tt.msg {
					if !strings.Contains(se.Msg, s) {
						t.Errorf("%s: message %q does not contain %q", run.name, se.Msg, s)
					}
				}
				if !strings.HasPrefix(se.Error(), tt.field+": ") {
					t.Errorf("%s: Error() = %q, want it to start with the field", run.name, se.Error())
				}
			}
		})
	}
}

// run runs spec on a fresh lab and fails the test on error.
func run(t testing.TB, spec lab.Spec) *lab.Result {
	t.Helper()
	res, err := lab.New().Run(spec)
	if err != nil {
		t.Fatalf("Run(%+v): %v", spec, err)
	}
	return res
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// allPolicies names every policy of the catalog.
func allPolicies() []lab.PolicySpec {
	var ps []lab.PolicySpec
	for _, d := range lab.Policies() {
		if d.Kind == lab.KindRefresh {
			ps = append(ps, lab.PolicySpec{ID: d.ID})
		}
	}
	return ps
}

// TestRunEchoesSpec checks that a result carries the resolved spec, with
// computed parameter defaults left out of it and reported beside it in the
// policy's result (site sampling's sampleSize = DefaultSampleSize, named in
// Auto), the dataset's Info, one entry per policy in spec
// order, and per-cycle series as long as the cycles played; and that
// running the echoed spec, after a JSON round trip as a shared link would
// carry it, reproduces the result exactly.
func TestRunEchoesSpec(t *testing.T) {
	spec := lab.Spec{Dataset: lab.DatasetRef{ID: "alqaaideh-jordan"}, Cycles: 6, Repeats: 4, Seed: 11, Policies: allPolicies()}
	res := run(t, spec)
	d, _ := lab.New().Dataset("alqaaideh-jordan")
	if res.Dataset != d.Info {
		t.Errorf("result dataset %+v, want %+v", res.Dataset, d.Info)
	}
	if res.Spec.Budget != 114 || res.Spec.Cycles != 6 || res.Spec.Repeats != 4 || res.Spec.Seed != 11 || res.Spec.Kind != lab.KindRefresh {
		t.Errorf("echoed spec %+v", res.Spec)
	}
	// √(N·r) with N = 1140/9 pages per site and r = 114/1140: √12.67 → 4.
	wantSize := float64(sampling.DefaultSampleSize(1140, 9, 114))
	if wantSize != 4 {
		t.Fatalf("DefaultSampleSize(1140, 9, 114) = %v, want 4", wantSize)
	}
	if len(res.Policies) != len(spec.Policies) {
		t.Fatalf("%d policy results for %d policies", len(res.Policies), len(spec.Policies))
	}
	for i, pr := range res.Policies {
		if pr.ID != spec.Policies[i].ID || res.Spec.Policies[i].ID != pr.ID {
			t.Errorf("policy %d: result %q, echoed spec %q, want %q", i, pr.ID, res.Spec.Policies[i].ID, spec.Policies[i].ID)
		}
		if pr.ID == "site-greedy" || pr.ID == "site-proportional" { // the policies whose sampleSize default is √(N·r) of the whole repository
			if got, ok := res.Spec.Policies[i].Params["sampleSize"]; ok {
				t.Errorf("%s: echoed sampleSize %v, want it left out: it is computed", pr.ID, got)
			}
			if got := pr.Params["sampleSize"]; got != wantSize || !slices.Contains(pr.Auto, "sampleSize") {
				t.Errorf("%s: result params sampleSize %v (auto %v), want the computed %v named in auto", pr.ID, got, pr.Auto, wantSize)
			}
		}
		for _, name := range []string{lab.MetricChangeRatio, lab.MetricFreshness, lab.MetricAge} {
			if series := anySlice(pr.Series[name]); len(series) != 6 {
				t.Errorf("%s: series.%s has %d entries, want 6", pr.ID, name, len(series))
			}
		}
		for _, m := range lab.Metrics {
			per, ok := pr.Series[m.ID]
			if !ok || !m.AppliesTo(lab.KindRefresh) {
				// A metric of estimates (site accuracy) exists only for
				// policies that estimate; TestSiteEstimatesAreUnbiased
				// covers it.
				continue
			}
			if s := pr.Metric(m.ID); s.N != 4 {
				t.Errorf("%s: headline %s over %d repeats, want 4", pr.ID, m.ID, s.N)
			}
			for c, s := range per {
				if s.N != 4 {
					t.Errorf("%s: %s cycle %d over %d repeats, want 4", pr.ID, m.ID, c, s.N)
				}
			}
		}
		if dl := pr.Metric(lab.MetricDownloads); dl.Mean != 114 && pr.ID != "oracle" {
			t.Errorf("%s: %v downloads per cycle, want the whole budget 114", pr.ID, dl.Mean)
		}
	}
	// The echoed spec reproduces the run: every byte is the same, the
	// computed values and the names of what was computed too.
	var again lab.Spec
	if err := json.Unmarshal([]byte(mustJSON(t, res.Spec)), &again); err != nil {
		t.Fatal(err)
	}
	rerun := run(t, again)
	if a, b := mustJSON(t, res), mustJSON(t, rerun); a != b {
		t.Errorf("running the echoed spec gave a different result:\n%s\n%s", a, b)
	}
	// The caller's spec is not modified.
	if spec.Budget != 0 || spec.Policies[4].Params != nil {
		t.Errorf("Run modified the caller's spec: %+v", spec)
	}
}

func anySlice[T any](s []T) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// TestRunDeterministic checks that the same spec gives byte-identical JSON
// on the same lab and on a new one, and that another seed changes the
// numbers of the randomised policies.
func TestRunDeterministic(t *testing.T) {
	spec := lab.Spec{Dataset: lab.DatasetRef{ID: "alqaaideh-jordan"}, Cycles: 8, Repeats: 6, Seed: 5, Policies: allPolicies()}
	l := lab.New()
	a, err := l.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	c := run(t, spec)
	ja, jb, jc := mustJSON(t, a), mustJSON(t, b), mustJSON(t, c)
	if ja != jb || ja != jc {
		t.Errorf("same spec, different results:\n%s\n%s\n%s", ja, jb, jc)
	}
	spec.Seed = 6
	d := run(t, spec)
	for i, pr := range d.Policies {
		if pr.ID == "oracle" {
			continue // no randomness
		}
		if mustJSON(t, pr) == mustJSON(t, a.Policies[i]) {
			t.Errorf("%s: seeds 5 and 6 gave identical results", pr.ID)
		}
	}
}

// TestRunIndependent checks that a policy's numbers depend only on its own
// random stream: running it alone, or after other policies, or after a
// second copy of itself (labelled, as a copy must be), gives the same JSON,
// apart from the per-repeat values, which a policy carries exactly when a
// copy shares its streams (and which are then the copy's too).
func TestRunIndependent(t *testing.T) {
	base := lab.Spec{Dataset: lab.DatasetRef{ID: "alqaaideh-jordan"}, Cycles: 5, Repeats: 5, Seed: 9}
	all := allPolicies()
	for i, p := range all {
		alone := base
		alone.Policies = []lab.PolicySpec{p}
		solo := run(t, alone).Policies[0]
		if solo.Values != nil {
			t.Errorf("%s: run alone, it carries per-repeat values", p.ID)
		}
		want := mustJSON(t, solo)
		with := base
		cp := p
		cp.Label = "copy"
		with.Policies = append(append([]lab.PolicySpec{}, all...), cp)
		res := run(t, with)
		got := res.Policies[i]
		if len(got.Values[lab.MetricChangeRatio]) != base.Repeats {
			t.Errorf("%s: beside a copy of itself, it carries %d values of changeRatio, want one per repeat (%d)", p.ID, len(got.Values[lab.MetricChangeRatio]), base.Repeats)
		}
		values := mustJSON(t, got.Values)
		got.Values = nil
		if got := mustJSON(t, got); got != want {
			t.Errorf("%s: result changed when run with the others:\nalone %s\nwith  %s", p.ID, want, got)
		}
		last := res.Policies[len(all)]
		if last.Label != "copy" || last.Key() != "copy" || last.Name != res.Policies[i].Name+" (copy)" {
			t.Errorf("%s: copy labelled %q, key %q, named %q", p.ID, last.Label, last.Key(), last.Name)
		}
		if mustJSON(t, last.Values) != values {
			t.Errorf("%s: the copy's per-repeat values differ from its original's", p.ID)
		}
		last.Label, last.Name, last.Values = "", res.Policies[i].Name, nil
		if got := mustJSON(t, last); got != want {
			t.Errorf("%s: result changed when run last, after a copy of itself", p.ID)
		}
	}
}

// TestOracleOnTaleghani checks that the oracle finds a change with every
// download on the Taleghani example (100 of its 200 pages changed, budget
// 20): ChangeRatio exactly 1 in every repeat, so mean 1 and SD 0.
func TestOracleOnTaleghani(t *testing.T) {
	res := run(t, lab.Spec{Dataset: lab.DatasetRef{ID: "taleghani-example"}, Repeats: 20, Policies: ids("oracle")})
	pr := res.Policies[0]
	if !pr.Oracle || !pr.UpperBound {
		t.Error("oracle result not marked as an oracle and the upper bound")
	}
	if cr := pr.Metric(lab.MetricChangeRatio); cr.Mean != 1 || cr.SD != 0 || cr.Lo != 1 || cr.Hi != 1 {
		t.Errorf("oracle ChangeRatio %+v, want exactly 1", cr)
	}
	// 100 stale pages, 20 refreshed: freshness (200−80)/200 (to rounding:
	// the mean adds 20 copies of it).
	if fr := pr.Metric(lab.MetricFreshness); math.Abs(fr.Mean-0.6) > 1e-12 {
		t.Errorf("oracle freshness %v, want 0.6", fr.Mean)
	}
}

// TestUpperBound checks that only the perfect-foresight oracle is labelled
// the upper bound: other oracles (a schedule from the true rates) read the
// truth but can be beaten, so calling them a ceiling would mislead.
func TestUpperBound(t *testing.T) {
	var bounds []string
	for _, d := range lab.Policies() {
		if d.UpperBound {
			bounds = append(bounds, d.ID)
			if !d.Oracle {
				t.Errorf("%s: an upper bound that is not an oracle", d.ID)
			}
		}
	}
	if len(bounds) != 1 || bounds[0] != "oracle" {
		t.Errorf("upper bounds %v, want [oracle]", bounds)
	}
}

// TestRandomOnTaleghani checks random's ChangeRatio on the Taleghani
// example, where 100 of 200 pages changed: a random set of B = 20 pages holds
// a hypergeometric number of changed ones, so the ChangeRatio of a repeat
// has mean exactly 0.5 and variance (1/B)·½·½·(N−B)/(N−1) = 0.0113. The mean
// of R = 400 repeats is within 4·SE = 4·√(0.0113/400) ≈ 0.021 of 0.5 except
// with probability about 6e-5 (normal approximation). The reported SD must
// also match the exact one within 4 of its own standard errors
// (≈ σ/√(2(R−1)) for near-normal data; the hypergeometric's kurtosis is
// close to normal's here).
func TestRandomOnTaleghani(t *testing.T) {
	const reps, n, b = 400, 200.0, 20.0
	res := run(t, lab.Spec{Dataset: lab.DatasetRef{ID: "taleghani-example"}, Repeats: reps, Seed: 3, Policies: ids("random", "round-robin")})
	d, _ := lab.New().Dataset("taleghani-example")
	p := d.Info.ChangeRate
	if p != 0.5 {
		t.Fatalf("taleghani-example change rate %v, want 0.5", p)
	}
	sd := math.Sqrt(p * (1 - p) / b * (n - b) / (n - 1))
	se := sd / math.Sqrt(reps)
	// Round-robin's order is random per repeat, so its first cycle is a
	// random set too: same distribution.
	for _, pr := range res.Policies {
		cr := pr.Metric(lab.MetricChangeRatio)
		if math.Abs(cr.Mean-p) > 4*se {
			t.Errorf("%s: ChangeRatio %.4f, want %.4f ± %.4f (4·SE)", pr.ID, cr.Mean, p, 4*se)
		}
		if seSD := sd / math.Sqrt(2*(reps-1)); math.Abs(cr.SD-sd) > 4*seSD {
			t.Errorf("%s: ChangeRatio SD %.4f, want %.4f ± %.4f", pr.ID, cr.SD, sd, 4*seSD)
		}
	}
}

// TestBundledInfo checks that each bundled dataset's listed Info, known
// without generating it, equals the Info of the dataset the lab builds and
// of the synth generator run with BundledSeed, and that the lab lists
// every bundled dataset once, in order.
func TestBundledInfo(t *testing.T) {
	gens := map[string]func(uint64) *dataset.Dataset{
		"taleghani-example":    synth.TaleghaniExample,
		"alqaaideh-example":    synth.AlQaaidehExample,
		"alqaaideh-jordan":     synth.AlQaaidehJordan,
		"topic-web":            synth.TopicWeb,
		"tan-webarchive-small": synth.TanWebArchiveSmall,
		"tan-webarchive":       synth.TanWebArchive,
		"grimes-ford":          synth.GrimesFord,
		"grimes-ford-types":    func(seed uint64) *dataset.Dataset { return synth.GrimesFordTyped(seed, synth.GrimesFordTypesOptions) },
		"cho-garcia-molina-5":  synth.ChoGarciaMolina5,
		"pandey-cam":           synth.PandeyCAM,
	}
	l := lab.New()
	listed := l.Datasets()
	bundled := lab.BundledDatasets()
	if len(listed) != len(bundled) || len(bundled) != len(gens) {
		t.Fatalf("%d listed, %d bundled, %d known generators", len(listed), len(bundled), len(gens))
	}
	for i, b := range bundled {
		gen, ok := gens[b.Info.ID]
		if !ok {
			t.Errorf("bundled dataset %q has no generator in this test", b.Info.ID)
			continue
		}
		if listed[i] != b.Info {
			t.Errorf("listed %+v, bundled %+v", listed[i], b.Info)
		}
		built := b.Build()
		if built.Info != b.Info {
			t.Errorf("%s: static Info %+v, built %+v", b.Info.ID, b.Info, built.Info)
		}
		if g := gen(lab.BundledSeed).Info; g != b.Info {
			t.Errorf("%s: static Info %+v, generated %+v", b.Info.ID, b.Info, g)
		}
		d, ok := l.Dataset(b.Info.ID)
		if !ok || d.Info != b.Info {
			t.Errorf("%s: Lab.Dataset gave %v, %v", b.Info.ID, d, ok)
		}
	}
}

// TestUploads checks the upload list: an upload is listed after the bundled
// datasets and runnable, one with the same id replaces it, and only the
// newest MaxUploads are kept.
func TestUploads(t *testing.T) {
	l := lab.New()
	nb := len(l.Datasets())
	for i := range lab.MaxUploads + 2 {
		d := tinyDataset(t)
		d.Info.ID = fmt.Sprintf("up-%03d", i)
		l.AddUpload(d)
	}
	listed := l.Datasets()
	if len(listed) != nb+lab.MaxUploads {
		t.Fatalf("%d datasets listed, want %d bundled + %d uploads", len(listed), nb, lab.MaxUploads)
	}
	if first, last := fmt.Sprintf("up-%03d", 2), fmt.Sprintf("up-%03d", lab.MaxUploads+1); listed[nb].ID != first || listed[len(listed)-1].ID != last {
		t.Errorf("kept uploads %s..%s, want %s..%s (oldest dropped)", listed[nb].ID, listed[len(listed)-1].ID, first, last)
	}
	if _, ok := l.Dataset("up-000"); ok {
		t.Error("dropped upload up-000 still found")
	}
	l.RemoveUpload("up-003")
	if _, ok := l.Dataset("up-003"); ok || len(l.Datasets()) != nb+lab.MaxUploads-1 {
		t.Error("removed upload up-003 still found")
	}
	d := tinyDataset(t)
	d.Info.ID, d.Info.Name = "up-003", "back"
	l.AddUpload(d)
	d = tinyDataset(t)
	d.Info.ID, d.Info.Name = "up-002", "replaced"
	l.AddUpload(d)
	listed = l.Datasets()
	if len(listed) != nb+lab.MaxUploads || listed[len(listed)-1].Name != "replaced" {
		t.Errorf("replacing up-c: %d listed, last %+v", len(listed), listed[len(listed)-1])
	}
	if _, err := l.Run(lab.Spec{Dataset: lab.DatasetRef{ID: "up-002"}, Repeats: 2, Policies: allPolicies()}); err != nil {
		t.Errorf("running an upload: %v", err)
	}
}

// TestMetrics checks the metric and fact catalogs: ids are unique and
// found by MetricByID and FactByID, listed by MetricIDs and FactIDs for
// exactly their kinds, and each metric's exact expectation is a fact of
// the catalog. A site estimator's refresh result carries exactly the
// refresh metrics under those ids, each over every repeat, and the
// per-cycle series of ChangeRatio, freshness and age, whose mean over
// cycles is the headline (so no metric's series sits under another's id).
func TestMetrics(t *testing.T) {
	res := run(t, lab.Spec{Dataset: lab.DatasetRef{ID: "alqaaideh-jordan"}, Cycles: 3, Repeats: 3, Policies: ids("site-greedy")})
	pr := res.Policies[0]
	listed := func(ids, id string) bool { return slices.Contains(strings.Split(ids, ", "), id) }
	var refreshMetrics []string
	seen := map[string]bool{}
	for _, m := range lab.Metrics {
		if seen[m.ID] {
			t.Errorf("metric %q listed twice", m.ID)
		}
		seen[m.ID] = true
		got, ok := lab.MetricByID(m.ID)
		if !ok || got.ID != m.ID {
			t.Errorf("MetricByID(%q) = %v, %v", m.ID, got.ID, ok)
		}
		if len(m.Kinds) == 0 {
			t.Errorf("%s: no kinds", m.ID)
		}
		if !listed(lab.MetricIDs(""), m.ID) {
			t.Errorf("MetricIDs(\"\") %q lacks %q", lab.MetricIDs(""), m.ID)
		}
		for _, k := range lab.Kinds() {
			if listed(lab.MetricIDs(k), m.ID) != m.AppliesTo(k) {
				t.Errorf("MetricIDs(%q) = %q: lists %s = %v, AppliesTo = %v", k, lab.MetricIDs(k), m.ID, !m.AppliesTo(k), m.AppliesTo(k))
			}
		}
		if m.Exact != "" {
			f, ok := lab.FactByID(m.Exact)
			if !ok {
				t.Errorf("%s: exact expectation %q is not a fact of the catalog", m.ID, m.Exact)
			} else if !slices.ContainsFunc(f.Kinds, m.AppliesTo) {
				t.Errorf("%s: exact expectation %s is of kinds %v, the metric of %v", m.ID, f.ID, f.Kinds, m.Kinds)
			}
		}
		if m.AppliesTo(lab.KindRefresh) {
			refreshMetrics = append(refreshMetrics, m.ID)
		}
	}
	seen = map[string]bool{}
	for _, f := range lab.Facts {
		if seen[f.ID] {
			t.Errorf("fact %q listed twice", f.ID)
		}
		seen[f.ID] = true
		if got, ok := lab.FactByID(f.ID); !ok || got.ID != f.ID {
			t.Errorf("FactByID(%q) = %v, %v", f.ID, got.ID, ok)
		}
		if _, ok := lab.MetricByID(f.ID); ok {
			t.Errorf("%q is both a metric and a fact", f.ID)
		}
		if len(f.Kinds) == 0 {
			t.Errorf("fact %s: no kinds", f.ID)
		}
		if !listed(lab.FactIDs(""), f.ID) {
			t.Errorf("FactIDs(\"\") %q lacks %q", lab.FactIDs(""), f.ID)
		}
		for _, k := range lab.Kinds() {
			if listed(lab.FactIDs(k), f.ID) != slices.Contains(f.Kinds, k) {
				t.Errorf("FactIDs(%q) = %q, fact %s of kinds %v", k, lab.FactIDs(k), f.ID, f.Kinds)
			}
		}
	}
	if got := slices.Sorted(maps.Keys(pr.Metrics)); !slices.Equal(got, slices.Sorted(slices.Values(refreshMetrics))) {
		t.Errorf("site-greedy's metrics %v, want the refresh metrics %v", got, refreshMetrics)
	}
	for id, s := range pr.Metrics {
		if s.N != 3 {
			t.Errorf("headline %s over %d repeats, want 3", id, s.N)
		}
	}
	perCycle := []string{lab.MetricChangeRatio, lab.MetricFreshness, lab.MetricAge, lab.MetricDivergence}
	// RIR's headline is a ratio of sums over the cycles, not their mean
	// (core/lab's rir_test.go checks it).
	series := append(slices.Clone(perCycle), lab.MetricCaughtRIR)
	if got := slices.Sorted(maps.Keys(pr.Series)); !slices.Equal(got, slices.Sorted(slices.Values(series))) {
		t.Errorf("series %v, want %v", got, series)
	}
	for _, id := range perCycle {
		per := pr.Series[id]
		if len(per) != 3 {
			t.Errorf("series.%s has %d cycles, want 3", id, len(per))
			continue
		}
		sum := 0.0
		for _, s := range per {
			sum += s.Mean
		}
		if h := pr.Metric(id).Mean; math.Abs(sum/3-h) > 1e-12 {
			t.Errorf("%s: mean over cycles %v, headline %v", id, sum/3, h)
		}
	}
	if _, ok := lab.MetricByID("nonesuch"); ok {
		t.Error("MetricByID found an unknown id")
	}
	if _, ok := lab.FactByID("nonesuch"); ok {
		t.Error("FactByID found an unknown id")
	}
	if s := pr.Metric(estimatekind.MetricMAD); s.N != 0 || !math.IsNaN(s.Mean) {
		t.Errorf("a refresh result's MAD %+v, want a summary of nothing", s)
	}
	if e, ok := pr.Fact(lab.FactExpectedChangeRatio); ok {
		t.Errorf("three-cycle run: expectedChangeRatio %v, want none", e)
	}
}

// TestStream checks the random streams: deterministic for (seed, policy,
// repeat), and different when any of the three changes.
func TestStream(t *testing.T) {
	draw := func(seed uint64, id string, r int) [4]uint64 {
		s := lab.Stream(seed, id, r)
		return [4]uint64{s.Uint64(), s.Uint64(), s.Uint64(), s.Uint64()}
	}
	a := draw(1, "random", 0)
	if a != draw(1, "random", 0) {
		t.Error("same stream, different draws")
	}
	for _, other := range [][4]uint64{draw(2, "random", 0), draw(1, "oracle", 0), draw(1, "random", 1)} {
		if other == a {
			t.Error("different (seed, policy, repeat), same draws")
		}
	}
}

// TestExpectedChangeRatio checks the exact expectation the lab attaches to
// one-cycle runs: present exactly for the policies whose descriptor can
// compute it (Descriptor.Expect), absent for longer runs; and the
// simulation agrees with it: over 400 repeats the mean ChangeRatio is
// within 4 standard errors (the result's SD over √400) of the expectation,
// which a correct pair fails with probability about 6e-5 per policy (normal
// approximation). A policy whose ChangeRatio does not vary (the oracle's is
// always 1) must match exactly.
func TestExpectedChangeRatio(t *testing.T) {
	expects := map[string]bool{}
	for _, d := range lab.Policies() {
		expects[d.ID] = d.Expect != nil
	}
	for _, ds := range []string{"taleghani-example", "alqaaideh-example"} {
		spec := lab.Spec{Dataset: lab.DatasetRef{ID: ds}, Budget: 100, Repeats: 400, Seed: 8, Policies: allPolicies()}
		res := run(t, spec)
		for _, pr := range res.Policies {
			e, ok := pr.Fact(lab.FactExpectedChangeRatio)
			if ok != expects[pr.ID] {
				t.Errorf("%s on %s: expectedChangeRatio set = %v, descriptor has Expect = %v", pr.ID, ds, ok, expects[pr.ID])
				continue
			}
			if !ok {
				continue
			}
			cr := pr.Metric(lab.MetricChangeRatio)
			se := cr.SD / math.Sqrt(float64(cr.N))
			if math.Abs(cr.Mean-e) > max(4*se, 1e-12) {
				t.Errorf("%s on %s: simulated ChangeRatio %.4f, exact expectation %.4f ± %.4f (4·SE)", pr.ID, ds, cr.Mean, e, 4*se)
			}
		}
	}
	spec := lab.Spec{Dataset: lab.DatasetRef{ID: "alqaaideh-jordan"}, Cycles: 2, Repeats: 2, Policies: allPolicies()}
	for _, pr := range run(t, spec).Policies {
		if e, ok := pr.Fact(lab.FactExpectedChangeRatio); ok {
			t.Errorf("%s: two-cycle run: expectedChangeRatio %v, want none", pr.ID, e)
		}
	}
}

// TestRunConcurrent checks that the lab is safe for concurrent use, as its
// doc says: the same specs run from several goroutines on one lab (whose
// datasets are built lazily on first use) give the results a lone run
// gives. Run with -race to check for data races too.
func TestRunConcurrent(t *testing.T) {
	specs := []lab.Spec{
		{Dataset: lab.DatasetRef{ID: "alqaaideh-jordan"}, Cycles: 4, Repeats: 3, Seed: 1, Policies: allPolicies()},
		{Dataset: lab.DatasetRef{ID: "taleghani-example"}, Repeats: 3, Seed: 2, Policies: allPolicies()},
	}
	want := make([]string, len(specs))
	for i, s := range specs {
		want[i] = mustJSON(t, run(t, s))
	}
	l := lab.New()
	const workers = 4
	got := make([][]string, workers)
	done := make(chan int)
	for w := range workers {
		go func() {
			defer func() { done <- w }()
			for _, s := range specs {
				res, err := l.Run(s)
				if err != nil {
					got[w] = append(got[w], err.Error())
					continue
				}
				b, _ := json.Marshal(res)
				got[w] = append(got[w], string(b))
			}
		}()
	}
	for range workers {
		<-done
	}
	for w := range workers {
		for i := range specs {
			if got[w][i] != want[i] {
				t.Errorf("worker %d, spec %d: result differs from a lone run", w, i)
			}
		}
	}
}

// TestHeadline: every kind's headline metric is one its results carry, and
// one with a direction, so that it can rank policies.
func TestHeadline(t *testing.T) {
	for _, kind := range lab.Kinds() {
		m, ok := lab.MetricByID(lab.Headline(kind))
		if !ok || !m.AppliesTo(kind) || (m.Better != "higher" && m.Better != "lower") {
			t.Errorf("kind %s: headline %q (known %v), better %q", kind, lab.Headline(kind), ok, m.Better)
		}
	}
	if h := lab.Headline("nonsense"); h != "" {
		t.Errorf("an unknown kind's headline is %q, want none", h)
	}
}

// TestWorkIsWeighedByCost checks that the work limit weighs a run by its
// policies' costs: the same pages × cycles × repeats pass for a cheap
// policy and fail for a costly one, and every refresh policy declares a
// cost (make bench checks each against measurement).
func TestWorkIsWeighedByCost(t *testing.T) {
	l := lab.New()
	jor := lab.DatasetRef{ID: "alqaaideh-jordan"}
	for _, d := range l.Policies() {
		if d.Kind == lab.KindRefresh && !(d.Cost > 0) {
			t.Errorf("%s: no Cost per page-cycle", d.ID)
		}
	}
	if _, _, err := l.Resolve(lab.Spec{Dataset: jor, Repeats: lab.MaxRepeats, Policies: ids("round-robin")}); err != nil {
		t.Errorf("round-robin, %d repeats: %v", lab.MaxRepeats, err)
	}
	if _, _, err := l.Resolve(lab.Spec{Dataset: jor, Repeats: lab.MaxRepeats, Policies: ids("cluster-sampling")}); err == nil {
		t.Errorf("cluster-sampling, %d repeats: no work error", lab.MaxRepeats)
	}
}

// TestResultsCarryTheirKindsMetrics checks that a result carries only the
// metrics of its kind, each summarised over at least one repeat: an
// estimate result has no ChangeRatio, freshness, age or downloads, not
// even empty ones.
func TestResultsCarryTheirKindsMetrics(t *testing.T) {
	specs := []lab.Spec{
		{Dataset: lab.DatasetRef{ID: "taleghani-example"}, Budget: 100, Repeats: 3, Policies: []lab.PolicySpec{{ID: "site-greedy"}, {ID: "random"}}},
		{Kind: estimatekind.ID, Dataset: lab.DatasetRef{ID: "grimes-ford"}, Repeats: 3, Seed: 4, Policies: ids("mle", "pseudo-mle"), Sections: lab.Sections{estimatekind.ID: &estimatekind.Spec{Pages: 50, Epochs: 4}}},
		{Kind: schedulekind.ID, Dataset: lab.DatasetRef{ID: "cho-garcia-molina-5"}, Budget: 5, Repeats: 2, Policies: []lab.PolicySpec{{ID: "uniform"}}},
	}
	for _, spec := range specs {
		res := run(t, spec)
		for _, p := range res.Policies {
			for id, s := range p.Metrics {
				m, ok := lab.MetricByID(id)
				if !ok || !m.AppliesTo(res.Spec.Kind) {
					t.Errorf("%s %s: carries metric %s, not one of its kind's (%s)", res.Spec.Kind, p.ID, id, lab.MetricIDs(res.Spec.Kind))
				}
				if s.N == 0 {
					t.Errorf("%s %s: metric %s over no repeat", res.Spec.Kind, p.ID, id)
				}
			}
		}
	}
}
