package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/stat"
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
// time of each cycle's first change. Its pages carry no feature beyond
// their one site; GrimesFordTyped adds a page type.
func GrimesFord(seed uint64) *dataset.Dataset {
	return grimesFord(seed, GrimesFordInfo, GrimesFordOptions{})
}

// GrimesFordOptions adds a page feature to GrimesFord's population, for
// Grimes & Ford §6's priors conditioned on "additional information ...
// about the page when it is first seen, such as ... the page type (news,
// blog, static content)".
type GrimesFordOptions struct {
	// Types, fastest first, labels every page with one page type (a
	// category label) when not empty.
	Types []string
	// Signal, in [0, 1], is how much the type says about the page's rate:
	// the correlation between the page's log-period draw z and the score
	// u = Signal·z + √(1 − Signal²)·ε (ε standard normal, independent)
	// whose quantile band gives the type, so each type holds 1/len(Types)
	// of the pages in expectation. 0 makes types independent of rates.
	Signal float64
}

// The page types of grimes-ford-types (see GrimesFordTyped), and its
// options.
var (
	GrimesFordTypes        = []string{"news", "blog", "static"}
	GrimesFordTypeSignal   = 0.8
	GrimesFordTypesOptions = GrimesFordOptions{Types: GrimesFordTypes, Signal: GrimesFordTypeSignal}
)

// GrimesFordTypesInfo is the Info of GrimesFordTyped(20260101,
// GrimesFordTypesOptions).
var GrimesFordTypesInfo = func() dataset.Info {
	info := GrimesFordInfo // the same pages, rates and changes
	info.ID = "grimes-ford-types"
	info.Name = "New pages with page types (Grimes & Ford §6)"
	info.Cite = "Grimes & Ford, Estimation of Web Page Change Rates (2008), §4.2, §6"
	info.Description = grimesFordTypesText(GrimesFordTypesOptions)
	info.Labels = len(GrimesFordTypes)
	return info
}()

func grimesFordTypesText(opt GrimesFordOptions) string {
	return fmt.Sprintf("The %d pages of grimes-ford, with the same change periods and changes, each labelled with its page type (%s, fastest first): "+
		"a noisy signal of its rate (correlation %g between the type's score and the log-period), as §6 supposes a page type "+
		"tells something about its rate.", GrimesFordPages, strings.Join(opt.Types, ", "), opt.Signal)
}

// GrimesFordTyped builds GrimesFord's population, the same pages with the
// same rates and changes for a seed, each page labelled with a type (see
// GrimesFordOptions). A type is drawn from its own random stream, so the
// rates and changes stay GrimesFord's whatever the options; the type is a
// noisy signal of the rate, not the rate itself, as a page type would be.
func GrimesFordTyped(seed uint64, opt GrimesFordOptions) *dataset.Dataset {
	info := GrimesFordTypesInfo
	info.Labels = len(opt.Types)
	info.Description = grimesFordTypesText(opt)
	return grimesFord(seed, info, opt)
}

func grimesFord(seed uint64, info dataset.Info, opt GrimesFordOptions) *dataset.Dataset {
	b := newBuilder(info, GrimesFordDays, true)
	rng := newRand(seed, "grimes-ford")
	site := b.site("grimes-ford.example")
	var types *rand.Rand
	var bands []float64 // the upper score of each type but the last
	if len(opt.Types) > 0 {
		types = newRand(seed, "grimes-ford/types")
		b.d.Labels = slices.Clone(opt.Types)
		for k := 1; k < len(opt.Types); k++ {
			bands = append(bands, stat.NormalQuantile(float64(k)/float64(len(opt.Types))))
		}
	}
	s := min(max(opt.Signal, 0), 1)
	noise := math.Sqrt(1 - s*s)
	rates := make([]float64, GrimesFordPages)
	for i := range rates {
		z := rng.NormFloat64()
		var labels []int32
		if types != nil {
			u := s*z + noise*types.NormFloat64()
			k, _ := slices.BinarySearch(bands, u)
			labels = []int32{int32(k)}
		}
		p := b.page(fmt.Sprintf("https://grimes-ford.example/page-%05d", i+1), site, labels...)
		rates[i] = 1 / GrimesFordPeriod(z)
		poissonCycles(rng, rates[i], GrimesFordDays, func(c int, t float64) { b.change(c, p, t) })
	}
	b.d.Truth.Rates = rates
	return b.finish()
}
