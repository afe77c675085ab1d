//go:build js

package main

// main is the Cloudflare Worker's: it serves, and has no command line.
func main() { serve() }
