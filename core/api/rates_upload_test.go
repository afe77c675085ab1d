package api

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/schedule/schedulekind"
)

// TestUploadRatesSchedule uploads Cho & Garcia-Molina's five pages as a
// rates file (λ = 1..5 changes a day, as the pipeline writes them) and
// checks that the schedule kind plans with those rates as the truth: the
// optimal allocation at 5 syncs a day is the bundled dataset's, to the
// last digit.
func TestUploadRatesSchedule(t *testing.T) {
	rt := New(lab.New())
	file := "page,site,rate,low,high,observations,changes,first,last\n"
	for i := 1; i <= 5; i++ {
		file += fmt.Sprintf("https://example.com/p%d,example.com,%d,0,inf,1,1,2024-01-01T00:00:00Z,2024-01-02T00:00:00Z\n", i, i)
	}
	resp, m := serve(rt, "POST", "/api/datasets", "format=rates&name=rates.csv", file)
	if resp.Status != 201 {
		t.Fatalf("upload: %d %s", resp.Status, resp.Body)
	}
	id := m["dataset"].(map[string]any)["id"].(string)
	run := func(dataset string) lab.Result {
		t.Helper()
		resp, _ := serve(rt, "POST", "/api/run", "", `{"kind":"schedule","dataset":{"id":"`+dataset+`"},"budget":5,"seed":1,"repeats":2,"schedule":{"days":20},"policies":[{"id":"cho-optimal-freshness"}]}`)
		if resp.Status != 200 {
			t.Fatalf("run on %s: %d %s", dataset, resp.Status, resp.Body)
		}
		var res lab.Result
		if err := json.Unmarshal(resp.Body, &res); err != nil {
			t.Fatal(err)
		}
		return res
	}
	got, want := run(id), run("cho-garcia-molina-5")
	if schedulekind.ResultOf(&got).RatesFrom != "truth" {
		t.Fatalf("rates from %q, want the uploaded truth", schedulekind.ResultOf(&got).RatesFrom)
	}
	ga, wa := schedulekind.PolicyResultOf(got.Policies[0]).Allocation, schedulekind.PolicyResultOf(want.Policies[0]).Allocation
	if len(ga) != 5 || len(wa) != 5 {
		t.Fatalf("allocations %v, %v", ga, wa)
	}
	for i := range ga {
		if ga[i].Mean != wa[i].Mean {
			t.Errorf("page %d: %v syncs a day, the bundled dataset's plan %v", i+1, ga[i].Mean, wa[i].Mean)
		}
	}
	if resp, _ := serve(rt, "POST", "/api/datasets", "format=rates", "page,rate\na,-1\n"); resp.Status != 400 {
		t.Errorf("a negative rate: status %d %s", resp.Status, resp.Body)
	}
}
