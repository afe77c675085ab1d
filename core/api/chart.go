package api

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/refreshlab/refreshlab/core/chart"
	"github.com/refreshlab/refreshlab/core/estimate/estimatekind"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/monitor/monitorkind"

	"github.com/refreshlab/refreshlab/core/internal/quote"
)

// ChartRequest is the body of POST /api/chart: a result to draw, or a spec
// to run first, and what to draw of it.
type ChartRequest struct {
	// ID names a result this router returned lately, so a client need not
	// send it back; it may be gone (a 404), in which case send Result.
	ID     string       `json:"id,omitempty"`
	Spec   *lab.Spec    `json:"spec,omitempty"`
	Result *lab.Result  `json:"result,omitempty"`
	Chart  ChartOptions `json:"chart"`
}

// Chart type ids.
const (
	ChartCycles = "cycles" // one line per policy over the cycles
	ChartBars   = "bars"   // one bar per policy: the metric averaged over cycles
	ChartSweep  = "sweep"  // one line per policy over the values of the spec's sweep
	// ChartSites draws, per site, the true change fraction beside each
	// policy's mean estimate (Al-Qaaideh Table 4.2), for policies that
	// estimate sites; the metric is not used.
	ChartSites = "sites"
	// ChartAllocation draws a schedule run's allocation: per page, each
	// policy's sync rate beside the page's true change rate.
	ChartAllocation = "allocation"
	// ChartEstimatePaths draws single-page estimation paths, the estimated
	// change period per epoch, with the edge cases marked (Fig. 2).
	ChartEstimatePaths = "estimate-paths"
	// ChartEstimateSweep draws the headline metric (MAD over the first
	// epochs) against a swept estimate field, the first interval in
	// Fig. 4, with each line's minimum marked.
	ChartEstimateSweep = "estimate-sweep"
	// ChartEstimatePrior draws the empirical distribution of change
	// periods against the prior the two pseudo-intervals induce (Fig. 6).
	ChartEstimatePrior = "estimate-prior"
	// ChartEstimateEpochs draws a metric per epoch (MAD, edge share or the
	// mean estimate); on a result swept over estimate.crawl.initial,
	// estimators that depend on it are drawn at their best value
	// (Fig. 7); with "expected", the exact expected estimate is drawn
	// beside the mean.
	ChartEstimateEpochs = "estimate-epochs"
	// ChartForest draws the report's forest plot (core/report): the
	// policies ranked by a metric (default the kind's headline), each mean
	// with its 95% interval, a dashed line at the reference.
	ChartForest = "forest"
	// ChartCurve draws the curves the policies computed while they were
	// built (lab.PolicyResult.Curves), such as cluster sampling's
	// cross-validated τ against k (Tan et al. Fig. 1), each choice marked.
	ChartCurve = "curve"
)

// ChartType describes one type of chart POST /api/chart draws, for GET
// /api/policies and the lesson builder.
type ChartType struct {
	ID    string   `json:"id"`
	Kinds []string `json:"kinds"`           // the experiment kinds it draws
	Sweep bool     `json:"sweep,omitempty"` // it needs a spec with a sweep
	// Metric is the metric drawn when the request names none; "" means
	// the chart draws no metric of the catalog.
	Metric string `json:"metric,omitempty"`
	Help   string `json:"help"`
}

var (
	refreshKinds  = []string{lab.KindRefresh}
	estimateKinds = []string{estimatekind.ID}
)

