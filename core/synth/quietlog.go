package synth

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"time"
)

// QuietLog is the shape of a real crawl log the project has seen: a daily
// crawl of 877 pages on 385 sites for 1,328 days (about 1.17 million
// rows), most pages quiet (752 of 877 changing less than once in two
// months), 1.3% of re-crawls finding a change.
var QuietLog = struct{ Pages, Sites, Days int }{877, 385, 1328}

// WriteQuietCrawlLog writes a crawl log of that shape in the upload format
// (header page,site,time,changed) from seed: pages crawled once a day for
// days days from 2022-01-01, each page's daily change probability
// log-normal, exp(−6.08 + 1.864·Z) capped at 1, which puts 86% of pages
// under one change in 60 days and the mean near 0.013, and each page on
// one of the sites, a few sites holding many pages. It returns the rows
// written and the number of sites holding a page.
func WriteQuietCrawlLog(w io.Writer, pages, sites, days int, seed uint64) (rows, used int, err error) {
	if pages < 1 || sites < 1 || days < 2 {
		return 0, 0, errors.New("WriteQuietCrawlLog: need a page, a site and two days")
	}
	rng := rand.New(rand.NewPCG(seed, 0x9E3779B97F4A7C15))
	q := make([]float64, pages)
	site := make([]int, pages)
	for p := range q {
		q[p] = min(1, math.Exp(-6.08+1.864*rng.NormFloat64()))
		// Zipf-like sites: page p goes to site ⌊sites·u²⌋, so low-numbered
		// sites hold many pages.
		u := rng.Float64()
		site[p] = min(sites-1, int(float64(sites)*u*u))
		if p < sites { // and every site holds at least one page
			site[p] = p
		}
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.WriteString("page,site,time,changed\n")
	start := time.Date(2022, 1, 1, 0, 30, 0, 0, time.UTC)
	for day := range days {
		ts := start.AddDate(0, 0, day).Format(time.RFC3339)
		for p := range pages {
			changed := 0
			if day > 0 && rng.Float64() < q[p] {
				changed = 1
			}
			fmt.Fprintf(bw, "https://site%d.example/page%d,site%d.example,%s,%d\n", site[p], p, site[p], ts, changed)
			rows++
		}
	}
	seen := map[int]bool{}
	for _, s := range site {
		seen[s] = true
	}
	return rows, len(seen), bw.Flush()
}
