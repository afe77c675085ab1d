package monitor

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/refreshlab/refreshlab/core/dataset"
	"github.com/refreshlab/refreshlab/core/textvec"
)

// FeatureWeight names the page feature (dataset.Repository.Features) that
// carries each page's weight W_i, when a dataset has one.
const FeatureWeight = dataset.FeatureWeight

// Instance is one epoch of the CAM model (§2): the pages' weights, the
// update instants and the probability that each page changes at each.
type Instance struct {
	// T is the epoch's length, in any unit (seconds for datasets).
	T float64
	// Times are the update instants u_j, strictly ascending within (0, T]:
	// the common sequence U of §5.1, shared by every page.
	Times []float64
	// Weight holds W_i ≥ 0 for each page: the value of its current version
	// to the queries (§2), lost when it changes before it is monitored.
	Weight []float64
	// Rho[i][j] is ρ_{i,j} ∈ [0, 1], the probability that page i changes
	// at instant j (one row of len(Times) per page). It is the truth in a
	// simulation, and a tracking phase's estimate in a plan. A nil Rho
	// means unknown (a replayed log has only its recorded changes).
	Rho [][]float64
}

// UniformTimes returns p update instants at uniform gaps through an epoch
// of length T, at the ends of its p slots: u_j = (j+1)·T/p, so that the
// last instant is T itself (§2 has u_{i,p_i} = T; §5.1 uses 480 instants
// "at uniform gaps").
func UniformTimes(T float64, p int) []float64 {
	u := make([]float64, p)
	for j := range u {
		u[j] = float64(j+1) * T / float64(p)
	}
	return u
}

// Pages returns the number of pages.
func (in *Instance) Pages() int { return len(in.Weight) }

// Instants returns the number of update instants.
func (in *Instance) Instants() int { return len(in.Times) }

// Lambda returns λ_i = Σ_j ρ_{i,j}, page i's expected changes per epoch
// (§2), summed in instant order.
func (in *Instance) Lambda(i int) float64 {
	var s float64
	for _, r := range in.Rho[i] {
		s += r
	}
	return s
}

// Validate reports the first thing wrong with in, or nil.
func (in *Instance) Validate() error {
	if !(in.T > 0) || math.IsInf(in.T, 0) {
		return fmt.Errorf("monitor: epoch length %v: expected a finite positive number", in.T)
	}
	if len(in.Times) == 0 {
		return errors.New("monitor: no update instants")
	}
	if len(in.Weight) == 0 {
		return errors.New("monitor: no pages")
	}
	for j, u := range in.Times {
		if !(u > 0 && u <= in.T) || j > 0 && !(u > in.Times[j-1]) {
			return fmt.Errorf("monitor: instant %d at %v: expected instants strictly ascending within (0, %v]", j, u, in.T)
		}
	}
	for i, w := range in.Weight {
		if !(w >= 0) || math.IsInf(w, 0) {
			return fmt.Errorf("monitor: page %d: weight %v: expected a finite non-negative number", i, w)
		}
	}
	if in.Rho == nil {
		return nil
	}
	if len(in.Rho) != len(in.Weight) {
		return fmt.Errorf("monitor: %d rows of update probabilities for %d pages", len(in.Rho), len(in.Weight))
	}
	for i, row := range in.Rho {
		if len(row) != len(in.Times) {
			return fmt.Errorf("monitor: page %d: %d update probabilities for %d instants", i, len(row), len(in.Times))
		}
		for j, r := range row {
			if !(r >= 0 && r <= 1) {
				return fmt.Errorf("monitor: page %d, instant %d: update probability %v: expected a number in [0, 1]", i, j, r)
			}
		}
	}
	return nil
}

// Rel is one query a page is relevant to, and how much: r_{i,j} > 0.
type Rel struct {
	Query int32
	R     float64
}

// Relevance lists, for each page, the queries it is relevant to (§2: r_{i,j}
// is positive for the queries Q_{p_i} of page i and zero for the others).
type Relevance [][]Rel

// Weights returns each page's weight W_i = Σ_j ω_j r_{i,j} (§2), with
// importance[j] = ω_j, summed in the order rel lists the queries.
func Weights(importance []float64, rel Relevance) ([]float64, error) {
	w := make([]float64, len(rel))
	for i, rs := range rel {
		for _, r := range rs {
			if r.Query < 0 || int(r.Query) >= len(importance) {
				return nil, fmt.Errorf("monitor: page %d: query %d out of range (%d queries)", i, r.Query, len(importance))
			}
			w[i] += importance[r.Query] * r.R
		}
	}
	return w, nil
}

// TextRelevance scores every page of m against every query by the cosine
// of Appendix B, score(q, a) = Σ_w λ_w² f_q(w) f_a(w) / √(Σ_w (λ_w f_q(w))² ·
// Σ_w (λ_w f_a(w))²), λ_w the inverse document frequency of word w over
// the pages. A query is a list of words; a word given twice counts twice
// (f_q = 2). The pages' side is m's (package textvec): binary term
// frequencies, since a repository lists each page's distinct terms. A query
// word outside m's vocabulary is left out of the query: no page contains
// it, so its idf (log of |D|/0) is undefined. A query left with no word
// scores 0 everywhere. Only positive scores are listed.
func TextRelevance(m *textvec.Matrix, queries [][]string) Relevance {
	index := make(map[string]int, len(m.Words))
	for j, w := range m.Words {
		index[w] = j
	}
	rel := make(Relevance, m.Rows())
	c := make([]float64, m.Dim())
	for q, words := range queries {
		clear(c)
		var ss float64
		for _, w := range words {
			if j, ok := index[strings.ToLower(w)]; ok {
				c[j] += m.IDF[j]
			}
		}
		for _, x := range c {
			ss += x * x
		}
		if ss == 0 {
			continue
		}
		norm := math.Sqrt(ss)
		for j := range c {
			c[j] /= norm
		}
		for i := range rel {
			if s := m.Dot(i, c); s > 0 {
				rel[i] = append(rel[i], Rel{Query: int32(q), R: s})
			}
		}
	}
	return rel
}
