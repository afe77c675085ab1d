package synth

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/pagerank"
)

// TanDomain is one row of Table 1 of Tan et al. (WebDB 2007) §5.1: a
// top-level domain, its URLs in the collected data and its sites.
type TanDomain struct {
	TLD   string
	URLs  int
	Sites int
}

// TanTable1 is Table 1 of Tan et al. §5.1 (the 706 "misc." URLs of its
// 284,692 have no domain and no site, so they are left out).
var TanTable1 = []TanDomain{
	{"edu", 107204, 68},
	{"com", 100725, 92},
	{"gov", 38696, 23},
	{"org", 22391, 16},
	{"net", 12972, 12},
	{"mil", 1998, 1},
}

// The generator's parameters. None of these is a finding of the paper:
// they build in the relations §3.1 reports from earlier studies, so that
// the features have something to find (datasets/README.md lists them).
const (
	// TanPages is the size of tan-webarchive, "about 300,000 distinct
	// URLs" (§1, §5.1); TanSmallPages that of the lesson-size variant.
	TanPages      = 300000
	TanSmallPages = 10000
	// TanCycles is the monthly snapshots from Oct. 2002 to Oct. 2003.
	TanCycles = 12
	// TanTopics is the number of topics page texts are drawn from, and
	// TanVocabulary the number of words.
	TanTopics     = 40
	TanVocabulary = 3000
	// The vocabulary: TanGeneralWords words every page may use, then
	// TanGenreWords for each genre, then TanTopicWords for each topic.
	TanGeneralWords = 200
	TanGenreWords   = 20
	TanTopicWords   = 60
	// A page's text holds TanTermsPerPage distinct words: TanGeneralPerPage
	// general, TanGenrePerPage of its genre and the rest of its topic.
	TanTermsPerPage   = 12
	TanGeneralPerPage = 3
	TanGenrePerPage   = 3
	// TanGenreInURL is the share of pages whose path starts with their
	// genre's name (news/, docs/, …); the others start with their topic.
	TanGenreInURL = 0.4
	// TanSwitch is the monthly probability that a page switches between
	// its active and quiet states; TanActive and TanQuiet multiply its
	// change rate in each.
	TanSwitch = 0.15
	TanActive = 1.4
	TanQuiet  = 0.6
	// Multipliers of the change rate beyond the genre and the domain, in
	// log terms: TanSizeEffect·z(ln size) + TanImageEffect·z(√images), z
	// standardising over the pages, plus normal site, topic and page
	// effects of standard deviation TanSiteSD, TanTopicSD and TanPageSD.
	TanSizeEffect  = 0.2
	TanImageEffect = 0.2
	TanSiteSD      = 0.25
	TanTopicSD     = 0.3
	TanPageSD      = 0.35
)

// TanGenre is a kind of page. A page's genre sets the means of its
// features and its change rate, so the features predict change through it:
// the premise of §3.1 ("some characteristics of webpages are strongly
// correlated with their change frequencies") built in.
type TanGenre struct {
	Name string // also the first segment of its pages' paths
	// Rate is the monthly change rate of a page of this genre before the
	// other multipliers.
	Rate float64
	// Words is the median number of words; Images, Tables and Emails the
	// mean counts (images of HTML pages scale with √(words/Words)).
	Words                  float64
	Images, Tables, Emails float64
	MinDepth, MaxDepth     int     // path segments
	TXT, Other             float64 // shares of .txt and of other files (.pdf, .doc, .ps)
}

// TanGenres are the genres, busiest first. Shallow, large, image-rich
// news pages change most; deep archives and files least (Douglis et al.'s
// and Fetterly et al.'s observations, §3.1, as a model).
var TanGenres = []TanGenre{
	{"news", 2.5, 1500, 14, 2, 0.5, 1, 2, 0, 0},
	{"blog", 1.2, 1000, 6, 1, 0.8, 2, 3, 0, 0},
	{"products", 0.6, 700, 9, 3, 0.3, 2, 4, 0, 0.05},
	{"people", 0.25, 400, 2, 0.5, 2.5, 2, 3, 0.05, 0.05},
	{"about", 0.08, 350, 2, 0.5, 1.5, 1, 2, 0, 0.05},
	{"docs", 0.12, 600, 1, 4, 0.3, 3, 5, 0.1, 0.2},
	{"archive", 0.03, 500, 1, 1, 0.2, 4, 5, 0.1, 0.1},
	{"files", 0.02, 1000, 0, 0, 0.2, 3, 5, 0.25, 0.75},
}

