package cluster

import (
	"math"
	"slices"
	"strings"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/pagerank"
	"github.com/refreshlab/refreshlab/core/textvec"
)

// Feature sets of Tan et al. §5.2, Fig. 2.
const (
	SetURL        = "url"         // the words of the URLs (tf·idf)
	SetContent    = "content"     // the words of the pages (tf·idf)
	SetURLContent = "url+content" // both, as one tf·idf vector
	SetStatic     = "static"      // the other static features of §3.1
	SetDynamic    = "dynamic"     // the dynamic features of §3.2
	SetCombined   = "combined"    // all of them
)

// FeatureSets lists the feature sets in the order of §5.2.
var FeatureSets = []string{SetURL, SetContent, SetURLContent, SetStatic, SetDynamic, SetCombined}

// FeatureSetLabels name FeatureSets for people, in the same order.
var FeatureSetLabels = []string{"URL words", "Content words", "URL and content words", "Other static features", "Dynamic features", "All features"}

// StaticNames are the static features of §3.1 other than the twenty word
// dimensions, in the order of the columns of StaticFeatures.
//
// §5.2 counts "28 features" for this set, but its own list in §3.1 gives
// 18: URL depth and six domain flags (of the 17 URL features, the other
// ten are URL words), images, tables, non-markup words, size and three
// file-type flags (of the 17 content features, ten are content words), and
// the four linkage features. 17 + 17 + 4 = 38 static features, and with
// the 9 dynamic ones 47, which is §5.2's count for the combined set; so we
// follow the list, and "static" here is these 18.
var StaticNames = []string{
	"depth", "com", "edu", "gov", "org", "net", "mil",
	"images", "tables", "words", "size", "html", "txt", "other",
	"pagerank", "inlinks", "outlinks", "emails",
}

// DynamicNames are the dynamic features of §3.2, in the order they are
// computed in.
var DynamicNames = []string{
	"content", "images", "tables", "size", "words",
	"pagerank", "inlinks", "outlinks", "emails",
}

// RankDims is the number of cluster-distance dimensions that stand for the
// words of the pages, and again for the words of the URLs (§3.1).
const RankDims = 10

// WordClusters is the number of clusters of the word vectors whose ten
// largest give the RankDims dimensions. §5.2: "we use k = 100 for all the
// clustering processes".
const WordClusters = 100

// URLParts returns the top-level domain of a URL's host (lower case, "" if
// it has none), its depth, the number of "/" after the scheme's "//"
// (§3.1: "the number of '/' in the URL"; counting the scheme's two would
// add 2 to every page), and its file type.
//
// File type (§3.1: HTML, TXT or other) is read from the extension of the
// path's last segment, as a crawler that has not opened the file would:
// .txt is TXT; no extension, a trailing "/", or an extension of a page
// served as HTML (.html, .htm, .shtml, .xhtml, .php, .asp, .aspx, .jsp,
// .cgi, .pl) is HTML; anything else (.pdf, .doc, .ps, …) is other. Query
// and fragment are ignored.
func URLParts(url string) (tld string, depth int, fileType int) {
	rest := url
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	host, path, _ := strings.Cut(rest, "/")
	depth = strings.Count(rest, "/")
	if i := strings.LastIndexByte(host, ':'); i >= 0 {
		host = host[:i]
	}
	if i := strings.LastIndexByte(host, '.'); i >= 0 {
		tld = strings.ToLower(host[i+1:])
	}
	last := path[strings.LastIndexByte(path, '/')+1:]
	ext := ""
	if i := strings.LastIndexByte(last, '.'); i >= 0 {
		ext = strings.ToLower(last[i+1:])
	}
	switch ext {
	case "txt":
		fileType = FileTXT
	case "", "html", "htm", "shtml", "xhtml", "php", "asp", "aspx", "jsp", "cgi", "pl":
		fileType = FileHTML
	default:
		fileType = FileOther
	}
	return tld, depth, fileType
}

// File types of URLParts.
const (
	FileHTML = iota
	FileTXT
	FileOther
)

