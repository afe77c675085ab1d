package topic

import (
	"math"
	"reflect"
	"testing"

	"github.com/refreshlab/refreshlab/core/synth"
)

func TestCrawlOrder(t *testing.T) {
	tests := []struct {
		name  string
		links [][]int32
		n     int
		want  []int32
	}{
		{"breadth first", [][]int32{{2, 1}, {3}, {3, 0}, {}}, 4, []int32{0, 2, 1, 3}},
		{"a second seed", [][]int32{{1}, {0}, {3}, {}}, 4, []int32{0, 1, 2, 3}},
		{"reached late", [][]int32{{}, {0, 2}, {}}, 3, []int32{0, 1, 2}},
		{"no links", nil, 3, []int32{0, 1, 2}},
		{"deep", [][]int32{{1}, {2}, {3}, {}}, 4, []int32{0, 1, 2, 3}},
	}
	for _, tt := range tests {
		if got := CrawlOrder(tt.links, tt.n); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: order %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestCrawlRank follows topic(u) by hand on three pages, crawled 0, 1, 2:
// page 0 holds term 0 and links to 1 and 2, page 1 holds term 1 and links
// to 2, page 2 holds no term. With d = 0.5:
//
//	R(0,·) = (0.5/1 on term 0)                       → {0: 0.5}
//	R(1,·) = 0.5·(0.5/2 on term 0) + (0.5/1 on term 1) → {1: 0.5, 0: 0.125}
//	R(2,·) = 0.5·(0.5/2 + 0.125/1 on term 0, 0.5/1 on term 1)
//	                                                   → {0: 0.1875, 1: 0.25}
//
// With one in-link per page, page 2 hears only from page 0: {0: 0.125}.
// Page 0 is crawled first, so nothing reaches it from page 2's link back.
func TestCrawlRank(t *testing.T) {
	links := [][]int32{{1, 2}, {2}, {0}}
	terms := [][]int32{{0}, {1}, {}}
	type tr struct {
		terms []int32
		ranks []float64
	}
	tests := []struct {
		inLinks int
		want    []tr
	}{
		{0, []tr{{[]int32{0}, []float64{0.5}}, {[]int32{1, 0}, []float64{0.5, 0.125}}, {[]int32{1, 0}, []float64{0.25, 0.1875}}}},
		{1, []tr{{[]int32{0}, []float64{0.5}}, {[]int32{1, 0}, []float64{0.5, 0.125}}, {[]int32{0}, []float64{0.125}}}},
	}
	for _, tt := range tests {
		r, err := CrawlRank(links, terms, 2, 5, Options{Damping: 0.5, InLinks: tt.inLinks})
		if err != nil {
			t.Fatal(err)
		}
		for p, w := range tt.want {
			ts, rs := r.Top(p)
			if !reflect.DeepEqual(ts, w.terms) || !closeTo(rs, w.ranks) {
				t.Errorf("inLinks %d: page %d ranks %v on %v, want %v on %v", tt.inLinks, p, rs, ts, w.ranks, w.terms)
			}
		}
	}
}

func closeTo(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-15 {
			return false
		}
	}
	return true
}

// TestRankInLinks: pages 0 and 1 hold term 0 and link to page 2, which
// holds none. With d = 0.5, N_0 = 2: R(0) = R(1) = 0.25 and R(2) = 0.5·(0.25
// + 0.25) = 0.25; pulling from one in-link only, R(2) = 0.125.
func TestRankInLinks(t *testing.T) {
	links := [][]int32{{2}, {2}, {}}
	terms := [][]int32{{0}, {0}, {}}
	for _, tt := range []struct {
		inLinks int
		want    float64
	}{{0, 0.25}, {1, 0.125}, {2, 0.25}} {
		r, err := Rank(links, terms, 1, 1, Options{Damping: 0.5, InLinks: tt.inLinks, Tolerance: 1e-12})
		if err != nil {
			t.Fatal(err)
		}
		if _, rs := r.Top(2); len(rs) != 1 || math.Abs(rs[0]-tt.want) > 1e-12 {
			t.Errorf("inLinks %d: R(2) = %v, want %v", tt.inLinks, rs, tt.want)
		}
	}
	if _, err := Rank(links, terms, 1, 1, Options{InLinks: -1}); err == nil {
		t.Error("negative in-links accepted")
	}
}

// TestCrawlRankTopicWeb: on the topic web, the crawl ranks every page,
// keeps at most keep terms each, and, since no page there has 20 in-links,
// a limit of 20 changes nothing while a limit of 2 changes some pages'
// ranks.
func TestCrawlRankTopicWeb(t *testing.T) {
	d := synth.TopicWeb(1)
	all, err := CrawlRank(d.Links, d.Terms, len(d.TermNames), 20, Options{})
	if err != nil {
		t.Fatal(err)
	}
	at20, _ := CrawlRank(d.Links, d.Terms, len(d.TermNames), 20, Options{InLinks: 20})
	at2, _ := CrawlRank(d.Links, d.Terms, len(d.TermNames), 20, Options{InLinks: 2})
	changed := 0
	for p := range len(d.Pages) {
		ts, rs := all.Top(p)
		if len(ts) == 0 || len(ts) > 20 {
			t.Fatalf("page %d has %d ranked terms", p, len(ts))
		}
		ts20, rs20 := at20.Top(p)
		if !reflect.DeepEqual(ts, ts20) || !reflect.DeepEqual(rs, rs20) {
			t.Fatalf("page %d: a limit of 20 in-links changed its ranks", p)
		}
		if _, rs2 := at2.Top(p); !reflect.DeepEqual(rs, rs2) {
			changed++
		}
	}
	if changed == 0 {
		t.Error("a limit of 2 in-links changed no page's ranks")
	}
}
