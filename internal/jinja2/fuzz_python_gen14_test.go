package jinja2

import "strings"

// The generator's fourteenth widening (docs/FUZZING.md, issue 23's
// fourteenth round), toward what the earlier generators reach least:
// whitespace control and trim_blocks/lstrip_blocks around every tag kind
// (raw, comments, set, filter and call blocks, macros, nested for/if/elif/
// else, {%+ and +%}, - on either side) over text with \r\n, \r and tabs;
// string escapes in literals (\x, \u, \N{…}, octal, quotes, unknown ones);
// attribute against item lookup (d.items on a dict holding "items",
// x['upper']); namespaces set in loops; loop.previtem, nextitem, depth and
// revindex in nested, filtered and recursive loops; macros called with too
// many or repeated arguments, caller() with arguments, varargs and kwargs;
// self.blockname() and super() through extends, imports with context;
// //, % and ** of negative, huge and float operands; tojson of nested
// non-ASCII values, |items, |batch and |slice with fill_with.

// envFourteenth sets the options whitespace depends on one at a time.
func (g *fuzzGen) envFourteenth(env *oracleEnv) {
	switch g.n(4) {
	case 0:
		env.TrimBlocks = true
	case 1:
		env.LStripBlocks = true
	case 2:
		env.TrimBlocks, env.LStripBlocks = true, true
	}
	if env.Profile == "" && g.n(3) == 0 {
		env.KeepTrailingNewline = true
	}
}

// exprFourteenth is one of the expressions of the fourteenth widening.
func (g *fuzzGen) exprFourteenth() string {
	switch g.n(9) {
	case 0, 1:
		return g.strLit14()
	case 2:
		return g.lookup14()
	case 3, 4:
		return g.arith14()
	case 5:
		return g.tojson14()
	case 6:
		return g.batch14()
	case 7:
		return g.macroCall14()
	default:
		return g.pick("(", "[") + g.strLit14() + ", " + g.arith14() + g.pick(")", "]") + "|" + g.pick("join('|')", "list", "tojson", "pprint", "string", "first", "length")
	}
}

// text14 is template text with odd line endings and blanks.
func (g *fuzzGen) text14() string {
	return g.pick("", "", "\n", "\r\n", "\r", "  ", "\t", "\n  ", "  \n", "\r\n\t", "a\r\nb", "x\ry", " \n\n ", "\n\t \n", "\u00a0\n", "\f\n", "\v")
}

// ws14 is a tag's whitespace control mark.
func (g *fuzzGen) ws14() string { return g.pick("", "", "", "-", "+") }

// tag14 writes a statement tag with marks on either side and
// line endings around it.
func (g *fuzzGen) tag14(inner string) string {
	return g.text14() + "{%" + g.ws14() + " " + inner + " " + g.ws14() + "%}" + g.text14()
}

