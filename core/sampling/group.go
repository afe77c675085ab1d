package sampling

import (
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
)

// Inner policies of site-grouped.
const (
	InnerGreedy       = "greedy"
	InnerProportional = "proportional"
	InnerAdaptive     = "adaptive"
)

var (
	groupsParam = param.Param{
		Name: "groups", Label: "Groups of sites", Type: param.Int, Default: 3, Step: 1,
		Help: "G: the sites are dealt into G groups and each cycle one group, in turn, gets the whole budget (Al-Qaaideh §2.8). " +
			"1 is plain site sampling; more than the number of sites counts as one group per site.",
	}.Range(1, 100000)
	innerParam = param.Param{
		Name: "inner", Label: "Sampling inside a group", Type: param.Enum, Default: InnerGreedy,
		Options:      []string{InnerGreedy, InnerProportional, InnerAdaptive},
		OptionLabels: []string{"Greedy", "Proportional", "Adaptive"},
		Help:         "The sampling policy run on the cycle's group: greedy (§2.5.3), proportional (§2.5.2) or adaptive (§2.7).",
	}
	groupSampleSizeParam = param.Param{
		Name: "sampleSize", Label: "Sample size per site", Type: param.Int, Auto: "√(N·r·G)", Step: 1,
		Help: "Pages sampled from each site of the cycle's group by the greedy and proportional inner policies. " +
			"The default is √(N·r) for the group: N pages per site, r·G the share of a group's pages the budget covers.",
	}.Range(1, 10000)
)

// GroupDescriptors lists low-resource grouping for the catalog.
func GroupDescriptors() []refresh.Descriptor {
	return []refresh.Descriptor{{
		ID: "site-grouped", Name: "Site sampling in groups",
		Cost:  30,
		Paper: "Cho & Ntoulas 2002, as in Al-Qaaideh §2.8 and Fig. 2.4",
		Summary: "Deals the sites into G groups and gives each cycle's whole budget to one group, in turn (round-robin over groups), " +
			"sampling inside it greedily, proportionally or adaptively: fewer sites per cycle get samples large enough to tell them apart.",
		Params: []param.Param{groupsParam, innerParam, groupSampleSizeParam, kappaParam, alphaParam},
		New: func(env refresh.Env) (refresh.Policy, error) {
			return NewGrouped(env), nil
		},
	}}
}

// Grouped is sampling under low download resources (Al-Qaaideh §2.8, Fig.
// 2.4, after Cho & Ntoulas): the sites are split into G groups, and cycle c
// gives its whole budget to group c mod G, running a site-sampling policy
// (greedy, proportional or adaptive) on that group's sites only. A site's
// group thus has the budget once every G cycles.
//
// How sites are assigned to groups the text leaves open ("grouping every
// 10,000 web site in a group"); our choice: the sites are shuffled once per
// run (per repeat) with the policy's random source and dealt round-robin,
// site i of the shuffle to group i mod G, so groups have equal numbers of
// sites (±1) and no group is biased by the repository's order. G larger
// than the number of sites W counts as W. If the group's pages run out
// before the budget (the inner policy downloads every page of the group),
// the rest of the budget goes to the next groups in turn, in the same
// cycle, rather than being left unspent; the next cycle still starts from
// its own group.
//
// The inner policies are the package's own (Site, Adaptive), each built
// over all sites with the lists of the sites outside its group left empty,
// so it samples and downloads only its group.
type Grouped struct {
	groups int
	greedy []*Site     // per group, for the greedy and proportional inner policies
	adapt  []*Adaptive // per group, for the adaptive one
	full   [][]int32   // each site's page list, shared by the group that holds it
	deal   []int       // sites in the order dealt to groups
	est    []float64
}

// NewGrouped builds site-grouped from env; env.Params may set groups,
// inner, sampleSize, kappa and alpha. The computed default sampleSize is
// recorded in env.Params when the inner policy uses it.
func NewGrouped(env refresh.Env) *Grouped {
	repo := env.Repo
	ns := len(repo.Sites)
	g := &Grouped{
		groups: max(1, min(env.Params.Int("groups", 3), ns)),
		full:   make([][]int32, ns), deal: make([]int, ns), est: make([]float64, ns),
	}
	for w := range ns {
		g.full[w] = make([]int32, len(repo.SitePages(w)))
	}
	switch inner := env.Params.String("inner", InnerGreedy); inner {
	case InnerAdaptive:
		g.adapt = make([]*Adaptive, g.groups)
		for i := range g.adapt {
			g.adapt[i] = newAdaptive(ns, env.Params)
		}
	default:
		alloc := Greedy
		if inner == InnerProportional {
			alloc = Proportional
		}
		size := env.Params.Int("sampleSize", 0)
		if size == 0 {
			size = DefaultSampleSize(len(repo.Pages), ns, env.Budget*g.groups)
			env.Params["sampleSize"] = float64(size)
		}
		g.greedy = make([]*Site, g.groups)
		for i := range g.greedy {
			g.greedy[i] = &Site{
				alloc: alloc, size: size, pages: make([][]int32, ns),
				order: make([]int, ns), sampled: make([]int, ns), changed: make([]int, ns),
				est: make([]float64, ns), quota: make([]int, ns), add: make([]int, ns),
			}
		}
	}
	g.Reuse(env)
	return g
}

// Reuse implements refresh.Reuser: a new deal of the sites into groups and
// the inner policies reset over them, as NewGrouped leaves them.
func (g *Grouped) Reuse(env refresh.Env) {
	for w := range g.deal {
		g.deal[w] = w
	}
	if g.groups > 1 { // one group needs no deal: then it is exactly the inner policy
		env.Rand.Shuffle(len(g.deal), func(i, j int) { g.deal[i], g.deal[j] = g.deal[j], g.deal[i] })
	}
	lists := func(group int) [][]int32 {
		var ps [][]int32
		if g.greedy != nil {
			ps = g.greedy[group].pages
		} else {
			ps = g.adapt[group].pages
		}
		for w := range ps {
			ps[w] = g.full[w][:0]
		}
		for i := group; i < len(g.deal); i += g.groups {
			w := g.deal[i]
			ps[w] = g.full[w]
		}
		return ps
	}
	for i := range g.groups {
		lists(i)
		if g.greedy != nil {
			g.greedy[i].Reuse(env)
		} else {
			g.adapt[i].Reuse(env)
		}
	}
}

// SiteEstimates implements refresh.SiteEstimator: the inner policy's
// estimates for the sites of the groups refreshed in the last cycle, -1
// for the others. The slice is shared.
func (g *Grouped) SiteEstimates() []float64 { return g.est }

// Refresh implements refresh.Policy.
func (g *Grouped) Refresh(c *refresh.Crawl) {
	for w := range g.est {
		g.est[w] = -1
	}
	first := c.Cycle() % g.groups
	for k := 0; k < g.groups && c.Remaining() > 0; k++ {
		i := (first + k) % g.groups
		var inner refresh.Policy
		var est []float64
		if g.greedy != nil {
			inner, est = g.greedy[i], g.greedy[i].est
		} else {
			inner, est = g.adapt[i], g.adapt[i].est
		}
		inner.Refresh(c)
		for j := i; j < len(g.deal); j += g.groups {
			w := g.deal[j]
			g.est[w] = est[w]
		}
	}
}
