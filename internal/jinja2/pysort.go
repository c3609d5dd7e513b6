package jinja2

import "slices"

// CPython 3.11's list.sort (Objects/listobject.c, listsort.txt): natural
// runs extended to minrun by binary insertion, merged by the powersort
// policy with galloping. A sort whose comparisons are a total order puts
// the items in the one stable order any sort gives; where they are not
// (a nan among numbers, sets ordered by inclusion) the order is the
// algorithm's, and where one raises, which comparison raises first is
// too (its exception's class and the types its message names). So the
// package makes Python's comparisons, in Python's order.

// pyMinGallop is MIN_GALLOP: a merge gallops once one run wins this many
// times in a row.
const pyMinGallop = 7

// pyRun is a run on the merge stack: s[base:base+len], and its power
// (its depth in powersort's merge tree).
type pyRun struct {
	base, len, power int
}

type pyMergeState struct {
	s         []int
	less      func(a, b int) bool
	minGallop int
	pending   []pyRun
	tmp       []int
}

// pySort sorts s stably as CPython's list.sort sorts a list, calling
// less(x, y) (x < y) on the same pairs in the same order. less must not
// change s; once a comparison fails it should report false for the rest,
// as the sort's result is then not used.
func pySort(s []int, less func(a, b int) bool) {
	n := len(s)
	if n < 2 {
		return
	}
	ms := pyMergeState{s: s, less: less, minGallop: pyMinGallop}
	if n < 64 {
		// minrun is n: one run, extended to the whole list
		run, desc := ms.countRun(0, n)
		if desc {
			slices.Reverse(s[:run])
		}
		ms.binarySort(0, n, run)
		return
	}
	// merge_compute_minrun: n below 64, or a length in [32, 64] such
	// that n/minrun is a power of 2 or a little less
	minrun, r := n, 0
	for minrun >= 64 {
		r |= minrun & 1
		minrun >>= 1
	}
	minrun += r
	for lo, rem := 0, n; rem > 0; {
		run, desc := ms.countRun(lo, lo+rem)
		if desc {
			slices.Reverse(s[lo : lo+run])
		}
		if run < minrun {
			force := min(rem, minrun)
			ms.binarySort(lo, lo+force, lo+run)
			run = force
		}
		ms.foundNewRun(lo, run, n)
		ms.pending = append(ms.pending, pyRun{base: lo, len: run})
		lo += run
		rem -= run
	}
	// merge_force_collapse
	for len(ms.pending) > 1 {
		i := len(ms.pending) - 2
		if i > 0 && ms.pending[i-1].len < ms.pending[i+1].len {
			i--
		}
		ms.mergeAt(i)
	}
}

// countRun is the length of the run starting at lo: non-descending, or
// strictly descending (desc).
func (ms *pyMergeState) countRun(lo, hi int) (n int, desc bool) {
	s := ms.s
	if lo+1 == hi {
		return 1, false
	}
	n = 2
	if ms.less(s[lo+1], s[lo]) {
		for i := lo + 2; i < hi && ms.less(s[i], s[i-1]); i++ {
			n++
		}
		return n, true
	}
	for i := lo + 2; i < hi && !ms.less(s[i], s[i-1]); i++ {
		n++
	}
	return n, false
}

// binarySort sorts s[lo:hi], whose s[lo:start] is sorted, by binary
// insertion, each item after the items not greater.
func (ms *pyMergeState) binarySort(lo, hi, start int) {
	s := ms.s
	if lo == start {
		start++
	}
	for ; start < hi; start++ {
		pivot := s[start]
		l, r := lo, start
		for l < r {
			p := l + (r-l)>>1
			if ms.less(pivot, s[p]) {
				r = p
			} else {
				l = p + 1
			}
		}
		copy(s[l+1:start+1], s[l:start])
		s[l] = pivot
	}
}

// foundNewRun merges the runs on the stack whose power is greater than
// that of the topmost run, next to the new run at lo of length n2.
func (ms *pyMergeState) foundNewRun(lo, n2, n int) {
	if len(ms.pending) == 0 {
		return
	}
	top := ms.pending[len(ms.pending)-1]
	// powerloop: the first bit where the midpoints of the two runs,
	// as fractions of n, differ
	power := 0
	a := 2*top.base + top.len
	b := a + top.len + n2
	for {
		power++
		if a >= n {
			a -= n
			b -= n
		} else if b >= n {
			break
		}
		a <<= 1
		b <<= 1
	}
	for len(ms.pending) > 1 && ms.pending[len(ms.pending)-2].power > power {
		ms.mergeAt(len(ms.pending) - 2)
	}
	ms.pending[len(ms.pending)-1].power = power
}

