// Command pagecycle measures the lab core's throughput (ns per page-cycle
// for each refresh policy) and prints it as JSON. make bench runs it under
// WebAssembly in Node:
//
//	GOOS=js GOARCH=wasm go run -exec=$(go env GOROOT)/lib/wasm/go_js_wasm_exec ./site/e2e/bench/pagecycle
//
// so its figures sit beside the native ones, measured by the same code.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/refreshlab/refreshlab/core/lab"
	"github.com/refreshlab/refreshlab/site/e2e/bench/measure"
)

func main() {
	minDur := flag.Duration("min", 200*time.Millisecond, "shortest timed run per policy and dataset")
	flag.Parse()
	r := measure.Run(lab.New(), *minDur)
	if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
		fmt.Fprintln(os.Stderr, "pagecycle:", err)
		os.Exit(1)
	}
}
