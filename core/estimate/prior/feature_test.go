package prior_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/estimate"
	"github.com/refreshlab/refreshlab/core/estimate/prior"
)

// TestFitByFeature checks the grouping of FitByFeature: a value with at
// least minPages positive rates gets its own prior, fitted to its pages
// alone (fast pages a prior with a higher mean rate than slow ones); a
// value with fewer, pages with no value and pages that never change are
// on the pooled prior (Of −1); and mismatched inputs are an error.
func TestFitByFeature(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var rates []float64
	var values []string
	for range 300 {
		rates = append(rates, 2*(0.5+rng.Float64()))
		values = append(values, "fast")
		rates = append(rates, 0.05*(0.5+rng.Float64()))
		values = append(values, "slow")
	}
	rates = append(rates, 1, 1, 0, 1)
	values = append(values, "rare", "rare", "fast", "")
	edges := estimate.HourlyEdges(60)
	streams := func(v string) *rand.Rand { return rand.New(rand.NewPCG(5, uint64(len(v)))) }
	b, err := prior.FitByFeature(rates, values, edges, 3, prior.Options{Steps: 400, Restarts: 2}, streams)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(b.Values, []string{"fast", "slow"}) || !slices.Equal(b.Pages, []int{300, 300}) {
		t.Fatalf("values %v with %v pages, want fast and slow with 300 each", b.Values, b.Pages)
	}
	n := len(rates)
	if want := []int{0, 1, -1, -1, 0, -1}; !slices.Equal(append(b.Of[:2:2], b.Of[n-4:]...), want) {
		t.Errorf("Of at the first two and last four pages = %v, want %v", append(b.Of[:2:2], b.Of[n-4:]...), want)
	}
	if fast, slow := b.Fits[0].Best.Mean(), b.Fits[1].Best.Mean(); !(fast > 5*slow) {
		t.Errorf("prior mean rates: fast %v, slow %v; want fast's far above", fast, slow)
	}
	pooled := estimate.PseudoMLE{Changed: 7, Unchanged: 7}
	if got := estimate.ForPage(b.Estimator(pooled), n-1); got != pooled {
		t.Errorf("a page without a value is estimated by %v, want the pooled %v", got, pooled)
	}
	if _, err := prior.FitByFeature(rates, values[1:], edges, 3, prior.Options{}, streams); err == nil {
		t.Error("mismatched rates and values: no error")
	}
}
