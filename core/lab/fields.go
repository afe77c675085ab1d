package lab

import (
	"cmp"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/refreshlab/refreshlab/core/param"

	"github.com/refreshlab/refreshlab/core/internal/quote"
)

// A control or a sweep changes one setting of a spec, named by a path:
//
//	budget, cycles, repeats, seed   the spec's own numbers
//	dataset.id                      the dataset
//	policies                        which policies run (a control only)
//	params.NAME                     parameter NAME of every policy that has it
//	policies.KEY.NAME               parameter NAME of the one policy whose key
//	                                (PolicySpec.Key: its label, or its id) is KEY
//	estimate.…, schedule.…,         the estimate, schedule and registered
//	monitor.…                       kinds' own fields (SpecFields)
//
// Lab.Field resolves a path against a spec and the catalog, once, for the
// runner's sweeps (With), the lesson builder and the page (POST
// /api/fields), so that none of them parses paths of its own.

// Field types besides param's (Int, Float, Bool, Enum).
const (
	FieldDataset  = "dataset"  // a dataset id of the catalog
	FieldPolicies = "policies" // which policies of the spec's kind run
)

// Field is a resolved path: what the setting is and where in a spec its
// value goes.
type Field struct {
	Path string `json:"path"`
	// Type is a param type (int, float, bool, enum), FieldDataset or
	// FieldPolicies.
	Type string `json:"type"`
	// Param describes a number, choice or switch: its bounds, options,
	// default (or computed default, Auto) and help. It is nil for a
	// dataset or the policies.
	Param *param.Param `json:"param,omitempty"`
	// Options lists the catalog's datasets, or its policies of the spec's
	// kind, for those two types.
	Options []string `json:"options,omitempty"`
	// Targets are where the value goes; empty for FieldPolicies, whose
	// value is the list of ids of the spec's unlabelled policies.
	Targets []Target `json:"targets,omitempty"`
}

// Target is one place in a spec a field's value goes: a member of the spec
// (Member, its JSON names from the top), or parameter Param of every
// policy with id ID, or of the policy with key Key.
type Target struct {
	Member []string `json:"member,omitempty"`
	ID     string   `json:"id,omitempty"`
	Key    string   `json:"key,omitempty"`
	Param  string   `json:"param,omitempty"`
}

// SpecField is a member of a spec that a path may name: a param whose
// Name is the path, of every kind or of one (Kind).
type SpecField struct {
	param.Param
	Kind string `json:"kind,omitempty"`
}

// commonFields are the members every kind has.
var commonFields = []SpecField{
	{Param: param.Param{Name: "budget", Label: "Budget", Type: param.Int, Help: "Downloads per cycle (refresh), syncs per day (schedule), or monitoring tasks per epoch (monitor)."}.Range(1, math.MaxInt32)},
	{Param: param.Param{Name: "cycles", Label: "Cycles", Type: param.Int, Help: "Cycles to play; 0 means all of the dataset's."}.Range(0, math.MaxInt32), Kind: KindRefresh},
	{Param: param.Param{Name: "repeats", Label: "Repeats", Type: param.Int, Help: "Independent runs per policy, each with its own random stream."}.Range(1, MaxRepeats)},
	{Param: param.Param{Name: "seed", Label: "Seed", Type: param.Int, Help: "Seeds every policy's random streams."}.Range(0, 1<<53)},
	{Param: param.Param{Name: "dataset.id", Label: "Dataset", Type: FieldDataset, Help: "The dataset the experiment runs on."}},
}

// SpecFields lists the members of a spec that controls and sweeps may set.
func SpecFields() []SpecField {
	return slices.Concat(commonFields, driftFields, registeredFields())
}

func findSpecField(path string) (SpecField, bool) {
	i := slices.IndexFunc(SpecFields(), func(f SpecField) bool { return f.Name == path })
	if i < 0 {
		return SpecField{}, false
	}
	return SpecFields()[i], true
}

