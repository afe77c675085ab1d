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
	d, err := AlQaaidehJordanWith(seed, AlQaaidehDrift{})
	if err != nil {
		panic(err) // no drift is always valid
	}
	return d
}

// AlQaaidehDrift makes the rates of AlQaaidehJordan's sites vary over the
// three weeks, as the thesis' Fig. 4.1 plots them ("Web sites change rate
// variation over time"; the figure is not in the text, which says only
// that the variation was low). The zero value is no drift.
//
// Site w's change intensity at time t (days) is its page's constant rate
// times m_w(t) = 1 + Drift·sin(2π·t/Period + φ_w), φ_w a random phase per
// site, so sites rise and fall at different times and their order can
// swap. Each page's changes are drawn exactly as without drift and then
// moved in time (poissonWarped): a page keeps the number of changes it
// would have had, over a whole number of periods exactly and otherwise
// nearly, and only when they happen moves. Where changes bunch two may
// fall on one day, so a site's share of pages changed per day falls a
// little below Table 4.1's, most for the fastest site.
type AlQaaidehDrift struct {
	// Drift is the amplitude of the swing, from 0 (constant rates) to 1
	// (each site's intensity swings between 0 and twice its mean).
	Drift float64 `json:"drift"`
	// Period is the length of one swing in days, from 1 to 1,000; 0
	// means the whole run, 21 days.
	Period float64 `json:"driftPeriod"`
}

// Check returns an error naming the first field out of range.
func (c AlQaaidehDrift) Check() error {
	if !(c.Drift >= 0 && c.Drift <= 1) {
		return fmt.Errorf("drift: expected 0 to 1, got %v", c.Drift)
	}
	if !(c.Period == 0 || c.Period >= 1 && c.Period <= 1000) {
		return fmt.Errorf("driftPeriod: expected 0 (the run's 21 days) or 1 to 1000 days, got %v", c.Period)
	}
	return nil
}

// warp returns the time change of site phase phi over days: the inverse
// of M(t) = ∫₀ᵗ m = t + Drift·L/2π·(cos φ − cos(2πt/L + φ)), and M(days),
// the horizon to draw the unwarped process over.
func (c AlQaaidehDrift) warp(phi float64, days int) (func(float64) float64, float64) {
	L := c.Period
	if L == 0 {
		L = float64(days)
	}
	k := c.Drift * L / (2 * math.Pi)
	M := func(t float64) float64 { return t + k*(math.Cos(phi)-math.Cos(2*math.Pi*t/L+phi)) }
	inv := func(u float64) float64 {
		// M is increasing (m ≥ 0): bisection, to the last bit.
		lo, hi := 0.0, float64(days)
		for range 100 {
			mid := (lo + hi) / 2
			if mid <= lo || mid >= hi {
				break
			}
			if M(mid) < u {
				lo = mid
			} else {
				hi = mid
			}
		}
		return hi
	}
	return inv, M(float64(days))
}

// AlQaaidehJordanWith is AlQaaidehJordan with the site rates drifting as
// drift says; with no drift it is AlQaaidehJordan, byte for byte. The
// pages' change probabilities are the same whatever the drift (the phases
// come from a stream of their own).
func AlQaaidehJordanWith(seed uint64, drift AlQaaidehDrift) (*dataset.Dataset, error) {
	if err := drift.Check(); err != nil {
		return nil, err
	}
	const days = 21
	info := dataset.Info{
		ID:     "alqaaideh-jordan",
		Name:   "Nine Jordanian sites, 21 days (Al-Qaaideh Table 4.1)",
		Source: "paper",
		Cite:   "Al-Qaaideh, A Hybrid Approach for Web Change Detection (MSc thesis, 2009), §4.2 and Table 4.1",
		Description: "1,140 pages on the nine sites of Table 4.1, with the table's page counts and average daily change rates; " +
			"21 daily cycles. Pages within a site differ (Beta-distributed daily change probabilities around the site's rate).",
		CycleLength: 86400,
		CycleUnit:   "day",
	}
	if drift.Drift > 0 {
		L := drift.Period
		if L == 0 {
			L = days
		}
		info.Name += fmt.Sprintf(", rates drifting ±%g%% every %g days", 100*drift.Drift, L)
		info.Description += fmt.Sprintf(" Each site's rate drifts: its intensity is 1 + %g·sin(2πt/%g + φ) times its mean, φ a random phase per site (Fig. 4.1).", drift.Drift, L)
	}
	b := newBuilder(info, days, true)
	rng := newRand(seed, "alqaaideh-jordan")
	phases := newRand(seed, "alqaaideh-jordan/drift")
	for _, s := range AlQaaidehTable41 {
		site := b.site(s.Host)
		var warp func(float64) float64
		horizon := float64(days)
		if drift.Drift > 0 {
			warp, horizon = drift.warp(2*math.Pi*phases.Float64(), days)
		}
		for i := range s.Pages {
			p := b.page(fmt.Sprintf("https://%s/page-%03d", s.Host, i+1), site)
			q := min(betaMean(rng, s.Rate, AlQaaidehConcentration), 1-1e-9)
			if q <= 0 {
				continue
			}
			poissonWarped(rng, -math.Log1p(-q), horizon, warp, func(c int, t float64) { b.change(c, p, t) })
		}
	}
	return b.finish(), nil
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
