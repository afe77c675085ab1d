package synth

import (
	"fmt"
	"math"

	"github.com/refreshlab/refreshlab/core/dataset"
)

// The rate distribution of GrimesFord. Grimes & Ford (2008 draft, §4.2,
// Fig. 3) estimate the change rates of 10,000 pages found by a
// PageRank-directed crawl and use their distribution as the population of
// new pages; the figure is not given as numbers. We draw each page's change
// period Δ from a log-normal law, median GrimesFordMedian days and
// log-standard deviation GrimesFordSigma, and discretise it to whole hours
// (at least one), as §4.3 discretises p(Δ) at 1 hour. A log-normal is
// heavy-tailed (it has no exponential moments, so periods of months sit
// beside periods of hours, as measured web change periods do: Cho &
// Garcia-Molina 2003 and Brewington & Cybenko 2000 report rates spread over
// several orders of magnitude) and it makes the rate λ = 1/Δ log-normal too.
// Periods are capped at GrimesFordMaxPeriod, the most a year of crawling
// could have measured.
const (
	GrimesFordPages     = 10000
	GrimesFordDays      = 30
	GrimesFordMedian    = 5.0   // days
	GrimesFordSigma     = 1.5   // natural-log units
	GrimesFordMaxPeriod = 365.0 // days
)

// GrimesFordInfo is the Info of GrimesFord(20260101).
var GrimesFordInfo = dataset.Info{
	ID:     "grimes-ford",
	Name:   "New pages with heavy-tailed change rates (Grimes & Ford §4.2)",
	Source: "paper",
	Cite:   "Grimes & Ford, Estimation of Web Page Change Rates (2008), §4.2–4.4, Figs. 3–7",
	Description: fmt.Sprintf("%d pages whose change periods are log-normal (median %g days, σ = %g in log units: heavy-tailed, "+
		"from an hour to months), rounded to whole hours as §4.3 discretises its prior; each changes as a Poisson process "+
		"over %d daily cycles, and its true rate is known.", GrimesFordPages, GrimesFordMedian, GrimesFordSigma, GrimesFordDays),
	CycleLength: 86400,
	CycleUnit:   "day",
	Pages:       GrimesFordPages, Sites: 1, Cycles: GrimesFordDays,
	ChangeRate: 0.2825666666666667,
}

// GrimesFordPeriod returns the change period in days for a standard normal
// draw z: exp(ln median + σ·z), rounded to the nearest hour, at least one
// hour and at most GrimesFordMaxPeriod.
func GrimesFordPeriod(z float64) float64 {
	d := GrimesFordMedian * math.Exp(GrimesFordSigma*z)
	h := math.Round(d * 24)
	return min(max(h, 1), GrimesFordMaxPeriod*24) / 24
}

// GrimesFord builds the population of Grimes & Ford §4.2: GrimesFordPages
// pages whose change periods follow the distribution above (see
// GrimesFordPeriod), each changing as a Poisson process of rate 1/Δ per day
// over GrimesFordDays daily cycles. Truth.Rates holds each page's true rate,
// so the estimate kind can compare estimates with it, and Truth.First the
// time of each cycle's first change.
func GrimesFord(seed uint64) *dataset.Dataset {
	b := newBuilder(GrimesFordInfo, GrimesFordDays, true)
	rng := newRand(seed, "grimes-ford")
	site := b.site("grimes-ford.example")
	rates := make([]float64, GrimesFordPages)
	for i := range rates {
		p := b.page(fmt.Sprintf("https://grimes-ford.example/page-%05d", i+1), site)
		rates[i] = 1 / GrimesFordPeriod(rng.NormFloat64())
		poissonCycles(rng, rates[i], GrimesFordDays, func(c int, t float64) { b.change(c, p, t) })
	}
	b.d.Truth.Rates = rates
	return b.finish()
}
