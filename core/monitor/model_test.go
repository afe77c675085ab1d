package monitor

import (
	"math"
	"testing"

	"github.com/refreshlab/refreshlab/core/textvec"
)

// appendixBScore is the cosine of Appendix B written out from its formula:
// Σ_w λ_w² f_q(w) f_a(w) / √(Σ_w (λ_w f_q(w))² · Σ_w (λ_w f_a(w))²), with
// λ_w = ln(|D| / |{d : f_d(w) > 0}|) over docs, words outside every doc
// left out of the query.
func appendixBScore(docs [][]string, q []string, a int) float64 {
	df := map[string]int{}
	for _, d := range docs {
		seen := map[string]bool{}
		for _, w := range d {
			if !seen[w] {
				df[w]++
				seen[w] = true
			}
		}
	}
	idf := func(w string) float64 { return math.Log(float64(len(docs)) / float64(df[w])) }
	fq := map[string]float64{}
	for _, w := range q {
		if df[w] > 0 {
			fq[w]++
		}
	}
	fa := map[string]float64{}
	for _, w := range docs[a] {
		fa[w] = 1 // binary term frequency, as textvec keeps it
	}
	var dot, qq, aa float64
	for w, f := range fq {
		dot += idf(w) * idf(w) * f * fa[w]
		qq += idf(w) * f * idf(w) * f
	}
	for w, f := range fa {
		aa += idf(w) * f * idf(w) * f
	}
	if qq == 0 || aa == 0 {
		return 0
	}
	return dot / math.Sqrt(qq*aa)
}

// TextRelevance scores pages as Appendix B's formula does, a word given
// twice in a query counting twice, and lists only positive scores.
func TestTextRelevance(t *testing.T) {
	docs := [][]string{
		{"hurricane", "weather", "florida"},
		{"hurricane", "news"},
		{"sports", "news", "football"},
		{"weather", "forecast"},
	}
	names := []string{}
	ids := map[string]int32{}
	terms := make([][]int32, len(docs))
	for i, d := range docs {
		for _, w := range d {
			id, ok := ids[w]
			if !ok {
				id = int32(len(names))
				ids[w] = id
				names = append(names, w)
			}
			terms[i] = append(terms[i], id)
		}
	}
	m := textvec.FromTerms(terms, names, 0)
	queries := [][]string{
		{"hurricane", "weather"},
		{"news", "news", "football"},
		{"unknown"},
		{"hurricane", "unknown"},
	}
	rel := TextRelevance(m, queries)
	if len(rel) != len(docs) {
		t.Fatalf("%d pages scored, want %d", len(rel), len(docs))
	}
	for a := range docs {
		got := map[int32]float64{}
		for _, r := range rel[a] {
			if !(r.R > 0) {
				t.Errorf("page %d, query %d: listed score %v", a, r.Query, r.R)
			}
			got[r.Query] = r.R
		}
		for q := range queries {
			want := appendixBScore(docs, queries[q], a)
			if math.Abs(got[int32(q)]-want) > 1e-12 {
				t.Errorf("page %d, query %v: score %v, want %v", a, queries[q], got[int32(q)], want)
			}
		}
	}
}

// Weights sums ω_j r_ij over a page's queries and refuses a query out of
// range.
func TestWeights(t *testing.T) {
	rel := Relevance{
		{{Query: 0, R: 0.5}, {Query: 2, R: 0.25}},
		nil,
		{{Query: 1, R: 1}},
	}
	w, err := Weights([]float64{2, 3, 4}, rel)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{2*0.5 + 4*0.25, 0, 3} {
		if w[i] != want {
			t.Errorf("W_%d = %v, want %v", i, w[i], want)
		}
	}
	if _, err := Weights([]float64{1}, Relevance{{{Query: 1, R: 1}}}); err == nil {
		t.Error("a query out of range accepted")
	}
}
