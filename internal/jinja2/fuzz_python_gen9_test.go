package jinja2

import "strings"

// The generator's ninth widening (docs/FUZZING.md, issue 23's eighth
// round): statements nested in macros and call blocks; loops with else,
// recursion, loop.cycle and loop.changed together; every filter with
// keyword arguments, unknown keywords and the wrong number of arguments;
// str methods with odd arguments (maxsplit, nested replacement fields,
// fill characters, tab sizes, keepends, tuples of prefixes); and the edge
// values of int and float through round, format and filesizeformat.

// fuzzEdgeNums9 are ints and floats at the edges of Python's formatting.
var fuzzEdgeNums9 = []string{"0", "-0.0", "1", "-1", "999", "1000", "1023", "1024", "1025", "999.5", "1e3", "1e21", "1e-7", "0.5", "-0.5", "2.5",
	"9223372036854775807", "-9223372036854775808", "18446744073709551616", "10 ** 30", "-(10 ** 30)", "1e300 * 1e10", "-(1e300 * 1e10)",
	"(1e300 * 1e10) - (1e300 * 1e10)", "true", "false", "'1024'", "none", "1099511627776", "1125899906842624", "1152921504606846976", "5e-324",
	"1.7976931348623157e308", "123456.789", "-1234567", "0.045", "1.005"}

// fuzzFilterArities9 are the filters with the keywords they take, for
// calls with keywords, unknown keywords and too many arguments.
var fuzzFilterArities9 = [][]string{
	{"round", "precision", "method"}, {"filesizeformat", "binary"}, {"int", "default", "base"}, {"float", "default"},
	{"truncate", "length", "killwords", "end", "leeway"}, {"wordwrap", "width", "break_long_words", "wrapstring", "break_on_hyphens"},
	{"indent", "width", "first", "blank"}, {"center", "width"}, {"join", "d", "attribute"}, {"sort", "reverse", "case_sensitive", "attribute"},
	{"unique", "case_sensitive", "attribute"}, {"min", "case_sensitive", "attribute"}, {"max", "case_sensitive", "attribute"},
	{"sum", "attribute", "start"}, {"batch", "linecount", "fill_with"}, {"slice", "slices", "fill_with"}, {"default", "default_value", "boolean"},
	{"dictsort", "case_sensitive", "by", "reverse"}, {"groupby", "attribute", "default", "case_sensitive"}, {"replace", "old", "new", "count"},
	{"tojson", "indent"}, {"urlize", "trim_url_limit", "nofollow", "target", "rel", "extra_schemes"}, {"xmlattr", "autospace"},
	{"truncate"}, {"list"}, {"first"}, {"length"}, {"string"}, {"trim", "chars"}, {"striptags"}, {"title"}, {"capitalize"}, {"upper"},
	{"pprint"}, {"reverse"}, {"wordcount"}, {"abs"}, {"attr", "name"}, {"map"}, {"select"}, {"selectattr"}, {"format"},
	{"items"}, {"escape"}, {"forceescape"}, {"safe"}, {"urlencode"}, {"last"}, {"count"}, {"lower"},
}

// exprNinth is one of the expressions of the ninth widening.
func (g *fuzzGen) exprNinth() string {
	switch g.n(6) {
	case 0, 1:
		return g.filterArity9()
	case 2, 3:
		return g.strMethod9()
	default:
		return g.edgeNumber9()
	}
}

