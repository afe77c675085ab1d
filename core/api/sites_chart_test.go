package api

import (
	"fmt"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
)

// TestSitesChart draws the per-site chart (Al-Qaaideh Table 4.2): one group
// per site, the truth hatched beside each estimating policy's mean
// estimate; policies without estimates are left out, and a result with none
// is a 400 that says which policies to add.
func TestSitesChart(t *testing.T) {
	rt := New(lab.New())
	resp, _ := serve(rt, "POST", "/api/run", "", `{"dataset":{"id":"alqaaideh-jordan"},"cycles":5,"repeats":3,"policies":[{"id":"site-greedy"},{"id":"random"},{"id":"frequency-greedy"}]}`)
	if resp.Status != 200 {
		t.Fatalf("run: %d %s", resp.Status, resp.Body)
	}
	c, _ := serve(rt, "POST", "/api/chart", "", `{"result":`+string(resp.Body)+`,"chart":{"type":"sites","metric":"siteAccuracy"}}`)
	svg := string(c.Body)
	if c.Status != 200 || c.ContentType != "image/svg+xml" {
		t.Fatalf("sites chart: %d %.300s", c.Status, svg)
	}
	for _, want := range []string{"9 groups of 3 bars", "Truth", "Site sampling, greedy", "Frequency-greedy hybrid", "jordandaily.com"} {
		if !strings.Contains(svg, want) {
			t.Errorf("sites chart: no %q in its SVG", want)
		}
	}
	if strings.Contains(svg, "Random") {
		t.Error("sites chart: a policy without estimates (random) is drawn")
	}
	resp, _ = serve(rt, "POST", "/api/run", "", `{"dataset":{"id":"alqaaideh-jordan"},"cycles":2,"repeats":2,"policies":[{"id":"random"}]}`)
	c, m := serve(rt, "POST", "/api/chart", "", `{"result":`+string(resp.Body)+`,"chart":{"type":"sites"}}`)
	if c.Status != 400 || m["field"] != "chart" || !strings.Contains(fmt.Sprint(m["error"]), "estimates sites") {
		t.Errorf("sites chart without estimates: %d %s", c.Status, c.Body)
	}
}

// TestChartFit checks the fit option: a ratio's sweep chart spans 0 to 1
// unless fit asks for an axis fitted to the data.
func TestChartFit(t *testing.T) {
	rt := New(lab.New())
	resp, _ := serve(rt, "POST", "/api/run", "", `{"dataset":{"id":"alqaaideh-example"},"budget":100,"repeats":20,"policies":[{"id":"site-greedy"}],"sweep":{"field":"params.sampleSize","values":[2,5,10]}}`)
	for _, fit := range []bool{false, true} {
		c, _ := serve(rt, "POST", "/api/chart", "", fmt.Sprintf(`{"result":%s,"chart":{"type":"sweep","fit":%v}}`, resp.Body, fit))
		if c.Status != 200 {
			t.Fatalf("fit %v: %d %.300s", fit, c.Status, c.Body)
		}
		if full := strings.Contains(string(c.Body), "The vertical axis runs from 0 to 1."); full == fit {
			t.Errorf("fit %v: the axis runs from 0 to 1 = %v", fit, full)
		}
	}
}

// TestSweepLabelOfOnePolicy checks that a sweep of one policy's parameter
// (policies.ID.NAME) is labelled with the parameter's label from the
// catalog, never its code name or path, and marks the value of the run.
func TestSweepLabelOfOnePolicy(t *testing.T) {
	rt := New(lab.New())
	resp, _ := serve(rt, "POST", "/api/run", "", `{"dataset":{"id":"alqaaideh-example"},"budget":100,"repeats":5,"policies":[{"id":"site-adaptive"},{"id":"site-greedy"}],"sweep":{"field":"policies.site-adaptive.alpha","values":[0.6,0.9]}}`)
	c, _ := serve(rt, "POST", "/api/chart", "", `{"result":`+string(resp.Body)+`,"chart":{"type":"sweep"}}`)
	svg := string(c.Body)
	if c.Status != 200 || !strings.Contains(svg, "ChangeRatio against confidence level (α)") || strings.Contains(svg, "alpha") || !strings.Contains(svg, "now: 0.95") {
		t.Errorf("sweep of policies.site-adaptive.alpha: %d, want it labelled confidence level (α), the run's 0.95 marked: %.400s", c.Status, svg)
	}
}