// mergeAt merges the runs at stack indexes i and i+1.
func (ms *pyMergeState) mergeAt(i int) {
	s := ms.s
	p := ms.pending
	pa, na := p[i].base, p[i].len
	pb, nb := p[i+1].base, p[i+1].len
	p[i].len = na + nb
	if i == len(p)-3 {
		p[i+1] = p[i+2]
	}
	ms.pending = p[:len(p)-1]
	// where b's first goes in a: a's items before it stay
	k := ms.gallopRight(s[pb], s[pa:pa+na], 0)
	pa += k
	na -= k
	if na == 0 {
		return
	}
	// where a's last goes in b: b's items after it stay
	nb = ms.gallopLeft(s[pa+na-1], s[pb:pb+nb], nb-1)
	if nb <= 0 {
		return
	}
	if na <= nb {
		ms.mergeLo(pa, na, pb, nb)
	} else {
		ms.mergeHi(pa, na, pb, nb)
	}
}

// gallopLeft is the k in [0, len(a)] with a[k-1] < key <= a[k], found
// from hint.
func (ms *pyMergeState) gallopLeft(key int, a []int, hint int) int {
	n := len(a)
	lastofs, ofs := 0, 1
	if ms.less(a[hint], key) {
		maxofs := n - hint
		for ofs < maxofs && ms.less(a[hint+ofs], key) {
			lastofs = ofs
			ofs = ofs<<1 + 1
		}
		ofs = min(ofs, maxofs)
		lastofs += hint
		ofs += hint
	} else {
		maxofs := hint + 1
		for ofs < maxofs && !ms.less(a[hint-ofs], key) {
			lastofs = ofs
			ofs = ofs<<1 + 1
		}
		ofs = min(ofs, maxofs)
		lastofs, ofs = hint-ofs, hint-lastofs
	}
	for lastofs++; lastofs < ofs; {
		m := lastofs + (ofs-lastofs)>>1
		if ms.less(a[m], key) {
			lastofs = m + 1
		} else {
			ofs = m
		}
	}
	return ofs
}

// gallopRight is the k in [0, len(a)] with a[k-1] <= key < a[k], found
// from hint.
func (ms *pyMergeState) gallopRight(key int, a []int, hint int) int {
	n := len(a)
	lastofs, ofs := 0, 1
	if ms.less(key, a[hint]) {
		maxofs := hint + 1
		for ofs < maxofs && ms.less(key, a[hint-ofs]) {
			lastofs = ofs
			ofs = ofs<<1 + 1
		}
		ofs = min(ofs, maxofs)
		lastofs, ofs = hint-ofs, hint-lastofs
	} else {
		maxofs := n - hint
		for ofs < maxofs && !ms.less(key, a[hint+ofs]) {
			lastofs = ofs
			ofs = ofs<<1 + 1
		}
		ofs = min(ofs, maxofs)
		lastofs += hint
		ofs += hint
	}
	for lastofs++; lastofs < ofs; {
		m := lastofs + (ofs-lastofs)>>1
		if ms.less(key, a[m]) {
			ofs = m
		} else {
			lastofs = m + 1
		}
	}
	return ofs
}

