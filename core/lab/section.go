package lab

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sync"
)

// A Sectioner is a Kind with members of its own in a spec, a result or a
// policy's result, in types its package declares: each New method returns
// a pointer to a new zero value of one (a struct), or nil when the kind
// has none. The lab holds them by kind id (Sections) and writes each in
// JSON under the kind's id ("schedule"), so the JSON of a spec or result
// is the same whichever package declares the types.
type Sectioner interface {
	NewSpec() any
	NewResult() any
	NewPolicyResult() any
}

// Sections holds the registered kinds' own members of a spec or result,
// each a pointer that the kind's Sectioner made, keyed by kind id. A kind
// reads its own through a function of its package (such as
// schedulekind.SpecOf).
type Sections map[string]any

// With returns a copy of s with kind's member v: a spec or result is
// copied by value, and its copies share s, so a kind replaces its member
// rather than changing it.
func (s Sections) With(kind string, v any) Sections {
	out := make(Sections, len(s)+1)
	for k, x := range s {
		out[k] = x
	}
	out[kind] = v
	return out
}

// specSection returns a new zero member of a spec of the registered kind
// id, if it has one.
func specSection(id string) (any, bool) {
	k, ok := kindByID(id)
	if !ok {
		return nil, false
	}
	v := slotSpec.newSection(k)
	return v, v != nil
}

// A slot is where a kind's members go: a spec, a result or a policy's
// result.
type slot int

const (
	slotSpec slot = iota
	slotResult
	slotPolicy
)

// newSection returns a new zero member of kind k for the slot, or nil.
func (s slot) newSection(k Kind) any {
	sk, ok := k.(Sectioner)
	if !ok {
		return nil
	}
	switch s {
	case slotSpec:
		return sk.NewSpec()
	case slotResult:
		return sk.NewResult()
	}
	return sk.NewPolicyResult()
}

// A shape is the struct type through which a type with sections goes to
// and from JSON: the type's own fields with, in place of its Sections
// field, one field per registered kind that has a member in the slot,
// named in JSON by the kind's id and left out when nil.
type shape struct {
	typ   reflect.Type
	own   []int    // the shape's field of each of the base type's fields (-1: Sections)
	kinds []string // the kinds of the other fields
	at    []int    // their fields
}

var shapes struct {
	sync.Mutex
	m map[reflect.Type]shapeEntry
}

type shapeEntry struct {
	kinds int // the registered kinds it was made with
	s     *shape
}

var sectionsType = reflect.TypeFor[Sections]()

// shapeOf returns the shape of base (a struct type with no methods and a
// Sections field) for the slot, made once for the kinds registered so far.
func shapeOf(base reflect.Type, sl slot) *shape {
	shapes.Lock()
	defer shapes.Unlock()
	if e, ok := shapes.m[base]; ok && e.kinds == len(registered) {
		return e.s
	}
	s := &shape{}
	var fields []reflect.StructField
	for i := range base.NumField() {
		f := base.Field(i)
		if f.Type != sectionsType {
			s.own = append(s.own, len(fields))
			fields = append(fields, f)
			continue
		}
		s.own = append(s.own, -1)
		for n, k := range registered {
			v := sl.newSection(k)
			if v == nil {
				continue
			}
			s.kinds = append(s.kinds, k.ID())
			s.at = append(s.at, len(fields))
			fields = append(fields, reflect.StructField{
				Name: fmt.Sprintf("Kind%d", n), Type: reflect.TypeOf(v),
				Tag: reflect.StructTag(fmt.Sprintf(`json:"%s,omitempty"`, k.ID())),
			})
		}
	}
	s.typ = reflect.StructOf(fields)
	if shapes.m == nil {
		shapes.m = map[reflect.Type]shapeEntry{}
	}
	shapes.m[base] = shapeEntry{kinds: len(registered), s: s}
	return s
}

// forgetShapes drops the shapes made so far, for a change in the order of
// the registered kinds.
func forgetShapes() {
	shapes.Lock()
	shapes.m = nil
	shapes.Unlock()
}

