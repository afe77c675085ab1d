package api

import (
	"bytes"
	"encoding/json"
	"testing"
)

// Types for TestFindUnknownField: tags, a skipped field, an embedded
// struct (its fields promoted) and one given a name, a map, a type that
// decodes itself, and an interface.
type unknownInner struct {
	Deep int `json:"deep"`
}

type unknownEmbedded struct {
	Promoted int `json:"promoted"`
}

type unknownSelf struct{ v int }

func (s *unknownSelf) UnmarshalJSON(b []byte) error { s.v = len(b); return nil }

type unknownOuter struct {
	unknownEmbedded
	Named   unknownEmbedded          `json:"named"`
	Tagged  int                      `json:"tagged,omitempty"`
	Plain   int                      // matched by its Go name, in any case
	Skipped int                      `json:"-"`
	List    []unknownInner           `json:"list"`
	Map     map[string]*unknownInner `json:"map"`
	Self    unknownSelf              `json:"self"`
	Any     any                      `json:"any"`
}

// TestFindUnknownField checks the field and offset it finds, and that it
// finds one exactly when encoding/json rejects the body for an unknown
// field.
func TestFindUnknownField(t *testing.T) {
	for _, tc := range []struct {
		body  string
		field string // "" for none
		at    string // the body from the field's name on
	}{
		{`{"tagged":1,"plain":2,"PLAIN":3,"promoted":4,"named":{"promoted":5}}`, "", ""},
		{`{"list":[{"deep":1},{"deep":2}],"map":{"a":{"deep":3},"b":null}}`, "", ""},
		{`{"self":{"anything":[1,{"x":2}]},"any":{"x":{"y":[]}}}`, "", ""},
		{`{"tagged":1, "tagd":2}`, "tagd", `"tagd":2}`},
		{`{"Skipped":1}`, "Skipped", `"Skipped":1}`},
		{`{"named":{"promoted":1,"deep":2}}`, "named.deep", `"deep":2}}`},
		{"{\"list\":[{\"deep\":1},\n  {\"deep\":2,\n\t\"dep\":3}]}", "list[1].dep", `"dep":3}]}`},
		{`{"map":{"k":{"deeep":1}}}`, "map.k.deeep", `"deeep":1}}}`},
		{`{"self":{"x":1},"extra":{"deep":1}}`, "extra", `"extra":{"deep":1}}`},
	} {
		var v unknownOuter
		dec := json.NewDecoder(bytes.NewReader([]byte(tc.body)))
		dec.DisallowUnknownFields()
		rejected := dec.Decode(&v) != nil
		u := findUnknownField([]byte(tc.body), &v)
		if rejected != (tc.field != "") {
			t.Errorf("%s: encoding/json rejects it: %v; the test expects an unknown field: %v", tc.body, rejected, tc.field != "")
		}
		switch {
		case tc.field == "" && u != nil:
			t.Errorf("%s: found %q at %d, want none", tc.body, u.Field, u.Offset)
		case tc.field != "" && u == nil:
			t.Errorf("%s: found none, want %q", tc.body, tc.field)
		case tc.field != "" && (u.Field != tc.field || tc.body[u.Offset:] != tc.at):
			t.Errorf("%s: found %q at %q, want %q at %q", tc.body, u.Field, tc.body[u.Offset:], tc.field, tc.at)
		}
	}
}
