package main

import (
	"bytes"
	"html/template"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// renderMarkdown renders a page of the site written in Markdown (the
// Sources page) as lessons' narratives are rendered: GitHub tables,
// typographic quotes and dashes, and an id on every heading, taken from
// {#id} after it when given. The file is part of the site's source, so it
// may use HTML. Each table cell gets its column's heading as data-label,
// so that on a narrow screen the stylesheet can show a row as a card.
// Each code block is a tab stop: wider or taller than its box it scrolls
// there (lab.css), and the keyboard must be able to scroll it.
func renderMarkdown(src []byte) (template.HTML, error) {
	md := goldmark.New(
		goldmark.WithExtensions(extension.GFM, extension.Typographer),
		goldmark.WithParserOptions(parser.WithAutoHeadingID(), parser.WithAttribute(),
			parser.WithASTTransformers(util.Prioritized(cellLabels{}, 1000))),
		goldmark.WithRendererOptions(html.WithUnsafe()),
	)
	var buf bytes.Buffer
	if err := md.Convert(src, &buf); err != nil {
		return "", err
	}
	return template.HTML(bytes.ReplaceAll(buf.Bytes(), []byte("<pre>"), []byte(`<pre tabindex="0">`))), nil
}

// cellLabels sets data-label on every body cell of every table to the text
// of its column's heading.
type cellLabels struct{}

// Transform implements parser.ASTTransformer.
func (cellLabels) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	src := reader.Source()
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		table, ok := n.(*east.Table)
		if !ok || !entering {
			return ast.WalkContinue, nil
		}
		var labels []string
		for row := table.FirstChild(); row != nil; row = row.NextSibling() {
			if _, head := row.(*east.TableHeader); head {
				for c := row.FirstChild(); c != nil; c = c.NextSibling() {
					labels = append(labels, plainText(c, src))
				}
				continue
			}
			i := 0
			for c := row.FirstChild(); c != nil && i < len(labels); c = c.NextSibling() {
				c.SetAttributeString("data-label", []byte(labels[i]))
				i++
			}
		}
		return ast.WalkSkipChildren, nil
	})
}

// plainText is the text of n's inline content, without markup.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
		case *ast.String:
			b.Write(c.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}
