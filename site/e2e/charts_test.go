package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// chartWidths are the screens the charts must read on: two phones, a
// tablet and a desktop (CSS pixels), each with its height.
var chartWidths = [][2]int{{360, 740}, {390, 844}, {768, 1024}, {1280, 900}}

// chartsSizedJS is true once every chart of the panel is drawn as wide as
// its box (chart-size.js asked the lab for that width) and no run is
// under way.
const chartsSizedJS = `(() => {
  const figs = [...document.querySelectorAll('#charts figure.chart')];
  return figs.length > 0 && !document.querySelector('#experiment[aria-busy]') && figs.every((f) => {
    const s = f.querySelector(':scope > svg');
    return s && Number(s.getAttribute('width')) === Math.floor(f.getBoundingClientRect().width);
  });
})()`

// chartLooksJS measures the panel's charts as rendered: the smallest
// text in CSS pixels (its font size times the SVG's scale on screen),
// the texts cut with an ellipsis, the charts wider than their box, and
// for each policy (data-policy) the colours, line dash patterns and bar
// hatches it is drawn with.
const chartLooksJS = `(() => {
  const out = { smallest: 1e9, smallestText: '', cut: [], wide: [], policies: {} };
  const white = (c) => !c || c === 'none' || c === '#fff' || c === '#ffffff';
  const look = (k) => (out.policies[k] = out.policies[k] || { colors: [], dashes: [], hatches: [] });
  const add = (list, v) => { if (!list.includes(v)) list.push(v); };
  for (const f of document.querySelectorAll('#charts figure.chart')) {
    const s = f.querySelector(':scope > svg');
    if (!s) continue;
    const r = s.getBoundingClientRect();
    const scale = r.width / s.viewBox.baseVal.width;
    const box = f.getBoundingClientRect().width;
    if (r.width > box + 0.01) out.wide.push(s.querySelector('title').textContent + ': ' + r.width + ' px in ' + box);
    for (const t of s.querySelectorAll('text')) {
      const px = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (px < out.smallest) { out.smallest = px; out.smallestText = t.textContent; }
      if (t.textContent.includes('…')) out.cut.push(t.textContent);
    }
    for (const e of s.querySelectorAll('[data-policy]')) {
      const p = look(e.dataset.policy);
      if (e.tagName === 'rect') {
        if (!white(e.getAttribute('stroke'))) add(p.colors, e.getAttribute('stroke'));
        const m = /url\(#([^)]+)\)/.exec(e.getAttribute('fill') || '');
        const pat = m && s.querySelector('pattern[id="' + m[1] + '"]');
        add(p.hatches, pat ? pat.dataset.hatch : 'solid');
        continue;
      }
      for (const l of e.querySelectorAll('path[fill="none"]')) {
        if (white(l.getAttribute('stroke'))) continue;
        add(p.colors, l.getAttribute('stroke'));
        add(p.dashes, l.getAttribute('stroke-dasharray') || 'solid');
      }
    }
  }
  return out;
})()`

type chartLooks struct {
	Smallest     float64 `json:"smallest"`
	SmallestText string  `json:"smallestText"`
	Cut          []string
	Wide         []string
	Policies     map[string]struct {
		Colors, Dashes, Hatches []string
	}
}

