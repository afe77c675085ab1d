package lab

import (
	"slices"
	"testing"
)

// TestRecentKeepsTheLatest checks recent's promise: at least the latest
// max entries are there, an old entry that is asked for is kept as if new,
// and it never holds more than twice max.
func TestRecentKeepsTheLatest(t *testing.T) {
	r := recent[int, int]{max: 4}
	for i := range 10 {
		r.put(i, i*i)
		if r.len() > 2*r.max {
			t.Fatalf("after %d puts it holds %d, over twice max", i+1, r.len())
		}
		for j := max(0, i-r.max+1); j <= i; j++ {
			if v, ok := r.get(j); !ok || v != j*j {
				t.Fatalf("after putting 0..%d, get(%d) = %d, %v; want %d, true", i, j, v, ok, j*j)
			}
		}
	}
	// Asking for an old entry keeps it.
	r = recent[int, int]{max: 2}
	r.put(1, 1)
	r.put(2, 2)
	r.put(3, 3) // 1 and 2 are now old
	if _, ok := r.get(1); !ok {
		t.Fatal("1 went with the first generation change")
	}
	r.put(4, 4) // the current generation (3, 1) is full: it becomes old
	r.put(5, 5)
	// Now 4 and 5 are current, 3 and 1 old, 2 gone. (A get of an old
	// entry moves it, so the order of these matters.)
	for _, c := range []struct {
		k    int
		want bool
	}{{5, true}, {4, true}, {2, false}, {1, true}} {
		if _, ok := r.get(c.k); ok != c.want {
			t.Errorf("get(%d) found it: %v, want %v", c.k, ok, c.want)
		}
	}
}

// TestRecentDrop checks that drop removes from both generations.
func TestRecentDrop(t *testing.T) {
	r := recent[int, bool]{max: 3}
	for i := range 5 {
		r.put(i, true)
	}
	r.drop(func(k int) bool { return k%2 == 0 })
	var left []int
	for i := range 5 {
		if _, ok := r.get(i); ok {
			left = append(left, i)
		}
	}
	if !slices.Equal(left, []int{1, 3}) {
		t.Errorf("after dropping the even keys, %v are left; want [1 3]", left)
	}
}
