package jinja2

import (
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Python's pprint.pformat(obj) (width 80, indent 1, sort_dicts), which the
// pprint filter writes.

type pprinter struct {
	width int
	b     strings.Builder
	// within holds the lists, tuples and dicts being written (pprint's
	// context): one met again is written as recursionRepr.
	within map[any]bool
}

// pprintCheck is the error pprint's sort of a dict's keys raises: its
// _safe_key orders keys that do not compare by their type on a
// TypeError alone, so comparing an Undefined key raises UndefinedError.
// It is also pprint's RecursionError for lists, tuples and dicts nested
// deeper than maxPprintDepth; depth is v's.
func pprintCheck(v Value, seen map[any]bool, depth int) error {
	switch v.kind {
	case KindDict, KindList, KindTuple:
	default:
		return nil
	}
	if seen[v.ref] {
		return nil
	}
	if depth > maxPprintDepth {
		return pyErr("RecursionError", "maximum recursion depth exceeded while calling a Python object")
	}
	seen[v.ref] = true
	if v.kind == KindDict {
		d := v.dict()
		var first error
		if len(d.keys) > 1 {
			idx := make([]int, len(d.keys))
			for i := range idx {
				idx[i] = i
			}
			pySort(idx, func(a, b int) bool {
				if first != nil {
					return false
				}
				lt, err := Compare(nil, "<", d.keys[a], d.keys[b])
				if e, ok := err.(*Error); ok && e.Kind != "TypeError" {
					first = err
				} else if err != nil {
					return pprintTypeLess(d.keys[a], d.keys[b])
				}
				return lt
			})
		}
		if first != nil {
			return first
		}
		for i := range d.keys {
			if err := pprintCheck(d.keys[i], seen, depth+1); err != nil {
				return err
			}
			if err := pprintCheck(d.vals[i], seen, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	for _, it := range v.list().Items {
		if err := pprintCheck(it, seen, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// maxPprintDepth is how deep pprint goes into lists, tuples and dicts
// before Python's RecursionError: its pure-Python _format takes three
// frames a level, so a list nested 328 deep prints and 329 deep raises at
// the top of a render (a level earlier with wide items beside it).
const maxPprintDepth = 328

func pformat(v Value) string {
	p := &pprinter{width: 80, within: map[any]bool{}}
	p.format(v, 0, 0, 0)
	return p.b.String()
}

// isContainer tells the values pprint keeps in its context while it
// writes them: lists, tuples and dicts (by identity).
func isContainer(v Value) bool {
	return v.kind == KindList || v.kind == KindTuple || v.kind == KindDict
}

// recursionRepr is pprint's _recursion: what it writes for a list, tuple
// or dict met again inside itself, named by its identity (Python's id, an
// address; oracle tests compare it normalized).
func recursionRepr(v Value) string {
	return "<Recursion on " + TypeName(v) + " with id=" + strconv.FormatUint(uint64(reflect.ValueOf(v.ref).Pointer()), 10) + ">"
}

func runeLen(s string) int { return runeCountW(s) }

// safeRepr is pprint's _safe_repr: repr with dict keys sorted; a list,
// tuple or dict already in within (being written) is recursionRepr.
func safeRepr(v Value, within map[any]bool) string {
	switch v.kind {
	case KindDict:
		if v.flags&flagProxy != 0 {
			return Repr(v) // no dict to _safe_repr: its repr
		}
		d := v.dict()
		if len(d.keys) == 0 {
			return "{}"
		}
		if within[v.ref] {
			return recursionRepr(v)
		}
		within[v.ref] = true
		defer delete(within, v.ref)
		parts := make([]string, 0, len(d.keys))
		for _, i := range sortedDictOrder(d) {
			parts = append(parts, safeRepr(d.keys[i], within)+": "+safeRepr(d.vals[i], within))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case KindList, KindTuple:
		items := v.list().Items
		if len(items) > 0 {
			if within[v.ref] {
				return recursionRepr(v)
			}
			within[v.ref] = true
			defer delete(within, v.ref)
		}
		parts := make([]string, len(items))
		for i, it := range items {
			parts[i] = safeRepr(it, within)
		}
		if v.kind == KindList {
			return "[" + strings.Join(parts, ", ") + "]"
		}
		if len(items) == 1 {
			return "(" + parts[0] + ",)"
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	return Repr(v)
}

// pprintTypeLess is how pprint's _safe_key orders two keys that do not
// compare: by str(type(key)), "<class 'markupsafe.Markup'>" with its
// module (so False comes before a Markup); the ids that break a tie are
// not modelled (two such keys of one type keep their order).
func pprintTypeLess(x, y Value) bool {
	return Repr(classOf(x)) < Repr(classOf(y))
}

// sortedDictOrder is the order pprint writes a dict's items: sorted by
// key, keys that do not compare ordered by their type's name.
func sortedDictOrder(d *Dict) []int {
	idx := make([]int, len(d.keys))
	for i := range idx {
		idx[i] = i
	}
	pySort(idx, func(a, b int) bool {
		x, y := d.keys[a], d.keys[b]
		lt, err := Compare(nil, "<", x, y)
		if err != nil {
			return pprintTypeLess(x, y)
		}
		return lt
	})
	return idx
}

func (p *pprinter) format(v Value, indent, allowance, level int) {
	if isContainer(v) && p.within[v.ref] {
		p.b.WriteString(recursionRepr(v))
		return
	}
	rep := safeRepr(v, p.within)
	maxWidth := p.width - indent - allowance
	if runeLen(rep) > maxWidth && isContainer(v) {
		p.within[v.ref] = true
		defer delete(p.within, v.ref)
	}
	if runeLen(rep) > maxWidth {
		switch v.kind {
		case KindDict:
			if v.flags&flagProxy != 0 {
				// _pprint_mappingproxy: its dict's copy (another
				// object than the one being written), after the name
				delete(p.within, v.ref)
				p.b.WriteString("mappingproxy(")
				p.format(Value{kind: KindDict, ref: v.dict()}, indent+13, allowance+1, level)
				p.b.WriteByte(')')
				return
			}
			p.pprintDict(v.dict(), indent, allowance, level+1)
			return
		case KindList:
			p.b.WriteByte('[')
			p.formatItems(v.list().Items, indent, allowance+1, level+1)
			p.b.WriteByte(']')
			return
		case KindTuple:
			items := v.list().Items
			end := ")"
			if len(items) == 1 {
				end = ",)"
			}
			p.b.WriteByte('(')
			p.formatItems(items, indent, allowance+len(end), level+1)
			p.b.WriteString(end)
			return
		case KindStr:
			if !v.IsSafe() {
				p.pprintStr(v.s, indent, allowance, level+1)
				return
			}
		}
	}
	p.b.WriteString(rep)
}

func (p *pprinter) pprintDict(d *Dict, indent, allowance, level int) {
	p.b.WriteByte('{')
	if len(d.keys) > 0 {
		indent++
		order := sortedDictOrder(d)
		for n, i := range order {
			last := n == len(order)-1
			rep := safeRepr(d.keys[i], p.within)
			p.b.WriteString(rep)
			p.b.WriteString(": ")
			al := 1
			if last {
				al = allowance + 1
			}
			p.format(d.vals[i], indent+runeLen(rep)+2, al, level)
			if !last {
				p.b.WriteString(",\n" + strings.Repeat(" ", indent))
			}
		}
	}
	p.b.WriteByte('}')
}

func (p *pprinter) formatItems(items []Value, indent, allowance, level int) {
	indent++
	for i, it := range items {
		if i > 0 {
			p.b.WriteString(",\n" + strings.Repeat(" ", indent))
		}
		al := 1
		if i == len(items)-1 {
			al = allowance
		}
		p.format(it, indent, al, level)
	}
}

func (p *pprinter) pprintStr(s string, indent, allowance, level int) {
	if s == "" {
		p.b.WriteString("''")
		return
	}
	var chunks []string
	lines := pySplitLines(s, true)
	if level == 1 {
		indent++
		allowance++
	}
	maxWidth1 := p.width - indent
	maxWidth := maxWidth1
	var rep string
	for i, line := range lines {
		rep = reprStr(line)
		if i == len(lines)-1 {
			maxWidth1 -= allowance
		}
		if runeLen(rep) <= maxWidth1 {
			chunks = append(chunks, rep)
			continue
		}
		parts := splitSpaceRuns(line)
		maxWidth2 := maxWidth
		current := ""
		for j, part := range parts {
			candidate := current + part
			if j == len(parts)-1 && i == len(lines)-1 {
				maxWidth2 -= allowance
			}
			if runeLen(reprStr(candidate)) > maxWidth2 {
				if current != "" {
					chunks = append(chunks, reprStr(current))
				}
				current = part
			} else {
				current = candidate
			}
		}
		if current != "" {
			chunks = append(chunks, reprStr(current))
		}
	}
	if len(chunks) == 1 {
		p.b.WriteString(rep)
		return
	}
	if level == 1 {
		p.b.WriteByte('(')
	}
	for i, c := range chunks {
		if i > 0 {
			p.b.WriteString("\n" + strings.Repeat(" ", indent))
		}
		p.b.WriteString(c)
	}
	if level == 1 {
		p.b.WriteByte(')')
	}
}

// splitSpaceRuns is re.findall(r'\S*\s*', line) without its final empty
// match, with Python's whitespace.
func splitSpaceRuns(line string) []string {
	var parts []string
	i := 0
	for i < len(line) {
		j := i
		for j < len(line) {
			r, n := utf8.DecodeRuneInString(line[j:])
			if pyIsSpace(r) {
				break
			}
			j += n
		}
		for j < len(line) {
			r, n := utf8.DecodeRuneInString(line[j:])
			if !pyIsSpace(r) {
				break
			}
			j += n
		}
		parts = append(parts, line[i:j])
		i = j
	}
	return parts
}
