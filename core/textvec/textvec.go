// Package textvec turns the words of pages and of their URLs into tf·idf
// vectors (Salton 1991, as Tan et al. §3.1 use them): one sparse unit
// vector per page over a vocabulary of the most frequent words, ready for a
// cosine clustering.
package textvec

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// DefaultVocabulary is the number of words kept: Tan et al. §3.1 use "the
// 1000 most frequently appearing words in all the webpages".
const DefaultVocabulary = 1000

// Matrix holds one sparse tf·idf vector per row (page) in compressed rows.
//
// Term frequency is binary: the repository lists the distinct terms of a
// page (dataset.Repository.Terms) and a URL names a word once or twice at
// most, so a word present in a row has tf = 1. Its weight is then the
// word's idf = ln(N / df), N the rows and df the rows containing it, and
// each row is scaled to unit length. A row with no kept word (or only words
// every row has, whose idf is 0) is the zero vector: Norm is 0.
type Matrix struct {
	Ptr   []int32   // row r's entries are Col[Ptr[r]:Ptr[r+1]]
	Col   []uint16  // vocabulary index of each entry, ascending within a row
	Norm  []float64 // ‖row‖ before scaling: sqrt(Σ idf²) over its entries
	IDF   []float64 // per vocabulary word
	Words []string  // per vocabulary word, for display
}

// Rows returns the number of rows.
func (m *Matrix) Rows() int { return len(m.Norm) }

// Dim returns the vocabulary size.
func (m *Matrix) Dim() int { return len(m.IDF) }

// Dot returns the dot product of row r's unit vector with c (length Dim).
func (m *Matrix) Dot(r int, c []float64) float64 {
	if m.Norm[r] == 0 {
		return 0
	}
	var s float64
	for _, j := range m.Col[m.Ptr[r]:m.Ptr[r+1]] {
		s += m.IDF[j] * c[j]
	}
	return s / m.Norm[r]
}

// Add adds w times row r's unit vector to c.
func (m *Matrix) Add(r int, w float64, c []float64) {
	if m.Norm[r] == 0 {
		return
	}
	w /= m.Norm[r]
	for _, j := range m.Col[m.Ptr[r]:m.Ptr[r+1]] {
		c[j] += w * m.IDF[j]
	}
}

// FromTerms builds the matrix of pages whose distinct terms are terms[i]
// (indexes into names), keeping the vocab most frequent terms by document
// frequency (ties to the lower term index). vocab ≤ 0 means
// DefaultVocabulary; at most 65,536 words are kept.
func FromTerms(terms [][]int32, names []string, vocab int) *Matrix {
	df := make([]int32, len(names))
	for _, ts := range terms {
		for _, t := range ts {
			df[t]++
		}
	}
	keep := top(df, vocab)
	col := make([]int32, len(names)) // term → vocabulary index + 1
	words := make([]string, len(keep))
	for j, t := range keep {
		col[t] = int32(j) + 1
		words[j] = names[t]
	}
	m := newMatrix(len(terms), keep, df, words)
	row := make([]uint16, 0, 64)
	for _, ts := range terms {
		row = row[:0]
		for _, t := range ts {
			if j := col[t]; j > 0 {
				row = append(row, uint16(j-1))
			}
		}
		m.appendRow(row)
	}
	return m
}

// FromURLs builds the matrix of the words of each URL (see URLWords),
// keeping the vocab most frequent words by document frequency (ties
// alphabetical). vocab ≤ 0 means DefaultVocabulary.
func FromURLs(urls []string, vocab int) *Matrix {
	ids := map[string]int32{}
	var names []string
	rows := make([][]int32, len(urls))
	var buf []string
	flat := make([]int32, 0, 8*len(urls))
	for i, u := range urls {
		buf = URLWords(u, buf[:0])
		start := len(flat)
		for _, w := range buf {
			id, ok := ids[w]
			if !ok {
				id = int32(len(names))
				ids[w] = id
				names = append(names, strings.Clone(w))
			}
			flat = append(flat, id)
		}
		rows[i] = flat[start:len(flat):len(flat)]
	}
	// Term ids follow first appearance; rank ties alphabetically instead,
	// so the vocabulary does not depend on the order of the pages.
	order := make([]int32, len(names))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(names[a], names[b]) })
	rank := make([]int32, len(names))
	sorted := make([]string, len(names))
	for r, id := range order {
		rank[id] = int32(r)
		sorted[r] = names[id]
	}
	for _, row := range rows {
		for j, id := range row {
			row[j] = rank[id]
		}
		slices.Sort(row)
	}
	return FromTerms(rows, sorted, vocab)
}

// URLWords appends to out the distinct words of a URL, in order of first
// appearance: the runs of letters of everything after the scheme, in
// lower case, of two letters or more. "https://www.cs.example.edu/people/
// faculty-12.html" gives www, cs, example, edu, people, faculty, html.
// Digits and punctuation separate words; bytes beyond ASCII count as
// letters so that non-English words stay whole. The words are substrings
// of url where it is already in lower case, so most calls do not allocate.
func URLWords(url string, out []string) []string {
	if i := strings.Index(url, "://"); i >= 0 {
		url = url[i+3:]
	}
	for i := 0; i < len(url); {
		for i < len(url) && !isLetter(url[i]) {
			i++
		}
		j := i
		upper := false
		for j < len(url) && isLetter(url[j]) {
			if 'A' <= url[j] && url[j] <= 'Z' {
				upper = true
			}
			j++
		}
		if j-i >= 2 {
			w := url[i:j]
			if upper {
				w = strings.ToLower(w)
			}
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
		i = j
	}
	return out
}

func isLetter(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || b >= 0x80
}

// top returns the indexes of the n largest positive counts, largest first,
// ties to the lower index.
func top(df []int32, n int) []int32 {
	if n <= 0 {
		n = DefaultVocabulary
	}
	n = min(n, 1<<16)
	var idx []int32
	for i, c := range df {
		if c > 0 {
			idx = append(idx, int32(i))
		}
	}
	slices.SortFunc(idx, func(a, b int32) int {
		if c := cmp.Compare(df[b], df[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	if len(idx) > n {
		idx = idx[:n]
	}
	return idx
}

func newMatrix(rows int, keep []int32, df []int32, words []string) *Matrix {
	m := &Matrix{Ptr: make([]int32, 1, rows+1), Norm: make([]float64, 0, rows), IDF: make([]float64, len(keep)), Words: words}
	for j, t := range keep {
		// ln(N/df) through Log1p, which is pure Go on every platform
		// (math.Log is assembly on amd64), so the vectors are the same
		// bits natively and in WebAssembly.
		m.IDF[j] = math.Log1p(float64(rows)/float64(df[t]) - 1)
	}
	return m
}

func (m *Matrix) appendRow(row []uint16) {
	slices.Sort(row)
	var ss float64
	for _, j := range row {
		ss += m.IDF[j] * m.IDF[j]
	}
	m.Col = append(m.Col, row...)
	m.Ptr = append(m.Ptr, int32(len(m.Col)))
	m.Norm = append(m.Norm, math.Sqrt(ss))
}
