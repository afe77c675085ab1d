package lab

import (
	"cmp"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/chart"
)

// TestPolicyStylesTellEveryPolicyApart checks the catalog's styles: every
// policy has one, no two policies of one kind (those a chart can show
// together) differ in colour alone (each pair differs in dash pattern or
// marker too), none takes the neutral colour of references, and oracles,
// and only they, are drawn hollow. Across kinds styles may repeat: the
// catalog has more policies than there are looks (6 dash patterns × 6
// markers), and a policy id two kinds share (uniform) has one style.
func TestPolicyStylesTellEveryPolicyApart(t *testing.T) {
	type looks struct {
		kind         string
		dash, marker int
	}
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
		k := looks{cmp.Or(d.Kind, KindRefresh), s.Dash % chart.SeriesColors, s.Marker}
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
	// The policy itself beside its copies keeps its own style, and no two
	// of a chart's policies differ in colour alone.
	d := SeriesStyles([]PolicySpec{{ID: "cluster-sampling"}, {ID: "round-robin"}, {ID: "cluster-sampling", Label: "url"}, {ID: "cluster-sampling", Label: "content"}, {ID: "random"}})
	if d["cluster-sampling"] != own("cluster-sampling") {
		t.Errorf("cluster-sampling beside its copies: %+v, want its own %+v", d["cluster-sampling"], own("cluster-sampling"))
	}
	seen := map[[2]int]string{}
	for k, s := range d {
		l := [2]int{s.Dash % chart.SeriesColors, s.Marker}
		if o, ok := seen[l]; ok {
			t.Errorf("%s (%+v) and %s (%+v) differ in colour alone", k, s, o, d[o])
		}
		seen[l] = k
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

// TestCopyNames names labelled copies of a policy for people: by the
// option of the one choice they differ in, else by the option a label
// names, else by the label.
func TestCopyNames(t *testing.T) {
	cp := func(label string, params map[string]any) PolicyResult {
		return PolicyResult{ID: "cluster-sampling", Label: label, Params: params}
	}
	for _, tc := range []struct {
		name   string
		copies []PolicyResult
		want   []string
	}{
		{"one choice differs", []PolicyResult{cp("url-content", map[string]any{"featureSet": "url+content", "weights": "nad"}), cp("url", map[string]any{"featureSet": "url", "weights": "nad"})},
			[]string{"URL and content words", "URL words"}},
		{"labels name options", []PolicyResult{cp("nad", map[string]any{"featureSet": "url", "weights": "nad"}), cp("mine", map[string]any{"featureSet": "content", "weights": "sad"})},
			[]string{"Non-adaptive (nad)", "mine"}},
		{"unknown policy", []PolicyResult{{ID: "no-such", Label: "a"}, {ID: "no-such", Label: "b"}}, []string{"a", "b"}},
	} {
		got := CopyNames(tc.copies)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
