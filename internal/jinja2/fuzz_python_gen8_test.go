package jinja2

import (
	"strconv"
)

// The generator's eighth widening (docs/FUZZING.md): what the seventh
// still drew narrowly. Str methods with unusual arguments (empty and
// multi-character separators, negative and huge counts and positions,
// tuples of prefixes, None bounds, fill characters of the wrong length),
// slices with steps over every kind of sequence, filters over dicts and
// Undefined values, nested macros and call blocks, loop.cycle, changed and
// depth in nested and recursive loops, whitespace control around every
// kind of tag, tests over odd values (inf, nan, -0.0, bool, Markup,
// Undefined, macros, the loop), and floats through %, str.format, format
// and round.

// Floats whose repr, rounding or formatting is a corner of Python's.
var fuzzFloats8 = []string{"0.5", "1.5", "2.5", "-2.5", "2.675", "0.125", "0.375", "1e16", "1e15", "1e-5", "1e-4", "123456789.125", "5e-324",
	"1.7976931348623157e308", "-0.0", "0.1", "0.3", "1e22", "9.999999999999999e22", "1234.5", "0.045", "99.995", "1e300 * 1e10", "-(1e300 * 1e10)",
	"(1e300 * 1e10) - (1e300 * 1e10)", "0.1 + 0.2", "1 / 3", "2 ** 0.5", "10 / 4", "7 // 2.0", "-7 % 2.5", "2 ** -1", "1e308 + 1e308"}

// exprEighth is one of the expressions of the eighth widening.
func (g *fuzzGen) exprEighth() string {
	e := g.expr
	switch g.n(10) {
	case 9:
		return g.objects8()
	case 0:
		return g.strMethod8()
	case 1:
		return g.slice8()
	case 2:
		return g.dictUndefFilter8()
	case 3:
		return g.oddTest8()
	case 4, 5:
		return g.floatFormat8()
	case 6:
		// arithmetic on the odd numbers, printed
		return "(" + g.pick(fuzzFloats8...) + " " + g.pick("+", "-", "*", "/", "//", "%", "**", "==", "<", "~") + " " +
			g.pick(append([]string{"0", "-0.0", "1", "-1", "3", "0.5", "18446744073709551617", e()}, fuzzFloats8[:8]...)...) + ")" +
			g.pick("", "|string", "|round", "|int", "|abs", "|float", "|round(1)", "|tojson")
	case 7:
		// bool and None as numbers and indexes
		return g.pick("true + 1", "true * 'ab'", "[1, 2][true]", "'abc'[false:true]", "true // 2", "-true", "true ** -1", "none + 1", "true|abs", "false|round",
			"1 == true", "(1, true)|unique|list", "{true: 1, 1: 2}|length", "true|string|length", "[true, 1, 1.0]|sum", "true is integer", "1.0 is integer",
			"true|int", "true|float", "'%d' % true", "'{:d}'.format(true)", "'%s' % (true,)", "'{}'.format(false)", "true|format", "[true]|join",
			"true in [1]", "1.0 in [true]", "{1: 'a'}[true]", "range(true, 3)|list", "'ab' * true")
	default:
		// a dict's or an Undefined's attributes and methods
		v := g.pick("d", "{'a': 1, 'b': [2]}", "{}", "nothere", "undefined_name.x", "{1: 2}", g.name(), "self.b", "self.c", "self",
			"([[1, 2]]|groupby(0)|first)", "x.__class__", "(1).__class__")
		return v + "." + g.pick("items()|list", "keys()|list", "values()|list", "get('a', "+e()+")", "get("+e()+")", "copy()", "a", "items", "keys",
			"__len__", "__contains__('a')", "setdefault('a')", "pop('zz', "+e()+")", "popitem", "update", "name", "super", "__name__", "__module__",
			"__qualname__", "__class__.__name__", "__class__", "x.y") + g.pick("", "|length", "|string", "|list")
	}
}

