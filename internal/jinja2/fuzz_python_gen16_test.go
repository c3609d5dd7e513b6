package jinja2

import "strconv"

// The generator's sixteenth widening (docs/FUZZING.md, issue 23's
// sixteenth round), toward what the fifteen before draw least: the
// structure of templates rather than their expressions. Inheritance over
// three levels of its own (g16a.j2 ← g16b.j2 ← g16c.j2) with super()
// chains, super called twice or not at all, self.block() from inside other
// blocks, scoped blocks in loops, nested blocks overridden at one level
// only, sets outside blocks in a child, macros defined in a parent and
// imported from the child, with and without context; nested call blocks
// whose bodies call the outer caller, callers with defaults reading
// earlier arguments, varargs and kwargs, a caller called in a loop and
// handed to another macro; namespaces set across macros, call blocks,
// includes and imports with context; recursive loops with every loop
// attribute at each depth, loop.changed and loop.cycle after a recursion,
// an outer loop saved in a set; set and filter blocks over loops, macros
// and call blocks; and Undefined values flowing through the filters and
// str methods with odd arguments (batch and slice with fill, groupby's
// default, truncate's leeway, urlize, indent, filesizeformat, int's base,
// round's methods, sum's start, splitlines, expandtabs, partition, zfill,
// center's fill, format_map, % with * widths and keys).

// val16 is a value of any kind, Undefined ones often, as a literal.
func (g *fuzzGen) val16() string {
	return g.pick("nothere", "nothere.attr", "nothere[0]", "x", "d", "s", "items", "n", "none", "0", "-1", "2", "(2**64)", "1.5", "-0.0", "nan",
		"''", "'a b'", "'ß'", "'<i>'|safe", "[1, 'a']", "[]", "{'a': 1}", "('x', none)", "range(3)", "namespace(a=1)", "d.items()", "[1, 2]|map('string')",
		"true", "'12'", "'0x1f'", "'a\\tb\\nc'", "'日本'")
}

// exprSixteenth is one of the expressions of the sixteenth widening.
func (g *fuzzGen) exprSixteenth() string {
	switch g.n(6) {
	case 0, 1:
		return g.undefFilter16()
	case 2, 3:
		return g.strMethod16()
	case 4:
		return g.percent16()
	default:
		return g.fmt16()
	}
}

