package chart

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text is measured without a font file: the SVG names system fonts, so the
// real glyph widths are unknown when we lay out. The tables below are the
// advance widths (in 1/1000 em) of DejaVu Sans, one of the widest common UI
// fonts, for ASCII 32..126. Measuring with a wide font errs on the side of
// extra space: layouts never collide when the browser picks a narrower font.
var advRegular = [95]uint16{
	318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,
	636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531,
	1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787,
	603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500,
	500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,
	635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
}

var advBold = [95]uint16{
	348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365,
	696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580,
	1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850,
	733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500,
	500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687,
	716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838,
}

// runeAdvance estimates the advance width of r in 1/1000 em.
func runeAdvance(r rune, bold bool) int {
	if r >= 32 && r < 127 {
		if bold {
			return int(advBold[r-32])
		}
		return int(advRegular[r-32])
	}
	switch {
	case r == '…', r == '—':
		return 1000
	case r == '−', r == '≤', r == '≥', r == '±', r == '×':
		return 838
	case unicode.Is(unicode.Mn, r), unicode.Is(unicode.Me, r), r == '\u200b', r == '\u200d':
		return 0
	case isWide(r):
		return 1000
	}
	if bold {
		return 700
	}
	return 640
}

// isWide reports whether r is usually drawn full width (CJK, Hangul, kana,
// full-width forms, most emoji).
func isWide(r rune) bool {
	return (r >= 0x1100 && r <= 0x115F) ||
		(r >= 0x2E80 && r <= 0xA4CF) ||
		(r >= 0xAC00 && r <= 0xD7A3) ||
		(r >= 0xF900 && r <= 0xFAFF) ||
		(r >= 0xFE30 && r <= 0xFE4F) ||
		(r >= 0xFF00 && r <= 0xFF60) ||
		(r >= 0xFFE0 && r <= 0xFFE6) ||
		(r >= 0x1F300 && r <= 0x1FAFF) ||
		(r >= 0x20000 && r <= 0x3FFFD)
}

// textWidth estimates the width in pixels of s set at size px.
func textWidth(s string, size float64, bold bool) float64 {
	w := 0
	for _, r := range s {
		w += runeAdvance(r, bold)
	}
	return float64(w) * size / 1000
}

// wrapLines breaks s into lines no wider than maxW at size px, so that
// no label is ever cut: at spaces, and inside a word too long for a line
// after a '.', '-', '/', '_' or ',' where it can, else between any two
// characters. Every character of s but the spaces it broke at is on one
// of the lines; "" gives none.
func wrapLines(s string, size, maxW float64, bold bool) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(s) {
		try := w
		if cur != "" {
			try = cur + " " + w
		}
		if textWidth(try, size, bold) <= maxW {
			cur = try
			continue
		}
		if cur != "" {
			lines = append(lines, cur)
			cur = ""
		}
		for textWidth(w, size, bold) > maxW {
			head, tail := splitWord(w, size, maxW, bold)
			lines = append(lines, head)
			w = tail
		}
		cur = w
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// splitWord cuts off the start of a word too wide for maxW: the longest
// start that fits and ends after a break character, else the longest
// that fits (at least one character, so that wrapping always ends).
func splitWord(w string, size, maxW float64, bold bool) (head, tail string) {
	fit, brk := 0, 0
	width := 0.0
	for i, r := range w {
		width += float64(runeAdvance(r, bold)) * size / 1000
		end := i + utf8.RuneLen(r)
		if width > maxW && fit > 0 {
			break
		}
		fit = end
		if strings.ContainsRune(".-/_,", r) && end < len(w) {
			brk = end
		}
	}
	if brk > 0 {
		fit = brk
	}
	return w[:fit], w[fit:]
}

// widest returns the width of the widest of lines.
func widest(lines []string, size float64, bold bool) float64 {
	w := 0.0
	for _, l := range lines {
		w = math.Max(w, textWidth(l, size, bold))
	}
	return w
}

// cleanText makes s safe to show on one line: invalid UTF-8 becomes U+FFFD,
// characters that XML 1.0 forbids are dropped, and runs of white space
// (including newlines and tabs) collapse to one space.
func cleanText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s { // invalid UTF-8 arrives as utf8.RuneError, U+FFFD
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if !xmlChar(r) || unicode.IsControl(r) {
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// xmlChar reports whether r may appear in an XML 1.0 document.
func xmlChar(r rune) bool {
	return r == 0x9 || r == 0xA || r == 0xD ||
		(r >= 0x20 && r <= 0xD7FF) ||
		(r >= 0xE000 && r <= 0xFFFD) ||
		(r >= 0x10000 && r <= 0x10FFFF)
}

// appendEscaped appends s to b escaped for use as XML text or as a
// double-quoted attribute value. s must already be clean (see cleanText).
func appendEscaped(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '<':
			b = append(b, "&lt;"...)
		case '>':
			b = append(b, "&gt;"...)
		case '&':
			b = append(b, "&amp;"...)
		case '"':
			b = append(b, "&quot;"...)
		case '\'':
			b = append(b, "&#39;"...)
		default:
			b = append(b, c)
		}
	}
	return b
}
