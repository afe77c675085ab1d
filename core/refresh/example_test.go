package refresh_test

import (
	"fmt"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/refresh"
)

// downloads is a scripted policy: in cycle c it downloads the pages listed
// at c, printing what each download found.
type downloads [][]int32

func (s downloads) Refresh(c *refresh.Crawl) {
	for _, p := range s[c.Cycle()] {
		fmt.Printf("cycle %d: page %d changed: %v\n", c.Cycle(), p, c.Download(p))
	}
}

// A tiny scripted run: three pages, two cycles, one download per cycle.
// Pages 0 and 1 change in cycle 0 (at its middle, time 0.5, since no
// first-change times are given); page 2 changes in cycle 1.
func Example() {
	d := &dataset.Dataset{
		Repository: dataset.Repository{
			Sites: []string{"example.org"},
			Pages: []dataset.Page{{URL: "/a"}, {URL: "/b"}, {URL: "/c"}},
		},
		Truth: dataset.Truth{Changed: [][]int32{{0, 1}, {2}}},
	}
	if err := d.Finish(); err != nil {
		panic(err)
	}
	sim := refresh.NewSim(d)
	for c, cy := range sim.Run(downloads{{0}, {0}}, 1, 2, nil) {
		fmt.Printf("cycle %d: ChangeRatio %.2f, freshness %.2f, age %.2f\n", c, cy.ChangeRatio(), cy.Freshness, cy.Age)
	}
	// Output:
	// cycle 0: page 0 changed: true
	// cycle 1: page 0 changed: false
	// cycle 0: ChangeRatio 1.00, freshness 0.67, age 0.17
	// cycle 1: ChangeRatio 0.00, freshness 0.33, age 0.67
}
