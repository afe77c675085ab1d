package api

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
)

// policyStrokes returns, for each policy an SVG marks (data-policy, on an
// element or an ancestor), the stroke colours drawn for it, white rims
// left out.
func policyStrokes(t *testing.T, svg []byte) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var stack []string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			key := ""
			if len(stack) > 0 {
				key = stack[len(stack)-1]
			}
			stroke := ""
			for _, a := range e.Attr {
				switch a.Name.Local {
				case "data-policy":
					key = a.Value
				case "stroke":
					stroke = strings.ToLower(a.Value)
				}
			}
			stack = append(stack, key)
			if key != "" && stroke != "" && stroke != "#fff" && stroke != "#ffffff" && stroke != "none" {
				if out[key] == nil {
					out[key] = map[string]bool{}
				}
				out[key][stroke] = true
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
}

// TestPolicyKeepsItsColourInEveryChart draws one result as every chart
// type that shows policies, and two results that run site-greedy beside
// different policies: in each chart, each policy is drawn in the one
// colour the catalog gives it (lab.PolicyStyle), whatever its position.
func TestPolicyKeepsItsColourInEveryChart(t *testing.T) {
	rt := New(lab.New())
	runs := []string{
		`{"dataset":{"id":"alqaaideh-jordan"},"cycles":4,"repeats":3,"policies":[{"id":"site-greedy"},{"id":"random"},{"id":"oracle"}],"sweep":{"field":"budget","values":[50,150]}}`,
		`{"dataset":{"id":"alqaaideh-jordan"},"cycles":4,"repeats":3,"policies":[{"id":"frequency-greedy"},{"id":"change-frequency"},{"id":"site-greedy"}],"sweep":{"field":"budget","values":[50,150]}}`,
	}
	drawn := map[string]int{}
	for _, run := range runs {
		resp, _ := serve(rt, "POST", "/api/run", "", run)
		if resp.Status != 200 {
			t.Fatalf("run: %d %s", resp.Status, resp.Body)
		}
		for _, ty := range []string{ChartCycles, ChartBars, ChartSweep, ChartSites, ChartForest} {
			c, _ := serve(rt, "POST", "/api/chart", "", `{"result":`+string(resp.Body)+`,"chart":{"type":"`+ty+`","metric":"changeRatio"}}`)
			if c.Status != 200 {
				t.Fatalf("%s: %d %.300s", ty, c.Status, c.Body)
			}
			for key, strokes := range policyStrokes(t, c.Body) {
				st, ok := lab.PolicyStyle(key)
				if !ok {
					t.Errorf("%s: data-policy %q is not a policy of the catalog", ty, key)
					continue
				}
				var want struct{ Color string }
				b, _ := json.Marshal(st)
				json.Unmarshal(b, &want)
				if len(strokes) != 1 || !strokes[want.Color] {
					t.Errorf("%s: %s drawn in %v, want only %s", ty, key, strokes, want.Color)
				}
				drawn[key]++
			}
		}
	}
	if drawn["site-greedy"] != 10 || drawn["oracle"] != 4 || drawn["random"] != 4 {
		t.Errorf("policies drawn in %v charts, want site-greedy in 10, oracle and random in 4 (all but sites)", drawn)
	}
}
