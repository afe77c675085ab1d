package synth

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"slices"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/internal/detmath"
	"github.com/refreshlab/refreshlab/core/monitor"
	"github.com/refreshlab/refreshlab/core/stat"
)

// PandeyCAMConfig are the parameters of the pandey-cam generator: the
// synthetic setting of Pandey, Ramamritham & Chakrabarti (WWW 2003) §5.1.
// Each field's JSON name is the name Check's errors give it.
// Where the paper gives a value it is the default, cited; where it gives
// none the default is ours and says so. Every relation between weights,
// change rates, update probabilities and sizes in the data is one of these,
// built in on purpose (datasets/README.md lists them).
type PandeyCAMConfig struct {
	// Queries is N_q, the continuous queries: 500 (§5.1 item 1). Every
	// query has the same importance ω_j = 1 (item 6).
	Queries int `json:"queries"`
	// Pages is N, the pages relevant to them: 500 (item 2).
	Pages int `json:"pages"`
	// Instants is |U|, the update instants of an epoch, at uniform gaps
	// and shared by every page: 480 (item 5).
	Instants int `json:"instants"`
	// Epoch is T in seconds: 900, the 15 minutes of item 3's example (it
	// only names the dataset's time; no result depends on it).
	Epoch float64 `json:"epoch"`
	// Changes is Σ_i λ_i, the changes expected of all pages in an epoch:
	// 100, ours. The paper gives the budget (1,000 to 50,000 tasks) and the
	// monitoring-to-change ratio (9 in §5.3, 20 in §5.5), not the number of
	// changes; 100 keeps the busiest page's λ (61 at θ = 2) well below the
	// most the clip allows (RhoMax·Instants = 144), so its profile keeps
	// its humps.
	Changes float64 `json:"changes"`
	// RateSkew is θ: λ_i ∝ (i+1)^−θ, page 0 changing most, "a Zipf
	// distribution with parameters N and θ" (item 4): 2, the paper's
	// default; 0 gives every page the same λ.
	RateSkew float64 `json:"rateSkew"`
	// RhoMax clips every update probability: 0.3 (item 5).
	RhoMax float64 `json:"rhoMax"`
	// Profile is how a page's λ spreads over the instants: "humps" (item 5)
	// or "uniform", ρ_{i,j} = λ_i/Instants at every instant (§5.2.1's
	// "uniform update probability distribution").
	Profile string `json:"profile"`
	// UpdateSkew is the Zipf parameter of the update probability
	// distribution (item 5; §5.3 varies it from 0 to 2): 1, the setting of
	// §5.2.2, §5.5 and §5.6. A page's instants take values on a ladder of
	// Levels steps, step k (k/Levels of the top) drawn with probability
	// ∝ k^−UpdateSkew, so low values are the commonest ("biases them toward
	// lower values"); at 0 every value is as common as any other, which is
	// §5.3's reading of 0 ("all update probability values occur equal
	// number of times"), not a flat profile.
	UpdateSkew float64 `json:"updateSkew"`
	// Levels is the number of steps of that ladder; 0 means Instants
	// (ours: as fine as the instants allow).
	Levels int `json:"levels"`
	// Humps is the number of humps in each page's profile: 4, ours (item
	// 5 has "many humps" of a quasi-deterministic news site and no number).
	// Each hump is centred on a random instant; a page's values are laid
	// out largest nearest a centre, so each hump falls off from its peak
	// as the ladder's values do ("probability varying in the vicinity of
	// every hump in Zipf fashion"). The profile is then scaled to sum to
	// λ_i and clipped at RhoMax, the clipped excess spread over the other
	// instants in proportion to their values, so that it still sums to λ_i.
	Humps int `json:"humps"`
	// WeightSkew is the Zipf parameter of the page weights, W ∝ rank^−s:
	// 0 (uniform, §5.2.1–5.2.2, the default) to 2; §5.2.3 skews them.
	WeightSkew float64 `json:"weightSkew"`
	// WeightOrder says which pages weigh most: "dynamic" (the more dynamic
	// pages are more relevant, item 7: weight rank = change rank), "random"
	// (ranks shuffled) or "static" (the least dynamic weigh most, the case
	// where weighted proportional can lose to weighted uniform).
	WeightOrder string `json:"weightOrder"`
	// QueriesPerPage is how many queries each page is relevant to, drawn
	// uniformly: 5, ours. A page's weight is split over them in random
	// shares (r_{i,j}), so W_i = Σ_j ω_j r_{i,j} is its weight exactly.
	QueriesPerPage int `json:"queriesPerPage"`
	// Document sizes in bytes (§5.6, Fig. 15: heavy-tailed; ours, in the
	// shape of measured web file sizes): a log-normal body of median
	// SizeMedian and log-standard deviation SizeSigma, and with probability
	// TailShare a Pareto tail from TailMin of index TailAlpha, capped at
	// SizeMax. The more popular pages get the smaller sizes (§5.6, after
	// Cunha et al.): sizes are sorted and dealt out by popularity (weight,
	// then change rank).
	SizeMedian float64 `json:"sizeMedian"`
	SizeSigma  float64 `json:"sizeSigma"`
	TailShare  float64 `json:"tailShare"`
	TailMin    float64 `json:"tailMin"`
	TailAlpha  float64 `json:"tailAlpha"`
	SizeMax    float64 `json:"sizeMax"`
	// Epochs is the number of epochs of changes the dataset view draws.
	Epochs int `json:"epochs"`
}