// undefFilter16 is a filter with odd arguments over odd values, Undefined
// ones among them (as the value and as an argument).
func (g *fuzzGen) undefFilter16() string {
	v := g.val16()
	a := g.val16()
	switch g.n(14) {
	case 0:
		return v + "|" + g.pick("batch", "slice") + "(" + g.pick("2", "1", "3", a, "0", "-1") + g.pick("", ", "+a, ", fill_with="+a, ", "+g.val16()) + ")|list"
	case 1:
		return "[{'k': 1}, {'k': nothere}, {}, {'k': 'B'}, {'k': 'a'}]|groupby(" + g.pick("'k'", "'k.0'", "'x'", a) + g.pick("", ", default="+a, ", "+a, ", case_sensitive=true") + ")|list"
	case 2:
		return v + "|groupby(" + g.pick("'k'", "0", "'0'", a) + g.pick("", ", default="+a) + ")|list"
	case 3:
		return g.pick(v, "[nothere, 'a', 'A']", "['b', 'A', nothere|default('a')]", "[{'a': 'x'}, {'a': 'X'}, {'b': 1}]") + "|" + g.pick("unique", "min", "max") +
			"(" + g.pick("", "true", "false", a, "attribute='a'", "attribute="+a, "case_sensitive="+a+", attribute='a'") + ")" + g.pick("", "|list", "|string")
	case 4:
		return v + "|truncate(" + g.pick("", "3", a, "3, "+a, "3, true, '…', "+a, "leeway="+a, "length=2, leeway=0", "5, false, "+a, "killwords=true, leeway=-1") + ")"
	case 5:
		return v + "|urlize(" + g.pick("", a, "5", "5, true", "trim_url_limit="+a, "nofollow="+a, "target="+a, "rel="+a, "extra_schemes=["+a+"]", "extra_schemes="+a, "none, false, '_blank'") + ")"
	case 6:
		return v + "|indent(" + g.pick("", a, "2, "+a, "2, true, "+a, "first="+a, "blank="+a, "width="+a+", first=true", "'> ', true, true") + ")"
	case 7:
		return v + "|filesizeformat(" + g.pick("", a, "true", "binary="+a) + ")"
	case 8:
		return v + "|int(" + g.pick("", a, "0, "+a, "base="+a, "default="+a+", base=2", "-1, 36", "0, 37", "0, 1") + ")"
	case 9:
		return v + "|" + g.pick("round", "float|round") + "(" + g.pick("", a, "1, "+a, "method="+a, "precision="+a, "0, 'floor'", "-1, 'ceil'", "2, 'common'", "1.5") + ")"
	case 10:
		return g.pick(v, "[1, nothere]", "[[1], nothere]", "[{'a': 1}, {'a': nothere}]", "[1.5, -0.0]") + "|sum(" + g.pick("", a, "start="+a, "attribute='a'", "attribute="+a, "attribute='a', start="+a) + ")"
	case 11:
		return v + "|" + g.pick("center", "wordwrap", "wordcount", "replace('a', "+a+")", "join("+a+")", "map("+a+")|list", "select("+a+")|list", "dictsort("+a+")", "xmlattr("+a+")", "items|list", "tojson("+a+")", "pprint", "format("+a+")", "default("+a+", true)", "attr("+a+")", "first", "last", "reverse|list", "title", "striptags") +
			g.pick("", "", "|string", "|length", "|e")
	case 12:
		return "(" + v + g.pick(" ~ ", " + ", " * ", " is ") + g.pick(a, "'x'", "1", "defined", "undefined", "none", "sameas("+a+")", "in("+a+")", "divisibleby("+a+")") + ")"
	default:
		return v + g.pick(".attr", "[0]", "['a']", "|attr('a')", ".items()", ".get('a', "+a+")", ".keys()|list", ".upper()", ".__class__.__name__", "|list", "|length", "|string|length", " is defined", "|default(1)", "|d(nothere)|string")
	}
}

// strMethod16 is a str method with unusual arguments, Undefined ones too.
func (g *fuzzGen) strMethod16() string {
	recv := g.pick("'a\\tb\\r\\nc\\nd\\re\\x0bf\\x1cg\\u2028h\\x85i'", "'ab\\tc\\td'", "'a=b=c'", "'42'", "'-7'", "'+0'", "''", "'ß'", "'日本'", "s", "x", "nothere", "('<b>'|safe)", "('x'|e)", "'  pad '", "'{a}{b!r}{0}'")
	a := g.val16()
	switch g.n(10) {
	case 0:
		return recv + ".splitlines(" + g.pick("", "true", "false", "keepends=true", "keepends="+a, a, "1", "keepends=none") + ")"
	case 1:
		return recv + ".expandtabs(" + g.pick("", "0", "1", "-1", "3", "tabsize=8", a, "true", "2.0", "(2**64)") + ")" + g.pick("", "|length", "|replace(' ', '.')")
	case 2:
		return recv + "." + g.pick("partition", "rpartition") + "(" + g.pick("'='", "''", "'b'", "'日'", a, "'=', 1", "sep='='") + ")"
	case 3:
		return recv + ".zfill(" + g.pick("0", "5", "-1", a, "(2**64)", "true", "'5'", "width=5") + ")"
	case 4:
		return recv + "." + g.pick("center", "ljust", "rjust") + "(" + g.pick("7", "0", "-2", a) + g.pick("", ", '*'", ", 'ß'", ", '日'", ", ''", ", '**'", ", "+a, ", none") + ")"
	case 5:
		return recv + ".format_map(" + g.pick("{'a': "+a+", 'b': 1}", a, "{}", "namespace(a=1, b=2)", "d", "{'a': 1, 'b': "+a+", 0: 'z'}") + ")"
	case 6:
		return recv + ".format(" + g.pick(a, a+", "+a, "a="+a+", b=2", "*"+a, "**"+a, "1, a=1, b="+a) + ")"
	case 7:
		return strconv.Quote(g.pick("{0!r:>{1}}", "{0[a]!s:^{w}}", "{0.real!r}", "{a!a:{b}{c}}", "{0:{1}.{2}f}", "{0!s:{1}}|{0!r:{1}}", "{:{}}", "{0:{0}}", "{a[0]:{a[1]}}", "{0!r:}{0!s:}{0!a:}")) +
			".format(" + g.pick(a, a+", 6", a+", '>', 3", "a="+a+", b='<', c=4, w=5", a+", w=3", "a=["+a+", 5]", "3, 2, 1") + ")"
	case 8:
		return recv + "." + g.pick("strip", "lstrip", "rstrip", "removeprefix", "removesuffix", "startswith", "endswith", "split", "rsplit", "count", "find", "index", "join", "replace") + "(" + a + ")"
	default:
		return recv + "." + g.pick("isdigit", "isspace", "istitle", "isidentifier", "casefold", "swapcase", "title", "capitalize", "upper", "lower", "encode", "isascii", "isprintable") + "()" + g.pick("", "|string", "|length")
	}
}

