package jinja2

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The operations a render runs most take Values by value and allocate
// nothing for ints, short strings and lookups.
func TestHotPathsDoNotAllocate(t *testing.T) {
	d := NewDict(4)
	d.SetStr("role", StrV("user"))
	d.SetStr("content", StrV("hi"))
	dv := DictV(d)
	big := NewDict(20)
	for _, k := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"} {
		big.SetStr(k, IntV(1))
	}
	bv := DictV(big)
	l := ListV([]Value{IntV(1), IntV(2), IntV(3)})
	cases := map[string]func(){
		"int +":          func() { _, _ = BinOp(nil, "+", IntV(40), IntV(2)) },
		"int //":         func() { _, _ = BinOp(nil, "//", IntV(-7), IntV(2)) },
		"float *":        func() { _, _ = BinOp(nil, "*", FloatV(1.5), IntV(2)) },
		"compare ints":   func() { _, _ = Compare(nil, "<", IntV(1), IntV(2)) },
		"compare strs":   func() { _, _ = Compare(nil, "==", StrV("user"), StrV("user")) },
		"in list":        func() { _, _ = Compare(nil, "in", IntV(3), l) },
		"dict attribute": func() { _, _ = GetAttr(nil, dv, "role") },
		"dict item":      func() { _, _ = GetItem(nil, dv, StrV("content")) },
		"big dict item":  func() { _, _ = GetItem(nil, bv, StrV("k")) },
		"list index":     func() { _, _ = GetItem(nil, l, IntV(-1)) },
		"truth":          func() { _ = dv.Truth() },
		"str of str":     func() { _, _ = ToStr(nil, StrV("x")) },
		"len":            func() { _, _ = Len(l) },
		"iterate list":   func() { _, _ = Iterate(nil, l) },
	}
	for name, f := range cases {
		assert.Zero(t, testing.AllocsPerRun(100, f), name)
	}
}
