package pipeline

import (
	"encoding/binary"
	"fmt"

	"github.com/refreshlab/refreshlab/core/dataset"
)

// Batch is some captures of one page from one file, as the pipeline groups
// them under the page's key. A worker gathers a file's captures by page
// before handing them on (Options.Batched bounds how many it holds), so that
// the shuffle carries a few elements per page rather than one per row:
// the runner's cost per element, not the captures' bytes, is what fills a
// local run's memory.
type Batch struct {
	Captures []dataset.Capture
}

// Flags of a capture in a batch's encoding.
const (
	batchChanged = 1 << iota
	batchHashed
	batchNames // the URL and site follow: they differ from the previous capture's
)

// EncodeBatch writes b compactly for the shuffle: without the page id (the
// group's key, which DecodeBatch leaves empty), each URL and site only
// where it differs from the previous capture's, times and lines as
// differences from the previous capture's, the digest only in a log with a
// hash column, and the file once.
func EncodeBatch(b Batch) []byte {
	cs := b.Captures
	out := binary.AppendUvarint(nil, uint64(len(cs)))
	if len(cs) == 0 {
		return out
	}
	out = binary.AppendUvarint(out, cs[0].File)
	var t int64
	var line int
	var u, site string
	for i, c := range cs {
		var f byte
		if c.Changed {
			f |= batchChanged
		}
		if c.Hashed {
			f |= batchHashed
		}
		if i == 0 || c.URL != u || c.Site != site {
			f |= batchNames
		}
		out = append(out, f)
		out = binary.AppendVarint(out, c.Time-t)
		out = binary.AppendVarint(out, int64(c.Line-line))
		if c.Hashed {
			out = binary.LittleEndian.AppendUint64(out, c.Digest)
		}
		if f&batchNames != 0 {
			out = binary.AppendUvarint(out, uint64(len(c.URL)))
			out = append(out, c.URL...)
			out = binary.AppendUvarint(out, uint64(len(c.Site)))
			out = append(out, c.Site...)
		}
		t, line, u, site = c.Time, c.Line, c.URL, c.Site
	}
	return out
}

// DecodeBatch reads what EncodeBatch wrote. The captures' page ids are
// empty, and every capture of the batch has the first one's file.
func DecodeBatch(p []byte) (Batch, error) {
	d := batchDecoder{p: p}
	n := d.uvarint()
	if d.err == nil && n > uint64(len(p)) { // every capture takes at least three bytes
		d.fail("a capture count within the encoding's length")
	}
	if d.err != nil || n == 0 {
		return Batch{}, d.err
	}
	cs := make([]dataset.Capture, n)
	file := d.uvarint()
	var t int64
	var line int
	var u, site string
	for i := range cs {
		f := d.byte()
		t += d.varint()
		line += int(d.varint())
		c := dataset.Capture{File: file, Time: t, Line: line, Changed: f&batchChanged != 0, Hashed: f&batchHashed != 0}
		if c.Hashed {
			c.Digest = d.uint64()
		}
		if f&batchNames != 0 {
			u, site = d.string(), d.string()
		} else if i == 0 {
			d.fail("the first capture's URL and site")
		}
		c.URL, c.Site = u, site
		if d.err != nil {
			return Batch{}, d.err
		}
		cs[i] = c
	}
	if d.err == nil && len(d.p) > 0 {
		d.fail("the end of the batch")
	}
	return Batch{Captures: cs}, d.err
}

// batchDecoder reads a batch's encoding, keeping its first error.
type batchDecoder struct {
	p   []byte
	off int
	err error
}

func (d *batchDecoder) fail(expected string) {
	if d.err == nil {
		d.err = fmt.Errorf("pipeline: batch encoding, byte %d: expected %s", d.off, expected)
	}
}

func (d *batchDecoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.p)
	if n <= 0 {
		d.fail("an unsigned varint")
		return 0
	}
	d.p, d.off = d.p[n:], d.off+n
	return v
}

// varint reads what binary.AppendVarint wrote: a zig-zag encoded uvarint.
func (d *batchDecoder) varint() int64 {
	u := d.uvarint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

func (d *batchDecoder) byte() byte {
	if len(d.p) < 1 {
		d.fail("a capture's flags")
		return 0
	}
	b := d.p[0]
	if b&^(batchChanged|batchHashed|batchNames) != 0 {
		d.fail("flags below 8")
	}
	d.p, d.off = d.p[1:], d.off+1
	return b
}

func (d *batchDecoder) uint64() uint64 {
	if len(d.p) < 8 {
		d.fail("an 8-byte digest")
		return 0
	}
	v := binary.LittleEndian.Uint64(d.p)
	d.p, d.off = d.p[8:], d.off+8
	return v
}

func (d *batchDecoder) string() string {
	n := d.uvarint()
	if d.err == nil && n > uint64(len(d.p)) {
		d.fail(fmt.Sprintf("%d bytes of text", n))
	}
	if d.err != nil {
		return ""
	}
	s := string(d.p[:n])
	d.p, d.off = d.p[n:], d.off+int(n)
	return s
}