// filterArity9 is a filter with keyword arguments, an unknown keyword, a
// keyword given twice or positionally too, or too many arguments.
func (g *fuzzGen) filterArity9() string {
	f := fuzzFilterArities9[g.n(len(fuzzFilterArities9))]
	v := g.pick("[3, 1, 2]", "'a b c'", "{'b': 1, 'a': 2}", "1234.5", "-3", "[{'a': 2}, {'a': 1}]", "none", "nothere", "'<a>'", "x", "d", "s", "items",
		"range(3)", "[[1, 2], [3]]", "('x'|safe)", "18446744073709551617", "-0.0")
	arg := func() string {
		return g.pick("0", "1", "2", "-1", "true", "false", "none", "'a'", "''", "'x y'", "1.5", "[1]", "18446744073709551617", "nothere", g.expr())
	}
	var args []string
	switch g.n(6) {
	case 0:
		// too many positional arguments
		for i, k := 0, len(f)+g.n(3); i < k; i++ {
			args = append(args, arg())
		}
	case 1:
		// an unknown keyword
		args = append(args, g.pick("x", "value", "self", "s", "eval_ctx", "environment", "caller", "kwargs")+"="+arg())
	case 2:
		// a keyword given positionally too
		if len(f) > 1 {
			args = append(args, arg(), f[1]+"="+arg())
		} else {
			args = append(args, "*[1, 2]")
		}
	case 3:
		// *args and **kwargs
		args = append(args, g.pick("*[]", "*[1]", "*'ab'", "*none", "**{}", "**{'x': 1}", "*nothere", "**nothere", "*[1], **{}"))
		if len(f) > 1 {
			args = append(args, "**{'"+f[1+g.n(len(f)-1)]+"': "+arg()+"}")
		}
	default:
		// the filter's own keywords, in any order, some twice
		for i := 1; i < len(f); i++ {
			if g.n(2) == 0 {
				args = append(args, f[i]+"="+arg())
			}
		}
		if len(f) > 1 && g.n(4) == 0 {
			args = append(args, f[1]+"="+arg())
		}
	}
	out := v + "|" + f[0]
	if len(args) > 0 || g.n(2) == 0 {
		out += "(" + strings.Join(args, ", ") + ")"
	}
	return "(" + out + ")" + g.pick("", "", "|string", "|list", "|length")
}

// strMethod9 is a str method with the arguments the eighth widening left
// out: maxsplit as a keyword and with None separators, nested replacement
// fields, fill characters, tab sizes, keepends and tuples of prefixes.
func (g *fuzzGen) strMethod9() string {
	s := g.pick(`'a b  c'`, `' a,b, c '`, `'x\ty\tzz\t'`, `'l1\nl2\r\nl3\rl4\x0bl5\x1cl6\u2028'`, `'aXbXc'`, `''`, `'ab'`, `'12'`, `'\t'`, `'a\u00a0b'`,
		`'{}'`, "s", "x", `('a b'|safe)`)
	num := func() string {
		return g.pick("-1", "0", "1", "2", "3", "8", "-100", "100", "true", "none", "1.0", "'2'", "9223372036854775807", "-9223372036854775809", "n")
	}
	switch g.n(9) {
	case 0:
		return s + "." + g.pick("split", "rsplit") + "(" + g.pick("maxsplit="+num(), "none, "+num(), "sep=none, maxsplit="+num(), "' ', "+num(), "'X', maxsplit="+num(),
			"maxsplit="+num()+", sep='X'", "sep='', maxsplit=1", "'b', 1, 2", "x=1", "' ', sep=' '") + ")"
	case 1:
		return s + "." + g.pick("partition", "rpartition") + "(" + g.pick("' '", "'X'", "''", "none", "'ab'", "('a',)", "maxsplit=1", "' ', 1", "", "'a'|safe") + ")"
	case 2:
		// nested replacement fields and their specs
		spec := g.pick("{0:{1}}", "{:{}}", "{0:{1}.{2}}", "{:>{w}}", "{x:{y}{z}}", "{0[0]:{1}}", "{0!r:^{1}}", "{:{}{}{}}", "{0:{0}}", "{:{:{}}}", "{a.real:{b}}",
			"{0:{1}d}", "{0:.{1}f}", "{:0{}}", "{:{fill}<5}", "{{{0}}}", "{{}}", "{!s:{}}", "{0.__class__}", "{[a]:{}}", "{:{}}{}", "{0:{1}}{2}", "{:{w}.{p}}")
		return "'" + spec + "'.format(" + g.pick("3.14159, 8, 2", "'ab', '>6'", "12, 'x'", "1, 2, 3", "'q', w=5, p=2, x=1, y='>', z=4, fill='*'", "[7], 4",
			"{'a': 1}, 'b'", "-5, '+'", "1e6, ',', 3", "'abc', '^'", "a=1.5, b='x'", "n, n, n", g.expr()+", "+g.expr()) + ")"
	case 3:
		return s + "." + g.pick("center", "ljust", "rjust") + "(" + num() + ", " + g.pick("'*'", "'ab'", "''", "'😀'", "' '", "none", "1", "'\t'", "('x'|safe)", "fillchar='-'") + ")"
	case 4:
		return s + ".expandtabs(" + g.pick("", num(), "tabsize="+num(), "tabsize=1, x=1") + ")" + g.pick("", "|length", "|list")
	case 5:
		return s + ".splitlines(" + g.pick("", "true", "false", "keepends=true", "keepends=false", "1", "0", "none", "'x'", "true, 1", "keepends=none") + ")"
	case 6:
		return s + "." + g.pick("startswith", "endswith") + "(" + g.pick("('a', 'x')", "()", "('',)", "('a', 1)", "(('a',),)", "['a']", "('b', 'c'), 1",
			"('a', ' a'), "+num()+", "+num(), "('a',), none, "+num(), "'', "+num(), "('l1', 'aX'), -100") + ")"
	case 7:
		return s + "." + g.pick("zfill", "removeprefix", "removesuffix", "count", "find") + "(" + g.pick(num(), "'a'", "''", "'a', "+num(), "'', "+num()+", "+num()) + ")"
	default:
		return s + "|" + g.pick("center", "indent", "truncate", "wordwrap") + "(" + num() + g.pick("", ", true", ", 'x'", ", none") + ")"
	}
}

