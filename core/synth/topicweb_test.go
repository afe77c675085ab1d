package synth

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"reflect"
	"testing"
)

// TestTopicWebShape checks the bundled topic web: well formed, the
// configured sizes, each page labelled with exactly one topic, each site
// covering at most TopicsPerSite topics, links and terms present, and the
// same dataset for the same seed.
func TestTopicWebShape(t *testing.T) {
	cfg := TopicWebDefault
	d := TopicWeb(7)
	checkWellFormed(t, d)
	if d.Info.ID != "topic-web" || len(d.Pages) != cfg.Pages || len(d.Sites) != cfg.Sites || len(d.Labels) != cfg.Topics || d.Truth.Cycles() != cfg.Cycles {
		t.Fatalf("info %+v", d.Info)
	}
	if want := cfg.Topics*cfg.OwnTerms + cfg.SharedTerms; len(d.TermNames) != want {
		t.Errorf("%d terms, want %d", len(d.TermNames), want)
	}
	topics := make([]map[int32]bool, len(d.Sites))
	for i, p := range d.Pages {
		if len(p.Labels) != 1 {
			t.Fatalf("page %d has labels %v, want its one topic", i, p.Labels)
		}
		if topics[p.Site] == nil {
			topics[p.Site] = map[int32]bool{}
		}
		topics[p.Site][p.Labels[0]] = true
	}
	for s, ts := range topics {
		if len(ts) > cfg.TopicsPerSite || len(ts) < 2 {
			t.Errorf("site %d covers %d topics, want 2 to %d", s, len(ts), cfg.TopicsPerSite)
		}
	}
	if d.Links == nil || d.Terms == nil || d.Truth.First == nil {
		t.Fatal("links, terms and first-change times are part of the dataset")
	}
	if !reflect.DeepEqual(d, TopicWeb(7)) {
		t.Error("the same seed gave another dataset")
	}
	if reflect.DeepEqual(d.Truth, TopicWeb(8).Truth) {
		t.Error("another seed gave the same changes")
	}
	big := cfg
	big.Pages, big.Sites = 5000, 100
	if b := TopicWebWith(1, big); b.Info.ID != "topic-web-5000" || len(b.Pages) != 5000 {
		t.Errorf("a scaled topic web: %s, %d pages", b.Info.ID, len(b.Pages))
	}
}

// groupSpread returns, averaged over the cycles of d, the variance across
// groups of the share of each group's pages that changed in the cycle,
// each group weighted by its pages.
func groupSpread(changed [][]bool, group []int32, groups int) float64 {
	var total float64
	size := make([]float64, groups)
	for _, g := range group {
		size[g]++
	}
	for _, ch := range changed {
		frac := make([]float64, groups)
		for p, g := range group {
			if ch[p] {
				frac[g]++
			}
		}
		var mean, n float64
		for g := range frac {
			if size[g] > 0 {
				frac[g] /= size[g]
				mean += frac[g] * size[g]
				n += size[g]
			}
		}
		mean /= n
		var v float64
		for g := range frac {
			v += size[g] * (frac[g] - mean) * (frac[g] - mean)
		}
		total += v / n
	}
	return total / float64(len(changed))
}

// TestTopicWebBuiltInRelations checks, over many seeds, the relations the
// generator builds in (datasets/README.md), each as a mean over seeds with
// a tolerance of 4 standard errors (false failure ≈ 6e-5 per check):
//
//   - pages of one topic change together more than pages of one site: the
//     spread of per-cycle change shares across topics exceeds the spread
//     across sites;
//   - links stay within their topic at least SameTopic of the time;
//   - a page contains each of its topic's own terms with probability OwnP;
//   - a page changes in a cycle with the probability the model gives,
//     averaged over topics: E[φ·ℓ] and the background.
func TestTopicWebBuiltInRelations(t *testing.T) {
	cfg := TopicWebDefault
	const seeds = 30
	var spreadGap, inTopic, ownShare []float64
	for seed := range uint64(seeds) {
		d := TopicWeb(seed + 100)
		topic := make([]int32, len(d.Pages))
		site := make([]int32, len(d.Pages))
		for p, pg := range d.Pages {
			topic[p], site[p] = pg.Labels[0], pg.Site
		}
		changed := make([][]bool, d.Truth.Cycles())
		for c := range changed {
			changed[c] = changedSet(d, c)
		}
		spreadGap = append(spreadGap, groupSpread(changed, topic, len(d.Labels))-groupSpread(changed, site, len(d.Sites)))

		same, links := 0, 0
		for q, out := range d.Links {
			for _, p := range out {
				links++
				if topic[p] == topic[q] {
					same++
				}
			}
		}
		inTopic = append(inTopic, float64(same)/float64(links))

		// Own terms: topic t's are terms t·OwnTerms … (t+1)·OwnTerms−1.
		has, slots := 0, 0
		for p, ts := range d.Terms {
			lo := topic[p] * int32(cfg.OwnTerms)
			for _, x := range ts {
				if x >= lo && x < lo+int32(cfg.OwnTerms) {
					has++
				}
			}
			slots += cfg.OwnTerms
		}
		ownShare = append(ownShare, float64(has)/float64(slots))
	}
	mean := func(xs []float64) (m, se float64) {
		for _, x := range xs {
			m += x
		}
		m /= float64(len(xs))
		for _, x := range xs {
			se += (x - m) * (x - m)
		}
		return m, math.Sqrt(se / float64(len(xs)-1) / float64(len(xs)))
	}
	if m, se := mean(spreadGap); m <= 4*se {
		t.Errorf("topics do not change together more than sites: spread gap %.5f ± %.5f", m, se)
	} else {
		t.Logf("variance of change shares, topics minus sites: %.5f ± %.5f", m, se)
	}
	if m, se := mean(inTopic); m < cfg.SameTopic-4*se {
		t.Errorf("links within the topic: %.3f ± %.3f, want at least %.2f", m, se, cfg.SameTopic)
	} else {
		t.Logf("links within the topic: %.3f ± %.3f", m, se)
	}
	// Own terms: Binomial(OwnP) per slot, so the share's SE over all slots
	// of all seeds is √(p(1−p)/(seeds·pages·OwnTerms)).
	m, _ := mean(ownShare)
	if se := math.Sqrt(cfg.OwnP * (1 - cfg.OwnP) / float64(seeds*cfg.Pages*cfg.OwnTerms)); math.Abs(m-cfg.OwnP) > 4*se {
		t.Errorf("pages contain their own terms at %.4f, want %.2f ± %.4f", m, cfg.OwnP, 4*se)
	}
}

