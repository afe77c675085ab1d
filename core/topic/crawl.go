package topic

import "slices"

// CrawlOrder returns the order in which Algorithm 2's crawler downloads
// the pages: breadth first from page 0, each page's out-links enqueued in
// the order listed, and, when the queue runs dry before every page is
// downloaded, on from the lowest-numbered page not yet reached, as a
// crawler given the whole repository as its seed list would.
func CrawlOrder(links [][]int32, n int) []int32 {
	order := make([]int32, 0, n)
	seen := make([]bool, n)
	next := 0
	for len(order) < n {
		for seen[next] {
			next++
		}
		seen[next] = true
		order = append(order, int32(next))
		for head := len(order) - 1; head < len(order); head++ {
			u := order[head]
			if int(u) >= len(links) {
				continue
			}
			for _, p := range links[u] {
				if !seen[p] {
					seen[p] = true
					order = append(order, p)
				}
			}
		}
	}
	return order
}

// CrawlRank categorises the pages at crawl time, as Algorithm 2 of
// Taleghani & Ugur-Ozekinci (§3.1.1) does: the crawler downloads the pages
// in CrawlOrder and, as it downloads page u, asks topic(u) for the topics u
// has a reputation on. It returns each page's keep highest ranks, as Rank
// does, so Ranking.Categories gives the categories ("if those topics
// already exist, we classify that page under those categories, otherwise,
// we create any nonexistent categories"; the printed algorithm's "end if"
// after "Classify u to t" would classify a page only under new topics,
// which the text contradicts).
//
// topic(u) is our reading of TOPIC at download time, when the crawler
// knows only the pages it has downloaded: one step of Algorithm 1 over
// them,
//
//	R(u,t) = (1−d)·Σ_{q→u} R(q,t)/O(q) + (d/N_t if t appears in u),
//
// where q runs over the pages crawled before u that link to u, at most
// opt.InLinks of them (the first found; Table 2's limit), R(q,t) are the
// ranks topic(q) gave q when it was downloaded (its keep highest; a crawler
// keeps a page's topics, not a rank for every term), O(q) counts all of q's
// out-links and N_t the pages crawled so far, u included, that contain t.
// Each page is ranked once, with no iteration to a fixed point: Rank's
// ranks are what the crawler could compute after the crawl, these are
// what it knows during it. Where Rank pulls reputation from every page
// linking to u, this pulls it only from pages crawled earlier, so the
// first pages of the crawl are known mostly by their own terms.
func CrawlRank(links, terms [][]int32, numTerms, keep int, opt Options) (*Ranking, error) {
	opt = opt.withDefaults()
	if err := validate(links, terms, numTerms, keep, opt); err != nil {
		return nil, err
	}
	n := len(terms)
	order := CrawlOrder(links, n)
	done := make([]bool, n)
	known := make([][]int32, n) // each page's in-links from pages crawled before it
	nt := make([]int, numTerms)
	acc := make([]float64, numTerms)
	var touched []int32
	top := newTopList(n, keep)
	for _, u := range order {
		for _, t := range terms[u] {
			nt[t]++
		}
		for _, q := range known[u] {
			o := float64(len(links[q]))
			ts, rs := top.get(q)
			for j, t := range ts {
				if acc[t] == 0 {
					touched = append(touched, t)
				}
				acc[t] += rs[j] / o
			}
		}
		for _, t := range touched {
			acc[t] *= 1 - opt.Damping
		}
		for _, t := range terms[u] {
			if acc[t] == 0 {
				touched = append(touched, t)
			}
			acc[t] += opt.Damping / float64(nt[t])
		}
		slices.Sort(touched)
		for i, t := range touched {
			if i > 0 && touched[i-1] == t {
				continue // a term listed twice in u
			}
			if acc[t] > 0 {
				top.offer(u, t, acc[t])
			}
			acc[t] = 0
		}
		touched = touched[:0]
		done[u] = true
		known[u] = nil
		if int(u) < len(links) {
			for _, p := range links[u] {
				if !done[p] && (opt.InLinks == 0 || len(known[p]) < opt.InLinks) {
					known[p] = append(known[p], u)
				}
			}
		}
	}
	r := &Ranking{Pages: n, Terms: numTerms, Keep: keep, Iterations: make([]int, numTerms)}
	r.start, r.term, r.rank = top.compact()
	return r, nil
}

// get returns page p's kept terms and ranks so far. The slices are shared.
func (l *topList) get(p int32) ([]int32, []float64) {
	base, c := int(p)*l.keep, int(l.count[p])
	return l.term[base : base+c], l.rank[base : base+c]
}
