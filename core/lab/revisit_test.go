package lab_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/lab"
)

// TestNutchOnQuietLog plays Nutch's re-visit rule (revisit-rule's
// default) on a long real log of mostly quiet pages: Open Terms Archive's
// platform-governance pages, 133 of them over four years, on 12-hour
// cycles (3,006), most changing less than once in two months. They are
// kept beside the project in ../shared/data, not in the repository (the
// test skips, saying so, where they are absent). Downloading 20% of the
// pages a cycle, Nutch's freshness must be within 0.03 of random's: with
// the crawler's forced re-fetch after 90 days every page comes back, as
// random brings it back; without it the quiet pages' intervals climb
// towards a year and their changes go unseen for months. Tolerance: the
// 0.03 less 4 SE of the difference of the means over repeats.
func TestNutchOnQuietLog(t *testing.T) {
	path := filepath.Join("..", "..", "..", "shared", "data", "ota-pga-versions", "events.csv")
	f, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("skipped: the real Open Terms Archive change logs are not here (%v)", err)
	}
	d, _, err := dataset.ReadEventLog(bytes.NewReader(f), dataset.EventLogOptions{Name: "ota-pga-versions", CycleLength: 12 * 3600})
	if err != nil {
		t.Fatal(err)
	}
	l := lab.New()
	l.AddUpload(d)
	const repeats = 10
	res, err := l.Run(lab.Spec{Dataset: lab.DatasetRef{ID: d.Info.ID}, Budget: d.Info.Pages / 5, Repeats: repeats, Seed: 19,
		Policies: ids("random", "revisit-rule")})
	if err != nil {
		t.Fatal(err)
	}
	random, nutch := res.Policies[0].Metric(lab.MetricFreshness), res.Policies[1].Metric(lab.MetricFreshness)
	se := math.Hypot(random.SD, nutch.SD) / math.Sqrt(repeats)
	if gap := random.Mean - nutch.Mean; gap > 0.03-4*se {
		t.Errorf("on %d pages over %d cycles, Nutch's freshness %.4f is %.4f below random's %.4f (SE %.4f): want within 0.03",
			d.Info.Pages, d.Info.Cycles, nutch.Mean, gap, random.Mean, se)
	}
	t.Logf("%d pages, %d cycles, budget %d: random %.4f, Nutch %.4f (SE of the difference %.5f)", d.Info.Pages, d.Info.Cycles, d.Info.Pages/5, random.Mean, nutch.Mean, se)
}
