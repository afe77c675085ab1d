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
	"slices"
	"strings"

	"github.com/refreshlab/refreshlab/core/api"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/param"
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

	HTML   template.HTML `json:"-"` // the narrative, rendered
	Number int           `json:"-"` // position in the lesson list, from 1
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
	Title    string    `yaml:"title"`
	Summary  string    `yaml:"summary"`
	Order    int       `yaml:"order"`
	Papers   []string  `yaml:"papers"`
	Spec     any       `yaml:"spec"`
	Controls []Control `yaml:"controls"`
	Charts   []Chart   `yaml:"charts"`
	Readouts []string  `yaml:"readouts"`
	Crawler  string    `yaml:"crawler"`
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
func Parse(file string, src []byte, l *lab.Lab) (*Lesson, error) {
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
		Papers: f.Papers, Controls: f.Controls, Charts: f.Charts, Readouts: f.Readouts, Crawler: f.Crawler,
	}
	if ls.Title == "" {
		return nil, fail(0, "front matter: title is missing")
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
	out, rerr := render(body, ls)
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

// defaultReadouts are the metrics a lesson's numbers table shows when the
// lesson names none, by experiment kind.
var defaultReadouts = map[string][]string{
	lab.KindRefresh:  {lab.MetricChangeRatio, lab.MetricFreshness, lab.MetricAge},
	lab.KindEstimate: {lab.MetricMAD, lab.MetricEdgeShare},
	lab.KindSchedule: {lab.MetricFreshness, lab.MetricAge, lab.MetricHarmonic, lab.MetricSyncsPerDay},
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

// render turns the narrative into HTML, its live numbers into <output>
// elements the page fills in after each run. A live number whose metric or
// policy is unknown is an error, at its line of the narrative (from 1).
func render(body string, ls *Lesson) (template.HTML, *lineError) {
	md := goldmark.New(
		goldmark.WithExtensions(extension.GFM, extension.Footnote, extension.Typographer, liveNumbers{}),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
		// Lessons are part of the site's source, written by instructors,
		// so they may use HTML (a <details>, a note).
		goldmark.WithRendererOptions(html.WithUnsafe()),
	)
	src := []byte(body)
	doc := md.Parser().Parse(text.NewReader(src))
	var bad *lineError
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		l, ok := n.(*liveNumber)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		line := 1 + bytes.Count(src[:l.Offset], []byte("\n"))
		_, metric := lab.MetricByID(l.Metric)
		_, fact := lab.FactByID(l.Metric)
		if !metric && !fact {
			bad = &lineError{line: line, msg: fmt.Sprintf("narrative: %s: unknown metric %q (expected a metric, %s, or a fact, %s)", l.Source, l.Metric, lab.MetricIDs(""), lab.FactIDs(""))}
		} else if !slices.ContainsFunc(ls.Spec.Policies, func(p lab.PolicySpec) bool { return p.Key() == l.Policy }) {
			bad = &lineError{line: line, msg: fmt.Sprintf("narrative: %s: policy %q is not in the lesson's spec", l.Source, l.Policy)}
		}
		if bad != nil {
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	if bad != nil {
		return "", bad
	}
	var buf bytes.Buffer
	if err := md.Renderer().Render(&buf, src, doc); err != nil {
		return "", &lineError{msg: err.Error()}
	}
	return template.HTML(buf.String()), nil
}
