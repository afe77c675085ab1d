package lab_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/estimate/estimatekind"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/monitor/monitorkind"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/schedule/schedulekind"
)

// fieldSpecs are a spec of each kind for the field tests: the refresh one
// runs site-greedy, random and a copy of site-greedy labelled big.
func fieldSpecs() (refresh, estimate, schedule lab.Spec) {
	refresh = lab.Spec{Dataset: lab.DatasetRef{ID: "taleghani-example"}, Policies: []lab.PolicySpec{
		{ID: "site-greedy", Params: param.Values{"sampleSize": 5.0}}, {ID: "random"}, {ID: "site-greedy", Label: "big", Params: param.Values{"sampleSize": 30.0}}}}
	estimate = lab.Spec{Kind: estimatekind.ID, Dataset: lab.DatasetRef{ID: "grimes-ford"}, Policies: ids("mle", "pseudo-mle")}
	schedule = lab.Spec{Kind: schedulekind.ID, Dataset: lab.DatasetRef{ID: "cho-garcia-molina-5"}, Policies: ids("uniform", "nutch")}
	return refresh, estimate, schedule
}

// TestField resolves every form of path Lab.Field knows, each with its
// type, the catalog's options where it has them, its parameter and where
// its value goes.
func TestField(t *testing.T) {
	l := lab.New()
	refresh, estimate, schedule := fieldSpecs()
	var datasets []string
	for _, d := range l.Datasets() {
		datasets = append(datasets, d.ID)
	}
	// params.sampleSize goes to every refresh policy of the catalog with
	// that parameter (a control may add one the spec lacks); policies
	// lists the kind's policies.
	var sampleSize []lab.Target
	kindIDs := map[string][]string{}
	for _, d := range l.Policies() {
		kindIDs[d.Kind] = append(kindIDs[d.Kind], d.ID)
		if d.Kind == lab.KindRefresh && slices.ContainsFunc(d.Params, func(p param.Param) bool { return p.Name == "sampleSize" }) {
			sampleSize = append(sampleSize, lab.Target{ID: d.ID, Param: "sampleSize"})
		}
	}
	if len(sampleSize) < 3 {
		t.Fatalf("only %d refresh policies with a sampleSize: %v", len(sampleSize), sampleSize)
	}
	member := func(path string) []lab.Target { return []lab.Target{{Member: strings.Split(path, ".")}} }
	tests := []struct {
		name    string
		spec    lab.Spec
		path    string
		typ     string
		param   string // Field.Param.Name; "" when it has none
		options []string
		targets []lab.Target
	}{
		{"spec number", refresh, "budget", param.Int, "budget", nil, []lab.Target{{Member: []string{"budget"}}}},
		{"refresh-only number", refresh, "cycles", param.Int, "cycles", nil, member("cycles")},
		{"schedule budget", schedule, "budget", param.Int, "budget", nil, member("budget")},
		{"dataset", refresh, "dataset.id", lab.FieldDataset, "", datasets, []lab.Target{{Member: []string{"dataset", "id"}}}},
		{"policies", refresh, "policies", lab.FieldPolicies, "", kindIDs[lab.KindRefresh], nil},
		{"estimate policies", estimate, "policies", lab.FieldPolicies, "", kindIDs[estimatekind.ID], nil},
		{"every policy's parameter", refresh, "params.sampleSize", param.Int, "sampleSize", nil, sampleSize},
		{"one policy's parameter", refresh, "policies.site-greedy.sampleSize", param.Int, "sampleSize", nil, []lab.Target{{Key: "site-greedy", Param: "sampleSize"}}},
		{"labelled copy's parameter", refresh, "policies.big.sampleSize", param.Int, "sampleSize", nil, []lab.Target{{Key: "big", Param: "sampleSize"}}},
		{"estimate member", estimate, "estimate.crawl.initial", param.Float, "estimate.crawl.initial", nil, []lab.Target{{Member: []string{"estimate", "crawl", "initial"}}}},
		{"estimate choice", estimate, "estimate.crawl.mode", param.Enum, "estimate.crawl.mode", nil, member("estimate.crawl.mode")},
		{"estimator parameter", estimate, "policies.pseudo-mle.changed", param.Float, "changed", nil, []lab.Target{{Key: "pseudo-mle", Param: "changed"}}},
		{"schedule member", schedule, "schedule.rates", param.Enum, "schedule.rates", nil, []lab.Target{{Member: []string{"schedule", "rates"}}}},
		{"schedule parameter", schedule, "params.spacing", param.Enum, "spacing", nil, []lab.Target{{ID: "uniform", Param: "spacing"}, {ID: "proportional", Param: "spacing"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := mustJSON(t, tt.spec)
			f, err := l.Field(tt.spec, tt.path)
			if err != nil {
				t.Fatalf("Field(%q): %v", tt.path, err)
			}
			if f.Path != tt.path || f.Type != tt.typ {
				t.Errorf("Field(%q): path %q, type %q, want type %q", tt.path, f.Path, f.Type, tt.typ)
			}
			switch {
			case tt.param == "" && f.Param != nil:
				t.Errorf("Field(%q): param %+v, want none", tt.path, *f.Param)
			case tt.param != "" && (f.Param == nil || f.Param.Name != tt.param || f.Param.Type != tt.typ):
				t.Errorf("Field(%q): param %+v, want %s of type %s", tt.path, f.Param, tt.param, tt.typ)
			}
			if !slices.Equal(f.Options, tt.options) {
				t.Errorf("Field(%q): options %v, want %v", tt.path, f.Options, tt.options)
			}
			if !reflect.DeepEqual(f.Targets, tt.targets) {
				t.Errorf("Field(%q): targets %+v, want %+v", tt.path, f.Targets, tt.targets)
			}
			if got := mustJSON(t, tt.spec); got != before {
				t.Errorf("Field changed the spec: %s, was %s", got, before)
			}
		})
	}
	// A choice carries its options, a number its bounds.
	if f, err := l.Field(schedule, "schedule.rates"); err != nil || !slices.Contains(f.Param.Options, schedulekind.RatesOracle) || f.Param.Default != schedulekind.RatesOracle {
		t.Errorf("schedule.rates: %+v, %v: want the options with %s, its default", f.Param, err, schedulekind.RatesOracle)
	}
	if f, err := l.Field(refresh, "budget"); err != nil || f.Param.Min == nil || *f.Param.Min != 1 {
		t.Errorf("budget: %+v, %v: want a minimum of 1", f.Param, err)
	}
}

// TestFieldErrors checks that a path Field cannot resolve is an error that
// names the path and says what was expected.
func TestFieldErrors(t *testing.T) {
	l := lab.New()
	refresh, estimate, schedule := fieldSpecs()
	tests := []struct {
		name string
		spec lab.Spec
		path string
		want []string
	}{
		{"no prefix", refresh, "site-greedy.sampleSize", []string{"unknown field", "params.NAME", "policies.ID.NAME"}},
		{"misspelt prefix", refresh, "polices.site-greedy.sampleSize", []string{"unknown field", "budget", "dataset.id"}},
		{"unknown spec member", refresh, "colour", []string{"unknown field"}},
		{"empty parameter", refresh, "params.", []string{"unknown field"}},
		{"parameter no policy has", refresh, "params.nope", []string{`no policy in the spec has a parameter "nope"`}},
		{"parameter of policies not in the spec", lab.Spec{Dataset: refresh.Dataset, Policies: ids("random")}, "params.sampleSize", []string{`no policy in the spec has a parameter "sampleSize"`}},
		{"parameter of another kind's policies", estimate, "params.sampleSize", []string{`no policy in the spec has a parameter "sampleSize"`}},
		{"policy's unknown parameter", refresh, "policies.site-greedy.nope", []string{`policy site-greedy has no parameter "nope"`, "expected one of sampleSize"}},
		{"policy not in the spec", refresh, "policies.absent.sampleSize", []string{`no policy "absent" in the spec`, "site-greedy, random, big"}},
		{"policy without a parameter", refresh, "policies.site-greedy", []string{"expected policies.ID.NAME"}},
		{"schedule field in a refresh spec", refresh, "schedule.rates", []string{"kind schedule, not refresh"}},
		{"estimate field in a schedule spec", schedule, "estimate.crawl.initial", []string{"kind estimate, not schedule"}},
		{"refresh field in an estimate spec", estimate, "cycles", []string{"kind refresh, not estimate"}},
		{"estimate's old name", estimate, "estimate.initial", []string{"unknown field", "estimate.crawl.initial"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := l.Field(tt.spec, tt.path)
			if err == nil {
				t.Fatalf("Field(%q) = %+v, want an error", tt.path, f)
			}
			for _, w := range append([]string{`"` + tt.path + `"`}, tt.want...) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Field(%q): error %q lacks %q", tt.path, err, w)
				}
			}
		})
	}
}

