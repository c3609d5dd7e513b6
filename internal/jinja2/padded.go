package jinja2

// padded is a constant text of at most 16 bytes, padded with zeros to
// 16: appendPadded writes it as one 16-byte store where the output has
// the room, where append would call memmove (a call that also makes the
// caller's loop reload what it held in registers). A chat template's
// print writes such texts at every message: '<|im_start|>', '\n',
// '<|im_end|>\n'.
type padded [16]byte

// padOf returns s padded, or zeros when s is longer than 16 bytes (it
// is then appended as it is).
func padOf(s string) (p padded) {
	if len(s) <= len(p) {
		copy(p[:], s)
	}
	return p
}

// appendPadded is append(out, s...) for s whose padded form is p
// (padOf(s)). Where it stores the 16 bytes, the bytes of out's spare
// capacity after s are written too (with zeros): what the output's
// spare capacity holds is never read.
func appendPadded(out []byte, s string, p *padded) []byte {
	if n := len(out); len(s) <= len(p) && cap(out)-n >= len(p) {
		*(*padded)(out[n : n+len(p)]) = *p
		return out[:n+len(s)]
	}
	return append(out, s...)
}