// ChartTypes lists every chart type POST /api/chart draws.
var ChartTypes = []ChartType{
	{ID: ChartCycles, Kinds: refreshKinds, Metric: lab.MetricChangeRatio, Help: "A metric per cycle, one line per policy."},
	{ID: ChartBars, Kinds: refreshKinds, Metric: lab.MetricChangeRatio, Help: "A metric averaged over the run, one bar per policy; on a schedule with expected, beside each plan's exact expectation."},
	{ID: ChartSweep, Kinds: refreshKinds, Sweep: true, Metric: lab.MetricChangeRatio, Help: "A metric against the swept field, one line per policy."},
	{ID: ChartSites, Kinds: refreshKinds, Help: "Per site, the true change fraction beside each policy's estimate."},
	{ID: ChartAllocation, Help: "Per page, each schedule's syncs per day beside the page's change rate."},
	{ID: ChartEstimatePaths, Kinds: estimateKinds, Help: "Single-page estimation paths with their edge cases (Grimes & Ford Fig. 2)."},
	{ID: ChartEstimateSweep, Kinds: estimateKinds, Sweep: true, Metric: estimatekind.MetricMAD, Help: "A metric against the swept estimate field, each line's minimum marked (Grimes & Ford Fig. 4)."},
	{ID: ChartEstimatePrior, Kinds: estimateKinds, Help: "The empirical prior of change periods against the one the pseudo-intervals induce (Grimes & Ford Fig. 6)."},
	{ID: ChartEstimateEpochs, Kinds: estimateKinds, Metric: estimatekind.MetricMAD, Help: "A metric per crawl epoch (Grimes & Ford Fig. 7)."},
	{ID: ChartCurve, Kinds: refreshKinds, Help: "The curves the policies computed while they were built, each policy's choice marked: cluster sampling's cross-validated τ against the number of clusters when its k is 0 (Tan et al. Fig. 1)."},
	{ID: ChartForest, Kinds: lab.Kinds(), Help: "The policies ranked by a metric (the kind's headline unless one is named), each mean with its 95% interval, a dashed line at the best that does not read the truth."},
}

func init() { ChartTypes = append(ChartTypes, monitorChartTypes...) }

// init adds each registered kind (lab.Register) to the chart types it
// names (lab.Kind.Charts); a name this package does not draw is the
// kind's bug, which every test finds.
func init() {
	for _, k := range lab.Registered() {
		for _, id := range k.Charts() {
			i := slices.IndexFunc(ChartTypes, func(t ChartType) bool { return t.ID == id })
			if i < 0 {
				panic(fmt.Sprintf("api: kind %s names chart type %q (expected one of %s)", k.ID(), id, chartTypeIDs()))
			}
			if !slices.Contains(ChartTypes[i].Kinds, k.ID()) {
				ChartTypes[i].Kinds = append(slices.Clone(ChartTypes[i].Kinds), k.ID())
			}
		}
	}
}

// ChartTypeByID returns the chart type with the given id.
func ChartTypeByID(id string) (ChartType, bool) {
	i := slices.IndexFunc(ChartTypes, func(t ChartType) bool { return t.ID == id })
	if i < 0 {
		return ChartType{}, false
	}
	return ChartTypes[i], true
}

func chartTypeIDs() string {
	ids := make([]string, len(ChartTypes))
	for i, t := range ChartTypes {
		ids[i] = t.ID
	}
	return strings.Join(ids, ", ")
}

// ChartOptions says what to draw.
type ChartOptions struct {
	Type     string   `json:"type"`               // a ChartTypes id; default ChartCycles
	Metric   string   `json:"metric"`             // a lab.Metric id; default the type's
	Title    string   `json:"title,omitempty"`    // default: the metric and the chart type
	Policies []string `json:"policies,omitempty"` // ids (or labels, lab.PolicySpec.Key) to draw; default all
	Refs     []struct {
		Y     float64 `json:"y"`
		Label string  `json:"label"`
	} `json:"refs,omitempty"` // horizontal reference lines, e.g. a paper's figure
	// MarkAuto, on a sweep of params.NAME, marks the value the policies
	// compute for NAME when the spec leaves it out (such as √(N·r)).
	MarkAuto bool `json:"markAuto,omitempty"`
	// Expected draws each policy's exact expectation beside its measured
	// value, where it has one (the metric's lab.Metric.Exact fact).
	Expected bool `json:"expected,omitempty"`
	// Fit, on cycles and sweep charts of a ratio, fits the y axis to the
	// data instead of drawing the whole 0..1, for differences of a few
	// hundredths.
	Fit    bool `json:"fit,omitempty"`
	Width  int  `json:"width,omitempty"`
	Height int  `json:"height,omitempty"`
	// Format is "svg" (the default) or "table": the chart's data as a
	// chart.Table in JSON.
	Format string `json:"format,omitempty"`
}

// Chart formats.
const (
	FormatSVG   = "svg"
	FormatTable = "table"
)

