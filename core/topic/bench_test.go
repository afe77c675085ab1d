package topic

import (
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/synth"
)

// benchRank times TOPIC's ranks (Algorithm 1 for every term, top 20 kept)
// on d, reporting ns per page·term and the iterations per term.
func benchRank(b *testing.B, d *dataset.Dataset) {
	b.ReportAllocs()
	b.ResetTimer()
	var r *Ranking
	for i := 0; i < b.N; i++ {
		var err error
		if r, err = Rank(d.Links, d.Terms, len(d.TermNames), 20, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	it := 0
	for _, n := range r.Iterations {
		it += n
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(d.Pages)*len(d.TermNames)), "ns/page-term")
	b.ReportMetric(float64(it)/float64(len(r.Iterations)), "iterations/term")
}

// BenchmarkRankTopicWeb: the bundled topic web, 2,000 pages × 30 terms.
func BenchmarkRankTopicWeb(b *testing.B) { benchRank(b, synth.TopicWeb(20260101)) }

// BenchmarkRank100k: a 100,000-page topic web (2,000 sites, 12 topics,
// 30 terms, about 750,000 links).
func BenchmarkRank100k(b *testing.B) {
	cfg := synth.TopicWebDefault
	cfg.Pages, cfg.Sites, cfg.Cycles = 100_000, 2_000, 1
	benchRank(b, synth.TopicWebWith(20260101, cfg))
}

// benchCrawlRank times Algorithm 2's crawl-time ranks on d, ns per page.
func benchCrawlRank(b *testing.B, d *dataset.Dataset, inLinks int) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CrawlRank(d.Links, d.Terms, len(d.TermNames), 20, Options{InLinks: inLinks}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(d.Pages)), "ns/page")
}

func BenchmarkCrawlRankTopicWeb(b *testing.B) { benchCrawlRank(b, synth.TopicWeb(20260101), 0) }

func BenchmarkCrawlRank100kInLinks10(b *testing.B) {
	cfg := synth.TopicWebDefault
	cfg.Pages, cfg.Sites, cfg.Cycles = 100_000, 2_000, 1
	benchCrawlRank(b, synth.TopicWebWith(20260101, cfg), 10)
}