// strMethod8 is a str method with unusual arguments.
func (g *fuzzGen) strMethod8() string {
	e := g.expr
	s := g.pick(`'a,b,,c'`, `'  a b  '`, `'abcabc'`, `''`, `'a\tb'`, `'ΣΑΣ'`, `'x'`, `'a\nb\r\nc\rd'`, `'1,2;3'`, `'aaa'`, `'💩💩'`, "s", "x", `'ß'`, `'A1b2'`)
	n := func() string {
		return g.pick("0", "-1", "1", "2", "-5", "100", "9223372036854775807", "-9223372036854775808", "18446744073709551617", "none", "true", "1.0", "'1'", e())
	}
	str := func() string {
		return g.pick(`''`, `','`, `'a'`, `'ab'`, `' '`, `'bc'`, `'\n'`, `'Σ'`, "none", "1", "['a']", "('a', 'b')", "()", "('a', 1)", e())
	}
	var m string
	switch g.n(12) {
	case 0:
		m = g.pick("split", "rsplit") + "(" + g.pick(str(), str()+", "+n(), "maxsplit="+n(), "sep="+str()+", maxsplit="+n(), "none, "+n()) + ")"
	case 1:
		m = g.pick("center", "ljust", "rjust") + "(" + n() + g.pick("", ", "+str(), ", 'xy'", ", ''", ", '😀'", ", fillchar='-'") + ")"
	case 2:
		m = g.pick("find", "rfind", "index", "rindex", "count") + "(" + str() + g.pick("", ", "+n(), ", "+n()+", "+n(), ", none, "+n()) + ")"
	case 3:
		m = g.pick("startswith", "endswith") + "(" + str() + g.pick("", ", "+n(), ", "+n()+", "+n()) + ")"
	case 4:
		m = "replace(" + str() + ", " + str() + g.pick("", ", "+n(), ", count="+n()) + ")"
	case 5:
		m = g.pick("strip", "lstrip", "rstrip") + "(" + g.pick("", "none", str()) + ")"
	case 6:
		m = g.pick("partition", "rpartition", "removeprefix", "removesuffix") + "(" + str() + ")"
	case 7:
		m = g.pick("zfill", "expandtabs") + "(" + n() + ")"
	case 8:
		m = g.pick("splitlines", "splitlines") + "(" + g.pick("", "true", "false", "keepends=true", n()) + ")"
	case 9:
		m = "join(" + g.pick("'abc'", "['a', 'b']", "[1]", "('x',)", "{'k': 1}", "[]", "range(3)|map('string')", "x", e()) + ")"
	case 10:
		m = g.pick("encode", "encode") + "(" + g.pick("", "'ascii'", "'utf-8'", "'latin-1'", "'ascii', 'ignore'", "'ascii', 'replace'", "errors='strict'", "'nope'") + ")" +
			g.pick("", "|length", "[0]", ".decode()", "[::-1]")
	default:
		m = g.pick("upper", "lower", "title", "capitalize", "swapcase", "casefold", "isalnum", "isalpha", "isdigit", "isdecimal", "isnumeric",
			"islower", "isupper", "istitle", "isspace", "isascii", "isprintable", "isidentifier") + "(" + g.pick("", "", "1") + ")"
	}
	return s + "." + m + g.pick("", "", "|list", "|length", "|string", "|join('/')")
}

// slice8 is a slice with a step over a sequence of any kind.
func (g *fuzzGen) slice8() string {
	bound := func() string {
		return g.pick("", "none", "0", "1", "-1", "2", "-3", "5", "-100", "100", "true", "9223372036854775807", "-9223372036854775809", "1.0", "'a'", "nothere", "2 - 1")
	}
	seq := g.pick("'abcdef'", "'😀é\u0301x'", "[1, 2, 3, 4, 5]", "(1, 'a', none)", "range(10)", "range(1, 20, 3)", "range(5, -5, -2)", "('<a>'|safe)", "''", "[]",
		"'abc'.encode()", "s", "items", "x", "nothere", "d", "{'a': 1}", "1", "1.5", "loop", "namespace(a=1)", "'ab' ~ 'cd'")
	sl := seq + "[" + bound() + ":" + bound() + ":" + g.pick("-1", "2", "-2", "3", "-3", "0", "none", "100", "-9223372036854775808", "9223372036854775807", "true", "false", "1.5", bound()) + "]"
	if g.n(3) == 0 {
		sl += "[" + bound() + "::" + g.pick("-1", "2") + "]"
	}
	return sl + g.pick("", "", "|list", "|length", "|join(',')", "|string", "|first", "|last", "|reverse|list", "|sum")
}

