package synth

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
)

// paperTable1 is Table 1 of Tan et al. §5.1, copied from the paper: URLs
// and sites per top-level domain (706 misc. URLs have neither).
var paperTanTable1 = []struct {
	tld         string
	urls, sites int
	avg         float64
}{
	{"edu", 107204, 68, 1576.5},
	{"com", 100725, 92, 1094.8},
	{"gov", 38696, 23, 1682.4},
	{"org", 22391, 16, 1399.4},
	{"net", 12972, 12, 1081.0},
	{"mil", 1998, 1, 1998.0},
}

// tldOf returns the last label of a URL's host.
func tldOf(url string) string {
	host, _, _ := strings.Cut(strings.TrimPrefix(url, "https://"), "/")
	return host[strings.LastIndexByte(host, '.')+1:]
}

// TestTanTable1 checks TanTable1 against the paper (its average URLs per
// site is URLs/sites to the table's rounding) and that each generated
// dataset has exactly Table 1's sites per domain and the table's share of
// pages per domain: n·URLs/283,986 rounded by largest remainder, computed
// here on its own.
func TestTanTable1(t *testing.T) {
	total := 0
	for i, row := range paperTanTable1 {
		got := TanTable1[i]
		if got.TLD != row.tld || got.URLs != row.urls || got.Sites != row.sites {
			t.Errorf("TanTable1[%d] = %+v, paper %+v", i, got, row)
		}
		if math.Abs(float64(row.urls)/float64(row.sites)-row.avg) > 0.05 {
			t.Errorf("%s: %d URLs / %d sites is not the table's %.1f", row.tld, row.urls, row.sites, row.avg)
		}
		total += row.urls
	}
	if total+706 != 284692 {
		t.Fatalf("Table 1 sums to %d + 706 misc., the paper says 284,692", total)
	}
	for _, n := range []int{TanSmallPages, TanPages} {
		// Largest remainder, written again: floors, then +1 for the
		// largest fractional parts.
		want := map[string]int{}
		type rem struct {
			tld  string
			frac float64
		}
		var rems []rem
		given := 0
		for _, row := range paperTanTable1 {
			q := float64(n) * float64(row.urls) / float64(total)
			want[row.tld] = int(q)
			given += int(q)
			rems = append(rems, rem{row.tld, q - math.Floor(q)})
		}
		slices.SortStableFunc(rems, func(a, b rem) int {
			if a.frac > b.frac {
				return -1
			}
			if a.frac < b.frac {
				return 1
			}
			return 0
		})
		for i := 0; given < n; i, given = i+1, given+1 {
			want[rems[i].tld]++
		}
		seeds := []uint64{1, 2}
		if n == TanPages {
			seeds = seeds[:1]
		}
		for _, seed := range seeds {
			var d *dataset.Dataset
			if n == TanPages {
				d = TanWebArchive(seed)
			} else {
				d = TanWebArchiveSmall(seed)
			}
			checkWellFormed(t, d)
			pages, sites := map[string]int{}, map[string]int{}
			for _, p := range d.Pages {
				pages[tldOf(p.URL)]++
			}
			for _, s := range d.Sites {
				sites[s[strings.LastIndexByte(s, '.')+1:]]++
			}
			for _, row := range paperTanTable1 {
				if sites[row.tld] != row.sites || pages[row.tld] != want[row.tld] {
					t.Errorf("n %d, seed %d, .%s: %d sites, %d pages; want %d sites, %d pages",
						n, seed, row.tld, sites[row.tld], pages[row.tld], row.sites, want[row.tld])
				}
			}
			if len(d.Pages) != n || len(d.Sites) != 212 || d.Truth.Cycles() != 12 || d.Info.CycleUnit != "month" {
				t.Errorf("n %d: shape %+v", n, d.Info)
			}
		}
	}
}