// TanGenreMix is each domain's share of pages per genre (in TanGenres'
// order): .com has the most news, blogs and products, .edu people and
// documents, .gov documents and files. Each site perturbs its domain's mix
// (log-normal factors, σ = 0.5).
var TanGenreMix = map[string][8]float64{
	"com": {0.16, 0.12, 0.26, 0.04, 0.12, 0.10, 0.08, 0.12},
	"net": {0.12, 0.16, 0.16, 0.06, 0.12, 0.14, 0.12, 0.12},
	"org": {0.10, 0.10, 0.08, 0.10, 0.14, 0.16, 0.16, 0.16},
	"edu": {0.06, 0.06, 0.03, 0.26, 0.09, 0.18, 0.14, 0.18},
	"gov": {0.08, 0.02, 0.04, 0.06, 0.14, 0.24, 0.16, 0.26},
	"mil": {0.05, 0.02, 0.02, 0.10, 0.13, 0.25, 0.18, 0.25},
}

// TanTLDRate multiplies the change rate of the pages of each top-level
// domain beyond their genres: .com changes most, .gov and .edu least, as
// Fetterly et al. found (§3.1 cites them). Our numbers.
var TanTLDRate = map[string]float64{"com": 1.3, "net": 1.15, "org": 1.0, "edu": 0.8, "gov": 0.75, "mil": 0.7}

// TanWebArchiveInfo is the Info of TanWebArchive(20260101) (the lab's
// bundled seed), known without generating the 300,000 pages so that
// listing the catalog stays cheap; the lab's tests check it against the
// generated dataset.
var TanWebArchiveInfo = dataset.Info{
	ID:     "tan-webarchive",
	Name:   "Web archive, 300,000 pages on 212 sites (Tan et al. Table 1)",
	Source: "paper",
	Cite:   tanCite,
	Description: "300,000 pages on 212 sites with Table 1's top-level-domain mix, 12 monthly snapshots, page texts, URLs, links and content versions. " +
		"Change rates follow the features §3.1 reports (bigger, image-heavy, shallow and .com pages change more; .gov and .edu less): built in, not found.",
	Pages: TanPages, Sites: 212, Cycles: TanCycles, CycleLength: tanMonth, CycleUnit: "month",
	ChangeRate: 0.2785552777777778,
}

// TanWebArchiveSmallInfo is the Info of TanWebArchiveSmall(20260101).
var TanWebArchiveSmallInfo = dataset.Info{
	ID:     "tan-webarchive-small",
	Name:   "Web archive, 10,000 pages on 212 sites (lesson size)",
	Source: "paper",
	Cite:   tanCite,
	Description: "tan-webarchive's generator at lesson size: 10,000 pages on the same 212 sites and domains, 12 monthly snapshots. " +
		"Change rates follow the features §3.1 reports: built in, not found.",
	Pages: TanSmallPages, Sites: 212, Cycles: TanCycles, CycleLength: tanMonth, CycleUnit: "month",
	ChangeRate: 0.277775,
}

const (
	tanCite  = "Tan, Zhuang, Mitra & Giles, A Clustering-Based Sampling Approach for Refreshing Search Engine's Database (WebDB 2007), §3.1, §5.1 and Table 1"
	tanMonth = 2629746 // seconds in an average Gregorian month
)

// TanWebArchive rebuilds the data of Tan et al. §5.1 at its size: see
// tanWebArchive.
func TanWebArchive(seed uint64) *dataset.Dataset {
	return tanWebArchive(seed, TanWebArchiveInfo, TanPages)
}

// TanWebArchiveSmall is TanWebArchive with 10,000 pages, for lessons.
func TanWebArchiveSmall(seed uint64) *dataset.Dataset {
	return tanWebArchive(seed, TanWebArchiveSmallInfo, TanSmallPages)
}