// PandeyCAMDefault is the bundled pandey-cam: §5.1's values where it has
// them, ours (documented above) where it has none.
var PandeyCAMDefault = PandeyCAMConfig{
	Queries: 500, Pages: 500, Instants: 480, Epoch: 900,
	Changes: 100, RateSkew: 2, RhoMax: 0.3,
	Profile: "humps", UpdateSkew: 1, Levels: 0, Humps: 4,
	WeightSkew: 0, WeightOrder: "dynamic", QueriesPerPage: 5,
	SizeMedian: 10000, SizeSigma: 1, TailShare: 0.07, TailMin: 100000, TailAlpha: 1.2, SizeMax: 10e6,
	Epochs: 20,
}

// Check reports the first parameter out of range, naming it.
func (c PandeyCAMConfig) Check() error {
	bad := func(field string, v any, want string) error {
		return fmt.Errorf("pandey-cam: %s = %v: expected %s", field, v, want)
	}
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case c.Queries < 1 || c.Queries > 1_000_000:
		return bad("queries", c.Queries, "1 to 1,000,000")
	case c.Pages < 1 || c.Pages > 1_000_000:
		return bad("pages", c.Pages, "1 to 1,000,000")
	case c.Instants < 1 || c.Instants > 100_000:
		return bad("instants", c.Instants, "1 to 100,000")
	case c.Pages*c.Instants > 50_000_000:
		return bad("pages × instants", c.Pages*c.Instants, "at most 50,000,000")
	case !(c.Epoch > 0) || !finite(c.Epoch):
		return bad("epoch", c.Epoch, "a positive number of seconds")
	case !(c.RhoMax > 0 && c.RhoMax <= 1):
		return bad("rhoMax", c.RhoMax, "a probability in (0, 1]")
	case !(c.Changes >= 0) || !finite(c.Changes):
		return bad("changes", c.Changes, "a number ≥ 0")
	case !(c.RateSkew >= 0 && c.RateSkew <= 10):
		return bad("rateSkew", c.RateSkew, "0 to 10")
	case c.Profile != "humps" && c.Profile != "uniform":
		return bad("profile", c.Profile, `"humps" or "uniform"`)
	case !(c.UpdateSkew >= 0 && c.UpdateSkew <= 10):
		return bad("updateSkew", c.UpdateSkew, "0 to 10")
	case c.Levels < 0 || c.Levels > 1_000_000:
		return bad("levels", c.Levels, "0 (as many as instants) to 1,000,000")
	case c.Humps < 1 || c.Humps > c.Instants:
		return bad("humps", c.Humps, fmt.Sprintf("1 to the number of instants (%d)", c.Instants))
	case !(c.WeightSkew >= 0 && c.WeightSkew <= 10):
		return bad("weightSkew", c.WeightSkew, "0 to 10")
	case c.WeightOrder != "dynamic" && c.WeightOrder != "random" && c.WeightOrder != "static":
		return bad("weightOrder", c.WeightOrder, `"dynamic", "random" or "static"`)
	case c.QueriesPerPage < 1 || c.QueriesPerPage > c.Queries:
		return bad("queriesPerPage", c.QueriesPerPage, fmt.Sprintf("1 to the number of queries (%d)", c.Queries))
	case !(c.SizeMedian > 0) || !finite(c.SizeMedian):
		return bad("sizeMedian", c.SizeMedian, "a positive number of bytes")
	case !(c.SizeSigma >= 0 && c.SizeSigma <= 5):
		return bad("sizeSigma", c.SizeSigma, "0 to 5")
	case !(c.TailShare >= 0 && c.TailShare <= 1):
		return bad("tailShare", c.TailShare, "a share in [0, 1]")
	case !(c.TailMin > 0) || !finite(c.TailMin):
		return bad("tailMin", c.TailMin, "a positive number of bytes")
	case !(c.TailAlpha >= 0.5 && c.TailAlpha <= 10):
		return bad("tailAlpha", c.TailAlpha, "0.5 to 10")
	case !(c.SizeMax >= c.SizeMedian && c.SizeMax >= c.TailMin) || !finite(c.SizeMax):
		return bad("sizeMax", c.SizeMax, "a number of bytes at least sizeMedian and tailMin")
	case c.Epochs < 1 || c.Epochs*c.Instants > 1_000_000:
		return bad("epochs", c.Epochs, fmt.Sprintf("1 to %d (a million instants in all)", 1_000_000/c.Instants))
	}
	if top := c.Changes / zipfSum(c.Pages, c.RateSkew); top > c.RhoMax*float64(c.Instants) {
		return fmt.Errorf("pandey-cam: changes = %v: the busiest page would change %.4g times an epoch, more than rhoMax × instants = %v allows; "+
			"expected at most %.6g changes at rateSkew %v", c.Changes, top, c.RhoMax*float64(c.Instants), c.RhoMax*float64(c.Instants)*zipfSum(c.Pages, c.RateSkew), c.RateSkew)
	}
	return nil
}

