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

// SectionOf returns kind's member of secs as the *T its Sectioner made,
// or nil if there is none, for a kind's accessors (such as
// schedulekind.SpecOf).
func SectionOf[T any](secs Sections, kind string) *T {
	v, _ := secs[kind].(*T)
	return v
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

// A shape is the struct type through which a type with sections (Spec,
// Result, PolicyResult) goes to and from JSON: the type's own fields with,
// in place of its Sections field, one field per registered kind that has a
// member in the slot, named in JSON by the kind's id and left out when
// nil. A field that holds a type with sections (a result's spec and
// policies) holds its shape, so that a result is written and read in one
// pass, not once more for each policy.
type shape struct {
	typ   reflect.Type
	own   []int    // the shape's field of each of the type's fields (-1: Sections)
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

// slotOf returns the slot of a type with sections.
func slotOf(t reflect.Type) (slot, bool) {
	switch t {
	case reflect.TypeFor[Spec]():
		return slotSpec, true
	case reflect.TypeFor[Result]():
		return slotResult, true
	case reflect.TypeFor[PolicyResult]():
		return slotPolicy, true
	}
	return 0, false
}

// shapeOf returns the shape of t, a type with sections, made once for the
// kinds registered so far.
func shapeOf(t reflect.Type) *shape {
	shapes.Lock()
	defer shapes.Unlock()
	return shapeLocked(t)
}

// forgetShapes drops the shapes made so far, for a change in the order of
// the registered kinds.
func forgetShapes() {
	shapes.Lock()
	shapes.m = nil
	shapes.Unlock()
}

func shapeLocked(t reflect.Type) *shape {
	if e, ok := shapes.m[t]; ok && e.kinds == len(registered) {
		return e.s
	}
	sl, _ := slotOf(t)
	s := &shape{}
	var fields []reflect.StructField
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type != sectionsType {
			s.own = append(s.own, len(fields))
			f.Type = shapedLocked(f.Type)
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
	shapes.m[t] = shapeEntry{kinds: len(registered), s: s}
	return s
}

// shapedLocked returns t with the types with sections in it (directly,
// or through pointers and slices) replaced by their shapes.
func shapedLocked(t reflect.Type) reflect.Type {
	if _, ok := slotOf(t); ok {
		return shapeLocked(t).typ
	}
	switch t.Kind() {
	case reflect.Pointer:
		if e := shapedLocked(t.Elem()); e != t.Elem() {
			return reflect.PointerTo(e)
		}
	case reflect.Slice:
		if e := shapedLocked(t.Elem()); e != t.Elem() {
			return reflect.SliceOf(e)
		}
	}
	return t
}

// toShape sets dst, of src's shaped type, to src.
func toShape(dst, src reflect.Value) error {
	if dst.Type() == src.Type() {
		dst.Set(src)
		return nil
	}
	switch src.Kind() {
	case reflect.Pointer:
		if !src.IsNil() {
			dst.Set(reflect.New(dst.Type().Elem()))
			return toShape(dst.Elem(), src.Elem())
		}
	case reflect.Slice:
		if !src.IsNil() {
			dst.Set(reflect.MakeSlice(dst.Type(), src.Len(), src.Len()))
			for i := range src.Len() {
				if err := toShape(dst.Index(i), src.Index(i)); err != nil {
					return err
				}
			}
		}
	case reflect.Struct:
		s := shapeOf(src.Type())
		for i, j := range s.own {
			if j < 0 {
				if err := s.setKinds(dst, src.Field(i).Interface().(Sections)); err != nil {
					return err
				}
			} else if err := toShape(dst.Field(j), src.Field(i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// setKinds sets the kinds' fields of dst, a value of the shape, to secs.
func (s *shape) setKinds(dst reflect.Value, secs Sections) error {
	for id, x := range secs {
		if x == nil || reflect.ValueOf(x).IsNil() {
			continue
		}
		i := slices.Index(s.kinds, id)
		if i < 0 || reflect.TypeOf(x) != s.typ.Field(s.at[i]).Type {
			return fmt.Errorf("lab: a %T is not a member of kind %s", x, id)
		}
		dst.Field(s.at[i]).Set(reflect.ValueOf(x))
	}
	return nil
}

// fromShape sets dst to src, a value of dst's shaped type.
func fromShape(dst, src reflect.Value) {
	if dst.Type() == src.Type() {
		dst.Set(src)
		return
	}
	switch src.Kind() {
	case reflect.Pointer:
		if !src.IsNil() {
			dst.Set(reflect.New(dst.Type().Elem()))
			fromShape(dst.Elem(), src.Elem())
		}
	case reflect.Slice:
		if !src.IsNil() {
			dst.Set(reflect.MakeSlice(dst.Type(), src.Len(), src.Len()))
			for i := range src.Len() {
				fromShape(dst.Index(i), src.Index(i))
			}
		}
	case reflect.Struct:
		s := shapeOf(dst.Type())
		for i, j := range s.own {
			if j >= 0 {
				fromShape(dst.Field(i), src.Field(j))
				continue
			}
			var secs Sections
			for k, id := range s.kinds {
				if f := src.Field(s.at[k]); !f.IsNil() {
					if secs == nil {
						secs = Sections{}
					}
					secs[id] = f.Interface()
				}
			}
			dst.Field(i).Set(reflect.ValueOf(secs))
		}
	}
}

// marshalSections writes v, a Spec, Result or PolicyResult, as JSON with
// its kinds' members.
func marshalSections(v any) ([]byte, error) {
	src := reflect.ValueOf(v)
	out := reflect.New(shapeOf(src.Type()).typ).Elem()
	if err := toShape(out, src); err != nil {
		return nil, err
	}
	return json.Marshal(out.Interface())
}

// unmarshalSections reads JSON into *v, a Spec, Result or PolicyResult,
// with its kinds' members, strictly: a member that is neither the type's
// nor a registered kind's is an error.
func unmarshalSections(data []byte, v any) error {
	dst := reflect.ValueOf(v).Elem()
	s := shapeOf(dst.Type())
	in := reflect.New(s.typ)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(in.Interface()); err != nil {
		if typ, ok := err.(*json.UnmarshalTypeError); ok {
			typ.Type = ShapeFor(typ.Type) // say "lab.Spec", not the shape's fields
		}
		return err
	}
	fromShape(dst, in.Elem())
	return nil
}

// JSONShape returns the struct type that a value of type t (Spec, Result
// or PolicyResult) is read from and written as, with the registered
// kinds' members as fields, for a reader that walks a body by its type
// (the API's, to say where an unknown member is); t itself otherwise.
func JSONShape(t reflect.Type) reflect.Type {
	if _, ok := slotOf(t); ok {
		return shapeOf(t).typ
	}
	return t
}

// ShapeFor returns the type that t is the JSON shape of (JSONShape), or t
// itself, so that an error can name the type the reader asked for.
func ShapeFor(t reflect.Type) reflect.Type {
	shapes.Lock()
	defer shapes.Unlock()
	return shapeForLocked(t)
}

func shapeForLocked(t reflect.Type) reflect.Type {
	for orig, e := range shapes.m {
		if e.s.typ == t {
			return orig
		}
	}
	return t
}

// MarshalJSON writes the spec with its kinds' members (Sections).
func (s Spec) MarshalJSON() ([]byte, error) { return marshalSections(s) }

// UnmarshalJSON reads a spec strictly, with its kinds' members.
func (s *Spec) UnmarshalJSON(data []byte) error { return unmarshalSections(data, s) }

// MarshalJSON writes the result with its kind's members (Sections).
func (r Result) MarshalJSON() ([]byte, error) { return marshalSections(r) }

// UnmarshalJSON reads a result strictly, with its kind's members.
func (r *Result) UnmarshalJSON(data []byte) error { return unmarshalSections(data, r) }

// MarshalJSON writes the policy's result with its kind's members
// (Sections).
func (p PolicyResult) MarshalJSON() ([]byte, error) { return marshalSections(p) }

// UnmarshalJSON reads a policy's result strictly, with its kind's members.
func (p *PolicyResult) UnmarshalJSON(data []byte) error { return unmarshalSections(data, p) }