// TestTanRelations checks that the relations datasets/README.md says are
// built in are there, on 12 seeds of the lesson-size dataset. Each is a
// per-seed statistic that should be positive: for it, the mean over the
// seeds must exceed 4 standard errors (sd/√12). If the relation were
// absent (a true mean of 0) the test would pass with probability about
// 1e-3 (t with 11 degrees of freedom); present, it fails by chance with
// negligible probability, as each statistic is many standard errors away
// from 0 (logged).
func TestTanRelations(t *testing.T) {
	const seeds = 12
	stats := map[string][]float64{}
	add := func(name string, x float64) { stats[name] = append(stats[name], x) }
	for seed := range uint64(seeds) {
		d := TanWebArchiveSmall(100 + seed)
		n := len(d.Pages)
		changes := make([]float64, n)
		for _, ch := range d.Truth.Changed {
			for _, p := range ch {
				changes[p]++
			}
		}
		byTLD := map[string][2]float64{}
		for p, pg := range d.Pages {
			v := byTLD[tldOf(pg.URL)]
			byTLD[tldOf(pg.URL)] = [2]float64{v[0] + changes[p], v[1] + 1}
		}
		rate := func(tld string) float64 { return byTLD[tld][0] / byTLD[tld][1] }
		add(".com changes more than .edu", rate("com")-rate("edu"))
		add(".com changes more than .gov", rate("com")-rate("gov"))
		logSize := make([]float64, n)
		for p, s := range d.Features["size"] {
			logSize[p] = math.Log1p(s)
		}
		add("bigger pages change more (correlation)", correlation(logSize, changes))
		add("pages with more images change more (correlation)", correlation(d.Features["images"], changes))
		// Shallow pages (few "/") change more.
		depth := make([]float64, n)
		for p, pg := range d.Pages {
			depth[p] = -float64(strings.Count(pg.URL, "/"))
		}
		add("shallower pages change more (correlation)", correlation(depth, changes))
		// Pages that change often change much: the text of the next
		// version is less similar to the first.
		drop := make([]float64, n)
		for p := range drop {
			drop[p] = 1 - d.Content.Similarity(int32(p), 0, 1)
		}
		add("frequent changers change much (correlation)", correlation(changes, drop))
		// Genres: pages under /news/ change more than under /archive/.
		var news, archive [2]float64
		for p, pg := range d.Pages {
			switch {
			case strings.Contains(pg.URL, "/news/"):
				news[0], news[1] = news[0]+changes[p], news[1]+1
			case strings.Contains(pg.URL, "/archive/"):
				archive[0], archive[1] = archive[0]+changes[p], archive[1]+1
			}
		}
		add("news/ pages change more than archive/", news[0]/news[1]-archive[0]/archive[1])
	}
	names := make([]string, 0, len(stats))
	for name := range stats {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		xs := stats[name]
		var sum, ss float64
		for _, x := range xs {
			sum += x
		}
		mean := sum / seeds
		for _, x := range xs {
			ss += (x - mean) * (x - mean)
		}
		se := math.Sqrt(ss/(seeds-1)) / math.Sqrt(seeds)
		if mean <= 4*se {
			t.Errorf("%s: mean %.4f over %d seeds is not above 4·SE = %.4f", name, mean, seeds, 4*se)
		}
		t.Logf("%-50s %.4f (SE %.4f, %.0f SE)", name, mean, se, mean/se)
	}
}

