package lab

import (
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
		small(synth.ChoGarciaMolina5),
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
	ds = append(ds, EstimateDescriptors()...)
	ds = append(ds, ScheduleDescriptors()...)
	return ds
}

// MaxUploads is how many uploaded datasets the lab keeps; the oldest goes
// first.
const MaxUploads = 8

// Lab is the catalog and runner behind the API. It is safe for concurrent
// use.
type Lab struct {
	mu       sync.Mutex
	bundled  []Bundled
	built    map[string]*dataset.Dataset
	uploads  []*dataset.Dataset
	policies []refresh.Descriptor
	memo     map[memoKey]*memoEntry
	ran      recent[ranKey, PolicyResult]   // see remembered
	cost     recent[costKey, time.Duration] // per repeat; see Split
	forget   bool                           // WithoutMemory
	noReuse  bool                           // build each policy afresh every repeat (tests)
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
	l := &Lab{bundled: BundledDatasets(), built: map[string]*dataset.Dataset{}, policies: Policies()}
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
// on first use.
func (l *Lab) Dataset(id string) (*dataset.Dataset, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if d, ok := l.built[id]; ok {
		return d, true
	}
	for _, d := range l.uploads {
		if d.Info.ID == id {
			return d, true
		}
	}
	for _, b := range l.bundled {
		if b.Info.ID == id {
			d := b.Build()
			l.built[id] = d
			return d, true
		}
	}
	return nil, false
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

func (l *Lab) policy(id string) (refresh.Descriptor, bool) {
	i := slices.IndexFunc(l.policies, func(d refresh.Descriptor) bool { return d.ID == id })
	if i < 0 {
		return refresh.Descriptor{}, false
	}
	return l.policies[i], true
}

func (l *Lab) datasetIDs() string {
	var ids []string
	for _, d := range l.Datasets() {
		ids = append(ids, d.ID)
	}
	return strings.Join(ids, ", ")
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