// mergeLo merges s[pa:pa+na] and the run after it, s[pb:pb+nb], na <=
// nb, a's items copied aside, from the left.
func (ms *pyMergeState) mergeLo(pa, na, pb, nb int) {
	s := ms.s
	ms.tmp = append(ms.tmp[:0], s[pa:pa+na]...)
	a := ms.tmp
	ia, ib, dest := 0, pb, pa
	var minGallop, acount, bcount int
	s[dest] = s[ib]
	dest++
	ib++
	nb--
	if nb == 0 {
		goto succeed
	}
	if na == 1 {
		goto copyB
	}
	minGallop = ms.minGallop
	for {
		acount, bcount = 0, 0
		// one at a time until a run wins minGallop times in a row
		for {
			if ms.less(s[ib], a[ia]) {
				s[dest] = s[ib]
				dest++
				ib++
				bcount++
				acount = 0
				nb--
				if nb == 0 {
					goto succeed
				}
				if bcount >= minGallop {
					break
				}
			} else {
				s[dest] = a[ia]
				dest++
				ia++
				acount++
				bcount = 0
				na--
				if na == 1 {
					goto copyB
				}
				if acount >= minGallop {
					break
				}
			}
		}
		// gallop while either run wins pyMinGallop in a row
		minGallop++
		for {
			if minGallop > 1 {
				minGallop--
			}
			ms.minGallop = minGallop
			k := ms.gallopRight(s[ib], a[ia:ia+na], 0)
			acount = k
			if k > 0 {
				copy(s[dest:dest+k], a[ia:ia+k])
				dest += k
				ia += k
				na -= k
				if na == 1 {
					goto copyB
				}
				if na == 0 { // only when the comparisons are inconsistent
					goto succeed
				}
			}
			s[dest] = s[ib]
			dest++
			ib++
			nb--
			if nb == 0 {
				goto succeed
			}
			k = ms.gallopLeft(a[ia], s[ib:ib+nb], 0)
			bcount = k
			if k > 0 {
				copy(s[dest:dest+k], s[ib:ib+k])
				dest += k
				ib += k
				nb -= k
				if nb == 0 {
					goto succeed
				}
			}
			s[dest] = a[ia]
			dest++
			ia++
			na--
			if na == 1 {
				goto copyB
			}
			if acount < pyMinGallop && bcount < pyMinGallop {
				break
			}
		}
		minGallop++ // leaving galloping mode costs
		ms.minGallop = minGallop
	}
succeed:
	copy(s[dest:dest+na], a[ia:ia+na])
	return
copyB:
	// a's last item goes after b's rest
	copy(s[dest:dest+nb], s[ib:ib+nb])
	s[dest+nb] = a[ia]
}

// mergeHi merges s[pa:pa+na] and the run after it, s[pb:pb+nb], na >=
// nb, b's items copied aside, from the right.
func (ms *pyMergeState) mergeHi(pa, na, pb, nb int) {
	s := ms.s
	ms.tmp = append(ms.tmp[:0], s[pb:pb+nb]...)
	b := ms.tmp
	ia, ib, dest := pa+na-1, nb-1, pb+nb-1
	var minGallop, acount, bcount int
	s[dest] = s[ia]
	dest--
	ia--
	na--
	if na == 0 {
		goto succeed
	}
	if nb == 1 {
		goto copyA
	}
	minGallop = ms.minGallop
	for {
		acount, bcount = 0, 0
		for {
			if ms.less(b[ib], s[ia]) {
				s[dest] = s[ia]
				dest--
				ia--
				acount++
				bcount = 0
				na--
				if na == 0 {
					goto succeed
				}
				if acount >= minGallop {
					break
				}
			} else {
				s[dest] = b[ib]
				dest--
				ib--
				bcount++
				acount = 0
				nb--
				if nb == 1 {
					goto copyA
				}
				if bcount >= minGallop {
					break
				}
			}
		}
		minGallop++
		for {
			if minGallop > 1 {
				minGallop--
			}
			ms.minGallop = minGallop
			k := na - ms.gallopRight(b[ib], s[pa:pa+na], na-1)
			acount = k
			if k > 0 {
				dest -= k
				ia -= k
				copy(s[dest+1:dest+1+k], s[ia+1:ia+1+k])
				na -= k
				if na == 0 {
					goto succeed
				}
			}
			s[dest] = b[ib]
			dest--
			ib--
			nb--
			if nb == 1 {
				goto copyA
			}
			k = nb - ms.gallopLeft(s[ia], b[:nb], nb-1)
			bcount = k
			if k > 0 {
				dest -= k
				ib -= k
				copy(s[dest+1:dest+1+k], b[ib+1:ib+1+k])
				nb -= k
				if nb == 1 {
					goto copyA
				}
				if nb == 0 { // only when the comparisons are inconsistent
					goto succeed
				}
			}
			s[dest] = s[ia]
			dest--
			ia--
			na--
			if na == 0 {
				goto succeed
			}
			if acount < pyMinGallop && bcount < pyMinGallop {
				break
			}
		}
		minGallop++
		ms.minGallop = minGallop
	}
succeed:
	copy(s[dest-(nb-1):dest+1], b[:nb])
	return
copyA:
	// b's first item goes before a's rest
	copy(s[dest+1-na:dest+1], s[ia+1-na:ia+1])
	dest -= na
	s[dest] = b[ib]
}