// PandeyCAMModel is one draw of the generator: the CAM instance the
// policies plan with in §5.2–5.4 (weights, instants and the true ρ), the
// queries behind the weights, and the document sizes of §5.6.
type PandeyCAMModel struct {
	Config   PandeyCAMConfig
	Instance monitor.Instance
	// Importance is ω_j per query (all 1); Relevance the r_{i,j}.
	Importance []float64
	Relevance  monitor.Relevance
	// Size is each page's document size in bytes.
	Size []float64
}

// zipf returns k^−s for k ≥ 1, the same bits natively and in WebAssembly.
func zipf(k int, s float64) float64 {
	if s == 0 {
		return 1
	}
	return detmath.Exp(-s * detmath.Log(float64(k)))
}

// zipfSum returns Σ_{k=1..n} k^−s.
func zipfSum(n int, s float64) float64 {
	var t float64
	for k := n; k >= 1; k-- { // smallest terms first
		t += zipf(k, s)
	}
	return t
}

// PandeyCAMWith draws a pandey-cam model from seed. Page i is the (i+1)-th
// most dynamic: λ_i = Changes·(i+1)^−θ / Σ_k k^−θ.
func PandeyCAMWith(seed uint64, c PandeyCAMConfig) (*PandeyCAMModel, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	rng := newRand(seed, "pandey-cam")
	N, p := c.Pages, c.Instants
	lambda := make([]float64, N)
	z := zipfSum(N, c.RateSkew)
	for i := range lambda {
		lambda[i] = c.Changes * zipf(i+1, c.RateSkew) / z
	}

	// Weights: Zipf over a rank set by the order, split over queries.
	rank := make([]int, N)
	for i := range rank {
		switch c.WeightOrder {
		case "dynamic":
			rank[i] = i + 1
		case "static":
			rank[i] = N - i
		}
	}
	if c.WeightOrder == "random" {
		for i, r := range rng.Perm(N) {
			rank[i] = r + 1
		}
	}
	m := &PandeyCAMModel{Config: c, Importance: make([]float64, c.Queries), Relevance: make(monitor.Relevance, N)}
	for j := range m.Importance {
		m.Importance[j] = 1
	}
	const units = 1 << 20 // shares are multiples of 2^-20, so equal weights sum exactly
	for i := range N {
		target := zipf(rank[i], c.WeightSkew)
		qs := rng.Perm(c.Queries)[:c.QueriesPerPage]
		slices.Sort(qs)
		cuts := make([]int, 0, c.QueriesPerPage+1)
		for len(cuts) < c.QueriesPerPage-1 {
			if x := 1 + rng.IntN(units-1); !slices.Contains(cuts, x) {
				cuts = append(cuts, x)
			}
		}
		cuts = append(cuts, 0, units)
		slices.Sort(cuts)
		for k, q := range qs {
			share := float64(cuts[k+1]-cuts[k]) / units
			m.Relevance[i] = append(m.Relevance[i], monitor.Rel{Query: int32(q), R: target * share})
		}
	}
	w, err := monitor.Weights(m.Importance, m.Relevance)
	if err != nil {
		return nil, err
	}

	// Update probabilities.
	rho := make([][]float64, N)
	levels := c.Levels
	if levels == 0 {
		levels = p
	}
	cum := make([]float64, levels) // cumulative ladder weights
	var acc float64
	for k := range cum {
		acc += zipf(k+1, c.UpdateSkew)
		cum[k] = acc
	}
	vals := make([]float64, p)
	pos := make([]int, p)
	dist := make([]int, p)
	key := make([]float64, p)
	centres := make([]int, c.Humps)
	for i := range N {
		row := make([]float64, p)
		rho[i] = row
		if c.Profile == "uniform" {
			for j := range row {
				row[j] = lambda[i] / float64(p)
			}
			continue
		}
		for j := range vals {
			u := rng.Float64() * acc
			k, edge := slices.BinarySearch(cum, u) // the first step whose cumulative weight reaches u
			if edge {
				k++ // u sits on that step's upper edge: it belongs to the next
			}
			vals[j] = float64(k+1) / float64(levels)
		}
		slices.SortFunc(vals, func(a, b float64) int { return cmp.Compare(b, a) })
		for h := range centres {
			centres[h] = rng.IntN(p)
		}
		for j := range pos {
			pos[j] = j
			d := p
			for _, ce := range centres {
				a := j - ce
				if a < 0 {
					a = -a
				}
				d = min(d, a, p-a)
			}
			dist[j] = d
			key[j] = rng.Float64()
		}
		slices.SortFunc(pos, func(a, b int) int {
			if c := cmp.Compare(dist[a], dist[b]); c != 0 {
				return c
			}
			return cmp.Compare(key[a], key[b])
		})
		s, t := clipScale(vals, lambda[i], c.RhoMax)
		for r, j := range pos {
			if r < t {
				row[j] = c.RhoMax
			} else {
				row[j] = min(s*vals[r], c.RhoMax)
			}
		}
	}
	m.Instance = monitor.Instance{T: c.Epoch, Times: monitor.UniformTimes(c.Epoch, p), Weight: w, Rho: rho}

	// Sizes: drawn, sorted, the smallest to the most popular pages.
	m.Size = make([]float64, N)
	for i := range m.Size {
		if rng.Float64() < c.TailShare {
			u := 1 - rng.Float64() // (0, 1]
			m.Size[i] = c.TailMin * detmath.Exp(-detmath.Log(u)/c.TailAlpha)
		} else {
			u := (float64(rng.Uint64()>>11) + 0.5) / (1 << 53) // (0, 1)
			m.Size[i] = c.SizeMedian * detmath.Exp(c.SizeSigma*stat.NormalQuantile(u))
		}
		m.Size[i] = min(m.Size[i], c.SizeMax)
	}
	slices.Sort(m.Size)
	byPopularity := make([]int, N)
	for i := range byPopularity {
		byPopularity[i] = i
	}
	slices.SortStableFunc(byPopularity, func(a, b int) int { return cmp.Compare(w[b], w[a]) })
	sizes := slices.Clone(m.Size)
	for r, i := range byPopularity {
		m.Size[i] = sizes[r]
	}
	return m, nil
}