// strLit14 is a string literal with escapes Python's and Jinja2's
// unescaping read.
func (g *fuzzGen) strLit14() string {
	esc := g.pick(`\x41`, `\xe9`, `\xff`, `\x4`, `\u00e9`, `\u20ac`, `\ud83d`, `\U0001F600`, `\U00110000`, `\N{BULLET}`, `\N{LATIN SMALL LETTER SHARP S}`,
		`\N{nope}`, `\N{EM DASH}`, `\101`, `\0`, `\7`, `\777`, `\8`, `\q`, `\'`, `\"`, `\\`, `\n`, `\r\n`, `\t`, `\a\b\f\v`, `\`+"\n", `\`+"\r\n", `\u12`, `\N`, `\{`, `\%`)
	body := g.pick("", "a", "é", "{{ x }}", "%}", "\r\n", "\r", "\n", "'", `"`, "😀") + esc + g.pick("", "z", esc, "\r\n", "\t")
	q := g.pick("'", `"`)
	if (q == "'" && strings.HasSuffix(body, `\`)) || strings.Contains(body, q) && !strings.Contains(body, `\`+q) {
		q = `"`
		body = strings.ReplaceAll(body, `"`, `\"`)
	}
	lit := q + body + q
	return lit + g.pick("", "", "|length", "|list|length", "|tojson", "|pprint", "|e", "|urlencode", ".encode()", "|lower", " ~ 'x'", "|wordcount")
}

// lookup14 is an attribute or an item whose name is also a method's.
func (g *fuzzGen) lookup14() string {
	d := g.pick("{'items': 1, 'keys': [2], 'a': 3}", "{'upper': 'U', 'values': none}", "dict(items='i', get='g', pop=2)", "namespace(items=1, upper=2)",
		"'abc'", "[1, 2]", "d", "x", "{'__class__': 'c', '_x': 1, 'mro': 2}", "{1: 'one', '1': 'str'}", "{'items': {'items': 5}}")
	m := g.pick("items", "keys", "values", "get", "pop", "upper", "a", "__class__", "_x", "mro", "1", "count", "real", "imag", "startswith")
	switch g.n(8) {
	case 0:
		return d + "." + m
	case 1:
		return d + "['" + m + "']"
	case 2:
		return d + "." + m + "()"
	case 3:
		return d + "|attr('" + m + "')"
	case 4:
		return d + "[" + g.pick("1", "-1", "0", "1.0", "true", "(1,)", "none") + "]"
	case 5:
		return "(" + d + "." + m + " is defined, " + d + "['" + m + "'] is defined)"
	case 6:
		return d + "." + m + "." + g.pick("items", "upper", "__name__", "a")
	default:
		return d + "|" + g.pick("map(attribute='items')|list", "map(attribute='upper')|list", "sort(attribute='items')", "selectattr('items')|list", "groupby('items')|list", "sum(attribute='items')", "items|list", "dictsort|list")
	}
}

// num14 is an operand of integer and float arithmetic at its edges.
func (g *fuzzGen) num14() string {
	return g.pick("0", "1", "-1", "7", "-7", "3", "-3", "2", "0.0", "-0.0", "0.5", "-2.5", "1e308", "-1e308", "5e-324", "inf", "-inf", "nan",
		"(2**63)", "(-2**63)", "(2**64)", "(2**100)", "(-2**100)", "(10**20)", "true", "false", "1.5", "(1/3)", "9007199254740993", "-9223372036854775808")
}

// arith14 is //, %, ** or / of edge operands.
func (g *fuzzGen) arith14() string {
	a, b := g.num14(), g.num14()
	switch g.n(5) {
	case 0:
		// small exponents only (Python builds huge values), large ones of
		// small bases
		if g.n(3) == 0 {
			return "(" + g.pick("2", "-2", "2.0", "-2.0", "0.5", "10", "-1", "1.0000001") + " ** " + g.pick("64", "-1075", "-1074", "1023", "1024", "-1", "63", "53") + ")"
		}
		return "(" + a + " ** " + g.pick("0", "1", "2", "-1", "-2", "0.5", "-0.5", "3", "(1/3)", "true", "0.0", "-0.0") + ")"
	case 1:
		return "(" + a + " " + g.pick("//", "%") + " " + b + ")"
	case 2:
		return "(" + a + " " + g.pick("/", "*", "-", "+") + " " + b + ")" + g.pick("", "|int", "|round", "|string", "|abs")
	case 3:
		return "(" + g.pick("-7", "7", "(2**64)", "-(2**64)", "7.5", "-7.5", "1e20", "-1e-20") + " " + g.pick("//", "%") + " " + g.pick("2", "-2", "0.5", "-0.5", "3", "-3", "(2**65)", "-inf", "inf", "1e-320", "0", "0.0") + ")"
	default:
		return "(" + a + " " + g.pick("//", "%", "/") + " " + b + ")" + g.pick("", " == "+g.num14(), "|float", "|int")
	}
}

// tojson14 is tojson, pprint or string of nested non-ASCII values.
func (g *fuzzGen) tojson14() string {
	v := g.pick("{'é': ['ß', {'日': none}], 'a': (1, 2.5)}", "['\\u2028', '\\u2029', '</script>', '&<>\\'']", "{'k': '😀', 'z': [true, false, -0.0]}",
		"[{'b': 1, 'a': 2}]", "{1: 'int key', 'a': 1}", "{'a': {'b': {'c': ['\u00a0', '\u200b']}}}", "[1e300, 1e-7, 100000000000000000000]", "{'nan': nan}", "x", "d")
	return v + "|" + g.pick("tojson", "tojson(2)", "tojson(indent=1)", "tojson|length", "pprint", "string", "items|list", "dictsort|list", "list", "e", "tojson|safe|e")
}

// batch14 is batch or slice with fill_with, or items.
func (g *fuzzGen) batch14() string {
	seq := g.pick("range(7)", "'abcde'", "[1, 2, 3]", "[]", "{'a': 1, 'b': 2, 'c': 3}", "(1, 2, 3, 4)", "x", "items")
	n := g.pick("1", "2", "3", "4", "10", "0", "-1", "2.5", "true")
	fill := g.pick("", ", none", ", 'x'", ", fill_with=0", ", fill_with=[]", ", fill_with='<>'")
	return seq + "|" + g.pick("batch", "slice") + "(" + n + fill + ")|" + g.pick("list", "map('join', ',')|list", "map('list')|list", "map('length')|list", "first", "last", "tojson")
}

// macroCall14 calls a global with too many, repeated or star
// arguments (a macro so called is stmtFourteenth's).
func (g *fuzzGen) macroCall14() string {
	return g.pick("namespace", "dict", "cycler", "joiner", "range") + "(" + g.pick("", "1", "a=1", "a=1, **{'a': 2}", "*[1, 2]", "1, 2, 3, 4", "**{}", "x", "s=1, s=2") + ")" + g.pick("", "|string", "|list")
}

// stmtFourteenth is one of the statements of the fourteenth widening.
func (g *fuzzGen) stmtFourteenth(depth int, body, buffered func() string) string {
	switch g.n(14) {
	case 0:
		// whitespace control around if/elif/else
		return g.tag14("if "+g.expr()) + body() + g.pick("", g.tag14("elif "+g.expr())+body()) + g.pick("", g.tag14("else")+g.text14()) + g.tag14("endif")
	case 1:
		// a for loop with else and a filter, its marks and blanks
		return g.tag14("for x in "+g.pick("[1, 2, 3]", "'ab'", "[]", g.expr(), "range(4)")+g.pick("", " if x", " if loop is defined")) + g.text14() +
			"{{" + g.ws14() + " " + g.pick("loop.length", "loop.revindex", "loop.index ~ '/' ~ loop.length", "x", "loop.previtem", "loop.nextitem") + " " + g.ws14() + "}}" +
			g.text14() + g.pick("", g.tag14("else")+"E") + g.tag14("endfor")
	case 2:
		// raw and comments with marks
		return g.text14() + "{%" + g.ws14() + " raw " + g.ws14() + "%}" + g.text14() + g.pick("{{ x }}", "{% if %}", "{#", "  a\r\n") + g.text14() + "{%" + g.ws14() + " endraw " + g.ws14() + "%}" +
			g.text14() + "{#" + g.pick("", "-", "+") + g.pick(" c ", "\r\n", "{{ x }}", "") + g.pick("", "-", "+") + "#}" + g.text14()
	case 3:
		// a set block, a filter block and a macro with marks
		switch g.n(3) {
		case 0:
			return g.tag14("set v") + g.text14() + buffered() + g.tag14("endset") + "[{{ v }}]"
		case 1:
			return g.tag14("filter "+g.pick("upper", "trim", "indent(2)", "replace('\\n', '|')", "wordcount", "e")) + g.text14() + buffered() + g.tag14("endfilter")
		default:
			return g.tag14("macro m(a=1)") + g.text14() + "{{ a }}" + g.text14() + g.tag14("endmacro") + "{{ m() }}" + g.text14() + "{{ m(2) }}"
		}
	case 4:
		// a call block with marks, its caller called with arguments
		return g.tag14("macro m(a)") + "<{{ caller(" + g.pick("a", "a, 2", "", "b=a", "a, a") + ") }}>" + g.tag14("endmacro") +
			g.tag14("call("+g.pick("x", "x, y=0", "", "x=1", "*r", "x, **kw")+") m("+g.pick("1", "'s'", g.expr())+")") + g.text14() +
			g.pick("{{ x }}", "{{ x }}{{ y }}", "{{ varargs }}|{{ kwargs }}", "{{ r }}", "{{ kw }}") + g.tag14("endcall")
	case 5:
		// namespaces set in loops, nested and filtered
		return "{% set ns = namespace(" + g.pick("n=0", "n=0, s=''", "", "items=[]") + ") %}{% for x in " + g.pick("range(3)", "'abc'", "[[1, 2], [3]]", g.expr()) + g.pick("", " if x") + " %}" +
			g.pick("{% set ns.n = ns.n + loop.index %}", "{% set ns.s = ns.s ~ x %}", "{% for y in [x] %}{% set ns.n = loop.depth %}{% endfor %}", "{% set ns.items = ns.items + [x] %}", "{% set ns.n = ns.n ~ 1 %}") +
			"{% endfor %}{{ " + g.pick("ns.n", "ns.s", "ns.items", "ns", "ns.n is defined", "ns|attr('n')") + " }}"
	case 6:
		// loop's neighbours and depth in nested, filtered and recursive loops
		return "{% for x in " + g.pick("[1, [2, [3, 4]], 5]", "[[1, 2], [], [3]]", "'abc'", "items", g.expr()) + g.pick("", " if x", " if x is not number") + " recursive %}" +
			"{{ " + g.pick("loop.previtem", "loop.nextitem", "loop.depth", "loop.depth0", "loop.revindex", "loop.revindex0", "loop.length", "loop.first", "loop.last") + " }}" +
			"{% if x is iterable and x is not string %}{{ loop(x) }}{% else %}{% for y in [x, x] %}{{ " + g.pick("loop.depth", "loop.previtem", "loop.nextitem", "loop.revindex") + " }}{% endfor %}{% endif %}" +
			g.pick("", "{% else %}none") + "{% endfor %}"
	case 7:
		// a macro called with too many, repeated or unknown arguments
		sig := g.pick("a", "a, b=2", "", "a, b", "a=1")
		return "{% macro m(" + sig + ") %}" + g.pick("{{ a }}", "{{ a }}{{ varargs }}", "{{ kwargs }}", "{{ b }}", "x") + "{% endmacro %}" +
			"{{ m(" + g.pick("1, 2, 3", "1, a=2", "a=1, a=2", "b=1", "c=1", "1, 2", "*[1, 2, 3]", "**{'a': 1, 'b': 2}", "1, **{'a': 2}", "a=1, **{'a': 2}", "caller=1", "1, c=2, d=3") + ") }}"
	case 8:
		// super() and self.block() through extends
		g.partials()
		if g.inPartial || depth > 0 {
			return "{{ x }}"
		}
		g.loader["b14.j2"] = "[{% block t %}T{{ " + g.pick("x", "1") + " }}{% endblock %}|{% block u %}U{% endblock %}" + g.pick("", "{{ self.t() }}", "{{ self.u()|upper }}") + "]"
		return "{% extends " + g.pick("'b14.j2'", "'b14.j2'", "'base.j2'") + " %}{% block t %}" + g.pick("{{ super() }}", "{{ super()|lower }}", "{{ self.u() }}", "{{ super()~super() }}", "{{ self.t }}", "{{ self.nope() }}") +
			g.text14() + "{% endblock %}" + g.pick("", "{% block u %}<{{ super() }}>{% endblock %}", "{% block u %}{{ self.t() }}{% endblock %}")
	case 9:
		// an import with context reading the importer's names
		g.partials()
		if g.inPartial {
			return "{{ x }}"
		}
		g.loader["i14.j2"] = "{% macro f(a=x) %}{{ a }}|{{ y14 is defined }}{% endmacro %}{% set z = x ~ 'z' %}"
		return "{% set y14 = 1 %}" + g.pick("{% import 'i14.j2' as L with context %}{{ L.f() }}{{ L.z }}", "{% from 'i14.j2' import f, z with context %}{{ f() }}{{ z }}",
			"{% import 'i14.j2' as L %}{{ L.f(2) }}{{ L.z }}", "{% for x in [7] %}{% import 'i14.j2' as L with context %}{{ L.f() }}{% endfor %}", "{% from 'i14.j2' import f as g, nope %}{{ g() }}")
	case 10:
		// varargs and kwargs, caller with defaults
		return "{% macro m() %}{{ varargs }}|{{ kwargs }}|{{ caller(" + g.pick("", "*varargs", "**kwargs", "1, b=2") + ") if caller }}{% endmacro %}" +
			g.pick("{{ m(1, x=2) }}", "{% call(a=0, b=1) m(5, k=1) %}{{ a }}{{ b }}{% endcall %}", "{% call m() %}C{% endcall %}", "{{ m(*[1, 2], **{'k': 3}) }}")
	case 11:
		// a for loop over a filter of items, with else and length
		return "{% for k, v in " + g.pick("{'b': 1, 'a': 2}|items", "{'b': 1, 'a': 2}|dictsort", "[(1, 2), (3, 4)]", "d|items", "x|items", "{}|items") + g.pick("", " if v", " if k != 'a'") + " %}" +
			"{{ k }}={{ v }}/{{ loop.length }}{{ loop.revindex }}" + g.pick("", "{% if loop.last %}.{% endif %}") + "{% else %}empty{% endfor %}"
	case 12:
		return "{{ " + g.exprFourteenth() + " }}"
	default:
		// text between tags with every line ending
		inner := g.pick("set q = 1", "set q = 1", "if true", "if false")
		end := ""
		if strings.HasPrefix(inner, "if") {
			end = g.text14() + g.pick("", "x") + g.tag14("endif")
		}
		return g.text14() + g.pick("a", "é", "") + g.text14() + g.tag14(inner) + g.text14() + end + g.text14()
	}
}