// dictUndefFilter8 is a filter over a dict, an Undefined or a value of
// another kind that filters rarely see.
func (g *fuzzGen) dictUndefFilter8() string {
	v := g.pick("{'b': 1, 'a': 2}", "{'x': [1], 'y': 'z', 3: none}", "{}", "d", "nothere", "undefined_name.a", "nothere[0]", "namespace(a=1)", "cycler(1, 2)", "joiner()",
		"range(4)", "'abc'.encode()", "(1, 2)", "('<a>'|safe)", "{'a': 1}.items()", "{'a': 1}.values()", "{'a': 1}.keys()", "loop", "none", "1e3", "-0.0", "18446744073709551617")
	return v + "|" + g.pick("first", "last", "list", "length", "count", "join", "join(',')", "sort", "sort(reverse=true)", "reverse|list", "unique|list", "min", "max", "sum",
		"map('upper')|list", "select|list", "reject|list", "selectattr('a')|list", "map(attribute='a')|list", "batch(2)|list", "slice(2)|list", "string", "tojson",
		"pprint", "items|list", "dictsort", "dictsort(by='value')", "groupby(0)|list", "wordcount", "center(10)", "trim", "title", "upper", "striptags", "urlencode",
		"xmlattr", "abs", "int", "float", "round", "default('D')", "default('D', true)", "d", "e", "safe", "list|length", "filesizeformat",
		"indent(2)", "truncate(3)", "wordwrap(3)", "replace('a', 'b')", "format", "capitalize", "lower", "attr('a')", "attr('items')", "sum(attribute='a')")
}

// oddTest8 is a test over an odd value.
func (g *fuzzGen) oddTest8() string {
	v := g.pick("(1e300 * 1e10)", "((1e300 * 1e10) - (1e300 * 1e10))", "-0.0", "true", "false", "none", "('<a>'|safe)", "nothere", "undefined_name.x", "range(3)",
		"{'a': 1}", "(1,)", "''", "'A'", "'ab1'", "'AB1'", "'a b'", "0", "-1", "1.0", "18446744073709551617", "dict", "cycler(1)", "namespace()", "joiner()",
		"'abc'.encode()", "[1]|map('string')", "{'a': 1}.keys()", "lipsum is defined", "caller", "loop", "loop.cycle", "x", "d", "s", "items")
	t := g.pick("number", "integer", "float", "string", "mapping", "sequence", "iterable", "callable", "defined", "undefined", "none", "boolean", "true", "false",
		"escaped", "lower", "upper", "odd", "even", "divisibleby(0)", "divisibleby(2)", "divisibleby(1.5)", "divisibleby(-0.0)", "divisibleby(18446744073709551617)",
		"divisibleby(true)", "sameas(1)", "sameas(true)", "sameas(0)", "eq(1.0)", "eq(true)", "ne(none)", "gt(none)", "lt('a')", "ge(-0.0)", "in('abc')", "in(nothere)",
		"in(none)", "in({'a': 1})", "in(range(3))", "filter", "test", "==(1.0)", "in [true]")
	return "(" + v + " is " + g.pick("", "", "not ") + t + ")"
}

// floatFormat8 is a float through %, str.format, format and round.
func (g *fuzzGen) floatFormat8() string {
	f := g.pick(fuzzFloats8...)
	if g.n(3) == 0 {
		f = g.pick(f, g.expr(), "x", "n", "b", "1", "-7", "18446744073709551617", "true", "'1.5'")
	}
	pspec := g.pick("%f", "%.0f", "%.1f", "%.2f", "%.15g", "%.16g", "%.17g", "%g", "%G", "%e", "%.0e", "%#.0f", "%#g", "%#.0e", "%+.3f", "% 08.2f", "%-9.3g|",
		"%10.4E", "%.30f", "%.3%", "%d", "%i", "%x", "%r", "%s", "%a", "%c", "%.100g", "%5s", "%.1s", "%*.*f", "%(a).2f", "%.2f%%", "%05.1f", "%-06e", "%+06g", "%06s")
	bspec := g.pick("", ".0f", ".1f", ".2f", ".3", ".15g", ".17g", "g", "G", "e", ".0e", "#.0f", "#g", "n", ".2n", "%", ".1%", ",.2f", "_.3f", "020.3f", "-^20.2e",
		"+", " ", "z.1f", ".0", ".1", "r", "d", "x", ".100f", "=+12.3", "010", "#.3", ".3s", "e<9", "0<8.1f", ",g", "f", "<08", "^+08", "=08", "<08.2f", "*<08", "#", "#10", "#,", "<08%")
	switch g.n(7) {
	case 0, 1:
		arg := f
		switch g.n(4) {
		case 0:
			arg = "(" + f + ",)"
		case 1:
			arg = "(" + f + ", " + g.pick(fuzzFloats8...) + ")"
		case 2:
			arg = "{'a': " + f + "}"
		}
		if pspec == "%*.*f" {
			arg = "(" + g.pick("9", "-9", "0", "3") + ", " + g.pick("2", "-1", "0", "20") + ", " + f + ")"
		}
		return "(" + strconv.Quote(pspec) + " % " + arg + ")"
	case 2, 3:
		return strconv.Quote("{"+g.pick("", "0", ":", "0:")+g.pick("", ":")+bspec+"}") + ".format(" + f + ")"
	case 4:
		return f + "|format" + g.pick("", "(1)") + g.pick("", "|length") + g.pick("", "") + "|string"
	case 5:
		return f + "|round(" + g.pick("", "0", "1", "2", "3", "-1", "-2", "-400", "400", "17", "18446744073709551617", "none", "true", "1.5") +
			g.pick("", ", 'floor'", ", 'ceil'", ", 'common'", ", method='floor'") + ")" + g.pick("", "|string", "|int", "|tojson")
	default:
		// the float printed and converted
		return "[" + f + ", " + g.pick(fuzzFloats8...) + "]" + g.pick("", "|string", "|tojson", "|join('/')", "|sum", "|max", "|map('int')|list", "|map('round', 1)|list",
			"|map('string')|list", "|pprint", "|unique|list", "|sort|first")
	}
}

