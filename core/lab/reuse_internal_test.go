package lab

import (
	"encoding/json"
	"testing"
)

// TestReuseChangesNothing checks the refresh.Reuser promise: building each
// policy once per run and reusing it for every repeat gives exactly the
// numbers of building it afresh each repeat, for every policy of the catalog
// on every bundled dataset. The lab remembers no result (WithoutMemory), so
// neither answer comes from the other's; it shares only what policies
// derive from the dataset (its memo), as every run does.
func TestReuseChangesNothing(t *testing.T) {
	t.Parallel()
	var all []PolicySpec
	for _, d := range Policies() {
		if d.Kind == KindRefresh {
			all = append(all, PolicySpec{ID: d.ID})
		}
	}
	for _, b := range BundledDatasets() {
		t.Run(b.Info.ID, func(t *testing.T) {
			t.Parallel()
			// The archive of 300,000 pages runs fewer cycles and repeats:
			// enough to reuse every policy, on the same code paths as its
			// lesson-size twin.
			spec := Spec{Dataset: DatasetRef{ID: b.Info.ID}, Repeats: 6, Seed: 5, Cycles: min(b.Info.Cycles, 8), Policies: all}
			if b.Info.Pages > 100_000 {
				spec.Repeats, spec.Cycles = 3, 3
			}
			l := New(WithoutMemory())
			run := func(noReuse bool) Result {
				l.noReuse = noReuse
				res, err := l.Run(spec)
				if err != nil {
					t.Fatal(err)
				}
				return *res
			}
			fresh, reused := run(true), run(false)
			for i := range fresh.Policies {
				if mustJSONString(fresh.Policies[i]) != mustJSONString(reused.Policies[i]) {
					t.Errorf("reusing %s across repeats changed its result", fresh.Policies[i].ID)
				}
			}
		})
	}
}

func mustJSONString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestRememberChangesNothing checks that remembering policy results across
// runs (remembered) gives exactly the numbers of running every policy
// afresh, along a lesson-like sequence of specs in which one control at a
// time changes one policy or all of them, and back.
func TestRememberChangesNothing(t *testing.T) {
	t.Parallel()
	base := Spec{Dataset: DatasetRef{ID: "taleghani-example"}, Budget: 100, Cycles: 1, Repeats: 40, Seed: 2,
		Policies: []PolicySpec{
			{ID: "category-greedy", Params: map[string]any{"sampleSize": 4.0}},
			{ID: "site-greedy", Params: map[string]any{"sampleSize": 10.0}},
			{ID: "site-greedy", Label: "auto"},
			{ID: "random"},
		},
		Sweep: &Sweep{Field: "params.sampleSize", Values: []float64{2, 6}}}
	var specs []Spec
	for _, edit := range []func(*Spec){
		func(*Spec) {},
		func(s *Spec) { s.Policies[0].Params = map[string]any{"sampleSize": 5.0} },
		func(s *Spec) { s.Policies[0].Params = map[string]any{"sampleSize": 5.0, "interval": true} },
		func(s *Spec) { s.Budget = 120 },
		func(s *Spec) { s.Seed = 3 },
		func(s *Spec) { s.Repeats = 41 },
		func(*Spec) {},
	} {
		s := base
		s.Policies = append([]PolicySpec(nil), base.Policies...)
		edit(&s)
		specs = append(specs, s)
	}
	run := func(on bool) []string {
		l := New()
		if !on {
			l = New(WithoutMemory())
		}
		var out []string
		for _, s := range specs {
			res, err := l.Run(s)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(res)
			out = append(out, string(b))
		}
		return out
	}
	fresh, remembered := run(false), run(true)
	for i := range fresh {
		if fresh[i] != remembered[i] {
			t.Errorf("spec %d: remembering policy results changed the result", i)
		}
	}
	if fresh[0] != fresh[len(fresh)-1] {
		t.Error("the same spec gave two results")
	}
}
