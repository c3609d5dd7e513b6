package jinja2

import (
	"slices"
	"strconv"
	"strings"

	"github.com/rolemark/rolemark/internal/pyjson"
)

// AppendJSON appends json.dumps(v) with w's options to dst: the bytes
// pyjson writes for ToPyJSON(v) (with w's sort_keys, its keys sorted as
// Python sorts them: by value, a TypeError for a str and an int), and
// ToPyJSON's errors. The usual values
// (None, bools, ints, floats, strs, lists, tuples and dicts with str keys)
// are written as they are walked, without building the pyjson.Value tree;
// any other value, or nesting deep enough for ToPyJSON's RecursionError,
// takes the tree.
func AppendJSON(dst []byte, v Value, w *pyjson.Writer) ([]byte, error) {
	start := len(dst)
	if out, ok := appendJSONDirect(dst, v, w, 0); ok {
		return out, nil
	}
	dst = dst[:start]
	pv, err := toPyJSON(v, make([]any, 0, 16), w.SortKeys())
	if err != nil {
		return dst, err
	}
	// the keys are in Python's order already: a second sort by their
	// JSON text would put "10" before "2"
	pw := w.Presorted()
	return pw.Value(dst, pv, 0), nil
}

// appendJSONDirect writes v at depth; ok is false when v holds a value it
// leaves to the tree (dst then holds a partial write the caller drops).
func appendJSONDirect(dst []byte, v Value, w *pyjson.Writer, depth int) ([]byte, bool) {
	if depth > 400 {
		return dst, false // ToPyJSON's depth check, and key conversion, decide
	}
	switch v.kind {
	case KindNone:
		return append(dst, "null"...), true
	case KindBool:
		if v.n != 0 {
			return append(dst, "true"...), true
		}
		return append(dst, "false"...), true
	case KindInt:
		if v.ref != nil {
			return dst, false
		}
		return strconv.AppendInt(dst, v.n, 10), true
	case KindFloat:
		return pyjson.AppendFloat(dst, v.f()), true
	case KindStr:
		return w.String(dst, v.s), true
	case KindList, KindTuple:
		items := v.list().Items
		if len(items) == 0 {
			return append(dst, "[]"...), true
		}
		dst = append(dst, '[')
		for i := range items {
			dst = w.Item(dst, i, depth)
			var ok bool
			if dst, ok = appendJSONDirect(dst, items[i], w, depth+1); !ok {
				return dst, false
			}
		}
		return w.Close(dst, ']', depth), true
	case KindDict:
		d := v.dict()
		if v.flags&flagProxy != 0 {
			return dst, false // toPyJSON's TypeError
		}
		if len(d.keys) == 0 {
			return append(dst, "{}"...), true
		}
		for i := range d.keys {
			if d.keys[i].kind != KindStr {
				return dst, false
			}
		}
		var buf [16]int
		order := buf[:0]
		for i := range d.keys {
			order = append(order, i)
		}
		if w.SortKeys() {
			slices.SortFunc(order, func(a, b int) int { return strings.Compare(d.keys[a].s, d.keys[b].s) })
		}
		dst = append(dst, '{')
		for n, i := range order {
			dst = w.Item(dst, n, depth)
			dst = w.Key(dst, d.keys[i].s)
			var ok bool
			if dst, ok = appendJSONDirect(dst, d.vals[i], w, depth+1); !ok {
				return dst, false
			}
		}
		return w.Close(dst, '}', depth), true
	}
	return dst, false
}

// JSONString is json.dumps(v) with w's options as a new str, written in
// the render's working memory (kept from call to call) rather than in a
// buffer grown for each call.
func JSONString(c *Ctx, v Value, w *pyjson.Writer) (string, error) {
	var scratch []byte
	if c != nil {
		scratch = c.scratch[:0]
	}
	scratch, err := AppendJSON(scratch, v, w)
	if err != nil {
		return "", err
	}
	s := string(scratch)
	if c != nil && cap(scratch) <= maxPooledOutput {
		c.scratch = scratch
	}
	return s, nil
}
