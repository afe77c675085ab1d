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
// sampling on six feature sets, say) take the sequence's styles by their
// position in ps, for one style would not tell them apart.
func SeriesStyles(ps []PolicySpec) map[string]chart.Style {
	out := make(map[string]chart.Style, len(ps))
	for i, p := range ps {
		s, ok := PolicyStyle(p.ID)
		copies := slices.ContainsFunc(ps, func(q PolicySpec) bool { return q.ID == p.ID && q.Key() != p.Key() })
		if !ok || copies {
			s = chart.Nth(i)
		}
		out[p.Key()] = s
	}
	return out
}

// CopyLabel returns what a chart calls a labelled copy of policy id among
// the others (cluster sampling with each history weighting, say): its
// label, or, where the label is the value of one of the policy's choices
// in params (weights: nad), that option's label for people ("Non-adaptive
// (nad)"), so that code names stay out of legends and axes.
func CopyLabel(id, label string, params param.Values) string {
	ds := catalog()
	i := slices.IndexFunc(ds, func(d refresh.Descriptor) bool { return d.ID == id })
	if i < 0 {
		return label
	}
	for _, q := range ds[i].Params {
		if v, ok := params[q.Name].(string); ok && q.Type == param.Enum && v == label {
			return q.OptionLabel(v)
		}
	}
	return label
}
