package lab

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/refreshlab/refreshlab/core/category"
	"github.com/refreshlab/refreshlab/core/cluster"
	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/policy"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/sampling"
	"github.com/refreshlab/refreshlab/core/schedule"
	"github.com/refreshlab/refreshlab/core/synth"
)

// Bundled is a dataset the lab generates on first use. Info is known
// without generating it, so listing the catalog stays cheap; a test checks
// it against what Build makes.
type Bundled struct {
	Info  dataset.Info
	Build func() *dataset.Dataset
}

// BundledSeed seeds every bundled generator: changing it changes the
// datasets, so it is fixed.
const BundledSeed = 20260101

// BundledDatasets lists the datasets the lab ships.
func BundledDatasets() []Bundled {
	return []Bundled{
		small(synth.TaleghaniExample),
		small(synth.AlQaaidehExample),
		small(synth.AlQaaidehJordan),
		small(synth.TopicWeb),
		{Info: synth.TanWebArchiveSmallInfo, Build: func() *dataset.Dataset { return synth.TanWebArchiveSmall(BundledSeed) }},
		{Info: synth.TanWebArchiveInfo, Build: func() *dataset.Dataset { return synth.TanWebArchive(BundledSeed) }},
		{Info: synth.GrimesFordInfo, Build: func() *dataset.Dataset { return synth.GrimesFord(BundledSeed) }},
		{Info: synth.GrimesFordTypesInfo, Build: func() *dataset.Dataset { return synth.GrimesFordTyped(BundledSeed, synth.GrimesFordTypesOptions) }},
		small(synth.ChoGarciaMolina5),
		{Info: synth.PandeyCAMInfo, Build: func() *dataset.Dataset { return synth.PandeyCAM(BundledSeed) }},
	}
}

// small bundles a dataset that is cheap enough to generate for its Info.
func small(gen func(seed uint64) *dataset.Dataset) Bundled {
	d := gen(BundledSeed)
	return Bundled{Info: d.Info, Build: func() *dataset.Dataset { return d }}
}

// Policies lists every policy of the catalog, in the order lessons and the
// upload page show them.
func Policies() []refresh.Descriptor {
	var ds []refresh.Descriptor
	for _, group := range [][]refresh.Descriptor{policy.Descriptors(), sampling.Descriptors(), sampling.AdaptiveDescriptors(), sampling.GroupDescriptors(), sampling.HybridDescriptors(), category.Descriptors(), cluster.Descriptors(), schedule.RefreshDescriptors()} {
		for _, d := range group {
			d.Kind = KindRefresh
			if d.Params == nil {
				d.Params = []param.Param{} // JSON [] rather than null: clients iterate it
			}
			ds = append(ds, d)
		}
	}
	ds = append(ds, registeredPolicies()...)
	return ds
}

// MaxUploads is how many uploaded datasets the lab keeps; the oldest goes
// first. (A server shared by many keeps each client's own within a smaller
// quota of the API's, core/api.)
const MaxUploads = 64

// Lab is the catalog and runner behind the API. It is safe for concurrent
// use.
type Lab struct {
	mu       sync.Mutex
	bundled  []Bundled
	built    map[string]*builtDataset
	uploads  []*dataset.Dataset
	policies []refresh.Descriptor
	memo     map[memoKey]*memoEntry
	ran      recent[ranKey, PolicyResult]   // see remembered
	cost     recent[costKey, time.Duration] // per repeat; see Split
	forget   bool                           // WithoutMemory
	noReuse  bool                           // build each policy afresh every repeat (tests)
}

// builtDataset is a bundled dataset, generated once on first use, outside
// the lab's lock: other requests wait for it only if they need it.
type builtDataset struct {
	once sync.Once
	d    *dataset.Dataset
}

type memoKey struct{ dataset, key string }

type memoEntry struct {
	once sync.Once
	v    any
	err  error
}

// MaxMemo bounds what the lab remembers for policies (refresh.Env.Memo);
// past it, the memory starts afresh.
const MaxMemo = 64

// memoFor returns the refresh.Env.Memo of dataset id: values built once per
// key and dataset, shared by every repeat and run.
func (l *Lab) memoFor(id string) func(string, func() (any, error)) (any, error) {
	return func(key string, build func() (any, error)) (any, error) {
		l.mu.Lock()
		if l.memo == nil || len(l.memo) >= MaxMemo {
			l.memo = map[memoKey]*memoEntry{}
		}
		k := memoKey{id, key}
		e, ok := l.memo[k]
		if !ok {
			e = &memoEntry{}
			l.memo[k] = e
		}
		l.mu.Unlock()
		e.once.Do(func() { e.v, e.err = build() })
		return e.v, e.err
	}
}

// New returns a lab with the bundled datasets and every policy, changed by
// opts.
func New(opts ...Option) *Lab {
	l := &Lab{bundled: BundledDatasets(), built: map[string]*builtDataset{}, policies: Policies()}
	l.ran.max, l.cost.max = MaxRan, MaxRan
	for _, o := range opts {
		o(l)
	}
	return l
}