// Field resolves path against spec (whose policies a policies.KEY.NAME
// path must name) and the catalog. The error says what was expected.
func (l *Lab) Field(spec Spec, path string) (Field, error) {
	kind := cmp.Or(spec.Kind, KindRefresh)
	if sf, ok := findSpecField(path); ok {
		if sf.Kind != "" && sf.Kind != kind {
			return Field{}, fmt.Errorf("field %s belongs to experiments of kind %s, not %s", quote.Q(path), sf.Kind, kind)
		}
		f := Field{Path: path, Type: sf.Type, Targets: []Target{{Member: strings.Split(path, ".")}}}
		if sf.Type == FieldDataset {
			for _, d := range l.Datasets() {
				f.Options = append(f.Options, d.ID)
			}
		} else {
			p := sf.Param
			f.Param = &p
		}
		return f, nil
	}
	if path == FieldPolicies {
		f := Field{Path: path, Type: FieldPolicies}
		for _, d := range l.policies {
			if d.Kind == kind {
				f.Options = append(f.Options, d.ID)
			}
		}
		return f, nil
	}
	if name, ok := strings.CutPrefix(path, "params."); ok && name != "" {
		// Every policy of the kind with the parameter: those the spec runs
		// now, and those a control may add.
		// The parameter's description (default, bounds) is that of the
		// first policy of the spec that has it.
		f := Field{Path: path}
		inSpec := false
		for _, d := range l.policies {
			i := slices.IndexFunc(d.Params, func(q param.Param) bool { return q.Name == name })
			if d.Kind != kind || i < 0 {
				continue
			}
			f.Targets = append(f.Targets, Target{ID: d.ID, Param: name})
			if !inSpec && slices.ContainsFunc(spec.Policies, func(p PolicySpec) bool { return p.ID == d.ID }) {
				p := d.Params[i]
				f.Param, f.Type, inSpec = &p, p.Type, true
			}
		}
		if !inSpec {
			return Field{}, fmt.Errorf("field %s: no policy in the spec has a parameter %s", quote.Q(path), quote.Q(name))
		}
		return f, nil
	}
	if rest, ok := strings.CutPrefix(path, "policies."); ok {
		key, name, ok := strings.Cut(rest, ".")
		if !ok || key == "" || name == "" {
			return Field{}, fmt.Errorf("field %s: expected policies.ID.NAME, the id (or label) of a policy of the spec and one of its parameters", quote.Q(path))
		}
		i := slices.IndexFunc(spec.Policies, func(p PolicySpec) bool { return p.Key() == key })
		if i < 0 {
			var keys []string
			for _, p := range spec.Policies {
				keys = append(keys, p.Key())
			}
			return Field{}, fmt.Errorf("field %s: no policy %s in the spec (expected one of %s)", quote.Q(path), quote.Q(key), strings.Join(keys, ", "))
		}
		d, ok := l.policyOf(kind, spec.Policies[i].ID)
		if !ok {
			return Field{}, fmt.Errorf("field %s: unknown policy %q", quote.Q(path), spec.Policies[i].ID)
		}
		j := slices.IndexFunc(d.Params, func(q param.Param) bool { return q.Name == name })
		if j < 0 {
			var names []string
			for _, q := range d.Params {
				names = append(names, q.Name)
			}
			return Field{}, fmt.Errorf("field %s: policy %s has no parameter %s (expected one of %s)", quote.Q(path), d.ID, quote.Q(name), strings.Join(names, ", "))
		}
		p := d.Params[j]
		return Field{Path: path, Type: p.Type, Param: &p, Targets: []Target{{Key: key, Param: name}}}, nil
	}
	var names []string
	for _, f := range SpecFields() {
		if f.Kind == "" || f.Kind == kind {
			names = append(names, f.Name)
		}
	}
	return Field{}, fmt.Errorf("unknown field %s (expected %s, policies, params.NAME or policies.ID.NAME)", quote.Q(path), strings.Join(names, ", "))
}

// Set returns a copy of spec with the field's value v (a number, string or
// bool, as JSON gives them) in every target. The copy shares no policy
// parameters with spec. Values are checked by the run, not here, except
// that a whole-number member takes whole numbers.
func (f Field) Set(spec Spec, v any) (Spec, error) {
	out := spec
	out.Policies = make([]PolicySpec, len(spec.Policies))
	for i, p := range spec.Policies {
		out.Policies[i] = PolicySpec{ID: p.ID, Label: p.Label, Params: make(param.Values, len(p.Params)+1)}
		for k, x := range p.Params {
			out.Policies[i].Params[k] = x
		}
	}
	if f.Type == FieldPolicies {
		return out, fmt.Errorf("field %q: the policies a spec runs are set by editing its policies", f.Path)
	}
	for _, t := range f.Targets {
		if t.Member != nil {
			if err := setMember(&out, t.Member, v); err != nil {
				return out, fmt.Errorf("field %q: %v", f.Path, err)
			}
			continue
		}
		for i, p := range out.Policies {
			if t.ID != "" && p.ID == t.ID || t.Key != "" && p.Key() == t.Key {
				out.Policies[i].Params[t.Param] = v
			}
		}
	}
	return out, nil
}

// setMember sets the member of *spec at path (JSON names) to v, allocating
// the structs on the way and a kind's member of spec.Sections as copies,
// so that spec's own are left as they were.
func setMember(spec *Spec, path []string, v any) error {
	at := reflect.ValueOf(spec).Elem()
	if zero, ok := specSection(path[0]); ok {
		// A kind's own fields: a copy of its member, or a new one.
		cp := reflect.New(reflect.TypeOf(zero).Elem())
		if x := spec.Sections[path[0]]; x != nil {
			cp.Elem().Set(reflect.ValueOf(x).Elem())
		}
		spec.Sections = spec.Sections.With(path[0], cp.Interface())
		at = cp.Elem()
		path = path[1:]
	}
	for n, name := range path {
		if at.Kind() == reflect.Pointer {
			cp := reflect.New(at.Type().Elem())
			if !at.IsNil() {
				cp.Elem().Set(at.Elem())
			}
			at.Set(cp)
			at = cp.Elem()
		}
		i := slices.IndexFunc(reflect.VisibleFields(at.Type()), func(sf reflect.StructField) bool {
			tag, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			return tag == name
		})
		if i < 0 {
			return fmt.Errorf("no member %q", strings.Join(path[:n+1], "."))
		}
		at = at.Field(i)
	}
	if at.Kind() == reflect.Pointer { // a *float64 such as schedule.warmup
		at.Set(reflect.New(at.Type().Elem()))
		at = at.Elem()
	}
	switch at.Kind() {
	case reflect.Int, reflect.Uint64:
		x, ok := v.(float64)
		if !ok || x != math.Trunc(x) || math.Abs(x) > 1<<53 {
			return fmt.Errorf("expected a whole number, got %v", v)
		}
		if at.Kind() == reflect.Uint64 {
			if x < 0 {
				return fmt.Errorf("expected a number of at least 0, got %v", x)
			}
			at.SetUint(uint64(x))
		} else {
			at.SetInt(int64(x))
		}
	case reflect.Float64:
		x, ok := v.(float64)
		if !ok {
			return fmt.Errorf("expected a number, got %v", v)
		}
		at.SetFloat(x)
	case reflect.String:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("expected a string, got %v", v)
		}
		at.SetString(s)
	case reflect.Bool:
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("expected true or false, got %v", v)
		}
		at.SetBool(b)
	default:
		return fmt.Errorf("cannot set a %s", at.Kind())
	}
	return nil
}
