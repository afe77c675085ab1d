// Package param describes the parameters of policies and estimators and
// checks the values an experiment spec gives them.
//
// A Param is published by GET /api/policies, so a lesson or the upload page
// can build a control for it without knowing the policy; Values are what a
// spec carries, checked against the Params before a run.
package param

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/refreshlab/refreshlab/core/internal/quote"
)

// Types a parameter can have.
const (
	Int   = "int"
	Float = "float"
	Bool  = "bool"
	Enum  = "enum"
)

// Param describes one parameter.
type Param struct {
	Name string `json:"name"`
	// Label is what people read for the parameter: an axis title, a
	// control's label, a table's heading ("Sample size per site"), where
	// Name is what a spec writes ("sampleSize").
	Label string `json:"label"`
	Type  string `json:"type"`
	// Default is the value used when a spec leaves the parameter out. It is
	// nil when the default is computed from the experiment (see Auto).
	Default any `json:"default"`
	// Auto names the computed default, e.g. "√(N·r)", when Default is nil.
	Auto    string   `json:"auto,omitempty"`
	Min     *float64 `json:"min,omitempty"`
	Max     *float64 `json:"max,omitempty"`
	Step    float64  `json:"step,omitempty"`
	Options []string `json:"options,omitempty"` // for Enum
	// OptionLabels are what people read for Options, one for each, in
	// the same order (the option "nad" reads "Non-adaptive (nad)").
	OptionLabels []string `json:"optionLabels,omitempty"`
	Help         string   `json:"help"`
}

// Display returns the parameter's label, or its name when it has none.
func (p Param) Display() string {
	if p.Label != "" {
		return p.Label
	}
	return p.Name
}

// OptionLabel returns what people read for option v of an enum: its
// label, or v itself when it has none or is not an option.
func (p Param) OptionLabel(v string) string {
	if i := slices.Index(p.Options, v); i >= 0 && i < len(p.OptionLabels) && p.OptionLabels[i] != "" {
		return p.OptionLabels[i]
	}
	return v
}

// ValueText writes value v of the parameter for people: an enum's option
// by its label, a switch as on or off, a number as Go prints it.
func (p Param) ValueText(v any) string {
	switch x := v.(type) {
	case string:
		return p.OptionLabel(x)
	case bool:
		if x {
			return "on"
		}
		return "off"
	}
	if f, ok := Number(v); ok {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// Range returns p with its bounds set, for table-like declarations.
func (p Param) Range(min, max float64) Param {
	p.Min, p.Max = &min, &max
	return p
}

// Values are parameter values as an experiment spec gives them: numbers,
// booleans or strings, keyed by parameter name.
type Values map[string]any

// Check reports the first value that does not fit ps: an unknown name, a
// wrong type, a fraction where an integer is wanted, a value out of range or
// an option not offered. It returns the values with every number as float64
// and with the declared default of every parameter left out; parameters
// whose default is computed (Auto) stay unset.
func Check(ps []Param, v Values) (Values, error) {
	out := make(Values, len(ps))
	for _, p := range ps {
		if p.Default == nil {
			continue
		}
		if f, ok := Number(p.Default); ok {
			out[p.Name] = f
		} else {
			out[p.Name] = p.Default
		}
	}
	names := make([]string, 0, len(v))
	for k := range v {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		i := slices.IndexFunc(ps, func(p Param) bool { return p.Name == name })
		if i < 0 {
			known := make([]string, len(ps))
			for j, p := range ps {
				known[j] = p.Name
			}
			if len(known) == 0 {
				return nil, fmt.Errorf("unknown parameter %s: this one takes no parameters", quote.Q(name))
			}
			return nil, fmt.Errorf("unknown parameter %s (expected one of %s)", quote.Q(name), strings.Join(known, ", "))
		}
		val, err := ps[i].check(v[name])
		if err != nil {
			return nil, err
		}
		out[name] = val
	}
	return out, nil
}

func (p Param) check(v any) (any, error) {
	switch p.Type {
	case Int, Float:
		f, ok := Number(v)
		if !ok {
			return nil, fmt.Errorf("parameter %q: expected a number, got %s", p.Name, describe(v))
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("parameter %q: expected a finite number", p.Name)
		}
		if p.Type == Int && f != math.Trunc(f) {
			return nil, fmt.Errorf("parameter %q: expected a whole number, got %v", p.Name, f)
		}
		if p.Min != nil && f < *p.Min {
			return nil, fmt.Errorf("parameter %q: %v is below the minimum %v", p.Name, f, *p.Min)
		}
		if p.Max != nil && f > *p.Max {
			return nil, fmt.Errorf("parameter %q: %v is above the maximum %v", p.Name, f, *p.Max)
		}
		return f, nil
	case Bool:
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("parameter %q: expected true or false, got %s", p.Name, describe(v))
		}
		return b, nil
	case Enum:
		s, ok := v.(string)
		if !ok || !slices.Contains(p.Options, s) {
			return nil, fmt.Errorf("parameter %q: expected one of %s, got %s", p.Name, strings.Join(p.Options, ", "), describe(v))
		}
		return s, nil
	}
	return nil, fmt.Errorf("parameter %q: unknown type %q", p.Name, p.Type)
}

// Number returns v as a float64 when it is a number (as JSON or Go code
// gives parameters), or ok=false.
func Number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return quote.Q(x)
	case bool, float64, int:
		return fmt.Sprint(x)
	}
	return fmt.Sprintf("a %T", v)
}

// Int returns the integer value of name, or def when it is not set.
func (v Values) Int(name string, def int) int {
	if f, ok := Number(v[name]); ok {
		return int(f)
	}
	return def
}

// Float returns the value of name, or def when it is not set.
func (v Values) Float(name string, def float64) float64 {
	if f, ok := Number(v[name]); ok {
		return f
	}
	return def
}

// Bool returns the value of name, or def when it is not set.
func (v Values) Bool(name string, def bool) bool {
	if b, ok := v[name].(bool); ok {
		return b
	}
	return def
}

// String returns the value of name, or def when it is not set.
func (v Values) String(name string, def string) string {
	if s, ok := v[name].(string); ok {
		return s
	}
	return def
}

// Has reports whether name is set.
func (v Values) Has(name string) bool {
	_, ok := v[name]
	return ok
}
