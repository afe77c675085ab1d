package pipeline

import (
	"reflect"
	"testing"

	"github.com/refreshlab/refreshlab/core/dataset"
)

// encode is the batch of cs.
func encode(cs []dataset.Capture) []byte {
	var b Batch
	for _, c := range cs {
		b.Add(c)
	}
	return b.Bytes()
}

func TestBatchRoundTrip(t *testing.T) {
	const page = "p"
	cases := []struct {
		name string
		cs   []dataset.Capture
	}{
		{"empty", nil},
		{"one", []dataset.Capture{{Page: page, URL: "https://a.example/1", Site: "a.example", Time: 1_700_000_000e9, Line: 2, File: 7}}},
		{"flags and digests", []dataset.Capture{
			{Page: page, URL: "https://a.example/1", Site: "a.example", Time: 1_700_000_000e9, Line: 9, File: 1 << 63, Hashed: true, Digest: 1<<64 - 1},
			{Page: page, URL: "https://a.example/1", Site: "a.example", Time: 1_600_000_000e9, Line: 3, File: 1 << 63, Hashed: true, Changed: true},
		}},
		{"names change within the batch", []dataset.Capture{
			{Page: page, URL: "https://a.example/1", Site: "a.example", Time: -5, Line: 1},
			{Page: page, URL: "https://a.example/1", Site: "b.example", Time: 5, Line: 2, Changed: true},
			{Page: page, URL: "", Site: "b.example", Time: 5, Line: 3},
			{Page: page, URL: "", Site: "b.example", Time: 6, Line: 4},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := DecodeBatch(nil, page, encode(c.cs))
			if err != nil {
				t.Fatal(err)
			}
			if len(c.cs) == 0 && len(got) == 0 {
				return
			}
			if !reflect.DeepEqual(got, c.cs) {
				t.Errorf("got %+v\nwant %+v", got, c.cs)
			}
		})
	}
}

func TestBatchDecodeErrors(t *testing.T) {
	good := encode([]dataset.Capture{{URL: "https://a.example/1", Site: "a.example", Time: 10, Line: 2, Hashed: true, Digest: 3}})
	cases := []struct {
		name string
		p    []byte
	}{
		{"no file", []byte{0x80}},
		{"truncated digest", good[:6]},
		{"truncated text", good[:len(good)-3]},
		{"a trailing byte", append(append([]byte{}, good...), 0)},
		{"unknown flags", []byte{0, 8, 2, 2}},
		{"first capture without names", []byte{0, 0, 2, 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := DecodeBatch(nil, "p", c.p); err == nil {
				t.Errorf("DecodeBatch(%v) gave no error", c.p)
			}
		})
	}
}

// FuzzDecodeBatch checks that any bytes decode without a panic, and that
// what decodes encodes and decodes back to the same captures.
func FuzzDecodeBatch(f *testing.F) {
	f.Add(encode([]dataset.Capture{{URL: "u", Site: "s", Time: 10, Line: 2, Hashed: true, Digest: 3}, {URL: "u", Site: "s", Time: 11, Line: 3, Changed: true}}))
	f.Add([]byte{0})
	f.Fuzz(func(t *testing.T, p []byte) {
		cs, err := DecodeBatch(nil, "p", p)
		if err != nil {
			return
		}
		// Every capture of a batch has its first one's file.
		again, err := DecodeBatch(nil, "p", encode(cs))
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) > 0 && !reflect.DeepEqual(again, cs) {
			t.Errorf("%v decodes to %+v, which encodes and decodes to %+v", p, cs, again)
		}
	})
}
