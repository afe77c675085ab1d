package cluster

import (
	"math"
	"slices"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/textvec"
)

func TestURLParts(t *testing.T) {
	cases := []struct {
		url   string
		tld   string
		depth int
		ft    int
	}{
		{"https://www.cs.example.edu/people/smith/index.html", "edu", 3, FileHTML},
		{"http://www.example.com/", "com", 1, FileHTML},
		{"http://www.example.com", "com", 0, FileHTML},
		{"https://data.example.gov/files/report-2003.PDF", "gov", 2, FileOther},
		{"https://example.org/notes/readme.txt?x=1#top", "org", 2, FileTXT},
		{"https://example.net:8080/a/b/c/d/e.php", "net", 5, FileHTML},
		{"https://www.army.mil/news/", "mil", 2, FileHTML},
		{"https://example.co.uk/x.ps", "uk", 1, FileOther},
		{"localhost/page", "", 1, FileHTML},
	}
	for _, c := range cases {
		tld, depth, ft := URLParts(c.url)
		if tld != c.tld || depth != c.depth || ft != c.ft {
			t.Errorf("URLParts(%q) = %q, %d, %d; want %q, %d, %d", c.url, tld, depth, ft, c.tld, c.depth, c.ft)
		}
	}
}

// TestRawStaticByHand extracts the 18 static features of §3.1 from a
// hand-made repository of three pages.
func TestRawStaticByHand(t *testing.T) {
	repo := &dataset.Repository{
		Pages: []dataset.Page{
			{URL: "https://www.news.example.com/world/today.html"},
			{URL: "https://www.example.edu/people/smith/cv.pdf"},
			{URL: "https://www.example.gov/readme.txt"},
		},
		Features: map[string][]float64{
			"images": {12, 0, 0}, "tables": {2, 1, 0}, "words": {900, 2500, 300}, "size": {5600, 16000, 1900}, "emails": {0, 3, 1},
		},
		// 0 → 1, 0 → 2, 1 → 0; page 2 links nowhere.
		Links: [][]int32{{1, 2}, {0}, {}},
	}
	cols, have := RawStatic(repo)
	get := func(name string) []float64 {
		i := slices.Index(StaticNames, name)
		if !have[i] {
			t.Fatalf("feature %s missing", name)
		}
		return cols[i]
	}
	want := map[string][]float64{
		"depth": {2, 3, 1},
		"com":   {1, 0, 0}, "edu": {0, 1, 0}, "gov": {0, 0, 1}, "org": {0, 0, 0}, "net": {0, 0, 0}, "mil": {0, 0, 0},
		"images": {12, 0, 0}, "tables": {2, 1, 0}, "words": {900, 2500, 300}, "size": {5600, 16000, 1900},
		"html": {1, 0, 0}, "txt": {0, 0, 1}, "other": {0, 1, 0},
		"inlinks": {1, 1, 1}, "outlinks": {2, 1, 0}, "emails": {0, 3, 1},
	}
	for name, w := range want {
		if got := get(name); !slices.Equal(got, w) {
			t.Errorf("%s = %v, want %v", name, got, w)
		}
	}
	// PageRank, eq. 1 with d = 0.85, N = 3, page 2 dangling:
	//   PR0 = 0.05 + 0.85·PR1, PR1 = 0.05 + 0.85·PR0/2, PR2 = 0.05 + 0.85·PR0/2
	//   ⇒ PR0 = (0.05 + 0.0425)/(1 − 0.36125) = 0.0925/0.63875.
	// RawStatic stops iterating when the ranks move by less than 1e-8 in
	// all (L1), so each is within d/(1−d)·1e-8 < 6e-8 of the fixed point.
	pr0 := 0.0925 / 0.63875
	pr := get("pagerank")
	for i, w := range []float64{pr0, 0.05 + 0.425*pr0, 0.05 + 0.425*pr0} {
		if math.Abs(pr[i]-w) > 6e-8 {
			t.Errorf("PageRank(%d) = %v, want %v", i, pr[i], w)
		}
	}
	// Standardised: the constant columns (org, net, mil and, here,
	// in-links) are dropped and every other has mean 0 and standard
	// deviation 1.
	std, names := standardized(StaticNames, cols, have, 3)
	if slices.Contains(names, "org") || slices.Contains(names, "inlinks") || len(names) != 14 {
		t.Errorf("kept %v", names)
	}
	for j, c := range std {
		var s, ss float64
		for _, x := range c {
			s += float64(x)
		}
		for _, x := range c {
			ss += (float64(x) - s/3) * (float64(x) - s/3)
		}
		if math.Abs(s) > 1e-5 || math.Abs(ss/3-1) > 1e-5 {
			t.Errorf("%s: mean %v, variance %v", names[j], s/3, ss/3)
		}
	}
	// Without features or links, only the URL's features remain.
	_, have = RawStatic(&dataset.Repository{Pages: repo.Pages})
	for i, name := range StaticNames {
		if have[i] != slices.Contains([]string{"depth", "com", "edu", "gov", "org", "net", "mil", "html", "txt", "other"}, name) {
			t.Errorf("%s: have = %v without features and links", name, have[i])
		}
	}
}

