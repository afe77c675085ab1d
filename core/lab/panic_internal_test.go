package lab

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
)

// testLab returns a lab with the bundled datasets and the catalog's
// policies plus the given test-only ones. The public API has no way to
// register a policy, so this is an internal test.
func testLab(extra ...refresh.Descriptor) *Lab {
	l := New()
	l.policies = append(l.policies, extra...)
	return l
}

// badPolicy panics, or overspends, in the given cycle.
type badPolicy struct {
	cycle     int
	overspend bool
}

func (b badPolicy) Refresh(c *refresh.Crawl) {
	if c.Cycle() != b.cycle {
		return
	}
	if b.overspend {
		for { // a policy bug: never checks Remaining
			c.Download(0)
		}
	}
	panic("kaboom")
}

// TestPolicyFailure checks that a policy that panics (in its constructor,
// in Refresh, or by downloading past the budget) makes Run return an error
// naming the policy and the cause, without a partial result, and that the
// same lab then runs the next spec normally, with the numbers a fresh lab
// gives.
func TestPolicyFailure(t *testing.T) {
	descs := []refresh.Descriptor{
		{ID: "panics-in-new", Name: "test", New: func(refresh.Env) (refresh.Policy, error) { panic("constructor kaboom") }},
		{ID: "panics-in-refresh", Name: "test", New: func(refresh.Env) (refresh.Policy, error) { return badPolicy{cycle: 2}, nil }},
		{ID: "overspends", Name: "test", New: func(refresh.Env) (refresh.Policy, error) { return badPolicy{cycle: 1, overspend: true}, nil }},
	}
	l := testLab(descs...)
	good := Spec{Dataset: DatasetRef{ID: "alqaaideh-jordan"}, Cycles: 4, Repeats: 3, Seed: 1, Policies: []PolicySpec{{ID: "round-robin"}, {ID: "oracle"}}}
	want, err := New().Run(good)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		id, cause string
	}{
		{"panics-in-new", "constructor kaboom"},
		{"panics-in-refresh", "kaboom"},
		{"overspends", refresh.ErrBudget.Error()},
	} {
		spec := good
		spec.Policies = []PolicySpec{{ID: "random"}, {ID: tt.id}}
		res, err := l.Run(spec)
		if err == nil {
			t.Fatalf("%s: Run succeeded: %+v", tt.id, res)
		}
		if res != nil {
			t.Errorf("%s: partial result returned with the error", tt.id)
		}
		if !strings.Contains(err.Error(), tt.id) || !strings.Contains(err.Error(), tt.cause) {
			t.Errorf("%s: error %q does not name the policy and %q", tt.id, err, tt.cause)
		}
		got, err := l.Run(good)
		if err != nil {
			t.Fatalf("after %s failed: next run: %v", tt.id, err)
		}
		if a, b := mustJSONInternal(t, got), mustJSONInternal(t, want); a != b {
			t.Errorf("after %s failed: next run differs from a fresh lab's:\n%s\n%s", tt.id, a, b)
		}
	}
}

// TestExpectPanics checks that a policy whose exact-expectation function
// (Descriptor.Expect, called for one-cycle runs) panics is treated like a
// policy that panics: Run's doc promises "A policy that panics is reported
// as an error naming it; the lab stays usable".
func TestExpectPanics(t *testing.T) {
	l := testLab(refresh.Descriptor{
		ID: "expect-panics", Name: "test",
		New: func(env refresh.Env) (refresh.Policy, error) { return badPolicy{cycle: -1}, nil },
		Expect: func(*dataset.Dataset, int, param.Values) (float64, error) {
			panic("expectation kaboom")
		},
	})
	spec := Spec{Dataset: DatasetRef{ID: "alqaaideh-example"}, Repeats: 2, Policies: []PolicySpec{{ID: "expect-panics"}}}
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("BUG: Lab.Run panicked (%v): lab/run.go calls desc.Expect outside runPolicy's recover, "+
					"so a panicking Expect escapes Run (the API's recover turns it into a generic 500) instead of an error naming the policy", r)
			}
		}()
		_, err = l.Run(spec)
	}()
	if err != nil && !strings.Contains(err.Error(), "expect-panics") {
		t.Errorf("error %q does not name the policy", err)
	}
	if _, err := l.Run(Spec{Dataset: DatasetRef{ID: "alqaaideh-example"}, Repeats: 2, Policies: []PolicySpec{{ID: "random"}}}); err != nil {
		t.Errorf("next run: %v", err)
	}
}

// TestPolicyConstructorError checks that a constructor's error becomes a
// *SpecError on the policy's path, naming it.
func TestPolicyConstructorError(t *testing.T) {
	l := testLab(refresh.Descriptor{ID: "refuses", New: func(refresh.Env) (refresh.Policy, error) {
		return nil, errors.New("needs labels")
	}})
	_, err := l.Run(Spec{Dataset: DatasetRef{ID: "alqaaideh-example"}, Repeats: 2, Policies: []PolicySpec{{ID: "random"}, {ID: "refuses"}}})
	var se *SpecError
	if !errors.As(err, &se) || se.Field != "policies[1]" || !strings.Contains(se.Msg, "refuses") || !strings.Contains(se.Msg, "needs labels") {
		t.Errorf("error %v (%T), want SpecError on policies[1] naming refuses and its cause", err, err)
	}
}

func mustJSONInternal(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