// resultOf finds the result a chart or report request names: the result
// itself, a recent one by id, or a spec's, run now (or remembered).
func (rt *Router) resultOf(req Request, id string, res *lab.Result, spec *lab.Spec) (*lab.Result, Response, bool) {
	switch {
	case res != nil:
		if resp, ok := checkResult(res); !ok {
			return nil, resp, false
		}
		return res, Response{}, true
	case id != "":
		c, ok := rt.results.byID(id)
		if !ok || !rt.current(c) || !rt.visible(req.Client, c.res.Dataset.ID) {
			return nil, jsonResponse(404, map[string]any{"error": fmt.Sprintf("no recent result %s here: send the result itself", quote.Q(id)), "field": "id"}), false
		}
		return c.res, Response{}, true
	case spec != nil:
		if resp, ok := rt.checkVisible(req, *spec); !ok {
			return nil, resp, false
		}
		c, err := rt.runCached(req.context(), *spec, nil)
		if err != nil {
			return nil, specErrorResponse(err), false
		}
		return c.res, Response{}, true
	}
	return nil, errorResponse(400, `expected "id" (of a recent result), "result" (a run's result) or "spec" (an experiment to run)`), false
}

func (rt *Router) chart(req Request) Response {
	var cr ChartRequest
	if resp, ok := decode(req.Body, &cr); !ok {
		return resp
	}
	if resp, ok := checkChartOptions(cr.Chart); !ok {
		return resp
	}
	res, resp, ok := rt.resultOf(req, cr.ID, cr.Result, cr.Spec)
	if !ok {
		return resp
	}
	fig, err := Figure(res, cr.Chart)
	if err != nil {
		return jsonResponse(400, map[string]any{"error": err.Error(), "field": "chart"})
	}
	switch cr.Chart.Format {
	case "", FormatSVG:
		svg, err := fig.SVG()
		if err != nil {
			return jsonResponse(400, map[string]any{"error": err.Error(), "field": "chart"})
		}
		return Response{Status: 200, ContentType: "image/svg+xml", Body: svg}
	case FormatTable:
		return jsonResponse(200, fig.Table())
	}
	return jsonResponse(400, map[string]any{"error": fmt.Sprintf("unknown format %q (expected %q or %q)", cr.Chart.Format, FormatSVG, FormatTable), "field": "chart.format"})
}

// A figure is a chart ready to draw, as SVG or as a table of its data.
type figure interface {
	SVG() ([]byte, error)
	Table() chart.Table
}

// Chart draws opts of res as SVG.
func Chart(res *lab.Result, opts ChartOptions) ([]byte, error) {
	fig, err := Figure(res, opts)
	if err != nil {
		return nil, err
	}
	return fig.SVG()
}