// stmtEighth is one of the statements of the eighth widening.
func (g *fuzzGen) stmtEighth(depth int, body, buffered func() string) string {
	e := g.expr
	ws := func() string { return g.pick("", "-", "+") }
	sp := func() string { return g.pick("", " ", "\n", "\n  ", "  \n", "\t\n", " x \n", "\n\n") }
	switch g.n(8) {
	case 0:
		// a macro defined in a macro, called with a caller from a call block
		return "{% macro outer(a" + g.pick("", "=1", "=none") + ") %}{% macro inner(b) %}<{{ a }}|{{ b }}" + g.pick("", "|{{ caller() if caller }}", "|{{ varargs }}") +
			">{% endmacro %}" + g.pick("{{ inner(a ~ 1) }}", "{{ inner(caller()) }}", "{% call inner(2) %}[{{ a }}]{% endcall %}", "{{ inner(*[a, 2]) }}", "{{ inner.name }}") +
			"{% endmacro %}" + g.pick("{{ outer("+e()+") }}", "{% call outer("+e()+") %}c{{ "+g.pick("1", "x", "loop is defined")+" }}{% endcall %}", "{{ outer() }}",
			"{% call outer() %}{% call outer(2) %}in{% endcall %}{% endcall %}")
	case 1:
		// call blocks nested, callers with arguments, a caller read inside a loop
		return "{% macro m(n) %}{% for i in range([n|int(2), 5]|min if n is not string else 2) %}{{ caller(i, loop.index) }}{% endfor %}{% endmacro %}" +
			"{% call(i, j) m(" + g.pick("2", "0", "-1", "'3'", "none", e()) + ") %}{{ i }}.{{ j }}" +
			g.pick("", "{% call(k, l) m(1) %}<{{ i ~ k }}>{% endcall %}", "{{ caller is defined }}", "{% if i %}{{ i * j }}{% endif %}") + ";{% endcall %}"
	case 7:
		// loop(...) with every kind of argument, and loop.cycle with keywords
		return "{% for x in " + g.pick("[[1, [2]], 3]", e()) + g.pick(" recursive", " recursive", "") + " %}<{{ x }}" +
			g.pick("{% if x is iterable %}{{ loop(iterable=x) }}{% endif %}", "{{ loop("+g.pick("", "x, 1", "x=1", "[], iterable=[]", "iterable=[], y=1")+") }}",
				"{{ loop.cycle(x, y=1) }}", "{{ loop.cycle(*x) }}", "{{ loop.changed(x, k=1) }}", "{{ loop.__len__() }}", "{{ loop.__call__ }}") + ">{% endfor %}"
	case 2:
		// loop.cycle, changed and depth in nested and recursive loops
		return "{% for x in " + g.pick("[[1, 1], [2, [3, 3]], 4]", "[1, 1, 2, 2, 1]", "d", "items", e()) + " recursive %}" +
			g.pick("{{ loop.cycle('a', 'b', 'c') }}", "{{ loop.cycle(*[x, 'y']) }}", "{{ loop.cycle() }}", "{{ loop.changed(x) }}", "{{ loop.changed(x, loop.depth) }}",
				"{{ loop.changed() }}", "{{ loop.depth }}/{{ loop.depth0 }}", "{{ loop.changed(x is iterable) }}{{ loop.changed(x is iterable) }}") +
			"{% if x is iterable and x is not string and x is not mapping %}(" + g.pick("{{ loop(x) }}", "{{ loop(x)|upper }}", "{{ loop(x)|length }}", "{% for y in x %}{{ loop.depth }}{{ loop.changed(y) }}{% endfor %}") +
			"){% endif %}" + g.pick("", "{{ loop.previtem }}", "{{ loop.nextitem is defined }}", "{{ loop.cycle(1) + loop.depth }}") + "{% endfor %}"
	case 3:
		// whitespace control on every kind of tag
		tag := g.pick("{%"+ws()+" for q in [1, 2] "+ws()+"%}"+sp()+"{{"+ws()+" q "+ws()+"}}"+sp()+"{%"+ws()+" endfor "+ws()+"%}",
			"{%"+ws()+" set t = 1 "+ws()+"%}",
			"{#"+ws()+" c "+ws()+"#}",
			"{%"+ws()+" raw "+ws()+"%}"+sp()+"{{ r }}"+sp()+"{%"+ws()+" endraw "+ws()+"%}",
			"{%"+ws()+" with "+ws()+"%}"+sp()+"w"+sp()+"{%"+ws()+" endwith "+ws()+"%}",
			"{%"+ws()+" macro mm() "+ws()+"%}"+sp()+"M"+sp()+"{%"+ws()+" endmacro "+ws()+"%}{{ mm() }}",
			"{%"+ws()+" filter upper "+ws()+"%}"+sp()+"f"+sp()+"{%"+ws()+" endfilter "+ws()+"%}",
			"{{"+ws()+" "+e()+" "+ws()+"}}")
		return sp() + tag + sp() + g.pick("", "{{- x -}}", "{%- if true -%}"+sp()+"{%- endif -%}", "{%+ if true +%}"+sp()+"{%+ endif +%}") + sp()
	case 4:
		// a set block in a loop, read after it, and a caller stored
		return "{% for x in " + g.pick("[1, 2]", e()) + " %}{% set v %}" + g.pick("{{ x }}", "{{ loop.index }}", "{{ loop.cycle('o', 'e') }}") + buffered() + "{% endset %}{{ v|trim }}{% endfor %}" +
			g.pick("", "{{ v is defined }}", "{{ x }}")
	case 5:
		// floats printed in every statement position
		return "{% set f = " + g.pick(fuzzFloats8...) + " %}{{ f }}|{{ f|round(" + g.pick("", "1", "-1", "2, 'floor'") + ") }}|{{ '%.3g'|format(f) }}|{{ f ~ '' }}|{{ [f] }}|{{ {'f': f} }}" +
			g.pick("", "{% for i in [f, -f] %}{{ i }};{% endfor %}", "{{ f|int }}", "{{ (f, f)|join }}", "{{ f * 3 }}", "{{ f // 1 }}{{ f % 1 }}")
	default:
		// a nested loop's else, break in the inner, loop variables of both
		return "{% for x in " + e() + " %}{% for y in " + g.pick("x", "[1, 2]", e()) + " %}{% if loop.index > 1 %}{% break %}{% endif %}{{ y }}" + body() +
			"{% else %}(e{{ loop.index if loop is defined }}){% endfor %}{{ loop.index }}{{ loop.changed(x) }}{% else %}E{% endfor %}"
	}
}

