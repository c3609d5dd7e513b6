package jinja2

import (
	"context"
	"errors"
	"testing"
)

// TestKwOrPosCounts checks the count errors of the str methods whose
// parameters may be named: CPython counts positional and keyword
// arguments together before it binds any. The messages are Jinja2
// 3.1.6's (Python 3.11).
func TestKwOrPosCounts(t *testing.T) {
	for _, c := range []struct{ src, msg string }{
		{"{{ 'a'.splitlines(1, keepends=1) }}", "splitlines() takes at most 1 argument (2 given)"},
		{"{{ 'a'.expandtabs(1, 2) }}", "expandtabs() takes at most 1 argument (2 given)"},
		{"{{ 'a'.split(',', 1, foo=2) }}", "split() takes at most 2 arguments (3 given)"},
		{"{{ 'a'.split(',', 1, 2) }}", "split() takes at most 2 arguments (3 given)"},
		{"{{ 'a'.split(maxsplit=1, sep=',', x=1) }}", "split() takes at most 2 keyword arguments (3 given)"},
		{"{{ 'a'.split(',', sep=',') }}", "argument for split() given by name ('sep') and position (1)"},
		{"{{ 'a'.encode(encoding='utf-8', errors='strict', x=1) }}", "encode() takes at most 2 keyword arguments (3 given)"},
	} {
		tm, err := New().Parse("t", c.src)
		if err != nil {
			t.Fatal(err)
		}
		_, err = tm.Render(context.Background(), nil)
		var e *Error
		if !errors.As(err, &e) || e.Kind != "TypeError" || e.Msg != c.msg {
			t.Errorf("%s: got %v, want TypeError: %s", c.src, err, c.msg)
		}
	}
}
