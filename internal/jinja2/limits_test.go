package jinja2

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func rtErr(t *testing.T, err error) *Error {
	t.Helper()
	require.Error(t, err)
	var e *Error
	require.True(t, errors.As(err, &e), "%T %v", err, err)
	return e
}

func TestParserNesting(t *testing.T) {
	tests := []struct {
		name, src string
	}{
		{"parentheses", "{{ " + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + " }}"},
		{"lists", "{{ " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + " }}"},
		{"unary minus", "{{ " + strings.Repeat("-", 100000) + "1 }}"},
		{"not", "{{ " + strings.Repeat("not ", 100000) + "1 }}"},
		{"ifs", strings.Repeat("{% if 1 %}", 20000) + "x" + strings.Repeat("{% endif %}", 20000)},
		{"fors", strings.Repeat("{% for a in b %}", 20000) + strings.Repeat("{% endfor %}", 20000)},
		{"conditional", "{{ 1" + strings.Repeat(" if 1 else 1", 100000) + " }}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, err := New().Parse("deep", tc.src)
			e := rtErr(t, err)
			assert.Equal(t, "RecursionError", e.Kind)
			assert.Contains(t, e.Msg, "256")
			// What this guards against takes minutes (a quadratic parse, a
			// stack overflow); 10 s leaves room for -race on a loaded machine.
			assert.Less(t, time.Since(start), 10*time.Second)
		})
	}
	// Nesting Python's Jinja2 accepts compiles here too.
	_, err := New().Parse("ok", "{{ "+strings.Repeat("(", 60)+"1"+strings.Repeat(")", 60)+" }}"+strings.Repeat("{% if 1 %}", 90)+strings.Repeat("{% endif %}", 90))
	require.NoError(t, err)
}

