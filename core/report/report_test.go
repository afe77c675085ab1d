package report_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/estimate/estimatekind"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/report"
	"github.com/refreshlab/refreshlab/core/stat"
)

var day = time.Date(2026, 11, 26, 15, 0, 0, 0, time.UTC)

// handResult is a result made by hand: policy a (mean 0.5), b (0.3), c
// (0.4, a labelled copy of a, so it shares a's streams and carries its
// per-repeat values), and an oracle (0.9); ChangeRatio, higher is better.
func handResult() *lab.Result {
	a := []float64{0.4, 0.5, 0.6}
	b := []float64{0.2, 0.3, 0.3, 0.4}
	c := []float64{0.35, 0.4, 0.45}
	pol := func(id, label, name string, xs []float64, oracle bool) lab.PolicyResult {
		return lab.PolicyResult{ID: id, Label: label, Name: name, Oracle: oracle,
			Metrics: map[string]stat.Summary{lab.MetricChangeRatio: stat.Summarize(xs), lab.MetricAge: stat.Summarize(neg(xs))}}
	}
	pa, pc := pol("a", "", "Policy A", a, false), pol("a", "copy", "Policy A (copy)", c, false)
	pa.Values = map[string][]float64{lab.MetricChangeRatio: a}
	pc.Values = map[string][]float64{lab.MetricChangeRatio: c}
	return &lab.Result{
		Spec:    lab.Spec{Kind: lab.KindRefresh, Dataset: lab.DatasetRef{ID: "d"}, Budget: 5, Cycles: 2, Repeats: 3, Seed: 4},
		Dataset: dataset.Info{ID: "d", Name: "Hand & co", Pages: 50, Sites: 2, Cycles: 2, CycleLength: 86400, CycleUnit: "day"},
		Policies: []lab.PolicyResult{
			pol("b", "", "Policy B", b, false), pa, pol("oracle", "", "Oracle_1", []float64{0.9, 0.9, 0.9}, true), pc,
		},
	}
}

func neg(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = 1 - x
	}
	return out
}