// TanDomainPages returns how many of n pages each domain of TanTable1
// gets: n in proportion to the table's URLs, rounded by largest remainder
// (ties to the earlier row) so they sum to n.
func TanDomainPages(n int) []int {
	total := 0
	for _, d := range TanTable1 {
		total += d.URLs
	}
	w := make([]float64, len(TanTable1))
	for i, d := range TanTable1 {
		w[i] = float64(d.URLs) / float64(total)
	}
	return largestRemainder(n, w)
}

// largestRemainder splits n in proportion to w (summing to 1), each part
// floor(n·w) plus one for the largest remainders, ties to the lower index.
func largestRemainder(n int, w []float64) []int {
	out := make([]int, len(w))
	rem := make([]float64, len(w))
	given := 0
	for i, x := range w {
		q := float64(n) * x
		out[i] = int(math.Floor(q))
		rem[i] = q - float64(out[i])
		given += out[i]
	}
	for ; given < n; given++ {
		best := 0
		for i := range rem {
			if rem[i] > rem[best] {
				best = i
			}
		}
		out[best]++
		rem[best] = -1
	}
	return out
}

// e^(−mean) of the Poisson counts with fixed means: out-links beyond two
// per HTML page (5) and of other files (0.3).
var (
	expLinks      = 1 + math.Expm1(-5)
	expLinksOther = 1 + math.Expm1(-0.3)
)

// File types of §3.1's content features.
const (
	fileHTML = iota
	fileTXT
	fileOther
)

