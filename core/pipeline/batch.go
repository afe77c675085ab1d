package pipeline

import (
	"encoding/binary"
	"fmt"

	"github.com/refreshlab/refreshlab/core/dataset"
)

// Batch gathers some captures of one page from one file, encoded as they
// come, for the pipeline to group under the page's key. A worker gathers
// a file's captures by page before handing them on (Options.Batched
// bounds how many it holds), so that the shuffle carries a few elements
// per page rather than one per row, each a few bytes per capture: the
// runner's cost per element and per byte is what fills a local run's
// memory.
//
// The encoding leaves out the page id (the group's key), gives each URL
// and site only where it differs from the previous capture's, times and
// lines as differences from the previous capture's, the digest only in a
// log with a hash column, and the file once.
type Batch struct {
	data       []byte
	t          int64
	line       int
	url, site  string
	n          int
	started    bool
	namesValid bool
}

// Flags of a capture in a batch's encoding.
const (
	batchChanged = 1 << iota
	batchHashed
	batchNames // the URL and site follow: they differ from the previous capture's
)

// Add appends c to the batch. Every capture of a batch is taken to have
// the first one's file.
func (b *Batch) Add(c dataset.Capture) {
	if !b.started {
		b.data = binary.AppendUvarint(b.data, c.File)
		b.started = true
	}
	var f byte
	if c.Changed {
		f |= batchChanged
	}
	if c.Hashed {
		f |= batchHashed
	}
	if !b.namesValid || c.URL != b.url || c.Site != b.site {
		f |= batchNames
	}
	b.data = append(b.data, f)
	b.data = binary.AppendVarint(b.data, c.Time-b.t)
	b.data = binary.AppendVarint(b.data, int64(c.Line-b.line))
	if c.Hashed {
		b.data = binary.LittleEndian.AppendUint64(b.data, c.Digest)
	}
	if f&batchNames != 0 {
		b.data = binary.AppendUvarint(b.data, uint64(len(c.URL)))
		b.data = append(b.data, c.URL...)
		b.data = binary.AppendUvarint(b.data, uint64(len(c.Site)))
		b.data = append(b.data, c.Site...)
	}
	b.t, b.line, b.url, b.site, b.namesValid = c.Time, c.Line, c.URL, c.Site, true
	b.n++
}

// Len is the number of captures added.
func (b *Batch) Len() int { return b.n }

// Bytes returns the encoding of the captures added.
func (b *Batch) Bytes() []byte { return b.data }

// DecodeBatch appends to dst the captures a batch's encoding p holds, each
// with the given page id.
func DecodeBatch(dst []dataset.Capture, page string, p []byte) ([]dataset.Capture, error) {
	d := batchDecoder{p: p}
	if len(p) == 0 {
		return dst, nil
	}
	file := d.uvarint()
	var t int64
	var line int
	var u, site string
	for first := true; d.err == nil && len(d.p) > 0; first = false {
		f := d.byte()
		t += d.varint()
		line += int(d.varint())
		c := dataset.Capture{Page: page, File: file, Time: t, Line: line, Changed: f&batchChanged != 0, Hashed: f&batchHashed != 0}
		if c.Hashed {
			c.Digest = d.uint64()
		}
		if f&batchNames != 0 {
			u, site = d.string(), d.string()
		} else if first {
			d.fail("the first capture's URL and site")
		}
		c.URL, c.Site = u, site
		if d.err == nil {
			dst = append(dst, c)
		}
	}
	return dst, d.err
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
	if d.err != nil {
		return 0
	}
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
	if d.err != nil {
		return 0
	}
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
