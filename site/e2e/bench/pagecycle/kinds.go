package main

// The experiment kinds that register themselves with the lab (lab.Register).
import _ "github.com/refreshlab/refreshlab/core/kinds"
