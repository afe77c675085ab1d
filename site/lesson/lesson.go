// Package lesson reads the lesson files in lessons/: a Markdown narrative
// under a YAML front matter that declares the experiment the lesson starts
// from, the controls the learner gets and the charts they see. Instructors
// edit these files without touching Go; Parse checks every field against the
// lab's catalog so a typo fails the build with the file, line and reason.
package lesson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"slices"
	"strings"

	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/refresh"
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
	Field   string   `json:"field" yaml:"field"`
	Label   string   `json:"label" yaml:"label"`
	Type    string   `json:"type" yaml:"type"` // range, select, choice, checkbox or policies; inferred when empty
	Min     float64  `json:"min,omitempty" yaml:"min"`
	Max     float64  `json:"max,omitempty" yaml:"max"`
	Step    float64  `json:"step,omitempty" yaml:"step"`
	Options []string `json:"options,omitempty" yaml:"options"` // for select and policies: the choices (default: all)
	Help    string   `json:"help,omitempty" yaml:"help"`
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
		Papers: f.Papers, Controls: f.Controls, Charts: f.Charts, Readouts: f.Readouts,
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
	if len(ls.Readouts) == 0 {
		ls.Readouts = []string{lab.MetricChangeRatio, lab.MetricFreshness, lab.MetricAge}
	}
	for _, m := range ls.Readouts {
		if _, ok := lab.MetricByID(m); !ok {
			return nil, fail(lines["readouts"], "readouts: unknown metric %q (expected one of %s)", m, lab.MetricIDs())
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
	for i, c := range ls.Charts {
		at := lines[fmt.Sprintf("charts[%d]", i)]
		if c.Type != "cycles" && c.Type != "bars" && c.Type != "sweep" && c.Type != "sites" && c.Type != "allocation" && !slices.Contains(estimateCharts, c.Type) {
			return nil, fail(at, "charts[%d]: type %q (expected cycles, bars, sweep, sites or one of %s)", i, c.Type, strings.Join(estimateCharts, ", "))
		}
		if slices.Contains(estimateCharts, c.Type) && ls.Spec.Kind != lab.KindEstimate {
			return nil, fail(at, "charts[%d]: a %s chart needs a spec of kind %s", i, c.Type, lab.KindEstimate)
		}
		if c.Metric == "" && slices.Contains(estimateCharts, c.Type) {
			ls.Charts[i].Metric, c.Metric = lab.MetricMAD, lab.MetricMAD
		}
		if (c.Type == "sweep" || c.Type == "estimate-sweep") && ls.Spec.Sweep == nil {
			return nil, fail(at, "charts[%d]: a sweep chart needs a sweep in the spec", i)
		}
		if _, ok := lab.MetricByID(c.Metric); !ok {
			return nil, fail(at, "charts[%d]: unknown metric %q (expected one of %s)", i, c.Metric, lab.MetricIDs())
		}
		for _, id := range c.Policies {
			if !slices.ContainsFunc(ls.Spec.Policies, func(p lab.PolicySpec) bool { return p.Key() == id }) {
				return nil, fail(at, "charts[%d]: policy %q is not in the lesson's spec (an id, or a copy's label)", i, id)
			}
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

var specFields = []string{"budget", "cycles", "repeats", "seed"}

// estimateCharts are the chart types of the estimate kind (core/api
// chart_estimate.go).
var estimateCharts = []string{"estimate-paths", "estimate-sweep", "estimate-prior", "estimate-epochs"}

// estimateFields are the estimate kind's numeric spec fields a control may
// edit, and estimateLive its live numbers that are not metrics (see
// experiment.js estimateLive).
var (
	estimateFields = []string{"estimate.rate", "estimate.pages", "estimate.epochs", "estimate.every", "estimate.pathRate",
		"estimate.crawl.initial", "estimate.crawl.fraction"}
	estimateLive = []string{"bestInitial", "pseudoChanged", "pseudoUnchanged", "expectedEstimate", "edgeFirst", "madLast"}
)

// checkControl checks c against the spec and catalog and fills in its type.
func checkControl(c *Control, spec lab.Spec, l *lab.Lab) error {
	if c.Label == "" {
		return fmt.Errorf("label is missing")
	}
	numeric := func() error {
		if c.Type == "" {
			c.Type = "range"
		}
		if c.Type != "range" {
			return fmt.Errorf("type %q (expected range for a number)", c.Type)
		}
		if c.Step == 0 {
			c.Step = 1
		}
		if !(c.Min < c.Max) || c.Step <= 0 {
			return fmt.Errorf("expected min < max and step > 0, got min %v, max %v, step %v", c.Min, c.Max, c.Step)
		}
		return nil
	}
	hasParam := func(policyID, name string) (string, bool) {
		for _, d := range l.Policies() {
			if policyID != "" && d.ID != policyID {
				continue
			}
			for _, p := range d.Params {
				if p.Name == name {
					return p.Type, true
				}
			}
		}
		return "", false
	}
	// typed sets the control's type from its parameter's.
	typed := func(t string) error {
		switch t {
		case "bool":
			c.Type = "checkbox"
			return nil
		case "enum":
			c.Type = "choice"
			return nil
		}
		return numeric()
	}
	switch {
	case slices.Contains(specFields, c.Field):
		return numeric()
	case slices.Contains(estimateFields, c.Field):
		if spec.Kind != lab.KindEstimate {
			return fmt.Errorf("%s needs a spec of kind %s", c.Field, lab.KindEstimate)
		}
		return numeric()
	case c.Field == "schedule.days" || c.Field == "schedule.observe":
		if spec.Kind != lab.KindSchedule {
			return fmt.Errorf("%s needs a spec of kind %s", c.Field, lab.KindSchedule)
		}
		return numeric()
	case c.Field == "schedule.rates":
		if spec.Kind != lab.KindSchedule {
			return fmt.Errorf("%s needs a spec of kind %s", c.Field, lab.KindSchedule)
		}
		if c.Type == "" {
			c.Type = "choice"
		}
		if len(c.Options) == 0 {
			c.Options = []string{lab.RatesOracle, lab.EstNaive, lab.EstCGM, lab.EstMLE}
		}
		return nil
	case c.Field == "estimate.crawl.mode":
		if c.Type == "" {
			c.Type = "choice"
		}
		if len(c.Options) == 0 {
			c.Options = []string{lab.CrawlSequential, lab.CrawlFixed}
		}
		return nil
	case c.Field == "dataset.id":
		if c.Type == "" {
			c.Type = "select"
		}
		for _, o := range c.Options {
			if _, ok := l.Dataset(o); !ok {
				return fmt.Errorf("option %q is not a dataset of the catalog", o)
			}
		}
		return nil
	case c.Field == "policies":
		c.Type = "policies"
		for _, o := range c.Options {
			if _, ok := hasPolicy(l, o); !ok {
				return fmt.Errorf("option %q is not a policy of the catalog", o)
			}
		}
		return nil
	case strings.HasPrefix(c.Field, "params."):
		name := strings.TrimPrefix(c.Field, "params.")
		found := false
		var typ string
		for _, p := range spec.Policies {
			if t, ok := hasParam(p.ID, name); ok {
				found, typ = true, t
			}
		}
		if !found {
			return fmt.Errorf("no policy in the spec has a parameter %q", name)
		}
		return typed(typ)
	case strings.HasPrefix(c.Field, "policies."):
		id, name, ok := strings.Cut(strings.TrimPrefix(c.Field, "policies."), ".")
		if !ok {
			return fmt.Errorf("expected policies.ID.PARAM")
		}
		if i := slices.IndexFunc(spec.Policies, func(p lab.PolicySpec) bool { return p.Key() == id }); i >= 0 {
			id = spec.Policies[i].ID // a label (lab.PolicySpec.Key) names a copy of a policy
		}
		t, ok := hasParam(id, name)
		if !ok {
			return fmt.Errorf("policy %q has no parameter %q", id, name)
		}
		return typed(t)
	}
	return fmt.Errorf("unknown field (expected one of %s, dataset.id, params.NAME, policies.ID.NAME or policies)", strings.Join(specFields, ", "))
}

func hasPolicy(l *lab.Lab, id string) (int, bool) {
	i := slices.IndexFunc(l.Policies(), func(d refresh.Descriptor) bool { return d.ID == id })
	return i, i >= 0
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
		if _, ok := lab.MetricByID(l.Metric); !ok && l.Metric != "expectedChangeRatio" && !slices.Contains(estimateLive, l.Metric) {
			bad = &lineError{line: line, msg: fmt.Sprintf("narrative: %s: unknown metric %q", l.Source, l.Metric)}
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