// TestByHand checks the ranking, the reference and each difference against
// hand computation: b − a by Welch (a: mean 0.5, s² = 0.01, n = 3; b: mean
// 0.3, s² = 0.02/3, n = 4), the copy of a paired with a (differences
// −0.05, −0.1, −0.15: mean −0.1, s = 0.05), and the oracle, which ranks
// first but is not the reference.
func TestByHand(t *testing.T) {
	r, err := report.New(handResult(), nil, report.Options{Version: "v9", Date: day})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, row := range r.Rows {
		keys = append(keys, row.Key)
	}
	if got := strings.Join(keys, " "); got != "oracle a copy b" {
		t.Fatalf("ranking %s, want oracle a copy b", got)
	}
	if r.Reference != "a" || r.Rows[1].Diff != nil || r.Metric.ID != lab.MetricChangeRatio {
		t.Fatalf("reference %q (diff %v), metric %s; want a, no diff, changeRatio", r.Reference, r.Rows[1].Diff, r.Metric.ID)
	}
	// b − a by Welch: va = 0.01/3, vb = (0.02/3)/4 = 0.005/3.
	va, vb := 0.01/3, 0.005/3
	se := math.Sqrt(va + vb)
	df := (va + vb) * (va + vb) / (va*va/2 + vb*vb/3)
	h := stat.TQuantileFrac(0.975, df) * se
	d := r.Rows[3].Diff
	if d.Paired || !near(d.Mean, -0.2) || !near(d.SE, se) || !near(d.DF, df) || !near(d.Lo, -0.2-h) || !near(d.Hi, -0.2+h) {
		t.Errorf("b − a = %+v, want Welch's −0.2 ± %v (se %v, df %v)", d, h, se, df)
	}
	// The copy − a, paired: differences −0.05, −0.1, −0.15.
	hp := stat.TQuantile(0.975, 2) * 0.05 / math.Sqrt(3)
	if d := r.Rows[2].Diff; !d.Paired || !near(d.Mean, -0.1) || !near(d.Lo, -0.1-hp) || !near(d.Hi, -0.1+hp) {
		t.Errorf("copy − a = %+v, want paired −0.1 ± %v", d, hp)
	}
	if d := r.Rows[0].Diff; d.Paired || !near(d.Mean, 0.4) {
		t.Errorf("oracle − a = %+v, want Welch's +0.4", d)
	}
	for _, want := range []string{"Welch's 95% interval", "paired t interval", "Policy A, the reference", "Run with Refresh Lab v9 on 2026-11-26",
		"We compared 4 refresh policies on Hand & co: 50 pages on 2 sites, 2 days", "Each ran 3 times with seed 4", "each day a policy downloaded 5 pages"} {
		if !strings.Contains(r.Methods, want) {
			t.Errorf("the methods paragraph lacks %q:\n%s", want, r.Methods)
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12 }

// TestLowerIsBetter ranks by a metric where lower is better (age, 1 − the
// ratio above), a named reference, and NaN last.
func TestLowerIsBetter(t *testing.T) {
	res := handResult()
	res.Policies = append(res.Policies, lab.PolicyResult{ID: "none", Name: "No value", Metrics: map[string]stat.Summary{lab.MetricAge: stat.Summarize(nil)}})
	r, err := report.New(res, nil, report.Options{Metric: lab.MetricAge, Reference: "b"})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, row := range r.Rows {
		keys = append(keys, row.Key)
	}
	if got := strings.Join(keys, " "); got != "oracle a copy b none" || r.Reference != "b" || r.Rows[3].Diff != nil {
		t.Errorf("ranking %s, reference %s; want oracle a copy b none, reference b", got, r.Reference)
	}
	if d := r.Rows[1].Diff; d.Paired || !near(d.Mean, -0.2) {
		t.Errorf("a − b on age = %+v, want Welch's −0.2 (a and b share no stream)", d)
	}
}

// TestErrors: a metric the kind lacks, one with no direction, an unknown
// reference and an empty result are refused with a message that says
// what was expected.
func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		opts report.Options
		want string
	}{
		{report.Options{Metric: "nonsense"}, `unknown metric "nonsense" for a refresh run (expected one of changeRatio, freshness, age, caughtRir, divergence, siteAccuracy)`},
		{report.Options{Metric: estimatekind.MetricMAD}, `unknown metric "mad"`},
		{report.Options{Metric: lab.MetricDownloads}, "downloads has no better direction"},
		{report.Options{Reference: "zz"}, `unknown reference policy "zz" (expected one of b, a, oracle, copy)`},
	} {
		if _, err := report.New(handResult(), nil, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.opts, err, tc.want)
		}
	}
	if _, err := report.New(&lab.Result{}, nil, report.Options{}); err == nil {
		t.Error("an empty result gave a report")
	}
}

