package pipeline

import (
	"reflect"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
)

func TestBatchRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		cs   []dataset.Capture
	}{
		{"empty", nil},
		{"one", []dataset.Capture{{URL: "https://a.example/1", Site: "a.example", Time: 1_700_000_000e9, Line: 2, File: 7}}},
		{"flags and digests", []dataset.Capture{
			{URL: "https://a.example/1", Site: "a.example", Time: 1_700_000_000e9, Line: 9, File: 1 << 63, Hashed: true, Digest: 1<<64 - 1},
			{URL: "https://a.example/1", Site: "a.example", Time: 1_600_000_000e9, Line: 3, File: 1 << 63, Hashed: true, Changed: true},
		}},
		{"names change within the batch", []dataset.Capture{
			{URL: "https://a.example/1", Site: "a.example", Time: -5, Line: 1},
			{URL: "https://a.example/1", Site: "b.example", Time: 5, Line: 2, Changed: true},
			{URL: "", Site: "b.example", Time: 5, Line: 3},
			{URL: "", Site: "b.example", Time: 6, Line: 4},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := DecodeBatch(EncodeBatch(Batch{Captures: c.cs}))
			if err != nil {
				t.Fatal(err)
			}
			if len(c.cs) == 0 && len(got.Captures) == 0 {
				return
			}
			if !reflect.DeepEqual(got.Captures, c.cs) {
				t.Errorf("got %+v\nwant %+v", got.Captures, c.cs)
			}
		})
	}
}

func TestBatchDecodeErrors(t *testing.T) {
	good := EncodeBatch(Batch{Captures: []dataset.Capture{{URL: "https://a.example/1", Site: "a.example", Time: 10, Line: 2, Hashed: true, Digest: 3}}})
	cases := []struct {
		name string
		p    []byte
	}{
		{"no count", nil},
		{"count beyond the length", []byte{100, 0}},
		{"truncated", good[:len(good)-3]},
		{"trailing bytes", append(append([]byte{}, good...), 0)},
		{"unknown flags", append([]byte{1, 0, 8}, good[3:]...)},
		{"first capture without names", []byte{1, 0, 0, 2, 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := DecodeBatch(c.p); err == nil {
				t.Errorf("DecodeBatch(%v) gave no error", c.p)
			}
		})
	}
}

// FuzzDecodeBatch checks that any bytes decode without a panic, and that
// what decodes encodes back to the same bytes.
func FuzzDecodeBatch(f *testing.F) {
	f.Add(EncodeBatch(Batch{Captures: []dataset.Capture{{URL: "u", Site: "s", Time: 10, Line: 2, Hashed: true, Digest: 3}, {URL: "u", Site: "s", Time: 11, Line: 3, Changed: true}}}))
	f.Add([]byte{0})
	f.Fuzz(func(t *testing.T, p []byte) {
		b, err := DecodeBatch(p)
		if err != nil {
			return
		}
		again, err := DecodeBatch(EncodeBatch(b))
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Captures) > 0 && !reflect.DeepEqual(again, b) {
			t.Errorf("%v decodes to %+v, which encodes and decodes to %+v", p, b, again)
		}
	})
}
