package lesson

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
)

const good = `---
title: A lesson
summary: One line.
order: 3
goals:
  - Say what greedy site sampling does.
  - Read its ChangeRatio.
minutes: 10
track: choosing
spec:
  dataset: {id: taleghani-example}
  budget: 100
  policies:
    - id: site-greedy
      params: {sampleSize: 10}
    - id: random
controls:
  - field: params.sampleSize
    label: Sample size
    min: 1
    max: 50
  - field: dataset.id
    label: Dataset
  - field: policies
    label: Policies
charts:
  - type: bars
    metric: changeRatio
    refs: [{y: 0.66, label: paper}]
---
Greedy reaches {{changeRatio site-greedy}}; exactly {{expectedChangeRatio site-greedy}}.
`

func TestParseGood(t *testing.T) {
	ls, err := Parse("lessons/a-lesson.md", []byte(good), lab.New())
	if err != nil {
		t.Fatal(err)
	}
	if ls.ID != "a-lesson" || ls.Title != "A lesson" || ls.Order != 3 {
		t.Errorf("id %q title %q order %d", ls.ID, ls.Title, ls.Order)
	}
	types := []string{"range", "select", "policies"}
	for i, c := range ls.Controls {
		if c.Type != types[i] {
			t.Errorf("control %d (%s): type %q, want %q", i, c.Field, c.Type, types[i])
		}
	}
	if got := len(ls.Readouts); got != 3 {
		t.Errorf("default readouts: %d metrics, want 3", got)
	}
	if ls.Crawler != "" {
		t.Errorf("crawler %q in a lesson that asks for none", ls.Crawler)
	}
	withCrawler := strings.Replace(good, "order: 3", "order: 3\ncrawler: random", 1)
	if ls, err := Parse("lessons/a-lesson.md", []byte(withCrawler), lab.New()); err != nil || ls.Crawler != "random" {
		t.Errorf("crawler: random gives %+v, %v", ls, err)
	}
	html := string(ls.HTML)
	for _, want := range []string{
		`<output class="live" data-metric="changeRatio" data-policy="site-greedy">`,
		`<output class="live" data-metric="expectedChangeRatio" data-policy="site-greedy">`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("narrative lacks %s:\n%s", want, html)
		}
	}
}

// TestParseLabels checks that labelled copies of a policy are addressed by
// their labels: in a policies.LABEL.NAME control (typed from the copy's
// policy), in a chart's policies and in live numbers.
func TestParseLabels(t *testing.T) {
	src := strings.NewReplacer(
		"    - id: random", "    - id: random\n    - {id: site-greedy, label: big, params: {sampleSize: 40}}",
		"    refs:", "    policies: [site-greedy, big]\n    refs:",
		"  - field: dataset.id", "  - field: policies.big.sampleSize\n    label: Big sample\n    min: 1\n    max: 50\n  - field: dataset.id",
		"{{expectedChangeRatio site-greedy}}", "{{expectedChangeRatio big}}",
	).Replace(good)
	ls, err := Parse("lessons/a-lesson.md", []byte(src), lab.New())
	if err != nil {
		t.Fatal(err)
	}
	if c := ls.Controls[1]; c.Field != "policies.big.sampleSize" || c.Type != "range" {
		t.Errorf("control %+v", c)
	}
	if want := `data-policy="big"`; !strings.Contains(string(ls.HTML), want) {
		t.Errorf("narrative lacks %s", want)
	}
	bad := strings.Replace(src, "policies.big.sampleSize", "policies.small.sampleSize", 1)
	if _, err := Parse("lessons/a.md", []byte(bad), lab.New()); err == nil || !strings.Contains(err.Error(), `no policy "small" in the spec`) || !strings.Contains(err.Error(), "policies.small.sampleSize") {
		t.Errorf("control on an unknown label: error %v", err)
	}
}