// TestBrowserChartsRead opens every lesson at a phone's, a tablet's and a
// desktop's width: once the charts are redrawn for their boxes, no chart
// text renders below 12 CSS pixels, none is cut with "…", no chart is
// wider than its box, and each policy has one colour, one dash pattern
// and one hatch in every chart of every lesson at every width.
func TestBrowserChartsRead(t *testing.T) {
	e := setup(t)
	pages, err := filepath.Glob(filepath.Join(distDir(), "lessons", "*.html"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no lesson pages in %s (%v)", distDir(), err)
	}
	// Every place each policy's looks were seen, by look.
	type seen map[string][]string
	colors, dashes, hatches := map[string]seen{}, map[string]seen{}, map[string]seen{}
	note := func(m map[string]seen, key string, vals []string, where string) {
		if m[key] == nil {
			m[key] = seen{}
		}
		for _, v := range vals {
			m[key][v] = append(m[key][v], where)
		}
	}
	for _, page := range pages {
		name := strings.TrimSuffix(filepath.Base(page), ".html")
		t.Run(name, func(t *testing.T) {
			tb := e.open(t, "")
			for _, wh := range chartWidths {
				tb.do(chromedp.EmulateViewport(int64(wh[0]), int64(wh[1])))
				if wh == chartWidths[0] {
					tb.do(chromedp.Navigate(Probed(e.url + "/lessons/" + name + ".html")))
					tb.waitRender(0)
				}
				tb.waitFor(fmt.Sprintf("the charts drawn for their boxes at %d px", wh[0]), chartsSizedJS)
				l := evalJS[chartLooks](tb, chartLooksJS)
				where := fmt.Sprintf("%s at %d", name, wh[0])
				if l.Smallest < 12-1e-6 {
					t.Errorf("at %d px: chart text %q renders at %.1f px, below 12", wh[0], l.SmallestText, l.Smallest)
				}
				if len(l.Cut) > 0 {
					t.Errorf("at %d px: chart text cut short: %q", wh[0], l.Cut)
				}
				if len(l.Wide) > 0 {
					t.Errorf("at %d px: charts wider than their box: %q", wh[0], l.Wide)
				}
				for key, p := range l.Policies {
					note(colors, key, p.Colors, where)
					note(dashes, key, p.Dashes, where)
					note(hatches, key, p.Hatches, where)
				}
			}
		})
	}
	for what, m := range map[string]map[string]seen{"colour": colors, "dash pattern": dashes, "bar hatch": hatches} {
		for key, looks := range m {
			if len(looks) > 1 {
				var b strings.Builder
				for v, where := range looks {
					fmt.Fprintf(&b, "\n  %q in %d charts, first %s", v, len(where), where[0])
				}
				t.Errorf("policy %s has more than one %s:%s", key, what, b.String())
			}
		}
	}
	if len(colors) < 10 {
		t.Errorf("only %d policies found in the lessons' charts (data-policy): the check saw too little", len(colors))
	}
}

// TestBrowserChartTooltip checks that a chart's points tell their exact
// value and interval: the keyboard focuses a chart and steps to its next
// point with the arrow keys, the pointer hovers one, and each time the
// tooltip shows that point's value and 95% interval.
func TestBrowserChartTooltip(t *testing.T) {
	e := setup(t)
	tb := e.open(t, lessonPath)
	tb.waitRender(0)
	id := evalJS[string](tb, `(() => {
  const s = [...document.querySelectorAll('#charts svg')].find((s) => s.querySelector('.pt'));
  if (!s) return '';
  s.id = s.id || 'tip-chart';
  return s.getAttribute('tabindex') === '0' ? s.id : '';
})()`)
	if id == "" {
		t.Fatal("no chart with points takes the focus (tabindex 0)")
	}
	tipJS := `(() => { const t = document.querySelector('.chart-tip'); return t && !t.hidden ? t.textContent : ''; })()`
	tb.do(chromedp.Focus(chromedp.ID(id)))
	first := evalJS[string](tb, tipJS)
	tb.do(chromedp.KeyEvent(kb.ArrowRight))
	second := evalJS[string](tb, tipJS)
	for _, s := range []string{first, second} {
		if !strings.Contains(s, ": ") || !strings.Contains(s, "interval") {
			t.Errorf("focused point's tooltip %q, want its value and interval", s)
		}
	}
	if first == second {
		t.Errorf("the arrow key did not move to the next point: both %q", first)
	}
	hovered := evalJS[string](tb, `(() => {
  document.activeElement.blur();
  const p = document.querySelectorAll('#charts .pt')[1];
  const r = p.getBoundingClientRect();
  p.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 }));
  const t = document.querySelector('.chart-tip');
  return t && !t.hidden ? t.textContent : '';
})()`)
	if !strings.Contains(hovered, "interval") {
		t.Errorf("hovered point's tooltip %q, want its value and interval", hovered)
	}
}
