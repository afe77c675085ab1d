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

// Markdown renders the report as a Markdown document: the ranked table,
// the methods paragraph, the log and the spec.
func (r *Report) Markdown() []byte {
	var b bytes.Buffer
	dec := r.decimals()
	const minus = "−"
	cell := func(s string) string {
		s = strings.Join(strings.Fields(s), " ")
		return strings.ReplaceAll(s, "|", `\|`)
	}
	fmt.Fprintf(&b, "# %s\n\n", cell(r.Title))
	fmt.Fprintf(&b, "%s\n\n", r.caption())
	fmt.Fprintf(&b, "| Rank | Policy | %s | 95%% interval | Difference to %s | 95%% interval of the difference |\n", cell(r.headline()), cell(r.refName()))
	b.WriteString("|---:|---|---:|---|---:|---|\n")
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
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s |\n", row.Rank, cell(name),
			number(row.Value.Mean, dec, minus), interval(row.Value.Lo, row.Value.Hi, dec, minus), diff, div)
	}
	if oracle {
		b.WriteString("\n\\* " + oracleNote + "\n")
	}
	if paired {
		b.WriteString("\n† " + pairedNote + "\n")
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
	dec := r.decimals()
	const minus = "$-$"
	fmt.Fprintf(&b, "%% %s\n%% Refresh Lab %s, %s. Needs \\usepackage{booktabs}.\n", strings.Join(strings.Fields(r.Title), " "), r.Version, r.Date)
	b.WriteString("\\begin{table}[htbp]\n\\centering\n")
	fmt.Fprintf(&b, "\\caption{%s}\n", TeX(r.caption()))
	b.WriteString("\\label{tab:refresh-lab}\n\\begin{tabular}{rlrlrl}\n\\toprule\n")
	fmt.Fprintf(&b, "Rank & Policy & %s & 95\\%% interval & Difference & 95\\%% interval \\\\\n\\midrule\n", TeX(r.headline()))
	paired, oracle := false, false
	for _, row := range r.Rows {
		name := TeX(row.Name)
		if row.Oracle {
			name += `\textsuperscript{*}`
			oracle = true
		}
		diff, div := "reference", ""
		if row.Diff != nil {
			diff, div = TeX(signed(row.Diff.Mean, dec, "−")), interval(row.Diff.Lo, row.Diff.Hi, dec, minus)
			if row.Diff.Paired {
				div += `\textsuperscript{\textdagger}`
				paired = true
			}
		}
		fmt.Fprintf(&b, "%d & %s & %s & %s & %s & %s \\\\\n", row.Rank, name,
			TeX(number(row.Value.Mean, dec, "−")), interval(row.Value.Lo, row.Value.Hi, dec, minus), diff, div)
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n")
	if oracle || paired {
		b.WriteString("\\par\\smallskip\\footnotesize\n")
	}
	if oracle {
		b.WriteString("\\textsuperscript{*}" + TeX(oracleNote) + "\n")
	}
	if paired {
		b.WriteString("\\textsuperscript{\\textdagger}" + TeX(pairedNote) + "\n")
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
