package jinja2

// The generator's tenth widening (docs/FUZZING.md, issue 23's ninth
// round): calls with *args and **kwargs of every kind of value, a keyword
// given by name and by **; the tests' arguments; str.format's malformed
// and nested fields; the methods of int and float; dict and list methods
// with odd arguments; wordwrap and the other width filters with float
// and bool widths; call and filter blocks whose value is no str among
// other output.

// exprTenth is one of the expressions of the tenth widening.
func (g *fuzzGen) exprTenth() string {
	switch g.n(7) {
	case 0:
		return g.starCall10()
	case 1:
		return g.testArgs10()
	case 2:
		return g.formatField10()
	case 3:
		return g.numberMethod10()
	case 4:
		return g.collMethod10()
	case 5:
		return g.widthFilter10()
	default:
		return g.pick(g.starCall10(), g.formatField10(), g.numberMethod10())
	}
}

// starCall10 is a call, filter, test or method with *args or **kwargs of
// any value, or a keyword named both ways.
func (g *fuzzGen) starCall10() string {
	star := g.pick("1", "none", "1.5", "'ab'", "[1, 2]", "(3,)", "{'a': 1}", "nothere", "range(2)", "[1]|map('abs')", "x", "d", "cycler(1)", "true", g.expr())
	dstar := g.pick("1", "none", "[1]", "'a'", "{}", "{'a': 1}", "{1: 2}", "{'width': 3}", "{'default_value': 2}", "nothere", "d", "namespace(a=1)", "{'caller': 1}", g.expr())
	args := g.pick("*"+star, "**"+dstar, "*"+star+", **"+dstar, "1, *"+star, "a=1, **"+dstar, "width=2, **"+dstar, "default_value=0, **"+dstar)
	switch g.n(8) {
	case 0:
		return g.pick("dict", "range", "cycler", "joiner", "namespace", "lipsum|string|length if false else dict") + "(" + args + ")"
	case 1:
		return "'ab'." + g.pick("split", "upper", "center", "format", "replace", "join") + "(" + args + ")"
	case 2:
		return g.pick("'ab'", "[3, 1]", "-2", "x", "none", "1.5") + "|" + g.pick("center", "default", "abs", "length", "e", "string", "map", "select", "join", "sum", "round", "tojson", "int", "batch(1)|list|first") + "(" + args + ")"
	case 3:
		return g.pick("1", "'a'", "x", "none") + " is " + g.pick("in", "eq", "defined", "divisibleby", "sameas", "odd", "callable", "string", "lt") + "(" + args + ")"
	case 4:
		return "{'a': 1}." + g.pick("get", "items", "pop", "update", "setdefault") + "(" + args + ")"
	case 5:
		return g.pick("x", "d", "none", "nothere", "1") + "(" + args + ")"
	case 6:
		// a filter folded at compile time or not, keyword named both ways
		return g.pick("'a'", "x", "1.5", "[1]") + "|" + g.pick("center(width=4, **{'width': 6})", "default(default_value=1, **{'default_value': 2})",
			"round(precision=1, **{'precision': 0})", "join(d='-', **{'d': '+'})", "trim(chars='a', **{'chars': 'b'})") + g.pick("", "|string", "|length")
	default:
		return "[" + g.pick("1", "'a'", "none") + "]|map(" + g.pick("'center', *[4]", "'center', **{'width': 4}", "*'ab'", "**{'attribute': 'x'}", "'string', *1") + ")|list"
	}
}

// testArgs10 is a test with too many, too few or keyword arguments.
func (g *fuzzGen) testArgs10() string {
	t := g.pick("in", "eq", "ne", "lt", "ge", "equalto", "greaterthan", "==", "divisibleby", "sameas", "odd", "even", "defined", "none", "callable",
		"string", "number", "escaped", "filter", "test", "upper", "mapping", "iterable")
	v := g.pick("1", "'a'", "[1]", "none", "x", "nothere", "1.5")
	a := func() string { return g.pick("1", "[1]", "'a'", "none", "2", "x") }
	args := g.pick("", "()", "("+a()+")", "("+a()+", "+a()+")", "(x=1)", "("+a()+", x=1)", "(seq=[1])", "(other=1)", "(num=2)", "("+a()+", "+a()+", y=2)", "("+a()+", other=1)")
	return v + " is " + g.pick("", "not ") + t + args
}

// formatField10 is str.format, format_map or Markup's format with a field
// malformed or nested.
func (g *fuzzGen) formatField10() string {
	f := g.pick("{0!}", "{0[}", "{0!}x", "{0!", "{0!r", "{0!rx}", "{0!r:", "{0!é}", "{0!\\x01}", "{0!:}", "{0:{}", "{0[{]}", "{0[}]}", "{{0}", "{0}}", "{0{}",
		"{", "}", "x{0", "{0:", "{0:}}", "{0!s:>{1}}", "{:{:{:}}}", "{0.}", "{0..a}", "{0[]}", "{0]}", "{0[0]x}", "{!r}", "{:}", "{0!s!r}", "{[0]}",
		"{.real}", "{0:{1!r}}", "{0!R}", "{0:{1:{2}}}", "ab{1}{0!", "{0.imag!r:>{1}}", "{a}", "{a[b]}", "{0[a]}", "{0:{a}}", "{:{}}{}")
	args := g.pick("1, 2, 3", "'ab', '>6', 3", "[1, 2], {'a': 1}", "{'}': 1, '{': 2}", "a=1, b=2", "1.5, 8", "x, d", g.expr())
	switch g.n(4) {
	case 0:
		return "'" + f + "'.format(" + args + ")"
	case 1:
		return "'" + f + "'.format_map(" + g.pick("{'a': 1}", "{'a': {'b': 2}}", "d", "x", "{}") + ")"
	case 2:
		return "('" + f + "'|safe).format(" + args + ")"
	default:
		return "'" + f + "'|format(" + args + ")"
	}
}

