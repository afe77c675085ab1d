package lesson

import (
	"math"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/stat"
)

// crawlCounts runs policy id with params on the bundled dataset at budget
// for repeats, watching every download, and returns per site the mean over
// repeats and days of the samples and of all downloads the policy made
// there.
func crawlCounts(t *testing.T, datasetID string, budget int, id string, params param.Values, repeats int) (samples, downloads []float64) {
	t.Helper()
	l := lab.New()
	d, ok := l.Dataset(datasetID)
	if !ok {
		t.Fatalf("no dataset %s", datasetID)
	}
	i := slices.IndexFunc(lab.Policies(), func(p refresh.Descriptor) bool { return p.ID == id })
	desc := lab.Policies()[i]
	samples, downloads = make([]float64, len(d.Sites)), make([]float64, len(d.Sites))
	for r := range repeats {
		vals, err := param.Check(desc.Params, params)
		if err != nil {
			t.Fatal(err)
		}
		sim := refresh.NewSim(d)
		p, err := desc.New(refresh.Env{Repo: &d.Repository, Budget: budget, Cycles: d.Truth.Cycles(), Rand: lab.Stream(1, id, r), Params: vals})
		if err != nil {
			t.Fatal(err)
		}
		sim.Watch = func(p int32, sample, _ bool) {
			w := d.Pages[p].Site
			downloads[w]++
			if sample {
				samples[w]++
			}
		}
		sim.Run(p, budget, d.Truth.Cycles(), nil)
	}
	for w := range samples {
		samples[w] /= float64(repeats * d.Truth.Cycles())
		downloads[w] /= float64(repeats * d.Truth.Cycles())
	}
	return samples, downloads
}

// siteIndex returns the index of host among the result's sites.
func siteIndex(t *testing.T, pr lab.PolicyResult, host string) int {
	t.Helper()
	w := slices.Index(pr.Sites.Sites, host)
	if w < 0 {
		t.Fatalf("%s: no site %s", pr.ID, host)
	}
	return w
}

// overestimates reports whether the policy's estimate of host lies above
// the truth by more than three standard errors.
func overestimates(t *testing.T, pr lab.PolicyResult, host string) bool {
	w := siteIndex(t, pr, host)
	e := pr.Sites.Estimate[w]
	return e.Mean-pr.Sites.Truth[w] > 3*se(e)
}

