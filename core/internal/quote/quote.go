// Package quote writes text a client sent into an error message: quoted,
// and cut to a short prefix, so that an answer never echoes a request back
// whole (a megabyte of name, say).
package quote

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Most is how many bytes of a client's text an error message quotes.
const Most = 80

// Q returns s quoted as %q does, cut to its first Most bytes (on a rune
// boundary) with the whole length said after it when longer.
func Q(s string) string {
	if len(s) <= Most {
		return strconv.Quote(s)
	}
	cut := Most
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(s[:cut]), len(s))
}