// TestRender checks each format: the Markdown table has a row per policy
// with as many cells as its header; the LaTeX escapes the dataset's and
// the log's special characters; the CSV reads back with every number at
// full precision; the JSON reads back.
func TestRender(t *testing.T) {
	log := &report.Log{Name: "my_log #1.csv", SHA256: strings.Repeat("ab", 32), Summary: json.RawMessage(`{"rows":12,"columns":["page","time"],"changeFrom":"hash"}`)}
	r, err := report.New(handResult(), nil, report.Options{Version: "v9", Date: day, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	md := string(r.Markdown())
	var table []string
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "|") {
			table = append(table, l)
		}
	}
	if len(table) != 2+len(r.Rows) {
		t.Fatalf("the Markdown table has %d lines, want %d:\n%s", len(table), 2+len(r.Rows), md)
	}
	cells := func(l string) int { return strings.Count(strings.ReplaceAll(l, `\|`, ""), "|") }
	for _, l := range table[1:] {
		if cells(l) != cells(table[0]) {
			t.Errorf("row %q has %d bars, the header %d", l, cells(l), cells(table[0]))
		}
	}
	for _, want := range []string{"| 2 | Policy A | 0.500 | [0.252, 0.748] | reference |  |", "| 4 | Policy B | 0.300 | [0.170, 0.430] | −0.200 |",
		"- SHA-256: `abab", "- columns: page, time", "- changeFrom: hash", `"seed": 4`, "Oracle_1 *", "† Paired"} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md)
		}
	}

	tex := string(r.LaTeX())
	for _, want := range []string{`Hand \& co`, `my\_log \#1.csv`, `Oracle\_1 *`, `\textdagger{}`, `$-$0.200`, `\toprule`, `\bottomrule`, `95\% interval`} {
		if !strings.Contains(tex, want) {
			t.Errorf("the LaTeX lacks %q:\n%s", want, tex)
		}
	}
	// Outside math, no special character is left unescaped.
	body := tex[strings.Index(tex, `\begin{table}`):]
	for _, l := range strings.Split(body, "\n") {
		plain := strings.NewReplacer(`\&`, "", `\%`, "", `\_`, "", `\#`, "", `\$`, "", "$-$", "", `$\pm$`, "", `$\cdot$`, "", `$\surd$`, "", "&", "").Replace(l)
		for _, c := range []string{"_", "#", "%", "$", "^", "~"} {
			if strings.Contains(plain, c) {
				t.Errorf("unescaped %q in LaTeX line %q", c, l)
			}
		}
	}

	rows, err := csv.NewReader(bytes.NewReader(r.CSV())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+len(r.Rows) || rows[0][0] != "rank" || rows[4][1] != "b" || rows[4][12] != "-0.2" && !strings.HasPrefix(rows[4][12], "-0.19999") {
		t.Errorf("CSV rows %q", rows)
	}
	if rows[3][15] != "paired" || rows[4][15] != "welch" || rows[2][15] != "reference" || rows[4][17] != log.SHA256 {
		t.Errorf("CSV difference methods %q %q %q, sha %q", rows[3][15], rows[4][15], rows[2][15], rows[4][17])
	}

	js, err := r.Render(report.FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	var back report.Report
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatalf("the JSON does not read back: %v", err)
	}
	if back.Reference != "a" || len(back.Rows) != 4 || back.Rows[2].Diff == nil || !back.Rows[2].Diff.Paired || back.Log.SHA256 != log.SHA256 {
		t.Errorf("JSON read back as %+v", back)
	}
	if _, err := r.Render("pdf"); err == nil {
		t.Error("an unknown format rendered")
	}
}

// TestCoverage runs the lab over many seeds on a setting whose truth is
// known: in one cycle, round-robin and random both download a uniformly
// random set of pages (round-robin's order is drawn at random once per
// run), so each one's expected ChangeRatio is the share of pages that
// changed, and the true difference is 0. The report's 95% interval of the
// difference must cover 0 in 95% of runs, within four standard errors.
func TestCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the lab 3,000 times")
	}
	l := lab.New()
	const trials = 3000
	cover := 0
	for seed := range trials {
		res, err := l.Run(lab.Spec{Dataset: lab.DatasetRef{ID: "alqaaideh-jordan"}, Cycles: 1, Budget: 60, Repeats: 4, Seed: uint64(seed),
			Policies: []lab.PolicySpec{{ID: "round-robin"}, {ID: "random"}}})
		if err != nil {
			t.Fatal(err)
		}
		r, err := report.New(res, l.Policies(), report.Options{Reference: "random"})
		if err != nil {
			t.Fatal(err)
		}
		d := r.Rows[0].Diff
		if r.Rows[0].Key == "random" {
			d = r.Rows[1].Diff
		}
		if d.Paired {
			t.Fatal("round-robin and random were paired, but share no stream")
		}
		if d.Lo <= 0 && 0 <= d.Hi {
			cover++
		}
	}
	got, tol := float64(cover)/trials, 4*math.Sqrt(0.95*0.05/trials)
	if math.Abs(got-0.95) > tol {
		t.Errorf("the 95%% interval of round-robin − random covered the true 0 in %.3f of %d runs, want 0.95 ± %.3f", got, trials, tol)
	}
	t.Logf("coverage %.3f of %d runs", got, trials)
}

