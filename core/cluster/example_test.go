package cluster_test

import (
	"fmt"
	"slices"

	"github.com/refreshlab/refreshlab/core/cluster"
	"github.com/refreshlab/refreshlab/core/stat"
	"github.com/refreshlab/refreshlab/core/textvec"
)

// Repeated bisection of eight URLs by their words (tf·idf), into three
// clusters, and the criterion τ of eq. 2 as clusters are added.
func ExampleBisect() {
	urls := []string{
		"https://news.example.com/world/today.html", "https://news.example.com/world/election.html",
		"https://news.example.com/sport/today.html", "https://news.example.com/sport/final.html",
		"https://www.example.edu/people/smith.html", "https://www.example.edu/people/jones.html",
		"https://www.example.edu/docs/syllabus.pdf", "https://www.example.edu/docs/thesis.pdf",
	}
	s := cluster.NewSparse(textvec.FromURLs(urls, 0), nil)
	t := cluster.Bisect(s, nil, cluster.Options{K: 3, Seed: 1})
	for k := 1; k <= t.K(); k++ {
		fmt.Printf("τ(%d) = %.2f\n", k, t.Tau(k))
	}
	for _, leaf := range t.Leaves(3) {
		m := slices.Clone(t.Members(leaf))
		slices.Sort(m)
		fmt.Println(m)
	}
	// Output:
	// τ(1) = 3.90
	// τ(2) = 5.47
	// τ(3) = 6.29
	// [0 1 2 3]
	// [4 5]
	// [6 7]
}

// The two-sided t critical value behind the "sufficient sample" rule of
// §4.1, and how many pages a sample with standard deviation 0.3 needs to
// pin its mean within ±0.1 at 80% confidence.
func ExampleSufficient() {
	fmt.Printf("t(0.8, 9) = %.4f\n", stat.TQuantile((1+0.8)/2, 9))
	for m := 2; ; m++ {
		if cluster.Sufficient(m, 0.3*0.3, 0.8, 0.1, nil) {
			fmt.Println("sufficient at", m, "pages")
			break
		}
	}
	// Output:
	// t(0.8, 9) = 1.3830
	// sufficient at 17 pages
}