// TestParseErrors checks that every kind of mistake an instructor can make
// names the file, where it can the line, and what is wrong.
func TestParseErrors(t *testing.T) {
	l := lab.New()
	tests := []struct {
		name, src, want string
	}{
		{"no front matter", "# Title\n", "a.md:1: expected a YAML front matter"},
		{"unclosed front matter", "---\ntitle: x\n", "a.md:1: expected the front matter to end"},
		{"bad yaml", "---\ntitle: [x\n---\n", "a.md:"},
		{"unknown key", "---\ntitle: x\ncolour: red\n---\n", "a.md:3: front matter: unknown field colour"},
		{"no title", strings.Replace(good, "title: A lesson", "title: ''", 1), "title is missing"},
		{"unknown dataset", strings.Replace(good, "taleghani-example", "nope", 1), `spec: dataset.id: unknown dataset "nope"`},
		{"unknown policy", strings.Replace(good, "- id: random", "- id: psychic", 1), `unknown policy "psychic"`},
		{"bad param", strings.Replace(good, "sampleSize: 10}", "sampleSize: -3}", 1), "below the minimum"},
		{"spec typo", strings.Replace(good, "budget: 100", "budjet: 100", 1), `unknown field "budjet"`},
		{"control field", strings.Replace(good, "field: params.sampleSize", "field: params.kappa", 1), `no policy in the spec has a parameter "kappa"`},
		{"control range", strings.Replace(good, "max: 50", "max: 0", 1), "expected min < max"},
		{"control label", strings.Replace(good, "label: Sample size", "label: ''", 1), "label is missing"},
		{"chart type", strings.Replace(good, "type: bars", "type: pie", 1), `type "pie"`},
		{"chart metric", strings.Replace(good, "metric: changeRatio", "metric: speed", 1), `unknown metric "speed"`},
		{"live metric", strings.Replace(good, "{{changeRatio site-greedy}}", "{{speed site-greedy}}", 1), `unknown metric "speed"`},
		{"live policy", strings.Replace(good, "{{changeRatio site-greedy}}", "{{changeRatio oracle}}", 1), `policy "oracle" is not in the lesson's spec`},
		{"chart policy", strings.Replace(good, "    refs:", "    policies: [random, oracle]\n    refs:", 1), `charts[0]: policy "oracle" is not in the lesson's spec`},
		{"copy without label", strings.Replace(good, "    - id: random", "    - id: random\n    - id: random", 1), "random appears twice"},
		{"crawler policy", strings.Replace(good, "order: 3", "order: 3\ncrawler: oracle", 1), `a.md:5: crawler: policy "oracle" is not in the lesson's spec`},
		{"crawler kind", "---\ntitle: x\ncrawler: naive\ngoals: [Read an estimate., Compare two.]\nminutes: 5\ntrack: choosing\nspec: {kind: estimate, dataset: {id: grimes-ford}, policies: [{id: naive}]}\ncharts: [{type: estimate-epochs}]\n---\n", "a.md:3: crawler: the crawler view plays a refresh experiment, not one of kind estimate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("lessons/a.md", []byte(tt.src), l)
			if err == nil {
				t.Fatalf("no error, want one containing %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "lessons/a.md") {
				t.Errorf("error %q, want it to start with the file and contain %q", err, tt.want)
			}
		})
	}
}

// TestFrontMatterLines checks the line each mistake in a front matter is
// reported at: lines of the lesson file, whose line 1 is the opening ---.
// A YAML syntax error has no line of its own (yaml.v3 gives its position
// only in the text of its message, which is kept).
func TestFrontMatterLines(t *testing.T) {
	l := lab.New()
	for _, tc := range []struct {
		name, src string
		line      int
		want      string
	}{
		{"unknown field", "---\ntitle: x\ncolour: red\n---\n", 3, "unknown field colour (expected one of title, summary"},
		{"given twice", "---\ntitle: x\nsummary: y\ntitle: z\n---\n", 4, "title is given twice (first at line 2)"},
		{"wrong type", "---\ntitle: x\norder: three\n---\n", 3, `order: expected a number, got "three"`},
		{"nested unknown field", "---\ntitle: x\ncontrols:\n  - field: budget\n    label: Budget\n  - field: cycles\n    lable: Cycles\n---\n", 7, "unknown field controls[1].lable"},
		{"nested wrong type", "---\ntitle: x\ncharts:\n  - type: bars\n    refs:\n      - {y: 1, label: a}\n      - {y: high, label: b}\n---\n", 7, `charts[0].refs[1].y: expected a number, got "high"`},
		{"not a list", "---\ntitle: x\n\npapers: one\n---\n", 4, `papers: expected a list, got "one"`},
		{"not fields", "---\n- a\n- b\n---\n", 2, "expected fields"},
		{"spec", strings.Replace(good, "budget: 100", "budjet: 100", 1), 10, `spec: json: unknown field "budjet"`},
		{"control", strings.Replace(good, "field: params.sampleSize", "field: params.kappa", 1), 18, `controls[0] (params.kappa): field "params.kappa": no policy`},
		{"chart", strings.Replace(good, "type: bars", "type: pie", 1), 27, `charts[0]: type "pie"`},
		{"syntax", "---\ntitle: x\nsummary: y\n  bad: indent\n---\n", 0, "front matter: line 4: mapping values are not allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("a.md", []byte(tc.src), l)
			var le *Error
			if !errors.As(err, &le) {
				t.Fatalf("error %v, want a lesson.Error", err)
			}
			if le.Line != tc.line || !strings.Contains(le.Msg, tc.want) {
				t.Errorf("line %d: %s; want line %d and %q", le.Line, le.Msg, tc.line, tc.want)
			}
		})
	}
}

// withNarrative is the good lesson with md for its narrative.
func withNarrative(md string) string {
	head, _, _ := strings.Cut(good[len("---\n"):], "\n---\n")
	return "---\n" + head + "\n---\n" + md + "\n"
}

