package api

import (
	"math"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
)

// TestCategoryGreedyTaleghaniSpec runs, through the API, the spec of
// Taleghani §2.3's comparison: on taleghani-example with 100 downloads,
// greedy category sampling with 4-page samples must come within 0.01 of
// its exact expectation (≈ 0.74; the paper's 0.77 assumes samples show the
// true fractions) and beat greedy site sampling with 10-page samples
// (≈ 0.65). With 4,000 repeats the mean's standard error is about 0.0007,
// so 0.01 is over 10 SE: a correct implementation essentially never fails.
func TestCategoryGreedyTaleghaniSpec(t *testing.T) {
	rt := New(lab.New())
	spec := `{"kind":"refresh","dataset":{"id":"taleghani-example"},"budget":100,"cycles":1,"repeats":4000,"seed":3,` +
		`"policies":[{"id":"category-greedy","params":{"sampleSize":4}},{"id":"site-greedy","params":{"sampleSize":10}}]}`
	resp, m := serve(rt, "POST", "/api/run", "", spec)
	if resp.Status != 200 {
		t.Fatalf("status %d: %s", resp.Status, resp.Body)
	}
	pols := m["policies"].([]any)
	get := func(i int, path ...string) float64 {
		var v any = pols[i]
		for _, k := range path {
			v = v.(map[string]any)[k]
		}
		return v.(float64)
	}
	cat, catExp := get(0, "metrics", "changeRatio", "mean"), get(0, "facts", "expectedChangeRatio")
	site, siteExp := get(1, "metrics", "changeRatio", "mean"), get(1, "facts", "expectedChangeRatio")
	t.Logf("category-greedy %.4f (exact %.4f); site-greedy %.4f (exact %.4f)", cat, catExp, site, siteExp)
	if catExp < 0.735 || catExp > 0.745 {
		t.Errorf("category-greedy's exact expectation %.4f is not near 0.74", catExp)
	}
	if math.Abs(cat-catExp) > 0.01 {
		t.Errorf("category-greedy's ChangeRatio %.4f is not within 0.01 of its expectation %.4f", cat, catExp)
	}
	if !(cat > site) {
		t.Errorf("category-greedy %.4f does not beat site-greedy %.4f", cat, site)
	}
}