// clipScale finds the scale s and the number t of largest values clipped
// such that Σ_r min(s·v_r, max) = λ over v sorted descending: the t
// largest at max, the rest at s·v_r < max. It needs λ ≤ max·len(v).
func clipScale(v []float64, lambda, max float64) (s float64, t int) {
	rest := make([]float64, len(v)+1) // rest[t] = Σ_{r ≥ t} v_r
	for r := len(v) - 1; r >= 0; r-- {
		rest[r] = rest[r+1] + v[r]
	}
	for t = 0; t < len(v); t++ {
		s = (lambda - float64(t)*max) / rest[t]
		if s*v[t] <= max {
			return s, t
		}
	}
	return 0, len(v)
}

// PandeyCAM builds the bundled pandey-cam dataset (PandeyCAMDefault) from
// seed: see PandeyCAMModel.Dataset.
func PandeyCAM(seed uint64) *dataset.Dataset {
	m, err := PandeyCAMWith(seed, PandeyCAMDefault)
	if err != nil {
		panic("synth: pandey-cam: " + err.Error()) // the defaults are valid
	}
	return m.Dataset(seed)
}

// Dataset is the model as a lab dataset: its pages on one site, a cycle
// per update instant (Epoch/Instants seconds) for Config.Epochs epochs, the
// changes drawn from seed by the coins of §5.1 (monitor.Coins), each at its
// instant, the end of its cycle. The features are monitor.FeatureWeight
// (W_i) and "size" (bytes), what a monitor knows of a page before it
// tracks it. The update probabilities are not in the dataset: they are the
// generator's parameters, which the monitor kind takes from the model
// directly (the paper's setting) or estimates from these changes in a
// tracking phase (monitor.FromEvents); Truth.Rates stays nil because its
// rates are Poisson rates, and these changes are not Poisson.
func (m *PandeyCAMModel) Dataset(seed uint64) *dataset.Dataset {
	c := m.Config
	N, p := c.Pages, c.Instants
	b := newBuilder(c.info(), c.Epochs*p, true)
	site := b.site("pandey-cam.example")
	for i := range N {
		b.page(fmt.Sprintf("https://pandey-cam.example/page-%03d", i+1), site)
	}
	b.d.Features = map[string][]float64{monitor.FeatureWeight: slices.Clone(m.Instance.Weight), "size": slices.Clone(m.Size)}
	rng := newRand(seed, "pandey-cam-changes")
	coins := monitor.Coins(m.Instance.Rho)
	ch := make([][]int32, N)
	for e := range c.Epochs {
		coins.Changes(e, rng, ch)
		for i, js := range ch {
			for _, j := range js {
				cyc := e*p + int(j)
				b.change(cyc, int32(i), float64(cyc+1))
			}
		}
	}
	return b.finish()
}

