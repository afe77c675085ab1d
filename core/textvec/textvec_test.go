package textvec

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

func TestURLWords(t *testing.T) {
	cases := []struct {
		url  string
		want []string
	}{
		{"https://www.cs.example.edu/people/faculty-12.html", []string{"www", "cs", "example", "edu", "people", "faculty", "html"}},
		{"http://A.Example.COM/News/news.html", []string{"example", "com", "news", "html"}},
		{"example.org/2024/x/ab9cd", []string{"example", "org", "ab", "cd"}},
		{"", nil},
		{"https://xn--bcher-kva.example/bücher", []string{"xn", "bcher", "kva", "example", "bücher"}},
	}
	for _, c := range cases {
		if got := URLWords(c.url, nil); !slices.Equal(got, c.want) {
			t.Errorf("URLWords(%q) = %q, want %q", c.url, got, c.want)
		}
	}
}

// TestFromTermsByHand checks tf·idf weights and unit rows on four pages.
func TestFromTermsByHand(t *testing.T) {
	names := []string{"the", "crawl", "fresh", "web", "rare"}
	terms := [][]int32{{0, 1, 2}, {0, 1, 3}, {0, 3}, {0, 4}}
	m := FromTerms(terms, names, 3)
	// df: the 4, crawl 2, fresh 1, web 2, rare 1. The three most frequent:
	// the, crawl, web (crawl before web: lower term index on a tie).
	if !slices.Equal(m.Words, []string{"the", "crawl", "web"}) {
		t.Fatalf("vocabulary %q", m.Words)
	}
	ln2 := math.Log(2)
	wantIDF := []float64{0, ln2, ln2}
	for j, w := range wantIDF {
		if math.Abs(m.IDF[j]-w) > 1e-15 {
			t.Errorf("idf(%s) = %v, want %v", m.Words[j], m.IDF[j], w)
		}
	}
	// Page 0 keeps the, crawl: unit vector (0, 1, 0). Page 1: (0, 1/√2,
	// 1/√2). Page 3 keeps only "the", whose idf is 0: the zero vector.
	c := []float64{0, 1, 0}
	want := []float64{1, 1 / math.Sqrt2, 0, 0}
	for r, w := range want {
		if got := m.Dot(r, c); math.Abs(got-w) > 1e-15 {
			t.Errorf("row %d · (0,1,0) = %v, want %v", r, got, w)
		}
	}
	sum := make([]float64, 3)
	for r := range m.Rows() {
		m.Add(r, 1, sum)
	}
	if math.Abs(sum[1]-(1+1/math.Sqrt2)) > 1e-15 || math.Abs(sum[2]-(1/math.Sqrt2+1)) > 1e-15 || sum[0] != 0 {
		t.Errorf("sum of rows %v", sum)
	}
}

// TestRowsAreUnit checks that every non-empty row has length 1.
func TestRowsAreUnit(t *testing.T) {
	urls := []string{"https://a.example.com/x/news", "https://b.example.org/news/today", "https://a.example.com/shop/cart", "https://c.example.net/"}
	m := FromURLs(urls, 0)
	for r := range m.Rows() {
		c := make([]float64, m.Dim())
		m.Add(r, 1, c)
		if got := m.Dot(r, c); m.Norm[r] > 0 && math.Abs(got-1) > 1e-12 {
			t.Errorf("row %d: ‖x‖² = %v", r, got)
		}
	}
}

func ExampleFromURLs() {
	m := FromURLs([]string{
		"https://www.news.example.com/world/today.html",
		"https://www.news.example.com/sport/today.html",
		"https://www.physics.example.edu/people/today.html",
	}, 1000)
	// Words in every URL (www, example, today, html) have idf 0.
	fmt.Println(m.Rows(), m.Dim())
	for j, w := range m.Words {
		if m.IDF[j] > 0 {
			fmt.Printf("%s %.3f\n", w, m.IDF[j])
		}
	}
	// Output:
	// 3 11
	// com 0.405
	// news 0.405
	// edu 1.099
	// people 1.099
	// physics 1.099
	// sport 1.099
	// world 1.099
}
