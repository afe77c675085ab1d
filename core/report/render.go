package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// decimals is how many decimals the report's numbers get: the number is
// as precise as its interval, so the typical (median) half-width of the
// policies' intervals shows its first significant digit; at least three
// decimals for a ratio and two otherwise, at most six. (The CSV and JSON
// carry every digit.)
func (r *Report) decimals() int {
	base := 2
	if r.Metric.Unit == "ratio" {
		base = 3
	}
	var hw []float64
	for _, row := range r.Rows {
		if h := (row.Value.Hi - row.Value.Lo) / 2; h > 0 && !math.IsInf(h, 0) {
			hw = append(hw, h)
		}
	}
	if len(hw) == 0 {
		return base
	}
	slices.Sort(hw)
	return min(max(base, -int(math.Floor(math.Log10(hw[len(hw)/2])))), 6)
}

// number writes x with dec decimals and minus as given ("−", "$-$"), or
// "–" when it is not a number.
func number(x float64, dec int, minus string) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "–"
	}
	s := strconv.FormatFloat(x, 'f', dec, 64)
	if strings.Trim(s, "-0.") == "" {
		return strings.TrimPrefix(s, "-") // no negative zero
	}
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		return minus + rest
	}
	return s
}

// interval writes [lo, hi], or "–" when there is none.
func interval(lo, hi float64, dec int, minus string) string {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return "–"
	}
	return "[" + number(lo, dec, minus) + ", " + number(hi, dec, minus) + "]"
}

// signed writes x with its sign, + or minus.
func signed(x float64, dec int, minus string) string {
	s := number(x, dec, minus)
	if x > 0 && s != "–" && strings.Trim(s, "0.") != "" {
		return "+" + s
	}
	return s
}

// refName is the name of the reference policy.
func (r *Report) refName() string {
	for _, row := range r.Rows {
		if row.Key == r.Reference {
			return row.Name
		}
	}
	return r.Reference
}

// headline is the metric's name with its unit and direction, for a column.
func (r *Report) headline() string {
	s := r.Metric.Name
	switch r.Metric.Unit {
	case "cycle":
		s += " (" + cmpOr(r.Dataset.CycleUnit, "cycle") + "s)"
	case "day":
		s += " (days)"
	case "hour":
		s += " (hours)"
	case "per day":
		s += " (per day)"
	}
	return s
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// caption is one sentence on how to read the table.
func (r *Report) caption() string {
	n := 0
	for _, row := range r.Rows {
		n = max(n, row.Value.N)
	}
	return fmt.Sprintf("%s by policy on %s, ranked (%s is better): mean over %s with its 95%% interval, and the difference to %s with its 95%% interval.",
		r.Metric.Name, r.Dataset.Name, r.Metric.Better, count(n, "repeat", "repeats"), r.refName())
}

// Notes under the table, for the marks beside an oracle and a paired
// difference.
const (
	oracleNote = "Reads the truth, which no crawler can (an oracle): ranked, but not the reference."
	pairedNote = "Paired: a labelled copy of the reference's policy, which draws the same random streams."
)

// Table is the report's ranked table as text, the numbers rounded to the
// precision of their intervals: what the Markdown and LaTeX tables and the
// page show. Notes explain the marks: * beside an oracle, † beside a
// paired difference.
type Table struct {
	Caption string     `json:"caption"`
	Head    []string   `json:"head"`
	Rows    [][]string `json:"rows"`
	Notes   []string   `json:"notes,omitempty"`
}

// table builds the report's Table.
func (r *Report) table() Table {
	dec := r.decimals()
	const minus = "−"
	t := Table{
		Caption: r.caption(),
		Head:    []string{"Rank", "Policy", r.headline(), "95% interval", "Difference to " + r.refName(), "95% interval of the difference"},
	}
	paired, oracle := false, false
	for _, row := range r.Rows {
		name := row.Name
		if row.Oracle {
			name += " *"
			oracle = true
		}
		diff, div := "reference", ""
		if row.Diff != nil {
			diff, div = signed(row.Diff.Mean, dec, minus), interval(row.Diff.Lo, row.Diff.Hi, dec, minus)
			if row.Diff.Paired {
				div += " †"
				paired = true
			}
		}
		t.Rows = append(t.Rows, []string{strconv.Itoa(row.Rank), name,
			number(row.Value.Mean, dec, minus), interval(row.Value.Lo, row.Value.Hi, dec, minus), diff, div})
	}
	if oracle {
		t.Notes = append(t.Notes, "* "+oracleNote)
	}
	if paired {
		t.Notes = append(t.Notes, "† "+pairedNote)
	}
	return t
}

// Markdown renders the report as a Markdown document: the ranked table,
// the methods paragraph, the log and the spec.
func (r *Report) Markdown() []byte {
	var b bytes.Buffer
	cell := func(s string) string {
		s = strings.Join(strings.Fields(s), " ")
		return strings.ReplaceAll(s, "|", `\|`)
	}
	fmt.Fprintf(&b, "# %s\n\n", cell(r.Title))
	fmt.Fprintf(&b, "%s\n\n", r.Table.Caption)
	row := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + cell(c) + " |")
		}
		b.WriteString("\n")
	}
	row(r.Table.Head)
	b.WriteString("|---:|---|---:|---|---:|---|\n")
	for _, cells := range r.Table.Rows {
		row(cells)
	}
	for _, n := range r.Table.Notes {
		b.WriteString("\n" + strings.Replace(n, "*", "\\*", 1) + "\n")
	}
	fmt.Fprintf(&b, "\n## Methods\n\n%s\n", r.Methods)
	if r.Log != nil {
		b.WriteString("\n## The log\n\n")
		if r.Log.Name != "" {
			fmt.Fprintf(&b, "- File: %s\n", cell(r.Log.Name))
		}
		if r.Log.SHA256 != "" {
			fmt.Fprintf(&b, "- SHA-256: `%s`\n", r.Log.SHA256)
		}
		for _, kv := range summaryFields(r.Log.Summary) {
			fmt.Fprintf(&b, "- %s: %s\n", cell(kv[0]), cell(kv[1]))
		}
	}
	spec, _ := json.MarshalIndent(r.Spec, "", "  ")
	fmt.Fprintf(&b, "\n## The spec\n\n```json\n%s\n```\n", spec)
	fmt.Fprintf(&b, "\nRefresh Lab %s, %s.\n", r.Version, r.Date)
	return b.Bytes()
}

