package api

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"

	"github.com/refreshlab/refreshlab/core/dataset"
)

// Store keeps uploads beyond the process that read them, for a server
// whose requests do not share memory: the Cloudflare Worker starts a fresh
// instance for every request, so an upload sent to one is read again, from
// the store, by the next that names it. A server that lives on (the native
// one, a browser tab) needs none: without a store the router keeps uploads
// in memory alone.
//
// Values are opaque bytes the router wrote; each is kept for UploadTTL
// after it was last written, then gone.
type Store interface {
	// Get returns the value under key; ok is false when there is none
	// (never put, deleted or expired).
	Get(key string) (value []byte, ok bool, err error)
	// Put keeps value under key for UploadTTL, replacing any there.
	Put(key string, value []byte) error
	// Delete drops the value under key, if any.
	Delete(key string) error
	// MaxValue is the largest value the store keeps, in bytes (0: no
	// limit); an upload whose kept form is larger is refused.
	MaxValue() int64
}

// KeepIn makes rt keep every upload in s as well as in memory, and read
// back from s an upload a request names that this process never read. Call
// it before serving.
func (rt *Router) KeepIn(s Store) { rt.store = s }

// The store's keys. An upload is kept under its sender's client id and
// its own id, which names the file's content hash and every reading
// option as applied (dataset.Info.ID): one client cannot name another's
// upload, and the same file read another way is another entry. A client's
// index lists its uploads' Infos, newest last, at most MaxClientUploads.
func uploadKey(client, id string) string { return "upload/" + clientKey(client) + "/" + id }
func indexKey(client string) string      { return "uploads/" + clientKey(client) }

func clientKey(client string) string {
	if client == "" {
		return "-"
	}
	return client
}

// encodeKept is an upload as kept: the query it was read with, a newline
// (which an encoded query never holds) and its bytes, gzip-compressed
// unless they came so (the reader takes either, and hashes the log as
// decompressed, so the id read back is the same).
func encodeKept(query url.Values, body []byte) ([]byte, error) {
	if !bytes.HasPrefix(body, []byte{0x1f, 0x8b}) {
		var z bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&z, gzip.BestSpeed)
		zw.Write(body)
		if err := zw.Close(); err != nil {
			return nil, err
		}
		body = z.Bytes()
	}
	return slices.Concat([]byte(query.Encode()+"\n"), body), nil
}

// decodeKept undoes encodeKept.
func decodeKept(b []byte) (url.Values, []byte, error) {
	query, body, ok := bytes.Cut(b, []byte("\n"))
	if !ok {
		return nil, nil, errors.New("no query")
	}
	q, err := url.ParseQuery(string(query))
	return q, body, err
}

// keep writes an upload to the store, with its sender's index; the
// client's oldest beyond MaxClientUploads leave both. It returns the ids
// that left, and an error response when the upload cannot be kept (then
// it must not be reported as read: the next request would not find it).
func (rt *Router) keep(req Request, info dataset.Info) ([]string, Response, bool) {
	value, err := encodeKept(req.Query, req.Body)
	if err != nil {
		return nil, errorResponse(500, "keeping the upload: %v", err), false
	}
	if m := rt.store.MaxValue(); m > 0 && int64(len(value)) > m {
		return nil, errorResponse(413, "this server keeps an upload of at most %.0f MB compressed, and this one is %.1f MB: read the log in your browser (the default engine), where it stays on your machine and any size fits", float64(m)/(1<<20), float64(len(value))/(1<<20)), false
	}
	if err := rt.store.Put(uploadKey(req.Client, info.ID), value); err != nil {
		return nil, errorResponse(503, "this server could not keep the upload (%v): try again, or read the log in your browser (the default engine)", err), false
	}
	index, err := rt.storedIndex(req.Client)
	if err != nil {
		return nil, errorResponse(503, "this server could not list your uploads (%v): try again", err), false
	}
	index = append(slices.DeleteFunc(index, func(i dataset.Info) bool { return i.ID == info.ID }), info)
	var evicted []string
	for len(index) > MaxClientUploads {
		evicted = append(evicted, index[0].ID)
		rt.store.Delete(uploadKey(req.Client, index[0].ID))
		index = index[1:]
	}
	b, _ := json.Marshal(index)
	if err := rt.store.Put(indexKey(req.Client), b); err != nil {
		return nil, errorResponse(503, "this server could not list your uploads (%v): try again", err), false
	}
	return evicted, Response{}, true
}

// storedIndex returns the Infos of the uploads the store keeps for client,
// oldest first (none without a store).
func (rt *Router) storedIndex(client string) ([]dataset.Info, error) {
	if rt.store == nil {
		return nil, nil
	}
	b, ok, err := rt.store.Get(indexKey(client))
	if err != nil || !ok {
		return nil, err
	}
	var index []dataset.Info
	if err := json.Unmarshal(b, &index); err != nil {
		return nil, fmt.Errorf("the index of uploads kept: %v", err)
	}
	return index, nil
}

// restore reads upload id of client's back from the store into the lab,
// as the request that sent it did. It reports whether it did: false when
// the store keeps no such upload for client (another's, expired, or never
// sent).
func (rt *Router) restore(req Request, id string) (bool, error) {
	if rt.store == nil || rt.lab.IsBundled(id) {
		return false, nil
	}
	index, err := rt.storedIndex(req.Client)
	if err != nil || !slices.ContainsFunc(index, func(i dataset.Info) bool { return i.ID == id }) {
		return false, err
	}
	b, ok, err := rt.store.Get(uploadKey(req.Client, id))
	if err != nil || !ok {
		return false, err
	}
	q, body, err := decodeKept(b)
	if err != nil {
		return false, fmt.Errorf("upload %s as kept: %v", id, err)
	}
	d, _, _, resp, ok := rt.read(Request{Client: req.Client, Query: q, Body: body, Context: req.Context})
	if !ok {
		return false, fmt.Errorf("upload %s as kept no longer reads: %s", id, resp.Body)
	}
	if d.Info.ID != id {
		return false, errors.New("upload " + id + " as kept reads as " + d.Info.ID + ": this server's reader changed since it was sent; send it again")
	}
	rt.lab.AddUpload(d)
	rt.owners.add(req.Client, id, int64(len(body)))
	return true, nil
}
