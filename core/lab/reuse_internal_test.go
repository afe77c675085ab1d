package lab

import (
	"encoding/json"
	"testing"
)

// TestReuseChangesNothing checks the refresh.Reuser promise: building each
// policy once per run and reusing it for every repeat gives exactly the
// numbers of building it afresh each repeat, for every policy of the catalog
// on every bundled dataset.
func TestReuseChangesNothing(t *testing.T) {
	l := New()
	var all []PolicySpec
	for _, d := range l.Policies() {
		if d.Kind == KindRefresh {
			all = append(all, PolicySpec{ID: d.ID})
		}
	}
	for _, b := range BundledDatasets() {
		spec := Spec{Dataset: DatasetRef{ID: b.Info.ID}, Repeats: 6, Seed: 5, Cycles: min(b.Info.Cycles, 8), Policies: all}
		run := func(on bool) string {
			reuse = on
			defer func() { reuse = true }()
			res, err := l.Run(spec)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := json.Marshal(res)
			return string(out)
		}
		if fresh, reused := run(false), run(true); fresh != reused {
			t.Errorf("%s: reusing policies across repeats changed the result", b.Info.ID)
		}
	}
}
