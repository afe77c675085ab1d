package api

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"github.com/refreshlab/refreshlab/core/lab"
)

// unknownFieldError is a member of a JSON object that no field of the Go
// struct it decodes into takes.
type unknownFieldError struct {
	Field  string // its path, as the lab names fields: policies[0].parms
	Offset int64  // the byte offset of its name in the body
}

func (e *unknownFieldError) Error() string { return "unknown field " + strconv.Quote(e.Field) }

// findUnknownField walks body as a value of v's type and returns the first
// object member that matches no struct field, or nil. encoding/json's
// decoder rejects such a member (DisallowUnknownFields) but only says so in
// its error's text; this finds it, and where it is, from the body and the
// type alone. It matches names as encoding/json does: the json tag's name
// or else the Go name, exactly or ignoring case, through embedded structs.
// A spec or result is walked as its JSON shape (lab.JSONShape), with its
// kinds' members; inside any other value whose type decodes itself
// (json.Unmarshaler) or an interface nothing is checked, as the decoder
// checks nothing there either.
func findUnknownField(body []byte, v any) *unknownFieldError {
	w := unknownWalk{body: body, dec: json.NewDecoder(bytes.NewReader(body))}
	return w.value(reflect.TypeOf(v), "")
}

// unknownWalk reads a body's tokens for findUnknownField.
type unknownWalk struct {
	body []byte
	dec  *json.Decoder
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// value reads one value of type t (nil: any), whose path is path; it
// returns nil also when the JSON is not well formed, which the decoder has
// reported already.
func (w *unknownWalk) value(t reflect.Type, path string) *unknownFieldError {
	dec := w.dec
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil {
		t = lab.JSONShape(t) // a spec or result with its kinds' members
	}
	if t != nil && reflect.PointerTo(t).Implements(unmarshalerType) {
		t = nil
	}
	tok, err := dec.Token()
	if err != nil {
		return nil
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil // a string, number, true, false or null
	}
	if d == '[' {
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for i := 0; dec.More(); i++ {
			if e := w.value(elem, path+"["+strconv.Itoa(i)+"]"); e != nil {
				return e
			}
		}
		dec.Token() // ]
		return nil
	}
	for dec.More() {
		// InputOffset is where the token before the name ended: the name
		// starts after the comma and spaces that follow.
		at := dec.InputOffset()
		for at < int64(len(w.body)) && strings.IndexByte(", \t\r\n", w.body[at]) >= 0 {
			at++
		}
		tok, err := dec.Token()
		name, ok := tok.(string)
		if err != nil || !ok {
			return nil
		}
		field := name
		if path != "" {
			field = path + "." + name
		}
		var next reflect.Type
		switch {
		case t == nil:
		case t.Kind() == reflect.Map:
			next = t.Elem()
		case t.Kind() == reflect.Struct:
			f, ok := structField(t, name)
			if !ok {
				return &unknownFieldError{Field: field, Offset: at}
			}
			next = f
		}
		if e := w.value(next, field); e != nil {
			return e
		}
	}
	dec.Token() // }
	return nil
}

// structField returns the type of the field of struct t that takes the
// JSON member name, as encoding/json matches it.
func structField(t reflect.Type, name string) (reflect.Type, bool) {
	var folded reflect.Type
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		n, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && n == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				if got, ok := structField(ft, name); ok {
					return got, true
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if n == "" {
			n = f.Name
		}
		if n == name {
			return f.Type, true
		}
		if folded == nil && strings.EqualFold(n, name) {
			folded = f.Type
		}
	}
	return folded, folded != nil
}