// TestClaimsAdaptiveSampling holds "Sample until you are sure" to the lab.
func TestClaimsAdaptiveSampling(t *testing.T) {
	const id = "adaptive-sampling"
	// Wilson's interval for three unchanged pages of a large site at α =
	// 0.95, and the finite-population correction of a 9-page site.
	_, hi := stat.WilsonInterval(0, 3, 528, 1.959963984540054)
	claim(t, math.Abs(hi-0.56) < 0.005, "three unchanged pages give an interval from 0 to 0.56, not %.4f", hi)
	_, small := stat.WilsonInterval(0, 3, 9, 1.959963984540054)
	claim(t, small < hi, "3 of madabacity's 9 pages (upper bound %.3f) say more than 3 of alarabiya's 528 (%.3f)", small, hi)

	run := func(edit func(*lab.Spec)) *lab.Result {
		return claimRun(t, id, func(s *lab.Spec) {
			s.Repeats, s.Sweep = 100, nil
			if edit != nil {
				edit(s)
			}
		})
	}
	cr := func(res *lab.Result, key string) stat.Summary { return policyOf(t, res, key).Metric(lab.MetricChangeRatio) }
	gain := func(res *lab.Result) stat.Summary {
		a, g := cr(res, "site-adaptive"), cr(res, "site-greedy")
		return stat.Summary{Mean: a.Mean - g.Mean, SD: math.Hypot(a.SD, g.SD), N: a.N}
	}
	base := run(nil)
	ad, gr := policyOf(t, base, "site-adaptive"), policyOf(t, base, "site-greedy")
	claim(t, gr.Params["sampleSize"] == 4.0, "greedy samples √(N·r) = 4 pages per site, not %v", gr.Params["sampleSize"])
	claim(t, above(cr(base, "site-adaptive"), cr(base, "site-greedy")), "adaptive (%.4f) finds changes with more of its downloads than greedy (%.4f)",
		cr(base, "site-adaptive").Mean, cr(base, "site-greedy").Mean)
	claim(t, above(cr(base, "site-greedy"), cr(base, "site-grouped")) && above(cr(base, "site-adaptive"), cr(base, "site-grouped")),
		"at 114 downloads grouped sampling (%.4f) trails both", cr(base, "site-grouped").Mean)
	claim(t, above(ad.Metric(lab.MetricSiteAccuracy), gr.Metric(lab.MetricSiteAccuracy)), "adaptive's site accuracy (%.4f) is above greedy's (%.4f)",
		ad.Metric(lab.MetricSiteAccuracy).Mean, gr.Metric(lab.MetricSiteAccuracy).Mean)
	for _, host := range []string{"www.alaswaq.net", "www.nitc.gov.jo"} {
		for _, key := range []string{"site-adaptive", "site-greedy"} {
			claim(t, overestimates(t, policyOf(t, base, key), host), "%s overestimates %s", key, host)
		}
		w := siteIndex(t, gr, host)
		claim(t, gr.Sites.Estimate[w].Mean-gr.Sites.Truth[w] > 2*(ad.Sites.Estimate[w].Mean-ad.Sites.Truth[w]),
			"greedy overestimates %s by far more than adaptive sampling (%.4f and %.4f for %.4f)", host, gr.Sites.Estimate[w].Mean, ad.Sites.Estimate[w].Mean, gr.Sites.Truth[w])
	}

	// Where adaptive sampling's downloads go.
	samples, downloads := crawlCounts(t, "alqaaideh-jordan", 114, "site-adaptive", nil, 50)
	gSamples, _ := crawlCounts(t, "alqaaideh-jordan", 114, "site-greedy", nil, 50)
	d, _ := lab.New().Dataset("alqaaideh-jordan")
	for w, host := range d.Sites {
		t.Logf("%-26s adaptive: %5.2f samples, %6.2f downloads a day; greedy: %5.2f samples", host, samples[w], downloads[w], gSamples[w])
	}
	site := func(host string) int { return slices.Index(d.Sites, host) }
	jd := site("www.jordandaily.com")
	claim(t, math.Abs(downloads[jd]/20-0.8) < 0.05, "adaptive sampling downloads four in five of jordandaily.com's pages a day, not %.1f of 20", downloads[jd])
	claim(t, samples[jd] <= 6, "jordandaily.com is decided within a few rounds: %.1f samples a day", samples[jd])
	for _, host := range []string{"www.jordanislamicbank.com", "www.madabacity.gov.jo"} {
		claim(t, samples[site(host)] <= 2, "%s, which never changes, is dropped after a round or two (%.2f samples a day)", host, samples[site(host)])
	}
	for _, host := range []string{"www.alarabiya.net", "www.alzaytoonah.edu.jo", "www.moe.gov.jo"} {
		w := site(host)
		claim(t, samples[w] <= 4 && gSamples[w] == 4, "%s, barely changing, is dropped within four rounds (%.2f samples a day), no more than greedy's fixed sample (%.2f)", host, samples[w], gSamples[w])
	}
	for _, host := range []string{"www.mutah.edu.jo", "www.alaswaq.net"} {
		w := site(host)
		for v, other := range d.Sites {
			if other != "www.mutah.edu.jo" && other != "www.alaswaq.net" {
				claim(t, samples[w] > 2*samples[v], "%s, undecided, is sampled round after round (%.2f a day), far more than %s (%.2f)", host, samples[w], other, samples[v])
			}
		}
	}

	// The α sweep, at κ = 1 and κ = 3.
	alphas := func(kappa float64) *lab.Result {
		return claimRun(t, id, func(s *lab.Spec) {
			s.Repeats = 100
			s.Policies = s.Policies[:1]
			s.Policies[0].Params["kappa"] = kappa
		})
	}
	for _, kappa := range []float64{1, 3} {
		sw := alphas(kappa)
		var line []float64
		for _, a := range sw.Sweep.Values {
			line = append(line, sweepAt(t, sw, 0, lab.MetricChangeRatio, a).Mean)
		}
		t.Logf("κ = %v: ChangeRatio at α = %v: %.4f", kappa, sw.Sweep.Values, line)
	}
	k1, k3 := alphas(1), alphas(3)
	at := func(res *lab.Result, a float64) stat.Summary { return sweepAt(t, res, 0, lab.MetricChangeRatio, a) }
	claim(t, above(at(k1, 0.95), at(k1, 0.99)), "with one-page rounds, α = 0.99 visibly costs (%.4f against %.4f at 0.95)", at(k1, 0.99).Mean, at(k1, 0.95).Mean)
	spread := func(res *lab.Result) float64 { return at(res, 0.5).Mean - at(res, 0.99).Mean }
	claim(t, spread(k3) > spread(k1), "larger steps make α matter more: %.4f from 0.5 to 0.99 at κ = 3, %.4f at κ = 1", spread(k3), spread(k1))
	for _, a := range []float64{0.5, 0.7, 0.9} {
		claim(t, math.Abs(at(k1, a).Mean-at(k1, 0.95).Mean) < 0.01, "with one-page rounds the level matters little below 0.99: %.4f at %v against %.4f at 0.95", at(k1, a).Mean, a, at(k1, 0.95).Mean)
	}

	// The predictions.
	g1, g3 := gain(base), gain(run(func(s *lab.Spec) { s.Policies[0].Params["kappa"] = 3.0 }))
	claim(t, above(g1, g3), "with κ = 3 adaptive's lead over greedy shrinks: %.4f against %.4f at κ = 1", g3.Mean, g1.Mean)
	b10 := run(func(s *lab.Spec) { s.Budget = 10 })
	claim(t, policyOf(t, b10, "site-greedy").Params["sampleSize"] == 1.0, "at 10 downloads greedy samples a single page per site")
	claim(t, above(cr(b10, "site-grouped"), cr(b10, "site-adaptive")) && above(cr(b10, "site-grouped"), cr(b10, "site-greedy")),
		"at 10 downloads grouped sampling (%.4f) leads adaptive (%.4f) and greedy (%.4f)", cr(b10, "site-grouped").Mean, cr(b10, "site-adaptive").Mean, cr(b10, "site-greedy").Mean)
	b20 := run(func(s *lab.Spec) { s.Budget = 20 })
	claim(t, above(cr(b20, "site-adaptive"), cr(b20, "site-grouped")) && above(cr(b20, "site-adaptive"), cr(b20, "site-greedy")),
		"at 20 downloads adaptive sampling (%.4f) leads grouped (%.4f) and greedy (%.4f)", cr(b20, "site-adaptive").Mean, cr(b20, "site-grouped").Mean, cr(b20, "site-greedy").Mean)
	a99 := run(func(s *lab.Spec) { s.Policies[0].Params["alpha"] = 0.99 })
	ad99 := policyOf(t, a99, "site-adaptive")
	claim(t, !above(ad99.Metric(lab.MetricSiteAccuracy), ad.Metric(lab.MetricSiteAccuracy)),
		"at α = 0.99 sampling longer buys no better estimate: site accuracy %.4f against %.4f at 0.95",
		ad99.Metric(lab.MetricSiteAccuracy).Mean, ad.Metric(lab.MetricSiteAccuracy).Mean)
	claim(t, overestimates(t, ad99, "www.alaswaq.net"), "at α = 0.99 alaswaq.net is still overestimated")
	claim(t, above(cr(base, "site-adaptive"), cr(a99, "site-adaptive")), "at α = 0.99 fewer of adaptive's downloads find a change (%.4f against %.4f)",
		cr(a99, "site-adaptive").Mean, cr(base, "site-adaptive").Mean)
	b600 := run(func(s *lab.Spec) { s.Budget = 600 })
	g600 := gain(b600)
	claim(t, math.Abs(g600.Mean) < 0.01, "at 600 downloads adaptive and greedy sampling come within 0.01 of each other (%.4f)", g600.Mean)
	claim(t, above(cr(b600, "site-greedy"), cr(b600, "site-grouped")) && above(cr(b600, "site-adaptive"), cr(b600, "site-grouped")),
		"at 600 downloads grouped sampling (%.4f) still trails", cr(b600, "site-grouped").Mean)
}

