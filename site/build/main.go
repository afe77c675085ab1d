// Command build renders the static site into a folder: it copies
// site/static, renders every lesson in lessons/ through site/templates
// (their formulas typeset as MathML by temml, in Node), draws each
// lesson's first chart small for the index (thumbs/), writes the home,
// upload, Sources and Instructors pages (the last two from site/sources.md
// and site/instructors.md),
// copies the Go toolchain's wasm_exec.js, exports example logs from a
// bundled dataset and copies the example logs of datasets/ beside them;
// every page carries the lab's version (core/version, which the Makefile
// sets with -ldflags) in a meta tag, and version.json says it too. The
// browser module (lab.wasm) is built into the same folder by the Makefile.
//
//	go run ./site/build -out site/dist
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/version"
	"github.com/refreshlab/refreshlab/site/lesson"
)

func main() {
	out := flag.String("out", "site/dist", "folder to write the site into")
	var in sources
	flag.StringVar(&in.site, "site", "site", "the site's folder: static/, templates/, sources.md, instructors.md, and node_modules/ (temml)")
	flag.StringVar(&in.lessons, "lessons", "lessons", "folder of lesson files")
	flag.StringVar(&in.datasets, "datasets", "datasets", "folder of example logs to offer on the upload page")
	flag.Parse()
	if err := build(*out, in); err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(1)
	}
}

// sources are the folders the site is built from.
type sources struct {
	site     string // static/, templates/, sources.md, instructors.md, build/typeset.mjs, node_modules/
	lessons  string
	datasets string
}

// repoSources are the sources of a build run from the repository's root.
func repoSources(root string) sources {
	return sources{site: filepath.Join(root, "site"), lessons: filepath.Join(root, "lessons"), datasets: filepath.Join(root, "datasets")}
}

// page is what every template gets.
type page struct {
	Title   string
	Path    string // the page's path from the site root, for the nav
	Root    string // relative path to the site root: "" or "../"
	Lessons []*lesson.Lesson
	Lesson  *lesson.Lesson
	Config  any // the lesson's config, embedded as JSON
	Prev    *lesson.Lesson
	Next    *lesson.Lesson
	Body    template.HTML // a page written in Markdown, rendered
	Tracks  []trackView   // the index's groups of lessons
	// Version is the lab's (core/version), written into every page's
	// head, for the report view and anyone reading the page's source.
	Version string
}

// trackView is a track of the index with its lessons, in order.
type trackView struct {
	lesson.Track
	Lessons []*lesson.Lesson
}

func build(out string, in sources) error {
	static, tmplDir := filepath.Join(in.site, "static"), filepath.Join(in.site, "templates")
	l := lab.New()
	ts, err := startTypesetter(in.site)
	if err != nil {
		return err
	}
	ls, err := readLessons(in.lessons, l, lesson.WithMath(ts.MathML))
	if cerr := ts.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("temml: %w", cerr)
	}
	if err != nil {
		return err
	}
	lesson.Reveal(ls)
	var tracks []trackView
	for _, t := range lesson.Tracks {
		v := trackView{Track: t}
		for _, x := range ls {
			if x.Track == t.ID {
				v.Lessons = append(v.Lessons, x)
			}
		}
		tracks = append(tracks, v)
	}
	funcs := template.FuncMap{"inc": func(i int) int { return i + 1 }}
	tmpl, err := template.New("site").Funcs(funcs).ParseGlob(filepath.Join(tmplDir, "*.html"))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(out, "lessons"), 0o755); err != nil {
		return err
	}
	if err := copyTree(static, out); err != nil {
		return err
	}
	if err := stampCitation(filepath.Join(out, "CITATION.cff"), version.String()); err != nil {
		return err
	}
	goroot, err := goRoot()
	if err != nil {
		return err
	}
	if err := copyFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"), filepath.Join(out, "js", "wasm_exec.js")); err != nil {
		return err
	}
	write := func(path, name string, p page) error {
		var buf bytes.Buffer
		p.Lessons, p.Path, p.Version = ls, path, version.String()
		if err := tmpl.ExecuteTemplate(&buf, name, p); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		return os.WriteFile(filepath.Join(out, filepath.FromSlash(path)), buf.Bytes(), 0o644)
	}
	if err := drawThumbnails(filepath.Join(out, "thumbs"), ls, l); err != nil {
		return err
	}
	if err := write("index.html", "index.html", page{Title: "Refresh Lab", Tracks: tracks}); err != nil {
		return err
	}
	if err := write("upload.html", "upload.html", page{Title: "Compare policies on your crawl log"}); err != nil {
		return err
	}
	for _, md := range []struct{ file, title string }{{"sources", "Sources"}, {"instructors", "For instructors"}} {
		file := filepath.Join(in.site, md.file+".md")
		src, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		body, err := renderMarkdown(src)
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		if err := write(md.file+".html", "sources.html", page{Title: md.title, Body: body}); err != nil {
			return err
		}
	}
	for i, x := range ls {
		cfg := map[string]any{
			"id": x.ID, "title": x.Title, "spec": x.Spec, "controls": x.Controls,
			"charts": x.Charts, "readouts": x.Readouts, "predictions": x.Predictions,
		}
		if x.Crawler != "" {
			cfg["crawler"] = x.Crawler // the crawler view's first policy (crawler.js)
		}
		p := page{Title: x.Title, Root: "../", Lesson: x, Config: cfg}
		if i > 0 {
			p.Prev = ls[i-1]
		}
		if i+1 < len(ls) {
			p.Next = ls[i+1]
		}
		if err := write("lessons/"+x.ID+".html", "lesson.html", p); err != nil {
			return err
		}
	}
	v, _ := json.Marshal(map[string]string{"version": version.String()})
	if err := os.WriteFile(filepath.Join(out, "version.json"), append(v, '\n'), 0o644); err != nil {
		return err
	}
	if err := exportExamples(filepath.Join(out, "examples"), l); err != nil {
		return err
	}
	return copyExamples(in.datasets, filepath.Join(out, "examples"))
}