// Figure builds the chart opts asks for of res, ready to draw as SVG or
// as a table.
func Figure(res *lab.Result, opts ChartOptions) (figure, error) {
	if opts.Type == "" {
		opts.Type = ChartCycles
	}
	ct, ok := ChartTypeByID(opts.Type)
	if !ok {
		return nil, fmt.Errorf("unknown chart type %q (expected one of %s)", opts.Type, chartTypeIDs())
	}
	if opts.Type == ChartForest {
		return forestChart(res, opts)
	}
	if opts.Type == ChartCurve {
		return curveChart(res, opts)
	}
	if opts.Metric == "" {
		opts.Metric = cmp.Or(ct.Metric, lab.MetricChangeRatio)
	}
	m, ok := lab.MetricByID(opts.Metric)
	if !ok {
		return nil, fmt.Errorf("unknown metric %q (expected one of %s)", opts.Metric, lab.MetricIDs(""))
	}
	if opts.Width < 0 || opts.Width > 4000 || opts.Height < 0 || opts.Height > 4000 {
		return nil, fmt.Errorf("width and height must be between 0 and 4000 pixels")
	}
	var pols []lab.PolicyResult
	for _, p := range res.Policies {
		if len(opts.Policies) == 0 || slices.Contains(opts.Policies, p.Key()) {
			pols = append(pols, p)
		}
	}
	name := seriesNames(pols)
	styles := policyStyles(res.Policies)
	var yr *chart.Range
	if m.Max == 1 && !opts.Fit {
		yr = &chart.Range{Min: 0, Max: 1}
	}
	var refs []chart.Ref
	for _, r := range opts.Refs {
		refs = append(refs, chart.Ref{Y: r.Y, Label: r.Label})
	}
	unit := res.Dataset.CycleUnit
	if unit == "" {
		unit = "cycle"
	}
	ylabel := m.Name
	if m.Unit == "cycle" {
		ylabel = fmt.Sprintf("%s (%ss)", m.Name, unit)
	}
	about := fmt.Sprintf("%s on %s, %d downloads per %s, %d repeats, seed %d.",
		m.Name, res.Dataset.Name, res.Spec.Budget, unit, res.Spec.Repeats, res.Spec.Seed)
	if res.Spec.Kind == monitorkind.ID {
		about = fmt.Sprintf("%s on %s, %d monitoring tasks per epoch, %d repeats, seed %d.",
			m.Name, res.Dataset.Name, res.Spec.Budget, res.Spec.Repeats, res.Spec.Seed)
	}
	switch opts.Type {
	case ChartCycles:
		c := chart.Line{
			Title:       opts.Title,
			Description: fmt.Sprintf("Mean %s per %s of %d policies with 95%% intervals across repeats. %s", m.Name, unit, len(pols), about),
			XLabel:      unit, YLabel: ylabel, YRange: yr, Refs: refs,
			Width: opts.Width, Height: opts.Height,
		}
		if c.Title == "" {
			c.Title = fmt.Sprintf("%s per %s", m.Name, unit)
		}
		var err error
		c.Series, err = stepSeries(pols, m, name, styles, "per cycle: draw it as bars or a sweep")
		return c, err
	case ChartBars:
		if opts.Expected && m.Exact != "" {
			return exactBarsChart(res, opts, m, pols, styles, ylabel, yr, refs)
		}
		c := chart.Bars{
			Title:       opts.Title,
			Description: fmt.Sprintf("Mean %s of %d policies, averaged over cycles, with 95%% intervals across repeats. %s", m.Name, len(pols), about),
			YLabel:      ylabel, YRange: yr, Refs: refs,
			Width: opts.Width, Height: opts.Height,
		}
		if c.Title == "" {
			c.Title = m.Name + " by policy"
		}
		for _, p := range pols {
			s := p.Metric(m.ID)
			c.Bars = append(c.Bars, chart.Bar{Label: name(p), Key: p.Key(), Value: s.Mean, Lo: s.Lo, Hi: s.Hi, Style: styles(p.Key())})
		}
		return c, nil
	case ChartSweep:
		return sweepChart(res, opts, m, styles, ylabel, yr, refs, about)
	case ChartSites:
		return sitesChart(res, opts, pols, styles, refs, unit)
	case ChartAllocation:
		return allocationChart(res, opts, pols, styles, refs)
	case ChartMonitorEpochs, ChartMonitorAllocation, ChartMonitorLosses:
		return monitorChart(res, opts, m, pols, styles, yr, refs)
	}
	return estimateChart(res, opts, m, refs)
}

// stepSeries makes a line per policy of its metric m at each step (cycle
// or epoch, numbered from 1) with its 95% interval; a policy without m per
// step is an error saying so, then what.
func stepSeries(pols []lab.PolicyResult, m lab.Metric, name func(lab.PolicyResult) string, styles func(string) *chart.Style, what string) ([]chart.Series, error) {
	var out []chart.Series
	for _, p := range pols {
		per, ok := p.Series[m.ID]
		if !ok {
			return nil, fmt.Errorf("%s has no %s %s", p.Name, m.Name, what)
		}
		s := chart.Series{Name: name(p), Key: p.Key(), Style: styles(p.Key())}
		for i, v := range per {
			s.X = append(s.X, float64(i+1))
			s.Y, s.Lo, s.Hi = append(s.Y, v.Mean), append(s.Lo, v.Lo), append(s.Hi, v.Hi)
		}
		out = append(out, s)
	}
	return out, nil
}

// seriesNames names a chart's series: by the policy's name, except that
// when every policy drawn is a labelled copy of one policy (lab.PolicySpec
// Label: say, cluster sampling on six feature sets) what tells them apart
// names them (lab.CopyNames), as the full names would not fit under bars.
func seriesNames(pols []lab.PolicyResult) func(lab.PolicyResult) string {
	copies := len(pols) > 1
	for _, p := range pols {
		copies = copies && p.Label != "" && p.ID == pols[0].ID
	}
	names := map[string]string{}
	if copies {
		for i, n := range lab.CopyNames(pols) {
			names[pols[i].Key()] = n
		}
	}
	return func(p lab.PolicyResult) string {
		if n, ok := names[p.Key()]; ok {
			return n
		}
		return p.Name
	}
}

