//go:build amd64 && !purego

package pyjson

// escapeHTMLSafeBlocks escapes s as AppendHTMLSafeString does, sixteen bytes
// at a time, into dst's spare capacity (escape_amd64.s): it writes w bytes
// after len(dst) and reads r bytes of s, and stops with fewer than 32
// bytes of s left, with less than 128 bytes of room, or at a byte from
// 0x80 (s[r] then), which the caller decodes. tab holds each ASCII byte's escape
// in its low bytes and the escape's length in its top byte.
//
//go:noescape
func escapeHTMLSafeBlocks(dst []byte, s string, tab *[128]uint64) (w, r int)

// blockEscaper says whether escapeHTMLSafeBlocks is the assembly one.
const blockEscaper = true
