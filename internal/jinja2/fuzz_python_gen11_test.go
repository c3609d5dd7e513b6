package jinja2

// The generator's eleventh widening (docs/FUZZING.md, issue 23's tenth
// round), toward where templates go and what the round implemented: the
// dunders of int, bool and float and NotImplemented; int.to_bytes and
// from_bytes; JSON's extreme numbers through tojson, string and format;
// loop attributes in nested, filtered and recursive loops; namespaces;
// macros whose defaults read names set later, callers with arguments,
// filter blocks over macros, set blocks with filters; whitespace control
// beside comments and raw blocks; string escapes; % and format with
// every conversion and flag; dictsort, groupby, unique, min and max with
// case_sensitive and attribute paths, sum's start, batch and slice fill
// values; width filters over wide and combining characters; urlencode,
// xmlattr and items of an Undefined.

// exprEleventh is one of the expressions of the eleventh widening.
func (g *fuzzGen) exprEleventh() string {
	switch g.n(8) {
	case 0:
		return g.numDunder11()
	case 1:
		return g.intBytes11()
	case 2:
		return g.extremeNumber11()
	case 3:
		return g.percent11()
	case 4:
		return g.collFilter11()
	case 5:
		return g.textFilter11()
	case 6:
		return g.escapeLiteral11()
	default:
		return g.pick(g.numDunder11(), g.collFilter11(), g.extremeNumber11())
	}
}

// num11 is a number, or another value a number's dunder may be given.
func (g *fuzzGen) num11() string {
	return g.pick("0", "1", "-7", "2", "true", "false", "2.5", "-0.0", "1e300", "(2**70)", "(-2**70)", "inf", "nan", "0.0", "'a'", "none", "nothere", "[1]", "x", "n", "1.5e-7", "(10**20)")
}

// numDunder11 is a dunder method of a number, called or printed.
func (g *fuzzGen) numDunder11() string {
	recv := g.pick("(1)", "(-7)", "true", "false", "(2.5)", "(-0.0)", "(2**70)", "(0)", "(1e300)", "(3)", "n", "x", "(1.5)")
	bin := g.pick("add", "sub", "mul", "truediv", "floordiv", "mod", "divmod", "pow", "lshift", "rshift", "and", "or", "xor")
	if g.n(2) == 0 {
		bin = "r" + bin
	}
	switch g.n(6) {
	case 0, 1:
		return recv + ".__" + bin + "__(" + g.num11() + g.pick("", "", ", "+g.num11(), ", x=1") + ")"
	case 2:
		return recv + ".__" + g.pick("eq", "ne", "lt", "le", "gt", "ge") + "__(" + g.num11() + ")"
	case 3:
		return recv + ".__" + g.pick("neg", "pos", "abs", "invert", "bool", "int", "float", "index", "hash", "trunc", "floor", "ceil", "getnewargs") + "__(" + g.pick("", "", "1") + ")"
	case 4:
		return recv + ".__" + g.pick("round", "format") + "__(" + g.pick("", "-1", "2", "none", "1.5", "''", "'05d'", "'.2f'", "'>8'", "',x'", "-(2**70)") + ")"
	default:
		// NotImplemented and the results, through other operations
		return recv + ".__" + bin + "__(" + g.num11() + ")" + g.pick("", "|string", "|tojson", " is none", "|pprint", " == "+recv+".__add__('a')", "|int", " ~ 'z'", "|default('d')")
	}
}

// intBytes11 is int.to_bytes or from_bytes with odd arguments.
func (g *fuzzGen) intBytes11() string {
	if g.n(2) == 0 {
		return g.pick("(1)", "(-1)", "(258)", "(0)", "true", "(2**70)", "(-129)", "n") + ".to_bytes(" + g.pick("", "0", "1", "2", "-1", "10", "'2'", "2.0", "true", "length=3", "2, 'little'", "2, 'big', signed=true", "1, signed=true", "2, byteorder='mid'", "2, 1", "x=1", "1, length=1", "2, 'big', true") + ")" + g.pick("", "|list", "|length", ".hex()", "|string")
	}
	return g.pick("(0)", "true", "(5)") + ".from_bytes(" + g.pick("[1, 2]", "[255]", "[]", "'ab'", "'ab'.encode()", "[256]", "[-1]", "(1, 2)", "range(3)", "{1: 2}", "nothere", "none", "1", "[1.5]", "['a']", "[true]", "x", "bytes=[1]", "") + g.pick("", ", 'little'", ", 'big', signed=true", ", signed=true", ", 'x'", ", 1", ", byteorder=none", ", 'big', 1") + ")"
}

