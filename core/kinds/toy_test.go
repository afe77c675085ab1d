package kinds_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/refreshlab/refreshlab/core/api"
	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/refresh"
	"github.com/refreshlab/refreshlab/core/stat"
)

// toy is a kind defined here alone: a coin of probability p tossed Budget
// times per repeat, its metric the share of heads. Registering it edits
// no other package.
type toy struct{}

func init() { lab.Register(toy{}) }

func (toy) ID() string          { return "toy" }
func (toy) Headline() string    { return "heads" }
func (toy) Charts() []string    { return nil }
func (toy) DefaultRepeats() int { return 3 }
func (toy) Fields() []lab.SpecField {
	return nil
}
func (toy) Nouns() (string, string)   { return "coin", "coins" }
func (toy) Design(*lab.Result) string { return "Coins." }
func (toy) Facts() []lab.Fact         { return nil }
func (toy) Metrics() []lab.Metric {
	return []lab.Metric{{ID: "heads", Name: "Heads", Unit: "ratio", Max: 1, Better: "higher"}}
}
func (toy) Policies() []refresh.Descriptor {
	return []refresh.Descriptor{{ID: "coin", Name: "Coin", Params: []param.Param{param.Param{Name: "p", Type: param.Float, Default: 0.5}.Range(0, 1)}}}
}

func (toy) Resolve(spec lab.Spec, d *dataset.Dataset) (lab.Spec, time.Duration, string, error) {
	if spec.Budget == 0 {
		spec.Budget = 100
	}
	if spec.Budget < 0 {
		return spec, 0, "", lab.SpecErrorf("budget", "must be positive, got %d", spec.Budget)
	}
	work := time.Duration(spec.Budget*spec.Repeats*len(spec.Policies)) * time.Microsecond
	return spec, work, fmt.Sprintf("%d tosses", spec.Budget*spec.Repeats), nil
}

// heads is the share of heads in repeat r of a coin of probability p.
func heads(seed uint64, p float64, tosses, r int) float64 {
	rng := lab.Stream(seed, "coin", r)
	n := 0
	for range tosses {
		if rng.Float64() < p {
			n++
		}
	}
	return float64(n) / float64(tosses)
}

func (toy) Run(ctx context.Context, spec lab.Spec, d *dataset.Dataset, progress func(int)) (*lab.Result, error) {
	res := &lab.Result{Spec: spec, Dataset: d.Info}
	for i, ps := range spec.Policies {
		xs := make([]float64, spec.Repeats)
		for r := range xs {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			xs[r] = heads(spec.Seed, ps.Params.Float("p", 0.5), spec.Budget, r)
			progress(i*spec.Repeats + r + 1)
		}
		res.Policies = append(res.Policies, lab.PolicyResult{ID: ps.ID, Label: ps.Label, Name: "Coin", Params: ps.Params,
			Metrics: map[string]stat.Summary{"heads": stat.Summarize(xs)}, Values: map[string][]float64{"heads": xs}})
	}
	return res, nil
}

func serve(t *testing.T, rt *api.Router, method, path, body string) api.Response {
	t.Helper()
	return rt.Serve(api.Request{Method: method, Path: path, Body: []byte(body)})
}