// tanWebArchive generates n pages on the 212 sites of Table 1: each
// domain has Table 1's sites and its share of the pages (TanDomainPages),
// spread over its sites by log-normal weights (σ = 0.8, at least 5 pages a
// site). Every page has
//
//   - a genre (TanGenres), drawn from its site's mix (TanGenreMix of its
//     domain, perturbed per site), and a topic: each site covers three of
//     TanTopics topics (70/20/10% of its pages); a site lists its pages
//     shallowest first;
//   - a text: TanTermsPerPage distinct words (Repository.Terms), a few from
//     the TanGeneralWords every page uses, a few of its genre's and the
//     rest of its topic's, each Zipf-distributed, so a tf·idf clustering of
//     the texts finds genres and topics;
//   - a URL https://www.SITE.TLD/[GENRE/]SECTION/…/WORD-N.EXT with the
//     genre's depth range of "/" (its genre's name first for a share
//     TanGenreInURL of pages, then its topic's section, then its topic's
//     words) and a file type (.html, or .txt, .pdf, .doc or .ps by the
//     genre's shares) in its extension;
//   - static features (Repository.Features) around its genre's means:
//     words (log-normal, σ = 0.6), size (≈ 6.2 bytes a word), images (HTML
//     only, Poisson with mean ∝ √words), tables and e-mail addresses
//     (Poisson); and out-links (Repository.Links): 2 + Poisson(5) for HTML
//     pages, Poisson(0.3) for files, 70% to pages of its own site
//     (favouring its first, shallow pages) and 30% to pages of its topic
//     elsewhere;
//   - a content model (Repository.Content): each version's attributes
//     drift around the first version's by up to ±mag and its text's cosine
//     similarity to the previous version is about 1 − mag, with mag = 0.05
//   - 0.5·(monthly change probability), so pages that change often change
//     much; versions are computed from (page, version) by hashing, not
//     stored;
//   - a change process: a Poisson process of monthly rate genre.Rate ×
//     TanTLDRate × the size, image, site, topic and page effects (see the
//     constants) × TanActive or TanQuiet as the page switches between an
//     active and a quiet state (a Markov chain, TanSwitch a month, starting
//     in either with probability ½), with the time of each month's first
//     change (Truth.First).
//
// Every draw uses math/rand/v2 and, for normal and exponential variates,
// only Log1p, Expm1, Sqrt, Sin and Cos (pure Go on every platform), so the
// dataset is the same bits natively and in WebAssembly.
func tanWebArchive(seed uint64, info dataset.Info, n int) *dataset.Dataset {
	info.Pages, info.Sites, info.Labels, info.ChangeRate = 0, 0, 0, 0
	b := newBuilder(info, TanCycles, true)
	d := b.d
	rng := newRand(seed, "tan-webarchive")
	g := &tanGen{rng: rng}
	words := tanWords()
	d.TermNames = words[:TanVocabulary:TanVocabulary]
	ng := len(TanGenres)

	// Sites: Table 1's counts, pages by log-normal weights, a genre mix
	// and three topics each.
	type siteInfo struct {
		tld    int
		topics [3]int
		first  int32 // first page
		pages  int
		rate   float64 // site effect, as a multiplier
		genres []int   // pages per genre
	}
	var sites []siteInfo
	perDomain := TanDomainPages(n)
	host := 0
	for di, dom := range TanTable1 {
		w := make([]float64, dom.Sites)
		var sum float64
		for i := range w {
			w[i] = g.logNormal(0.8)
			sum += w[i]
		}
		const minPages = 5
		spare := perDomain[di] - minPages*dom.Sites
		for i := range w {
			w[i] /= sum
		}
		sizes := largestRemainder(spare, w)
		mix := TanGenreMix[dom.TLD]
		for i := range dom.Sites {
			s := siteInfo{tld: di, pages: sizes[i] + minPages, rate: g.logNormal(TanSiteSD)}
			for j := range s.topics {
				s.topics[j] = rng.IntN(TanTopics)
			}
			gw := make([]float64, ng)
			var gs float64
			for k := range gw {
				gw[k] = mix[k] * g.logNormal(0.5)
				gs += gw[k]
			}
			for k := range gw {
				gw[k] /= gs
			}
			s.genres = largestRemainder(s.pages, gw)
			b.site("www." + words[TanVocabulary+host] + "." + dom.TLD)
			host++
			sites = append(sites, s)
		}
	}
	topicRate := make([]float64, TanTopics)
	for t := range topicRate {
		topicRate[t] = g.logNormal(TanTopicSD)
	}

	// Pages.
	d.Pages = make([]dataset.Page, 0, n)
	topic := make([]int16, n)
	genre := make([]uint8, n)
	ftype := make([]uint8, n)
	images := make([]float64, n)
	tables := make([]float64, n)
	nwords := make([]float64, n)
	size := make([]float64, n)
	emails := make([]float64, n)
	terms := make([]int32, 0, n*TanTermsPerPage)
	d.Terms = make([][]int32, n)
	url := make([]byte, 0, n*72)
	ends := make([]int, n)
	ext := [...]string{".html", ".txt", ".pdf", ".doc", ".ps"}
	// A site lists its pages by genre, shallowest genres first.
	byDepth := make([]int, ng)
	for i := range byDepth {
		byDepth[i] = i
	}
	slices.SortStableFunc(byDepth, func(a, b int) int { return TanGenres[a].MinDepth - TanGenres[b].MinDepth })
	for si := range sites {
		s := &sites[si]
		s.first = int32(len(d.Pages))
		hostName := d.Sites[si]
		j := 0
		for _, gi := range byDepth {
			gen := &TanGenres[gi]
			for range s.genres[gi] {
				p := len(d.Pages)
				genre[p] = uint8(gi)
				u := rng.Float64()
				t := s.topics[0]
				if u >= 0.9 {
					t = s.topics[2]
				} else if u >= 0.7 {
					t = s.topics[1]
				}
				topic[p] = int16(t)
				ft, e := fileHTML, 0
				switch u := rng.Float64(); {
				case u < gen.TXT:
					ft, e = fileTXT, 1
				case u < gen.TXT+gen.Other:
					ft, e = fileOther, 2+rng.IntN(3)
				}
				ftype[p] = uint8(ft)
				dp := gen.MinDepth + rng.IntN(gen.MaxDepth-gen.MinDepth+1)
				nwords[p] = max(10, math.Round(gen.Words*g.logNormal(0.6)))
				if ft == fileHTML {
					images[p] = float64(g.poisson(gen.Images * math.Sqrt(nwords[p]/gen.Words)))
					tables[p] = float64(g.poisson(gen.Tables))
				}
				size[p] = math.Round(nwords[p] * 6.2 * g.logNormal(0.15))
				emails[p] = float64(g.poisson(gen.Emails))
				// Text.
				start := len(terms)
				for len(terms)-start < TanGeneralPerPage {
					terms = addTerm(terms, start, int32(g.zipf(TanGeneralWords)))
				}
				for len(terms)-start < TanGeneralPerPage+TanGenrePerPage {
					terms = addTerm(terms, start, int32(TanGeneralWords+gi*TanGenreWords+g.zipf(TanGenreWords)))
				}
				base := TanGeneralWords + ng*TanGenreWords + t*TanTopicWords
				for len(terms)-start < TanTermsPerPage {
					terms = addTerm(terms, start, int32(base+g.zipf(TanTopicWords)))
				}
				sortInt32(terms[start:])
				d.Terms[p] = terms[start:len(terms):len(terms)]
				// URL: [/GENRE]/SECTION/WORD/…/WORD-N.EXT, dp slashes.
				url = append(url, "https://"...)
				url = append(url, hostName...)
				named := rng.Float64() < TanGenreInURL
				for k := 1; k < dp; k++ {
					url = append(url, '/')
					switch {
					case k == 1 && named:
						url = append(url, gen.Name...)
					case k == 1 || k == 2 && named:
						url = append(url, words[base]...) // the topic's section
					default:
						url = append(url, words[base+1+g.zipf(TanTopicWords-1)]...)
					}
				}
				url = append(url, '/')
				url = append(url, words[base+1+g.zipf(TanTopicWords-1)]...)
				url = append(url, '-')
				url = strconv.AppendInt(url, int64(j+1), 10)
				url = append(url, ext[e]...)
				ends[p] = len(url)
				d.Pages = append(d.Pages, dataset.Page{Site: int32(si)})
				j++
			}
		}
	}
	all := string(url)
	prev := 0
	for p := range d.Pages {
		d.Pages[p].URL = all[prev:ends[p]]
		prev = ends[p]
	}

	// Links: 70% within the site, favouring its first pages; 30% to a
	// page of the same topic anywhere.
	byTopic := make([][]int32, TanTopics)
	for p, t := range topic {
		byTopic[t] = append(byTopic[t], int32(p))
	}
	outs := make([]int, n)
	total := 0
	for p := range outs {
		switch ftype[p] {
		case fileHTML:
			outs[p] = 2 + g.poissonBelow(expLinks)
		default:
			outs[p] = g.poissonBelow(expLinksOther)
		}
		total += outs[p]
	}
	flat := make([]int32, 0, total)
	d.Links = make([][]int32, n)
	for p := range d.Links {
		s := &sites[d.Pages[p].Site]
		start := len(flat)
		for range outs[p] {
			var q int32
			if rng.Float64() < 0.7 {
				u := rng.Float64()
				q = s.first + int32(float64(s.pages)*u*u)
			} else {
				ts := byTopic[topic[p]]
				q = ts[rng.IntN(len(ts))]
			}
			flat = append(flat, q)
		}
		d.Links[p] = flat[start:len(flat):len(flat)]
	}

	d.Features = map[string][]float64{
		"words": nwords, "size": size, "images": images, "tables": tables, "emails": emails,
	}

	// Change rates.
	zSize := standardize(n, func(p int) float64 { return math.Log1p(size[p]) })
	zImg := standardize(n, func(p int) float64 { return math.Sqrt(images[p]) })
	rate := make([]float64, n)
	mag := make([]float32, n)
	for p := range rate {
		s := &sites[d.Pages[p].Site]
		m := TanGenres[genre[p]].Rate * TanTLDRate[TanTable1[s.tld].TLD] * topicRate[topic[p]] * s.rate
		x := TanSizeEffect*zSize[p] + TanImageEffect*zImg[p] + TanPageSD*g.norm()
		rate[p] = m * (1 + math.Expm1(x))
		mag[p] = float32(0.05 + 0.5*-math.Expm1(-rate[p]))
	}
	// The truth, page by page (so each cycle's list stays in page order).
	for p := range rate {
		active := rng.Float64() < 0.5
		lq, la := rate[p]*TanQuiet, rate[p]*TanActive
		qq, qa := -math.Expm1(-lq), -math.Expm1(-la) // P(a change in a month)
		for c := range TanCycles {
			if c > 0 && rng.Float64() < TanSwitch {
				active = !active
			}
			l, q := lq, qq
			if active {
				l, q = la, qa
			}
			if rng.Float64() >= q {
				continue
			}
			// The first change's time given one in (c, c+1]: the inverse
			// of the truncated exponential, −ln(1 − u·q)/λ for u in (0, 1].
			u := 1 - rng.Float64()
			t := -math.Log1p(-u*q) / l
			t = min(max(t, 1e-9), 1)
			b.change(c, int32(p), float64(c)+t)
		}
	}
	d.Content = &tanContent{
		words: nwords, size: size, images: images, tables: tables, emails: emails,
		links: d.Links, mag: mag,
	}
	return b.finish()
}