func TestRenderLimits(t *testing.T) {
	tests := []struct {
		name   string
		limits Limits
		src    string
		kind   string
		msg    string
	}{
		{"macro recursion", Limits{Depth: 50}, "{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "LimitError", "calls nest deeper than the limit of 50"},
		{"macro recursion no limit", Limits{}, "{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "RecursionError", "maximum recursion depth exceeded"},
		{"include recursion", Limits{Depth: 20}, "{% include 'self' %}", "LimitError", "calls nest deeper than the limit of 20"},
		{"recursive loop", Limits{Depth: 10}, "{% for x in [1] recursive %}{{ loop([1]) }}{% endfor %}", "LimitError", "calls nest deeper than the limit of 10"},
		{"output", Limits{Output: 99}, "{% for i in 'abcdefghij' %}{% for j in 'abcdefghij' %}{{ i }}{% endfor %}{% endfor %}", "LimitError", "the output passed the limit of 99 bytes"},
		{"output of a chain of fields", Limits{Output: 99}, "{% for m in [{'r': 'abcdefghij'}] * 20 %}{% set c = m.r %}{{ '<' + m.r + '|' + c }}{% endfor %}", "LimitError", "the output passed the limit of 99 bytes"},
		{"output of an item switch's steps, field", Limits{Output: 50}, "{% for m in [{'r': 'a', 'c': 'abcdefghij'}] * 20 %}{% if m.r == 'a' %} {{ m.c }}{{ '-' }}{% if 'c' in m %}{{ '<' + m.c }}{% endif %}{% endif %}{% endfor %}", "LimitError", "the output passed the limit of 50 bytes"},
		{"output of an item switch's steps, constant", Limits{Output: 57}, "{% for m in [{'r': 'a', 'c': 'abcdefghij'}] * 20 %}{% if m.r == 'a' %} {{ m.c }}{{ '-' }}{% if 'c' in m %}{{ '<' + m.c }}{% endif %}{% endif %}{% endfor %}", "LimitError", "the output passed the limit of 57 bytes"},
		{"output of an item switch's steps, chain", Limits{Output: 58}, "{% for m in [{'r': 'a', 'c': 'abcdefghij'}] * 20 %}{% if m.r == 'a' %} {{ m.c }}{{ '-' }}{% if 'c' in m %}{{ '<' + m.c }}{% endif %}{% endif %}{% endfor %}", "LimitError", "the output passed the limit of 58 bytes"},
		{"output of a captured body", Limits{Output: 10}, "{% set x %}{% for i in 'abcdefghijklmnop' %}{{ i }}{% endfor %}{% endset %}", "LimitError", "the output passed the limit of 10 bytes"},
		{"indent's width", Limits{Size: 1 << 20}, "{{ 'ab' | indent(10**10) }}", "LimitError", "a string or list of 10000000000 passes the size limit of 1048576"},
		{"a + chain's first sum", Limits{Size: 100}, "{% set s = 'x' * 60 %}{% set t = s + s + s %}", "LimitError", "a string or list of 120 passes the size limit of 100"},
		{"a + chain's last sum", Limits{Size: 100}, "{% set s = 'x' * 40 %}{% set t = s + s + s %}", "LimitError", "a string or list of 120 passes the size limit of 100"},
		{"slice's count", Limits{Size: 1 << 20}, "{{ [1, 2]|slice(9223372036854775807)|list }}", "LimitError", "a string or list of 9223372036854775807 passes the size limit of 1048576"},
		{"slice's count no limit", Limits{}, "{{ [1, 2]|slice(9223372036854775807)|list }}", "MemoryError", ""},
		{"batch's fill no limit", Limits{}, "{{ [1, 2]|batch(9223372036854775807, 'x')|list }}", "MemoryError", ""},
		{"iterations", Limits{Iterations: 30}, "{% for i in 'abcdefghij' %}{% for j in 'abcdefghij' %}{% endfor %}{% endfor %}", "LimitError", "the loops passed the limit of 30 iterations"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := New(WithLimits(tc.limits), WithLoader(func(string) (string, error) { return "{% include 'self' %}", nil }))
			tmpl, err := env.Parse("t", tc.src)
			require.NoError(t, err)
			_, err = tmpl.Render(context.Background(), nil)
			e := rtErr(t, err)
			assert.Equal(t, tc.kind, e.Kind)
			assert.Equal(t, tc.msg, e.Msg)
			assert.Equal(t, 1, e.Line, "%v", err)
		})
	}
}

// TestIterationsExact: the limit of iterations lets exactly that many
// loop iterations run, over several loops, at counts about the 64th that
// tick looks at the context at, and again in the next render of the same
// template (a pooled Ctx: tick's next count starts over).
func TestIterationsExact(t *testing.T) {
	for _, l := range []int{1, 2, 63, 64, 65, 127, 128, 129, 1000} {
		env := New(WithLimits(Limits{Iterations: l}))
		for _, split := range []int{0, l / 2, l} {
			tmpl, err := env.Parse("t", "{% for i in range(a) %}{% endfor %}{% for m in ms %}{{ m.k }}{% endfor %}")
			require.NoError(t, err)
			for _, n := range []int{l, l + 1, l, l + 1} {
				ms := make([]Value, n-split)
				for i := range ms {
					ms[i] = DictV(StrDict([]Value{StrV("k"), StrV("")}))
				}
				_, err := tmpl.Render(context.Background(), map[string]Value{"a": IntV(int64(split)), "ms": ListV(ms)})
				if n <= l {
					assert.NoError(t, err, "limit %d, %d+%d iterations", l, split, n-split)
					continue
				}
				e := rtErr(t, err)
				assert.Equal(t, "the loops passed the limit of "+istr(l)+" iterations", e.Msg, "limit %d, %d+%d iterations", l, split, n-split)
			}
		}
	}
}

// TestCancelledAt64: a context cancelled while the render runs is seen
// at the 64th iteration of its loops, in a render that follows one which
// ran past it on the same template (a pooled Ctx: tick's next count
// starts over).
func TestCancelledAt64(t *testing.T) {
	var cancel context.CancelFunc
	stop := FuncV(&Func{Name: "stop", Call: func(*Ctx, []Value, []Kwarg) (Value, error) {
		cancel()
		return StrV(""), nil
	}})
	tmpl, err := New(WithGlobal("stop", stop)).Parse("t", "{% for i in range(n) %}{% if i == 0 and c %}{{ stop() }}{% endif %}{% endfor %}")
	require.NoError(t, err)
	for _, n := range []int{100, 63, 64, 100, 64} {
		var ctx context.Context
		ctx, cancel = context.WithCancel(context.Background())
		_, err := tmpl.Render(ctx, map[string]Value{"n": IntV(int64(n)), "c": BoolV(n != 100)})
		if n < 64 {
			assert.NoError(t, err, "%d iterations", n)
			continue
		}
		if n == 100 {
			assert.NoError(t, err, "%d iterations, not cancelled", n)
			continue
		}
		e := rtErr(t, err)
		assert.Equal(t, "the render was cancelled: context canceled", e.Msg, "%d iterations", n)
		cancel()
	}
	cancel()
}

func TestRenderCancelled(t *testing.T) {
	tmpl, err := New().Parse("t", "{% for i in x %}{% for j in x %}{% for k in x %}{% endfor %}{% endfor %}{% endfor %}")
	require.NoError(t, err)
	items := make([]Value, 2000)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = tmpl.Render(ctx, map[string]Value{"x": ListV(items)})
	e := rtErr(t, err)
	assert.Equal(t, "LimitError", e.Kind)
	assert.True(t, errors.Is(err, context.DeadlineExceeded))
	assert.Less(t, time.Since(start), 10*time.Second) // a loop nobody stops runs for hours
}

func TestGrow(t *testing.T) {
	c := newCtx(context.Background(), New(WithLimits(Limits{Size: 10})))
	require.NoError(t, c.Grow(10))
	e := rtErr(t, c.Grow(11))
	assert.Equal(t, "LimitError", e.Kind)
	assert.Equal(t, "a string or list of 11 passes the size limit of 10", e.Msg)
}

// TestSelfBlockRecursion: a block calling itself through self is a
// RecursionError, as in Jinja2, not a stack that grows until the process
// dies.
func TestSelfBlockRecursion(t *testing.T) {
	for _, src := range []string{
		`{% block a %}{{ self.a() }}{% endblock %}`,
		`{% block a %}{{ self.a() ~ 'x' }}{% endblock %}`,
	} {
		tpl, err := New().Parse("t", src)
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_, err = tpl.Render(ctx, nil)
		cancel()
		var je *Error
		require.ErrorAs(t, err, &je, src)
		assert.Equal(t, "RecursionError", je.Kind, src)
	}
}
