// Package lesson reads the lesson files in lessons/: a Markdown narrative
// under a YAML front matter that declares the experiment the lesson starts
// from, the controls the learner gets and the charts they see. Instructors
// edit these files without touching Go; Parse checks every field against the
// lab's catalog so a typo fails the build with the file, line and reason.
package lesson

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"html/template"
	"maps"
	"slices"
	"strings"

	"github.com/refreshlab/refreshlab/core/api"
	"github.com/refreshlab/refreshlab/core/estimate/estimatekind"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/param"
	"github.com/refreshlab/refreshlab/core/schedule/schedulekind"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
)

// Lesson is one parsed lesson file.
type Lesson struct {
	ID       string    `json:"id"` // the file name without .md
	Title    string    `json:"title"`
	Summary  string    `json:"summary"`
	Order    int       `json:"order"`
	Papers   []string  `json:"papers,omitempty"`
	Spec     lab.Spec  `json:"spec"`
	Controls []Control `json:"controls"`
	Charts   []Chart   `json:"charts"`
	Readouts []string  `json:"readouts"` // metric ids shown in the numbers table
	// Crawler, when set, shows the crawler view under the charts
	// (site/static/js/crawler.js): one repeat of the spec's policies,
	// played cycle by cycle (POST /api/trace), this policy (a key of the
	// spec's policies) first.
	Crawler string `json:"crawler,omitempty"`
	// Goals are the two or three things the learner will be able to do,
	// shown at the top of the lesson and on its card in the index.
	Goals       []string     `json:"goals"`
	Minutes     int          `json:"minutes"` // time to work through it, for the index
	Track       string       `json:"track"`   // a Tracks id
	Predictions []Prediction `json:"predictions,omitempty"`

	HTML      template.HTML   `json:"-"` // the narrative, rendered
	GoalsHTML []template.HTML `json:"-"` // the goals, rendered
	Number    int             `json:"-"` // position in the lesson list, from 1
}

// Control is one input the learner gets. Field says which part of the spec
// it edits:
//
//	budget, cycles, repeats, seed   the spec's numbers
//	dataset.id                      the dataset (a select of the catalog's)
//	params.NAME                     parameter NAME of every policy in the spec that has it
//	policies.ID.NAME                parameter NAME of policy ID only (or of the copy labelled ID)
//	policies                        which policies run (a checkbox per policy)
type Control struct {
	Field string `json:"field" yaml:"field"`
	// Resolved is Field resolved against the lesson's spec (lab.Field):
	// what it sets and where its value goes, for the page.
	Resolved *lab.Field `json:"resolved" yaml:"-"`
	Label    string     `json:"label" yaml:"label"`
	Type     string     `json:"type" yaml:"type"` // range, select, choice, checkbox or policies; inferred when empty
	Min      float64    `json:"min,omitempty" yaml:"min"`
	Max      float64    `json:"max,omitempty" yaml:"max"`
	Step     float64    `json:"step,omitempty" yaml:"step"`
	Options  []string   `json:"options,omitempty" yaml:"options"` // for select and policies: the choices (default: all)
	Help     string     `json:"help,omitempty" yaml:"help"`
	// Taught, for a policies control, are the policies taught so far
	// (Reveal): the page shows these and puts the rest behind "More
	// policies".
	Taught []string `json:"taught,omitempty" yaml:"-"`
}

// Chart is one chart the lesson shows; see the API's chart options.
type Chart struct {
	Type     string   `json:"type" yaml:"type"`
	Metric   string   `json:"metric" yaml:"metric"`
	Title    string   `json:"title,omitempty" yaml:"title"`
	Caption  string   `json:"caption,omitempty" yaml:"caption"`
	Policies []string `json:"policies,omitempty" yaml:"policies"`
	Refs     []Ref    `json:"refs,omitempty" yaml:"refs"`
	MarkAuto bool     `json:"markAuto,omitempty" yaml:"markAuto"` // sweep: mark the computed default
	Expected bool     `json:"expected,omitempty" yaml:"expected"` // sweep: draw exact expectations
	Fit      bool     `json:"fit,omitempty" yaml:"fit"`           // fit the y axis to the data rather than 0..1
}

