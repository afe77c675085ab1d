package api

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/chart"
	"github.com/refreshlab/refreshlab/core/lab"
)

// TestSweepFieldErrors is the fields issue's done-when: a sweep over
// site-greedy.sampleSize (no policies. or params. before it) through POST
// /api/run answers 400 on sweep.field, and the error names the path; so do
// the other paths the lab cannot resolve, while policies.ID.NAME runs.
func TestSweepFieldErrors(t *testing.T) {
	rt := New(lab.New())
	spec := func(field string) string {
		return `{"dataset":{"id":"taleghani-example"},"budget":100,"repeats":2,"policies":[{"id":"site-greedy"},{"id":"random"}],` +
			`"sweep":{"field":"` + field + `","values":[1,5]}}`
	}
	for _, tt := range []struct {
		field string
		want  string
	}{
		{"site-greedy.sampleSize", "unknown field"},
		{"polices.site-greedy.sampleSize", "unknown field"},
		{"params.nope", "no policy in the spec has a parameter"},
		{"policies.absent.sampleSize", `no policy "absent"`},
		{"policies.site-greedy.nope", `has no parameter "nope"`},
		{"schedule.days", "kind schedule"},
		{"estimate.initial", "unknown field"},
	} {
		resp, m := serve(rt, "POST", "/api/run", "", spec(tt.field))
		if resp.Status != 400 {
			t.Errorf("sweep over %s: status %d, want 400: %s", tt.field, resp.Status, resp.Body)
			continue
		}
		msg, _ := m["error"].(string)
		if m["field"] != "sweep.field" || !strings.Contains(msg, `"`+tt.field+`"`) || !strings.Contains(msg, tt.want) {
			t.Errorf("sweep over %s: field %v, error %q: want sweep.field, naming %q and saying %q", tt.field, m["field"], msg, tt.field, tt.want)
		}
	}
	resp, m := serve(rt, "POST", "/api/run", "", spec("policies.site-greedy.sampleSize"))
	if resp.Status != 200 {
		t.Fatalf("sweep over policies.site-greedy.sampleSize: status %d: %s", resp.Status, resp.Body)
	}
	if sw, _ := m["sweep"].(map[string]any); sw == nil || sw["field"] != "policies.site-greedy.sampleSize" {
		t.Errorf("sweep over policies.site-greedy.sampleSize: sweep %v", m["sweep"])
	}
}

// TestFieldsEndpoint resolves a list of paths through POST /api/fields, in
// order, each as lab.Field resolves it; one bad path is a 400 naming its
// index in the list and the path.
func TestFieldsEndpoint(t *testing.T) {
	l := lab.New()
	rt := New(l)
	specJSON := `{"dataset":{"id":"taleghani-example"},"policies":[{"id":"site-greedy"},{"id":"random"},{"id":"site-greedy","label":"big"}]}`
	var spec lab.Spec
	if err := json.Unmarshal([]byte(specJSON), &spec); err != nil {
		t.Fatal(err)
	}
	paths := []string{"budget", "dataset.id", "policies", "params.sampleSize", "policies.big.sampleSize"}
	body, _ := json.Marshal(paths)
	resp, _ := serve(rt, "POST", "/api/fields", "", `{"spec":`+specJSON+`,"fields":`+string(body)+`}`)
	if resp.Status != 200 {
		t.Fatalf("status %d: %s", resp.Status, resp.Body)
	}
	var out struct {
		Fields []lab.Field `json:"fields"`
	}
	if err := json.Unmarshal(resp.Body, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Fields) != len(paths) {
		t.Fatalf("%d fields for %d paths: %s", len(out.Fields), len(paths), resp.Body)
	}
	for i, path := range paths {
		want, err := l.Field(spec, path)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := jsonOf(out.Fields[i]), jsonOf(want); got != want {
			t.Errorf("fields[%d] (%s): %s, want %s", i, path, got, want)
		}
	}
	if f := out.Fields[4]; f.Type != "int" || len(f.Targets) != 1 || jsonOf(f.Targets[0]) != jsonOf(lab.Target{Key: "big", Param: "sampleSize"}) {
		t.Errorf("policies.big.sampleSize: %+v", f)
	}

	for _, tt := range []struct {
		fields string
		index  int
		path   string
	}{
		{`["budget","site-greedy.sampleSize","params.nope"]`, 1, "site-greedy.sampleSize"},
		{`["params.nope"]`, 0, "params.nope"},
		{`["budget","dataset.id","policies.absent.sampleSize"]`, 2, "policies.absent.sampleSize"},
	} {
		resp, m := serve(rt, "POST", "/api/fields", "", `{"spec":`+specJSON+`,"fields":`+tt.fields+`}`)
		msg, _ := m["error"].(string)
		if resp.Status != 400 || m["field"] != fmt.Sprintf("fields[%d]", tt.index) || !strings.Contains(msg, tt.path) {
			t.Errorf("fields %s: status %d, field %v, error %q; want 400 on fields[%d] naming %s", tt.fields, resp.Status, m["field"], msg, tt.index, tt.path)
		}
	}
	if resp, m := serve(rt, "POST", "/api/fields", "", `{"spec":`+specJSON+`,"feilds":["budget"]}`); resp.Status != 400 || m["field"] != "feilds" {
		t.Errorf("a misspelt member: status %d, %v", resp.Status, m)
	}
	if resp, _ := serve(rt, "GET", "/api/fields", "", ""); resp.Status != 405 {
		t.Errorf("GET /api/fields: status %d, want 405", resp.Status)
	}
}

