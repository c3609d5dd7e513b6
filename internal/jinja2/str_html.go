package jinja2

import (
	"html"
	"math"
	"strings"
)

func truncF(f float64) float64 { return math.Trunc(f) }

// htmlUnescape is Python's html.unescape (Markup.unescape).
func htmlUnescape(s string) string { return html.UnescapeString(s) }

// stripTags is Markup.striptags: comments and tags removed, whitespace
// collapsed, entities unescaped.
func stripTags(value string) string {
	value = removeSpans(value, "<!--", "-->")
	value = removeSpans(value, "<", ">")
	return htmlUnescape(strings.Join(pySplitSpace(value, -1), " "))
}

// removeSpans removes the first span from open to the next close after
// it, searching from the start again each time, until no span is left,
// as markupsafe's striptags does: what a removal joins can open a span.
func removeSpans(value, open, close string) string {
	for {
		start := strings.Index(value, open)
		if start < 0 {
			return value
		}
		end := strings.Index(value[start:], close)
		if end < 0 {
			return value
		}
		value = value[:start] + value[start+end+len(close):]
	}
}