// edgeNumber9 is an int or float at an edge, through round, format,
// filesizeformat and the conversions.
func (g *fuzzGen) edgeNumber9() string {
	v := g.pick(fuzzEdgeNums9...)
	switch g.n(6) {
	case 0:
		return "(" + v + ")|filesizeformat" + g.pick("", "(true)", "(false)", "(binary=true)", "(1)", "(none)", "(true, 1)")
	case 1:
		return "(" + v + ")|round" + g.pick("", "(0)", "(1)", "(2)", "(-1)", "(-3)", "(15)", "(1, 'floor')", "(0, 'ceil')", "(precision=2)", "(method='floor')",
			"(1, 'nope')", "(-1, 'ceil')") + g.pick("", "", "|int", "|string", "|tojson")
	case 2:
		return g.pick("'%d'", "'%.2f'", "'%s'", "'%e'", "'%g'", "'%x'", "'%o'", "'%5.1f%%'", "'%+d'", "'%r'", "'%c'", "'%.0f'", "'%i'", "'%X'", "'%#o'", "'%.3s'") +
			"|format(" + v + ")"
	case 3:
		return "'{" + g.pick(":,", ":_", ":.2f", ":e", ":g", ":%", ":x", ":b", ":,d", ":n", ":>10", ":010.3f", ":.0f", ":c", ":#x", ":+.1e", "", "!r", ":=+8", ":.3g") +
			"}'.format(" + v + ")"
	case 4:
		return "(" + v + ")|" + g.pick("int", "float", "abs", "string", "int(base=16)", "float(default=1)", "int(7)", "round|int", "tojson", "pprint")
	default:
		return "[" + v + ", " + g.pick(fuzzEdgeNums9...) + "]|" + g.pick("sum", "max", "min", "sort|list", "unique|list", "map('round')|list",
			"map('filesizeformat')|list", "map('int')|list", "join(',')")
	}
}