// numberMethod10 is a method or attribute of an int or float.
func (g *fuzzGen) numberMethod10() string {
	v := g.pick("1.5", "0.1", "-0.0", "0.0", "5e-324", "1e300", "(1e300 * 1e10)", "(-(1e300 * 1e10))", "((1e300 * 1e10) - (1e300 * 1e10))", "2.0", "123.456",
		"3", "-7", "0", "true", "(2 ** 100)", "(-(2 ** 70))", "1.7976931348623157e308", "2.2250738585072014e-308", "1e-310")
	return "(" + v + ")." + g.pick("hex()", "as_integer_ratio()", "is_integer()", "bit_count()", "bit_length()", "conjugate()", "real", "imag", "numerator",
		"denominator", "fromhex("+g.pick("'0x1.8p1'", "' 0X1P-2 '", "'inf'", "'-nan'", "'1'", "'0x1_0p0'", "'0x.p1'", "''", "'0x1p'", "'0x1.fffffffffffff8p1023'",
			"'0x1p-1075'", "'ff.8'", "1", "'1', 2")+")", "hex", "hex(1)", "as_integer_ratio(1)", "bit_count(1)", "fromhex", "hex()|float if false", "as_integer_ratio()|sum")
}

// collMethod10 is a dict or list method with odd arguments.
func (g *fuzzGen) collMethod10() string {
	l := g.pick("[1, 2, 1, 3]", "[]", "['a', 'b']", "(1, 2, 1)", "x", "items")
	d := g.pick("{'a': 1}", "{}", "{1: 'x', 'b': none}", "d")
	n := func() string {
		return g.pick("0", "1", "-1", "5", "-100", "100", "'a'", "none", "1.0", "true", "18446744073709551617")
	}
	switch g.n(4) {
	case 0:
		return l + "." + g.pick("index(1, "+n()+")", "index(1, "+n()+", "+n()+")", "index(9)", "count(1)", "count()", "index()", "pop("+n()+")", "pop()",
			"insert("+n()+", 7)", "remove(9)", "extend("+g.pick("1", "'ab'", "none", "[1]")+")", "copy()", "sort(1)", "sort(key=none)")
	case 1:
		return d + "." + g.pick("pop('a', "+n()+")", "pop('z')", "pop()", "pop(1, 2, 3)", "setdefault('z', "+n()+")", "setdefault()", "setdefault([1])",
			"get()", "get('a', 1, 2)", "update(b=2)", "update(1)", "update([1])", "update([(1, 2, 3)])", "update([('c', 3)], d=4)", "popitem()", "fromkeys('ab', 0)",
			"copy()", "items()|list")
	case 2:
		return "'abcabc'." + g.pick("index", "rindex", "count", "find", "rfind", "startswith", "endswith") + "(" + g.pick("'b'", "''", "'z'", "('a', 'c')") + ", " +
			n() + g.pick("", ", "+n()) + ")"
	default:
		return "[" + l + ", " + d + "]|map(attribute=" + g.pick("'pop'", "'0'", "'items'", "'index'") + ")|list|length"
	}
}

// widthFilter10 is a filter of a width, a count or a length given a float,
// a bool or a huge int.
func (g *fuzzGen) widthFilter10() string {
	w := g.pick("5.5", "2.0", "0.5", "-1.5", "-0.0", "1e300", "true", "false", "2 ** 70", "0", "-1", "'5'", "none", "3.5")
	s := g.pick("'aaa bbb ccc'", "'aaaaaaaaa b-bbb ccc'", "'aa bb cc\\n\\ndd ee'", "''", "'a'", "x", "'abc\\tdef ghi'")
	return s + "|" + g.pick("wordwrap("+w+")", "wordwrap("+w+", false)", "wordwrap("+w+", break_on_hyphens=false)", "wordwrap(width="+w+", wrapstring='|')",
		"center("+w+")", "indent("+w+")", "truncate("+w+")", "truncate(5, leeway="+w+")", "filesizeformat", "replace('a', 'x', "+w+")", "urlize("+w+")")
}

// stmtTenth is one of the statements of the tenth widening: a call or
// filter block whose value is no str among other output, in the top
// level, a macro or a set block, after loops and includes.
func (g *fuzzGen) stmtTenth(depth int, body, buffered func() string) string {
	bad := g.pick("{% call dict() %}x{% endcall %}", "{% call namespace() %}x{% endcall %}", "{% filter list %}ab{% endfilter %}",
		"{% filter length %}abc{% endfilter %}", "{% filter batch(1) %}ab{% endfilter %}", "{% call cycler(1) %}x{% endcall %}", "{% filter upper %}x{% endfilter %}")
	before := g.pick("a", "{{ 1 }}", "a{{ 2 }}b", "{{ x }}", "{% for i in [1, 2] %}{{ i }}{% endfor %}", "{% if x %}t{% endif %}", "{{ x }}{{ x }}",
		"{% for i in [1, 2] %}{% endfor %}", "{% set q = 1 %}", "", "{% for i in [] %}{% else %}e{% endfor %}")
	after := g.pick("", "z", "{{ 1/0 }}", "{{ x }}")
	switch g.n(3) {
	case 0:
		return before + bad + after
	case 1:
		return "{% macro m() %}" + before + bad + after + "{% endmacro %}" + g.pick("{{ m() }}", "{% call m() %}c{% endcall %}", "[{{ m()|length }}]")
	default:
		return "{% set y %}" + before + bad + "{% endset %}" + g.pick("{{ y }}", "", "{{ y|length }}") + body()
	}
}