// addTerm appends t to terms unless terms[start:] has it.
func addTerm(terms []int32, start int, t int32) []int32 {
	for _, x := range terms[start:] {
		if x == t {
			return terms
		}
	}
	return append(terms, t)
}

func sortInt32(s []int32) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j-1] > s[j]; j-- {
			s[j-1], s[j] = s[j], s[j-1]
		}
	}
}

// standardize returns (f(p) − mean)/sd over p = 0..n−1 (0 when sd is 0).
func standardize(n int, f func(p int) float64) []float64 {
	out := make([]float64, n)
	var sum float64
	for p := range out {
		out[p] = f(p)
		sum += out[p]
	}
	mean := sum / float64(n)
	var ss float64
	for _, x := range out {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / float64(n))
	for p := range out {
		if sd > 0 {
			out[p] = (out[p] - mean) / sd
		} else {
			out[p] = 0
		}
	}
	return out
}

// tanGen draws the generator's variates with platform-independent math.
type tanGen struct {
	rng   *rand.Rand
	spare float64
	has   bool
	alias []*alias
}

// norm draws a standard normal variate by Box–Muller with Log1p, Sqrt and
// Cos, which are pure Go everywhere (math.Exp and math.Log are assembly
// on amd64 and may differ from WebAssembly in the last bit).
func (g *tanGen) norm() float64 {
	if g.has {
		g.has = false
		return g.spare
	}
	u := 1 - g.rng.Float64() // (0, 1]
	v := g.rng.Float64()
	r := math.Sqrt(-2 * math.Log1p(u-1))
	g.spare, g.has = r*math.Sin(2*math.Pi*v), true
	return r * math.Cos(2*math.Pi*v)
}

