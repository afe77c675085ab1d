package estimatekind_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/refreshlab/refreshlab/core/estimate/estimatekind"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/stat"
	"github.com/refreshlab/refreshlab/core/synth"
)

// TestFeaturePrior checks Grimes & Ford §6 as an expectation over 20
// repeats: when the page types differ in rate (the types' score correlates
// 0.8 with the log-period), a prior per type has a lower error over the
// first five crawls than the pooled prior, in the rate and in the period, by
// more than 3 standard errors of the difference (Welch); when the type says
// nothing of the rate (correlation 0) the two are level, within 3 standard
// errors. Conditioning on the site, of which the dataset has one, fits one
// prior, to every page.
func TestFeaturePrior(t *testing.T) {
	for _, tc := range []struct {
		signal float64
		better bool
	}{{synth.GrimesFordTypeSignal, true}, {0, false}} {
		l := lab.New()
		d := synth.GrimesFordTyped(lab.BundledSeed, synth.GrimesFordOptions{Types: synth.GrimesFordTypes, Signal: tc.signal})
		d.Info.ID = fmt.Sprintf("grimes-ford-signal-%g", tc.signal)
		l.AddUpload(d)
		spec := lab.Spec{Kind: estimatekind.ID, Dataset: lab.DatasetRef{ID: d.Info.ID}, Repeats: 20, Seed: 1,
			Policies: []lab.PolicySpec{{ID: estimatekind.EstPseudoMLE}, {ID: estimatekind.EstPseudoMLEFeature}, {ID: estimatekind.EstPseudoMLEFeature, Label: "site", Params: map[string]any{"by": estimatekind.FeatureSite}}},
			Sections: lab.Sections{estimatekind.ID: &estimatekind.Spec{Pages: 200, Epochs: 5, Paths: 1, Crawl: estimatekind.Crawl{PriorStart: true}, Prior: estimatekind.PriorOptions{Steps: 800, Restarts: 4}}}}
		res, err := l.Run(spec)
		if err != nil {
			t.Fatal(err)
		}
		pooled, typed, site := res.Policies[0], res.Policies[1], res.Policies[2]
		if n := len(estimatekind.PolicyResultOf(typed).Prior.ByFeature); n != len(synth.GrimesFordTypes) {
			t.Errorf("signal %g: %d priors by type, want %d", tc.signal, n, len(synth.GrimesFordTypes))
		}
		for _, m := range []string{estimatekind.MetricMAD, estimatekind.MetricMADPeriod} {
			diff := stat.Welch(typed.Metrics[m], pooled.Metrics[m])
			if tc.better && !(diff.Mean < -3*diff.SE) {
				t.Errorf("signal %g, %s: by type %.4g, pooled %.4g: difference %.3g is not below −3 SE (%.3g)", tc.signal, m, typed.Metrics[m].Mean, pooled.Metrics[m].Mean, diff.Mean, 3*diff.SE)
			}
			if !tc.better && math.Abs(diff.Mean) > 3*diff.SE {
				t.Errorf("signal %g, %s: by type %.4g, pooled %.4g: |difference| %.3g exceeds 3 SE (%.3g)", tc.signal, m, typed.Metrics[m].Mean, pooled.Metrics[m].Mean, diff.Mean, 3*diff.SE)
			}
		}
		if g := estimatekind.PolicyResultOf(site).Prior.ByFeature; len(g) != 1 || g[0].Pages != len(d.Pages) {
			t.Errorf("signal %g: by site, priors %+v, want one of all %d pages", tc.signal, g, len(d.Pages))
		}
	}
}
