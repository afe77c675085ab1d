package lab

// recent is a map that keeps at least its latest max entries, in two
// generations: when the current one is full it becomes the old one, and
// an entry found in the old one moves back into the current. (Starting
// afresh instead would forget, say, the results a helper worker has just
// handed over, before the run that wants them.) The zero value is empty;
// max must be set before the first put. Not safe for concurrent use.
type recent[K comparable, V any] struct {
	max      int
	cur, old map[K]V
}

// get returns k's value and whether there is one.
func (r *recent[K, V]) get(k K) (V, bool) {
	if v, ok := r.cur[k]; ok {
		return v, true
	}
	v, ok := r.old[k]
	if ok {
		delete(r.old, k)
		r.put(k, v)
	}
	return v, ok
}

// put sets k's value.
func (r *recent[K, V]) put(k K, v V) {
	if _, ok := r.cur[k]; !ok && len(r.cur) >= r.max {
		r.old, r.cur = r.cur, nil
	}
	if r.cur == nil {
		r.cur = make(map[K]V, r.max)
	}
	r.cur[k] = v
}

// drop deletes every entry whose key gone reports.
func (r *recent[K, V]) drop(gone func(K) bool) {
	for _, m := range []map[K]V{r.cur, r.old} {
		for k := range m {
			if gone(k) {
				delete(m, k)
			}
		}
	}
}

// len returns the number of entries.
func (r *recent[K, V]) len() int { return len(r.cur) + len(r.old) }
