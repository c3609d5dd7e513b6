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
	for {
		start := strings.Index(value, "<!--")
		if start < 0 {
			break
		}
		end := strings.Index(value[start:], "-->")
		if end < 0 {
			break
		}
		value = value[:start] + value[start+end+3:]
	}
	for {
		start := strings.Index(value, "<")
		if start < 0 {
			break
		}
		end := strings.Index(value[start:], ">")
		if end < 0 {
			break
		}
		value = value[:start] + value[start+end+1:]
	}
	return htmlUnescape(strings.Join(pySplitSpace(value, -1), " "))
}