// percent16 is % with * widths, precisions and dict keys, Undefined
// operands among them.
func (g *fuzzGen) percent16() string {
	a := g.val16()
	return "(" + strconv.Quote(g.pick("%*d", "%-*s|", "%.*f", "%*.*s", "%0*x", "%(a)s", "%(a)r %(b)s", "%(a)*d", "%(a)-5s", "%(0)s", "%s%%", "%c", "%r", "%5.2f", "%+.3e", "%#o", "%(a)c")) + " % " +
		g.pick("("+a+", 5)", "(5, "+a+")", "(3, 2, "+a+")", "{'a': "+a+", 'b': 2}", a, "("+a+",)", "{'a': 1}", "{0: 1, '0': 2}", "("+a+", "+a+")", "namespace(a=1)") + ")"
}

// fmt16 is the format filter and str.format with nested fields over odd values.
func (g *fuzzGen) fmt16() string {
	a := g.val16()
	return strconv.Quote(g.pick("%s-%s", "%(k)s", "%d", "%-4s|", "%r")) + "|format(" + g.pick(a, a+", "+a, "k="+a, "*["+a+", 1]", "**{'k': "+a+"}") + ")" +
		g.pick("", "|e", "|length")
}

// partials16 adds the three levels of inheritance of the sixteenth
// widening to the loader: g16a.j2, g16b.j2 that extends it, g16c.j2 that
// extends g16b.j2.
func (g *fuzzGen) partials16() {
	g.partials()
	if _, ok := g.loader["g16a.j2"]; ok {
		return
	}
	loops, buffered := g.loops, g.buffered
	g.loops, g.buffered = 0, 0
	defer func() { g.loops, g.buffered = loops, buffered }()
	g.loader["g16a.j2"] = g.pick("", "{% set lv = 'a' %}") + "{% macro am(p=lv) %}am({{ p }}{{ caller() if caller }}){% endmacro %}" +
		"A<{% block h %}h{{ lv }}{% endblock %}>" +
		"[{% block o %}o{% block i %}i{{ x }}{% endblock %}O{% endblock %}]" +
		g.pick("{% for it in [1, 2] %}{% block s scoped %}s{{ it }}{% endblock %}{% endfor %}", "{% for it in [1, 2] %}{% block s %}s{{ it }}{% endblock %}{% endfor %}", "") +
		g.pick("", "{{ self.h() }}", "{{ self.i() }}{{ self.i() }}", "{% if true %}{% block f %}F{% endblock %}{% endif %}", "{{ self.nope is defined }}", "{{ am() }}") + "Z"
	g.loader["g16b.j2"] = "{% extends 'g16a.j2' %}" + g.pick("", "{% set lv = 'b' %}", "{% set x = 'bx' %}", "{% from 'g16a.j2' import am %}", "{% import 'm.j2' as lib with context %}") +
		"{% macro bm(q=1) %}bm{{ q }}{{ lv }}{{ varargs }}{% endmacro %}" +
		g.pick("{% block h %}b({{ super() }}){% endblock %}", "{% block h %}{{ super() }}{{ super() }}{% endblock %}", "{% block h %}B{% endblock %}", "{% block h %}{{ self.i() }}{% endblock %}",
			"{% block h %}{% set lv = 'hb' %}{{ lv }}{{ super() }}{% endblock %}", "") +
		g.pick("{% block i %}bi{{ super() }}{% endblock %}", "{% block o %}bo{{ super() }}{% endblock %}", "{% block i %}{% for y in [1, 2] %}{{ loop.index }}{{ super() }}{% endfor %}{% endblock %}", "") +
		g.pick("", "{% block s %}bs{{ it is defined }}{{ super() }}{% endblock %}", "{% block f %}bf{{ super() }}{% endblock %}", "{% block h %}{{ bm(2) }}{% endblock %}")
	g.loader["g16c.j2"] = "{% extends " + g.pick("'g16b.j2'", "'g16b.j2'", "'g16b.j2' if true else 'g16a.j2'", "['nope.j2', 'g16b.j2']") + " %}" +
		g.pick("", "{% set lv = 'c' %}", "{% from 'g16b.j2' import bm with context %}", "{% import 'g16b.j2' as gb %}") +
		g.pick("{% block h %}c[{{ super() }}]{% endblock %}", "{% block h %}{{ super.super is defined }}{{ super() }}{% endblock %}", "{% block h %}C{{ self.o() }}{% endblock %}",
			"{% block h %}{{ bm(3) if bm is defined else 'nobm' }}{% endblock %}", "{% block h %}{{ gb.bm(4) if gb is defined }}{{ super() }}{% endblock %}", "") +
		g.pick("", "{% block i %}ci{{ super() }}{% endblock %}", "{% block o %}co({{ super() }}){% endblock %}", "{% block s %}cs{{ super() }}{% endblock %}",
			"{% block i %}{% call am() %}cl{{ super() }}{% endcall %}{% endblock %}", "{% block f %}{{ self.h() }}{% endblock %}") + g.pick("", "ignored text", "{{ 1/0 }}")
}

