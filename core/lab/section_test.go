package lab_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/core/schedule/schedulekind"
	"github.com/refreshlab/refreshlab/core/stat"
)

// TestSectionsJSON checks that a kind's own members of a spec, a result
// and a policy's result are written under the kind's id, in the place the
// lab's own fields leave them, and read back into the kind's types; and
// that a member no kind or field takes is an error.
func TestSectionsJSON(t *testing.T) {
	w := 2.0
	for _, tt := range []struct {
		name string
		v    any
		json string
	}{
		{"spec", lab.Spec{Kind: schedulekind.ID, Seed: 3, Sections: lab.Sections{schedulekind.ID: &schedulekind.Spec{Days: 5, Warmup: &w, Rates: "mle"}}},
			`{"kind":"schedule","dataset":{"id":""},"budget":0,"cycles":0,"repeats":0,"seed":3,"policies":null,"schedule":{"days":5,"warmup":2,"rates":"mle","observe":0}}`},
		{"spec without", lab.Spec{Kind: schedulekind.ID},
			`{"kind":"schedule","dataset":{"id":""},"budget":0,"cycles":0,"repeats":0,"seed":0,"policies":null}`},
		{"result", lab.Result{ID: "r", Sections: lab.Sections{schedulekind.ID: &schedulekind.Result{RatesFrom: "truth", Events: 7}}, Work: "w"},
			`{"id":"r","spec":{"kind":"","dataset":{"id":""},"budget":0,"cycles":0,"repeats":0,"seed":0,"policies":null},"dataset":{"id":"","name":"","source":"","pages":0,"sites":0,"labels":0,"cycles":0,"cycleLength":0,"cycleUnit":"","changeRate":0},"policies":null,"schedule":{"ratesFrom":"truth","events":7},"work":"w","about":""}`},
		{"result with a policy", lab.Result{Spec: lab.Spec{Sections: lab.Sections{schedulekind.ID: &schedulekind.Spec{Days: 1}}},
			Policies: []lab.PolicyResult{{ID: "a", Sections: lab.Sections{schedulekind.ID: &schedulekind.PolicyResult{Rates: "mle"}}}, {ID: "b"}}},
			`{"spec":{"kind":"","dataset":{"id":""},"budget":0,"cycles":0,"repeats":0,"seed":0,"policies":null,"schedule":{"days":1,"rates":"","observe":0}},"dataset":{"id":"","name":"","source":"","pages":0,"sites":0,"labels":0,"cycles":0,"cycleLength":0,"cycleUnit":"","changeRate":0},"policies":[{"id":"a","name":"","oracle":false,"params":null,"metrics":null,"schedule":{"type":"","rates":"mle"}},{"id":"b","name":"","oracle":false,"params":null,"metrics":null}],"work":"","about":""}`},
		{"policy", lab.PolicyResult{ID: "uniform", Sections: lab.Sections{schedulekind.ID: &schedulekind.PolicyResult{Type: "allocation", Allocation: []stat.Summary{{Mean: 1, N: 1}}}}},
			`{"id":"uniform","name":"","oracle":false,"params":null,"metrics":null,"schedule":{"type":"allocation","allocation":[{"mean":1,"lo":0,"hi":0,"sd":0,"n":1}]}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.v)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.json {
				t.Fatalf("wrote\n%s\nwant\n%s", got, tt.json)
			}
			var back []byte
			switch tt.v.(type) {
			case lab.Spec:
				var v lab.Spec
				err, back = json.Unmarshal(got, &v), must(json.Marshal(v))
			case lab.Result:
				var v lab.Result
				err, back = json.Unmarshal(got, &v), must(json.Marshal(v))
			case lab.PolicyResult:
				var v lab.PolicyResult
				err, back = json.Unmarshal(got, &v), must(json.Marshal(v))
			}
			if err != nil || !bytes.Equal(back, got) {
				t.Errorf("read back: %v\n%s", err, back)
			}
		})
	}
	var s lab.Spec
	if err := json.Unmarshal([]byte(`{"kind":"schedule","schedule":{"days":1},"estimat":{}}`), &s); err == nil || !strings.Contains(err.Error(), "estimat") {
		t.Errorf("an unknown member: %v", err)
	}
	if err := json.Unmarshal([]byte(`{"schedule":{"dayz":1}}`), &s); err == nil || !strings.Contains(err.Error(), "dayz") {
		t.Errorf("an unknown member of a kind's: %v", err)
	}
	if err := json.Unmarshal([]byte(`[1]`), &s); err == nil || !strings.Contains(err.Error(), "lab.Spec") {
		t.Errorf("not an object: %v", err)
	}
	if _, err := json.Marshal(lab.Spec{Sections: lab.Sections{schedulekind.ID: &schedulekind.Result{}}}); err == nil {
		t.Error("a result written as a spec's member: no error")
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestSectionsWith checks that With leaves the sections it copies as they
// were, as copies of a spec share them.
func TestSectionsWith(t *testing.T) {
	a := lab.Sections{schedulekind.ID: &schedulekind.Spec{Days: 1}}
	b := a.With(schedulekind.ID, &schedulekind.Spec{Days: 2})
	if a[schedulekind.ID].(*schedulekind.Spec).Days != 1 || b[schedulekind.ID].(*schedulekind.Spec).Days != 2 {
		t.Errorf("a %v, b %v", a[schedulekind.ID], b[schedulekind.ID])
	}
	if c := lab.Sections(nil).With("x", 1); c["x"] != 1 {
		t.Errorf("on nil: %v", c)
	}
}

// FuzzSpecJSON checks that reading any body as a spec never panics, and
// that a spec read is written as JSON that reads back to itself.
func FuzzSpecJSON(f *testing.F) {
	for _, s := range []string{
		`{"kind":"schedule","schedule":{"days":5,"warmup":2}}`, `{"kind":"estimate","estimate":{"pages":3}}`,
		`{"monitor":{"tracking":1},"sweep":{"field":"schedule.days","values":[1]}}`, `[]`, `{"schedule":null}`, `{"schedule":{"warmup":null}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var s lab.Spec
		if json.Unmarshal(body, &s) != nil {
			return
		}
		out, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		var back lab.Spec
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%s: read back %s: %v", body, out, err)
		}
		if again := must(json.Marshal(back)); !bytes.Equal(again, out) {
			t.Fatalf("%s: wrote %s, then %s", body, out, again)
		}
	})
}
