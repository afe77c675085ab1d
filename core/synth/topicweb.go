package synth

import (
	"fmt"
	"slices"

	"github.com/refreshlab/refreshlab/core/dataset"
)

// TopicWebConfig are the parameters of the topic-web generator. Every
// relation between topics, sites, terms, links and changes in the dataset
// is one of these, built in on purpose (datasets/README.md lists them): the
// lab's lessons show what policies make of them, not that they exist.
type TopicWebConfig struct {
	Pages, Sites, Cycles int
	// Topics is the number of topics. Each page is about one topic, drawn
	// from its site's mix; a topic's popularity (its expected share of
	// pages) is drawn uniformly from [0.5, 1.5) and normalised.
	Topics int
	// TopicsPerSite is how many distinct topics a site covers, chosen by
	// popularity, with weights drawn uniformly from [0.2, 1.2).
	TopicsPerSite int

	// Change process, per cycle. Topic t has a mean change fraction
	// μ_t = RateMin + RateSpread·u², u uniform in [0, 1): a few hot topics,
	// many quiet ones. In cycle c its fraction is φ = μ_t·(1 − Swing +
	// 2·Swing·v), v uniform in [0, 1), capped at 0.95: the topic-level change
	// process that drives all its pages, on every site. A page changes in
	// the cycle with probability φ·ℓ_p, where its liveliness ℓ_p is drawn
	// once, uniformly from [LivelyMin, 1), or, independently of its topic,
	// with probability Background.
	RateMin, RateSpread, Swing, LivelyMin, Background float64

	// Terms. Each topic has OwnTerms terms of its own; SharedTerms more are
	// each shared by SharedTopics random topics. A page contains each term
	// of its topic with probability OwnP, each shared term of its topic
	// with probability SharedP, and, with probability StrayP, one term of a
	// random other topic.
	OwnTerms, SharedTerms, SharedTopics int
	OwnP, SharedP, StrayP               float64

	// Links. A page has no out-links with probability Dangling, else a
	// number drawn uniformly from [MinLinks, MaxLinks]; each goes to a
	// uniformly random other page of the same topic with probability
	// SameTopic, else of the same site with probability SameSite, else of
	// the whole repository.
	Dangling            float64
	MinLinks, MaxLinks  int
	SameTopic, SameSite float64
}

// TopicWebDefault is the bundled topic-web: 2,000 pages on 40 sites, 12
// topics, 20 weekly cycles.
var TopicWebDefault = TopicWebConfig{
	Pages: 2000, Sites: 40, Cycles: 20, Topics: 12, TopicsPerSite: 4,
	RateMin: 0.02, RateSpread: 0.6, Swing: 0.5, LivelyMin: 0.5, Background: 0.02,
	OwnTerms: 2, SharedTerms: 6, SharedTopics: 3, OwnP: 0.5, SharedP: 0.3, StrayP: 0.3,
	Dangling: 0.05, MinLinks: 3, MaxLinks: 12, SameTopic: 0.7, SameSite: 0.5,
}

// topicNames name the first topics and their own terms; further topics
// are numbered.
var topicNames = []struct{ topic, a, b string }{
	{"politics", "election", "parliament"}, {"sports", "football", "league"},
	{"finance", "stocks", "bank"}, {"science", "physics", "research"},
	{"health", "medicine", "clinic"}, {"travel", "hotel", "flight"},
	{"music", "concert", "album"}, {"film", "cinema", "actor"},
	{"games", "console", "esports"}, {"food", "recipe", "restaurant"},
	{"weather", "forecast", "storm"}, {"technology", "software", "gadget"},
}

var sharedNames = []string{"news", "review", "guide", "video", "blog", "events"}