// Ref is a horizontal reference line on a chart, such as a paper's figure.
type Ref struct {
	Y     float64 `json:"y" yaml:"y"`
	Label string  `json:"label" yaml:"label"`
}

// front is the YAML front matter as written.
type front struct {
	Title       string       `yaml:"title"`
	Summary     string       `yaml:"summary"`
	Order       int          `yaml:"order"`
	Papers      []string     `yaml:"papers"`
	Spec        any          `yaml:"spec"`
	Controls    []Control    `yaml:"controls"`
	Charts      []Chart      `yaml:"charts"`
	Readouts    []string     `yaml:"readouts"`
	Goals       []string     `yaml:"goals"`
	Minutes     int          `yaml:"minutes"`
	Track       string       `yaml:"track"`
	Predictions []Prediction `yaml:"predictions"`
	Crawler     string       `yaml:"crawler"`
}

// Error is a problem in a lesson file.
type Error struct {
	File string
	Line int // 0 when unknown
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Parse reads the lesson in src, named file (its base name without .md is
// the lesson's id), and checks it against l's catalog.
func Parse(file string, src []byte, l *lab.Lab, opts ...Option) (*Lesson, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	fail := func(line int, format string, args ...any) error {
		return &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	text := strings.ReplaceAll(string(src), "\r\n", "\n")
	if !strings.HasPrefix(text, "---\n") {
		return nil, fail(1, "expected a YAML front matter starting with a line ---")
	}
	head, body, ok := strings.Cut(text[4:], "\n---\n")
	if !ok {
		return nil, fail(1, "expected the front matter to end with a line ---")
	}
	var f front
	lines, ferr := decodeFront(head, &f)
	if ferr != nil {
		return nil, fail(ferr.line, "front matter: %s", ferr.msg)
	}
	base := file[strings.LastIndexAny(file, `/\`)+1:]
	ls := &Lesson{
		ID: strings.TrimSuffix(base, ".md"), Title: f.Title, Summary: f.Summary, Order: f.Order,
		Papers: f.Papers, Controls: f.Controls, Charts: f.Charts, Readouts: f.Readouts,
		Goals: f.Goals, Minutes: f.Minutes, Track: f.Track, Predictions: f.Predictions, Crawler: f.Crawler,
	}
	if ls.Title == "" {
		return nil, fail(0, "front matter: title is missing")
	}
	if n := len(ls.Goals); n < 2 || n > 3 {
		return nil, fail(lines["goals"], "goals: expected two or three learning goals, one a line, got %d", n)
	}
	if ls.Minutes <= 0 {
		return nil, fail(lines["minutes"], "minutes: expected the minutes the lesson takes, a whole number above 0")
	}
	if !slices.Contains(trackIDs(), ls.Track) {
		return nil, fail(lines["track"], "track %q: expected one of %s", ls.Track, strings.Join(trackIDs(), ", "))
	}
	// Text shown as it is must hold no TeX: formulas go in the narrative,
	// goals and predictions, between $ signs, where they are typeset.
	plain := map[string]string{"title": ls.Title, "summary": ls.Summary}
	for i, c := range ls.Controls {
		plain[fmt.Sprintf("controls[%d].label", i)], plain[fmt.Sprintf("controls[%d].help", i)] = c.Label, c.Help
	}
	for i, c := range ls.Charts {
		plain[fmt.Sprintf("charts[%d].title", i)], plain[fmt.Sprintf("charts[%d].caption", i)] = c.Title, c.Caption
		for j, r := range c.Refs {
			plain[fmt.Sprintf("charts[%d].refs[%d].label", i, j)] = r.Label
		}
	}
	for _, path := range slices.Sorted(maps.Keys(plain)) {
		if t := rawTeX(plain[path]); t != "" {
			return nil, fail(lines[path], "%s: raw TeX %q: this text is shown as it is, so write the formula in words or Unicode (a formula in $…$ is typeset only in the narrative, goals and predictions)", path, t)
		}
	}
	// The spec goes through JSON, exactly as the API reads it.
	js, err := json.Marshal(f.Spec)
	if err != nil {
		return nil, fail(lines["spec"], "spec: %v", err)
	}
	dj := json.NewDecoder(bytes.NewReader(js))
	dj.DisallowUnknownFields()
	if err := dj.Decode(&ls.Spec); err != nil {
		return nil, fail(lines["spec"], "spec: %v", err)
	}
	if _, _, err := l.Resolve(ls.Spec); err != nil {
		return nil, fail(lines["spec"], "spec: %v", err)
	}
	kind := cmp.Or(ls.Spec.Kind, lab.KindRefresh)
	if len(ls.Readouts) == 0 {
		ls.Readouts = defaultReadouts[kind]
	}
	for _, id := range ls.Readouts {
		if m, ok := lab.MetricByID(id); !ok || !m.AppliesTo(kind) {
			return nil, fail(lines["readouts"], "readouts: unknown metric %q (expected one of %s)", id, lab.MetricIDs(kind))
		}
	}
	for i := range ls.Controls {
		if err := checkControl(&ls.Controls[i], ls.Spec, l); err != nil {
			return nil, fail(lines[fmt.Sprintf("controls[%d]", i)], "controls[%d] (%s): %v", i, ls.Controls[i].Field, err)
		}
	}
	if len(ls.Charts) == 0 {
		return nil, fail(lines["charts"], "charts: a lesson needs at least one chart")
	}
	for i := range ls.Charts {
		if err := checkChart(&ls.Charts[i], ls.Spec); err != nil {
			return nil, fail(lines[fmt.Sprintf("charts[%d]", i)], "charts[%d]: %v", i, err)
		}
	}
	if ls.Crawler != "" {
		if kind != lab.KindRefresh {
			return nil, fail(lines["crawler"], "crawler: the crawler view plays a refresh experiment, not one of kind %s", kind)
		}
		if !slices.ContainsFunc(ls.Spec.Policies, func(p lab.PolicySpec) bool { return p.Key() == ls.Crawler }) {
			return nil, fail(lines["crawler"], "crawler: policy %q is not in the lesson's spec (an id, or a copy's label)", ls.Crawler)
		}
	}
	for i, g := range ls.Goals {
		path := fmt.Sprintf("goals[%d]", i)
		h, err := renderInline(g, &o)
		if err != nil {
			return nil, fail(lines[path], "%s: %s", path, err.msg)
		}
		ls.GoalsHTML = append(ls.GoalsHTML, h)
	}
	for i := range ls.Predictions {
		p := &ls.Predictions[i]
		path := fmt.Sprintf("predictions[%d]", i)
		if err := checkPrediction(p, ls.Spec, ls.Controls, l); err != nil {
			return nil, fail(lines[path], "%s: %v", path, err)
		}
		var herr *lineError
		if p.AskHTML, herr = renderInline(p.Ask, &o); herr != nil {
			return nil, fail(lines[path+".ask"], "%s.ask: %s", path, herr.msg)
		}
		if p.WhyHTML, herr = renderInline(p.Why, &o); herr != nil {
			return nil, fail(lines[path+".why"], "%s.why: %s", path, herr.msg)
		}
	}
	out, rerr := render(body, ls, &o)
	if rerr != nil {
		line := 0
		if rerr.line > 0 { // a line of the narrative, which starts after the front matter
			line = strings.Count(text[:len(text)-len(body)], "\n") + rerr.line
		}
		return nil, fail(line, "%s", rerr.msg)
	}
	ls.HTML = out
	return ls, nil
}

// predictionsMark is where a lesson's narrative places its predictions: a
// paragraph of its own. Without it they close the narrative.
const predictionsMark = "{{predictions}}"

// defaultReadouts are the metrics a lesson's numbers table shows when the
// lesson names none, by experiment kind.
var defaultReadouts = map[string][]string{
	lab.KindRefresh: {lab.MetricChangeRatio, lab.MetricFreshness, lab.MetricAge},
	estimatekind.ID: {estimatekind.MetricMAD, estimatekind.MetricEdgeShare},
	schedulekind.ID: {lab.MetricFreshness, lab.MetricAge, schedulekind.MetricHarmonic, schedulekind.MetricSyncsPerDay},
}

// widgets maps a field's type to the control that edits it.
var widgets = map[string]string{
	param.Int: "range", param.Float: "range", param.Bool: "checkbox", param.Enum: "choice",
	lab.FieldDataset: "select", lab.FieldPolicies: "policies",
}

// checkControl resolves c's field against the spec and catalog
// (lab.Field), fills in its type and checks its range and options.
func checkControl(c *Control, spec lab.Spec, l *lab.Lab) error {
	if c.Label == "" {
		return fmt.Errorf("label is missing")
	}
	f, err := l.Field(spec, c.Field)
	if err != nil {
		return err
	}
	c.Resolved = &f
	want := widgets[f.Type]
	switch {
	case c.Type == "":
		c.Type = want
	case c.Type != want:
		return fmt.Errorf("type %q (expected %s for a field of type %s)", c.Type, want, f.Type)
	}
	switch c.Type {
	case "range":
		if c.Step == 0 {
			c.Step = 1
		}
		if !(c.Min < c.Max) || c.Step <= 0 {
			return fmt.Errorf("expected min < max and step > 0, got min %v, max %v, step %v", c.Min, c.Max, c.Step)
		}
	case "choice":
		if len(c.Options) == 0 {
			c.Options = f.Param.Options
		}
		for _, o := range c.Options {
			if !slices.Contains(f.Param.Options, o) {
				return fmt.Errorf("option %q is not one of %s", o, strings.Join(f.Param.Options, ", "))
			}
		}
	case "select", "policies":
		for _, o := range c.Options {
			if !slices.Contains(f.Options, o) {
				return fmt.Errorf("option %q is not one of the catalog's: %s", o, strings.Join(f.Options, ", "))
			}
		}
	}
	return nil
}

// checkChart checks a chart against the API's chart types and the spec,
// and fills in its default metric.
func checkChart(c *Chart, spec lab.Spec) error {
	kind := cmp.Or(spec.Kind, lab.KindRefresh)
	ct, ok := api.ChartTypeByID(c.Type)
	if !ok {
		var ids []string
		for _, t := range api.ChartTypes {
			ids = append(ids, t.ID)
		}
		return fmt.Errorf("type %q (expected one of %s)", c.Type, strings.Join(ids, ", "))
	}
	if !slices.Contains(ct.Kinds, kind) {
		return fmt.Errorf("a %s chart draws experiments of kind %s, not %s", c.Type, strings.Join(ct.Kinds, " or "), kind)
	}
	if ct.Sweep && spec.Sweep == nil {
		return fmt.Errorf("a %s chart needs a sweep in the spec", c.Type)
	}
	if c.Metric == "" {
		c.Metric = ct.Metric
	}
	if m, ok := lab.MetricByID(c.Metric); c.Metric != "" && (!ok || !m.AppliesTo(kind)) {
		return fmt.Errorf("unknown metric %q (expected one of %s)", c.Metric, lab.MetricIDs(kind))
	}
	for _, id := range c.Policies {
		if !slices.ContainsFunc(spec.Policies, func(p lab.PolicySpec) bool { return p.Key() == id }) {
			return fmt.Errorf("policy %q is not in the lesson's spec (an id, or a copy's label)", id)
		}
	}
	return nil
}

// markdown is the lessons' Markdown: GitHub's tables, footnotes,
// typographic quotes and dashes, formulas ($…$, typeset with o's
// typesetter), and, with live, live numbers. Lessons are part of the
// site's source, written by instructors, so they may use HTML (a
// <details>, a note). It returns the formulas' MathML map, which
// typesetAll fills in before rendering.
func markdown(live bool) (goldmark.Markdown, map[*mathSpan]string) {
	typeset := map[*mathSpan]string{}
	ext := []goldmark.Extender{extension.GFM, extension.Footnote, extension.Typographer, mathExtension{typeset}}
	if live {
		ext = append(ext, liveNumbers{})
	}
	return goldmark.New(
		goldmark.WithExtensions(ext...),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
		goldmark.WithRendererOptions(html.WithUnsafe()),
	), typeset
}

// check walks a parsed document: it typesets each formula into typeset
// with o's typesetter, finds TeX written outside a formula, and calls
// each, when given, on every other node. The first problem is reported at
// its line of src (from 1).
func check(doc ast.Node, src []byte, o *options, typeset map[*mathSpan]string, each func(ast.Node) *lineError) *lineError {
	lineOf := func(offset int) int { return 1 + bytes.Count(src[:offset], []byte("\n")) }
	var bad *lineError
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if textBlock(n) && n.Lines().Len() > 0 {
			if t := rawTeX(blockText(n, src)); t != "" {
				bad = &lineError{line: lineOf(n.Lines().At(0).Start), msg: fmt.Sprintf("raw TeX %q: write the formula between $ signs, $…$, where it is typeset", t)}
				return ast.WalkStop, nil
			}
		}
		if m, ok := n.(*mathSpan); ok {
			if o.math != nil {
				out, err := o.math(m.TeX, m.Display)
				if err != nil {
					bad = &lineError{line: lineOf(m.Offset), msg: fmt.Sprintf("formula $%s$: %v", m.TeX, err)}
					return ast.WalkStop, nil
				}
				typeset[m] = out
			}
			return ast.WalkSkipChildren, nil
		}
		if each != nil {
			if bad = each(n); bad != nil {
				return ast.WalkStop, nil
			}
		}
		return ast.WalkContinue, nil
	})
	return bad
}

// renderInline renders one paragraph of Markdown (a goal, a question, an
// explanation) without its <p>.
func renderInline(md string, o *options) (template.HTML, *lineError) {
	m, typeset := markdown(false)
	src := []byte(md)
	doc := m.Parser().Parse(text.NewReader(src))
	if doc.ChildCount() != 1 || doc.FirstChild().Kind() != ast.KindParagraph {
		return "", &lineError{msg: "expected one paragraph of text"}
	}
	if bad := check(doc, src, o, typeset, nil); bad != nil {
		return "", bad
	}
	var buf bytes.Buffer
	if err := m.Renderer().Render(&buf, src, doc); err != nil {
		return "", &lineError{msg: err.Error()}
	}
	out := strings.TrimSpace(buf.String())
	out = strings.TrimSuffix(strings.TrimPrefix(out, "<p>"), "</p>")
	return template.HTML(out), nil
}

// render turns the narrative into HTML, its live numbers into <output>
// elements the page fills in after each run, its formulas into MathML and
// its predictions mark into the lesson's predictions. A live number whose
// metric or policy is unknown is an error, at its line of the narrative
// (from 1), and so is TeX outside a formula.
func render(body string, ls *Lesson, o *options) (template.HTML, *lineError) {
	md, typeset := markdown(true)
	src := []byte(body)
	doc := md.Parser().Parse(text.NewReader(src))
	marks := 0
	bad := check(doc, src, o, typeset, func(n ast.Node) *lineError {
		line := func(offset int) int { return 1 + bytes.Count(src[:offset], []byte("\n")) }
		if p, ok := n.(*ast.Paragraph); ok && strings.TrimSpace(string(p.Lines().Value(src))) == predictionsMark {
			marks++
			if len(ls.Predictions) == 0 || marks > 1 {
				return &lineError{line: line(p.Lines().At(0).Start), msg: fmt.Sprintf("narrative: %s marks where the predictions go, once, in a lesson that has predictions", predictionsMark)}
			}
		}
		l, ok := n.(*liveNumber)
		if !ok {
			return nil
		}
		_, metric := lab.MetricByID(l.Metric)
		_, fact := lab.FactByID(l.Metric)
		if !metric && !fact {
			return &lineError{line: line(l.Offset), msg: fmt.Sprintf("narrative: %s: unknown metric %q (expected a metric, %s, or a fact, %s)", l.Source, l.Metric, lab.MetricIDs(""), lab.FactIDs(""))}
		}
		if !slices.ContainsFunc(ls.Spec.Policies, func(p lab.PolicySpec) bool { return p.Key() == l.Policy }) {
			return &lineError{line: line(l.Offset), msg: fmt.Sprintf("narrative: %s: policy %q is not in the lesson's spec", l.Source, l.Policy)}
		}
		return nil
	})
	if bad != nil {
		return "", bad
	}
	var buf bytes.Buffer
	if err := md.Renderer().Render(&buf, src, doc); err != nil {
		return "", &lineError{msg: err.Error()}
	}
	out := buf.String()
	if len(ls.Predictions) > 0 {
		list, err := renderPredictions(ls.Predictions)
		if err != nil {
			return "", &lineError{msg: err.Error()}
		}
		if marks == 1 {
			out = strings.Replace(out, "<p>"+predictionsMark+"</p>", list, 1)
		} else {
			out += list
		}
	}
	return template.HTML(out), nil
}