// TestToyKind runs a kind registered in this file alone through the API:
// listed, run with its defaults, swept, paired, and checked by the shared
// checks, with no edit to any other package.
func TestToyKind(t *testing.T) {
	rt := api.New(lab.New())
	resp := serve(t, rt, "GET", "/api/policies", "")
	var cat struct {
		Kinds    []string             `json:"kinds"`
		Policies []refresh.Descriptor `json:"policies"`
		Metrics  []lab.Metric         `json:"metrics"`
	}
	if err := json.Unmarshal(resp.Body, &cat); err != nil {
		t.Fatal(err)
	}
	if cat.Kinds[len(cat.Kinds)-1] != "toy" {
		t.Errorf("kinds %v: want toy last", cat.Kinds)
	}
	found := false
	for _, d := range cat.Policies {
		found = found || d.ID == "coin" && d.Kind == "toy"
	}
	if !found {
		t.Errorf("GET /api/policies lists no coin of kind toy")
	}

	resp = serve(t, rt, "POST", "/api/run", `{"kind":"toy","dataset":{"id":"taleghani-example"},"budget":200,"seed":7,"policies":[{"id":"coin","params":{"p":0.3}},{"id":"coin","label":"fair"}],"sweep":{"field":"policies.coin.p","values":[0,1]}}`)
	if resp.Status != 200 {
		t.Fatalf("run: %d %s", resp.Status, resp.Body)
	}
	var res lab.Result
	if err := json.Unmarshal(resp.Body, &res); err != nil {
		t.Fatal(err)
	}
	if res.Spec.Repeats != 3 || len(res.Policies) != 2 {
		t.Fatalf("repeats %d, %d policies: want the kind's default 3 and 2", res.Spec.Repeats, len(res.Policies))
	}
	for i, p := range []float64{0.3, 0.5} {
		want := make([]float64, 3)
		for r := range want {
			want[r] = heads(7, p, 200, r)
		}
		if got, w := res.Policies[i].Metric("heads"), stat.Summarize(want); got.Mean != w.Mean || got.N != 3 {
			t.Errorf("policy %d: heads %+v, want %+v", i, got, w)
		}
		// Two copies of one id share streams, so their values stay.
		if len(res.Policies[i].Values["heads"]) != 3 {
			t.Errorf("policy %d: values %v, want the 3 repeats of a paired copy", i, res.Policies[i].Values)
		}
	}
	if sw := res.Sweep; sw == nil || len(sw.Policies) != 2 || sw.Policies[0].Metrics["heads"][0].Mean != 0 || sw.Policies[0].Metrics["heads"][1].Mean != 1 {
		t.Errorf("sweep over p: %+v, want heads 0 then 1 for the swept coin", res.Sweep)
	}

	for _, tc := range []struct{ body, field, msg string }{
		{`{"kind":"toy","dataset":{"id":"nope"},"policies":[{"id":"coin"}]}`, "dataset.id", "unknown dataset"},
		{`{"kind":"toy","dataset":{"id":"taleghani-example"},"policies":[]}`, "policies", "at least one coin"},
		{`{"kind":"toy","dataset":{"id":"taleghani-example"},"policies":[{"id":"uniform"}]}`, "policies[0].id", "unknown coin"},
		{`{"kind":"toy","dataset":{"id":"taleghani-example"},"policies":[{"id":"coin","params":{"p":2}}]}`, "policies[0].params", "coin"},
		{`{"kind":"toy","dataset":{"id":"taleghani-example"},"repeats":-1,"policies":[{"id":"coin"}]}`, "repeats", "between 1"},
		{`{"kind":"toy","dataset":{"id":"taleghani-example"},"budget":-1,"policies":[{"id":"coin"}]}`, "budget", "positive"},
		{`{"kind":"toy","dataset":{"id":"taleghani-example"},"budget":1000000,"repeats":100,"policies":[{"id":"coin"}]}`, "repeats", "too much work: 100000000 tosses"},
		{`{"kind":"toy","dataset":{"id":"taleghani-example"},"budget":100000,"repeats":100,"policies":[{"id":"coin"}],"sweep":{"field":"budget","values":[1,2,3]}}`, "repeats", "too much work"},
	} {
		resp := serve(t, rt, "POST", "/api/run", tc.body)
		var e lab.SpecError
		if err := json.Unmarshal(resp.Body, &e); err != nil || resp.Status != 400 || e.Field != tc.field || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("%s: %d %s, want 400 at %s: …%s…", tc.body, resp.Status, resp.Body, tc.field, tc.msg)
		}
	}
}