// TestTable: the page's table is the Markdown's, cell for cell.
func TestTable(t *testing.T) {
	r, err := report.New(handResult(), nil, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	md := string(r.Markdown())
	for _, row := range r.Table.Rows {
		if line := "| " + strings.Join(row, " | ") + " |"; !strings.Contains(md, line) {
			t.Errorf("the Markdown lacks the table's row %q", line)
		}
	}
	if len(r.Table.Head) != 6 || len(r.Table.Notes) != 2 || r.Table.Caption == "" {
		t.Errorf("table head %q, notes %q, caption %q", r.Table.Head, r.Table.Notes, r.Table.Caption)
	}
}

// TestTiedMedians checks that a difference to or from a median that came
// out the same in every repeat (stat.SummarizeMedians) has no interval,
// Welch's or paired, where it used to have one of zero width; that the
// tables print none and the methods paragraph says why; and that an exact
// value, the same in every repeat because nothing in it is random
// (stat.Summarize), keeps its zero-width interval.
func TestTiedMedians(t *testing.T) {
	tied := []float64{0.0986, 0.0986, 0.0986}
	pol := func(id, label string, s stat.Summary, values []float64) lab.PolicyResult {
		p := lab.PolicyResult{ID: id, Label: label, Name: id + label, Metrics: map[string]stat.Summary{estimatekind.MetricMAD: s}}
		if values != nil {
			p.Values = map[string][]float64{estimatekind.MetricMAD: values}
		}
		return p
	}
	res := &lab.Result{
		Spec:    lab.Spec{Kind: estimatekind.ID, Dataset: lab.DatasetRef{ID: "d"}, Repeats: 3, Seed: 4},
		Dataset: dataset.Info{ID: "d", Name: "Hand", Pages: 50, Sites: 1, Cycles: 2, CycleUnit: "day"},
		Policies: []lab.PolicyResult{
			pol("mle", "", stat.SummarizeMedians(tied), tied),
			pol("naive", "", stat.SummarizeMedians([]float64{0.2, 0.2, 0.2}), nil),
			pol("mle", "copy", stat.SummarizeMedians([]float64{0.1, 0.11, 0.12}), []float64{0.1, 0.11, 0.12}),
			pol("exact", "", stat.Summarize([]float64{0.25, 0.25, 0.25}), nil),
			pol("exact2", "twin", stat.Summarize([]float64{0.5, 0.5, 0.5}), nil),
		},
	}
	r, err := report.New(res, nil, report.Options{Metric: estimatekind.MetricMAD, Reference: "mle", Version: "v9", Date: day})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range r.Rows {
		if row.Key == "mle" {
			continue
		}
		if d := row.Diff; !math.IsNaN(d.Lo) || !math.IsNaN(d.Hi) || (row.Key == "copy") != d.Paired {
			t.Errorf("%s − mle = %+v: want no interval against the tied median (paired for the copy only)", row.Key, d)
		}
	}
	r2, err := report.New(res, nil, report.Options{Metric: estimatekind.MetricMAD, Reference: "exact", Version: "v9", Date: day})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range r2.Rows {
		if row.Key == "twin" && !(row.Diff.Lo == 0.25 && row.Diff.Hi == 0.25) {
			t.Errorf("twin − exact = %+v, want the exact 0.25 with a zero-width interval", row.Diff)
		}
	}
	md := string(r.Markdown())
	if strings.Contains(md, "[0.1014, 0.1014]") || strings.Contains(md, "[0.0000, 0.0000]") || !strings.Contains(r.Methods, "has no interval, and neither has a difference") {
		t.Errorf("a tied median's difference is printed with an interval, or the methods do not say why:\n%s", md)
	}
}
