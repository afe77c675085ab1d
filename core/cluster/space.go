package cluster

import (
	"math"

	"github.com/refreshlab/refreshlab/core/textvec"
)

// Space is a set of weighted points, each a vector scaled to unit length
// (or the zero vector), as repeated bisection clusters them by cosine
// similarity. Points are addressed by int32 index.
//
// The methods work on batches of points so that each kind of space can
// prepare once per batch (a dense space with table-driven blocks computes
// each table row's dot product once, not once per point).
type Space interface {
	Len() int
	Dim() int
	// Weight is how many pages point i stands for (1 for a page).
	Weight(i int32) float64
	// Sims2 sets o0[j] and o1[j] to the dot products of point idx[j]'s
	// unit vector with c0 and c1.
	Sims2(idx []int32, c0, c1, o0, o1 []float64)
	// Sum adds Σ_j Weight(idx[j]) · x_idx[j] (unit vectors) to c.
	Sum(idx []int32, c []float64)
}

// Sparse is a Space over the rows of one or two tf·idf matrices with the
// same rows: with two (URL words and content words, §5.2's "URL+content"),
// a point is the concatenation of its rows in both, scaled to unit length
// as one vector.
type Sparse struct {
	A, B  *textvec.Matrix // B may be nil
	scale []float64       // with B: 1/‖[a|b]‖ per row
}

// NewSparse returns the space of a's rows, or of a's and b's rows joined
// when b is not nil.
func NewSparse(a, b *textvec.Matrix) *Sparse {
	s := &Sparse{A: a, B: b}
	if b != nil {
		s.scale = make([]float64, a.Rows())
		for r := range s.scale {
			if n := math.Sqrt(a.Norm[r]*a.Norm[r] + b.Norm[r]*b.Norm[r]); n > 0 {
				s.scale[r] = 1 / n
			}
		}
	}
	return s
}

// Len implements Space.
func (s *Sparse) Len() int { return s.A.Rows() }

// Dim implements Space.
func (s *Sparse) Dim() int {
	if s.B == nil {
		return s.A.Dim()
	}
	return s.A.Dim() + s.B.Dim()
}

// Weight implements Space.
func (s *Sparse) Weight(int32) float64 { return 1 }

// raw returns Σ idf·c over row r of m (not scaled).
func raw(m *textvec.Matrix, r int32, c []float64) float64 {
	var x float64
	for _, j := range m.Col[m.Ptr[r]:m.Ptr[r+1]] {
		x += m.IDF[j] * c[j]
	}
	return x
}

// Sims2 implements Space.
func (s *Sparse) Sims2(idx []int32, c0, c1, o0, o1 []float64) {
	a := s.A
	if s.B == nil {
		for j, r := range idx {
			n := a.Norm[r]
			if n == 0 {
				o0[j], o1[j] = 0, 0
				continue
			}
			var x0, x1 float64
			for _, q := range a.Col[a.Ptr[r]:a.Ptr[r+1]] {
				w := a.IDF[q]
				x0 += w * c0[q]
				x1 += w * c1[q]
			}
			o0[j], o1[j] = x0/n, x1/n
		}
		return
	}
	off := a.Dim()
	for j, r := range idx {
		sc := s.scale[r]
		o0[j] = sc * (raw(a, r, c0) + raw(s.B, r, c0[off:]))
		o1[j] = sc * (raw(a, r, c1) + raw(s.B, r, c1[off:]))
	}
}

// Sum implements Space.
func (s *Sparse) Sum(idx []int32, c []float64) {
	if s.B == nil {
		for _, r := range idx {
			s.A.Add(int(r), 1, c)
		}
		return
	}
	off := s.A.Dim()
	for _, r := range idx {
		sc := s.scale[r]
		for _, q := range s.A.Col[s.A.Ptr[r]:s.A.Ptr[r+1]] {
			c[q] += sc * s.A.IDF[q]
		}
		for _, q := range s.B.Col[s.B.Ptr[r]:s.B.Ptr[r+1]] {
			c[off+int(q)] += sc * s.B.IDF[q]
		}
	}
}

// Table is a block of a Dense space whose values come from a table: point
// i's block is Rows[ID[i]]. Tan et al.'s ten cluster-distance dimensions
// are such a block (they depend only on the page's word cluster), and so
// is a page's static part once it is replaced by its micro-cluster's
// centroid.
type Table struct {
	Dim  int
	Rows []float64 // len(ids) × Dim
	ID   []int32   // per point
}

// Dense is a Space of dense vectors made of table blocks followed by a
// row block of float32 values per point (either may be empty). Values are
// raw; each point is scaled by Scale to unit length.
type Dense struct {
	Tables []Table
	RowDim int
	Rows   []float32 // Len × RowDim
	Scale  []float64 // 1/‖raw vector‖ per point; 0 for the zero vector
	W      []float64 // weight per point; nil means 1
	n      int

	// Per-call scratch for the tables' dot products.
	t0, t1 [][]float64
	stamp  [][]uint32
	call   uint32
	acc    [][]float64
	used   [][]int32
}