// An Option changes how a Lab runs (New). A lab without options is what
// the API serves; tests switch a mechanism off to show that it changes no
// number.
type Option func(*Lab)

// WithoutMemory makes a lab compute every policy of every run afresh,
// rather than answer from the results it remembers (remembered).
func WithoutMemory() Option { return func(l *Lab) { l.forget = true } }

// Datasets lists the bundled datasets, then the uploaded ones.
func (l *Lab) Datasets() []dataset.Info {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []dataset.Info
	for _, b := range l.bundled {
		out = append(out, b.Info)
	}
	for _, d := range l.uploads {
		out = append(out, d.Info)
	}
	return out
}

// Dataset returns the dataset with the given id, generating a bundled one
// on first use (a request that needs another dataset does not wait for it).
func (l *Lab) Dataset(id string) (*dataset.Dataset, bool) {
	l.mu.Lock()
	for _, d := range l.uploads {
		if d.Info.ID == id {
			l.mu.Unlock()
			return d, true
		}
	}
	i := slices.IndexFunc(l.bundled, func(b Bundled) bool { return b.Info.ID == id })
	if i < 0 {
		l.mu.Unlock()
		return nil, false
	}
	b, ok := l.built[id]
	if !ok {
		b = &builtDataset{}
		l.built[id] = b
	}
	l.mu.Unlock()
	b.once.Do(func() { b.d = l.bundled[i].Build() })
	return b.d, true
}

// IsBundled reports whether id names a dataset the lab ships.
func (l *Lab) IsBundled(id string) bool {
	return slices.ContainsFunc(l.bundled, func(b Bundled) bool { return b.Info.ID == id })
}

// AddUpload adds an uploaded dataset, replacing one with the same id and
// dropping the oldest beyond MaxUploads.
func (l *Lab) AddUpload(d *dataset.Dataset) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.uploads = slices.DeleteFunc(l.uploads, func(u *dataset.Dataset) bool { return u.Info.ID == d.Info.ID })
	l.forgetDataset(d.Info.ID)
	l.uploads = append(l.uploads, d)
	if n := len(l.uploads) - MaxUploads; n > 0 {
		for _, gone := range l.uploads[:n] {
			l.forgetDataset(gone.Info.ID)
		}
		l.uploads = slices.Delete(l.uploads, 0, n)
	}
}

// RemoveUpload drops the uploaded dataset id, and what the lab remembers of
// it.
func (l *Lab) RemoveUpload(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.uploads = slices.DeleteFunc(l.uploads, func(u *dataset.Dataset) bool { return u.Info.ID == id })
	l.forgetDataset(id)
}

// forgetDataset drops what the lab remembers of dataset id: what policies
// derived from it and the results and costs of runs on it. l.mu is held.
func (l *Lab) forgetDataset(id string) {
	for k := range l.memo {
		if k.dataset == id {
			delete(l.memo, k)
		}
	}
	l.ran.drop(func(k ranKey) bool { return k.Dataset == id })
	l.cost.drop(func(k costKey) bool { return k.dataset == id })
}

// Policies lists the lab's policies.
func (l *Lab) Policies() []refresh.Descriptor { return l.policies }

// policyOf returns the policy id of kind (a policy without a kind is a
// refresh policy): kinds may share an id, such as the schedule and the
// monitor kinds' uniform.
func (l *Lab) policyOf(kind, id string) (refresh.Descriptor, bool) {
	i := slices.IndexFunc(l.policies, func(d refresh.Descriptor) bool { return d.ID == id && cmp.Or(d.Kind, KindRefresh) == kind })
	if i < 0 {
		return refresh.Descriptor{}, false
	}
	return l.policies[i], true
}

func (l *Lab) policy(id string) (refresh.Descriptor, bool) {
	i := slices.IndexFunc(l.policies, func(d refresh.Descriptor) bool { return d.ID == id })
	if i < 0 {
		return refresh.Descriptor{}, false
	}
	return l.policies[i], true
}

// datasetIDs lists the bundled datasets' ids, for errors: a lab shared by
// many names no upload in an answer (an upload's id is its sender's).
func (l *Lab) datasetIDs() string {
	var ids []string
	for _, b := range l.bundled {
		ids = append(ids, b.Info.ID)
	}
	return strings.Join(ids, ", ") + ", or an upload's id"
}

// policyIDsOf lists the ids of the policies of one kind.
func (l *Lab) policyIDsOf(kind string) string {
	var ids []string
	for _, d := range l.policies {
		if d.Kind == kind {
			ids = append(ids, d.ID)
		}
	}
	return strings.Join(ids, ", ")
}

func (l *Lab) policyIDs() string {
	var ids []string
	for _, d := range l.policies {
		ids = append(ids, d.ID)
	}
	return strings.Join(ids, ", ")
}
