package lab

import (
	"sync/atomic"
	"testing"

	"github.com/refreshlab/refreshlab/core/refresh"
)

// TestMemoBuildsOncePerDataset checks refresh.Env.Memo: what a policy
// derives from the repository is built once per dataset and key, however
// many repeats and runs use it, and separately for another dataset.
func TestMemoBuildsOncePerDataset(t *testing.T) {
	var builds atomic.Int32
	l := testLab(refresh.Descriptor{
		ID: "memo-user", Name: "memo user",
		New: func(env refresh.Env) (refresh.Policy, error) {
			v, err := env.Remember("pages", func() (any, error) {
				builds.Add(1)
				return len(env.Repo.Pages), nil
			})
			if err != nil {
				return nil, err
			}
			if v.(int) != len(env.Repo.Pages) {
				t.Errorf("memo gave %v for a dataset of %d pages", v, len(env.Repo.Pages))
			}
			return idle{}, nil
		},
	})
	for _, id := range []string{"taleghani-example", "taleghani-example", "alqaaideh-jordan"} {
		if _, err := l.Run(Spec{Dataset: DatasetRef{ID: id}, Repeats: 7, Policies: []PolicySpec{{ID: "memo-user"}}}); err != nil {
			t.Fatal(err)
		}
	}
	if got := builds.Load(); got != 2 {
		t.Errorf("built %d times for 2 datasets, 3 runs and 21 repeats; want 2", got)
	}
}

// idle downloads nothing.
type idle struct{}

func (idle) Refresh(*refresh.Crawl) {}