// stmtSixteenth is one of the statements of the sixteenth widening.
func (g *fuzzGen) stmtSixteenth(depth int, body, buffered func() string) string {
	switch g.n(12) {
	case 0:
		// a template three levels down, included or imported
		g.partials16()
		if g.inPartial {
			return "{{ x }}"
		}
		switch g.n(4) {
		case 0:
			return g.pick("", "{% set lv = 'top' %}", "{% set x = 'tx' %}") + "{% include " + g.pick("'g16c.j2'", "'g16b.j2'", "'g16a.j2'") + " %}"
		case 1:
			return "{% import " + g.pick("'g16c.j2'", "'g16b.j2'") + " as t" + g.pick("", " with context", " without context") + " %}" +
				g.pick("{{ t.bm() }}", "{{ t.bm(1, 2) }}", "{{ t.am is defined }}", "{{ t.lv }}", "{{ t|list|sort }}", "{% call t.bm() %}c{% endcall %}")
		case 2:
			return "{% from " + g.pick("'g16c.j2'", "'g16b.j2'", "'g16a.j2'") + " import " + g.pick("bm", "am", "bm as a2", "lv") + g.pick("", " with context") + " %}" +
				g.pick("{{ bm() }}", "{{ am() }}", "{% call am() %}body{% endcall %}", "{{ lv }}", "{{ a2(0) }}")
		default:
			return "{% for z in [1, 2] %}{% include 'g16c.j2' %}{% endfor %}"
		}
	case 1:
		// nested call blocks whose bodies call the outer caller
		return "{% macro w(a=1) %}<{{ caller(a" + g.pick("", ", 2", ", b=a", ", *[1, 2]") + ") }}>{% endmacro %}" +
			"{% macro v() %}{% call" + g.pick("(p)", "(p, q=p)", "(p, r=[p])", "(p=0, k=none)") + " w(" + g.pick("", "5", "a=none", "nothere") + ") %}" +
			g.pick("{{ p }}{{ caller(p) }}", "{{ caller(p, q) if q is defined else caller(p) }}", "{{ r }}{{ caller(p) }}{{ varargs }}", "{{ k }}{{ caller() }}{{ kwargs }}", "{{ p }}") +
			"{% endcall %}{% endmacro %}" +
			"{% call" + g.pick("(y)", "(y=9)", "(y, z=y ~ 'z')", "", "(ys=varargs)") + " v() %}[" + g.pick("{{ y }}", "{{ z }}", "{{ ys }}", "{{ varargs }}", "{{ caller is defined }}", "{{ y }}{{ kwargs }}") + "]{% endcall %}"
	case 2:
		// a caller called in a loop, handed to another macro
		return "{% macro each(xs) %}{% for e in xs %}{{ caller(e, loop.index) }}{% endfor %}{% endmacro %}" +
			"{% macro pass(c) %}{{ c(" + g.pick("'p', 0", "'p'", "", "*[1, 2]") + ") }}{% endmacro %}" +
			"{% call(e, i) each(" + g.pick("[1, 2, 3]", "items", "x", "'ab'", "nothere", "d") + ") %}" + g.pick("{{ i }}={{ e }};", "{{ loop is defined }}", "{{ e }}{% if i > 1 %}{{ pass(caller) if caller is defined }}{% endif %}") + "{% endcall %}" +
			g.pick("", "{% call(a, b=2) pass %}{% endcall %}", "{% call(a, b=2) each([7]) %}{{ a }}{{ b }}{% endcall %}")
	case 3:
		// a namespace across macros, call blocks and includes with context
		g.partials()
		inc := ""
		if !g.inPartial {
			inc = g.pick("", "{% include 'p.j2' %}")
		}
		return "{% set ns = namespace(v=" + g.pick("0", "''", "[]", "nothere") + ") %}{% macro bump(k) %}{% set ns.v = ns.v ~ k %}{{ ns.v }}{% endmacro %}" +
			"{% macro c() %}{{ caller() }}{% endmacro %}" +
			g.pick("{{ bump(1) }}{{ bump(2) }}", "{% call c() %}{% set ns.v = 'call' %}{% endcall %}", "{% for i in range(3) %}{{ bump(i) }}{% endfor %}", "{% with %}{% set ns.v = 'with' %}{% endwith %}",
				"{% set t %}{% set ns.v = 'blk' %}{% endset %}", "{% filter upper %}{{ bump('f') }}{% endfilter %}", "{% if nothere %}{% else %}{{ bump('e') }}{% endif %}") + inc + "|{{ ns.v }}" + g.pick("", "|{{ ns }}", "|{{ bump.arguments }}")
	case 4:
		// a recursive loop with every loop attribute at each depth
		attr := g.pick("loop.depth", "loop.depth0", "loop.index", "loop.revindex", "loop.length", "loop.first", "loop.last", "loop.previtem", "loop.nextitem",
			"loop.cycle('a', 'b')", "loop.changed(e is iterable)", "loop.changed(loop.depth)", "outer.index if outer is defined")
		return "{% for e in " + g.pick("[1, [2, [3, 4]], 5]", "[[1, 1], [1], []]", "[{'c': [{'c': []}]}, {'c': [1]}]", "items", "x", "nothere", "'ab'") + g.pick("", " if e != 5", " if e is not none") + " recursive %}" +
			g.pick("", "{% set outer = loop %}") + "{{ " + attr + " }}:" +
			g.pick("{% if e is iterable and e is not string %}({{ loop(e) }}){% endif %}", "{% if e is mapping %}{{ loop(e.c) }}{% elif e is sequence and e is not string %}{{ loop(e) }}{% endif %}",
				"{% if e is iterable and e is not string %}{{ loop(e|reverse) }}{{ "+g.pick("loop.changed(1)", "loop.cycle(1, 2)", "loop.previtem", "loop.index")+" }}{% endif %}", "") +
			g.pick("", ";", "{% if loop.last %}.{% endif %}") + "{% else %}E{{ loop is defined }}{% endfor %}"
	case 5:
		// set and filter blocks over loops, macros and call blocks, with filters
		inner := g.pick("{% for i in range(3) %}{{ i }}{{ loop.cycle(' ', '\\n') }}{% endfor %}", "{% macro m() %} M {{ caller() if caller }}{% endmacro %}{{ m() }}",
			"{% macro m() %}<{{ caller() }}>{% endmacro %}{% call m() %} in {{ nothere }} {% endcall %}", " a\tb \n  c ", "{{ nothere }}{{ x }}", body())
		return g.pick("{% set v | "+g.pick("trim", "upper|trim", "indent(2, true)", "wordcount", "replace('\\n', '/')|e", "list|unique|join", "batch(2)|list|string", "center(12, )")+" %}"+inner+"{% endset %}{{ v }}|{{ v|length }}",
			"{% filter "+g.pick("trim|title", "indent(3, first=true)", "truncate(4, leeway=0)", "urlize", "striptags", "wordwrap(3)", "replace(' ', '')|e")+" %}"+inner+"{% endfilter %}",
			"{% set ns = namespace() %}{% set ns.v %}"+inner+"{% endset %}{{ ns.v|trim }}")
	case 6:
		// scopes: a set in a loop, a with, a macro and an if read after them
		return "{% set s1 = 'top' %}" + g.pick("{% for i in [1] %}{% set s1 = 'loop' %}{{ s1 }}{% endfor %}", "{% with s1 = 'with' %}{% set s2 = s1 %}{{ s2 }}{% endwith %}",
			"{% macro m() %}{% set s1 = 'mac' %}{{ s1 }}{% endmacro %}{{ m() }}", "{% if true %}{% set s1 = 'if' %}{% endif %}", "{% for i in [] %}{% else %}{% set s1 = 'else' %}{% endfor %}",
			"{% macro m(s1='dflt') %}{{ s1 }}{% endmacro %}{{ m() }}{{ m(s1) }}", "{% set s1 %}blk{{ s1 }}{% endset %}", "{% for s1 in [s1] %}{{ s1 }}{% endfor %}") +
			"|{{ s1 }}|{{ s2 is defined }}"
	case 7:
		// macros reading the template's names at call time, defaults reading earlier arguments
		return "{% macro m(a, b=a ~ late, c=nothere) %}{{ a }}|{{ b }}|{{ c is defined }}|{{ late }}{% endmacro %}" + g.pick("", "{{ m(1) }}") + "{% set late = " + g.val16() + " %}" +
			"{{ m(" + g.pick("1", "a=2", "1, c=3", "*[1]", "**{'a': 4}", "b=1", "1, 2, 3") + ") }}" + g.pick("", "{% set late = 'again' %}{{ m('z') }}")
	case 8:
		// a recursive macro with a caller
		return "{% macro r(n) %}{% if n > 0 %}{{ n }}{% call r(n - 1) %}{{ caller() }}{% endcall %}{% else %}{{ caller() }}{% endif %}{% endmacro %}" +
			"{% call r(" + g.pick("0", "1", "3", "nothere|int", "'2'|int") + ") %}" + g.pick("base", "{{ n is defined }}", "{{ caller is defined }}") + "{% endcall %}"
	case 9:
		// loops with an outer loop kept, changed and cycle on odd values
		return "{% for a in " + g.pick("[1, 1, 2]", "x", "items", "nothere", "[nothere, nothere]") + " %}{% set ol = loop %}{% for b in " + g.pick("[1, 2]", "a", "[a, a]", "[]") + " %}" +
			"{{ ol.index }}.{{ loop.index }}{{ ol.changed(b) }}{{ loop.changed(a, " + g.pick("b", "nothere", "ol.index") + ") }}{{ ol.cycle(" + g.pick("'x'", "nothere", "*[]", "*[1, 2]") + ") }}" +
			"{% else %}{{ ol.previtem }}{% endfor %}{{ loop.nextitem }}{% endfor %}"
	case 10:
		if g.n(2) == 0 {
			return g.more16(body)
		}
		return "{{ " + g.exprSixteenth() + " }}"
	default:
		return "{{ " + g.exprSixteenth() + " }}" + body()
	}
}