func correlation(x, y []float64) float64 {
	n := float64(len(x))
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx, my = mx/n, my/n
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

// TestTanContent checks the content model: version 0 is the static
// features, versions are functions of (page, version), a version is
// identical to itself and less similar the further apart.
func TestTanContent(t *testing.T) {
	d := TanWebArchiveSmall(7)
	c := d.Content
	attrs := c.Attributes()
	out, again := make([]float64, len(attrs)), make([]float64, len(attrs))
	for _, p := range []int32{0, 1, 4999, 9999} {
		c.Version(p, 0, out)
		for a, name := range attrs {
			var want float64
			switch name {
			case "outlinks":
				want = float64(len(d.Links[p]))
			case "inlinks", "pagerank":
				continue
			default:
				want = d.Features[name][p]
			}
			if out[a] != want {
				t.Errorf("page %d, version 0: %s = %v, want %v", p, name, out[a], want)
			}
		}
		for v := int32(1); v < 5; v++ {
			c.Version(p, v, out)
			c.Version(p, v, again)
			if !slices.Equal(out, again) {
				t.Errorf("page %d, version %d differs between two calls", p, v)
			}
			for a, x := range out {
				if x < 0 || math.IsNaN(x) {
					t.Errorf("page %d, version %d: %s = %v", p, v, attrs[a], x)
				}
			}
		}
		if c.Similarity(p, 3, 3) != 1 {
			t.Errorf("page %d: a version is not identical to itself", p)
		}
		s1, s2 := c.Similarity(p, 0, 1), c.Similarity(p, 0, 2)
		if !(s1 > 0 && s1 < 1 && s2 < s1 && c.Similarity(p, 1, 0) == s1) {
			t.Errorf("page %d: similarities %v, %v", p, s1, s2)
		}
	}
}

func TestTanDeterministic(t *testing.T) {
	a, b, c := TanWebArchiveSmall(42), TanWebArchiveSmall(42), TanWebArchiveSmall(43)
	if !reflect.DeepEqual(a.Pages, b.Pages) || !reflect.DeepEqual(a.Truth, b.Truth) || !reflect.DeepEqual(a.Features, b.Features) ||
		!reflect.DeepEqual(a.Terms, b.Terms) || !reflect.DeepEqual(a.Links, b.Links) || a.Info != b.Info {
		t.Error("seed 42 gave two different datasets")
	}
	if reflect.DeepEqual(a.Truth.Changed, c.Truth.Changed) {
		t.Error("seeds 42 and 43 gave the same changes")
	}
}

// tanHash is the FNV-1a hash of everything TanWebArchiveSmall(20260101)
// holds (pages, sites, features, terms, links, the truth with its times,
// and the content of the first versions of every hundredth page), written
// natively on amd64. The generator uses only platform-independent math,
// so WebAssembly must give the same bits.
const tanHash = 0x11e8d4f1e3b40fa7

// TestTanSameBitsEverywhere checks tanHash.
func TestTanSameBitsEverywhere(t *testing.T) {
	d := TanWebArchiveSmall(20260101)
	h := fnv.New64a()
	w := func(xs ...any) {
		for _, x := range xs {
			binary.Write(h, binary.LittleEndian, x)
		}
	}
	for _, p := range d.Pages {
		h.Write([]byte(p.URL))
		w(p.Site)
	}
	for _, s := range d.Sites {
		h.Write([]byte(s))
	}
	for _, name := range []string{"emails", "images", "size", "tables", "words"} {
		w(d.Features[name])
	}
	for p := range d.Pages {
		w(d.Terms[p], d.Links[p])
	}
	for c := range d.Truth.Changed {
		w(d.Truth.Changed[c], d.Truth.First[c])
	}
	out := make([]float64, len(d.Content.Attributes()))
	for p := int32(0); p < int32(len(d.Pages)); p += 100 {
		for v := int32(0); v < 4; v++ {
			d.Content.Version(p, v, out)
			w(out, d.Content.Similarity(p, 0, v))
		}
	}
	if got := h.Sum64(); got != tanHash {
		t.Errorf("hash %#x, want %#x", got, uint64(tanHash))
	}
}

func BenchmarkTanWebArchive(b *testing.B) {
	for b.Loop() {
		TanWebArchive(uint64(b.N))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/TanPages, "ns/page")
}

func BenchmarkTanWebArchiveSmall(b *testing.B) {
	for b.Loop() {
		TanWebArchiveSmall(uint64(b.N))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/TanSmallPages, "ns/page")
}