// RawStatic returns the 18 static features of StaticNames for every page
// of repo, as they are (one column per name, one value per page), and
// whether the repository could give each: the URL gives depth, domain and
// file type; Repository.Features gives images, tables, words, size and
// emails when it has those columns; Repository.Links gives PageRank (eq. 1,
// d = 0.85), in-links within the repository and out-links.
func RawStatic(repo *dataset.Repository) ([][]float64, []bool) {
	n := len(repo.Pages)
	cols := make([][]float64, len(StaticNames))
	have := make([]bool, len(StaticNames))
	col := func(name string) []float64 {
		i := slices.Index(StaticNames, name)
		cols[i], have[i] = make([]float64, n), true
		return cols[i]
	}
	depth := col("depth")
	dom := [6][]float64{col("com"), col("edu"), col("gov"), col("org"), col("net"), col("mil")}
	ft := [3][]float64{col("html"), col("txt"), col("other")}
	for p, pg := range repo.Pages {
		tld, d, f := URLParts(pg.URL)
		depth[p] = float64(d)
		if i := slices.Index([]string{"com", "edu", "gov", "org", "net", "mil"}, tld); i >= 0 {
			dom[i][p] = 1
		}
		ft[f][p] = 1
	}
	for _, name := range []string{"images", "tables", "words", "size", "emails"} {
		if src, ok := repo.Features[name]; ok {
			copy(col(name), src)
		}
	}
	if repo.Links != nil {
		pr, _ := pagerank.Rank(repo.Links, pagerank.Options{Tol: 1e-8})
		copy(col("pagerank"), pr)
		in := col("inlinks")
		for p, x := range pagerank.InLinks(repo.Links) {
			in[p] = float64(x)
		}
		out := col("outlinks")
		for p, l := range repo.Links {
			out[p] = float64(len(l))
		}
	}
	return cols, have
}

// transform is how a feature enters the clustering vector before it is
// standardised: counts, sizes and ranks are heavy-tailed, so they enter as
// ln(1 + x) (PageRank as ln(1 + N·PR), N·PR being 1 on average); depth and
// the 0/1 flags as they are. Log1p is pure Go everywhere, so the vectors
// are the same natively and in WebAssembly.
func transform(name string, x float64, n int) float64 {
	switch name {
	case "images", "tables", "words", "size", "inlinks", "outlinks", "emails":
		return math.Log1p(x)
	case "pagerank":
		return math.Log1p(x * float64(n))
	}
	return x
}

// standardized returns the columns transformed and standardised to mean 0
// and standard deviation 1 over the pages, dropping those the repository
// does not have and those that are constant (they would add nothing).
//
// Tan et al. do not say how they scale features of such different units
// (bytes, counts, flags) before a cosine clustering. Our reading: without
// scaling the size in bytes would swamp every other feature, and without
// centring every vector of non-negative features would point into the
// same corner of the space, so each feature is standardised and so
// weighs the same; this is also the paper's stated concern when it
// squeezes the word vectors into ten dimensions, "to avoid its dominance
// over other features".
func standardized(names []string, cols [][]float64, have []bool, n int) (out [][]float32, kept []string) {
	for j, c := range cols {
		if !have[j] {
			continue
		}
		z := make([]float64, n)
		var sum float64
		for p, x := range c {
			z[p] = transform(names[j], x, n)
			sum += z[p]
		}
		mean := sum / float64(n)
		var ss float64
		for _, x := range z {
			ss += (x - mean) * (x - mean)
		}
		sd := math.Sqrt(ss / float64(n))
		if !(sd > 1e-12) {
			continue
		}
		col := make([]float32, n)
		for p, x := range z {
			col[p] = float32((x - mean) / sd)
		}
		out = append(out, col)
		kept = append(kept, names[j])
	}
	return out, kept
}

// rowsOf lays columns out as rows of a Dense space.
func rowsOf(cols [][]float32, n int) []float32 {
	d := len(cols)
	rows := make([]float32, n*d)
	for j, c := range cols {
		for p, x := range c {
			rows[p*d+j] = x
		}
	}
	return rows
}

// WordClustering is a clustering of pages by the words of their texts or
// URLs, and the ten cluster-distance dimensions §3.1 derives from it.
type WordClustering struct {
	Tree    *Tree
	K       int
	Cluster []int32   // per page: cluster index 0..K−1
	Sim     []float64 // per page: cosine to its cluster's centroid
	// Ranks[r][f] is the value of dimension f for the pages of cluster r:
	// 0 if r is the f-th largest cluster, else the rank of r among the
	// other clusters by the distance of its centroid to that cluster's
	// (1 for the nearest).
	Ranks [][RankDims]int
	// Largest lists the clusters that are the dimensions, largest first.
	Largest []int
}

