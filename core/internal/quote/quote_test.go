package quote

import (
	"strings"
	"testing"
)

func TestQ(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"site-greedy", `"site-greedy"`},
		{strings.Repeat("a", Most), `"` + strings.Repeat("a", Most) + `"`},
		{strings.Repeat("a", Most+1), `"` + strings.Repeat("a", Most) + `"… (81 bytes)`},
		{strings.Repeat("é", 50), `"` + strings.Repeat("é", 40) + `"… (100 bytes)`},
		{"a\"b\n", `"a\"b\n"`},
	} {
		if got := Q(tc.in); got != tc.want {
			t.Errorf("Q(%.20q…) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
