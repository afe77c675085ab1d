package dataset

import (
	"math"
	"strings"
	"testing"
)

// TestWeightFeatureChecked checks that Validate accepts finite non-negative
// page weights (FeatureWeight) and names the page of any other.
func TestWeightFeatureChecked(t *testing.T) {
	tests := []struct {
		w    []float64
		want string // "" for valid
	}{
		{[]float64{0, 1.5}, ""},
		{[]float64{1, -1}, "page 1's weight -1"},
		{[]float64{math.NaN(), 1}, "page 0's weight NaN"},
		{[]float64{1, math.Inf(1)}, "page 1's weight +Inf"},
	}
	for _, tt := range tests {
		d := &Dataset{Info: Info{ID: "w"}, Truth: Truth{Changed: [][]int32{{0}}}}
		d.Sites = []string{"a.example"}
		d.Pages = []Page{{}, {}}
		d.Features = map[string][]float64{FeatureWeight: tt.w}
		err := d.Validate()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("weights %v: %v, want no error", tt.w, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("weights %v: error %v, want one containing %q", tt.w, err, tt.want)
		}
	}
}