// cellValue reads a table cell: its value and the half-width of its
// interval (0 when it has none), or NaN for "–".
func cellValue(t *testing.T, cell string) (v, half float64) {
	t.Helper()
	if cell == "–" {
		return math.NaN(), 0
	}
	s, h, hasHalf := strings.Cut(cell, " ± ")
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("cell %q: %v", cell, err)
	}
	if hasHalf {
		if half, err = strconv.ParseFloat(h, 64); err != nil {
			t.Fatalf("cell %q: %v", cell, err)
		}
	}
	return v, half
}

// near reports whether x, written to digits significant digits, is y.
func near(x, y float64, digits int) bool {
	return math.Abs(x-y) <= 0.5*math.Pow(10, math.Floor(math.Log10(math.Abs(y)))-float64(digits-1))*(1+1e-9) || x == y
}

// TestChartTable asks POST /api/chart for a bars and a cycles chart as a
// table ("format": "table") and checks its rows against the result: a bar
// per policy with its headline mean and interval, and for the cycles a row
// per cycle with each policy's mean that cycle.
func TestChartTable(t *testing.T) {
	rt := New(lab.New())
	specJSON := `{"dataset":{"id":"alqaaideh-jordan"},"cycles":6,"repeats":3,"seed":2,"policies":[{"id":"random"},{"id":"site-greedy"},{"id":"oracle"}]}`
	resp, _ := serve(rt, "POST", "/api/run", "", specJSON)
	if resp.Status != 200 {
		t.Fatalf("run: %d %s", resp.Status, resp.Body)
	}
	var res lab.Result
	if err := json.Unmarshal(resp.Body, &res); err != nil {
		t.Fatal(err)
	}
	table := func(opts string) chart.Table {
		t.Helper()
		resp, _ := serve(rt, "POST", "/api/chart", "", `{"id":"`+resp.ResultID+`","chart":`+opts+`}`)
		if resp.Status != 200 || resp.ContentType != "application/json" {
			t.Fatalf("chart %s: status %d, %s: %s", opts, resp.Status, resp.ContentType, resp.Body)
		}
		var tb chart.Table
		if err := json.Unmarshal(resp.Body, &tb); err != nil {
			t.Fatal(err)
		}
		if tb.Caption == "" {
			t.Errorf("chart %s: a table without a caption", opts)
		}
		for i, row := range tb.Rows {
			if len(row) != len(tb.Head) {
				t.Errorf("chart %s: row %d has %d cells for %d columns", opts, i, len(row), len(tb.Head))
			}
		}
		return tb
	}

	for _, metric := range []string{lab.MetricChangeRatio, lab.MetricAge} {
		bars := table(`{"type":"bars","metric":"` + metric + `","format":"table"}`)
		if len(bars.Rows) != len(res.Policies) {
			t.Fatalf("bars of %s: %d rows for %d policies", metric, len(bars.Rows), len(res.Policies))
		}
		for i, p := range res.Policies {
			row, s := bars.Rows[i], p.Metric(metric)
			v, half := cellValue(t, row[1])
			if row[0] != p.Name || !near(v, s.Mean, 4) {
				t.Errorf("bars of %s, row %d: %v, want %s with %v", metric, i, row, p.Name, s.Mean)
			}
			if s.Hi > s.Lo && !near(half, (s.Hi-s.Lo)/2, 2) || s.Hi == s.Lo && half != 0 {
				t.Errorf("bars of %s, %s: ± %v, want the half-width of [%v, %v]", metric, p.ID, half, s.Lo, s.Hi)
			}
		}
	}

	cycles := table(`{"type":"cycles","metric":"freshness","format":"table"}`)
	unit := res.Dataset.CycleUnit
	if unit == "" {
		unit = "cycle"
	}
	if want := []string{unit, res.Policies[0].Name, res.Policies[1].Name, res.Policies[2].Name}; !slices.Equal(cycles.Head, want) {
		t.Errorf("cycles head %q, want %q", cycles.Head, want)
	}
	if len(cycles.Rows) != 6 {
		t.Fatalf("cycles: %d rows for 6 cycles", len(cycles.Rows))
	}
	for c, row := range cycles.Rows {
		if row[0] != strconv.Itoa(c+1) {
			t.Errorf("cycles row %d starts %q, want cycle %d", c, row[0], c+1)
		}
		for j, p := range res.Policies {
			s := p.Series[lab.MetricFreshness][c]
			if v, _ := cellValue(t, row[1+j]); !near(v, s.Mean, 4) {
				t.Errorf("cycle %d, %s: %q, want %v", c+1, p.ID, row[1+j], s.Mean)
			}
		}
	}

	if resp, m := serve(rt, "POST", "/api/chart", "", `{"id":"`+resp.ResultID+`","chart":{"type":"bars","format":"csv"}}`); resp.Status != 400 || m["field"] != "chart.format" {
		t.Errorf("format csv: status %d, %v", resp.Status, m)
	}
	if resp, _ := serve(rt, "POST", "/api/chart", "", `{"id":"`+resp.ResultID+`","chart":{"type":"bars","format":"svg"}}`); resp.Status != 200 || resp.ContentType != "image/svg+xml" {
		t.Errorf("format svg: status %d, %s", resp.Status, resp.ContentType)
	}
}