// more16 is inheritance and scoping drawn inside the generated template:
// children made on the fly (extends in a branch, twice, of a variable;
// blocks in loops, ifs and call blocks of the child; self and super
// there), included templates that extend, a caller given as a keyword,
// namespaces built from dicts and other namespaces.
func (g *fuzzGen) more16(body func() string) string {
	g.partials16()
	if g.inPartial {
		return "{{ x }}"
	}
	switch g.n(6) {
	case 0:
		// a child template made here, included: its extends may be
		// conditional, repeated or dynamic
		child := g.pick("{% extends 'g16a.j2' %}", "{% if x %}{% extends 'g16a.j2' %}{% endif %}", "{% extends 'g16a.j2' %}{% extends 'g16b.j2' %}",
			"{% extends x if x is string else 'g16b.j2' %}", "{% for q in [1] %}{% extends 'g16a.j2' %}{% endfor %}", "{% extends none %}", "{% extends 'g16c.j2' %}") +
			g.pick("", "{% block h %}H{{ super() }}{% endblock %}", "{% block h %}{% for k in [1, 2] %}{{ super() }}{{ k }}{% endfor %}{% endblock %}",
				"{% block i %}{% if true %}I{{ self.h() }}{% endif %}{% endblock %}", "{% block nope %}N{% endblock %}", "{% block h %}{{ self.nope() }}{% endblock %}",
				"{% block s %}{{ it }}{{ super() }}{% endblock %}", "{% block h %}{{ loop is defined }}{{ varargs is defined }}{% endblock %}") +
			g.pick("", "tail{{ 1 / 0 }}", "{% set x = 'cx' %}", "{% macro cm() %}cm{% endmacro %}")
		g.loader["g16d.j2"] = child
		return "{% include 'g16d.j2'" + g.pick("", " with context", " without context", " ignore missing") + " %}" + g.pick("", "{% import 'g16d.j2' as cd %}{{ cd.cm is defined }}")
	case 1:
		// a caller given as a keyword, and a macro that does not read caller
		return "{% macro plain(a=1) %}{{ a }}{{ kwargs }}{% endmacro %}{% macro reads() %}{{ caller(" + g.pick("", "1") + ") }}{% endmacro %}" +
			g.pick("{{ plain(caller=1) }}", "{{ reads(caller=plain) }}", "{% call plain() %}x{% endcall %}", "{% call reads() %}y{% endcall %}", "{{ reads(caller=none) }}",
				"{{ plain.caller }}{{ reads.caller }}", "{% call(a) reads() %}{{ a }}{% endcall %}", "{{ reads(caller=cycler(1).next) }}")
	case 2:
		// namespaces built from dicts, keywords and other namespaces
		return "{% set ns = namespace(" + g.pick("", "{'a': 1}", "d", "{'a': 1}, b=2", "a=1, **{'b': 2}", "namespace(a=1)", "x", "nothere", "[('a', 1)]", "{1: 2}", "{'a': 1}, a=2") + ") %}" +
			g.pick("", "{% set ns.a = 'set' %}", "{% set ns.c = ns.a|default('dflt') %}") + "{{ ns.a|default('-') }}|{{ ns }}|{{ ns.b is defined }}" + g.pick("", "|{{ ns|list }}", "|{{ ns.items() }}", "|{{ ns['a'] }}", "|{{ ns|attr('a') }}")
	case 3:
		// a macro imported with context reading names the importer sets later
		return "{% import 'g16b.j2' as gb with context %}{% set lv = 'after' %}{{ gb.bm(" + g.pick("", "0", "1, 2") + ") }}" + g.pick("", "{{ gb.lv is defined }}", "{{ gb|list|sort }}")
	case 4:
		// a recursive loop that accumulates into a namespace and sets
		return "{% set ns = namespace(t=[]) %}{% for e in [1, [2, [3]], 4] recursive %}{% set d0 = loop.depth0 %}" +
			g.pick("{% set ns.t = ns.t + [d0] %}", "{% set ns.t = ns.t + [loop.index ~ '/' ~ loop.length] %}", "{% set ns.t = ns.t + [loop.previtem] %}") +
			"{% if e is iterable %}{{ loop(e) }}{% endif %}{% endfor %}{{ ns.t }}|{{ d0 is defined }}"
	default:
		return body()
	}
}
