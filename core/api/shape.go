package api

import (
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/refreshlab/refreshlab/core/lab"
)

// shaped returns a type like t in which each lab type that reads its JSON
// through a shape of its own (lab.JSONShape: a spec, result or policy's
// result, with its kinds' members) is that shape, through structs,
// pointers, slices and maps; ok is false when t holds a type it cannot
// rebuild (one that refers to itself, or an embedded field). A body decoded into it reports its errors
// at their place in the whole body, where the lab type's own decoding
// reports them within its part.
func shaped(t reflect.Type, depth int) (reflect.Type, bool) {
	if depth > 32 {
		return t, false
	}
	if s := lab.JSONShape(t); s != t {
		return s, true // its fields' specs and results are shapes too
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return t, true
	}
	switch t.Kind() {
	case reflect.Pointer:
		e, ok := shaped(t.Elem(), depth+1)
		return reflect.PointerTo(e), ok
	case reflect.Slice:
		e, ok := shaped(t.Elem(), depth+1)
		return reflect.SliceOf(e), ok
	case reflect.Map:
		e, ok := shaped(t.Elem(), depth+1)
		return reflect.MapOf(t.Key(), e), ok
	case reflect.Struct:
		var fields []reflect.StructField
		changed := false
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				changed = true
				continue
			}
			if f.Anonymous {
				return t, false
			}
			ft, ok := shaped(f.Type, depth+1)
			if !ok {
				return t, false
			}
			changed = changed || ft != f.Type
			f.Type = ft
			fields = append(fields, f)
		}
		if !changed {
			return t, true
		}
		return reflect.StructOf(fields), true
	}
	return t, true
}

// typeError decodes body strictly as v's type is read, but through the
// lab's shapes (shaped), and returns the type error it meets with its
// offset in the whole body and the type named as v's own; nil when the
// type cannot be rebuilt or the decoding meets no type error.
func typeError(body []byte, v any) *json.UnmarshalTypeError {
	t, ok := shaped(reflect.TypeOf(v).Elem(), 0)
	if !ok {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	typ, ok := dec.Decode(reflect.New(t).Interface()).(*json.UnmarshalTypeError)
	if !ok {
		return nil
	}
	typ.Type = lab.ShapeFor(typ.Type)
	return typ
}