// NewDense returns a dense space of n points; set its blocks, then call
// Finish.
func NewDense(n int) *Dense { return &Dense{n: n} }

// Finish computes each point's scale and the scratch; call it after
// setting the blocks (and again if they change).
func (d *Dense) Finish() {
	if len(d.Scale) != d.n {
		d.Scale = make([]float64, d.n)
	}
	for i := range d.n {
		var ss float64
		for _, t := range d.Tables {
			row := t.Rows[int(t.ID[i])*t.Dim : int(t.ID[i]+1)*t.Dim]
			for _, x := range row {
				ss += x * x
			}
		}
		for _, x := range d.Rows[i*d.RowDim : (i+1)*d.RowDim] {
			ss += float64(x) * float64(x)
		}
		d.Scale[i] = 0
		if ss > 0 {
			d.Scale[i] = 1 / math.Sqrt(ss)
		}
	}
	d.t0, d.t1 = make([][]float64, len(d.Tables)), make([][]float64, len(d.Tables))
	d.stamp, d.acc, d.used = make([][]uint32, len(d.Tables)), make([][]float64, len(d.Tables)), make([][]int32, len(d.Tables))
	for k, t := range d.Tables {
		ids := len(t.Rows) / max(t.Dim, 1)
		d.t0[k], d.t1[k], d.stamp[k], d.acc[k] = make([]float64, ids), make([]float64, ids), make([]uint32, ids), make([]float64, ids)
	}
	d.call = 0
}

// Len implements Space.
func (d *Dense) Len() int { return d.n }

// Dim implements Space.
func (d *Dense) Dim() int {
	n := d.RowDim
	for _, t := range d.Tables {
		n += t.Dim
	}
	return n
}

// Weight implements Space.
func (d *Dense) Weight(i int32) float64 {
	if d.W == nil {
		return 1
	}
	return d.W[i]
}

// Sims2 implements Space.
func (d *Dense) Sims2(idx []int32, c0, c1, o0, o1 []float64) {
	d.call++
	if d.call == 0 { // wrapped: clear the stamps
		for _, s := range d.stamp {
			clear(s)
		}
		d.call = 1
	}
	off := 0
	for k := range d.Tables {
		off += d.Tables[k].Dim
	}
	rc0, rc1 := c0[off:off+d.RowDim], c1[off:off+d.RowDim]
	rd := d.RowDim
	for j, i := range idx {
		sc := d.Scale[i]
		if sc == 0 {
			o0[j], o1[j] = 0, 0
			continue
		}
		var x0, x1 float64
		toff := 0
		for k := range d.Tables {
			t := &d.Tables[k]
			id := t.ID[i]
			if d.stamp[k][id] != d.call {
				// This table row's dot products, once per call.
				var a0, a1 float64
				row := t.Rows[int(id)*t.Dim : int(id+1)*t.Dim]
				tc0, tc1 := c0[toff:toff+t.Dim], c1[toff:toff+t.Dim]
				for q, v := range row {
					a0 += v * tc0[q]
					a1 += v * tc1[q]
				}
				d.t0[k][id], d.t1[k][id], d.stamp[k][id] = a0, a1, d.call
			}
			x0 += d.t0[k][id]
			x1 += d.t1[k][id]
			toff += t.Dim
		}
		row := d.Rows[int(i)*rd : int(i+1)*rd]
		for q, v := range row {
			f := float64(v)
			x0 += f * rc0[q]
			x1 += f * rc1[q]
		}
		o0[j], o1[j] = x0*sc, x1*sc
	}
}

// Sum implements Space.
func (d *Dense) Sum(idx []int32, c []float64) {
	off := 0
	for k := range d.Tables {
		off += d.Tables[k].Dim
	}
	rc := c[off : off+d.RowDim]
	rd := d.RowDim
	for k := range d.used {
		d.used[k] = d.used[k][:0]
	}
	for _, i := range idx {
		w := d.Scale[i]
		if w == 0 {
			continue
		}
		if d.W != nil {
			w *= d.W[i]
		}
		for k := range d.Tables {
			id := d.Tables[k].ID[i]
			if d.acc[k][id] == 0 {
				d.used[k] = append(d.used[k], id)
			}
			d.acc[k][id] += w
		}
		row := d.Rows[int(i)*rd : int(i+1)*rd]
		for q, v := range row {
			rc[q] += w * float64(v)
		}
	}
	toff := 0
	for k := range d.Tables {
		t := &d.Tables[k]
		tc := c[toff : toff+t.Dim]
		for _, id := range d.used[k] {
			a := d.acc[k][id]
			d.acc[k][id] = 0
			for q, v := range t.Rows[int(id)*t.Dim : int(id+1)*t.Dim] {
				tc[q] += a * v
			}
		}
		toff += t.Dim
	}
}
