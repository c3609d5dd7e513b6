// Package typo tells a likely misspelling from its word: a name one edit
// away from a known one, which roleparse's lookalike tags and role names
// and engine's Dotprompt output formats name in their messages.
package typo

// OneEdit reports whether a and b differ by exactly one insertion,
// deletion, substitution or swap of adjacent bytes.
func OneEdit(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	switch len(b) - len(a) {
	case 0:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		if i == len(a) {
			return false // equal
		}
		if a[i+1:] == b[i+1:] {
			return true // substitution
		}
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:] // swap
	case 1:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		return a[i:] == b[i+1:]
	}
	return false
}
