// Package dataset holds the snapshot model every refresh experiment runs on:
// a repository of pages grouped into sites and labelled with categories, and
// the change truth that says, cycle by cycle, which pages changed at the
// source.
//
// The split between Repository and Truth is the lab's no-peeking contract:
// policies are handed a *Repository, which is what a real crawler knows;
// only the simulator and the oracle policies see the Truth.
package dataset

import (
	"encoding/binary"
	"fmt"
	"hash"
	"hash/fnv"
	"math"
	"slices"
	"sync"
)

// Page is one page in the repository.
type Page struct {
	URL    string  // the page's address or identifier, as given
	Site   int32   // index into Repository.Sites
	Labels []int32 // indexes into Repository.Labels; a page may carry several
}

// Repository is what a crawler knows about its copy of the web: pages, the
// sites they belong to and the categories they are labelled with. It holds no
// change truth.
type Repository struct {
	Pages  []Page
	Sites  []string // site names (hosts)
	Labels []string // category names; empty when the dataset has none

	// Features are optional static page features (sizes, link counts, ...),
	// one column per name, one value per page.
	Features map[string][]float64

	// Links, when not nil, lists each page's out-links as page indexes: the
	// link graph that TOPIC (Taleghani Alg. 1) and PageRank read.
	Links [][]int32

	// Terms, when not nil, lists the distinct terms each page contains, as
	// indexes into TermNames, in ascending order.
	Terms     [][]int32
	TermNames []string

	// Content, when not nil, describes what a crawler sees in each version
	// of a page. Policies read it only through the copies they download
	// (refresh.Crawl.Copy), never the source's current version.
	Content Content

	once       sync.Once
	sitePages  [][]int32
	labelPages [][]int32
}

// SitePages returns the pages of site s in ascending order. The slice is
// shared: callers must not modify it.
func (r *Repository) SitePages(s int) []int32 {
	r.index()
	return r.sitePages[s]
}

// LabelPages returns the pages labelled l in ascending order. The slice is
// shared: callers must not modify it.
func (r *Repository) LabelPages(l int) []int32 {
	r.index()
	return r.labelPages[l]
}

// index builds the per-site and per-label page lists once.
func (r *Repository) index() { r.once.Do(r.build) }

func (r *Repository) build() {
	sp := make([][]int32, len(r.Sites))
	lp := make([][]int32, len(r.Labels))
	for i, p := range r.Pages {
		sp[p.Site] = append(sp[p.Site], int32(i))
		for _, l := range p.Labels {
			lp[l] = append(lp[l], int32(i))
		}
	}
	r.sitePages, r.labelPages = sp, lp
}

// Content describes the versions of pages. Version 0 of a page is the copy
// the crawler holds at time 0; each cycle in which the page changes at the
// source makes its next version.
type Content interface {
	// Attributes names the observable attributes of a version, such as
	// "words", "images", "tables" or "size".
	Attributes() []string
	// Version writes the attributes of version v of page p into out, which
	// has one element per attribute.
	Version(p, v int32, out []float64)
	// Similarity is the cosine similarity of the texts of versions a and b
	// of page p, 1 when they are the same version.
	Similarity(p, a, b int32) float64
}

// Truth records, for each cycle, which pages changed at the source during it.
//
// Cycle c (0-based) covers the time interval (c, c+1] measured in cycles; the
// crawler's downloads for cycle c happen at its end, time c+1. A page listed
// in Changed[c] changed at least once in that interval.
type Truth struct {
	// Changed[c] lists, in ascending order and without duplicates, the pages
	// that changed during cycle c.
	Changed [][]int32

	// First, when not nil, gives for each entry of Changed the time of the
	// page's first change in that cycle, in cycles: First[c][i] is in
	// (c, c+1]. When nil, only the cycle of a change is known and age
	// assumes the change happened at the middle of the cycle.
	First [][]float64

	// Rates, when not nil, gives each page's true Poisson change rate in
	// changes per day (len(Pages) entries): the parameter a generator drew
	// the page's changes from, for experiments that compare estimates with
	// it (the estimate kind) or schedules that are given it (oracle
	// policies). Like all of Truth it is hidden from non-oracle policies.
	Rates []float64
}

// Cycles returns the number of cycles the truth covers.
func (t *Truth) Cycles() int { return len(t.Changed) }

// FirstChange returns the time of the i-th change listed for cycle c.
func (t *Truth) FirstChange(c, i int) float64 {
	if t.First == nil {
		return float64(c) + 0.5
	}
	return t.First[c][i]
}

// FeatureWeight names the page feature that carries each page's weight:
// the value of its current version to those who read the copy, W_i of
// Pandey, Ramamritham & Chakrabarti §2, lost when the page changes again
// before it is fetched. A dataset without it weighs every page alike. The
// monitor kind plans with it, and refresh runs weigh the changes they
// catch by it (refresh.Cycle.RIR).
const FeatureWeight = "weight"

// Dataset is a repository with its change truth and a description.
type Dataset struct {
	Info Info
	Repository
	Truth Truth
}

// Info describes a dataset for listings: GET /api/datasets returns these.
type Info struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Source      string  `json:"source"` // "paper", "synthetic" or "upload"
	Cite        string  `json:"cite,omitempty"`
	Description string  `json:"description,omitempty"`
	Pages       int     `json:"pages"`
	Sites       int     `json:"sites"`
	Labels      int     `json:"labels"`
	Cycles      int     `json:"cycles"`
	CycleLength float64 `json:"cycleLength"` // seconds; 0 when a cycle has no set length
	CycleUnit   string  `json:"cycleUnit"`   // how to name one cycle: "day", "month", "cycle"
	ChangeRate  float64 `json:"changeRate"`  // fraction of page-cycles with a change
}

