package monitor

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/refreshlab/refreshlab/core/dataset"
)

// FromEvents puts each change in the slot it falls in, (start + j·Slot,
// start + (j+1)·Slot] of its epoch, merges two changes in one slot, starts
// epoch 0 at the first epoch boundary after the window's start (Phase) and
// leaves out the tail after the last whole epoch.
// testLog reads eventsLog in hourly cycles over 60 hours.
func testLog(t testing.TB) *dataset.Dataset {
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	d, _, err := dataset.ReadEventLog(strings.NewReader(eventsLog), dataset.EventLogOptions{
		CycleLength: 3600, Start: day, End: day.Add(60 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

const eventsLog = "url,ts,event\n" +
	"https://x.example/a,2024-01-01T00:00:00Z,start\n" +
	"https://x.example/b,2024-01-01T00:00:00Z,start\n" +
	"https://x.example/a,2024-01-01T05:30:00Z,change\n" + // epoch 0, slot 5
	"https://x.example/a,2024-01-01T05:45:00Z,change\n" + // the same slot (and merged by the reader)
	"https://x.example/b,2024-01-01T10:00:00Z,change\n" + // the end of slot 9
	"https://x.example/a,2024-01-02T05:10:00Z,change\n" + // epoch 1, slot 5
	"https://x.example/a,2024-01-02T23:59:00Z,change\n" + // epoch 1, slot 23
	"https://x.example/b,2024-01-03T07:00:00Z,change\n" // epoch 2: not whole, left out

func TestFromEvents(t *testing.T) {
	d := testLog(t)
	r, err := FromEvents(d, EventOptions{Slot: 3600, Slots: 24})
	if err != nil {
		t.Fatal(err)
	}
	want := [][][]int32{{{5}, {9}}, {{5, 23}, nil}}
	if len(r.Changed) != len(want) {
		t.Fatalf("%d epochs, want %d", len(r.Changed), len(want))
	}
	for e := range want {
		for i := range want[e] {
			if !slices.Equal(r.Changed[e][i], want[e][i]) {
				t.Errorf("epoch %d, page %d: changes at %v, want %v", e, i, r.Changed[e][i], want[e][i])
			}
		}
	}
	if r.Instance.T != 86400 || len(r.Instance.Times) != 24 || r.Instance.Times[0] != 3600 || r.Offset != 0 {
		t.Errorf("epoch %v with %d instants from %v, offset %v", r.Instance.T, len(r.Instance.Times), r.Instance.Times[0], r.Offset)
	}
	if !slices.Equal(r.Instance.Weight, []float64{1, 1}) {
		t.Errorf("weights %v, want 1 each", r.Instance.Weight)
	}

	// Epochs that start at 21:00: the window's start is 3 hours into one,
	// so epoch 0 begins 21 hours in, and a's change at 05:10 on the second
	// day falls in its slot 8.
	r, err = FromEvents(d, EventOptions{Slot: 3600, Slots: 24, Phase: 3 * 3600})
	if err != nil {
		t.Fatal(err)
	}
	if r.Offset != 21*3600 || len(r.Changed) != 1 || !slices.Equal(r.Changed[0][0], []int32{8}) || r.Changed[0][1] != nil {
		t.Errorf("phase 3 h: offset %v, changes %v", r.Offset, r.Changed)
	}

	for _, o := range []EventOptions{{Slot: 0, Slots: 24}, {Slot: 3600, Slots: 0}, {Slot: 3600, Slots: 72}, {Slot: 3600, Slots: 24, Weights: []float64{1}}} {
		if _, err := FromEvents(d, o); err == nil {
			t.Errorf("options %+v accepted", o)
		}
	}
}

// Whatever the slots and phase, FromEvents either refuses them or cuts the
// log into whole epochs within its window, each page's changes ascending,
// distinct and within the epoch's slots, no more of them than the log has.
func FuzzFromEvents(f *testing.F) {
	f.Add(3600.0, 24, 0.0)
	f.Add(3600.0, 24, 10800.0)
	f.Add(1800.0, 5, -7.5)
	f.Add(7200.0, 1, 1e12)
	d := testLog(f)
	changes := 0
	for _, ch := range d.Truth.Changed {
		changes += len(ch)
	}
	f.Fuzz(func(t *testing.T, slot float64, slots int, phase float64) {
		r, err := FromEvents(d, EventOptions{Slot: slot, Slots: slots, Phase: phase})
		if err != nil {
			return
		}
		if r.Instance.Validate() != nil || len(r.Instance.Times) != slots {
			t.Fatalf("slot %v × %d: instance %+v", slot, slots, r.Instance)
		}
		if span := 60 * 3600.0; r.Offset < 0 || r.Offset+float64(len(r.Changed))*r.Instance.T > span*(1+1e-9) {
			t.Fatalf("slot %v × %d, phase %v: offset %v and %d epochs of %v s exceed the window", slot, slots, phase, r.Offset, len(r.Changed), r.Instance.T)
		}
		n := 0
		for _, pages := range r.Changed {
			for _, js := range pages {
				for k, j := range js {
					if j < 0 || int(j) >= slots || k > 0 && js[k-1] >= j {
						t.Fatalf("slot %v × %d: changes %v", slot, slots, js)
					}
				}
				n += len(js)
			}
		}
		if n > changes {
			t.Fatalf("%d changes from a log of %d", n, changes)
		}
	})
}
