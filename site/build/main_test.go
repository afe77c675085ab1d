package main

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/version"
	"github.com/refreshlab/refreshlab/site/lesson"
)

// TestSourcesPage builds the site and checks the Sources page: it is
// written, every page's navigation and the home page link to it, and what
// it names exists: each Go test it cites is defined in the repository,
// each lesson it links to is built, and each policy, estimator, schedule
// or dataset id it quotes is in the lab's catalog.
func TestSourcesPage(t *testing.T) {
	out := t.TempDir()
	root := filepath.Join("..", "..")
	sources := filepath.Join(root, "site", "sources.md")
	if err := build(out, repoSources(root)); err != nil {
		t.Fatal(err)
	}
	read := func(path string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(path)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	page := read("sources.html")
	if !strings.Contains(page, `<h1 id="sources">Sources</h1>`) || !strings.Contains(page, `aria-current="page">Sources</a>`) {
		t.Errorf("sources.html lacks its heading or its current-page mark in the navigation")
	}
	if strings.Contains(page, `id="engine"`) {
		t.Errorf("sources.html shows the lab's status, but the page runs no lab")
	}
	if !strings.Contains(read("index.html"), `<a href="sources.html">Sources</a> page`) {
		t.Errorf("the home page does not link to the Sources page")
	}
	for _, p := range []string{"index.html", "upload.html", "lessons/optimal-schedules.html"} {
		prefix := ""
		if strings.HasPrefix(p, "lessons/") {
			prefix = "../"
		}
		if !strings.Contains(read(p), `<a href="`+prefix+`sources.html">Sources</a>`) {
			t.Errorf("%s: no link to the Sources page in its navigation", p)
		}
	}

	src, err := os.ReadFile(sources)
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)

	// The tests it cites.
	defined := map[string]bool{}
	funcTest := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "dist" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, "_test.go") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range funcTest.FindAllStringSubmatch(string(b), -1) {
				defined[m[1]] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cited := regexp.MustCompile("`(Test\\w+)`").FindAllStringSubmatch(text, -1)
	if len(cited) < 20 {
		t.Errorf("the Sources page cites %d tests; expected the tests behind each reference number", len(cited))
	}
	for _, m := range cited {
		if !defined[m[1]] {
			t.Errorf("the Sources page cites %s, which no test file defines", m[1])
		}
	}

	// The lessons it links to.
	for _, m := range regexp.MustCompile(`\]\((lessons/[a-z0-9-]+\.html)\)`).FindAllStringSubmatch(text, -1) {
		if _, err := os.Stat(filepath.Join(out, m[1])); err != nil {
			t.Errorf("the Sources page links to %s, which the build did not write", m[1])
		}
	}

	// The ids it quotes.
	l := lab.New()
	var ids []string
	for _, d := range l.Policies() {
		ids = append(ids, d.ID)
	}
	for _, d := range l.Datasets() {
		ids = append(ids, d.ID)
	}
	for _, m := range regexp.MustCompile("`([a-z0-9]+(?:-[a-z0-9]+)*)`").FindAllStringSubmatch(text, -1) {
		if !slices.Contains(ids, m[1]) {
			t.Errorf("the Sources page quotes `%s`, which is no policy, estimator, schedule or dataset of the catalog", m[1])
		}
	}
}

// TestVersionStamped builds the site with a version set, as the Makefile
// sets it, and finds it in every page's head, in version.json and in the
// CITATION.cff the site serves, which stays valid CFF: its fields are
// those of site/static's, with the version's value alone changed.
func TestVersionStamped(t *testing.T) {
	defer func(v string) { version.Version = v }(version.Version)
	version.Version = `v1.2.0-3-gabc "dirty"`
	out := t.TempDir()
	root := filepath.Join("..", "..")
	if err := build(out, repoSources(root)); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"index.html", "upload.html", "lessons/optimal-schedules.html"} {
		b, _ := os.ReadFile(filepath.Join(out, filepath.FromSlash(p)))
		if !strings.Contains(string(b), `<meta name="refresh-lab-version" content="v1.2.0-3-gabc &#34;dirty&#34;">`) {
			t.Errorf("%s: no version in its head", p)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(out, "version.json")); string(b) != `{"version":"v1.2.0-3-gabc \"dirty\""}`+"\n" {
		t.Errorf("version.json: %s", b)
	}
	got, _ := os.ReadFile(filepath.Join(out, "CITATION.cff"))
	want, _ := os.ReadFile(filepath.Join(root, "site", "static", "CITATION.cff"))
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	if len(g) != len(w) {
		t.Fatalf("CITATION.cff has %d lines, site/static's %d", len(g), len(w))
	}
	for i := range g {
		if strings.HasPrefix(w[i], "version:") {
			if g[i] != `version: "v1.2.0-3-gabc \"dirty\""` {
				t.Errorf("CITATION.cff's version line: %s", g[i])
			}
		} else if g[i] != w[i] {
			t.Errorf("CITATION.cff line %d changed: %q, was %q", i+1, g[i], w[i])
		}
	}
	for _, field := range []string{"cff-version: 1.2.0", "title: \"Refresh Lab\"", "license: MIT", `  - name: "The Refresh Lab authors"`, "repository-code:", "abstract:", "references:"} {
		if !strings.Contains(string(got), field) {
			t.Errorf("CITATION.cff lacks %q", field)
		}
	}
}