// extremeNumber11 is a number JSON or Python prints oddly, through the
// filters that print numbers.
func (g *fuzzGen) extremeNumber11() string {
	v := g.pick("1e16", "1.5e-7", "-0.0", "1e300", "0.1 + 0.2", "2**64", "10**20/3", "1e22", "123456789012345678.0", "5e-324", "1.7976931348623157e308", "-2**63", "n", "x", "d", "items", "1e-5", "0.0001", "1e15", "(-1e-7)")
	return v + "|" + g.pick("tojson", "tojson(indent=1)", "string", "pprint", "round(2)", "int", "float", "abs", "filesizeformat", "format", "list|tojson", "e", "center(24)", "truncate(8, true, '', 0)") + g.pick("", "", "|length", "|string|length")
}

// percent11 is % or |format with a conversion and flags.
func (g *fuzzGen) percent11() string {
	spec := "%" + g.pick("", "", "-", "+", " ", "#", "0", "-0", "+ ", "#0", "(a)", "(a)-") + g.pick("", "", "5", "*", "10", "0") + g.pick("", "", ".2", ".0", ".*", ".10") + g.pick("d", "i", "o", "u", "x", "X", "e", "E", "f", "F", "g", "G", "c", "r", "s", "a", "%", "z")
	arg := g.pick("42", "-3.5", "'x'", "1e20", "true", "none", "2**70", "65", "0", "-0.0", "(1,)", "nan", "[1]", "{'a': 1}", "(5, 2.25)", "(2, 3, 1.5)", "x", "'<'|safe", "1114112")
	if g.n(3) == 0 {
		return "'" + spec + "'|format(" + arg + ")"
	}
	return "'" + g.pick("", "a ", "<") + spec + "' % " + arg
}

// collFilter11 is a filter of lists and dicts with case_sensitive,
// attribute paths, start or fill values.
func (g *fuzzGen) collFilter11() string {
	data := g.pick("[{'n': 'b', 'a': [{'b': 2}], 'c': 'X'}, {'n': 'A', 'a': [{'b': 1}], 'c': 'x'}, {'n': 'a', 'a': [], 'c': 'Y'}]", "['b', 'A', 'a', 'B']", "items", "d", "x", "[[1, 'a'], [0, 'B'], [1, 'b']]", "{'b': 1, 'A': 2, 'a': 3}")
	attr := g.pick("'c'", "'a.0.b'", "'n.0'", "'0'", "'1'", "'z'", "'a.5'", "0")
	cs := g.pick("", "", ", case_sensitive=true", ", case_sensitive=false")
	switch g.n(7) {
	case 0:
		return data + "|dictsort(" + g.pick("", "true", "false, 'value'", "by='value'", "by='x'", "reverse=true", "false, 'key', true") + ")"
	case 1:
		return data + "|groupby(" + attr + g.pick("", ", 'q'", ", default=0") + cs + ")" + g.pick("|list", "|map('first')|list", "|map(attribute='list')|list", "|length")
	case 2:
		return data + "|unique(" + g.pick("", "attribute="+attr) + cs + ")|list"
	case 3:
		return data + "|" + g.pick("min", "max") + "(" + g.pick("", "attribute="+attr) + cs + ")"
	case 4:
		return data + "|sum(" + g.pick("", "attribute="+attr, "start=10", "start=[]", "start=''", "start=0.5", "attribute="+attr+", start=1") + ")"
	case 5:
		return data + "|" + g.pick("batch", "slice") + "(" + g.pick("2", "3", "1", "0", "-1", "2.0") + g.pick("", ", 'x'", ", none", ", fill_with=[]", ", 0") + ")|list"
	default:
		return data + "|sort(attribute=" + g.pick("'a.0.b,n'", "'c'", "'n.0'", "'0,1'", "'z'") + cs + g.pick("", ", reverse=true") + ")|list"
	}
}