// info is the Info of the dataset view of a model of c, without its
// counts (dataset.Finish fills them in).
func (c PandeyCAMConfig) info() dataset.Info {
	id := "pandey-cam"
	if c != PandeyCAMDefault {
		h := fnv.New64a()
		fmt.Fprintf(h, "%+v", c)
		id = fmt.Sprintf("pandey-cam-%08x", h.Sum64()>>32)
	}
	return dataset.Info{
		ID:     id,
		Name:   "Continuous queries over pages with update instants (Pandey et al. §5.1)",
		Source: "paper",
		Cite:   "Pandey, Ramamritham & Chakrabarti, Monitoring the Dynamic Web to respond to Continuous Queries (WWW 2003), §5.1",
		Description: fmt.Sprintf("%d pages relevant to %d equally important queries; epochs of %g s with %d update instants at uniform gaps; "+
			"change frequencies Zipf over pages (θ = %g, %g changes an epoch in all); update probabilities %s, clipped at %g; "+
			"page weights Zipf (skew %g, %s pages weigh most). %d epochs of changes, a cycle per instant.",
			c.Pages, c.Queries, c.Epoch, c.Instants, c.RateSkew, c.Changes, profileWords(c), c.RhoMax, c.WeightSkew, c.WeightOrder, c.Epochs),
		CycleLength: c.Epoch / float64(c.Instants),
		CycleUnit:   "instant",
	}
}

// PandeyCAMInfo is the Info of PandeyCAM's dataset, known without drawing
// it so that a catalog lists it cheaply; its change rate is the one figure
// only the draw gives, and a test of the lab's checks it against the draw.
var PandeyCAMInfo = func() dataset.Info {
	c := PandeyCAMDefault
	in := c.info()
	in.Pages, in.Sites, in.Cycles = c.Pages, 1, c.Epochs*c.Instants
	in.ChangeRate = 0.000423125
	return in
}()

// profileWords describes the update profile for the dataset's description.
func profileWords(c PandeyCAMConfig) string {
	if c.Profile == "uniform" {
		return "uniform over the instants"
	}
	return fmt.Sprintf("in %d humps with Zipf-distributed values (skew %g)", c.Humps, c.UpdateSkew)
}
