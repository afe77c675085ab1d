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

// sims1 sets o[j] to the dot product of point idx[j]'s unit vector with
// c, as Sims2's first output, at half its work.
func (s *Sparse) sims1(idx []int32, c, o []float64) bool {
	a := s.A
	if s.B == nil {
		for j, r := range idx {
			n := a.Norm[r]
			if n == 0 {
				o[j] = 0
				continue
			}
			var x float64
			for _, q := range a.Col[a.Ptr[r]:a.Ptr[r+1]] {
				x += a.IDF[q] * c[q]
			}
			o[j] = x / n
		}
		return true
	}
	off := a.Dim()
	for j, r := range idx {
		o[j] = s.scale[r] * (raw(a, r, c) + raw(s.B, r, c[off:]))
	}
	return true
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

// weights gives the bisector the weights without a call per point.
func (d *Dense) weights() []float64 { return d.W }

// sides is rowsSides for a space without table blocks; it reports false,
// doing nothing, for one with them.
func (d *Dense) sides(pts []int32, c0, c1 []float64, n0, n1 float64, side []bool, l, r []int32) (int, int, bool, bool) {
	if len(d.Tables) != 0 {
		return 0, 0, false, false
	}
	nl, nr, moved := rowsSides(d.Rows, d.RowDim, d.Scale, pts, c0, c1, n0, n1, side, l, r)
	return nl, nr, moved, true
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
	if len(d.Tables) == 0 {
		d.rowSims2(idx, c0, c1, o0, o1)
		return
	}
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

// rowSims2 is Sims2 for a space without table blocks.
func (d *Dense) rowSims2(idx []int32, c0, c1, o0, o1 []float64) {
	rowsSims2(d.Rows, d.RowDim, d.Scale, idx, c0, c1, o0, o1)
}

// sims1 sets o[j] to the dot product of point idx[j]'s unit vector with
// c: the o0 of Sims2(idx, c, c, o, …) at half the work. It reports false,
// doing nothing, for a space with table blocks.
func (d *Dense) sims1(idx []int32, c, o []float64) bool {
	if len(d.Tables) != 0 {
		return false
	}
	rowsSims1(d.Rows, d.RowDim, d.Scale, idx, c, o)
	return true
}

// real is the type of a row block's values.
type real interface{ float32 | float64 }

// rowsSims2 is Sims2 for a row block alone (rows, rd values per point,
// scaled by scale), two points at a time (dots2).
func rowsSims2[T real](rows []T, rd int, scale []float64, idx []int32, c0, c1, o0, o1 []float64) {
	c0, c1 = c0[:rd], c1[:rd]
	o0, o1 = o0[:len(idx)], o1[:len(idx)]
	j := 0
	for ; j+1 < len(idx); j += 2 {
		i, k := int(idx[j]), int(idx[j+1])
		a0, a1, b0, b1 := dots2(rows[i*rd:i*rd+rd], rows[k*rd:k*rd+rd], c0, c1)
		o0[j], o1[j] = scaled(a0, scale[i]), scaled(a1, scale[i])
		o0[j+1], o1[j+1] = scaled(b0, scale[k]), scaled(b1, scale[k])
	}
	if j < len(idx) {
		i := int(idx[j])
		a0, a1 := dots1(rows[i*rd:i*rd+rd], c0, c1)
		o0[j], o1[j] = scaled(a0, scale[i]), scaled(a1, scale[i])
	}
}

// dots2 returns the dot products of rows ra and rb (of one length) with
// x0 and x1. Each is summed coordinate by coordinate in order (the same
// numbers as dots1 on each row), but the four independent sums keep the
// processor busy where one row's two would wait on each addition.
func dots2[T real](ra, rb []T, x0, x1 []float64) (a0, a1, b0, b1 float64) {
	// (Slices of one length, so that the loop needs no bounds checks.)
	rb, x0, x1 = rb[:len(ra)], x0[:len(ra)], x1[:len(ra)]
	for q, v := range ra {
		f, g := float64(v), float64(rb[q])
		a0 += f * x0[q]
		a1 += f * x1[q]
		b0 += g * x0[q]
		b1 += g * x1[q]
	}
	return a0, a1, b0, b1
}

// dots1 returns the dot products of row ra with x0 and x1.
func dots1[T real](ra []T, x0, x1 []float64) (a0, a1 float64) {
	x0, x1 = x0[:len(ra)], x1[:len(ra)]
	for q, v := range ra {
		f := float64(v)
		a0 += f * x0[q]
		a1 += f * x1[q]
	}
	return a0, a1
}

// rowsSides is a 2-means assignment pass over a row block with the
// centroid sums c0 and c1 of norms n0 and n1: with o0, o1 a point's
// similarities to them as rowsSims2 computes them, the point is on side
// o1·n0 > o0·n1 (o1/n1 > o0/n0 without dividing). It stores each point's
// side in side, the points of each side in order at the start of l and r
// (each as long as pts), and returns how many each side holds and
// whether any point's side differs from the one side held before.
// (rowsSims2 and the decisions in one loop, without storing the
// similarities; the lists are filled without branching on the sides,
// which are as good as random to a branch predictor.)
func rowsSides[T real](rows []T, rd int, scale []float64, pts []int32, c0, c1 []float64, n0, n1 float64, side []bool, l, r []int32) (nl, nr int, moved bool) {
	c0, c1 = c0[:rd], c1[:rd]
	side, l, r = side[:len(pts)], l[:len(pts)], r[:len(pts)]
	ch := 0
	put := func(j int, p int32, s bool) {
		ch |= b2i(s) ^ b2i(side[j])
		side[j] = s
		l[nl], r[nr] = p, p
		nr += b2i(s)
		nl += 1 - b2i(s)
	}
	j := 0
	for ; j+1 < len(pts); j += 2 {
		i, k := int(pts[j]), int(pts[j+1])
		a0, a1, b0, b1 := dots2(rows[i*rd:i*rd+rd], rows[k*rd:k*rd+rd], c0, c1)
		sa, sb := scale[i], scale[k]
		put(j, pts[j], scaled(a1, sa)*n0 > scaled(a0, sa)*n1)
		put(j+1, pts[j+1], scaled(b1, sb)*n0 > scaled(b0, sb)*n1)
	}
	if j < len(pts) {
		i := int(pts[j])
		a0, a1 := dots1(rows[i*rd:i*rd+rd], c0, c1)
		sa := scale[i]
		put(j, pts[j], scaled(a1, sa)*n0 > scaled(a0, sa)*n1)
	}
	return nl, nr, ch != 0
}

// rowsSims1 is rowsSims2's first output alone, four points at a time
// (four independent sums, as rowsSims2 has).
func rowsSims1[T real](rows []T, rd int, scale []float64, idx []int32, c, o []float64) {
	c = c[:rd]
	o = o[:len(idx)]
	j := 0
	for ; j+3 < len(idx); j += 4 {
		i0, i1, i2, i3 := int(idx[j])*rd, int(idx[j+1])*rd, int(idx[j+2])*rd, int(idx[j+3])*rd
		r0 := rows[i0 : i0+rd]
		r1 := rows[i1 : i1+rd][:len(r0)]
		r2 := rows[i2 : i2+rd][:len(r0)]
		r3 := rows[i3 : i3+rd][:len(r0)]
		x0 := c[:len(r0)]
		var a0, a1, a2, a3 float64
		for q, v := range r0 {
			x := x0[q]
			a0 += float64(v) * x
			a1 += float64(r1[q]) * x
			a2 += float64(r2[q]) * x
			a3 += float64(r3[q]) * x
		}
		o[j] = scaled(a0, scale[idx[j]])
		o[j+1] = scaled(a1, scale[idx[j+1]])
		o[j+2] = scaled(a2, scale[idx[j+2]])
		o[j+3] = scaled(a3, scale[idx[j+3]])
	}
	for ; j < len(idx); j++ {
		i := int(idx[j])
		r0 := rows[i*rd : i*rd+rd]
		x0 := c[:len(r0)]
		var a float64
		for q, v := range r0 {
			a += float64(v) * x0[q]
		}
		o[j] = scaled(a, scale[i])
	}
}

// scaled is a·sc, and 0 for a point of scale 0 (the zero vector).
func scaled(a, sc float64) float64 {
	if sc == 0 {
		return 0
	}
	return a * sc
}

// rowsSum is Sum for a row block alone (weights w, nil meaning 1). It adds
// four points per pass over c, c[q] + w₁x₁ + w₂x₂ + w₃x₃ + w₄x₄ evaluated
// left to right: the same additions in the same order as one point at a
// time, with a quarter of the loads and stores of c.
func rowsSum[T real](rows []T, rd int, scale, w []float64, idx []int32, c []float64) {
	c = c[:rd]
	var (
		at [4]int     // points of non-zero scale waiting to be added
		aw [4]float64 // and their weights
		m  int
	)
	for _, p := range idx {
		i := int(p)
		wi := scale[i]
		if wi == 0 {
			continue // the zero vector adds nothing (not even a −0)
		}
		if w != nil {
			wi *= w[i]
		}
		at[m], aw[m] = i*rd, wi
		if m++; m < 4 {
			continue
		}
		m = 0
		r0 := rows[at[0] : at[0]+rd]
		r1 := rows[at[1] : at[1]+rd][:len(r0)]
		r2 := rows[at[2] : at[2]+rd][:len(r0)]
		r3 := rows[at[3] : at[3]+rd][:len(r0)]
		x := c[:len(r0)]
		w0, w1, w2, w3 := aw[0], aw[1], aw[2], aw[3]
		for q, v := range r0 {
			x[q] = x[q] + w0*float64(v) + w1*float64(r1[q]) + w2*float64(r2[q]) + w3*float64(r3[q])
		}
	}
	for k := range m {
		wk := aw[k]
		r0 := rows[at[k] : at[k]+rd]
		x := c[:len(r0)]
		for q, v := range r0 {
			x[q] += wk * float64(v)
		}
	}
}

// rowsScale sets scale[i] to 1/‖row i‖ (0 for the zero row) for the n
// rows of rd values.
func rowsScale[T real](rows []T, rd, n int, scale []float64) {
	for i := range n {
		var ss float64
		for _, x := range rows[i*rd : (i+1)*rd] {
			ss += float64(x) * float64(x)
		}
		scale[i] = 0
		if ss > 0 {
			scale[i] = 1 / math.Sqrt(ss)
		}
	}
}

// rows64 is a Space like a Dense without table blocks, but whose row
// values are float64: each the float64 of a float32, so that the points
// and every similarity and sum are exactly those of the Dense with the
// float32 values, without a conversion each time a value is used. The
// re-clustering with dynamic features builds one each cycle.
type rows64 struct {
	RowDim int
	Rows   []float64 // Len × RowDim, each value a float32's
	Scale  []float64 // as Dense's
	W      []float64 // weight per point; nil means 1
	n      int
}

// finish computes each point's scale.
func (d *rows64) finish() {
	d.Scale = resize(d.Scale, d.n)
	rowsScale(d.Rows, d.RowDim, d.n, d.Scale)
}

// The methods of Space, and the bisector's shortcuts (weights, sides,
// sims1), as Dense's.
func (d *rows64) Len() int { return d.n }
func (d *rows64) Dim() int { return d.RowDim }
func (d *rows64) Weight(i int32) float64 {
	if d.W == nil {
		return 1
	}
	return d.W[i]
}
func (d *rows64) weights() []float64 { return d.W }
func (d *rows64) Sims2(idx []int32, c0, c1, o0, o1 []float64) {
	rowsSims2(d.Rows, d.RowDim, d.Scale, idx, c0, c1, o0, o1)
}
func (d *rows64) Sum(idx []int32, c []float64) { rowsSum(d.Rows, d.RowDim, d.Scale, d.W, idx, c) }
func (d *rows64) sides(pts []int32, c0, c1 []float64, n0, n1 float64, side []bool, l, r []int32) (int, int, bool, bool) {
	nl, nr, moved := rowsSides(d.Rows, d.RowDim, d.Scale, pts, c0, c1, n0, n1, side, l, r)
	return nl, nr, moved, true
}
func (d *rows64) sims1(idx []int32, c, o []float64) bool {
	rowsSims1(d.Rows, d.RowDim, d.Scale, idx, c, o)
	return true
}

// Sum implements Space.
func (d *Dense) Sum(idx []int32, c []float64) {
	if len(d.Tables) == 0 {
		rowsSum(d.Rows, d.RowDim, d.Scale, d.W, idx, c)
		return
	}
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
