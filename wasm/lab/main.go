//go:build js && wasm

// Command lab is the browser module: one long-lived Go instance, started in
// a Web Worker by site/static/js/lab-worker.js, that answers the lab's API
// without a server. It publishes globalThis.refreshLab.handle(method, path,
// query, body[, progress]) returning {status, contentType, body} (and a
// run's resultID), where body is a string or a Uint8Array and
// progress(bytesRead) is called during an upload, and calls
// globalThis.onRefreshLabReady() once it is ready. State (uploaded datasets,
// generated ones) lives as long as the worker.
//
// Two instances in two workers share a expensive run (lab.Split): split(spec)
// returns [mine, theirs] (specs in JSON) or null, compute(spec) runs a
// part so that the lab remembers its results (returning an error message
// or null, without encoding a result nobody reads), share(spec) the
// results of spec that this instance holds, for the other's
// adopt(shared), which returns an error message or null.
package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"runtime"
	"runtime/debug"
	"syscall/js"

	"github.com/refreshlab/refreshlab/core/api"
	"github.com/refreshlab/refreshlab/core/lab"
)

func main() {
	// The lab's heap is small and each request allocates little, but in
	// WebAssembly every collection stops the one thread that answers the
	// learner: collect four times less often than the default.
	debug.SetGCPercent(400)
	l := lab.New()
	rt := api.New(l)
	handle := js.FuncOf(func(_ js.Value, args []js.Value) any {
		req := request(args)
		resp := respond(rt.Serve(req))
		if len(req.Body) > bigBody {
			// Release the upload's bytes, and the JavaScript array
			// they came in, now rather than at some later collection.
			req.Body = nil
			runtime.GC()
			// Let the finalizers of the request's js.Values run now, so
			// the JavaScript side can free the upload's array as well.
			runtime.Gosched()
		}
		return resp
	})
	split := guarded(noShare, func(args []js.Value) any {
		spec, ok := specOf(args)
		if !ok {
			return nil
		}
		mine, theirs, ok := l.Split(spec)
		if !ok {
			return nil
		}
		a, err1 := json.Marshal(mine)
		b, err2 := json.Marshal(theirs)
		if err1 != nil || err2 != nil {
			return nil
		}
		return js.ValueOf([]any{string(a), string(b)})
	})
	compute := guarded(failed("compute"), func(args []js.Value) any {
		spec, ok := specOf(args)
		if !ok {
			return "compute: want a spec in JSON"
		}
		if _, err := l.Run(spec); err != nil {
			return err.Error()
		}
		return nil
	})
	share := guarded(noShare, func(args []js.Value) any {
		spec, ok := specOf(args)
		if !ok {
			return nil
		}
		out, err := l.Export(spec)
		if err != nil {
			return nil
		}
		return string(out)
	})
	adopt := guarded(failed("adopt"), func(args []js.Value) any {
		if len(args) == 0 || args[0].Type() != js.TypeString {
			return "adopt: want the shared results as a string"
		}
		if err := l.Import([]byte(args[0].String())); err != nil {
			return err.Error()
		}
		return nil
	})
	js.Global().Set("refreshLab", js.ValueOf(map[string]any{
		"handle":  handle,
		"split":   split,
		"compute": compute,
		"share":   share,
		"adopt":   adopt,
		"version": api.Version,
	}))
	if ready := js.Global().Get("onRefreshLabReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {} // keep the instance alive for the next request
}

// guarded is js.FuncOf(f), answering onPanic(r) when f panics with r, so
// that a failure is an answer and the instance lives on (the router does
// as much for handle's requests).
func guarded(onPanic func(r any) any, f func(args []js.Value) any) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
		defer func() {
			if r := recover(); r != nil {
				out = onPanic(r)
			}
		}()
		return f(args)
	})
}

// noShare is split's and share's answer to a panic: nothing to share, so
// the paired worker computes the run itself.
func noShare(any) any { return nil }

// failed returns compute's or adopt's answer to a panic: the error message
// they answer with.
func failed(name string) func(r any) any {
	return func(r any) any { return fmt.Sprintf("%s: the lab failed: %v", name, r) }
}

// specOf reads a spec in JSON from the first argument.
func specOf(args []js.Value) (lab.Spec, bool) {
	var spec lab.Spec
	if len(args) == 0 || args[0].Type() != js.TypeString {
		return spec, false
	}
	return spec, json.Unmarshal([]byte(args[0].String()), &spec) == nil
}

// bigBody is the request size past which the module collects garbage at
// once after answering.
const bigBody = 8 << 20

// request reads handle's arguments: method, path, query string and body (a
// string or a Uint8Array), each optional after the path.
func request(args []js.Value) api.Request {
	arg := func(i int) js.Value {
		if i < len(args) {
			return args[i]
		}
		return js.Undefined()
	}
	req := api.Request{Method: "GET", Path: "/"}
	if m := arg(0); m.Type() == js.TypeString {
		req.Method = m.String()
	}
	if p := arg(1); p.Type() == js.TypeString {
		req.Path = p.String()
	}
	if q := arg(2); q.Type() == js.TypeString {
		req.Query, _ = url.ParseQuery(q.String())
	}
	switch b := arg(3); {
	case b.Type() == js.TypeString:
		req.Body = []byte(b.String())
	case b.InstanceOf(js.Global().Get("Uint8Array")):
		req.Body = make([]byte, b.Get("length").Int())
		js.CopyBytesToGo(req.Body, b)
	}
	if f := arg(4); f.Type() == js.TypeFunction {
		req.Progress = func(done int64) { f.Invoke(float64(done)) }
	}
	return req
}

// respond is handle's answer: {status, contentType, body}, and a run's
// resultID.
func respond(resp api.Response) any {
	out := map[string]any{
		"status":      resp.Status,
		"contentType": resp.ContentType,
		"body":        string(resp.Body),
	}
	if resp.ResultID != "" {
		out["resultID"] = resp.ResultID
	}
	return js.ValueOf(out)
}