// TestUploadExamples builds the site and checks that every example log the
// upload page offers (the examples/ paths its script names) is in it, and
// that the example logs of datasets/ are copied as they are.
func TestUploadExamples(t *testing.T) {
	out := t.TempDir()
	root := filepath.Join("..", "..")
	if err := build(out, repoSources(root)); err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join(root, "site", "static", "js", "upload.js"))
	if err != nil {
		t.Fatal(err)
	}
	paths := regexp.MustCompile(`examples/[\w.-]+`).FindAllString(string(script), -1)
	if len(paths) < 6 {
		t.Errorf("the upload page names %d examples (%q), want one or more per format", len(paths), paths)
	}
	for _, p := range paths {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(p))); err != nil {
			t.Errorf("the upload page offers %s, not in the built site: %v", p, err)
		}
	}
	files, err := os.ReadDir(filepath.Join(root, "datasets"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Name() == "README.md" {
			continue
		}
		want, err1 := os.ReadFile(filepath.Join(root, "datasets", f.Name()))
		got, err2 := os.ReadFile(filepath.Join(out, "examples", f.Name()))
		if err1 != nil || err2 != nil || string(got) != string(want) {
			t.Errorf("examples/%s is not datasets/%s as it is: %v %v", f.Name(), f.Name(), err1, err2)
		}
	}
}

// TestInstructorsPage builds the site and checks the instructors' page:
// it is written and every page's navigation links to it; it documents
// every field a lesson's front matter takes; and its complete example
// lesson is one the lab builds, predictions included.
func TestInstructorsPage(t *testing.T) {
	out := t.TempDir()
	root := filepath.Join("..", "..")
	if err := build(out, repoSources(root)); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(out, "instructors.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `aria-current="page">Instructors</a>`) || strings.Contains(string(page), `id="engine"`) {
		t.Errorf("instructors.html lacks its current-page mark, or shows the lab's status")
	}
	// Its code blocks scroll in their box, so the keyboard must reach them.
	if pre := regexp.MustCompile(`<pre[ >]`).FindAllString(string(page), -1); len(pre) == 0 || strings.Count(string(page), `<pre tabindex="0">`) != len(pre) {
		t.Errorf("instructors.html: %d code blocks, %d of them reachable by keyboard (tabindex=0)", len(pre), strings.Count(string(page), `<pre tabindex="0">`))
	}
	for _, p := range []string{"index.html", "upload.html", "sources.html", "lessons/naive-estimate.html"} {
		b, _ := os.ReadFile(filepath.Join(out, filepath.FromSlash(p)))
		if !regexp.MustCompile(`<a href="(\.\./)?instructors.html"`).Match(b) {
			t.Errorf("%s: no link to the instructors' page", p)
		}
	}
	src, err := os.ReadFile(filepath.Join(root, "site", "instructors.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	for where, names := range lesson.FrontMatter() {
		for _, name := range names {
			if !strings.Contains(text, "`"+name+"`") {
				t.Errorf("the instructors' page does not document the front matter's %s field `%s`", cmp.Or(where, "top-level"), name)
			}
		}
	}
	m := regexp.MustCompile("(?s)```markdown\n(---\n.*?)```").FindStringSubmatch(text)
	if m == nil {
		t.Fatal("no complete lesson (a ```markdown block with a front matter) on the instructors' page")
	}
	ls, err := lesson.Parse("instructors-example.md", []byte(m[1]), lab.New())
	if err != nil {
		t.Fatalf("the instructors' example lesson does not build: %v", err)
	}
	if len(ls.Predictions) == 0 || len(ls.Goals) == 0 || len(ls.Controls) == 0 {
		t.Errorf("the example lesson shows %d predictions, %d goals, %d controls; it should show each", len(ls.Predictions), len(ls.Goals), len(ls.Controls))
	}
}

// TestIndexCards builds the site and checks the home page: every lesson is
// a card in its track, with its minutes and a chart thumbnail the build
// drew (an SVG of the lesson's first chart); a track without lessons says
// it is coming.
func TestIndexCards(t *testing.T) {
	out := t.TempDir()
	root := filepath.Join("..", "..")
	if err := build(out, repoSources(root)); err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	ls, err := readLessons(filepath.Join(root, "lessons"), lab.New())
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range ls {
		track := strings.Index(string(index), `id="track-`+x.Track+`"`)
		card := strings.Index(string(index), `<a href="lessons/`+x.ID+`.html">`)
		if track < 0 || card < track {
			t.Errorf("%s: no card after its track %q (track at %d, card at %d)", x.ID, x.Track, track, card)
		}
		if !strings.Contains(string(index)[card:], fmt.Sprintf("<span>%d min</span>", x.Minutes)) {
			t.Errorf("%s: its card does not give its minutes", x.ID)
		}
		svg, err := os.ReadFile(filepath.Join(out, "thumbs", x.ID+".svg"))
		if err != nil || !strings.HasPrefix(strings.TrimSpace(string(svg)), "<svg") || !strings.Contains(string(index), `src="thumbs/`+x.ID+`.svg"`) {
			t.Errorf("%s: no thumbnail SVG on its card (%v)", x.ID, err)
		}
	}
	for _, tr := range lesson.Tracks {
		if !slices.ContainsFunc(ls, func(x *lesson.Lesson) bool { return x.Track == tr.ID }) {
			part := string(index)[strings.Index(string(index), `id="track-`+tr.ID+`"`):]
			if !strings.Contains(part[:min(len(part), 600)], "Coming") {
				t.Errorf("track %s has no lessons and does not say it is coming", tr.ID)
			}
		}
	}
}
