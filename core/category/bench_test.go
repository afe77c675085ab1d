package category

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/sampling"
	"github.com/refreshlab/refreshlab/core/synth"
)

// big100k is a 100,000-page topic web on 2,000 sites with 12 topics as
// labels, 12 cycles: the lab's whole-paper scale for a labelled repository.
var big100k = sync.OnceValue(func() *dataset.Dataset {
	cfg := synth.TopicWebDefault
	cfg.Pages, cfg.Sites, cfg.Cycles = 100_000, 2_000, 12
	return synth.TopicWebWith(20260101, cfg)
})

var topicWeb = sync.OnceValue(func() *dataset.Dataset { return synth.TopicWeb(20260101) })

// benchPolicy runs a whole run of the policy (every cycle of d, a tenth
// of the pages per cycle) per iteration, reusing the policy as the lab's
// runner does, and reports ns per page-cycle. Categories (TOPIC's ranks
// included) are built once, before the timer, through a memo: TOPIC's own
// cost is BenchmarkRank's in core/topic.
func benchPolicy(b *testing.B, d *dataset.Dataset, alloc sampling.Allocation, params param.Values) {
	budget := len(d.Pages) / 10
	memo := newMemo()
	mk := func(seed uint64) refresh.Env {
		e := env(d, budget, seed, params)
		e.Memo = memo
		return e
	}
	p, err := New(mk(0), alloc)
	if err != nil {
		b.Fatal(err)
	}
	sim := refresh.NewSim(d)
	var out []refresh.Cycle
	cycles := d.Truth.Cycles()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sim.Reset()
		p.Reuse(refresh.Env{Repo: &d.Repository, Budget: budget, Rand: rand.New(rand.NewPCG(uint64(i), 1))})
		out = sim.Run(p, budget, cycles, out[:0])
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(d.Pages)*cycles), "ns/page-cycle")
}

func BenchmarkGreedyTopicWebLabels(b *testing.B) {
	benchPolicy(b, topicWeb(), sampling.Greedy, param.Values{})
}

func BenchmarkProportionalTopicWebLabels(b *testing.B) {
	benchPolicy(b, topicWeb(), sampling.Proportional, param.Values{})
}

func BenchmarkGreedyTopicWebTopic6(b *testing.B) {
	benchPolicy(b, topicWeb(), sampling.Greedy, param.Values{"categories": FromTopic, "topK": 6.0})
}

func BenchmarkProportionalTopicWebTopic6(b *testing.B) {
	benchPolicy(b, topicWeb(), sampling.Proportional, param.Values{"categories": FromTopic, "topK": 6.0})
}

func BenchmarkGreedy100kLabels(b *testing.B) {
	benchPolicy(b, big100k(), sampling.Greedy, param.Values{})
}

func BenchmarkProportional100kLabels(b *testing.B) {
	benchPolicy(b, big100k(), sampling.Proportional, param.Values{})
}

func BenchmarkGreedy100kTopic6(b *testing.B) {
	benchPolicy(b, big100k(), sampling.Greedy, param.Values{"categories": FromTopic, "topK": 6.0})
}

// The parameters of §4.1's eq. 7 and §7.1.1's history, which do work in
// every cycle, on the true topics and on crawl-time TOPIC categories.
func BenchmarkGreedyTopicWebEq7History(b *testing.B) {
	benchPolicy(b, topicWeb(), sampling.Greedy, param.Values{"sampleRule": sampling.RuleEq7, "history": 0.5})
}

func BenchmarkProportionalTopicWebEq7History(b *testing.B) {
	benchPolicy(b, topicWeb(), sampling.Proportional, param.Values{"sampleRule": sampling.RuleEq7, "history": 0.5})
}

func BenchmarkGreedyTopicWebCrawl1History(b *testing.B) {
	benchPolicy(b, topicWeb(), sampling.Greedy, param.Values{"categories": FromCrawl, "topK": 1.0, "history": 0.5})
}

func BenchmarkGreedy100kEq7History(b *testing.B) {
	benchPolicy(b, big100k(), sampling.Greedy, param.Values{"sampleRule": sampling.RuleEq7, "history": 0.5})
}