// TestFieldSet checks that Field.Set puts the value in every target and
// nowhere else, and leaves the spec it copies as it was: no policy's
// parameters map is shared, and a nested member of a struct the spec does
// not have (estimate.crawl.initial with Estimate nil) is allocated in the
// copy alone.
func TestFieldSet(t *testing.T) {
	l := lab.New()
	refresh, estimate, schedule := fieldSpecs()
	set := func(spec lab.Spec, path string, v any) lab.Spec {
		t.Helper()
		f, err := l.Field(spec, path)
		if err != nil {
			t.Fatalf("Field(%q): %v", path, err)
		}
		out, err := f.Set(spec, v)
		if err != nil {
			t.Fatalf("Set(%q, %v): %v", path, v, err)
		}
		return out
	}
	before := mustJSON(t, refresh)
	for _, tt := range []struct {
		path string
		want []any // sampleSize of site-greedy, random, big
	}{
		{"params.sampleSize", []any{9.0, nil, 9.0}},
		{"policies.site-greedy.sampleSize", []any{9.0, nil, 30.0}},
		{"policies.big.sampleSize", []any{5.0, nil, 9.0}},
	} {
		out := set(refresh, tt.path, 9.0)
		if got := sizesOf(out); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s = 9: sampleSizes %v, want %v", tt.path, got, tt.want)
		}
		if got := mustJSON(t, refresh); got != before {
			t.Errorf("%s: Set changed the original spec: %s, was %s", tt.path, got, before)
		}
		for i := range out.Policies {
			out.Policies[i].Params["shared"] = true
			if _, ok := refresh.Policies[i].Params["shared"]; ok {
				t.Errorf("%s: policy %d's parameters are shared with the original", tt.path, i)
			}
		}
		if refresh.Policies[1].Params != nil {
			t.Errorf("%s: the original random's nil parameters became %v", tt.path, refresh.Policies[1].Params)
		}
	}
	if out := set(refresh, "budget", 42.0); out.Budget != 42 || refresh.Budget != 0 {
		t.Errorf("budget: copy %d, original %d", out.Budget, refresh.Budget)
	}
	if out := set(refresh, "dataset.id", "alqaaideh-jordan"); out.Dataset.ID != "alqaaideh-jordan" || refresh.Dataset.ID != "taleghani-example" {
		t.Errorf("dataset.id: copy %q, original %q", out.Dataset.ID, refresh.Dataset.ID)
	}

	// A nested member of an estimate spec without Estimate.
	if estimatekind.SpecOf(estimate) != nil {
		t.Fatal("the estimate spec has an Estimate")
	}
	out := set(estimate, "estimate.crawl.initial", 4.0)
	if estimatekind.SpecOf(out) == nil || estimatekind.SpecOf(out).Crawl.Initial != 4 {
		t.Fatalf("estimate.crawl.initial = 4 on a spec without Estimate: %+v", estimatekind.SpecOf(out))
	}
	if estimatekind.SpecOf(estimate) != nil {
		t.Errorf("Set gave the original spec an Estimate %+v", estimatekind.SpecOf(estimate))
	}
	// With one: the copy keeps its other members, the original its value.
	estimate.Sections = estimate.Sections.With(estimatekind.ID, &estimatekind.Spec{Pages: 100, Crawl: estimatekind.Crawl{Initial: 2, Fraction: 0.5}})
	out = set(estimate, "estimate.crawl.initial", 4.0)
	if estimatekind.SpecOf(out) == estimatekind.SpecOf(estimate) || estimatekind.SpecOf(out).Pages != 100 || estimatekind.SpecOf(out).Crawl != (estimatekind.Crawl{Initial: 4, Fraction: 0.5}) {
		t.Errorf("estimate.crawl.initial = 4: copy %+v (the original's pointer: %v)", estimatekind.SpecOf(out), estimatekind.SpecOf(out) == estimatekind.SpecOf(estimate))
	}
	if estimatekind.SpecOf(estimate).Crawl.Initial != 2 {
		t.Errorf("the original's initial interval became %v", estimatekind.SpecOf(estimate).Crawl.Initial)
	}
	// A pointer member (schedule.warmup) and a choice.
	out = set(schedule, "schedule.warmup", 3.0)
	if s := schedulekind.SpecOf(out); s == nil || s.Warmup == nil || *s.Warmup != 3 || schedulekind.SpecOf(schedule) != nil {
		t.Errorf("schedule.warmup = 3: copy %+v, original %+v", s, schedulekind.SpecOf(schedule))
	}
	if out = set(schedule, "schedule.rates", estimatekind.EstMLE); schedulekind.SpecOf(out).Rates != estimatekind.EstMLE {
		t.Errorf("schedule.rates = %s: %q", estimatekind.EstMLE, schedulekind.SpecOf(out).Rates)
	}

	// Values of the wrong kind for the member.
	for _, tt := range []struct {
		spec lab.Spec
		path string
		v    any
		want string
	}{
		{refresh, "budget", 1.5, "whole number"},
		{refresh, "seed", -1.0, "at least 0"},
		{refresh, "dataset.id", 3.0, "expected a string"},
		{schedule, "schedule.days", "long", "expected a number"},
	} {
		f, err := l.Field(tt.spec, tt.path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Set(tt.spec, tt.v); err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.path) {
			t.Errorf("Set(%s, %v): error %v, want one naming the field and %q", tt.path, tt.v, err, tt.want)
		}
	}
	f, _ := l.Field(refresh, "policies")
	if _, err := f.Set(refresh, []string{"random"}); err == nil {
		t.Error("Set of the policies field succeeded")
	}
}

