package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserEveryLesson opens every lesson the site ships: it must draw
// every chart it declares (each an accessible SVG), fill its numbers, and
// answer its first slider moved from the keyboard with a different view,
// with no console errors. A new lesson is covered without a new test.
func TestBrowserEveryLesson(t *testing.T) {
	e := setup(t)
	pages, err := filepath.Glob(filepath.Join(distDir(), "lessons", "*.html"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no lesson pages in %s (%v)", distDir(), err)
	}
	for _, page := range pages {
		name := strings.TrimSuffix(filepath.Base(page), ".html")
		t.Run(name, func(t *testing.T) {
			tb := e.open(t, "/lessons/"+name+".html")
			first := tb.waitRender(0)
			charts := evalJS[int](tb, `JSON.parse(document.getElementById('lesson-config').textContent).charts.length`)
			svgs := evalJS[int](tb, `[...document.querySelectorAll('#charts figure.chart svg')].filter((s) => s.getAttribute('role') === 'img' && s.querySelector('title') && s.querySelector('desc')).length`)
			if svgs != charts {
				t.Errorf("%d accessible chart SVGs for the %d charts the lesson declares", svgs, charts)
			}
			before := evalJS[string](tb, `document.getElementById('readouts').innerText + [...document.querySelectorAll('#charts svg')].map((s) => s.outerHTML).join('')`)
			if strings.Contains(before, "NaN") {
				t.Error("the numbers or charts show NaN")
			}
			if unfilled := evalJS[int](tb, `[...document.querySelectorAll('output.live')].filter((o) => o.textContent === '…').length`); unfilled > 0 {
				t.Errorf("%d live numbers in the narrative were never filled", unfilled)
			}
			if missing := evalJS[[]string](tb, `[...document.querySelectorAll('output.live')].filter((o) => o.textContent === '–').map((o) => o.dataset.metric + ' ' + o.dataset.policy)`); len(missing) > 0 {
				t.Errorf("live numbers the result does not carry: %q", missing)
			}
			// Every chart's data table, which the lab makes when it is opened.
			evalJS[bool](tb, `([...document.querySelectorAll('#charts details.data')].forEach((d) => { d.open = true; }), true)`)
			tb.waitFor("every chart's data table", `[...document.querySelectorAll('#charts details.data')].every((d) => d.querySelector('table.data-table tbody tr'))`)
			if bad := evalJS[int](tb, `document.querySelectorAll('#charts details.data .error').length`); bad > 0 {
				t.Errorf("%d data tables could not be made", bad)
			}
			id := evalJS[string](tb, `(document.querySelector('#controls input[type=range]') || {}).id || ''`)
			if id == "" {
				t.Skip("the lesson has no slider")
			}
			tb.do(chromedp.Focus(chromedp.ID(id)), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight))
			tb.waitRender(first.Renders)
			after := evalJS[string](tb, `document.getElementById('readouts').innerText + [...document.querySelectorAll('#charts svg')].map((s) => s.outerHTML).join('')`)
			if after == before {
				t.Errorf("moving the first slider (#%s) changed neither the numbers nor the charts", id)
			}
			tb.shot("lesson-"+name, "")
		})
	}
}

// distDir is the built site the tests serve.
func distDir() string {
	if d := os.Getenv("REFRESHLAB_DIST"); d != "" {
		return d
	}
	return filepath.Join("..", "dist")
}
