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

// writeItemRuns is streamRunsItem for a print whose runs are all fields
// of the loop's item (inItem: no local, no |trim) with the item d, a
// dict, and the template's own text not tracked: d is read once, not at
// each run. It reports whether it wrote the print; where a field is
// missing or not a plain str it writes nothing (c.out is as it was) and
// streamRunsItem writes the print as it would have.
func (s *streamedPrint) writeItemRuns(c *Ctx, d *Dict) bool {
	out := c.out
	for i := range s.runs {
		r := &s.runs[i]
		out = appendPadded(out, r.lit, &r.pad)
		j := d.hinted(r.key, &r.hint)
		if j < 0 {
			if j = d.findStrKeep(r.key, &r.hint); j < 0 {
				return false
			}
		}
		w := &d.vals[j]
		if w.kind != KindStr || !s.concat && w.flags&flagSafe != 0 {
			return false
		}
		out = append(out, w.s...)
	}
	c.setOut(appendPadded(out, s.tail, &s.tpad))
	return true
}