// objects8 is Jinja2's own objects and Python's dunder methods: a
// cycler's and a joiner's attributes and calls with arguments, self's
// blocks, a class's names, __str__ and __repr__ bound and unbound.
func (g *fuzzGen) objects8() string {
	e := g.expr
	arg := func() string { return g.pick("", "1", "x=1", e(), e()+", "+e()) }
	switch g.n(4) {
	case 0:
		return "cycler(" + g.pick("1, 2", e(), "") + ")." + g.pick("next("+arg()+")", "reset("+arg()+")", "next", "reset", "items", "pos", "current", "__next__", "__dict__")
	case 1:
		return "joiner(" + g.pick("", "'|'", e()) + ")" + g.pick("("+arg()+")", ".sep", ".used", ".__call__", ".__call__("+arg()+")", ".__weakref__")
	case 2:
		v := g.pick("1", "true", "none", "1.5", "18446744073709551617", "-0.0", "'a'", "('a'|safe)", "[1]", "{}", "range(2)", "nothere", "x", "(1,)")
		return g.pick(v+".__str__()", v+".__repr__()", v+".__str__", v+".__class__.__str__("+g.pick("", v, e(), v+", 1")+")",
			v+".__class__.__repr__("+g.pick("", v, e())+")", v+".__class__.__name__", v+".__class__.__module__", v+".__class__.__qualname__",
			v+".__str__.__class__.__name__", v+".__class__.__str__.__class__.__name__", v+".__class__.__class__.__name__")
	default:
		return g.pick("self", "self.b", "self.c", "self.nope", "super") + g.pick("", "|string|length", ".name", ".super", ".super is defined", "("+arg()+")",
			".__class__.__name__", " is callable", ".x.y", ".__call__")
	}
}
