package estimate

import (
	"encoding/binary"
	"math"
	"testing"
)

// fuzzHistory reads intervals from data, 9 bytes each: a float64 length
// (little-endian bits) and a changed flag. Lengths Add refuses are skipped,
// as a reader of user input would after reporting them.
func fuzzHistory(t *testing.T, data []byte) (*History, []float64, []bool) {
	h := &History{}
	var ts []float64
	var zs []bool
	for len(data) >= 9 {
		x := math.Float64frombits(binary.LittleEndian.Uint64(data))
		z := data[8]&1 == 1
		data = data[9:]
		err := h.Add(x, z)
		valid := x >= MinInterval && x <= MaxInterval
		if (err == nil) != valid {
			t.Fatalf("Add(%g) = %v", x, err)
		}
		if err == nil {
			ts, zs = append(ts, x), append(zs, z)
		}
	}
	return h, ts, zs
}

func seedInterval(f *testing.F, pairs ...any) {
	var b []byte
	for i := 0; i < len(pairs); i += 2 {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(pairs[i].(float64)))
		z := byte(0)
		if pairs[i+1].(bool) {
			z = 1
		}
		b = append(b, z)
	}
	f.Add(b)
}

// FuzzMLE feeds arbitrary intervals (tiny, huge, subnormal, zero, negative,
// NaN, all changed, none changed) to every estimator: no panic, no NaN, no
// Inf, a bounded solver, and the documented edge results.
func FuzzMLE(f *testing.F) {
	seedInterval(f, 1.0, true, 1.0, false)
	seedInterval(f, 1e-9, true, 1e9, false, 1e-9, false)
	seedInterval(f, 1e9, true, 1e-9, false)
	seedInterval(f, 1e-9, true, 1e9, true, 1e-9, false)
	seedInterval(f, 5e-324, true, 0.0, true, -1.0, false, math.NaN(), false, math.Inf(1), true, 2.0, true)
	seedInterval(f, 1.0, true, 2.0, true, 3.0, true)
	seedInterval(f, 1.0, false, 2.0, false, 3.0, false)
	seedInterval(f, math.MaxFloat64, false, math.SmallestNonzeroFloat64, true)
	seedInterval(f, 0.7, true, 0.7, false, 0.7, true, 0.7, true)
	f.Fuzz(func(t *testing.T, data []byte) {
		h, ts, _ := fuzzHistory(t, data)
		finite := func(name string, r Result) {
			if math.IsNaN(r.Rate) || math.IsInf(r.Rate, 0) || r.Rate < 0 {
				t.Fatalf("%s on %v: rate %v", name, ts, r.Rate)
			}
		}
		m := MLE{}.Estimate(h)
		finite("MLE", m)
		switch m.Edge {
		case Empty:
			if h.Len() != 0 || m.Rate != 0 {
				t.Fatalf("MLE: %+v on %d intervals", m, h.Len())
			}
		case NoChange:
			if m.Rate != 1/h.Total() {
				t.Fatalf("MLE no change: %v, want 1/%v", m.Rate, h.Total())
			}
		case AllChanged:
			if m.Rate != 1/h.Shortest() {
				t.Fatalf("MLE all changed: %v, want 1/%v", m.Rate, h.Shortest())
			}
		case None:
			r, it := solve(h.tc, 0, h.unchanged)
			if it >= maxSolve || r != m.Rate || !(r > 0) {
				t.Fatalf("solve: %v after %d steps", r, it)
			}
			var tc float64
			for _, x := range h.tc {
				tc += x
			}
			l := float64(len(h.tc))
			lo, hi := l/(h.unchanged+tc/2), l/h.unchanged
			if !(r >= lo*(1-1e-12) && r <= hi*(1+1e-12)) {
				t.Fatalf("root %v outside [%v, %v]", r, lo, hi)
			}
		}
		for _, c := range []struct {
			pc, pu float64
		}{{0, 0}, {MinInterval, MaxInterval}, {MaxInterval, MinInterval}, {1, 1}} {
			p := PseudoMLE{c.pc, c.pu}.Estimate(h)
			finite("PseudoMLE", p)
			if p.Edge != None || !(p.Rate > 0) {
				t.Fatalf("PseudoMLE%v: %+v", c, p)
			}
			if _, it := solve(h.tc, pseudoLength(c.pc), h.unchanged+pseudoLength(c.pu)); it >= maxSolve {
				t.Fatalf("PseudoMLE%v: solver hit its bound", c)
			}
		}
		for _, e := range []Estimator{Naive{}, ChoGarciaMolina{}, Weighted{Scheme: GAD}, Weighted{Scheme: AAD, Window: 3}, DOverV{V: 2}} {
			finite("estimator", e.Estimate(h))
		}
		if ll := LogLikelihood(h, m.Rate); math.IsNaN(ll) || math.IsInf(ll, 1) {
			t.Fatalf("LogLikelihood at the MLE: %v", ll)
		}
	})
}
