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

// RIR on one page that changes in cycles 0 and 1 and in cycle 3, crawled
// at the end of cycles 1 and 3: cycle 0's change is lost (the page changed
// again before the crawler came), cycle 1's and cycle 3's are returned.
// ChangeRatio divides the two changes caught by the two downloads; RIR by
// the three changes that happened.
func ExampleCycle_RIR() {
	d := &dataset.Dataset{
		Repository: dataset.Repository{Sites: []string{"example.org"}, Pages: []dataset.Page{{URL: "/a"}}},
		Truth:      dataset.Truth{Changed: [][]int32{{0}, {0}, {}, {0}}},
	}
	if err := d.Finish(); err != nil {
		panic(err)
	}
	cycles := refresh.NewSim(d).Run(downloads{{}, {0}, {}, {0}}, 1, 4, nil)
	for c, cy := range cycles {
		fmt.Printf("cycle %d: changes %.0f, returned %.0f\n", c, cy.Changes, cy.Returned)
	}
	var changed, downloads int
	for _, cy := range cycles {
		changed += cy.Changed
		downloads += cy.Downloads
	}
	fmt.Printf("ChangeRatio %d/%d, RIR %.2f\n", changed, downloads, refresh.RunRIR(cycles))
	// Output:
	// cycle 1: page 0 changed: true
	// cycle 3: page 0 changed: true
	// cycle 0: changes 1, returned 0
	// cycle 1: changes 1, returned 1
	// cycle 2: changes 0, returned 0
	// cycle 3: changes 1, returned 1
	// ChangeRatio 2/2, RIR 0.67
}