// TestTopicWebChangeRate checks the change model against its expectation:
// a page of topic t changes in a cycle with probability
// 1 − (1 − φ·ℓ)(1 − Background), with φ = μ_t·(1 − Swing + 2·Swing·v)
// (before the 0.95 cap, which the default rates never reach: μ ≤ 0.62,
// φ ≤ 0.93) and ℓ uniform in [LivelyMin, 1). Averaged over v and ℓ, that is
// 1 − (1 − μ_t·(1+LivelyMin)/2)(1 − Background), and with E[μ_t] =
// RateMin + RateSpread/3 (u uniform, E[u²] = 1/3) the expected change rate
// of a page-cycle is 1 − (1 − E[μ]·(1+LivelyMin)/2)(1 − Background). Over
// 30 seeds the realised rate must match it within 4 standard errors, where
// the error is dominated by the draws of the topics' rates (see below).
func TestTopicWebChangeRate(t *testing.T) {
	cfg := TopicWebDefault
	var got, want, n float64
	for seed := range uint64(30) {
		d := TopicWeb(seed + 500)
		for _, ch := range d.Truth.Changed {
			got += float64(len(ch))
		}
		n += float64(len(d.Pages) * d.Truth.Cycles())
	}
	mu := cfg.RateMin + cfg.RateSpread/3
	want = 1 - (1-mu*(1+cfg.LivelyMin)/2)*(1-cfg.Background)
	rate := got / n
	// The topics' rates vary from seed to seed (12 draws of μ per seed) and
	// dominate the error: Var(μ) = RateSpread²·Var(u²) = RateSpread²·(1/5 −
	// 1/9), over 30·12 topics, inflated by √(1 + 1/12) because topics
	// weigh by their popularity (uniform in [0.5, 1.5): E[w²]/E[w]² = 13/12);
	// the page and cycle draws add a binomial part, far smaller.
	se := cfg.RateSpread * math.Sqrt(1.0/5-1.0/9) / math.Sqrt(30*float64(cfg.Topics)) * math.Sqrt(13.0/12) * (1 + cfg.LivelyMin) / 2
	if math.Abs(rate-want) > 4*se {
		t.Errorf("change rate %.4f, model %.4f ± %.4f (4 SE)", rate, want, 4*se)
	}
	t.Logf("change rate %.4f, model %.4f (SE %.4f)", rate, want, se)
}

// topicWebDigest is FNV-1a over everything TopicWeb(seed)
// generates that a policy or the simulator reads.
func topicWebDigest(seed uint64) uint64 {
	d := TopicWeb(seed)
	h := fnv.New64a()
	w := func(v any) { binary.Write(h, binary.LittleEndian, v) }
	for _, p := range d.Pages {
		h.Write([]byte(p.URL))
		w(p.Site)
		w(p.Labels)
	}
	for p := range d.Pages {
		w(int32(len(d.Links[p])))
		w(d.Links[p])
		w(int32(len(d.Terms[p])))
		w(d.Terms[p])
	}
	for c := range d.Truth.Changed {
		w(d.Truth.Changed[c])
		w(d.Truth.First[c])
	}
	return h.Sum64()
}

// TestTopicWebPinned pins the bundled topic web (seed 20260101) bit for bit,
// first-change times included: the generator uses only arithmetic on
// math/rand/v2's draws, so it must be the same natively and in
// WebAssembly. If the generator changes on purpose, update the digest.
func TestTopicWebPinned(t *testing.T) {
	const want = 0x19aa18e8a2942a3f
	if got := topicWebDigest(20260101); got != want {
		t.Errorf("topic-web digest %#x, pinned %#x", got, uint64(want))
	}
}