// logNormal draws exp(σ·N(0,1)), with exp as 1 + Expm1.
func (g *tanGen) logNormal(sigma float64) float64 { return 1 + math.Expm1(sigma*g.norm()) }

// poisson draws a Poisson variate of the given mean by multiplying
// uniforms (the means here are small), exp(−mean) as 1 + Expm1.
func (g *tanGen) poisson(mean float64) int {
	if mean <= 0 {
		return 0
	}
	return g.poissonBelow(1 + math.Expm1(-mean))
}

// poissonBelow draws a Poisson variate whose mean m has e^(−m) = limit.
func (g *tanGen) poissonBelow(limit float64) int {
	k, prod := 0, g.rng.Float64()
	for prod > limit {
		k++
		prod *= g.rng.Float64()
	}
	return k
}

// zipf draws an index in [0, n) with probability ∝ 1/(i+1) from an alias
// table (Walker's method: one uniform per draw), built once per n.
func (g *tanGen) zipf(n int) int {
	for i := range g.alias {
		if len(g.alias[i].prob) == n {
			return g.alias[i].draw(g.rng)
		}
	}
	a := newAlias(n)
	g.alias = append(g.alias, a)
	return a.draw(g.rng)
}

// alias is Walker's alias table of the Zipf distribution on n values.
type alias struct {
	prob []float64
	alt  []int32
}

func newAlias(n int) *alias {
	w := make([]float64, n)
	var s float64
	for i := range w {
		w[i] = 1 / float64(i+1)
		s += w[i]
	}
	a := &alias{prob: make([]float64, n), alt: make([]int32, n)}
	var small, large []int
	for i := range w {
		w[i] *= float64(n) / s
		if w[i] < 1 {
			small = append(small, i)
		} else {
			large = append(large, i)
		}
	}
	for len(small) > 0 && len(large) > 0 {
		l, g := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		a.prob[l], a.alt[l] = w[l], int32(g)
		w[g] -= 1 - w[l]
		if w[g] < 1 {
			large = large[:len(large)-1]
			small = append(small, g)
		}
	}
	for _, i := range append(small, large...) {
		a.prob[i], a.alt[i] = 1, int32(i)
	}
	return a
}

