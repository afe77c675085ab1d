package lesson

import (
	"html/template"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Typesetter turns the TeX of one formula into MathML: inline, or a
// displayed formula on a line of its own. The site's build passes one
// (temml, run by Node); an error is a mistake in the formula.
type Typesetter func(tex string, display bool) (string, error)

// Option changes how Parse renders a lesson.
type Option func(*options)

type options struct {
	math Typesetter
}

// WithMath typesets the lesson's formulas with t. Without it a formula is
// shown as its TeX in a code span, which is fine for checking a lesson but
// not for a page a learner reads: the site's build always passes one.
func WithMath(t Typesetter) Option { return func(o *options) { o.math = t } }

// mathSpan is a formula in a lesson's text: $…$ inline, $$…$$ displayed.
type mathSpan struct {
	ast.BaseInline
	TeX     string
	Display bool
	Offset  int // where it starts in the source, for errors
}

var kindMath = ast.NewNodeKind("Math")

// Kind implements ast.Node.
func (n *mathSpan) Kind() ast.NodeKind { return kindMath }

// Dump implements ast.Node.
func (n *mathSpan) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"TeX": n.TeX}, nil)
}

// mathParser reads $…$ and $$…$$ on one line. As in Pandoc, an inline
// formula neither starts nor ends with a space, and a closing $ followed
// by a digit closes nothing, so "costs $5 and $6" stays text. Goldmark
// does not call it inside code spans or code blocks; \$ is a dollar sign.
type mathParser struct{}

// Trigger implements parser.InlineParser.
func (mathParser) Trigger() []byte { return []byte{'$'} }

// Parse implements parser.InlineParser.
func (mathParser) Parse(_ ast.Node, block text.Reader, _ parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if strings.HasPrefix(string(line), "$$") {
		end := strings.Index(string(line[2:]), "$$")
		if end <= 0 {
			return nil
		}
		tex := strings.TrimSpace(string(line[2 : 2+end]))
		block.Advance(2 + end + 2)
		return &mathSpan{TeX: tex, Display: true, Offset: seg.Start}
	}
	s := string(line)
	if len(s) < 3 || s[1] == ' ' || s[1] == '$' {
		return nil
	}
	for i := 2; i < len(s); i++ {
		if s[i] == '\\' {
			i++ // an escaped character, \$ among them
			continue
		}
		if s[i] != '$' {
			continue
		}
		if s[i-1] == ' ' || i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
			return nil
		}
		block.Advance(i + 1)
		return &mathSpan{TeX: s[1:i], Offset: seg.Start}
	}
	return nil
}

// mathRenderer writes a formula as its MathML, typeset when the lesson is
// parsed (render), or as its TeX in a code span without a typesetter.
type mathRenderer struct{ typeset map[*mathSpan]string }

// RegisterFuncs implements renderer.NodeRenderer.
func (r mathRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindMath, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			m := n.(*mathSpan)
			if out, ok := r.typeset[m]; ok {
				_, _ = w.WriteString(out)
			} else {
				_, _ = w.WriteString(`<code class="math">` + template.HTMLEscapeString(m.TeX) + `</code>`)
			}
		}
		return ast.WalkSkipChildren, nil
	})
}

// mathExtension is the goldmark extension for formulas; typeset holds
// each formula's MathML, filled in between parsing and rendering.
type mathExtension struct{ typeset map[*mathSpan]string }

// Extend implements goldmark.Extender.
func (e mathExtension) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithInlineParsers(util.Prioritized(mathParser{}, 500)))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(mathRenderer(e), 500)))
}

// rawTeXPattern finds TeX written outside a formula: a brace group after ^
// or _, a command such as \frac or \lambda, or an ASCII subscript or
// superscript such as c_w, p_t or e^x. A formula belongs in $…$, where it
// is typeset.
var rawTeXPattern = regexp.MustCompile(`[\^_]\{|\\[A-Za-z]{2,}|[\p{L}\p{N}][\p{M}]*[_^][\p{L}\p{N}(−-]`)

// rawTeX returns the TeX in s written outside a formula, with a few
// characters around it, or "".
func rawTeX(s string) string {
	loc := rawTeXPattern.FindStringIndex(s)
	if loc == nil {
		return ""
	}
	from, to := loc[0], loc[1]
	for n := 0; from > 0 && n < 6; n++ {
		from--
		for from > 0 && !utf8Start(s[from]) {
			from--
		}
	}
	for n := 0; to < len(s) && n < 6; n++ {
		to++
		for to < len(s) && !utf8Start(s[to]) {
			to++
		}
	}
	return strings.TrimSpace(s[from:to])
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// blockText is the text a reader sees of a block of inline content, with
// formulas, code spans, live numbers and raw HTML each left out (a space
// in their place), for the raw-TeX check: goldmark may cut one run of text
// into several nodes (at a brace, say), so the check reads them joined.
func blockText(n ast.Node, src []byte) string {
	var b strings.Builder
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *mathSpan, *ast.CodeSpan, *liveNumber, *ast.RawHTML, *ast.AutoLink:
			b.WriteByte(' ')
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// textBlocks are the blocks whose inline content the raw-TeX check reads.
func textBlock(n ast.Node) bool {
	switch n.(type) {
	case *ast.Paragraph, *ast.Heading, *ast.TextBlock, *east.TableCell:
		return true
	}
	return false
}
