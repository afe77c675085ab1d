package lesson

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// lineError is a problem in a lesson and its line, 0 when unknown: a line
// of the file for the front matter (decodeFront), of the narrative for a
// live number (render).
type lineError struct {
	line int
	msg  string
}

// decodeFront decodes the front matter head (the text between the two ---
// lines) into f, and returns the line in the lesson file of each field it
// set (the line of its name) and of each list item, by path (title,
// controls[2], charts[0].refs[1].y), for later errors.
//
// The YAML goes to a yaml.Node first and from there into f field by field,
// so that an unknown field, a field given twice or a value of the wrong
// type is reported at the line of its node: yaml.v3's own errors give
// their lines only in their text. The parser reads the opening --- too, so
// the lines of the nodes are lines of the file. A syntax error is reported
// as yaml.v3 words it, with no line of the lesson's own: yaml.v3 has no
// error type for it, and the line in its message, counted from the
// opening ---, is one early for some errors (it counts those from 0).
func decodeFront(head string, f *front) (map[string]int, *lineError) {
	var doc yaml.Node
	if err := yaml.NewDecoder(strings.NewReader("---\n" + head)).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return map[string]int{}, nil // an empty front matter
		}
		return nil, &lineError{msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" {
		return map[string]int{}, nil // only comments or blank lines
	}
	if root.Kind != yaml.MappingNode {
		return nil, &lineError{line: root.Line, msg: "expected fields, one name: value a line"}
	}
	lines := map[string]int{}
	if err := decodeNode(root, reflect.ValueOf(f).Elem(), "", lines); err != nil {
		return nil, err
	}
	return lines, nil
}

// decodeNode decodes n into v: a mapping into a struct field by field, by
// the fields' yaml names; a sequence into a slice item by item; anything
// else, and into anything else, through yaml.v3 itself. It notes the line
// of each node it decodes in lines, by path.
func decodeNode(n *yaml.Node, v reflect.Value, path string, lines map[string]int) *lineError {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	lines[path] = n.Line
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return nil // name: with no value leaves the zero value, as yaml.v3 does
	}
	switch {
	case v.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		seen := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, val := n.Content[i], n.Content[i+1]
			name := key.Value
			sub := name
			if path != "" {
				sub = path + "." + name
			}
			if first, ok := seen[name]; ok {
				return &lineError{line: key.Line, msg: fmt.Sprintf("%s is given twice (first at line %d)", sub, first)}
			}
			seen[name] = key.Line
			field, ok := yamlField(v, name)
			if !ok {
				return &lineError{line: key.Line, msg: fmt.Sprintf("unknown field %s (expected one of %s)", sub, strings.Join(yamlNames(v.Type()), ", "))}
			}
			if err := decodeNode(val, field, sub, lines); err != nil {
				return err
			}
			lines[sub] = key.Line
		}
		return nil
	case v.Kind() == reflect.Slice && n.Kind == yaml.SequenceNode:
		s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		for i, item := range n.Content {
			if err := decodeNode(item, s.Index(i), fmt.Sprintf("%s[%d]", path, i), lines); err != nil {
				return err
			}
		}
		v.Set(s)
		return nil
	case v.Kind() == reflect.Struct || v.Kind() == reflect.Slice:
		return &lineError{line: n.Line, msg: fmt.Sprintf("%s: expected %s, got %s", path, kindWords(v.Kind()), nodeWords(n))}
	}
	if err := n.Decode(v.Addr().Interface()); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			return &lineError{line: n.Line, msg: fmt.Sprintf("%s: expected %s, got %s", path, kindWords(v.Kind()), nodeWords(n))}
		}
		return &lineError{line: n.Line, msg: fmt.Sprintf("%s: %s", path, strings.TrimPrefix(err.Error(), "yaml: "))}
	}
	return nil
}

// yamlField returns the field of struct v named name in YAML.
func yamlField(v reflect.Value, name string) (reflect.Value, bool) {
	t := v.Type()
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() && yamlName(f) == name {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

// yamlNames lists the YAML names of struct t's fields.
func yamlNames(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() && yamlName(f) != "-" {
			names = append(names, yamlName(f))
		}
	}
	return names
}

// yamlName is a field's name in YAML: its yaml tag's, or else its Go name
// in lower case, as yaml.v3 names it.
func yamlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if name == "" {
		name = strings.ToLower(f.Name)
	}
	return name
}

// kindWords says what a Go kind takes, for an instructor.
func kindWords(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "text"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64, reflect.Float64:
		return "a number"
	case reflect.Slice:
		return "a list"
	case reflect.Struct:
		return "fields (name: value)"
	}
	return k.String()
}

// nodeWords says what a YAML node is, for an instructor.
func nodeWords(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "fields (name: value)"
	case yaml.SequenceNode:
		return "a list"
	}
	return fmt.Sprintf("%q", n.Value)
}

// FrontMatter lists the fields a lesson's front matter takes, by where
// they go: "" for the top level, then "controls", "charts", "charts.refs"
// and "predictions" for the fields of each item of those lists; for
// documentation (the instructors' page) and its test.
func FrontMatter() map[string][]string {
	return map[string][]string{
		"":            yamlNames(reflect.TypeFor[front]()),
		"controls":    yamlNames(reflect.TypeFor[Control]()),
		"charts":      yamlNames(reflect.TypeFor[Chart]()),
		"charts.refs": yamlNames(reflect.TypeFor[Ref]()),
		"predictions": yamlNames(reflect.TypeFor[Prediction]()),
	}
}
