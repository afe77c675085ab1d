package param

import (
	"encoding/json"
	"maps"
	"math"
	"strings"
	"testing"
)

// testParams covers every type: an int with a default and a range, an int
// whose default is computed (Auto), a float with only a minimum, a bool and
// an enum.
var testParams = []Param{
	Param{Name: "size", Type: Int, Default: 10.0, Step: 1}.Range(1, 100),
	Param{Name: "auto", Type: Int, Auto: "√(N·r)"}.Range(1, 1000),
	{Name: "weight", Type: Float, Default: 0.5, Min: ptr(0)},
	{Name: "greedy", Type: Bool, Default: true},
	{Name: "alloc", Type: Enum, Default: "greedy", Options: []string{"greedy", "proportional"}},
}

func ptr(f float64) *float64 { return &f }

// TestCheck checks Check on valid and invalid values: declared defaults are
// filled in, computed (Auto) ones left unset, numbers normalised to float64;
// each kind of bad value is rejected with a message that names the
// parameter and says what was expected.
func TestCheck(t *testing.T) {
	defaults := Values{"size": 10.0, "weight": 0.5, "greedy": true, "alloc": "greedy"}
	tests := []struct {
		name    string
		params  []Param
		in      Values
		want    Values   // when no error
		wantErr []string // substrings of the error
	}{
		{name: "nil values: defaults filled, auto unset", params: testParams, in: nil, want: defaults},
		{name: "empty values", params: testParams, in: Values{}, want: defaults},
		{name: "set values override defaults", params: testParams,
			in:   Values{"size": 20.0, "auto": 7.0, "weight": 2.5, "greedy": false, "alloc": "proportional"},
			want: Values{"size": 20.0, "auto": 7.0, "weight": 2.5, "greedy": false, "alloc": "proportional"}},
		{name: "Go ints become float64", params: testParams, in: Values{"size": 3, "auto": int64(4)},
			want: Values{"size": 3.0, "auto": 4.0, "weight": 0.5, "greedy": true, "alloc": "greedy"}},
		{name: "bounds are inclusive", params: testParams, in: Values{"size": 100.0, "auto": 1.0, "weight": 0.0},
			want: Values{"size": 100.0, "auto": 1.0, "weight": 0.0, "greedy": true, "alloc": "greedy"}},
		{name: "whole float for an int", params: testParams, in: Values{"size": 5.0},
			want: Values{"size": 5.0, "weight": 0.5, "greedy": true, "alloc": "greedy"}},
		{name: "no params, no values", params: nil, in: nil, want: Values{}},

		{name: "unknown name lists the known ones", params: testParams, in: Values{"sampleSize": 3.0},
			wantErr: []string{`"sampleSize"`, "size, auto, weight, greedy, alloc"}},
		{name: "unknown name, no params", params: nil, in: Values{"x": 1.0},
			wantErr: []string{`"x"`, "takes no parameters"}},
		{name: "string for an int", params: testParams, in: Values{"size": "10"},
			wantErr: []string{`"size"`, "expected a number", `"10"`}},
		{name: "null for a float", params: testParams, in: Values{"weight": nil},
			wantErr: []string{`"weight"`, "expected a number", "null"}},
		{name: "bool for a float", params: testParams, in: Values{"weight": true},
			wantErr: []string{`"weight"`, "expected a number", "true"}},
		{name: "fraction for an int", params: testParams, in: Values{"size": 2.5},
			wantErr: []string{`"size"`, "whole number", "2.5"}},
		{name: "below the minimum", params: testParams, in: Values{"size": 0.0},
			wantErr: []string{`"size"`, "below the minimum 1"}},
		{name: "above the maximum", params: testParams, in: Values{"size": 101.0},
			wantErr: []string{`"size"`, "above the maximum 100"}},
		{name: "negative float", params: testParams, in: Values{"weight": -0.1},
			wantErr: []string{`"weight"`, "below the minimum 0"}},
		{name: "NaN", params: testParams, in: Values{"weight": math.NaN()},
			wantErr: []string{`"weight"`, "finite"}},
		{name: "+Inf with no maximum", params: testParams, in: Values{"weight": math.Inf(1)},
			wantErr: []string{`"weight"`, "finite"}},
		{name: "-Inf", params: testParams, in: Values{"size": math.Inf(-1)},
			wantErr: []string{`"size"`, "finite"}},
		{name: "number for a bool", params: testParams, in: Values{"greedy": 1.0},
			wantErr: []string{`"greedy"`, "true or false", "1"}},
		{name: "string for a bool", params: testParams, in: Values{"greedy": "true"},
			wantErr: []string{`"greedy"`, "true or false", `"true"`}},
		{name: "option not offered", params: testParams, in: Values{"alloc": "uniform"},
			wantErr: []string{`"alloc"`, "greedy, proportional", `"uniform"`}},
		{name: "number for an enum", params: testParams, in: Values{"alloc": 1.0},
			wantErr: []string{`"alloc"`, "greedy, proportional"}},
		{name: "unsupported Go type", params: testParams, in: Values{"size": [2]int{1, 2}},
			wantErr: []string{`"size"`, "expected a number", "[2]int"}},
		{name: "unknown declared type", params: []Param{{Name: "p", Type: "complex"}}, in: Values{"p": 1.0},
			wantErr: []string{`"p"`, `unknown type "complex"`}},
		// Several bad values: the first in name order is reported, so the
		// message does not depend on map iteration order.
		{name: "first bad value by name", params: testParams, in: Values{"weight": -1.0, "size": 0.5, "zzz": 1.0},
			wantErr: []string{`"size"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in Values
			if tt.in != nil {
				in = maps.Clone(tt.in)
			}
			for range 5 { // map order must not matter
				got, err := Check(tt.params, tt.in)
				if tt.wantErr != nil {
					if err == nil {
						t.Fatalf("Check(%v) = %v, want an error containing %q", tt.in, got, tt.wantErr)
					}
					for _, s := range tt.wantErr {
						if !strings.Contains(err.Error(), s) {
							t.Errorf("error %q does not contain %q", err, s)
						}
					}
					continue
				}
				if err != nil {
					t.Fatalf("Check(%v): %v", tt.in, err)
				}
				if !equalValues(got, tt.want) {
					t.Errorf("Check(%v) = %#v, want %#v", tt.in, got, tt.want)
				}
				if got.Has("auto") != tt.in.Has("auto") {
					t.Errorf("auto parameter set = %v, want %v (computed defaults stay unset)", got.Has("auto"), tt.in.Has("auto"))
				}
			}
			if tt.in != nil && !equalValues(tt.in, in) {
				t.Errorf("Check modified its input: %v, was %v", tt.in, in)
			}
		})
	}
}

// equalValues compares values exactly, including their Go types (float64
// 3 is not int 3).
func equalValues(a, b Values) bool {
	if len(a) != len(b) {
		return false
	}
	for k, va := range a {
		vb, ok := b[k]
		if !ok {
			return false
		}
		if fa, ok := va.(float64); ok && math.IsNaN(fa) {
			if fb, ok := vb.(float64); !ok || !math.IsNaN(fb) {
				return false
			}
			continue
		}
		if va != vb {
			return false
		}
	}
	return true
}

// TestCheckJSONValues checks values as they arrive in a spec: decoded from
// JSON, where every number is a float64.
func TestCheckJSONValues(t *testing.T) {
	var v Values
	if err := json.Unmarshal([]byte(`{"size": 12, "greedy": false, "alloc": "proportional"}`), &v); err != nil {
		t.Fatal(err)
	}
	got, err := Check(testParams, v)
	if err != nil {
		t.Fatal(err)
	}
	if got.Int("size", 0) != 12 || got.Bool("greedy", true) || got.String("alloc", "") != "proportional" || got.Float("weight", 0) != 0.5 {
		t.Errorf("Check of decoded JSON = %v", got)
	}
	if _, err := Check(testParams, Values{"size": 12.5}); err == nil {
		t.Error("12.5 accepted for an int")
	}
}

// TestDefaultsAreFloat64 checks the documented promise "every number as
// float64" for declared defaults too: a Param declared in Go as
// Default: 10 (an int) must come back like a spec's 10 (float64), so that a
// result echoing the params is the same whether the spec set the value or
// not, and code type-asserting .(float64) does not panic.
func TestDefaultsAreFloat64(t *testing.T) {
	ps := []Param{{Name: "n", Type: Int, Default: 10}, {Name: "w", Type: Float, Default: float32(0.5)}}
	got, err := Check(ps, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"n", "w"} {
		if _, ok := got[name].(float64); !ok {
			t.Errorf("BUG: param.Check returns the declared default of %q as %T(%v), not float64 as its doc says (\"every number as float64\"); "+
				"param.go Check copies p.Default unconverted", name, got[name], got[name])
		}
	}
}

// TestRange checks that Range sets both bounds on a copy.
func TestRange(t *testing.T) {
	p := Param{Name: "x", Type: Float}
	q := p.Range(-1, 2)
	if p.Min != nil || p.Max != nil {
		t.Error("Range modified the receiver")
	}
	if q.Min == nil || *q.Min != -1 || q.Max == nil || *q.Max != 2 {
		t.Errorf("Range(-1, 2) gave min %v max %v", q.Min, q.Max)
	}
}

// TestGetters checks the typed getters: the value when set with a fitting
// type, the default when unset or of another type.
func TestGetters(t *testing.T) {
	v := Values{"f": 3.0, "i": 4, "i64": int64(5), "frac": 2.75, "b": true, "s": "x", "nil": nil}
	intTests := []struct {
		name string
		want int
	}{{"f", 3}, {"i", 4}, {"i64", 5}, {"frac", 2}, {"b", -1}, {"s", -1}, {"nil", -1}, {"missing", -1}}
	for _, tt := range intTests {
		if got := v.Int(tt.name, -1); got != tt.want {
			t.Errorf("Int(%q, -1) = %d, want %d", tt.name, got, tt.want)
		}
	}
	floatTests := []struct {
		name string
		want float64
	}{{"f", 3}, {"i", 4}, {"i64", 5}, {"frac", 2.75}, {"b", -1}, {"s", -1}, {"missing", -1}}
	for _, tt := range floatTests {
		if got := v.Float(tt.name, -1); got != tt.want {
			t.Errorf("Float(%q, -1) = %v, want %v", tt.name, got, tt.want)
		}
	}
	if !v.Bool("b", false) || v.Bool("s", false) || !v.Bool("missing", true) || v.Bool("f", false) {
		t.Error("Bool: wrong value or default")
	}
	if v.String("s", "d") != "x" || v.String("b", "d") != "d" || v.String("missing", "d") != "d" {
		t.Error("String: wrong value or default")
	}
	if !v.Has("nil") || !v.Has("f") || v.Has("missing") {
		t.Error("Has: a key set to nil is set; a missing key is not")
	}
	var none Values
	if none.Int("x", 7) != 7 || none.Has("x") {
		t.Error("getters on nil Values must return the default")
	}
}

// TestLabels checks what people read for a parameter and its values: the
// label (or the name without one), an option's label (or the option
// without one), switches as on and off, numbers in full.
func TestLabels(t *testing.T) {
	p := Param{Name: "weights", Label: "History weights", Type: Enum, Options: []string{"nad", "sad", "gad"}, OptionLabels: []string{"Non-adaptive (nad)", "Shortsighted (sad)"}}
	bare := Param{Name: "k", Type: Int}
	for _, tt := range []struct{ got, want string }{
		{p.Display(), "History weights"},
		{bare.Display(), "k"},
		{p.OptionLabel("sad"), "Shortsighted (sad)"},
		{p.OptionLabel("gad"), "gad"},    // no label for it
		{p.OptionLabel("xyz"), "xyz"},    // not an option
		{bare.OptionLabel("nad"), "nad"}, // not a choice
		{p.ValueText("nad"), "Non-adaptive (nad)"},
		{bare.ValueText(true), "on"},
		{bare.ValueText(false), "off"},
		{bare.ValueText(100.0), "100"},
		{bare.ValueText(0.025), "0.025"},
		{bare.ValueText(3), "3"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