// clusterWords clusters the rows of s (tf·idf vectors) into at most k
// clusters by repeated bisection and derives the rank dimensions (§3.1):
// "The IDs of the 10 largest clusters are chosen as the labels of 10
// dimensions … f_Cf = 0 for the webpages in C_p = C_f, f_Cf = 1 for the
// webpages in C_p which has the shortest distance to C_f, …". Distance
// between clusters is the cosine distance of their centroids; "largest"
// is by pages; ties go to the cluster made earlier.
func clusterWords(s Space, k int) *WordClustering {
	t, leaf, sim := fitAssign(s, k)
	kk := t.K()
	leaves := t.Leaves(kk)
	index := make(map[int32]int, kk)
	for r, l := range leaves {
		index[l] = r
	}
	n := s.Len()
	w := &WordClustering{Tree: t, K: kk, Cluster: make([]int32, n), Sim: sim}
	size := make([]float64, kk)
	for p, l := range leaf {
		w.Cluster[p] = int32(index[l])
		size[index[l]] += s.Weight(int32(p))
	}
	order := make([]int, kk)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case size[a] > size[b]:
			return -1
		case size[a] < size[b]:
			return 1
		}
		return 0
	})
	w.Largest = order[:min(RankDims, kk)]
	w.Ranks = make([][RankDims]int, kk)
	for f, cf := range w.Largest {
		cent := t.Nodes[leaves[cf]].Centroid
		dist := make([]float64, kk)
		for r := range kk {
			var dot float64
			for j, x := range t.Nodes[leaves[r]].Centroid {
				dot += x * cent[j]
			}
			dist[r] = 1 - dot
		}
		others := make([]int, 0, kk)
		for r := range kk {
			if r != cf {
				others = append(others, r)
			}
		}
		slices.SortStableFunc(others, func(a, b int) int {
			switch {
			case dist[a] < dist[b]:
				return -1
			case dist[a] > dist[b]:
				return 1
			}
			return 0
		})
		for rank, r := range others {
			w.Ranks[r][f] = rank + 1
		}
	}
	return w
}

// rankTable returns the table block of a word clustering's ten dimensions,
// each standardised over the pages (dimensions missing, when there are
// fewer than ten clusters, or constant are zero).
func (w *WordClustering) rankTable(n int) Table {
	t := Table{Dim: RankDims, Rows: make([]float64, w.K*RankDims), ID: w.Cluster}
	count := make([]float64, w.K)
	for _, c := range w.Cluster {
		count[c]++
	}
	for f := range RankDims {
		var sum, ss float64
		for r := range w.K {
			x := float64(w.Ranks[r][f])
			sum += count[r] * x
		}
		mean := sum / float64(n)
		for r := range w.K {
			x := float64(w.Ranks[r][f]) - mean
			ss += count[r] * x * x
		}
		sd := math.Sqrt(ss / float64(n))
		if !(sd > 1e-12) {
			continue
		}
		for r := range w.K {
			t.Rows[r*RankDims+f] = (float64(w.Ranks[r][f]) - mean) / sd
		}
	}
	return t
}

// wordMatrices returns the tf·idf matrices of the URLs and of the page
// texts (nil when the repository has no terms), remembered through m.
func wordMatrices(repo *dataset.Repository, m memo) (url, content *textvec.Matrix) {
	type pair struct{ url, content *textvec.Matrix }
	v, _ := remember(m, "cluster/matrices", func() (pair, error) {
		urls := make([]string, len(repo.Pages))
		for i, p := range repo.Pages {
			urls[i] = p.URL
		}
		var out pair
		out.url = textvec.FromURLs(urls, textvec.DefaultVocabulary)
		if repo.Terms != nil {
			out.content = textvec.FromTerms(repo.Terms, repo.TermNames, textvec.DefaultVocabulary)
		}
		return out, nil
	})
	return v.url, v.content
}

// attrIndex returns, for each dynamic feature after the first, the index
// of its attribute in attrs, or −1.
func attrIndex(attrs []string) []int {
	idx := make([]int, len(DynamicNames)-1)
	for j, name := range DynamicNames[1:] {
		idx[j] = slices.Index(attrs, name)
	}
	return idx
}

// dynamicAt computes the nine dynamic features of §3.2 for a page from the
// attributes of the crawler's two latest copies (prev, cur: values of the
// attributes dataset.Content.Attributes names, idx giving each feature's
// attribute as attrIndex finds it) and the cosine similarity of their
// texts, into out (len(DynamicNames)):
//
//   - change in content: 1 − cosine similarity;
//   - change in images, tables, size, words, in-links, out-links and
//     e-mail addresses: the relative change |new − old| / (1 + old), so
//     that a page growing from 10 to 20 images counts like one from 100
//     to 200;
//   - change in PageRank: |new − old| / (old + 1/N), relative to the page's
//     rank and never dividing by 0.
//
// §3.2 says "change in" without a sign or a scale; our reading takes the
// size of the change relative to the old value, since the paper's premise
// (Ali and Williams) is that "the significance of the past changes"
// predicts the next, and a relative change is comparable across pages of
// very different sizes. (It needs only a division, so computing it for
// every changed page a crawler downloads stays cheap.) An attribute the
// content model lacks gives 0.
func dynamicAt(idx []int, prev, cur []float64, sim float64, n int, out []float64) {
	out[0] = 1 - sim
	for j, a := range idx {
		if a < 0 {
			out[j+1] = 0
			continue
		}
		x, y := prev[a], cur[a]
		if j+1 == 5 { // PageRank
			out[j+1] = math.Abs(y-x) / (x + 1/float64(n))
			continue
		}
		out[j+1] = math.Abs(y-x) / (1 + math.Abs(x))
	}
}