// policyStyles returns the style of each policy of a result by key, as
// lab.SeriesStyles gives them, for the chart's series of that policy.
func policyStyles(pols []lab.PolicyResult) func(key string) *chart.Style {
	specs := make([]lab.PolicySpec, len(pols))
	for i, p := range pols {
		specs[i] = lab.PolicySpec{ID: p.ID, Label: p.Label}
	}
	styles := lab.SeriesStyles(specs)
	return func(key string) *chart.Style {
		s, ok := styles[key]
		if !ok {
			return nil
		}
		return &s
	}
}

// sitesChart draws, for each site, each policy's estimate of its change
// fraction per cycle, averaged over the cycles in which the policy made
// one, with its 95% interval across repeats, and beside them the truth
// (hatched).
func sitesChart(res *lab.Result, opts ChartOptions, pols []lab.PolicyResult, styles func(string) *chart.Style, refs []chart.Ref, unit string) (figure, error) {
	var sites *lab.SiteEstimates
	for _, p := range pols {
		if p.Sites != nil {
			sites = p.Sites
			break
		}
	}
	if sites == nil {
		return nil, fmt.Errorf("a sites chart needs a policy that estimates sites, such as site-greedy")
	}
	c := chart.Grouped{
		Title: opts.Title,
		Description: fmt.Sprintf("Share of each site's pages that changed per %s: the truth, and each policy's estimate averaged over the %ss it made one, with 95%% intervals across repeats. %s, %d downloads per %s, %d repeats, seed %d.",
			unit, unit, res.Dataset.Name, res.Spec.Budget, unit, res.Spec.Repeats, res.Spec.Seed),
		XLabel: "Site", YLabel: "Changed share per " + unit, Refs: refs,
		Width: opts.Width, Height: opts.Height,
	}
	if c.Title == "" {
		c.Title = "Estimated and true change per site"
	}
	for _, s := range sites.Sites {
		c.Groups = append(c.Groups, strings.TrimPrefix(s, "www."))
	}
	// The policies, each in its own style, then the truth.
	for _, p := range pols {
		if p.Sites == nil {
			continue
		}
		s := chart.GroupSeries{Name: p.Name, Key: p.Key(), Style: styles(p.Key())}
		for _, e := range p.Sites.Estimate {
			// A share lies in [0, 1]; the t-interval of a mean near 0
			// may not, so its whiskers are cut there.
			s.Values, s.Lo, s.Hi = append(s.Values, e.Mean), append(s.Lo, max(e.Lo, 0)), append(s.Hi, min(e.Hi, 1))
		}
		c.Series = append(c.Series, s)
	}
	c.Series = append(c.Series, chart.GroupSeries{Name: "Truth", Values: sites.Truth, Style: &chart.Reference})
	return c, nil
}

// sweepChart draws a metric against the values of the spec's sweep.
func sweepChart(res *lab.Result, opts ChartOptions, m lab.Metric, styles func(string) *chart.Style, ylabel string, yr *chart.Range, refs []chart.Ref, about string) (figure, error) {
	sw := res.Sweep
	if sw == nil {
		return nil, fmt.Errorf("a sweep chart needs a result with a sweep (the spec's \"sweep\")")
	}
	xlabel := lab.FieldLabel(res.Spec, sw.Field)
	c := chart.Line{
		Title:       opts.Title,
		Description: fmt.Sprintf("Mean %s against %s, %d values, with 95%% intervals across repeats. %s", m.Name, xlabel, len(sw.Values), about),
		XLabel:      xlabel, YLabel: ylabel, YRange: yr, Refs: refs,
		Width: opts.Width, Height: opts.Height,
	}
	if c.Title == "" {
		c.Title = fmt.Sprintf("%s against %s", m.Name, lowerFirst(xlabel))
	}
	for _, p := range sw.Policies {
		if len(opts.Policies) > 0 && !slices.Contains(opts.Policies, p.Key()) {
			continue
		}
		per, ok := p.Metrics[m.ID]
		if !ok {
			continue // a policy without this metric (say, no site estimates)
		}
		key := lab.PolicySpec{ID: p.ID, Label: p.Label}.Key()
		s := chart.Series{Name: p.Name, Key: key, Style: styles(key)}
		for i, v := range per {
			s.X = append(s.X, sw.Values[i])
			s.Y, s.Lo, s.Hi = append(s.Y, v.Mean), append(s.Lo, v.Lo), append(s.Hi, v.Hi)
		}
		c.Series = append(c.Series, s)
		if exact := p.Facts[m.Exact]; opts.Expected && m.Exact != "" && exact != nil {
			e := chart.Series{Name: p.Name + " (exact expectation)", Key: key, Style: expectation(s.Style)}
			for i, x := range exact {
				if x != nil {
					e.X, e.Y = append(e.X, sw.Values[i]), append(e.Y, *x)
				}
			}
			c.Series = append(c.Series, e)
		}
	}
	if name, ok := strings.CutPrefix(sw.Field, "params."); ok && opts.MarkAuto {
		for _, p := range res.Policies {
			if slices.Contains(p.Auto, name) {
				v, _ := p.Params[name].(float64)
				c.Marks = append(c.Marks, chart.Mark{X: v, Label: fmt.Sprintf("default %s = %v", lowerFirst(xlabel), v)})
				break
			}
		}
	}
	c.Marks = currentMark(res, c.Marks)
	return c, nil
}

