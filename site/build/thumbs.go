package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/refreshlab/refreshlab/core/api"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/site/lesson"
)

// Thumbnails are drawn at this size (SVG user units) and shown at the
// width of an index card.
const thumbWidth, thumbHeight = 560, 320

// drawThumbnails writes dir/ID.svg for every lesson: its first chart, of
// its own spec as the page first runs it, drawn through the lab's API
// (POST /api/chart with the spec) as the page draws it, two lessons at a
// time (the machines the site is built on have two cores).
func drawThumbnails(dir string, ls []*lesson.Lesson, l *lab.Lab) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	rt := api.New(l)
	errs := make([]error, len(ls))
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for i, x := range ls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = drawThumbnail(filepath.Join(dir, x.ID+".svg"), x, rt)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// drawThumbnail draws lesson x's first chart into file.
func drawThumbnail(file string, x *lesson.Lesson, rt *api.Router) error {
	// The lesson's chart options as the page sends them: all but the
	// caption, which the page shows beside the chart.
	b, err := json.Marshal(x.Charts[0])
	if err != nil {
		return err
	}
	var opts map[string]any
	if err := json.Unmarshal(b, &opts); err != nil {
		return err
	}
	delete(opts, "caption")
	opts["width"], opts["height"] = thumbWidth, thumbHeight
	body, err := json.Marshal(map[string]any{"spec": x.Spec, "chart": opts})
	if err != nil {
		return err
	}
	resp := rt.Serve(api.Request{Method: "POST", Path: "/api/chart", Body: body})
	if resp.Status != 200 {
		return fmt.Errorf("%s: the thumbnail of its first chart: %s", x.ID, resp.Body)
	}
	return os.WriteFile(file, resp.Body, 0o644)
}
