//go:build !amd64 || purego

package pyjson

// escapeHTMLSafeBlocks has no assembly here: AppendHTMLSafeString takes the
// plain loop (blockEscaper is false) and never calls it.
func escapeHTMLSafeBlocks(dst []byte, s string, tab *[128]uint64) (w, r int) { return 0, 0 }

const blockEscaper = false
