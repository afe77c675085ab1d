package schedule_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/refreshlab/refreshlab/core/schedule"
)

// Cho & Garcia-Molina's reference case: five pages changing 1 to 5 times a
// day, 5 syncs a day. The optimal allocation gives up the fastest page.
func ExampleChoFreshness() {
	rates := []float64{1, 2, 3, 4, 5}
	plan, err := schedule.ChoFreshness{}.Allocate(schedule.Input{Rates: rates, Oracle: true, Budget: 5}, nil)
	if err != nil {
		panic(err)
	}
	mean, _, _ := schedule.Expect(rates, nil, plan)
	fmt.Printf("syncs per day %.2f, spacing %v\n", plan.Rates, plan.Spacing)
	fmt.Printf("mean freshness %.3f\n", mean.Freshness)
	// Output:
	// syncs per day [1.15 1.36 1.35 1.14 0.00], spacing regular
	// mean freshness 0.374
}

// Uniform beats proportional on freshness and on age: the formulas, and
// the simulator reproducing them with its 95% interval.
func ExampleSimulate() {
	rates := []float64{1, 2, 3, 4, 5}
	cfg := schedule.Config{Rates: rates, Days: schedule.DefaultDays, Warmup: schedule.DefaultWarmup, Repeats: schedule.DefaultRepeats, Seed: 1}
	for _, p := range []schedule.Policy{schedule.Uniform{}, schedule.Proportional{}} {
		plan, _ := p.Allocate(schedule.Input{Rates: rates, Oracle: true, Budget: 5}, nil)
		want, _, _ := schedule.Expect(rates, nil, plan)
		res, _ := schedule.Simulate(cfg, plan)
		f, a := res.Mean.Freshness, res.Mean.Age
		fmt.Printf("%-26T freshness %.3f (simulated %.2f ± %.3f)  age %.3f (simulated %.2f ± %.3f)\n",
			p, want.Freshness, f.Mean, (f.Hi-f.Lo)/2, want.Age, a.Mean, (a.Hi-a.Lo)/2)
	}
	// Output:
	// schedule.Uniform           freshness 0.365 (simulated 0.36 ± 0.001)  age 0.254 (simulated 0.25 ± 0.001)
	// schedule.Proportional      freshness 0.317 (simulated 0.32 ± 0.001)  age 0.373 (simulated 0.37 ± 0.002)
}

// Azar et al.'s request-weighted crawl rates: the page that changes ten
// times a day but is rarely requested gets no crawls.
func ExampleAzar() {
	in := schedule.Input{Rates: []float64{1, 1, 10}, Weights: []float64{4, 1, 0.5}, Budget: 2}
	plan, _ := schedule.Azar{}.Allocate(in, nil)
	_, weighted, _ := schedule.Expect(in.Rates, in.Weights, plan)
	fmt.Printf("crawls per day %.3f (%v), requests finding a fresh copy %.3f\n", plan.Rates, plan.Spacing, weighted.Freshness)
	// Output:
	// crawls per day [1.667 0.333 0.000] (poisson), requests finding a fresh copy 0.500
}

// An adaptive rule has no budget: run it, read what it spends, and give
// the allocation policies the same budget to compare them fairly. Nutch
// ends up close to proportional, and its uneven intervals cost it more.
func ExampleNutch() {
	rates := []float64{1, 2, 3, 4, 5}
	cfg := schedule.Config{Rates: rates, Days: 2000, Warmup: schedule.DefaultWarmup, Repeats: 20, Seed: 1}
	res, _ := schedule.Simulate(cfg, schedule.NewAdaptive(schedule.NutchDefault, len(rates)))
	spend := res.Mean.SyncsPerDay.Mean
	fmt.Printf("nutch-default: %.1f syncs per day, %.2f of them find a change, freshness %.2f\n",
		spend, res.Mean.ChangeRatio.Mean, res.Mean.Freshness.Mean)
	for _, p := range []schedule.Policy{schedule.Proportional{}, schedule.Uniform{}, schedule.ChoFreshness{}} {
		plan, _ := p.Allocate(schedule.Input{Rates: rates, Oracle: true, Budget: spend}, nil)
		want, _, _ := schedule.Expect(rates, nil, plan)
		fmt.Printf("%-23T at the same budget: freshness %.2f\n", p, want.Freshness)
	}
	// Output:
	// nutch-default: 13.4 syncs per day, 0.63 of them find a change, freshness 0.56
	// schedule.Proportional   at the same budget: freshness 0.60
	// schedule.Uniform        at the same budget: freshness 0.62
	// schedule.ChoFreshness   at the same budget: freshness 0.63
}

// A Plan is also a Syncer: the times it syncs each page, which a batch
// simulator can bin into cycles to turn a schedule into each cycle's
// downloads.
func ExamplePlan() {
	plan, _ := schedule.Proportional{}.Allocate(schedule.Input{Rates: []float64{1, 3}, Budget: 4}, nil)
	rng := rand.New(rand.NewPCG(1, 2))
	for page := range plan.Rates {
		var days []int
		for t := plan.First(page, rng); t < 3; t = plan.Next(page, t, false, rng) {
			days = append(days, int(t)) // the 1-day cycle of this sync
		}
		fmt.Printf("page %d: syncs in cycles %v\n", page, days)
	}
	// Output:
	// page 0: syncs in cycles [0 1 2]
	// page 1: syncs in cycles [0 0 0 1 1 1 2 2 2]
}
