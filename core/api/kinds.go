package api

// The API serves every experiment kind and draws their charts (ChartTypes
// takes in the kinds registered before it), so it links them all.
import _ "github.com/refreshlab/refreshlab/core/kinds"