// TestSpecFieldsSetTheirMember sets every spec field of SpecFields, on a
// spec of its kind without Estimate or Schedule, and reads the value back
// from the copy's JSON at the field's path: a field whose name is not the
// JSON path of a member fails.
func TestSpecFieldsSetTheirMember(t *testing.T) {
	l := lab.New()
	refresh, estimate, schedule := fieldSpecs()
	byKind := map[string]lab.Spec{"": refresh, lab.KindRefresh: refresh, estimatekind.ID: estimate, schedulekind.ID: schedule,
		monitorkind.ID: {Kind: monitorkind.ID, Dataset: lab.DatasetRef{ID: "pandey-cam"}, Budget: 5000, Repeats: 2, Policies: []lab.PolicySpec{{ID: "cam"}}}}
	for _, sf := range lab.SpecFields() {
		spec := byKind[sf.Kind]
		var v any
		switch sf.Type {
		case param.Int, param.Float:
			v = 2.0
		case param.Enum:
			v = sf.Options[len(sf.Options)-1]
		case param.Bool:
			v = true
		case lab.FieldDataset:
			v = "alqaaideh-jordan"
		default:
			t.Errorf("%s: type %q", sf.Name, sf.Type)
			continue
		}
		f, err := l.Field(spec, sf.Name)
		if err != nil {
			t.Errorf("%s: %v", sf.Name, err)
			continue
		}
		out, err := f.Set(spec, v)
		if err != nil {
			t.Errorf("%s = %v: %v", sf.Name, v, err)
			continue
		}
		var at any
		if err := json.Unmarshal([]byte(mustJSON(t, out)), &at); err != nil {
			t.Fatal(err)
		}
		for _, name := range strings.Split(sf.Name, ".") {
			m, _ := at.(map[string]any)
			at = m[name]
		}
		if at != v {
			t.Errorf("%s = %v: the copy's JSON has %v there", sf.Name, v, at)
		}
	}
}

