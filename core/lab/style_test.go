package lab

import (
	"testing"

	"github.com/refreshlab/refreshlab/core/chart"
)

// TestPolicyStylesTellEveryPolicyApart checks the catalog's styles: every
// policy has one, no two policies share a style, no two differ in colour
// alone (each pair differs in dash pattern or marker too), none takes
// the neutral colour of references, and oracles, and only they, are drawn
// hollow.
func TestPolicyStylesTellEveryPolicyApart(t *testing.T) {
	type looks struct{ dash, marker int }
	seen := map[looks]string{}
	for _, d := range Policies() {
		s, ok := PolicyStyle(d.ID)
		if !ok {
			t.Errorf("%s: no style", d.ID)
			continue
		}
		if s.Color%len7 == chart.Neutral {
			t.Errorf("%s takes the neutral colour", d.ID)
		}
		if s.Open != d.Oracle {
			t.Errorf("%s: hollow %v, oracle %v", d.ID, s.Open, d.Oracle)
		}
		k := looks{s.Dash % chart.SeriesColors, s.Marker}
		if other, ok := seen[k]; ok {
			t.Errorf("%s and %s differ in colour alone (%+v)", other, d.ID, s)
		}
		seen[k] = d.ID
	}
	if _, ok := PolicyStyle("no-such-policy"); ok {
		t.Error("a style for an unknown policy")
	}
}

// len7 is the length of the palette with the neutral colour (Neutral + 1).
const len7 = chart.Neutral + 1

// TestSeriesStyles checks the styles of a chart's policies: each policy's
// own, whatever else the chart draws and in whatever order, except for
// labelled copies of one policy, which take distinct styles of their own.
func TestSeriesStyles(t *testing.T) {
	own := func(id string) chart.Style { s, _ := PolicyStyle(id); return s }
	a := SeriesStyles([]PolicySpec{{ID: "random"}, {ID: "site-greedy"}})
	b := SeriesStyles([]PolicySpec{{ID: "oracle"}, {ID: "site-greedy"}, {ID: "change-frequency"}, {ID: "random"}})
	for _, id := range []string{"random", "site-greedy"} {
		if a[id] != own(id) || b[id] != own(id) {
			t.Errorf("%s: %+v and %+v, want its own %+v in both", id, a[id], b[id], own(id))
		}
	}
	c := SeriesStyles([]PolicySpec{{ID: "cluster-sampling", Label: "url"}, {ID: "cluster-sampling", Label: "content"}, {ID: "random"}})
	if c["url"] == c["content"] {
		t.Errorf("two labelled copies of one policy share the style %+v", c["url"])
	}
	if c["random"] != own("random") {
		t.Errorf("random beside copies: %+v, want %+v", c["random"], own("random"))
	}
}

// TestRunValueAndFieldLabel reads back the value a run used for a field,
// a member of the spec or a policy's parameter, and the label people
// read for the field.
func TestRunValueAndFieldLabel(t *testing.T) {
	res := &Result{
		Spec: Spec{Budget: 70, Policies: []PolicySpec{{ID: "random"}, {ID: "site-greedy", Params: map[string]any{"sampleSize": 4.0}}}},
		Policies: []PolicyResult{
			{ID: "random"},
			{ID: "site-greedy", Params: map[string]any{"sampleSize": 4.0}},
		},
	}
	for _, tc := range []struct {
		path  string
		want  float64
		ok    bool
		label string
	}{
		{"budget", 70, true, "Budget"},
		{"params.sampleSize", 4, true, "Sample size per site"},
		{"policies.site-greedy.sampleSize", 4, true, "Sample size per site"},
		{"params.nothing", 0, false, "params.nothing"},
	} {
		v, ok := RunValue(res, tc.path)
		if v != tc.want || ok != tc.ok {
			t.Errorf("RunValue(%s) = %v, %v; want %v, %v", tc.path, v, ok, tc.want, tc.ok)
		}
		if l := FieldLabel(res.Spec, tc.path); l != tc.label {
			t.Errorf("FieldLabel(%s) = %q, want %q", tc.path, l, tc.label)
		}
	}
}

// TestCopyLabel names labelled copies of a policy for people: a label
// that is the value of one of the copy's choices reads as that option's
// label; any other label stays as it is.
func TestCopyLabel(t *testing.T) {
	for _, tc := range []struct {
		id, label string
		params    map[string]any
		want      string
	}{
		{"cluster-sampling", "nad", map[string]any{"featureSet": "content", "weights": "nad"}, "Non-adaptive (nad)"},
		{"cluster-sampling", "gad", map[string]any{"weights": "gad"}, ""},
		{"cluster-sampling", "mine", map[string]any{"weights": "nad"}, "mine"},
		{"no-such-policy", "nad", map[string]any{"weights": "nad"}, "nad"},
	} {
		got := CopyLabel(tc.id, tc.label, tc.params)
		if tc.want == "" {
			if got == tc.label {
				t.Errorf("CopyLabel(%s, %s) = %q, want the option's label", tc.id, tc.label, got)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("CopyLabel(%s, %s) = %q, want %q", tc.id, tc.label, got, tc.want)
		}
	}
}