// TestDynamicByHand computes the nine dynamic features of §3.2 for two
// hand-made copies of a page.
func TestDynamicByHand(t *testing.T) {
	attrs := []string{"words", "size", "images", "tables", "emails", "outlinks", "inlinks", "pagerank"}
	prev := []float64{400, 2500, 9, 2, 1, 5, 3, 1e-5}
	cur := []float64{500, 2500, 4, 2, 3, 5, 0, 2e-5}
	out := make([]float64, len(DynamicNames))
	dynamicAt(attrIndex(attrs), prev, cur, 0.8, 100000, out)
	want := map[string]float64{
		"content": 0.2, "images": 5.0 / 10, "tables": 0, "size": 0, "words": 100.0 / 401,
		"pagerank": 1e-5 / (1e-5 + 1e-5), "inlinks": 3.0 / 4, "outlinks": 0, "emails": 2.0 / 2,
	}
	for j, name := range DynamicNames {
		if math.Abs(out[j]-want[name]) > 1e-12 {
			t.Errorf("%s = %v, want %v", name, out[j], want[name])
		}
	}
	// A content model without some attributes gives 0 for them.
	dynamicAt(attrIndex([]string{"words"}), []float64{10}, []float64{12}, 1, 10, out)
	if out[0] != 0 || math.Abs(out[4]-2.0/11) > 1e-15 || out[1] != 0 || out[5] != 0 {
		t.Errorf("partial attributes: %v", out)
	}
}

// TestRankDimensions checks §3.1's ten cluster-distance dimensions: for
// each of the ten largest clusters C_f, its own pages get 0 and every
// other cluster gets its rank by the cosine distance of its centroid to
// C_f's (1 the nearest), computed here directly.
func TestRankDimensions(t *testing.T) {
	// 14 groups of URLs sharing a distinctive word, of different sizes,
	// plus a shared word that links some groups.
	var urls []string
	for g := range 14 {
		for i := range 10 + 3*g {
			w := string(rune('a'+g)) + "x"
			extra := ""
			if g%3 == 0 {
				extra = "/shared"
			}
			urls = append(urls, "https://s.example/"+w+extra+"/p"+string(rune('a'+i%26))+".html")
		}
	}
	s := NewSparse(textvec.FromURLs(urls, 0), nil)
	w := clusterWords(s, 14)
	if w.K < RankDims+1 {
		t.Fatalf("%d clusters", w.K)
	}
	leaves := w.Tree.Leaves(w.K)
	size := make([]int, w.K)
	for _, c := range w.Cluster {
		size[c]++
	}
	for f, cf := range w.Largest {
		if f > 0 && size[w.Largest[f-1]] < size[cf] {
			t.Errorf("dimension %d: cluster of %d pages after one of %d", f, size[cf], size[w.Largest[f-1]])
		}
		if w.Ranks[cf][f] != 0 {
			t.Errorf("dimension %d: its own cluster has %d", f, w.Ranks[cf][f])
		}
		cos := func(r int) float64 {
			var d float64
			for j, x := range w.Tree.Nodes[leaves[r]].Centroid {
				d += x * w.Tree.Nodes[leaves[cf]].Centroid[j]
			}
			return d
		}
		var seen []int
		for r := range w.K {
			if r == cf {
				continue
			}
			rank := w.Ranks[r][f]
			seen = append(seen, rank)
			// Clusters strictly nearer C_f than r must rank before it.
			for q := range w.K {
				if q != cf && q != r && cos(q) > cos(r)+1e-12 && w.Ranks[q][f] > rank {
					t.Errorf("dimension %d: cluster %d (cos %.3f) ranks %d after cluster %d (cos %.3f) at %d", f, q, cos(q), w.Ranks[q][f], r, cos(r), rank)
				}
			}
		}
		slices.Sort(seen)
		for i, x := range seen {
			if x != i+1 {
				t.Fatalf("dimension %d: ranks %v are not 1..%d", f, seen, w.K-1)
			}
		}
	}
}
