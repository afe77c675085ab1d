package lesson

import (
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/refreshlab/refreshlab/core/lab"
)

// Prediction is a "Try this" step that asks before it tells: the learner
// commits to a guess, then the page runs the lesson's experiment at the
// step's setting and shows what the lab computed, with the author's
// explanation. The answer is never in the lesson's text: the lab computes
// it in the learner's tab (site/static/js/predict.js).
//
// The number asked for is a metric or fact (Metric) of one policy
// (Policy), less another's (Minus) when given. The learner answers in one
// of three ways, exactly one of which a prediction sets:
//
//	tolerance   a number; right when within ± tolerance of the lab's
//	bins        a choice among the intervals the increasing numbers bins cut
//	choices     a choice among policies: which has the highest (or lowest,
//	            Pick) value of the metric; Policy and Minus are then unset
type Prediction struct {
	Ask string `json:"-" yaml:"ask"` // the question (Markdown, one paragraph)
	// Set is the setting to apply to the lesson's spec, by field path
	// (lab.Field, as controls name them) and value.
	Set       map[string]any `json:"-" yaml:"set"`
	Metric    string         `json:"metric" yaml:"metric"`
	Policy    string         `json:"policy,omitempty" yaml:"policy"`
	Minus     string         `json:"minus,omitempty" yaml:"minus"`
	Tolerance float64        `json:"tolerance,omitempty" yaml:"tolerance"`
	Bins      []float64      `json:"bins,omitempty" yaml:"bins"`
	Choices   []string       `json:"choices,omitempty" yaml:"choices"`
	// Labels names the choices on the page, in their order; by default
	// each policy's catalog name (and a copy's label).
	Labels []string `json:"labels,omitempty" yaml:"labels"`
	Pick   string   `json:"pick,omitempty" yaml:"pick"` // highest or lowest; default by the metric's better
	Why    string   `json:"-" yaml:"why"`               // the explanation shown after the guess (Markdown)

	// Spec is the lesson's spec at the setting, for the page to run.
	Spec lab.Spec `json:"spec" yaml:"-"`
	// Unit is the metric's or fact's, for formatting the answer.
	Unit string `json:"unit" yaml:"-"`
	// Options are what the learner chooses among, in order: for bins,
	// each interval's bounds (Lo or Hi absent at the ends).
	Options []Choice `json:"options,omitempty" yaml:"-"`
	// At says the setting in words, for the answer ("budget 20").
	At string `json:"at" yaml:"-"`

	AskHTML template.HTML `json:"-" yaml:"-"`
	WhyHTML template.HTML `json:"-" yaml:"-"`
}

// Choice is one answer a learner may choose.
type Choice struct {
	Label  string   `json:"label"`
	Policy string   `json:"policy,omitempty"`
	Lo     *float64 `json:"lo,omitempty"`
	Hi     *float64 `json:"hi,omitempty"`
}

// checkPrediction checks p against the lesson's spec and the catalog, and
// fills in what the page needs: the spec at the setting, resolved through
// lab.Field and Field.Set as controls' values are, and checked by the lab
// as a run would check it; the unit; and the options.
func checkPrediction(p *Prediction, spec lab.Spec, controls []Control, l *lab.Lab) error {
	if strings.TrimSpace(p.Ask) == "" {
		return fmt.Errorf("ask is missing: the question the learner answers")
	}
	if strings.TrimSpace(p.Why) == "" {
		return fmt.Errorf("why is missing: the explanation shown once the learner has guessed")
	}
	kind := cmp.Or(spec.Kind, lab.KindRefresh)
	if m, ok := lab.MetricByID(p.Metric); ok && m.AppliesTo(kind) {
		p.Unit = m.Unit
		if p.Pick == "" && len(p.Choices) > 0 {
			switch m.Better {
			case "higher":
				p.Pick = "highest"
			case "lower":
				p.Pick = "lowest"
			}
		}
	} else if f, ok := lab.FactByID(p.Metric); ok && slices.Contains(f.Kinds, kind) {
		p.Unit = f.Unit
	} else {
		return fmt.Errorf("metric %q: expected a metric (%s) or a fact (%s)", p.Metric, lab.MetricIDs(kind), lab.FactIDs(kind))
	}
	inSpec := func(key string) bool {
		return slices.ContainsFunc(spec.Policies, func(q lab.PolicySpec) bool { return q.Key() == key })
	}
	ways := 0
	for _, set := range []bool{p.Tolerance != 0, len(p.Bins) > 0, len(p.Choices) > 0} {
		if set {
			ways++
		}
	}
	if ways != 1 {
		return fmt.Errorf("expected exactly one way to answer: tolerance (a number), bins (intervals) or choices (policies); got %d", ways)
	}
	switch {
	case len(p.Choices) > 0:
		if p.Policy != "" || p.Minus != "" {
			return fmt.Errorf("a prediction with choices asks which policy has the %s %s, so it takes no policy or minus", cmp.Or(p.Pick, "highest"), p.Metric)
		}
		if len(p.Choices) < 2 {
			return fmt.Errorf("choices: expected two or more policies to choose among")
		}
		if p.Pick != "highest" && p.Pick != "lowest" {
			return fmt.Errorf("pick %q: expected highest or lowest (the metric says no better direction)", p.Pick)
		}
		if len(p.Labels) > 0 && len(p.Labels) != len(p.Choices) {
			return fmt.Errorf("labels: %d labels for %d choices", len(p.Labels), len(p.Choices))
		}
		for i, key := range p.Choices {
			if !inSpec(key) {
				return fmt.Errorf("choices: policy %q is not in the lesson's spec (an id, or a copy's label)", key)
			}
			if slices.Index(p.Choices, key) != i {
				return fmt.Errorf("choices: %s is offered twice", key)
			}
			label := policyName(spec, l, key)
			if len(p.Labels) > 0 {
				label = p.Labels[i]
			}
			p.Options = append(p.Options, Choice{Label: label, Policy: key})
		}
	default:
		if p.Policy == "" {
			return fmt.Errorf("policy is missing: whose %s the learner predicts", p.Metric)
		}
		for _, key := range []string{p.Policy, p.Minus} {
			if key != "" && !inSpec(key) {
				return fmt.Errorf("policy %q is not in the lesson's spec (an id, or a copy's label)", key)
			}
		}
		if p.Minus == p.Policy {
			return fmt.Errorf("minus: %s less itself is always 0", p.Policy)
		}
		if len(p.Labels) > 0 || p.Pick != "" {
			return fmt.Errorf("labels and pick go with choices of policies")
		}
		if p.Tolerance < 0 || math.IsNaN(p.Tolerance) {
			return fmt.Errorf("tolerance: expected a number above 0, got %v", p.Tolerance)
		}
		for i := 1; i < len(p.Bins); i++ {
			if !(p.Bins[i-1] < p.Bins[i]) {
				return fmt.Errorf("bins: expected increasing numbers, got %v", p.Bins)
			}
		}
		for i := 0; i <= len(p.Bins) && len(p.Bins) > 0; i++ {
			var o Choice
			switch {
			case i == 0:
				o = Choice{Label: "below " + number(p.Bins[0]), Hi: &p.Bins[0]}
			case i == len(p.Bins):
				o = Choice{Label: "above " + number(p.Bins[i-1]), Lo: &p.Bins[i-1]}
			default:
				o = Choice{Label: "between " + number(p.Bins[i-1]) + " and " + number(p.Bins[i]), Lo: &p.Bins[i-1], Hi: &p.Bins[i]}
			}
			p.Options = append(p.Options, o)
		}
	}
	s, at, err := applySetting(spec, p.Set, controls, l)
	if err != nil {
		return err
	}
	p.Spec, p.At = s, at
	return nil
}

