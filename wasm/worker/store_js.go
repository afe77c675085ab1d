//go:build js

package main

import (
	"encoding/base64"
	"fmt"

	"github.com/refreshlab/refreshlab/core/api"
	"github.com/syumai/workers/cloudflare/kv"
)

// kvStore keeps uploads in a Workers KV namespace (api.Store), for
// api.UploadTTL. KV holds a value of at most 25 MiB; syumai/workers reads
// values back as text alone, so each is kept in base64, which costs a
// third of that room.
type kvStore struct{ ns *kv.Namespace }

// kvMaxValue is the largest value kvStore puts: KV's 25 MiB, as base64.
const kvMaxValue = 25 << 20 / 4 * 3

// newKVStore opens the namespace bound as binding (wrangler.jsonc).
func newKVStore(binding string) (*kvStore, error) {
	ns, err := kv.NewNamespace(binding)
	if err != nil {
		return nil, fmt.Errorf("the KV namespace %s (wrangler.jsonc, kv_namespaces): %w", binding, err)
	}
	return &kvStore{ns}, nil
}

func (s *kvStore) Get(key string) ([]byte, bool, error) {
	v, err := s.ns.GetString(key, nil)
	if err != nil {
		return nil, false, err
	}
	// A missing key is JavaScript's null, which syscall/js gives as the
	// string "<null>": never base64, whose alphabet has no '<'.
	if v == "<null>" {
		return nil, false, nil
	}
	b, err := base64.StdEncoding.DecodeString(v)
	return b, err == nil, err
}

func (s *kvStore) Put(key string, value []byte) error {
	return s.ns.PutString(key, base64.StdEncoding.EncodeToString(value), &kv.PutOptions{ExpirationTTL: int(api.UploadTTL.Seconds())})
}

func (s *kvStore) Delete(key string) error { return s.ns.Delete(key) }

func (s *kvStore) MaxValue() int64 { return kvMaxValue }