// copyExamples copies the example logs of the datasets folder (every file
// but its README) into the site, for the upload page to offer.
func copyExamples(dir, to string) error {
	files, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, f := range files {
		if f.IsDir() || strings.EqualFold(f.Name(), "README.md") {
			continue
		}
		if err := copyFile(filepath.Join(dir, f.Name()), filepath.Join(to, f.Name())); err != nil {
			return err
		}
	}
	return nil
}

// goRoot returns the root of the Go toolchain whose wasm_exec.js goes with
// the browser module: $GOROOT if it is set, else what the go command on
// PATH reports (the toolchain that builds lab.wasm, not necessarily the
// one this program was built with).
func goRoot() (string, error) {
	if r := os.Getenv("GOROOT"); r != "" {
		return r, nil
	}
	b, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("finding the Go root for wasm_exec.js: go env GOROOT: %w", err)
	}
	r := strings.TrimSpace(string(b))
	if r == "" {
		return "", fmt.Errorf("finding the Go root for wasm_exec.js: go env GOROOT printed nothing")
	}
	return r, nil
}

// readLessons parses every lessons/*.md, in their declared order.
func readLessons(dir string, l *lab.Lab, opts ...lesson.Option) ([]*lesson.Lesson, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return nil, err
	}
	var ls []*lesson.Lesson
	for _, f := range files {
		if strings.EqualFold(filepath.Base(f), "README.md") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		x, err := lesson.Parse(f, src, l, opts...)
		if err != nil {
			return nil, err
		}
		ls = append(ls, x)
	}
	slices.SortStableFunc(ls, func(a, b *lesson.Lesson) int { return a.Order - b.Order })
	for i, x := range ls {
		x.Number = i + 1
	}
	return ls, nil
}

// exportExamples writes bundled datasets as crawl logs and as change-event
// logs, so the upload page can offer one of each to try and researchers can
// see the formats.
func exportExamples(dir string, l *lab.Lab) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, id := range []string{"alqaaideh-jordan"} {
		d, ok := l.Dataset(id)
		if !ok {
			return fmt.Errorf("no dataset %s to export", id)
		}
		start := time.Date(2009, 3, 1, 0, 0, 0, 0, time.UTC)
		for _, f := range []struct {
			name  string
			write func(io.Writer, *dataset.Dataset, time.Time) error
		}{{"-crawl-log.csv", dataset.WriteCrawlLog}, {"-change-events.csv", dataset.WriteEventLog}} {
			var buf bytes.Buffer
			if err := f.write(&buf, d, start); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, id+f.name), buf.Bytes(), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		return copyFile(path, target)
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// stampCitation writes the lab's version into the version field of the
// CITATION.cff the site serves (copied from site/static, where it says
// "unknown"), so that a citation names the build it came from.
func stampCitation(path, v string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	lines := strings.Split(string(b), "\n")
	found := false
	for i, l := range lines {
		if strings.HasPrefix(l, "version:") {
			q, _ := json.Marshal(v) // a YAML double-quoted string, as JSON writes it
			lines[i], found = "version: "+string(q), true
		}
	}
	if !found {
		return fmt.Errorf("%s: no version field to write the lab's version into", path)
	}
	return os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)
}
