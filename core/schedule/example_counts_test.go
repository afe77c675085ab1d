package schedule_test

import (
	"fmt"

	"github.com/refreshlab/refreshlab/core/schedule"
)

// Counts plans for classes of identical pages: here 1,000 pages changing
// once a day and 9,000 changing once every 100 days, sharing 2,000 syncs a
// day. Each page of a class gets the printed rate; the budget is Σ c_i f_i.
func ExampleInput_counts() {
	in := schedule.Input{Rates: []float64{1, 0.01}, Counts: []float64{1000, 9000}, Budget: 2000}
	p, err := schedule.ChoFreshness{}.Allocate(in, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("fast pages %.4f, slow pages %.4f syncs a day; spent %.0f\n", p.Rates[0], p.Rates[1], 1000*p.Rates[0]+9000*p.Rates[1])
	// Output: fast pages 0.8881, slow pages 0.1235 syncs a day; spent 2000
}