// lowerFirst lowers the first letter of a label that goes inside a
// sentence ("Confidence level (α)" in "ChangeRatio against confidence
// level (α)"), unless it begins an acronym or a name in capitals.
func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if next, _ := utf8.DecodeRuneInString(s[n:]); unicode.IsUpper(next) {
		return s
	}
	return string(unicode.ToLower(r)) + s[n:]
}

// currentMark marks on a sweep's x axis the value the result's own run
// used for the swept field (the slider's, in a lesson), when it has one
// that differs from every mark already drawn.
func currentMark(res *lab.Result, marks []chart.Mark) []chart.Mark {
	v, ok := lab.RunValue(res, res.Sweep.Field)
	if !ok || slices.ContainsFunc(marks, func(m chart.Mark) bool { return m.X == v }) {
		return marks
	}
	return append(marks, chart.Mark{X: v, Label: fmt.Sprintf("now: %v", v), Current: true})
}

// expectation is the style of a policy's exact expectation drawn beside
// its measured line: the policy's colour and dash, thin and hollow.
func expectation(s *chart.Style) *chart.Style {
	if s == nil {
		return &chart.Style{Thin: true, Open: true}
	}
	e := *s
	e.Thin, e.Open = true, true
	return &e
}

// curveChart draws every curve of the chosen policies (all by default),
// one line each, with the x each policy chose marked. A run whose policies
// computed none draws empty axes that say so, rather than failing the run:
// cluster sampling computes its curve only when it chooses k itself.
func curveChart(res *lab.Result, opts ChartOptions) (figure, error) {
	if opts.Width < 0 || opts.Width > 4000 || opts.Height < 0 || opts.Height > 4000 {
		return nil, fmt.Errorf("width and height must be between 0 and 4000 pixels")
	}
	c := chart.Line{Title: opts.Title, Width: opts.Width, Height: opts.Height}
	for _, r := range opts.Refs {
		c.Refs = append(c.Refs, chart.Ref{Y: r.Y, Label: r.Label})
	}
	styles := policyStyles(res.Policies)
	for _, p := range res.Policies {
		if len(opts.Policies) > 0 && !slices.Contains(opts.Policies, p.Key()) {
			continue
		}
		for _, cv := range p.Curves {
			c.XLabel, c.YLabel = cv.XLabel, cv.YLabel
			if c.Title == "" {
				c.Title = cv.Name
			}
			c.Series = append(c.Series, chart.Series{Name: p.Name, Key: p.Key(), X: cv.X, Y: cv.Y, Style: styles(p.Key())})
			if cv.Chosen != nil {
				c.Marks = append(c.Marks, chart.Mark{X: *cv.Chosen, Label: fmt.Sprintf("%s chose %v", p.Name, *cv.Chosen)})
			}
		}
	}
	if len(c.Series) == 0 {
		c.Title = cmp.Or(c.Title, "No curves")
		c.Description = "No policy of this run computed a curve while it was built: cluster sampling draws its cross-validated τ against k only when its k is 0."
		return noCurves{c}, nil
	}
	c.Description = fmt.Sprintf("%s, one line per policy that computed it; the vertical lines mark each policy's choice.", c.Title)
	return c, nil
}

// noCurves is the curve chart of a run without curves: empty axes, and a
// table of one row that says why, as a data table of nothing would not.
type noCurves struct{ chart.Line }

func (n noCurves) Table() chart.Table {
	return chart.Table{Caption: n.Title, Head: []string{"Note"}, Rows: [][]string{{n.Description}}}
}
