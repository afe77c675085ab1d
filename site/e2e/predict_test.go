package e2e

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/site/lesson"
)

// TestBrowserPredictions answers three predictions of the kinds a lesson
// asks (an interval, a number, a policy), from the keyboard where a
// learner would: before the guess, the answer region is hidden and holds
// no number; after it, the answer shows the number the lab computes for
// the prediction's spec (checked here against the same spec run natively),
// the verdict on the guess, the explanation, and has the focus.
func TestBrowserPredictions(t *testing.T) {
	e := setup(t)
	l := lab.New()
	for _, tc := range []struct {
		lesson string
		n      int    // the prediction, from 1
		guess  string // an option's index, or the number typed
		right  bool
	}{
		{"naive-estimate", 1, "1", true},               // between 0.2 and 0.5
		{"sampling-a-site", 3, "0.5", false},           // a number, off by more than its 0.02
		{"why-refresh-policies-matter", 1, "0", false}, // round-robin is not the highest
	} {
		t.Run(tc.lesson, func(t *testing.T) {
			file := filepath.Join("..", "..", "lessons", tc.lesson+".md")
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			ls, err := lesson.Parse(file, src, l)
			if err != nil {
				t.Fatal(err)
			}
			p := ls.Predictions[tc.n-1]
			tb := e.open(t, "/lessons/"+tc.lesson+".html")
			tb.waitRender(0)
			item := "#predict-" + strconv.Itoa(tc.n)
			before := evalJS[struct {
				Hidden bool
				Text   string
			}](tb, `(() => { const a = document.querySelector('`+item+`-answer'); return { hidden: a.hidden && a.offsetParent === null, text: a.querySelector('.predict-result').textContent }; })()`)
			if !before.Hidden || strings.TrimSpace(before.Text) != "" {
				t.Fatalf("before the guess the answer is shown (hidden %v) or filled: %q", before.Hidden, before.Text)
			}
			if len(p.Options) > 0 {
				// Focus the first option, then arrow to the guess: radio
				// buttons move (and check) with the arrow keys.
				tb.do(chromedp.Focus(chromedp.CSS(item+` input[type=radio][value="0"]`)), chromedp.KeyEvent(" "))
				k, _ := strconv.Atoi(tc.guess)
				for range k {
					tb.do(chromedp.KeyEvent(kb.ArrowRight))
				}
				if got := evalJS[string](tb, `document.querySelector('`+item+` input[type=radio]:checked').value`); got != tc.guess {
					t.Fatalf("the keyboard chose option %s, want %s", got, tc.guess)
				}
			} else {
				tb.do(chromedp.Focus(chromedp.CSS(item+` input[type=number]`)), chromedp.SendKeys(chromedp.CSS(item+` input[type=number]`), tc.guess))
			}
			if shown := evalJS[bool](tb, `!document.querySelector('`+item+`-answer').hidden`); shown {
				t.Fatal("choosing, before pressing the button, showed the answer")
			}
			// Tab to the button and press it.
			tb.do(chromedp.KeyEvent(kb.Tab))
			if focused := evalJS[string](tb, `document.activeElement.textContent`); focused != "Check my guess" {
				t.Fatalf("Tab from the guess went to %q, not the button", focused)
			}
			tb.do(chromedp.KeyEvent(kb.Enter))
			tb.waitFor("the answer", `!document.querySelector('`+item+`-answer').hidden`)
			after := evalJS[struct {
				Numbers []string
				Text    string
				Focused bool
				Locked  bool
				Marked  string
			}](tb, `(() => { const a = document.querySelector('`+item+`-answer'); return {
				numbers: [...a.querySelectorAll('.predict-result strong')].map((s) => s.textContent),
				text: a.textContent, focused: document.activeElement === a,
				locked: [...document.querySelectorAll('`+item+` input')].every((i) => i.disabled),
				marked: (() => { const m = document.querySelector('`+item+` .lab-answer'); return m ? m.closest('label').querySelector('input').value : ''; })(),
			}; })()`)
			if !after.Focused || !after.Locked {
				t.Errorf("after the guess: focus on the answer %v, guess locked %v", after.Focused, after.Locked)
			}
			if !strings.Contains(after.Text, string(p.WhyHTML[:20])) {
				t.Errorf("the explanation is not shown: %q", after.Text)
			}
			if right := strings.Contains(after.Text, "Your guess was right."); right != tc.right {
				t.Errorf("verdict %v for guess %s, want %v: %s", right, tc.guess, tc.right, after.Text)
			}

			// The number the lab computes for the same spec, natively.
			res, err := l.Run(p.Spec)
			if err != nil {
				t.Fatal(err)
			}
			value := func(key string) float64 {
				for _, q := range res.Policies {
					if q.Key() == key {
						if s, ok := q.Metrics[p.Metric]; ok {
							return s.Mean
						}
						v, _ := q.Fact(p.Metric)
						return v
					}
				}
				t.Fatalf("no policy %s in the native result", key)
				return 0
			}
			if len(p.Choices) > 0 {
				best := 0
				for i, k := range p.Choices {
					if value(k) > value(p.Choices[best]) {
						best = i
					}
				}
				if after.Marked != strconv.Itoa(best) {
					t.Errorf("the page marks option %q as the lab's answer; the native run's highest is %d (%s)", after.Marked, best, p.Choices[best])
				}
				return
			}
			want := value(p.Policy)
			if len(after.Numbers) == 0 {
				t.Fatalf("no number in the answer: %s", after.Text)
			}
			got, err := strconv.ParseFloat(strings.Fields(after.Numbers[0])[0], 64)
			if err != nil || math.Abs(got-want) > 0.006 {
				b, _ := json.Marshal(after.Numbers)
				t.Errorf("the page shows %s, the lab computes %.4f natively", b, want)
			}
			if len(p.Options) > 0 && after.Marked == "" {
				t.Error("no option is marked as the lab's answer")
			}
			tb.shot("predict-"+tc.lesson, item)
		})
	}
}
