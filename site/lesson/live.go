package lesson

import (
	"html/template"
	"regexp"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// liveNumber is a live number in a lesson's narrative, {{metric policy}}
// such as {{changeRatio site-greedy}}: the page fills it in with the
// policy's metric after each run.
type liveNumber struct {
	ast.BaseInline
	Metric, Policy string
	Source         string // as written, for errors
	Offset         int    // where it starts in the narrative, for errors
}

var kindLiveNumber = ast.NewNodeKind("LiveNumber")

// Kind implements ast.Node.
func (n *liveNumber) Kind() ast.NodeKind { return kindLiveNumber }

// Dump implements ast.Node.
func (n *liveNumber) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Metric": n.Metric, "Policy": n.Policy}, nil)
}

// liveSyntax is a live number at the start of the text: two braces around
// a metric and a policy (an id or a copy's label), spaces allowed inside.
var liveSyntax = regexp.MustCompile(`^\{\{[ \t]*([A-Za-z]+)[ \t]+([A-Za-z0-9-]+)[ \t]*\}\}`)

// liveParser reads live numbers in running text. Goldmark does not call it
// inside code spans or code blocks, so {{…}} there stays as written; nor
// inside raw HTML blocks.
type liveParser struct{}

// Trigger implements parser.InlineParser.
func (liveParser) Trigger() []byte { return []byte{'{'} }

// Parse implements parser.InlineParser.
func (liveParser) Parse(_ ast.Node, block text.Reader, _ parser.Context) ast.Node {
	line, seg := block.PeekLine()
	m := liveSyntax.FindSubmatchIndex(line)
	if m == nil {
		return nil // not a live number: the braces are text
	}
	block.Advance(m[1])
	return &liveNumber{
		Metric: string(line[m[2]:m[3]]), Policy: string(line[m[4]:m[5]]),
		Source: string(line[:m[1]]), Offset: seg.Start,
	}
}

// liveRenderer writes a live number as the element the page fills in.
type liveRenderer struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (liveRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindLiveNumber, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			l := n.(*liveNumber)
			_, _ = w.WriteString(`<output class="live" data-metric="` + template.HTMLEscapeString(l.Metric) +
				`" data-policy="` + template.HTMLEscapeString(l.Policy) + `">…</output>`)
		}
		return ast.WalkSkipChildren, nil
	})
}

// liveNumbers is the goldmark extension for live numbers.
type liveNumbers struct{}

// Extend implements goldmark.Extender.
func (liveNumbers) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithInlineParsers(util.Prioritized(liveParser{}, 600)))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(liveRenderer{}, 600)))
}