// applySetting returns spec with each field of set at its value, and the
// setting in words (each field by the label of the control that edits it,
// if one does), fields in alphabetical order (a map has none of its own). The lab resolves the result as a run would, so a value out of
// range fails here, at build time, not in the learner's tab.
func applySetting(spec lab.Spec, set map[string]any, controls []Control, l *lab.Lab) (lab.Spec, string, error) {
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var words []string
	for _, path := range keys {
		f, err := l.Field(spec, path)
		if err != nil {
			return spec, "", fmt.Errorf("set: %v", err)
		}
		v := set[path]
		if i, ok := v.(int); ok { // YAML's whole numbers; the spec takes JSON's
			v = float64(i)
		}
		if spec, err = f.Set(spec, v); err != nil {
			return spec, "", fmt.Errorf("set: %v", err)
		}
		name := path
		if i := slices.IndexFunc(controls, func(c Control) bool { return c.Field == path }); i >= 0 {
			name = controls[i].Label
		}
		words = append(words, fmt.Sprintf("%s = %v", name, v))
	}
	if _, _, err := l.Resolve(spec); err != nil {
		return spec, "", fmt.Errorf("set: %v", err)
	}
	if len(words) == 0 {
		return spec, "the lesson's own setting", nil
	}
	return spec, strings.Join(words, ", "), nil
}

// policyName is how the page names a policy of the spec: its catalog name,
// and a copy's label after it.
func policyName(spec lab.Spec, l *lab.Lab, key string) string {
	i := slices.IndexFunc(spec.Policies, func(q lab.PolicySpec) bool { return q.Key() == key })
	p := spec.Policies[i]
	name := p.ID
	for _, d := range l.Policies() {
		if d.ID == p.ID {
			name = d.Name
		}
	}
	if p.Label != "" {
		name += " (" + p.Label + ")"
	}
	return name
}

func number(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// predictionsHTML is the "Try this" list: each prediction a form with its
// question and the ways to answer, and a region for the answer, hidden
// until the learner guesses (predict.js fills it in). The question and the
// choices are on the page without JavaScript, so a printed lesson carries
// them as a worksheet.
var predictionsHTML = template.Must(template.New("predictions").Funcs(template.FuncMap{"inc": func(i int) int { return i + 1 }}).Parse(`<ol class="predictions">
{{- range $i, $p := .}}
<li class="predict" id="predict-{{inc $i}}" data-predict="{{$i}}">
<form class="predict-form">
<fieldset>
<legend id="predict-{{inc $i}}-q"><span class="predict-n">Predict</span> {{$p.AskHTML}}</legend>
{{- if $p.Options}}
<div class="predict-options">
{{- range $j, $o := $p.Options}}
<label class="check"><input type="radio" name="predict-{{inc $i}}" value="{{$j}}" required> {{$o.Label}}</label>
{{- end}}
</div>
{{- else}}
<div class="predict-number"><label for="predict-{{inc $i}}-guess">Your guess</label> <input type="number" id="predict-{{inc $i}}-guess" step="any" required inputmode="decimal"></div>
{{- end}}
<button type="submit">Check my guess</button>
</fieldset>
</form>
<div class="predict-answer" id="predict-{{inc $i}}-answer" tabindex="-1" hidden>
<p class="predict-result"></p>
<p class="predict-why">{{$p.WhyHTML}}</p>
</div>
</li>
{{- end}}
</ol>`))

// renderPredictions writes the predictions' list.
func renderPredictions(ps []Prediction) (string, error) {
	var b bytes.Buffer
	if err := predictionsHTML.Execute(&b, ps); err != nil {
		return "", err
	}
	return b.String(), nil
}
