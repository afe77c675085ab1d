package synth

import (
	"fmt"
	"math"

	"github.com/refreshlab/refreshlab/core/dataset"
)

// TaleghaniTable1 is Table 1 of Taleghani & Ugur-Ozekinci §2.3: changed
// pages in each of five categories of sites A and B, 20 pages per category
// per site.
var TaleghaniTable1 = [2][5]int{
	{20, 20, 20, 10, 0}, // site A: 70 of 100 changed
	{20, 10, 0, 0, 0},   // site B: 30 of 100 changed
}

// TaleghaniExample is the motivating example of Taleghani & Ugur-Ozekinci
// §2.3: two sites of 100 pages, five categories of 40 pages (20 from each
// site), changes as in Table 1, one refresh cycle. Where a category is
// partly changed, which of its pages changed is drawn with seed; nothing a
// policy can see depends on it.
func TaleghaniExample(seed uint64) *dataset.Dataset {
	b := newBuilder(dataset.Info{
		ID:     "taleghani-example",
		Name:   "Two sites × five categories (Taleghani §2.3)",
		Source: "paper",
		Cite:   "Taleghani & Ugur-Ozekinci, Sampling-based Refresh Policy with Correlation, §2.3 and Table 1",
		Description: "Sites A and B, 100 pages each; five categories of 20 pages per site. 70% of A and 30% of B changed, " +
			"concentrated in categories C1–C4 (Table 1). One cycle; the paper downloads 100 pages.",
		CycleUnit: "cycle",
	}, 1, false)
	rng := newRand(seed, "taleghani-example")
	cats := []string{"C1", "C2", "C3", "C4", "C5"}
	b.d.Labels = cats
	for s, name := range []string{"site-a.example", "site-b.example"} {
		site := b.site(name)
		for c := range cats {
			// The changed pages of this category: a random subset of the
			// given size, marked in page order.
			changed := make([]bool, 20)
			for _, i := range rng.Perm(20)[:TaleghaniTable1[s][c]] {
				changed[i] = true
			}
			for i := range 20 {
				p := b.page(fmt.Sprintf("https://%s/c%d/page-%02d.html", name, c+1, i+1), site, int32(c))
				if changed[i] {
					b.change(0, p, 0.5)
				}
			}
		}
	}
	return b.finish()
}

// AlQaaidehSite is one row of Al-Qaaideh Table 4.1: a site, its measured
// daily change rate (share of its pages changing per day) and its pages.
type AlQaaidehSite struct {
	Host  string
	Rate  float64
	Pages int
}

// AlQaaidehTable41 is Table 4.1 of Al-Qaaideh (2009): the nine Jordanian
// sites crawled daily for three weeks.
var AlQaaidehTable41 = []AlQaaidehSite{
	{"www.alarabiya.net", 0.0327, 528},
	{"www.alaswaq.net", 0.2577, 223},
	{"www.alzaytoonah.edu.jo", 0.0222, 38},
	{"www.jordandaily.com", 0.8195, 20},
	{"www.jordanislamicbank.com", 0, 45},
	{"www.madabacity.gov.jo", 0, 9},
	{"www.moe.gov.jo", 0.0154, 110},
	{"www.mutah.edu.jo", 0.4359, 94},
	{"www.nitc.gov.jo", 0.0909, 73},
}

// AlQaaidehConcentration is the concentration a+b of the Beta distribution
// from which each page's daily change probability is drawn around its
// site's rate. Table 4.1 gives only site averages; 2 spreads pages widely
// (a news site has a few pages that change daily and many that rarely do),
// which is an assumption of ours, not a finding of the thesis.
const AlQaaidehConcentration = 2

// AlQaaidehJordan rebuilds the web sample of Al-Qaaideh §4.2: the nine
// sites of Table 4.1 with their page counts, crawled daily for 21 days. Each
// page gets a daily change probability q from a Beta distribution with mean
// the site's rate and concentration AlQaaidehConcentration, and changes as a
// Poisson process of rate −ln(1−q) per day, so it changes on a given day with
// probability q and the time of its first change in the day is known.
func AlQaaidehJordan(seed uint64) *dataset.Dataset {
	const days = 21
	b := newBuilder(dataset.Info{
		ID:     "alqaaideh-jordan",
		Name:   "Nine Jordanian sites, 21 days (Al-Qaaideh Table 4.1)",
		Source: "paper",
		Cite:   "Al-Qaaideh, A Hybrid Approach for Web Change Detection (MSc thesis, 2009), §4.2 and Table 4.1",
		Description: "1,140 pages on the nine sites of Table 4.1, with the table's page counts and average daily change rates; " +
			"21 daily cycles. Pages within a site differ (Beta-distributed daily change probabilities around the site's rate).",
		CycleLength: 86400,
		CycleUnit:   "day",
	}, days, true)
	rng := newRand(seed, "alqaaideh-jordan")
	for _, s := range AlQaaidehTable41 {
		site := b.site(s.Host)
		for i := range s.Pages {
			p := b.page(fmt.Sprintf("https://%s/page-%03d", s.Host, i+1), site)
			q := min(betaMean(rng, s.Rate, AlQaaidehConcentration), 1-1e-9)
			if q <= 0 {
				continue
			}
			poissonCycles(rng, -math.Log1p(-q), days, func(c int, t float64) { b.change(c, p, t) })
		}
	}
	return b.finish()
}

// AlQaaidehExample is the greedy-versus-proportional example of
// Al-Qaaideh §2.5.4: two sites of 100 pages, 70 and 40 of which changed, one
// cycle of 100 downloads, 10 of them sampling each site. Which pages changed
// is drawn with seed; nothing a policy can see depends on it.
func AlQaaidehExample(seed uint64) *dataset.Dataset {
	b := newBuilder(dataset.Info{
		ID:     "alqaaideh-example",
		Name:   "Greedy vs proportional, two sites (Al-Qaaideh §2.5.4)",
		Source: "paper",
		Cite:   "Al-Qaaideh, A Hybrid Approach for Web Change Detection (MSc thesis, 2009), §2.5.4",
		Description: "Two sites of 100 pages; 70% of the first and 40% of the second changed. One cycle; " +
			"the example downloads 100 pages, 10 of them sampling each site.",
		CycleUnit: "cycle",
	}, 1, false)
	rng := newRand(seed, "alqaaideh-example")
	for _, s := range []struct {
		host    string
		changed int
	}{{"first-site.example", 70}, {"second-site.example", 40}} {
		site := b.site(s.host)
		changed := make([]bool, 100)
		for _, i := range rng.Perm(100)[:s.changed] {
			changed[i] = true
		}
		for i := range 100 {
			p := b.page(fmt.Sprintf("https://%s/page-%03d.html", s.host, i+1), site)
			if changed[i] {
				b.change(0, p, 0.5)
			}
		}
	}
	return b.finish()
}