// TestPoliciesCatalog checks that GET /api/policies lists what a page
// builds its controls, tables and charts from: the kinds, every metric and
// fact with its kinds, every chart type and every spec field.
func TestPoliciesCatalog(t *testing.T) {
	rt := New(lab.New())
	resp := rt.Serve(Request{Method: "GET", Path: "/api/policies"})
	var out struct {
		Kinds    []string        `json:"kinds"`
		Metrics  []lab.Metric    `json:"metrics"`
		Facts    []lab.Fact      `json:"facts"`
		Charts   []ChartType     `json:"charts"`
		Fields   []lab.SpecField `json:"fields"`
		Policies []struct {
			ID, Kind string
		} `json:"policies"`
	}
	if err := json.Unmarshal(resp.Body, &out); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(out.Kinds, lab.Kinds()) {
		t.Errorf("kinds %v, want %v", out.Kinds, lab.Kinds())
	}
	if got, want := jsonOf(out.Metrics), jsonOf(lab.Metrics); got != want {
		t.Errorf("metrics %s, want %s", got, want)
	}
	if got, want := jsonOf(out.Facts), jsonOf(lab.Facts); got != want {
		t.Errorf("facts %s, want %s", got, want)
	}
	if got, want := jsonOf(out.Charts), jsonOf(ChartTypes); got != want {
		t.Errorf("charts %s, want %s", got, want)
	}
	if got, want := jsonOf(out.Fields), jsonOf(lab.SpecFields()); got != want {
		t.Errorf("fields %s, want %s", got, want)
	}
	if len(out.Metrics) == 0 || len(out.Facts) == 0 || len(out.Charts) == 0 || len(out.Fields) == 0 || len(out.Policies) == 0 {
		t.Fatalf("an empty list: %d metrics, %d facts, %d charts, %d fields, %d policies", len(out.Metrics), len(out.Facts), len(out.Charts), len(out.Fields), len(out.Policies))
	}
	// Every kind has its metrics and charts; a chart's default metric
	// measures one of the chart's kinds.
	for _, k := range lab.Kinds() {
		if !slices.ContainsFunc(out.Metrics, func(m lab.Metric) bool { return slices.Contains(m.Kinds, k) }) {
			t.Errorf("no metric of kind %s", k)
		}
		if !slices.ContainsFunc(out.Charts, func(c ChartType) bool { return slices.Contains(c.Kinds, k) }) {
			t.Errorf("no chart of kind %s", k)
		}
	}
	for _, c := range out.Charts {
		if c.Metric == "" {
			continue
		}
		if m, ok := lab.MetricByID(c.Metric); !ok || !slices.ContainsFunc(c.Kinds, m.AppliesTo) {
			t.Errorf("chart %s of kinds %v draws metric %q by default, of kinds %v", c.ID, c.Kinds, c.Metric, m.Kinds)
		}
	}
	for _, f := range out.Fields {
		if f.Name == "" || f.Type == "" || f.Help == "" {
			t.Errorf("field %+v lacks a name, type or help", f)
		}
	}
}