// stmtNinth is one of the statements of the ninth widening.
func (g *fuzzGen) stmtNinth(depth int, body, buffered func() string) string {
	e := g.expr
	switch g.n(5) {
	case 0:
		// statements nested in a macro's body, called and called with a caller
		inner := g.pick(
			"{% for i in a %}{{ loop.index }}{{ i }}{% if loop.last %}.{% endif %}{% else %}-{% endfor %}",
			"{% if a is string %}s{% elif a is mapping %}m{% elif a %}t{% else %}f{% endif %}",
			"{% set y = a %}{% with z = y %}{{ z }}{% endwith %}{{ y }}",
			"{% filter upper %}{{ a }}{{ caller() if caller }}{% endfilter %}",
			"{% set ns = namespace(c=0) %}{% for i in a %}{% set ns.c = ns.c + 1 %}{% endfor %}{{ ns.c }}",
			"{% for i in a recursive %}{{ loop.cycle('<', '>') }}{% if i is iterable and i is not string %}{{ loop(i) }}{% endif %}{% endfor %}",
			"{% set b %}{{ a }}{% endset %}{{ b|length }}",
			"{{ caller(a) if caller else a }}")
		return "{% macro m(a=" + g.pick("[1, 2]", "'ab'", "none", "{}", e()) + ") %}" + inner + body() + "{% endmacro %}" +
			g.pick("{{ m() }}", "{{ m("+e()+") }}", "{% call m([1, [2, 3]]) %}c{% endcall %}", "{% call(q) m("+e()+") %}<{{ q }}>{% endcall %}",
				"{{ m(a=[]) }}{{ m(*[[3]]) }}", "{{ m|string }}{{ m.arguments }}")
	case 1:
		// statements nested in a call block's body
		inner := g.pick(
			"{% for i in [1, 2] %}{{ i }}{{ loop.changed(i) }}{% endfor %}",
			"{% if v is defined %}{{ v }}{% else %}u{% endif %}",
			"{% set w = 3 %}{{ w }}",
			"{% macro k() %}K{% endmacro %}{{ k() }}",
			"{% for i in v %}{{ i }}{% else %}e{% endfor %}",
			"{% filter trim %} {{ v }} {% endfilter %}")
		return "{% macro m(x) %}[{{ caller(" + g.pick("x", "1", "") + ") }}]{% endmacro %}{% call(v) m(" + g.pick("[1]", "'s'", "none", e()) + ") %}" +
			inner + buffered() + "{% endcall %}"
	case 2:
		// a loop with a condition, else, recursion, cycle and changed together
		return "{% for x in " + g.pick("[[1, 2], [], 3, [4, [5]]]", "[1, 1, 2, 3, 3]", "[]", "d", "items", "range(4)", e()) +
			g.pick("", " if x", " if x is number", " if loop is undefined", " if not x") + g.pick("", " recursive") + " %}" +
			g.pick("{{ loop.cycle('a', 'b') }}", "{{ loop.changed(x) }}", "{{ loop.index }}/{{ loop.length }}", "{{ loop.previtem }}|{{ loop.nextitem }}",
				"{{ loop.cycle(*x) if x is iterable else x }}", "{{ loop.changed(x, loop.depth) }}{{ loop.depth }}") +
			g.pick("", "{% if x is iterable and x is not string and x is not mapping %}({{ loop(x) }}){% endif %}", "{% if loop.index > 2 %}{% break %}{% endif %}",
				"{% if x %}{% continue %}{% endif %}!") +
			"{% else %}" + g.pick("E", "{{ x }}", "{{ loop is defined }}", "{% for y in [1] %}{{ y }}{% endfor %}") + "{% endfor %}"
	case 3:
		// loop.changed and cycle inside a macro called in a loop
		return "{% macro m(v) %}" + g.pick("{{ v }}", "{{ caller() }}", "{% for q in [v, v] %}{{ loop.changed(q) }}{% endfor %}") + "{% endmacro %}" +
			"{% for x in " + g.pick("[1, 1, 2]", e()) + " %}{{ loop.changed(x) }}{{ loop.cycle(1, 2) }}" +
			g.pick("{{ m(x) }}", "{% call m(x) %}{{ loop.index }}{% endcall %}", "{{ m(loop) }}", "{{ m(loop.cycle) }}") + "{% endfor %}"
	default:
		// a macro calling itself, with varargs and kwargs
		return "{% macro r(n) %}{{ n }}{% if n is number and n > 0 and n < 5 %}{{ r(n - 1, *varargs, **kwargs) }}{% endif %}{{ varargs|length }}{{ kwargs|length }}{% endmacro %}" +
			"{{ r(" + g.pick("3", "0", "'a'", "3, 1, 2", "2, k=1", "none", e()) + ") }}"
	}
}
