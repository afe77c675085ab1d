package cluster

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestWeights checks eq. 5's four settings: they sum to 1 and have their
// stated shapes: equal (nad), the last only (sad), growing linearly
// (aad: w_i ∝ i) and geometrically (gad: each twice the one before).
func TestWeights(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 12, 60, 1100} {
		for _, scheme := range WeightSchemes {
			w, err := Weights(scheme, n)
			if err != nil {
				t.Fatal(err)
			}
			var sum float64
			for _, x := range w {
				sum += x
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Errorf("%s, n = %d: weights sum to %v", scheme, n, sum)
			}
			for i := 1; i < n; i++ {
				var ok bool
				switch scheme {
				case WeightsNAD:
					ok = w[i] == w[0]
				case WeightsSAD:
					ok = w[i-1] == 0 && w[n-1] == 1
				case WeightsAAD:
					ok = math.Abs(w[i]/w[0]-float64(i+1)) < 1e-9*float64(i+1)
				case WeightsGAD:
					ok = w[i-1] == 0 || math.Abs(w[i]/w[i-1]-2) < 1e-12
				}
				if !ok {
					t.Errorf("%s, n = %d: w_%d = %v, w_%d = %v: wrong shape", scheme, n, i, w[i-1], i+1, w[i])
					break
				}
			}
		}
	}
	if _, err := Weights("xyz", 3); err == nil {
		t.Error("an unknown scheme was accepted")
	}
}

// TestHistoryLambda checks History's O(1) λ against Σ w_i I_i computed
// from the weights, on random histories.
func TestHistoryLambda(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := 1 + rng.IntN(70)
		ind := make([]bool, n)
		h := NewHistory(1)
		for i := range ind {
			if rng.IntN(3) == 0 {
				ind[i] = true
				h.Changed(0, i+1)
			}
		}
		for _, scheme := range WeightSchemes {
			w, _ := Weights(scheme, n)
			var want float64
			for i, c := range ind {
				if c {
					want += w[i]
				}
			}
			if got := h.Lambda(0, n, scheme); math.Abs(got-want) > 1e-12 {
				t.Errorf("trial %d, %s, n = %d: λ = %v, Σ w·I = %v", trial, scheme, n, got, want)
			}
		}
	}
}

// TestPhi checks eq. 4, φ = 1 − e^(−λ), against math.Exp.
func TestPhi(t *testing.T) {
	for _, l := range []float64{0, 1e-9, 0.1, 0.5, 1, 2.5, 30} {
		if got, want := Phi(l), 1-math.Exp(-l); math.Abs(got-want) > 1e-15 {
			t.Errorf("Phi(%v) = %v, want %v", l, got, want)
		}
	}
}

func ExampleWeights() {
	for _, s := range WeightSchemes {
		w, _ := Weights(s, 4)
		fmt.Printf("%s %.3f\n", s, w)
	}
	// Output:
	// nad [0.250 0.250 0.250 0.250]
	// sad [0.000 0.000 0.000 1.000]
	// aad [0.100 0.200 0.300 0.400]
	// gad [0.067 0.133 0.267 0.533]
}