// marshalSections writes v (a struct with no methods) and its kinds'
// members secs as JSON, the members in place of its Sections field.
func marshalSections(v any, secs Sections, sl slot) ([]byte, error) {
	src := reflect.ValueOf(v)
	s := shapeOf(src.Type(), sl)
	out := reflect.New(s.typ).Elem()
	for i, j := range s.own {
		if j >= 0 {
			out.Field(j).Set(src.Field(i))
		}
	}
	for id, x := range secs {
		i := slices.Index(s.kinds, id)
		if x == nil || reflect.ValueOf(x).IsNil() {
			continue
		}
		if i < 0 || reflect.TypeOf(x) != s.typ.Field(s.at[i]).Type {
			return nil, fmt.Errorf("lab: a %T is not a member of kind %s", x, id)
		}
		out.Field(s.at[i]).Set(reflect.ValueOf(x))
	}
	return json.Marshal(out.Interface())
}

// unmarshalSections reads JSON into *v (a pointer to a struct with no
// methods) and its kinds' members, strictly: a member that is neither the
// struct's nor a registered kind's is an error. A type error on the whole
// value names pub, the type being read.
func unmarshalSections(data []byte, v any, sl slot, pub reflect.Type) (Sections, error) {
	dst := reflect.ValueOf(v).Elem()
	s := shapeOf(dst.Type(), sl)
	in := reflect.New(s.typ)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(in.Interface()); err != nil {
		if typ, ok := err.(*json.UnmarshalTypeError); ok && typ.Type == s.typ {
			typ.Type = pub // say "lab.Spec", not the shape's fields
		}
		return nil, err
	}
	in = in.Elem()
	for i, j := range s.own {
		if j >= 0 {
			dst.Field(i).Set(in.Field(j))
		}
	}
	var secs Sections
	for i, id := range s.kinds {
		if f := in.Field(s.at[i]); !f.IsNil() {
			if secs == nil {
				secs = Sections{}
			}
			secs[id] = f.Interface()
		}
	}
	return secs, nil
}

// JSONShape returns the struct type that a value of type t (Spec, Result
// or PolicyResult) is read from and written as, with the registered
// kinds' members as fields, for a reader that walks a body by its type
// (the API's, to say where an unknown member is); t itself otherwise.
func JSONShape(t reflect.Type) reflect.Type {
	switch t {
	case reflect.TypeFor[Spec]():
		return shapeOf(reflect.TypeFor[specJSON](), slotSpec).typ
	case reflect.TypeFor[Result]():
		return shapeOf(reflect.TypeFor[resultJSON](), slotResult).typ
	case reflect.TypeFor[PolicyResult]():
		return shapeOf(reflect.TypeFor[policyResultJSON](), slotPolicy).typ
	}
	return t
}

// The types without methods that Spec, Result and PolicyResult are
// written through.
type (
	specJSON         Spec
	resultJSON       Result
	policyResultJSON PolicyResult
)

// MarshalJSON writes the spec with its kinds' members (Sections).
func (s Spec) MarshalJSON() ([]byte, error) {
	return marshalSections(specJSON(s), s.Sections, slotSpec)
}

// UnmarshalJSON reads a spec strictly, with its kinds' members.
func (s *Spec) UnmarshalJSON(data []byte) error {
	var v specJSON
	secs, err := unmarshalSections(data, &v, slotSpec, reflect.TypeFor[Spec]())
	if err != nil {
		return err
	}
	*s = Spec(v)
	s.Sections = secs
	return nil
}

// MarshalJSON writes the result with its kind's members (Sections).
func (r Result) MarshalJSON() ([]byte, error) {
	return marshalSections(resultJSON(r), r.Sections, slotResult)
}

// UnmarshalJSON reads a result strictly, with its kind's members.
func (r *Result) UnmarshalJSON(data []byte) error {
	var v resultJSON
	secs, err := unmarshalSections(data, &v, slotResult, reflect.TypeFor[Result]())
	if err != nil {
		return err
	}
	*r = Result(v)
	r.Sections = secs
	return nil
}

// MarshalJSON writes the policy's result with its kind's members
// (Sections).
func (p PolicyResult) MarshalJSON() ([]byte, error) {
	return marshalSections(policyResultJSON(p), p.Sections, slotPolicy)
}

// UnmarshalJSON reads a policy's result strictly, with its kind's members.
func (p *PolicyResult) UnmarshalJSON(data []byte) error {
	var v policyResultJSON
	secs, err := unmarshalSections(data, &v, slotPolicy, reflect.TypeFor[PolicyResult]())
	if err != nil {
		return err
	}
	*p = PolicyResult(v)
	p.Sections = secs
	return nil
}