// textFilter11 is a width or encoding filter over wide, combining and
// astral characters, or urlencode, xmlattr and items.
func (g *fuzzGen) textFilter11() string {
	s := g.pick("'日本語のテキストです'", "'é\\u0301a\\u200bb c'", "'😀😀 😀😀😀 x'", "'ab\\tcd ef'", "'a-b-c d'", "s", "x", "'  '", "'\\u3000x\\u3000'")
	switch g.n(3) {
	case 0:
		return s + "|" + g.pick("truncate(5)", "truncate(5, true)", "truncate(5, false, '…', 0)", "truncate(3, leeway=1)", "wordwrap(3)", "wordwrap(4, false)", "wordwrap(3, wrapstring='|')",
			"wordwrap(5, break_on_hyphens=false)", "center(12)", "center(13)", "indent(2)", "title", "capitalize", "wordcount", "urlize", "trim('日')", "replace('', '-')", "striptags", "urlencode")
	case 1:
		return g.pick("{'a': 1, 'b c': 'd&e', 'é': [1]}", "[('a', 1), ('b', none)]", "'a b&c=d/é'", "1", "none", "'~-._/'", "{1: 2}", "'<'|safe", "x", "d", "nothere") + "|urlencode"
	default:
		return g.pick("{'a': 1, 'b': none, 'c': nothere, 'd': '<\">'}", "{'a': 1}", "{'a b': 1}", "{'a/': 1}", "{'é': 1}", "{1: 2}", "{'a': true, 'b': [1, '<']}", "{}", "{'a>': 1}", "d", "x", "nothere", "nothere.y") +
			g.pick("|xmlattr", "|xmlattr(false)", "|items|list", ".items()", ".items()|list", "|dictsort")
	}
}

// escapeLiteral11 is a string literal with backslash escapes, well or
// badly formed.
func (g *fuzzGen) escapeLiteral11() string {
	lit := g.pick(`'\x41\x4a'`, `'\u00e9\u2028'`, `'\U0001F600'`, `'\N{BULLET}'`, `'\101\7\777'`, `'\0\00'`, `'\a\b\f\v'`, `'\q\''`, `'\x4'`, `'\u12'`, `'\U110000'`, `'\N{foo}'`,
		`'\8'`, `'\x'`, `'\400'`, `"\"\\"`, `'\N{latin small letter a}'`, `'\
b'`, `'\t\r\n'`)
	return lit + g.pick("", "|length", "|tojson", "|list", "|urlencode", "|pprint")
}