func (a *alias) draw(rng *rand.Rand) int {
	u := rng.Float64() * float64(len(a.prob))
	i := int(u)
	if u-float64(i) < a.prob[i] {
		return i
	}
	return int(a.alt[i])
}

// tanWords returns the generator's pseudo-words: TanVocabulary words for
// page texts, then one per site for host names. Word i spells i in base 20
// with consonant-vowel syllables, so every word is distinct and
// pronounceable ("bace", "ditolu", …).
func tanWords() []string {
	tanWordsOnce.Do(func() {
		syl := [...]string{"ba", "ce", "di", "fo", "gu", "ka", "le", "mi", "no", "pu", "ra", "se", "ti", "vo", "zu", "la", "me", "ni", "po", "ru"}
		tanWordList = make([]string, TanVocabulary+256)
		for i := range tanWordList {
			x := i + 20*20 // at least three syllables
			var w []byte
			for x > 0 {
				w = append(w, syl[x%20]...)
				x /= 20
			}
			tanWordList[i] = string(w)
		}
	})
	return tanWordList
}

var (
	tanWordsOnce sync.Once
	tanWordList  []string
)

// tanContent is the content model of tan-webarchive: version 0 of a page
// has its static features; later versions drift around them.
type tanContent struct {
	words, size, images, tables, emails []float64
	links                               [][]int32
	mag                                 []float32

	once sync.Once
	base [][8]float64 // per page: its attributes at version 0, together
}

// TanAttributes are the attributes of tan-webarchive's page versions, in
// the order dataset.Content.Version writes them.
var TanAttributes = []string{"words", "size", "images", "tables", "emails", "outlinks", "inlinks", "pagerank"}

// Attributes implements dataset.Content.
func (c *tanContent) Attributes() []string { return TanAttributes }

// first gathers every page's version-0 attributes in one array on first
// use (in-links and PageRank need the whole link graph), so that a
// version is read from one place in memory.
func (c *tanContent) first() {
	c.once.Do(func() {
		in := pagerank.InLinks(c.links)
		rank, _ := pagerank.Rank(c.links, pagerank.Options{Tol: 1e-8})
		c.base = make([][8]float64, len(c.links))
		for p := range c.base {
			c.base[p] = [8]float64{c.words[p], c.size[p], c.images[p], c.tables[p], c.emails[p],
				float64(len(c.links[p])), float64(in[p]), rank[p]}
		}
	})
}

// Version implements dataset.Content: version 0 is the page's static
// features; version v > 0 moves each attribute by a factor 1 + mag·u, u
// uniform in [−1, 1) from a hash of (page, version, attribute), counts
// rounded to whole numbers. PageRank and in-links drift with the page's
// own versions: the linking pages' changes are not modelled.
func (c *tanContent) Version(p, v int32, out []float64) {
	c.first()
	base := &c.base[p]
	if v == 0 {
		copy(out, base[:])
		return
	}
	m := float64(c.mag[p])
	for a, x := range base {
		f := 1 + m*hashUnit(p, v, int32(a))
		if a == 7 {
			out[a] = x * f
		} else {
			out[a] = math.Round(x * f)
		}
	}
}

// Similarity implements dataset.Content: from version a to b each step
// keeps a share 1 − mag·h of the text, h in [0.5, 1) hashed from the
// page and step.
func (c *tanContent) Similarity(p, a, b int32) float64 {
	if a == b {
		return 1
	}
	if a > b {
		a, b = b, a
	}
	s := 1.0
	m := float64(c.mag[p])
	for v := a + 1; v <= b; v++ {
		s *= 1 - m*(0.75+0.25*hashUnit(p, v, 99))
	}
	return s
}

// hashUnit returns a uniform value in [−1, 1) from (p, v, a) by SplitMix64.
func hashUnit(p, v, a int32) float64 {
	x := uint64(uint32(p))<<32 | uint64(uint32(v))
	x ^= uint64(uint32(a)) * 0xD6E8FEB86659FD93
	x += 0x9E3779B97F4A7C15
	x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
	x = (x ^ x>>27) * 0x94D049BB133111EB
	x ^= x >> 31
	return float64(x>>11)/(1<<52) - 1
}