// summaryFields lists a log summary's fields in the order they came, each
// value as text: numbers and strings as they are, lists joined by commas,
// anything else as compact JSON.
func summaryFields(raw json.RawMessage) [][2]string {
	if len(raw) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out [][2]string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return out
		}
		key, _ := t.(string)
		var v any
		if err := dec.Decode(&v); err != nil {
			return out
		}
		out = append(out, [2]string{key, valueText(v)})
	}
	return out
}

func valueText(v any) string {
	switch v := v.(type) {
	case nil:
		return "–"
	case string:
		return v
	case json.Number:
		return v.String()
	case bool:
		return strconv.FormatBool(v)
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = valueText(x)
		}
		if len(parts) == 0 {
			return "none"
		}
		return strings.Join(parts, ", ")
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// latexReplacer escapes LaTeX's special characters and writes the
// non-ASCII characters the lab's names and help use in forms pdflatex
// reads without extra packages.
var latexReplacer = strings.NewReplacer(
	`\`, `\textbackslash{}`, `&`, `\&`, `%`, `\%`, `$`, `\$`, `#`, `\#`, `_`, `\_`,
	`{`, `\{`, `}`, `\}`, `~`, `\textasciitilde{}`, `^`, `\textasciicircum{}`,
	`<`, `\textless{}`, `>`, `\textgreater{}`, `|`, `\textbar{}`,
	"−", "$-$", "–", "--", "—", "---", "…", `\ldots{}`, "×", `$\times$`, "±", `$\pm$`,
	"√", `$\surd$`, "≤", `$\le$`, "≥", `$\ge$`, "λ", `$\lambda$`, "·", `$\cdot$`,
	"†", `\textdagger{}`, "’", "'", "‘", "`", "“", "``", "”", "''", "é", `\'e`, "ü", `\"u`,
)

// TeX escapes s for LaTeX text.
func TeX(s string) string { return latexReplacer.Replace(strings.Join(strings.Fields(s), " ")) }

// LaTeX renders the ranked table as a LaTeX table float with a booktabs
// tabular (it needs \usepackage{booktabs}), every text escaped, followed
// by the methods paragraph.
func (r *Report) LaTeX() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%% %s\n%% Refresh Lab %s, %s. Needs \\usepackage{booktabs}.\n", strings.Join(strings.Fields(r.Title), " "), r.Version, r.Date)
	b.WriteString("\\begin{table}[htbp]\n\\centering\n")
	fmt.Fprintf(&b, "\\caption{%s}\n", TeX(r.Table.Caption))
	b.WriteString("\\label{tab:refresh-lab}\n\\begin{tabular}{rlrlrl}\n\\toprule\n")
	// The differences' columns are named short: the caption names the
	// reference.
	head := append([]string{}, r.Table.Head[:4]...)
	head = append(head, "Difference", "95% interval")
	line := func(cells []string) {
		for i, c := range cells {
			if i > 0 {
				b.WriteString(" & ")
			}
			b.WriteString(TeX(c))
		}
		b.WriteString(" \\\\\n")
	}
	line(head)
	b.WriteString("\\midrule\n")
	for _, cells := range r.Table.Rows {
		line(cells)
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n")
	if len(r.Table.Notes) > 0 {
		b.WriteString("\\par\\smallskip\\footnotesize\n")
		for _, n := range r.Table.Notes {
			b.WriteString(TeX(n) + "\\par\n")
		}
	}
	b.WriteString("\\end{table}\n\n")
	fmt.Fprintf(&b, "%s\n", TeX(r.Methods))
	return b.Bytes()
}

// CSV renders the report's table with every number at full precision, one
// row per policy; the columns say what each value is.
func (r *Report) CSV() []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	f := func(x float64) string {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return ""
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	sha := ""
	if r.Log != nil {
		sha = r.Log.SHA256
	}
	w.Write([]string{"rank", "policy", "name", "oracle", "metric", "better", "mean", "lo", "hi", "sd", "n",
		"reference", "diff", "diff_lo", "diff_hi", "diff_interval", "dataset", "log_sha256", "version", "date"})
	for _, row := range r.Rows {
		diff, lo, hi, how := "", "", "", "reference"
		if d := row.Diff; d != nil {
			diff, lo, hi, how = f(d.Mean), f(d.Lo), f(d.Hi), "welch"
			if d.Paired {
				how = "paired"
			}
		}
		w.Write([]string{strconv.Itoa(row.Rank), row.Key, row.Name, strconv.FormatBool(row.Oracle), r.Metric.ID, r.Metric.Better,
			f(row.Value.Mean), f(row.Value.Lo), f(row.Value.Hi), f(row.Value.SD), strconv.Itoa(row.Value.N),
			r.Reference, diff, lo, hi, how, r.Dataset.ID, sha, r.Version, r.Date})
	}
	w.Flush()
	return b.Bytes()
}
