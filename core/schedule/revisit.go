package schedule

import (
	"fmt"

	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
)

// Revisiter plays a production crawler's adaptive re-visit Rule (Nutch,
// Heritrix, StormCrawler) in batch refresh cycles: every copy is fresh at
// time 0, fetched for the first time; each cycle it downloads the budget's
// worth of pages the crawler's fetch list lists soonest, overdue ones
// first, and the rule sets each one's next visit from whether the download
// found a change (with what the crawler does around the rule: Nutch's
// forced re-fetch). It needs no rates, as the rules need none.
//
// Our readings, where the rules meet a budget they were not written for: a
// cycle's downloads happen at its end, time (c+1)·d for cycle c of d days
// (the convention of Refresher), and the crawler makes that cycle's fetch
// list at the same time, listing each page when Rule.Listed says (Nutch
// pulls a next visit more than db.fetch.interval.max ahead back to then,
// for that list only); a listed page that does not fit the budget stays
// due and goes first next cycle; and a budget the due pages leave over is
// spent on the pages listed soonest, fetching them early, because in a
// refresh experiment every policy spends the same budget and the rule's
// part is to order the pages. Ties (at the start, every page) go by a
// random order drawn per run, the policy's only randomness. In a schedule
// experiment the rules run unbudgeted, as written.
type Revisiter struct {
	rule  Rule
	days  float64     // length of a cycle in days
	state []PageState // each page's rule state
	queue []slot      // every page, the next cycle's downloads first
}

// slot is a page in the Revisiter's queue, with what orders it there, so
// that selecting the pages listed soonest reads the queue in order rather
// than each page's entry in arrays across the repository.
type slot struct {
	due    float64 // the page's next visit as the rule set it, days
	listed float64 // when this cycle's fetch list lists it, days
	rank   int32   // its place in a random order of the pages, for ties
	page   int32
}

// NewRevisiter returns a Revisiter playing rule on env's repository.
func NewRevisiter(env refresh.Env, rule Rule) *Revisiter {
	r := &Revisiter{rule: rule}
	r.Reuse(env)
	return r
}

// Reuse implements refresh.Reuser: every page fetched at time 0.
func (r *Revisiter) Reuse(env refresh.Env) {
	n := len(env.Repo.Pages)
	r.days = env.CycleDays
	if r.days <= 0 {
		r.days = 1 // a dataset without a cycle length: a day, the papers' cadence
	}
	if cap(r.state) < n {
		r.state, r.queue = make([]PageState, n), make([]slot, n)
	}
	r.state, r.queue = r.state[:n], r.queue[:n]
	start, due := r.rule.Start()
	for i := range r.state {
		r.state[i] = start
		r.queue[i] = slot{due: due, rank: int32(i), page: int32(i)}
	}
	if env.Rand != nil {
		q := r.queue
		env.Rand.Shuffle(n, func(a, b int) { q[a].rank, q[b].rank = q[b].rank, q[a].rank })
	}
}

// before orders pages by when the fetch list lists them, ties by the
// run's random order.
func before(a, b *slot) bool {
	if a.listed != b.listed {
		return a.listed < b.listed
	}
	return a.rank < b.rank
}

// Refresh implements refresh.Policy.
func (r *Revisiter) Refresh(c *refresh.Crawl) {
	now := float64(c.Cycle()+1) * r.days
	for i := range r.queue {
		s := &r.queue[i]
		s.listed = r.rule.Listed(s.due, now)
	}
	k := min(c.Remaining(), len(r.queue))
	r.selectFirst(k)
	for i := range r.queue[:k] {
		s := &r.queue[i]
		changed := c.Download(s.page)
		s.due = r.rule.Next(&r.state[s.page], now, changed)
	}
}

// selectFirst moves the k pages listed soonest to the front of r.queue, in
// no particular order (Hoare's quickselect with the middle element as
// pivot: linear on average, and the queue, kept between cycles, is nearly
// in order already, where the middle pivot does well).
func (r *Revisiter) selectFirst(k int) {
	q := r.queue
	lo, hi := 0, len(q)-1
	for lo < hi && k > 0 && k < len(q) {
		pivot := q[lo+(hi-lo)/2]
		i, j := lo, hi
		for i <= j {
			for before(&q[i], &pivot) {
				i++
			}
			for before(&pivot, &q[j]) {
				j--
			}
			if i <= j {
				q[i], q[j] = q[j], q[i]
				i++
				j--
			}
		}
		switch {
		case k-1 <= j:
			hi = j
		case k-1 >= i:
			lo = i
		default:
			return
		}
	}
}

// ruleIDs are the adaptive rules a Revisiter can play, as Descriptors
// names them.
func ruleIDs() []string {
	ids, _ := schedulesOf(TypeAdaptive)
	return ids
}

// ruleOf builds the rule named by v's "rule" with its shipped defaults.
func ruleOf(v param.Values) (Rule, error) {
	id := v.String("rule", "nutch-adaptive")
	for _, d := range Descriptors() {
		if d.ID == id && d.Type == TypeAdaptive {
			vals, err := param.Check(d.Params, nil)
			if err != nil {
				return nil, err
			}
			return d.NewRule(vals)
		}
	}
	return nil, fmt.Errorf("unknown re-visit rule %q", id)
}

// revisitDescriptor is the refresh policy that plays the crawlers' rules.
func revisitDescriptor() refresh.Descriptor {
	rules, names := schedulesOf(TypeAdaptive)
	return refresh.Descriptor{
		ID: "revisit-rule", Name: "Crawler re-visit rule",
		Cost:    45,
		Paper:   "Apache Nutch AdaptiveFetchSchedule; Heritrix 1.x WaitEvaluator; StormCrawler AdaptiveScheduler (shipped defaults)",
		Summary: "Each page's next visit set by a production crawler's adaptive rule from whether the last visit found a change; each cycle the pages due soonest are downloaded, up to the budget. Knows no rates.",
		Params: []param.Param{{
			Name: "rule", Label: "Crawler's rule", Type: param.Enum, Default: "nutch-adaptive", Options: rules, OptionLabels: names,
			Help: "Which crawler's rule, with its shipped defaults: each shortens the interval after a visit that found a change and lengthens it after one that did not (Nutch by its inc/dec rates, Heritrix 1.x by a factor of 1.5, StormCrawler towards its minimum or by half again), within its minimum and maximum.",
		}},
		New: func(env refresh.Env) (refresh.Policy, error) {
			rule, err := ruleOf(env.Params)
			if err != nil {
				return nil, err
			}
			return NewRevisiter(env, rule), nil
		},
	}
}