// TopicWeb generates the bundled topic-web dataset (TopicWebDefault) from
// seed: the premise of Taleghani & Ugur-Ozekinci §2.1 built in, so that
// category sampling has something to find. Pages about one topic change
// together across sites, while each site mixes several topics, so a site's
// pages change together only as much as its topics do. The repository
// carries what TOPIC (Alg. 1) reads, a link graph and each page's terms,
// and, as labels, each page's true topic: the categories a perfect
// classifier would give.
func TopicWeb(seed uint64) *dataset.Dataset {
	return TopicWebWith(seed, TopicWebDefault)
}

// TopicWebWith generates a topic web with the given configuration; the
// Info's ID is "topic-web" only for TopicWebDefault.
func TopicWebWith(seed uint64, cfg TopicWebConfig) *dataset.Dataset {
	id := "topic-web"
	if cfg != TopicWebDefault {
		id = fmt.Sprintf("topic-web-%d", cfg.Pages)
	}
	b := newBuilder(dataset.Info{
		ID:     id,
		Name:   fmt.Sprintf("A web of topics across %d sites (synthetic)", cfg.Sites),
		Source: "synthetic",
		Cite:   "Built for Taleghani & Ugur-Ozekinci §2.1 and §3: related pages on different sites change together",
		Description: fmt.Sprintf("%s pages on %d sites, each site mixing %d of %d topics; all the pages of a topic change together, on every site, "+
			"with a topic-level change fraction that varies from week to week. Links mostly stay within a topic and pages contain their topic's terms, "+
			"so TOPIC can find the topics; the labels are the true topics. %d weekly cycles.", topicWebCommas(cfg.Pages), cfg.Sites, cfg.TopicsPerSite, cfg.Topics, cfg.Cycles),
		CycleLength: 7 * 86400,
		CycleUnit:   "week",
	}, cfg.Cycles, true)
	rng := newRand(seed, id)
	T := cfg.Topics

	// Topics: names, popularity, change rates.
	popularity := make([]float64, T)
	mu := make([]float64, T)
	for t := range T {
		popularity[t] = 0.5 + rng.Float64()
		u := rng.Float64()
		mu[t] = cfg.RateMin + cfg.RateSpread*u*u
		if t < len(topicNames) {
			b.d.Labels = append(b.d.Labels, topicNames[t].topic)
		} else {
			b.d.Labels = append(b.d.Labels, fmt.Sprintf("topic-%02d", t+1))
		}
	}

	// Terms: each topic's own, then the shared ones with their topics.
	own := make([][]int32, T)
	for t := range T {
		for j := range cfg.OwnTerms {
			name := fmt.Sprintf("%s-%d", b.d.Labels[t], j+1)
			if t < len(topicNames) && j < 2 {
				name = [2]string{topicNames[t].a, topicNames[t].b}[j]
			}
			own[t] = append(own[t], int32(len(b.d.TermNames)))
			b.d.TermNames = append(b.d.TermNames, name)
		}
	}
	shared := make([][]int32, T) // the shared terms of each topic
	for j := range cfg.SharedTerms {
		name := fmt.Sprintf("shared-%d", j+1)
		if j < len(sharedNames) {
			name = sharedNames[j]
		}
		term := int32(len(b.d.TermNames))
		b.d.TermNames = append(b.d.TermNames, name)
		for _, t := range rng.Perm(T)[:min(cfg.SharedTopics, T)] {
			shared[t] = append(shared[t], term)
		}
	}

	// Sites and pages: each site's topics by popularity, each page's topic
	// from its site's mix.
	topicOf := make([]int32, cfg.Pages)
	byTopic := make([][]int32, T)
	bySite := make([][]int32, cfg.Sites)
	per := cfg.Pages / cfg.Sites
	for s := range cfg.Sites {
		host := fmt.Sprintf("site-%02d.example", s+1)
		site := b.site(host)
		topics := topicWebPick(rng, popularity, min(cfg.TopicsPerSite, T))
		weights := make([]float64, len(topics))
		for i := range weights {
			weights[i] = 0.2 + rng.Float64()
		}
		n := per
		if s < cfg.Pages%cfg.Sites {
			n++
		}
		for i := range n {
			t := topics[topicWebDraw(rng, weights)]
			p := b.page(fmt.Sprintf("https://%s/%s/page-%03d.html", host, b.d.Labels[t], i+1), site, int32(t))
			topicOf[p] = int32(t)
			byTopic[t] = append(byTopic[t], p)
			bySite[s] = append(bySite[s], p)
		}
	}

	// Terms per page, ascending.
	b.d.Terms = make([][]int32, cfg.Pages)
	for p := range cfg.Pages {
		t := topicOf[p]
		var ts []int32
		for _, term := range own[t] {
			if rng.Float64() < cfg.OwnP {
				ts = append(ts, term)
			}
		}
		for _, term := range shared[t] {
			if rng.Float64() < cfg.SharedP {
				ts = append(ts, term)
			}
		}
		if T > 1 && rng.Float64() < cfg.StrayP {
			other := (int(t) + 1 + rng.IntN(T-1)) % T
			if len(own[other]) > 0 {
				ts = append(ts, own[other][rng.IntN(len(own[other]))])
			}
		}
		slices.Sort(ts)
		b.d.Terms[p] = slices.Compact(ts)
	}

	// Links.
	b.d.Links = make([][]int32, cfg.Pages)
	for p := range cfg.Pages {
		if rng.Float64() < cfg.Dangling {
			b.d.Links[p] = []int32{}
			continue
		}
		n := cfg.MinLinks + rng.IntN(cfg.MaxLinks-cfg.MinLinks+1)
		out := make([]int32, 0, n)
		for range n {
			pool := byTopic[topicOf[p]]
			if u := rng.Float64(); u >= cfg.SameTopic {
				pool = nil // the whole repository
				if rng.Float64() < cfg.SameSite {
					pool = bySite[b.d.Pages[p].Site]
				}
			}
			var q int32
			for {
				if pool == nil {
					q = int32(rng.IntN(cfg.Pages))
				} else {
					q = pool[rng.IntN(len(pool))]
				}
				if q != int32(p) || cfg.Pages == 1 {
					break
				}
			}
			out = append(out, q)
		}
		b.d.Links[p] = out
	}

	// Changes: per page, its liveliness; per cycle, each topic's fraction.
	lively := make([]float64, cfg.Pages)
	for p := range lively {
		lively[p] = cfg.LivelyMin + (1-cfg.LivelyMin)*rng.Float64()
	}
	phi := make([]float64, T)
	for c := range cfg.Cycles {
		for t := range T {
			phi[t] = min(0.95, mu[t]*(1-cfg.Swing+2*cfg.Swing*rng.Float64()))
		}
		for p := range cfg.Pages {
			pr := phi[topicOf[p]] * lively[p]
			topicDraw, backDraw, when := rng.Float64(), rng.Float64(), rng.Float64()
			if topicDraw < pr || backDraw < cfg.Background {
				b.change(c, int32(p), float64(c)+1-when) // in (c, c+1]
			}
		}
	}
	return b.finish()
}

// topicWebPick draws k distinct indexes of w, each draw in proportion to
// the weights not yet drawn.
func topicWebPick(rng interface{ Float64() float64 }, w []float64, k int) []int {
	left := append([]float64(nil), w...)
	out := make([]int, 0, k)
	for range k {
		i := topicWebDraw(rng, left)
		out = append(out, i)
		left[i] = 0
	}
	return out
}

// topicWebDraw draws an index of w in proportion to its weight.
func topicWebDraw(rng interface{ Float64() float64 }, w []float64) int {
	var total float64
	for _, x := range w {
		total += x
	}
	u := rng.Float64() * total
	last := 0
	for i, x := range w {
		if x <= 0 {
			continue
		}
		if u < x {
			return i
		}
		u -= x
		last = i
	}
	return last
}

// topicWebCommas formats n with commas.
func topicWebCommas(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
