package api

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/refreshlab/refreshlab/core/lab"

	"github.com/refreshlab/refreshlab/core/internal/quote"
)

// Limits on what uploads may hold of a server shared by many.
const (
	// MaxClientUploads is how many uploads one client keeps; its oldest
	// goes when it sends another.
	MaxClientUploads = 8
	// MaxUploadBytes bounds the logs all clients' uploads came from,
	// together: past it, an upload is refused until others go.
	MaxUploadBytes = 1 << 30
	// MaxConcurrentUploads is how many uploads a server reads at once
	// (wasm/handler holds the others off before reading their bodies).
	MaxConcurrentUploads = 2
	// MaxName bounds a name a client gives (an upload's, in characters).
	MaxName = 200
	// UploadTTL is how long a server keeps an upload after it was last
	// used (sent, run or drawn).
	UploadTTL = 2 * time.Hour
)

// owners records who sent each upload, so that on a server shared by many
// an upload is visible to its senders alone: never listed to another
// client, never run or named in another's answers. The same file read the
// same way by two clients is one dataset with two owners (same bytes, same
// id); it goes when its last owner lets go of it, or UploadTTL after
// anyone last used it. Only owners drops uploads from the lab: it refuses
// an upload past the lab's MaxUploads rather than let the lab drop another
// client's.
type owners struct {
	mu       sync.Mutex
	byClient map[string][]string // client → its uploads' ids, oldest first
	size     map[string]int64    // upload id → bytes of the log it came from
	used     map[string]time.Time
	total    int64 // bytes of every upload held
	maxBytes int64
	now      func() time.Time
	drop     func(id string) // drops an upload from the lab
}

func newOwners(drop func(id string)) *owners {
	return &owners{byClient: map[string][]string{}, size: map[string]int64{}, used: map[string]time.Time{},
		maxBytes: MaxUploadBytes, now: time.Now, drop: drop}
}

// room reports whether an upload of n bytes fits beside those held.
func (o *owners) room(n int64) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.expireLocked()
	switch {
	case o.total+n > o.maxBytes:
		return fmt.Errorf("this server holds as many uploaded logs as it may (%d MB of %d MB): try again later, or read the log in your browser (the default engine), where it stays on your machine", o.total>>20, o.maxBytes>>20)
	case len(o.size) >= lab.MaxUploads:
		return fmt.Errorf("this server holds as many uploaded logs as it may (%d): try again later, or read the log in your browser (the default engine), where it stays on your machine", lab.MaxUploads)
	}
	return nil
}

// add records that client sent upload id of n bytes, and returns the
// uploads of that client's it let go of to stay within MaxClientUploads.
func (o *owners) add(client, id string, n int64) (evicted []string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	mine := slices.DeleteFunc(o.byClient[client], func(x string) bool { return x == id })
	mine = append(mine, id)
	if _, held := o.size[id]; !held {
		o.size[id] = n
		o.total += n
	}
	o.used[id] = o.now()
	for len(mine) > MaxClientUploads {
		evicted = append(evicted, mine[0])
		mine = mine[1:]
	}
	o.byClient[client] = mine
	for _, gone := range evicted {
		if !o.ownedLocked(gone) {
			o.dropLocked(gone)
		}
	}
	return evicted
}

// expireLocked drops the uploads nobody used for UploadTTL.
func (o *owners) expireLocked() {
	for id, t := range o.used {
		if o.now().Sub(t) < UploadTTL {
			continue
		}
		for c, ids := range o.byClient {
			if ids = slices.DeleteFunc(ids, func(x string) bool { return x == id }); len(ids) > 0 {
				o.byClient[c] = ids
			} else {
				delete(o.byClient, c)
			}
		}
		o.dropLocked(id)
	}
}

// dropLocked lets go of upload id: its bytes and the lab's dataset.
func (o *owners) dropLocked(id string) {
	o.total -= o.size[id]
	delete(o.size, id)
	delete(o.used, id)
	o.drop(id)
}

func (o *owners) ownedLocked(id string) bool {
	for _, ids := range o.byClient {
		if slices.Contains(ids, id) {
			return true
		}
	}
	return false
}

// owns reports whether client sent upload id and holds it still; using it
// keeps it another UploadTTL.
func (o *owners) owns(client, id string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.expireLocked()
	if !slices.Contains(o.byClient[client], id) {
		return false
	}
	o.used[id] = o.now()
	return true
}

// visible reports whether client may see dataset id: a bundled one, or an
// upload it sent.
func (rt *Router) visible(client, id string) bool {
	return rt.lab.IsBundled(id) || rt.owners.owns(client, id)
}

// checkVisible answers, when the request's client may not see the dataset
// spec names, the 400 the lab gives a dataset it does not have, naming none
// of another client's. An upload of the client's that this process never
// read but the store keeps is read back first.
func (rt *Router) checkVisible(req Request, spec lab.Spec) (Response, bool) {
	client, id := req.Client, spec.Dataset.ID
	if id == "" || rt.visible(client, id) {
		return Response{}, true
	}
	// Sent to another instance of this server, which kept it (Store)?
	if ok, err := rt.restore(req, id); err != nil {
		return errorResponse(503, "dataset.id: reading your upload %s back: %v", quote.Q(id), err), false
	} else if ok {
		return Response{}, true
	}
	return jsonResponse(400, map[string]any{
		"error": fmt.Sprintf("dataset.id: unknown dataset %s (expected a bundled dataset or one of your uploads; on this server an upload is visible to the browser that sent it alone, and kept %s after its last use)", quote.Q(id), KeptFor()),
		"field": "dataset.id",
	}), false
}

// KeptFor says in words how long a server keeps an upload: "2 hours".
func KeptFor() string {
	if h := UploadTTL.Hours(); h == float64(int(h)) {
		return lab.Count(int(h), "hour", "hours")
	}
	return lab.Count(int(UploadTTL.Minutes()), "minute", "minutes")
}