// TestWithField checks that a sweep's With resolves its field with Field:
// numbers only, whole numbers for whole-number fields, and the spec it
// copies left as it was.
func TestWithField(t *testing.T) {
	l := lab.New()
	refresh, estimate, schedule := fieldSpecs()
	before := mustJSON(t, refresh)
	out, err := l.With(refresh, "policies.big.sampleSize", 12)
	if err != nil || out.Policies[2].Params["sampleSize"] != 12.0 || out.Policies[0].Params["sampleSize"] != 5.0 {
		t.Errorf("With(policies.big.sampleSize, 12): %v, %v", sizesOf(out), err)
	}
	if got := mustJSON(t, refresh); got != before {
		t.Errorf("With changed the original spec: %s", got)
	}
	if out, err := l.With(estimate, "estimate.crawl.initial", 6); err != nil || estimatekind.SpecOf(out).Crawl.Initial != 6 || estimatekind.SpecOf(estimate) != nil {
		t.Errorf("With(estimate.crawl.initial, 6): %+v, %v (original %+v)", estimatekind.SpecOf(out), err, estimatekind.SpecOf(estimate))
	}
	for _, tt := range []struct {
		spec lab.Spec
		path string
		v    float64
		want string
	}{
		{schedule, "schedule.rates", 1, "not a number"},
		{refresh, "dataset.id", 1, "not a number"},
		{refresh, "params.sampleSize", 2.5, "whole numbers"},
		{refresh, "site-greedy.sampleSize", 2, "unknown field"},
	} {
		if _, err := l.With(tt.spec, tt.path, tt.v); err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.path) {
			t.Errorf("With(%s, %v): error %v, want one naming the field and %q", tt.path, tt.v, err, tt.want)
		}
	}
}

func sizesOf(s lab.Spec) []any {
	var out []any
	for _, p := range s.Policies {
		out = append(out, p.Params["sampleSize"])
	}
	return out
}
