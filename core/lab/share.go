package lab

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// Two labs can share a expensive run. In the browser each lab is one Go instance
// in one Web Worker, and a machine with two cores can run two: the first
// splits the run's policies between itself and the second (Split), each
// computes its part, the second hands its results over (Export, Import),
// and the first then runs the whole spec from what it remembers. The result
// is the same however the work was shared, to the last digit: a policy's
// numbers depend only on the dataset, budget, cycles, repeats, seed and its
// own id and parameters (remembered, Stream).

// SplitMin is the least a run's policies must be expected to cost before
// Split shares them: below it, the two messages between threads and the
// helper's results in JSON cost about what sharing saves.
var SplitMin = 40 * time.Millisecond

// costKey is what a policy's cost per repeat is remembered by: its cost
// hardly depends on the budget or seed, so the latest measurement at any
// of them prices the next.
type costKey struct {
	dataset string
	cycles  int
	policy  string
	params  string
}

func (k ranKey) cost() costKey { return costKey{k.Dataset, k.Cycles, k.Policy, k.Params} }

// noteCost records that computing the policy of k took d (what the policy
// derives from the repository alone, built once per lab, left out).
func (l *Lab) noteCost(k ranKey, d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cost.put(k.cost(), d/time.Duration(max(1, k.Repeats)))
}

// timedMemo is memoFor(id) adding the time spent building values to
// *built, so that a policy's cost leaves out what later runs reuse. A
// build that builds other values (the combined feature set's codebook
// needs the static features) is timed once, as a whole: timing the inner
// builds too counted them twice, and made the policy's cost negative.
// (One policy's builds run on one goroutine, so depth needs no lock.)
func (l *Lab) timedMemo(id string, built *time.Duration) func(string, func() (any, error)) (any, error) {
	memo := l.memoFor(id)
	depth := 0
	return func(key string, build func() (any, error)) (any, error) {
		return memo(key, func() (any, error) {
			depth++
			defer func() { depth-- }()
			if depth > 1 {
				return build()
			}
			t := time.Now()
			defer func() { *built += time.Since(t) }()
			return build()
		})
	}
}

// Split divides the policies of a refresh spec that the lab has yet to
// compute into two specs, mine and theirs, of about equal expected cost
// (longest first, each to the lighter part), and reports whether sharing
// them is worth it: the spec runs on a bundled dataset (the other lab
// builds the same one; an upload lives in this lab alone), has no sweep,
// every policy's cost is known from an earlier run, together they are
// expected to cost at least SplitMin, and no part takes more than 85% of
// it. Policies the lab remembers belong to neither part.
func (l *Lab) Split(spec Spec) (mine, theirs Spec, ok bool) {
	spec, keys, err := l.distinctKeys(spec)
	if err != nil || spec.Sweep != nil || !l.IsBundled(spec.Dataset.ID) {
		return mine, theirs, false
	}
	type job struct {
		i    int
		cost time.Duration
	}
	var jobs []job
	var total time.Duration
	l.mu.Lock()
	for _, k := range keys {
		if _, done := l.ran.get(k.ranKey); done {
			continue
		}
		c, known := l.cost.get(k.cost())
		if !known {
			l.mu.Unlock()
			return mine, theirs, false
		}
		c *= time.Duration(spec.Repeats)
		jobs = append(jobs, job{k.i, c})
		total += c
	}
	l.mu.Unlock()
	if total < SplitMin || len(jobs) < 2 {
		return mine, theirs, false
	}
	slices.SortStableFunc(jobs, func(a, b job) int { return cmp.Compare(b.cost, a.cost) })
	var load [2]time.Duration
	var part [2][]int
	for _, j := range jobs {
		s := 0
		if load[1] < load[0] {
			s = 1
		}
		load[s] += j.cost
		part[s] = append(part[s], j.i)
	}
	if max(load[0], load[1]) > total*85/100 {
		return mine, theirs, false
	}
	pick := func(ix []int) Spec {
		slices.Sort(ix)
		s := spec
		s.Policies = make([]PolicySpec, len(ix))
		for n, i := range ix {
			s.Policies[n] = spec.Policies[i]
		}
		return s
	}
	return pick(part[0]), pick(part[1]), true
}

// keyOf is ranKey of policy i of the resolved spec.
func keyOf(dataset string, spec Spec, i int) (ranKey, error) {
	params, err := json.Marshal(spec.Policies[i].Params) // map keys sorted
	if err != nil {
		return ranKey{}, err
	}
	return ranKey{dataset + spec.Dataset.variant(), spec.Budget, spec.Cycles, spec.Repeats, spec.Seed, spec.Policies[i].ID, string(params)}, nil
}

// shared is one policy result handed from one lab to another (Export):
// its key's fields, what it cost and the result, in one JSON object.
type shared struct {
	ranKey
	Cost   time.Duration `json:"costNs"` // per repeat
	Result PolicyResult  `json:"result"`
}

// Export returns, in JSON for Import, the results the lab remembers of
// spec's policies and what each cost: after Run(spec), all of them but
// those too big to remember (MaxRanSites).
func (l *Lab) Export(spec Spec) ([]byte, error) {
	_, keys, err := l.distinctKeys(spec)
	if err != nil {
		return nil, err
	}
	out := []shared{}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range keys {
		pr, ok := l.ran.get(k.ranKey)
		if !ok {
			continue
		}
		c, _ := l.cost.get(k.cost())
		out = append(out, shared{k.ranKey, c, pr})
	}
	return json.Marshal(out)
}

// keyAt is the ranKey of policy i of a spec.
type keyAt struct {
	ranKey
	i int
}

// distinctKeys resolves a refresh spec and returns the ranKey of each of
// its policies but the copies (sameAs), whose results are their first's.
func (l *Lab) distinctKeys(spec Spec) (Spec, []keyAt, error) {
	spec, d, err := l.Resolve(spec)
	if err != nil {
		return spec, nil, err
	}
	if spec.Kind != KindRefresh {
		return spec, nil, fmt.Errorf("lab: only refresh runs are shared, not %q", spec.Kind)
	}
	var keys []keyAt
	for i, ps := range spec.Policies {
		if sameAs(spec.Policies[:i], ps) >= 0 {
			continue
		}
		k, err := keyOf(d.Info.ID, spec, i)
		if err != nil {
			return spec, nil, err
		}
		keys = append(keys, keyAt{k, i})
	}
	return spec, keys, nil
}

// Import remembers the results another lab exported (Export), as if this
// lab had computed them, so that a run of their spec reuses them. They must
// be of bundled datasets.
func (l *Lab) Import(data []byte) error {
	var in []shared
	if err := json.Unmarshal(data, &in); err != nil {
		return fmt.Errorf("lab: shared results: %w", err)
	}
	for _, s := range in {
		if !l.IsBundled(s.Dataset) {
			return fmt.Errorf("lab: shared results of %q, not a bundled dataset", s.Dataset)
		}
		if s.Result.ID != s.Policy {
			return fmt.Errorf("lab: a shared result of %q filed under %q", s.Result.ID, s.Policy)
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range in {
		l.ran.put(s.ranKey, s.Result)
		if s.Cost > 0 {
			l.cost.put(s.cost(), s.Cost)
		}
	}
	return nil
}
