package lab_test

import (
	"context"
	"errors"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
)

// TestRunProgress checks what RunContext tells of its progress: every
// repeat of every policy once, in order, a remembered policy's all at once,
// and a sweep's runs after the main one's.
func TestRunProgress(t *testing.T) {
	t.Parallel()
	l := lab.New()
	spec := lab.Spec{Dataset: lab.DatasetRef{ID: "alqaaideh-jordan"}, Repeats: 4, Seed: 1,
		Policies: []lab.PolicySpec{{ID: "random"}, {ID: "site-greedy"}}}
	for _, tc := range []struct {
		name string
		edit func(*lab.Spec)
		want []int
	}{
		{"afresh", func(*lab.Spec) {}, []int{1, 2, 3, 4, 5, 6, 7, 8}},
		{"remembered", func(*lab.Spec) {}, []int{4, 8}},
		{"one new policy", func(s *lab.Spec) { s.Policies = append(s.Policies, lab.PolicySpec{ID: "round-robin"}) }, []int{4, 8, 9, 10, 11, 12}},
		{"a sweep", func(s *lab.Spec) {
			s.Policies = s.Policies[:1]
			s.Sweep = &lab.Sweep{Field: "budget", Values: []float64{50}}
		}, []int{4, 5, 6, 7, 8}},
	} {
		s := spec
		s.Policies = append([]lab.PolicySpec(nil), spec.Policies...)
		tc.edit(&s)
		var got []int
		if _, err := l.RunContext(context.Background(), s, func(n int) { got = append(got, n) }); err != nil {
			t.Fatal(err)
		}
		if !equalInts(got, tc.want) {
			t.Errorf("%s: progress %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestRunStops checks that a run stops within one repeat of its context
// being cancelled, with the context's error, and that the lab then runs
// the same spec in full.
func TestRunStops(t *testing.T) {
	t.Parallel()
	l := lab.New()
	spec := lab.Spec{Dataset: lab.DatasetRef{ID: "alqaaideh-jordan"}, Repeats: 50, Seed: 2,
		Policies: []lab.PolicySpec{{ID: "change-frequency"}, {ID: "site-greedy"}}}
	ctx, cancel := context.WithCancel(context.Background())
	last := 0
	_, err := l.RunContext(ctx, spec, func(n int) {
		last = n
		if n == 3 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled run answered %v, want context.Canceled", err)
	}
	if last != 3 {
		t.Errorf("%d repeats finished after cancelling at 3, want none more", last-3)
	}
	res, err := l.Run(spec)
	if err != nil || len(res.Policies) != 2 || res.Policies[1].Metric(lab.MetricChangeRatio).N != 50 {
		t.Fatalf("the run after a cancelled one: %v", err)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