// Finish fills the counts in d.Info from its contents and checks that the
// dataset is well formed. Generators and readers call it last.
func (d *Dataset) Finish() error {
	if err := d.Validate(); err != nil {
		return err
	}
	d.index()
	d.Info.Pages = len(d.Pages)
	d.Info.Sites = len(d.Sites)
	d.Info.Labels = len(d.Labels)
	d.Info.Cycles = d.Truth.Cycles()
	if d.Info.CycleUnit == "" {
		d.Info.CycleUnit = "cycle"
	}
	changes := 0
	for _, c := range d.Truth.Changed {
		changes += len(c)
	}
	if n := len(d.Pages) * d.Truth.Cycles(); n > 0 {
		d.Info.ChangeRate = float64(changes) / float64(n)
	}
	return nil
}

// Validate reports the first inconsistency in d, or nil.
func (d *Dataset) Validate() error {
	n := int32(len(d.Pages))
	if n == 0 {
		return fmt.Errorf("dataset %q has no pages", d.Info.ID)
	}
	if len(d.Truth.Changed) == 0 {
		return fmt.Errorf("dataset %q has no cycles", d.Info.ID)
	}
	for i, p := range d.Pages {
		if p.Site < 0 || int(p.Site) >= len(d.Sites) {
			return fmt.Errorf("page %d: site %d out of range", i, p.Site)
		}
		for _, l := range p.Labels {
			if l < 0 || int(l) >= len(d.Labels) {
				return fmt.Errorf("page %d: label %d out of range", i, l)
			}
		}
	}
	for name, col := range d.Features {
		if len(col) != len(d.Pages) {
			return fmt.Errorf("feature %q has %d values for %d pages", name, len(col), n)
		}
	}
	for i, w := range d.Features[FeatureWeight] {
		if !(w >= 0) || math.IsInf(w, 0) {
			return fmt.Errorf("feature %q: page %d's weight %v is not a finite non-negative number", FeatureWeight, i, w)
		}
	}
	if d.Links != nil {
		if len(d.Links) != len(d.Pages) {
			return fmt.Errorf("links: %d lists for %d pages", len(d.Links), n)
		}
		for i, out := range d.Links {
			for _, q := range out {
				if q < 0 || q >= n {
					return fmt.Errorf("links: page %d links to page %d, out of range", i, q)
				}
			}
		}
	}
	if d.Terms != nil {
		if len(d.Terms) != len(d.Pages) {
			return fmt.Errorf("terms: %d lists for %d pages", len(d.Terms), n)
		}
		for i, ts := range d.Terms {
			for j, t := range ts {
				if t < 0 || int(t) >= len(d.TermNames) {
					return fmt.Errorf("terms: page %d has term %d, out of range", i, t)
				}
				if j > 0 && ts[j-1] >= t {
					return fmt.Errorf("terms: page %d's terms are not ascending and distinct", i)
				}
			}
		}
	}
	if d.Truth.Rates != nil {
		if len(d.Truth.Rates) != len(d.Pages) {
			return fmt.Errorf("truth: %d rates for %d pages", len(d.Truth.Rates), n)
		}
		for i, r := range d.Truth.Rates {
			if !(r >= 0) || math.IsInf(r, 0) {
				return fmt.Errorf("truth: page %d's rate %v is not a finite non-negative number", i, r)
			}
		}
	}
	if d.Truth.First != nil && len(d.Truth.First) != len(d.Truth.Changed) {
		return fmt.Errorf("truth: %d cycles of first-change times for %d cycles", len(d.Truth.First), len(d.Truth.Changed))
	}
	for c, ch := range d.Truth.Changed {
		if !slices.IsSorted(ch) {
			return fmt.Errorf("truth: cycle %d: pages not in ascending order", c)
		}
		for i, p := range ch {
			if p < 0 || p >= n {
				return fmt.Errorf("truth: cycle %d: page %d out of range", c, p)
			}
			if i > 0 && ch[i-1] == p {
				return fmt.Errorf("truth: cycle %d: page %d listed twice", c, p)
			}
		}
		if d.Truth.First != nil {
			f := d.Truth.First[c]
			if len(f) != len(ch) {
				return fmt.Errorf("truth: cycle %d: %d first-change times for %d changes", c, len(f), len(ch))
			}
			for i, t := range f {
				if math.IsNaN(t) || t <= float64(c) || t > float64(c+1) {
					return fmt.Errorf("truth: cycle %d: first change of page %d at %v, outside (%d, %d]", c, ch[i], t, c, c+1)
				}
			}
		}
	}
	return nil
}

// uploadID names an uploaded dataset by everything that shapes it: the
// hash of the file's bytes (sum, FNV-1a as it was read) and the reading
// options as applied (how, such as the cycle length in nanoseconds), so
// that the same file read another way is another dataset, and the same
// file read the same way is the same one.
func uploadID(prefix string, sum hash.Hash64, how string) string {
	h := fnv.New64a()
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], sum.Sum64())
	h.Write(b[:])
	h.Write([]byte(how))
	return fmt.Sprintf("%s%016x", prefix, h.Sum64())[:len(prefix)+12]
}
