package lab

import (
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/refreshlab/refreshlab/core/chart"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
)

// catalog is the catalog's policies, listed once for the look-ups below,
// which need no Lab.
var catalog = sync.OnceValue(Policies)

// PolicyStyle returns how every chart draws policy id: the style of its
// place in the catalog (chart.Nth), so that a policy has one colour, dash
// pattern and marker across the whole site whichever charts and lessons
// show it, and no two policies of the catalog share a style or differ in
// colour alone. An oracle is drawn hollow (Open), for it reads the truth.
// ok is false for an id the catalog does not know.
func PolicyStyle(id string) (s chart.Style, ok bool) {
	ds := catalog()
	i := slices.IndexFunc(ds, func(d refresh.Descriptor) bool { return d.ID == id })
	if i < 0 {
		return chart.Style{}, false
	}
	s = chart.Nth(i)
	s.Open = ds[i].Oracle
	return s, true
}

// FieldLabel returns what people read for the setting at path in spec (an
// axis title, say): the label of its parameter or member in the catalog,
// or the path itself when it does not resolve.
func FieldLabel(spec Spec, path string) string {
	f, err := (&Lab{policies: catalog()}).Field(spec, path)
	switch {
	case err != nil:
		return path
	case f.Param != nil:
		return f.Param.Display()
	}
	if sf, ok := findSpecField(path); ok {
		return sf.Display()
	}
	return path
}

// RunValue returns the number the setting at path had in res's own run
// (not its sweep; the slider's value, in a lesson): the spec's member, or
// the parameter of the first policy the path reaches, as that policy used
// it (a computed default included). ok is false where the run has no such
// number.
func RunValue(res *Result, path string) (v float64, ok bool) {
	f, err := (&Lab{policies: catalog()}).Field(res.Spec, path)
	if err != nil {
		return 0, false
	}
	for _, t := range f.Targets {
		if t.Member != nil {
			return memberValue(res.Spec, t.Member)
		}
		for _, p := range res.Policies {
			if t.ID != "" && p.ID == t.ID || t.Key != "" && p.Key() == t.Key {
				if x, ok := p.Params[t.Param]; ok {
					return param.Number(x)
				}
			}
		}
	}
	return 0, false
}

// memberValue reads the number at path (JSON names) of spec, the way
// setMember writes it.
func memberValue(spec Spec, path []string) (float64, bool) {
	at := reflect.ValueOf(spec)
	if _, ok := specSection(path[0]); ok {
		x, ok := spec.Sections[path[0]]
		if !ok {
			return 0, false
		}
		at, path = reflect.ValueOf(x), path[1:]
	}
	for _, name := range path {
		for at.Kind() == reflect.Pointer {
			if at.IsNil() {
				return 0, false
			}
			at = at.Elem()
		}
		if at.Kind() != reflect.Struct {
			return 0, false
		}
		i := slices.IndexFunc(reflect.VisibleFields(at.Type()), func(sf reflect.StructField) bool {
			tag, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			return tag == name
		})
		if i < 0 {
			return 0, false
		}
		at = at.Field(i)
	}
	for at.Kind() == reflect.Pointer {
		if at.IsNil() {
			return 0, false
		}
		at = at.Elem()
	}
	switch at.Kind() {
	case reflect.Int, reflect.Int64:
		return float64(at.Int()), true
	case reflect.Uint64:
		return float64(at.Uint()), true
	case reflect.Float64:
		return at.Float(), true
	}
	return 0, false
}

// SeriesStyles returns the style of each policy of ps, by key, in a chart
// that draws them together: each policy's own (PolicyStyle), except that
// labelled copies of one policy (one id under several labels: cluster
// sampling on six feature sets, say) take the sequence's styles in order,
// skipping any whose dash and marker a policy of ps already has, for one
// style would not tell them apart and no two may differ in colour alone.
func SeriesStyles(ps []PolicySpec) map[string]chart.Style {
	out := make(map[string]chart.Style, len(ps))
	type looks struct{ dash, marker int }
	key := func(s chart.Style) looks { return looks{s.Dash % chart.SeriesColors, s.Marker} }
	used := map[looks]bool{}
	copyOf := func(p PolicySpec) bool {
		return p.Label != "" && slices.ContainsFunc(ps, func(q PolicySpec) bool { return q.ID == p.ID && q.Key() != p.Key() })
	}
	for _, p := range ps {
		if s, ok := PolicyStyle(p.ID); ok && !copyOf(p) {
			out[p.Key()] = s
			used[key(s)] = true
		}
	}
	k := 0
	for _, p := range ps {
		if _, ok := out[p.Key()]; ok {
			continue
		}
		for used[key(chart.Nth(k))] && k < chart.SeriesColors*chart.SeriesColors {
			k++
		}
		out[p.Key()] = chart.Nth(k)
		used[key(chart.Nth(k))] = true
		k++
	}
	return out
}

// CopyNames returns what a chart calls labelled copies of one policy drawn
// together (cluster sampling with each history weighting, say), in order:
// where the copies differ in one choice of the policy alone, that option's
// label for people ("Non-adaptive (nad)", "URL and content words"); else
// each copy's label, or the label of the option it names (weights: nad).
// So code names stay out of legends and axes.
func CopyNames(copies []PolicyResult) []string {
	names := make([]string, len(copies))
	for i, p := range copies {
		names[i] = p.Label
	}
	if len(copies) == 0 {
		return names
	}
	ds := catalog()
	i := slices.IndexFunc(ds, func(d refresh.Descriptor) bool { return d.ID == copies[0].ID })
	if i < 0 {
		return names
	}
	var differ []param.Param
	for _, q := range ds[i].Params {
		if q.Type != param.Enum {
			continue
		}
		first, _ := copies[0].Params[q.Name].(string)
		if slices.ContainsFunc(copies, func(p PolicyResult) bool { v, _ := p.Params[q.Name].(string); return v != first }) {
			differ = append(differ, q)
		}
	}
	for k, p := range copies {
		if len(differ) == 1 {
			if v, ok := p.Params[differ[0].Name].(string); ok {
				names[k] = differ[0].OptionLabel(v)
			}
			continue
		}
		for _, q := range ds[i].Params {
			if v, ok := p.Params[q.Name].(string); ok && q.Type == param.Enum && v == p.Label {
				names[k] = q.OptionLabel(v)
			}
		}
	}
	return names
}
