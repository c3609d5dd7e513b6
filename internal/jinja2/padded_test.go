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

// TestItemRuns renders loops whose body prints the item's fields
// (writeItemRuns) over items it cannot write: a field missing, None, an
// int, a Markup that escapes the rest of a + chain. Each item is
// written as Jinja2 3.1.6 writes it (the want strings are its output),
// the items before and after it on the fast path.
func TestItemRuns(t *testing.T) {
	src := "{% for m in ms %}{{ '<|' ~ m.role ~ '|>' ~ m.content ~ '\\n' }}{% endfor %}|" +
		"{% for m in ms2 %}{{ '<|' + m['role'] + '|>' + m['content'] + '<|end|>' }}{% endfor %}"
	tpl, err := New().Parse("t", src)
	if err != nil {
		t.Fatal(err)
	}
	msg := func(role string, content Value, has bool) Value {
		d := NewDict(2)
		d.Set(StrV("role"), StrV(role))
		if has {
			d.Set(StrV("content"), content)
		}
		return DictV(d)
	}
	vars := map[string]Value{
		"ms": ListV([]Value{msg("user", StrV("hi"), true), msg("assistant", NoneV(), true), msg("tool", Value{}, false),
			msg("system", IntV(3), true), msg("user", StrV("x"), true)}),
		"ms2": ListV([]Value{msg("user", StrV("a<b"), true), msg("assistant", SafeV("<i>"), true), msg("user", StrV("c"), true)}),
	}
	const want = "<|user|>hi\n<|assistant|>None\n<|tool|>\n<|system|>3\n<|user|>x\n|" +
		"<|user|>a<b<|end|>&lt;|assistant|&gt;<i>&lt;|end|&gt;<|user|>c<|end|>"
	for range 2 { // the second render with the keys' hints set
		got, err := tpl.Render(t.Context(), vars)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("got %q\nwant %q", got, want)
		}
	}
}
