package jinja2

import (
	"testing"
)

// TestMethodsAgainstPython checks every call in testdata/methods.txt,
// which Python wrote (testdata/methods.py): str, list and dict methods,
// format() and % formatting. A list's insert answers with the list after
// the call.
func TestMethodsAgainstPython(t *testing.T) {
	failures := 0
	for _, parts := range pyRows(t, "testdata/methods.txt", 5, 1313) {
		recv, name, want := parsePyLit(t, parts[0]), parts[1], parts[4]
		args := parsePyLit(t, parts[2]).Items()
		var kw []Kwarg
		d := parsePyLit(t, parts[3]).DictOf()
		for i, k := range d.Keys() {
			kw = append(kw, Kwarg{Name: k.Str(), Value: d.Values()[i]})
		}
		var got string
		switch {
		case name == "format" && recv.Kind() == KindNone:
			s, err := FormatValue(nil, args[0], args[1].Str())
			got = answer(StrV(s), err)
		case name == "%":
			got = answer(BinOp(nil, "%", recv, args[0]))
		case name == "insert": // the list after the call, as methods.py writes it
			_, err := CallMethod(nil, recv, name, args, kw)
			got = answer(recv, err)
		default:
			got = answer(CallMethod(nil, recv, name, args, kw))
		}
		if got != want {
			failures++
			if failures <= 60 {
				t.Errorf("%s.%s(%s, %s): got %s, want %s", parts[0], name, parts[2], parts[3], got, want)
			}
		}
	}
	if failures > 0 {
		t.Errorf("%d calls differ from Python", failures)
	}
}
