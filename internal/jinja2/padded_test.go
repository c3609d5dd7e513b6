package jinja2

import (
	"strings"
	"testing"
)

// TestAppendPadded appends texts of 0 to 20 bytes (a padded one up to 16)
// to outputs with 0 to 20 bytes of room: the result is append's, and the
// bytes of the output before it stay as they were.
func TestAppendPadded(t *testing.T) {
	for n := 0; n <= 20; n++ {
		s := strings.Repeat("abcdefghij", 2)[:n]
		p := padOf(s)
		for room := 0; room <= 20; room++ {
			out := make([]byte, 3, 3+room)
			copy(out, "xyz")
			got := appendPadded(out, s, &p)
			if string(got) != "xyz"+s {
				t.Errorf("len %d, room %d: %q", n, room, got)
			}
			if string(out) != "xyz" {
				t.Errorf("len %d, room %d: the output before it became %q", n, room, out)
			}
		}
	}
}

// TestRunsPadded renders a chain of runs (streamRunsItem) whose constants
// are 15, 16 and 17 bytes long, into buffers with every room up to 40
// bytes, each render after one that left other bytes in the room: the
// output is the same.
func TestRunsPadded(t *testing.T) {
	lit := func(n int) string { return "'" + strings.Repeat("<", n-1) + "|'" }
	src := "{% for m in ms %}{{ " + lit(15) + " + m['r'] + " + lit(16) + " + m['c'] + " + lit(17) + " }}{% endfor %}"
	tpl, err := New().Parse("t", src)
	if err != nil {
		t.Fatal(err)
	}
	msg := func(r, c string) Value {
		d := NewDict(2)
		d.Set(StrV("r"), StrV(r))
		d.Set(StrV("c"), StrV(c))
		return DictV(d)
	}
	vars := map[string]Value{"ms": ListV([]Value{msg("user", "hi"), msg("assistant", ""), msg("", "a longer text than sixteen bytes")})}
	want, err := tpl.Render(t.Context(), vars)
	if err != nil {
		t.Fatal(err)
	}
	for room := 0; room <= 40; room++ {
		dst := make([]byte, 2, 2+room)
		for k := range dst[:cap(dst)] {
			dst[:cap(dst)][k] = '#'
		}
		got, err := tpl.AppendRender(t.Context(), dst, vars)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != "##"+want {
			t.Errorf("room %d: %q, want %q", room, got, "##"+want)
		}
	}
}