// TestLiveNumbers checks where {{metric policy}} becomes a live number:
// in running text (emphasis and links included), not inside code spans,
// code blocks or raw HTML blocks, and not in a near miss; and that a bad
// one fails at its line of the file.
func TestLiveNumbers(t *testing.T) {
	l := lab.New()
	out := func(metric, policy string) string {
		return `<output class="live" data-metric="` + metric + `" data-policy="` + policy + `">…</output>`
	}
	for _, tc := range []struct {
		name, md, want string
	}{
		{"text", "Greedy finds {{changeRatio site-greedy}}.", "<p>Greedy finds " + out("changeRatio", "site-greedy") + ".</p>"},
		{"spaces inside", "{{ freshness  random }}", "<p>" + out("freshness", "random") + "</p>"},
		{"emphasis", "*{{age random}}*", "<p><em>" + out("age", "random") + "</em></p>"},
		{"link text", "[{{changeRatio random}}](#x)", `<p><a href="#x">` + out("changeRatio", "random") + "</a></p>"},
		{"code span", "Write `{{changeRatio site-greedy}}` for a live number.", "<p>Write <code>{{changeRatio site-greedy}}</code> for a live number.</p>"},
		{"code block", "```\n{{changeRatio site-greedy}}\n```", "<pre><code>{{changeRatio site-greedy}}\n</code></pre>"},
		{"indented code", "    {{changeRatio site-greedy}}", "<pre><code>{{changeRatio site-greedy}}\n</code></pre>"},
		{"html block", "<div>{{changeRatio site-greedy}}</div>", "<div>{{changeRatio site-greedy}}</div>"},
		{"one word", "{{changeRatio}} and {single}", "<p>{{changeRatio}} and {single}</p>"},
		{"escaped", `\{{changeRatio site-greedy}}`, "<p>{{changeRatio site-greedy}}</p>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ls, err := Parse("a.md", []byte(withNarrative(tc.md)), l)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSpace(string(ls.HTML)); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
	bodyLine := strings.Count(withNarrative(""), "\n") // the narrative's first line
	for _, tc := range []struct {
		name, md string
		line     int
		want     string
	}{
		{"unknown metric", "One.\n\nTwo {{speed site-greedy}}.", bodyLine + 2, `narrative: {{speed site-greedy}}: unknown metric "speed"`},
		{"policy not in the spec", "{{changeRatio oracle}}", bodyLine, `narrative: {{changeRatio oracle}}: policy "oracle" is not in the lesson's spec`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("a.md", []byte(withNarrative(tc.md)), l)
			var le *Error
			if !errors.As(err, &le) || le.Line != tc.line || !strings.HasPrefix(le.Msg, tc.want) {
				t.Errorf("error %v, want line %d: %s", err, tc.line, tc.want)
			}
		})
	}
}

// bundled parses every lesson the site ships.
func bundled(t *testing.T, l *lab.Lab) []*Lesson {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "..", "lessons", "*.md"))
	if len(files) == 0 {
		t.Fatal("no lessons found in lessons/")
	}
	var ls []*Lesson
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		x, err := Parse(f, src, l)
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, x)
	}
	return ls
}

// TestBundledPredictions runs every prediction of every lesson the site
// ships, natively, as the page runs it in WebAssembly: each lesson asks
// three or more, and the lab computes an answer to each, a finite number
// for its policy (less its minus) or for every policy it offers. With -v
// it logs the answers, for an author choosing bins and tolerances.
func TestBundledPredictions(t *testing.T) {
	l := lab.New()
	for _, x := range bundled(t, l) {
		if len(x.Predictions) < 3 {
			t.Errorf("%s: %d predictions; every lesson asks three or more before it tells", x.ID, len(x.Predictions))
		}
		for i, p := range x.Predictions {
			res, err := l.Run(p.Spec)
			if err != nil {
				t.Errorf("%s: prediction %d: %v", x.ID, i+1, err)
				continue
			}
			value := func(key string) float64 {
				for _, q := range res.Policies {
					if q.Key() != key {
						continue
					}
					if s, ok := q.Metrics[p.Metric]; ok {
						return s.Mean
					}
					if v, ok := q.Fact(p.Metric); ok {
						return v
					}
				}
				return math.NaN()
			}
			keys := p.Choices
			if len(keys) == 0 {
				keys = []string{p.Policy}
			}
			var got []string
			for _, k := range keys {
				v := value(k)
				if p.Minus != "" {
					v -= value(p.Minus)
				}
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("%s: prediction %d (%s of %s at %s): the lab gives no number", x.ID, i+1, p.Metric, k, p.At)
				}
				got = append(got, fmt.Sprintf("%s %.4g", k, v))
			}
			t.Logf("%s %d [%s] %s: %s (bins %v, tolerance %v)", x.ID, i+1, p.At, p.Metric, strings.Join(got, ", "), p.Bins, p.Tolerance)
		}
	}
}

// TestBundledLessons parses every lesson the site ships.
func TestBundledLessons(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "lessons", "*.md"))
	if len(files) == 0 {
		t.Fatal("no lessons found in lessons/")
	}
	l := lab.New()
	for _, f := range files {
		if strings.EqualFold(filepath.Base(f), "README.md") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(f, src, l); err != nil {
			t.Error(err)
		}
	}
}
