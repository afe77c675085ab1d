package lesson

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
)

// withPredictions is the good lesson with yaml added to its front matter
// and md for its narrative.
func withPredictions(yaml, md string) string {
	head, _, _ := strings.Cut(good[len("---\n"):], "\n---\n")
	return "---\n" + head + "\n" + yaml + "---\n" + md + "\n"
}

const threePredictions = `predictions:
  - ask: At 20 downloads, what ChangeRatio does greedy reach?
    set: {budget: 20, params.sampleSize: 5}
    metric: changeRatio
    policy: site-greedy
    tolerance: 0.05
    why: The samples take most of the budget.
  - ask: By how much does greedy beat random?
    metric: changeRatio
    policy: site-greedy
    minus: random
    bins: [0, 0.1, 0.3]
    why: Random downloads what it meets.
  - ask: Which wastes *fewest* downloads, at $e^{-x}$?
    set: {dataset.id: alqaaideh-example}
    metric: changeRatio
    choices: [random, site-greedy]
    why: Greedy goes where the changes are.
`

// TestPredictions checks the three ways to answer a prediction: the spec
// each runs (the lesson's, at its setting, as lab.Field sets it), the
// choices the learner gets, and the page's form, whose answer region is
// hidden and holds the author's explanation but no number.
func TestPredictions(t *testing.T) {
	src := withPredictions(threePredictions, "Intro.\n\n## Try this\n\n{{predictions}}\n\nAfter.")
	ls, err := Parse("a.md", []byte(src), lab.New(), WithMath(func(tex string, display bool) (string, error) {
		return "<math>" + tex + "</math>", nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	ps := ls.Predictions
	if len(ps) != 3 {
		t.Fatalf("%d predictions", len(ps))
	}
	if ps[0].Spec.Budget != 20 || ps[0].Spec.Policies[0].Params["sampleSize"] != 5.0 || ls.Spec.Budget != 100 {
		t.Errorf("the first prediction's spec: budget %d, sample size %v (the lesson's budget %d)", ps[0].Spec.Budget, ps[0].Spec.Policies[0].Params["sampleSize"], ls.Spec.Budget)
	}
	if ps[0].At != "budget = 20, Sample size = 5" || ps[1].At != "the lesson's own setting" {
		t.Errorf("settings in words: %q, %q", ps[0].At, ps[1].At)
	}
	if ps[0].Unit != "ratio" || len(ps[0].Options) != 0 {
		t.Errorf("a number: unit %q, options %v", ps[0].Unit, ps[0].Options)
	}
	var bins []string
	for _, o := range ps[1].Options {
		bins = append(bins, o.Label)
	}
	if got := strings.Join(bins, "; "); got != "below 0; between 0 and 0.1; between 0.1 and 0.3; above 0.3" {
		t.Errorf("bins: %s", got)
	}
	if o := ps[1].Options; o[0].Lo != nil || *o[0].Hi != 0 || *o[2].Lo != 0.1 || *o[2].Hi != 0.3 || o[3].Hi != nil {
		t.Errorf("bins' bounds: %+v", o)
	}
	if ps[2].Spec.Dataset.ID != "alqaaideh-example" || ps[2].Pick != "highest" || ps[2].Options[1].Label != "Site sampling, greedy" || ps[2].Options[1].Policy != "site-greedy" {
		t.Errorf("choices: dataset %s, pick %q, options %+v", ps[2].Spec.Dataset.ID, ps[2].Pick, ps[2].Options)
	}
	html := string(ls.HTML)
	try := strings.Index(html, "Try this")
	list := strings.Index(html, `<ol class="predictions">`)
	after := strings.Index(html, "After.")
	if !(try >= 0 && try < list && list < after) {
		t.Errorf("the predictions are not where {{predictions}} was (Try this %d, list %d, after %d)", try, list, after)
	}
	for _, want := range []string{
		`<legend id="predict-1-q"><span class="predict-n">Predict</span> At 20 downloads, what ChangeRatio does greedy reach?</legend>`,
		`<input type="number" id="predict-1-guess" step="any" required inputmode="decimal">`,
		`<input type="radio" name="predict-2" value="3" required> above 0.3</label>`,
		`Which wastes <em>fewest</em> downloads, at <math>e^{-x}</math>?`,
		`<div class="predict-answer" id="predict-3-answer" tabindex="-1" hidden>` + "\n" + `<p class="predict-result"></p>` + "\n" + `<p class="predict-why">Greedy goes where the changes are.</p>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(html, "{{predictions}}") {
		t.Error("the mark is left in the page")
	}
	// Without the mark, the predictions close the narrative.
	ls, err = Parse("a.md", []byte(withPredictions(threePredictions, "Intro.")), lab.New())
	if err != nil {
		t.Fatal(err)
	}
	if h := string(ls.HTML); !strings.HasPrefix(h, "<p>Intro.</p>") || !strings.HasSuffix(h, "</ol>") {
		t.Errorf("without the mark: %s", h)
	}
}

// TestPredictionErrors checks that each mistake in a prediction fails the
// build at its line, saying what is wrong.
func TestPredictionErrors(t *testing.T) {
	one := func(fields string) string {
		return "predictions:\n  - ask: What?\n    why: Because.\n" + fields
	}
	num := "    metric: changeRatio\n    policy: site-greedy\n    tolerance: 0.1\n"
	mdLine := strings.Count(withPredictions(one(num), ""), "\n") // the narrative's first line
	predLine := strings.Count(good[:strings.Index(good, "\n---\n")], "\n") + 3
	for _, tc := range []struct {
		name, yaml, md string
		line           int
		want           string
	}{
		{"no question", strings.Replace(one(num), "ask: What?", "ask: ''", 1), "", predLine, "predictions[0]: ask is missing"},
		{"no explanation", strings.Replace(one(num), "why: Because.", "why: ''", 1), "", predLine, "predictions[0]: why is missing"},
		{"unknown metric", strings.Replace(one(num), "changeRatio", "speed", 1), "", predLine, `metric "speed": expected a metric`},
		{"metric of another kind", strings.Replace(one(num), "changeRatio", "mad", 1), "", predLine, `metric "mad"`},
		{"no way to answer", strings.Replace(one(num), "    tolerance: 0.1\n", "", 1), "", predLine, "expected exactly one way to answer: tolerance (a number), bins (intervals) or choices (policies); got 0"},
		{"two ways", one(num + "    bins: [0.5]\n"), "", predLine, "got 2"},
		{"no policy", strings.Replace(one(num), "    policy: site-greedy\n", "", 1), "", predLine, "policy is missing"},
		{"policy not in the spec", strings.Replace(one(num), "policy: site-greedy", "policy: oracle", 1), "", predLine, `policy "oracle" is not in the lesson's spec`},
		{"minus itself", one(num + "    minus: site-greedy\n"), "", predLine, "less itself"},
		{"negative tolerance", strings.Replace(one(num), "0.1", "-0.1", 1), "", predLine, "tolerance: expected a number above 0, got -0.1"},
		{"bins out of order", strings.Replace(one(num), "tolerance: 0.1", "bins: [0.5, 0.2]", 1), "", predLine, "bins: expected increasing numbers"},
		{"choices with a policy", one("    metric: changeRatio\n    policy: random\n    choices: [random, site-greedy]\n"), "", predLine, "takes no policy or minus"},
		{"one choice", one("    metric: changeRatio\n    choices: [random]\n"), "", predLine, "expected two or more policies"},
		{"choice not in the spec", one("    metric: changeRatio\n    choices: [random, oracle]\n"), "", predLine, `choices: policy "oracle" is not in the lesson's spec`},
		{"choice twice", one("    metric: changeRatio\n    choices: [random, random]\n"), "", predLine, "random is offered twice"},
		{"labels", one("    metric: changeRatio\n    choices: [random, site-greedy]\n    labels: [One]\n"), "", predLine, "1 labels for 2 choices"},
		{"pick", one("    metric: changeRatio\n    choices: [random, site-greedy]\n    pick: best\n"), "", predLine, `pick "best": expected highest or lowest`},
		{"pick without choices", one(num + "    pick: lowest\n"), "", predLine, "labels and pick go with choices"},
		{"unknown field to set", one(num + "    set: {budjet: 20}\n"), "", predLine, `set: unknown field "budjet"`},
		{"a value out of range", one(num + "    set: {params.sampleSize: -3}\n"), "", predLine, "set:"},
		{"a value of the wrong type", one(num + "    set: {budget: lots}\n"), "", predLine, "set: field \"budget\": expected a whole number, got lots"},
		{"the policies", one(num + "    set: {policies: [random]}\n"), "", predLine, "set by editing its policies"},
		{"unknown prediction field", one(num + "    answer: 0.3\n"), "", predLine + 5, "unknown field predictions[0].answer"},
		{"two paragraphs", strings.Replace(one(num), "why: Because.", "why: \"One.\\n\\nTwo.\"", 1), "", predLine + 1, "predictions[0].why: expected one paragraph"},
		{"raw TeX in a question", strings.Replace(one(num), "ask: What?", "ask: What is c_w?", 1), "", predLine, `predictions[0].ask: raw TeX "at is c_w?"`},
		{"mark twice", one(num), "One.\n\n{{predictions}}\n\n{{predictions}}", mdLine + 4, "narrative: {{predictions}} marks where the predictions go, once"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("a.md", []byte(withPredictions(tc.yaml, tc.md)), lab.New())
			var le *Error
			if !errors.As(err, &le) {
				t.Fatalf("error %v, want a lesson.Error", err)
			}
			if le.Line != tc.line || !strings.Contains(le.Msg, tc.want) {
				t.Errorf("line %d: %s\nwant line %d and %q", le.Line, le.Msg, tc.line, tc.want)
			}
		})
	}
	// The mark in a lesson without predictions.
	_, err := Parse("a.md", []byte(withNarrative("One.\n\n{{predictions}}")), lab.New())
	if err == nil || !strings.Contains(err.Error(), "in a lesson that has predictions") {
		t.Errorf("a mark without predictions: %v", err)
	}
}

// TestMath checks formulas: $…$ and $$…$$ are typeset by the typesetter
// given, dollars that open no formula stay text, code keeps its TeX, a
// formula the typesetter rejects fails at its line, and TeX written
// outside a formula fails the build wherever the learner would see it raw.
func TestMath(t *testing.T) {
	typeset := WithMath(func(tex string, display bool) (string, error) {
		if strings.Contains(tex, `\bad`) {
			return "", fmt.Errorf("undefined control sequence")
		}
		if display {
			return `<math display="block">` + tex + "</math>", nil
		}
		return "<math>" + tex + "</math>", nil
	})
	for _, tc := range []struct{ name, md, want string }{
		{"inline", `With $1 - e^{-\lambda I}$ per visit.`, `<p>With <math>1 - e^{-\lambda I}</math> per visit.</p>`},
		{"display", `$$\hat\lambda = X/T$$`, `<p><math display="block">\hat\lambda = X/T</math></p>`},
		{"subscript", `The rate $c_w$ of site $w$.`, `<p>The rate <math>c_w</math> of site <math>w</math>.</p>`},
		{"prices", `It costs $5 and $6 a day.`, `<p>It costs $5 and $6 a day.</p>`},
		{"space inside", `Between $ 5 and 6 $ here.`, `<p>Between $ 5 and 6 $ here.</p>`},
		{"escaped", `A \$x\$ stays.`, `<p>A $x$ stays.</p>`},
		{"code span", "Write `$c_w$` for a rate.", "<p>Write <code>$c_w$</code> for a rate.</p>"},
		{"TeX in code", "In code `e^{-x}` is fine.", "<p>In code <code>e^{-x}</code> is fine.</p>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ls, err := Parse("a.md", []byte(withNarrative(tc.md)), lab.New(), typeset)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSpace(string(ls.HTML)); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
	// Without a typesetter, a formula shows its TeX in a code span.
	ls, err := Parse("a.md", []byte(withNarrative(`Rate $c_w$.`)), lab.New())
	if err != nil || !strings.Contains(string(ls.HTML), `<code class="math">c_w</code>`) {
		t.Errorf("without a typesetter: %v %s", err, ls.HTML)
	}
	// A goal is typeset too.
	src := strings.Replace(good, "  - Read its ChangeRatio.", "  - Read its rate $c_w$.", 1)
	if ls, err := Parse("a.md", []byte(src), lab.New(), typeset); err != nil || ls.GoalsHTML[1] != "Read its rate <math>c_w</math>." {
		t.Errorf("goal: %v %q", err, ls.GoalsHTML)
	}

	bodyLine := strings.Count(withNarrative(""), "\n")
	goalLine := strings.Count(good[:strings.Index(good, "  - Read its")], "\n") + 1
	for _, tc := range []struct {
		name, src string
		line      int
		want      string
	}{
		{"bad formula", withNarrative("One.\n\nTwo $\\bad x$."), bodyLine + 2, `formula $\bad x$: undefined control sequence`},
		{"braces outside", withNarrative("One.\n\nWith probability 1 − e^{−λI} a visit."), bodyLine + 2, `raw TeX "1 − e^{−λI} a"`},
		{"subscript outside", withNarrative("- one\n- the rate c_w of a site"), bodyLine + 1, `raw TeX "rate c_w of a"`},
		{"command outside", withNarrative(`# Why \frac{1}{2}`), bodyLine, `raw TeX "Why \\frac{1}{2}"`},
		{"in a table", withNarrative("| a | b |\n|---|---|\n| x | p_t |"), bodyLine + 2, `raw TeX "p_t"`},
		{"in a goal", strings.Replace(good, "  - Read its ChangeRatio.", "  - Read its rate c_w.", 1), goalLine, `goals[1]: raw TeX`},
		{"in a caption", strings.Replace(good, "    refs:", "    caption: Binomial(n, 1 − e^{−λI})\n    refs:", 1), strings.Count(good[:strings.Index(good, "    refs:")], "\n") + 1, `charts[0].caption: raw TeX "1 − e^{−λI})"`},
		{"in a summary", strings.Replace(good, "summary: One line.", "summary: The rate p_t.", 1), 3, `summary: raw TeX`},
		{"in a help", strings.Replace(good, "    max: 50\n", "    max: 50\n    help: Pages per site, s_i.\n", 1), 22, `controls[0].help: raw TeX`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("a.md", []byte(tc.src), lab.New(), typeset)
			var le *Error
			if !errors.As(err, &le) {
				t.Fatalf("error %v, want a lesson.Error", err)
			}
			if le.Line != tc.line || !strings.Contains(le.Msg, tc.want) {
				t.Errorf("line %d: %s\nwant line %d and %q", le.Line, le.Msg, tc.line, tc.want)
			}
		})
	}
}

// TestLessonFields checks the fields the index reads: goals, minutes and
// track, each required and checked.
func TestLessonFields(t *testing.T) {
	ls, err := Parse("a.md", []byte(good), lab.New())
	if err != nil {
		t.Fatal(err)
	}
	if len(ls.GoalsHTML) != 2 || ls.Minutes != 10 || ls.Track != "choosing" {
		t.Errorf("goals %q, minutes %d, track %q", ls.GoalsHTML, ls.Minutes, ls.Track)
	}
	for _, tc := range []struct{ name, src, want string }{
		{"one goal", strings.Replace(good, "  - Read its ChangeRatio.\n", "", 1), "a.md:5: goals: expected two or three learning goals, one a line, got 1"},
		{"four goals", strings.Replace(good, "  - Read its ChangeRatio.\n", "  - Read its ChangeRatio.\n  - b\n  - c\n", 1), "got 4"},
		{"no minutes", strings.Replace(good, "minutes: 10\n", "", 1), "minutes: expected the minutes the lesson takes"},
		{"minutes", strings.Replace(good, "minutes: 10", "minutes: ten", 1), `a.md:8: front matter: minutes: expected a number, got "ten"`},
		{"track", strings.Replace(good, "track: choosing", "track: crawling", 1), `a.md:9: track "crawling": expected one of choosing, estimating, schedules, monitoring`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("a.md", []byte(tc.src), lab.New())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestReveal checks the policies a policies control shows at first: those
// run by its lesson and the lessons before it, in the catalog's order.
func TestReveal(t *testing.T) {
	l := lab.New()
	parse := func(policies string, control bool) *Lesson {
		src := strings.Replace(good, "    - id: site-greedy\n      params: {sampleSize: 10}\n    - id: random\n", policies, 1)
		if !control {
			src = strings.Replace(src, "  - field: policies\n    label: Policies\n", "", 1)
			src = strings.Replace(src, "  - field: params.sampleSize\n    label: Sample size\n    min: 1\n    max: 50\n", "", 1)
		}
		head, _, _ := strings.Cut(src, "\n---\n")
		ls, err := Parse("a.md", []byte(head+"\n---\nText.\n"), l)
		if err != nil {
			t.Fatal(err)
		}
		return ls
	}
	first := parse("    - id: random\n    - id: site-greedy\n", true)
	second := parse("    - id: oracle\n", false)
	third := parse("    - id: site-proportional\n", true)
	Reveal([]*Lesson{first, second, third})
	taught := func(ls *Lesson) string {
		for _, c := range ls.Controls {
			if c.Type == "policies" {
				return strings.Join(c.Taught, " ")
			}
		}
		return "no control"
	}
	var order []string
	for _, d := range l.Policies() {
		if d.Kind == lab.KindRefresh && (d.ID == "random" || d.ID == "site-greedy" || d.ID == "oracle" || d.ID == "site-proportional") {
			order = append(order, d.ID)
		}
	}
	if got := taught(first); got != strings.Join(without(order, "oracle", "site-proportional"), " ") {
		t.Errorf("the first lesson shows %q", got)
	}
	if got := taught(third); got != strings.Join(order, " ") {
		t.Errorf("the third lesson shows %q, want %q", got, order)
	}
}

func without(ids []string, drop ...string) []string {
	var out []string
	for _, id := range ids {
		keep := true
		for _, d := range drop {
			keep = keep && id != d
		}
		if keep {
			out = append(out, id)
		}
	}
	return out
}
