package lab

import (
	"testing"

	"github.com/refreshlab/refreshlab/core/param"
)

// TestEveryParamHasHumanLabels checks that every parameter of the catalog
// and every field of a spec carries a label people read (axis titles,
// controls, tables), and that every option of a choice has its own: the
// charts and the page show these, never the names a spec writes.
func TestEveryParamHasHumanLabels(t *testing.T) {
	check := func(where string, p param.Param) {
		t.Helper()
		if p.Label == "" || p.Label == p.Name {
			t.Errorf("%s: parameter %q has no label of its own (%q)", where, p.Name, p.Label)
		}
		if p.Type != param.Enum {
			if len(p.OptionLabels) > 0 {
				t.Errorf("%s: %q is not a choice but has option labels", where, p.Name)
			}
			return
		}
		if len(p.OptionLabels) != len(p.Options) {
			t.Errorf("%s: %q has %d options and %d option labels", where, p.Name, len(p.Options), len(p.OptionLabels))
			return
		}
		seen := map[string]bool{}
		for i, l := range p.OptionLabels {
			if l == "" || l == p.Options[i] || seen[l] {
				t.Errorf("%s: %q option %q has label %q: empty, its code or a repeat", where, p.Name, p.Options[i], l)
			}
			seen[l] = true
		}
	}
	for _, d := range Policies() {
		for _, p := range d.Params {
			check(d.ID, p)
		}
	}
	for _, f := range SpecFields() {
		if f.Type == FieldDataset {
			if f.Label == "" {
				t.Errorf("field %q has no label", f.Name)
			}
			continue
		}
		check("spec", f.Param)
	}
}
