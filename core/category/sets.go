package category

import (
	"errors"
	"fmt"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/topic"
)

// Sets are the categories of a repository's pages: possibly overlapping
// (a page may be in several, §4 eq. 6), never empty, and covering every
// page (pages the categoriser leaves out form one more category, so that
// every page can still be sampled and refreshed).
type Sets struct {
	Names []string
	// Pages is the number of pages in the repository, |R|.
	Pages int
	// Total is Σ|C_i|: a page counts once per category it is in.
	Total int
	// Disjoint reports whether every page is in exactly one category.
	Disjoint bool

	start  []int32 // category i is pages[start[i]:start[i+1]], ascending
	pages  []int32
	pstart []int32 // page p is in cats[pstart[p]:pstart[p+1]]
	cats   []int32
}

// Len returns the number of categories, n_c.
func (s *Sets) Len() int { return len(s.Names) }

// Category returns the pages of category i in ascending order. The slice
// is shared: callers must not modify it.
func (s *Sets) Category(i int) []int32 { return s.pages[s.start[i]:s.start[i+1]] }

// Of returns the categories page p is in. The slice is shared.
func (s *Sets) Of(p int32) []int32 { return s.cats[s.pstart[p]:s.pstart[p+1]] }

// MeanSize is N, the average number of pages per category (§4.1), with a
// page counted in every category it is in.
func (s *Sets) MeanSize() float64 { return float64(s.Total) / float64(len(s.Names)) }

// NoLabel and NoTopic name the extra category of the pages no label or no
// TOPIC rank places anywhere.
const (
	NoLabel = "(no label)"
	NoTopic = "(no topic)"
)

// newSets builds Sets from candidate categories over n pages, dropping the
// empty ones and gathering the pages in none into a category named rest.
func newSets(n int, names []string, members [][]int32, rest string) *Sets {
	s := &Sets{Pages: n, Disjoint: true}
	count := make([]int32, n)
	for _, m := range members {
		for _, p := range m {
			count[p]++
		}
	}
	var left []int32
	for p, c := range count {
		if c == 0 {
			left = append(left, int32(p))
		}
		if c > 1 {
			s.Disjoint = false
		}
	}
	if len(left) > 0 {
		names = append(names[:len(names):len(names)], rest)
		members = append(members[:len(members):len(members)], left)
	}
	s.start = []int32{0}
	for i, m := range members {
		if len(m) == 0 {
			continue
		}
		s.Names = append(s.Names, names[i])
		s.pages = append(s.pages, m...)
		s.start = append(s.start, int32(len(s.pages)))
	}
	s.Total = len(s.pages)
	// The inverse: each page's categories.
	s.pstart = make([]int32, n+1)
	for _, p := range s.pages {
		s.pstart[p+1]++
	}
	for p := range n {
		s.pstart[p+1] += s.pstart[p]
	}
	s.cats = make([]int32, len(s.pages))
	fill := append([]int32(nil), s.pstart[:n]...)
	for i := range s.Names {
		for _, p := range s.Category(i) {
			s.cats[fill[p]] = int32(i)
			fill[p]++
		}
	}
	return s
}

// LabelSets returns the repository's own categories: one per label, plus
// NoLabel for the unlabelled pages. A repository without labels is one
// category of every page.
func LabelSets(r *dataset.Repository) *Sets {
	members := make([][]int32, len(r.Labels))
	for l := range r.Labels {
		members[l] = r.LabelPages(l)
	}
	return newSets(len(r.Pages), r.Labels, members, NoLabel)
}

// MaxTopK is the largest number of topics a page may be assigned to.
const MaxTopK = 20

// ErrNoTerms is the error of TopicSets on a repository without page terms.
var ErrNoTerms = errors.New("TOPIC categories need the pages' terms (and links), and this dataset has none: use categories \"dataset\"")

// TopicSets returns TOPIC's categories (Taleghani §3.1.1, Algorithms 1 and
// 2): one per term, holding the pages that have the term among their topK
// highest reputation ranks, plus NoTopic for pages with no rank on any
// term. With crawl set, the ranks are those a crawler computes as it
// downloads the pages (topic.CrawlRank); otherwise those of the whole
// repository (topic.Rank). inLinks limits the in-links a page's rank is
// computed from (0: all; §5.1, Table 2). The ranks are computed once per
// dataset, damping, inLinks and crawl, and the categories once per topK,
// through env.Remember.
func TopicSets(env refresh.Env, topK int, damping float64, inLinks int, crawl bool) (*Sets, error) {
	r := env.Repo
	if r.Terms == nil {
		return nil, ErrNoTerms
	}
	if topK < 1 || topK > MaxTopK {
		return nil, fmt.Errorf("topK %d outside [1, %d]", topK, MaxTopK)
	}
	rank, what := topic.Rank, "topic"
	if crawl {
		rank, what = topic.CrawlRank, "crawl"
	}
	ranks := fmt.Sprintf("category/%s-ranks d=%g in=%d", what, damping, inLinks)
	v, err := env.Remember(fmt.Sprintf("%s k=%d", ranks, topK), func() (any, error) {
		rv, err := env.Remember(ranks, func() (any, error) {
			return rank(r.Links, r.Terms, len(r.TermNames), MaxTopK, topic.Options{Damping: damping, InLinks: inLinks})
		})
		if err != nil {
			return nil, err
		}
		return newSets(len(r.Pages), r.TermNames, rv.(*topic.Ranking).Categories(topK), NoTopic), nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*Sets), nil
}