// TestClaimsHistoryPlusSampling holds "History plus sampling" to the lab.
// The first sample of P/W pages per site is sampling.TestFirstSample's.
func TestClaimsHistoryPlusSampling(t *testing.T) {
	const id = "history-plus-sampling"
	claim(t, math.Round(100*5*100/1140.0) == 44 && math.Round(1000*2*100/1140.0) == 175, "S = V·P/T is 44%% and 2P/T 17.5%% at the defaults")

	res := claimRun(t, id, func(s *lab.Spec) { s.Repeats = 100 })
	acc := func(key string) stat.Summary { return policyOf(t, res, key).Metric(lab.MetricSiteAccuracy) }
	g, h, full := "greedy-sample-allocation", "frequency-greedy", "frequency-greedy-log"
	for _, key := range []string{g, h} {
		claim(t, acc(key).Mean > 0.975 && acc(key).Mean < 0.99, "%s at 100 sample pages (%.4f) is in the thesis' high nineties", key, acc(key).Mean)
		claim(t, above(acc(key), acc("site-greedy")), "%s (%.4f) is far more accurate than site sampling (%.4f)", key, acc(key).Mean, acc("site-greedy").Mean)
	}
	site := policyOf(t, res, "site-greedy")
	for _, host := range []string{"www.alaswaq.net", "www.mutah.edu.jo"} {
		claim(t, overestimates(t, site, host), "site sampling's estimate of %s runs high", host)
	}
	at := func(i int, metric string, p float64) stat.Summary { return sweepAt(t, res, i, metric, p) }
	idx := func(key string) int {
		return slices.IndexFunc(res.Sweep.Policies, func(s lab.SweepSeries) bool { return s.Key() == key })
	}
	thesis := map[float64]float64{10: 0.8344, 25: 0.9670, 50: 0.9842, 75: 0.9868, 100: 0.9872}
	for k, p := range res.Sweep.Values {
		if k > 0 {
			prev := res.Sweep.Values[k-1]
			claim(t, !above(at(idx(g), lab.MetricSiteAccuracy, prev), at(idx(g), lab.MetricSiteAccuracy, p)), "the greedy allocation's accuracy climbs with P (%v to %v)", prev, p)
		}
		claim(t, !above(at(idx(h), lab.MetricSiteAccuracy, p), at(idx(g), lab.MetricSiteAccuracy, p)), "at P = %v the hybrid (%.4f) is not above the greedy allocation (%.4f)",
			p, at(idx(h), lab.MetricSiteAccuracy, p).Mean, at(idx(g), lab.MetricSiteAccuracy, p).Mean)
		for _, key := range []string{g, h} {
			claim(t, above(at(idx(full), lab.MetricSiteAccuracy, p), at(idx(key), lab.MetricSiteAccuracy, p)), "at P = %v the redrawn full-log hybrid (%.4f) is above %s (%.4f)",
				p, at(idx(full), lab.MetricSiteAccuracy, p).Mean, key, at(idx(key), lab.MetricSiteAccuracy, p).Mean)
			claim(t, above(at(idx(key), lab.MetricDivergence, p), at(idx(full), lab.MetricDivergence, p)), "at P = %v the redrawn full-log hybrid's copies fall behind less (%.4f) than %s's (%.4f)",
				p, at(idx(full), lab.MetricDivergence, p).Mean, key, at(idx(key), lab.MetricDivergence, p).Mean)
		}
		claim(t, at(idx(full), lab.MetricSiteAccuracy, p).Mean-3*se(at(idx(full), lab.MetricSiteAccuracy, p)) > thesis[p], "at P = %v the redrawn full-log hybrid (%.4f) is above the thesis' row (%.4f)",
			p, at(idx(full), lab.MetricSiteAccuracy, p).Mean, thesis[p])
		for _, key := range []string{g, h} {
			claim(t, !above(at(idx(key), lab.MetricChangeRatio, p), at(idx("site-greedy"), lab.MetricChangeRatio, p)), "at P = %v site sampling finds changes with as large a share as %s", p, key)
		}
		t.Logf("P = %3v: site accuracy greedy %.4f hybrid %.4f full-log %.4f; ChangeRatio %.4f %.4f %.4f; divergence %.4f %.4f %.4f; freshness %.4f %.4f",
			p, at(idx(g), lab.MetricSiteAccuracy, p).Mean, at(idx(h), lab.MetricSiteAccuracy, p).Mean, at(idx(full), lab.MetricSiteAccuracy, p).Mean,
			at(idx(g), lab.MetricChangeRatio, p).Mean, at(idx(h), lab.MetricChangeRatio, p).Mean, at(idx(full), lab.MetricChangeRatio, p).Mean,
			at(idx(g), lab.MetricDivergence, p).Mean, at(idx(h), lab.MetricDivergence, p).Mean, at(idx(full), lab.MetricDivergence, p).Mean,
			at(idx(g), lab.MetricFreshness, p).Mean, at(idx(h), lab.MetricFreshness, p).Mean)
	}
	claim(t, at(idx(g), lab.MetricSiteAccuracy, 10).Mean > 0.8352+0.05, "the lab's 10-page column (%.4f) is far better than the thesis' 83%%", at(idx(g), lab.MetricSiteAccuracy, 10).Mean)
	p10 := claimRun(t, id, func(s *lab.Spec) {
		s.Repeats, s.Sweep = 1000, nil
		s.Policies = s.Policies[:2]
		for i := range s.Policies {
			s.Policies[i].Params["samplePages"] = 10.0
		}
	})
	claim(t, above(policyOf(t, p10, h).Metric(lab.MetricChangeRatio), policyOf(t, p10, g).Metric(lab.MetricChangeRatio)),
		"at 10 sample pages the hybrid (%.4f) finds more changes than the greedy allocation (%.4f)",
		policyOf(t, p10, h).Metric(lab.MetricChangeRatio).Mean, policyOf(t, p10, g).Metric(lab.MetricChangeRatio).Mean)
	claim(t, !above(at(idx(h), lab.MetricChangeRatio, 100), at(idx(g), lab.MetricChangeRatio, 100)), "at 100 sample pages the hybrid's advantage is gone")
	claim(t, above(at(idx(g), lab.MetricChangeRatio, 50), at(idx(g), lab.MetricChangeRatio, 100)), "raising P towards the budget costs ChangeRatio")
	// Divergence: the allocation policies' copies fall further behind
	// than site sampling's, and the bill grows with P while freshness
	// moves far less.
	claim(t, above(policyOf(t, res, g).Metric(lab.MetricDivergence), site.Metric(lab.MetricDivergence)), "the greedy allocation's copies miss more changes than site sampling's")
	for _, pr := range res.Policies {
		div, fr := pr.Metric(lab.MetricDivergence).Mean, pr.Metric(lab.MetricFreshness).Mean
		claim(t, div >= 1-fr, "%s: every stale copy misses at least one change, so divergence (%.4f) is at least the stale share (%.4f)", pr.ID, div, 1-fr)
	}
	dDiv := at(idx(g), lab.MetricDivergence, 100).Mean - at(idx(g), lab.MetricDivergence, 25).Mean
	dFr := at(idx(g), lab.MetricFreshness, 25).Mean - at(idx(g), lab.MetricFreshness, 100).Mean
	claim(t, above(at(idx(g), lab.MetricDivergence, 100), at(idx(g), lab.MetricDivergence, 25)) && dDiv > 3*dFr,
		"divergence grows with P (by %.4f from 25 to 100) while freshness moves far less (%.4f)", dDiv, dFr)

	// The thesis' conditions without redraw, and with a single version.
	variant := func(params param.Values) *lab.Result {
		return claimRun(t, id, func(s *lab.Spec) {
			s.Repeats = 100
			s.Policies = []lab.PolicySpec{s.Policies[1], {ID: full, Params: params}}
		})
	}
	same := variant(param.Values{"samplePages": 100.0, "versions": 5.0, "redraw": false})
	one := variant(param.Values{"samplePages": 100.0, "versions": 1.0, "redraw": true})
	for k, p := range res.Sweep.Values {
		own, kept := sweepAt(t, same, 0, lab.MetricSiteAccuracy, p), sweepAt(t, same, 1, lab.MetricSiteAccuracy, p)
		claim(t, !above(kept, own), "at P = %v the full-log hybrid kept to its sample pages (%.4f) is no more accurate than the honest one (%.4f)", p, kept.Mean, own.Mean)
		v1, v5 := sweepAt(t, one, 1, lab.MetricSiteAccuracy, p), res.Sweep.Policies[idx(full)].Metrics[lab.MetricSiteAccuracy][k]
		claim(t, v1.Mean-own.Mean > v5.Mean-v1.Mean, "at P = %v one version redrawn (%.4f) gains most of the way from the honest hybrid (%.4f) to five (%.4f)", p, v1.Mean, own.Mean, v5.Mean)
	}

	// Drift: a history of all 21 days costs nothing without it and loses
	// accuracy at full drift (the last prediction).
	long := func(drift float64) (stat.Summary, stat.Summary) {
		r := claimRun(t, id, func(s *lab.Spec) {
			s.Repeats, s.Sweep = 100, nil
			s.Dataset.Drift = drift
			s.Policies = []lab.PolicySpec{s.Policies[2], {ID: full, Label: "long", Params: param.Values{"samplePages": 100.0, "versions": 21.0, "redraw": true}}}
		})
		return policyOf(t, r, full).Metric(lab.MetricSiteAccuracy), policyOf(t, r, "long").Metric(lab.MetricSiteAccuracy)
	}
	five, all := long(0)
	claim(t, !above(five, all), "without drift 21 versions (%.4f) cost the full-log hybrid nothing against five (%.4f)", all.Mean, five.Mean)
	five, all = long(1)
	claim(t, above(five, all) && all.Mean < 0.99, "at full drift 21 versions (%.4f) fall below five (%.4f) and below 99%%", all.Mean, five.Mean)
}