// stmtEleventh is one of the statements of the eleventh widening.
func (g *fuzzGen) stmtEleventh(depth int, body, buffered func() string) string {
	switch g.n(8) {
	case 0:
		// loop attributes in nested, filtered and recursive loops
		attr := func() string {
			return "{{ " + g.pick("loop.depth", "loop.depth0", "loop.index", "loop.revindex0", "loop.previtem", "loop.nextitem", "loop.changed(i)", "loop.changed(i is odd)",
				"loop.changed()", "loop.cycle('a', 'b')", "loop.cycle()", "loop.length", "loop.first ~ loop.last", "loop") + " }}"
		}
		it := g.pick("[1, 2, 2, 3]", "range(4)", "'abca'", "{'a': 1, 'b': 2}", "[]", "x", "items", "[[1, 2], [3]]")
		cond := g.pick("", "", " if i", " if i is odd", " if i != 2", " if loop is defined")
		if g.n(2) == 0 {
			return "{% for i in [1, [2, [3, 3], 4], [5]]" + cond + " recursive %}" + attr() + "{% if i is iterable and i is not string %}<{{ loop(i) }}>{% endif %}{% endfor %}"
		}
		return "{% for i in " + it + cond + " %}" + attr() + "{% for j in " + g.pick("[i, i]", "range(2)", "loop|list") + g.pick("", " if j") + " %}" + attr() + "{% endfor %}" + g.pick("", "{% else %}E") + "{% endfor %}"
	case 1:
		// namespaces
		return g.pick("{% set ns = namespace(a=1, b=[]) %}", "{% set ns = namespace({'a': 1}, b=2) %}", "{% set ns = namespace() %}") +
			g.pick("{% for i in [1, 2] %}{% set ns.a = ns.a + i %}{% endfor %}", "{% set ns.a, q = 2, 3 %}", "{% for ns.a in [1, 2] %}{% endfor %}", "{% set ns.b %}x{{ ns.a }}{% endset %}",
				"{% with %}{% set ns.a = 5 %}{% endwith %}", "{% macro m() %}{% set ns.a = ns.a + 1 %}{% endmacro %}{{ m() }}{{ m() }}", "") +
			"{{ " + g.pick("ns.a", "ns.b", "ns", "ns|pprint", "ns.c", "ns['a']", "ns|attr('a')", "ns|tojson", "ns.items", "ns == namespace(a=1)") + " }}"
	case 2:
		// macro defaults reading names set later, and the caller's arguments
		return "{% macro m(a=" + g.pick("q", "x", "caller", "varargs", "a", "q * 2") + ", b=a) %}[{{ a }}{{ b }}" + g.pick("", "{{ caller(1, 2) }}", "{{ caller(x=1) }}", "{{ caller() }}", "{{ varargs }}{{ kwargs }}") + "]{% endmacro %}" +
			g.pick("", "{% set q = 2 %}") + g.pick("{{ m() }}", "{{ m(5) }}", "{% call(u, v=9) m() %}<{{ u }}{{ v }}>{% endcall %}", "{% call(u) m(1, 2) %}{{ u }}{{ varargs }}{% endcall %}", "{% call m() %}c{% endcall %}") +
			g.pick("", "{% set q = 3 %}{{ m() }}")
	case 3:
		// filter and set blocks over macros and filters
		m := "{% macro m(v) %} {{ v }}<{{ caller() if caller else '' }}> {% endmacro %}"
		f := g.pick("upper|trim", "center(9)", "replace('a', 'b')|title", "indent(2, true)", "tojson", "list", "length", "e", "wordcount", "trim|list|join('-')", "truncate(4, true, '')")
		if g.n(2) == 0 {
			return m + "{% filter " + f + " %}" + g.pick("{{ m('a') }}b", "{% call m(1) %}x{% endcall %}", "{% for i in 'aa' %}{{ i }}a {% endfor %}", "<B>{{ '<C>' }}") + "{% endfilter %}"
		}
		return m + "{% set y | " + f + " %}" + g.pick("ab{{ 'c' }}", "{{ m('a') }}", " a ", "12", "<a>{{ '<b>' }}") + "{% endset %}{{ " + g.pick("y", "y|length", "y ~ 1", "y|string") + " }}"
	case 4:
		// whitespace control beside comments and raw blocks
		return g.pick("a  {%- if 1 %}\n  b  {%+ if 1 %}  c  {% endif -%}\n  {% endif %}  d", "x\n  {# c #}\n  y\n  {#- c -#}  z", "  {%+ if 1 %}a{% endif %}\n", "a\n  {%- raw -%}  b  {%- endraw -%}\n  c",
			"{% if 1 -%}\n  {%+ if 1 %}x{% endif %}{% endif %}", "a\n    {#+ c #}\n", "a {{- 1 -}} b {{+ 2 +}} c", "  {% if 1 +%}\nx{% endif %}", " \t{# c #}\n{% if 1 %}\n\ta\n{% endif %}\n",
			"{% for i in 'ab' -%}\n  {{ i }}\n{%- endfor %}", "  {%- if 1 %}a{%- endif +%}\nb", "  {#- c +#}\n  x", "\n  {%- raw %} r {% endraw +%}\n  y")
	case 5:
		return "{{ " + g.numDunder11() + " }}" + body()
	case 6:
		return "{{ " + g.percent11() + " }}{{ " + g.collFilter11() + " }}"
	default:
		return "{{ " + g.textFilter11() + " }}"
	}
}
