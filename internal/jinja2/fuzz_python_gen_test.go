package jinja2

import (
	"strconv"
)

// The generator's seventh widening (docs/FUZZING.md): what FuzzPython
// never drew before. Expressions: int and float literals in every
// spelling the lexer takes, str literals with Python's escapes written
// raw, conditionals without else, integer attributes (x.0), dict literals
// whose keys are equal across types, calls with *args and **kwargs, Markup
// and its operators, tests with data arguments, str.format with nested
// fields, cycler, joiner, namespace and dict called with data, filters
// with keyword arguments. Statements: cyclers and joiners in loops,
// recursive macros, macros reading names set after them, text with CR and
// CRLF, nested with blocks, set blocks under whitespace control.

// Int and float literals as the lexer spells them (not JSON: literal only).
var fuzzNumLiterals = []string{"0x1F", "0X_ff", "0o17", "0O_7", "0b101", "0B_1", "1_000", "00", "0_0", "1E3", "1e+3", "1.5E-3", "1_0.5e1_0",
	"5e-324", "1.7976931348623157e308", "1e22", "1e21", "0.30000000000000004", "1e-5", "123456789012345678.0", "2.675", "4.35", "1e-323",
	"9007199254740993", "2.5", "3.5", "-0.5", "1e100", "1.0e0", "0.0001", "1234567890123456789.0"}

// Str literals written as the template's source: Python's escapes (not
// \N{name}: the package does not know Unicode's names, docs/FUZZING.md).
var fuzzRawStrs = []string{`'\101'`, `'\q'`, `'\0'`, `'\777'`, `'\u00e9'`, `'\U0001F600'`, `'\x41\x42'`, `"\'"`, `'\"'`,
	`'a\` + "\n" + `b'`, `'\t|\v|\f|\a|\b'`, `'\\'`, `'\x4'`, `'\U00110000'`, `'\u12'`,
	"'a\r\nb'", "'a\rb'", `'{{'`, `'}}'`, `'%}'`, `'{#'`, `'\8'`, `'\1234'`}

// More strs (context values and literals): case mappings Python does in
// its own way, the whitespace str.split and splitlines know, URLs and
// tags, control characters.
var fuzzMoreStrs = []string{"ΟΔΟΣ", "ΣΑΣ Σ", "ŉ", "ﬀ x", "ꭰꮳ", "ა ბ", "they're bill's", "a\x1cb\x1dc\x1ed\x1fe", "x\u0085y", "p\u2028q\u2029r", "\x0b\x0c",
	"\x00nul", "\x1b[0m", "http://x.com/a?b=1&c. ok", "www.example.org and me@x.org", "(https://a.b/c)", "<!-- c --><p>a &amp; b</p>\n<br/>",
	"a  b\n\n c", "1e3", "\t", "0", "-1.5", "TrUe", "ǈ ǋ", "ʼn", "İstanbul", "σ.", "Ⅷ", "①", "½", "x\u0301\u0327", "a\tb\tc"}

// exprMore is one of the expressions the seventh widening added.
func (g *fuzzGen) exprMore() string {
	e := g.expr
	switch g.n(14) {
	case 0:
		return g.pick(fuzzNumLiterals...)
	case 1:
		return g.pick(fuzzRawStrs...)
	case 2:
		// a conditional without else is an Undefined when false
		return "(" + e() + " if " + e() + ")" + g.pick("", "|default('d')", " is defined", "|string", "|length", "|list")
	case 3:
		// integer attributes: x.0 is x[0]
		return g.pick(e(), g.name(), "[[1, 2], 'ab']", "'xyz'", "{0: 'z'}") + "." + g.pick("0", "1", "0.1", "1.0", "-1")
	case 4:
		// dict literals whose keys are equal across types: the first key, the last value
		return "{" + g.pick("1: 'a', 1.0: 'b', true: 'c'", "0: 1, false: 2, -0.0: 3", "none: 1, 'None': 2", "(1, 2): 'a', (1, 2): 'b'", "'a': 1, 'a': 2",
			"1: 'x', 2: 'y'", "0.5: 1, 1: 2", e()+": 1, "+e()+": 2") + "}" + g.pick("", "|list", "|dictsort", "[1]", "[true]", "|length", ".items()|list", "|tojson", "|pprint")
	case 5:
		return g.starCall()
	case 6:
		return g.markup()
	case 7:
		// tests with data arguments
		return "(" + e() + " is " + g.pick("", "not ") + g.pick("divisibleby", "sameas", "in", "eq", "ne", "gt", "ge", "lt", "le", "==", "<") +
			g.pick(" "+g.literal(), "("+e()+")", " "+g.name()) + ")"
	case 8:
		return g.nestedFormat()
	case 9:
		// the globals called with data
		return g.pick("cycler("+e()+", "+e()+").next()", "cycler("+e()+").current", "cycler().current", "joiner("+e()+")()", "joiner()() ~ joiner()()",
			"namespace("+e()+").a", "namespace(a="+e()+", **{'b': 2}).b", "namespace({'a': 1}, a=2).a", "dict(d, a=1)", "dict("+e()+")",
			"dict([('a', 1), ('b', "+e()+")])", "dict(**{'a': "+e()+"})", "range(1, 10, 3)|list", "range("+e()+")|list", "range(100001)|length",
			"range(0, 200002, 2)|length", "range(-5)|list", "range(3)[1:]", "range(1, 7, 2)|reverse|list", "range(10)[::-3]|list")
	case 10:
		if g.n(3) == 0 {
			// long lists and dicts, keys of mixed types
			return g.pick("range(30)|list", "range(12)|map('string')|list", "[\"a\" * 30, \"b\" * 30, [\"c\" * 30]]", "{'k': 'v' * 70, 'j': [1, 2]}",
				"{1: 'a', 'b': 2}", "{'a b': 1, 'c': none}", "{'x': nothere, 'y': '<&>', 'z': 0.5}", "{'a\"': 1}", "{'a/b': 1}", "{(1, 2): 1}", "{none: 1, 'n': 2}",
				"[1.5, -0.0, 1e16, 10**20]", "{'b': 1, 'a': {'d': [1, {'c': 2}], 'c': 'x' * 40}}") + "|" + g.kwFilter()
		}
		return e() + "|" + g.kwFilter()
	case 11:
		// tuples and lists, concatenated, repeated, compared
		return g.pick("(1,)", "()", "((1,),)", "(1, 2) + (3,)", "[1] * 2", "[1] + (2,)", "(1, 2) == [1, 2]", "[] is sequence", "()|first",
			"[(1, 'a')]", "("+e()+",)", "[1, [2, (3,)]]|string", "(1, 2) < (1, 2, 0)", "[1, 'a'] < [1, 2]", "('a',) * "+g.pick("0", "-1", "3")) +
			g.pick("", "|list", "|length", "|join(',')", "|tojson", "[0]", "[-1:]")
	case 12:
		// unary and binary operators on every kind of value
		return "(" + g.pick("-", "+", "not ", "- -", "not not ") + g.pick(e(), g.literal(), g.pick(fuzzNumLiterals...)) + ")"
	default:
		// str methods of the seventh widening's strs
		return strconv.Quote(g.pick(fuzzMoreStrs...)) + "." + g.pick("split()", "splitlines()", "splitlines(true)", "lower()", "upper()", "title()",
			"capitalize()", "swapcase()", "casefold()", "strip()", "isspace()", "isprintable()", "isdigit()", "isnumeric()", "isdecimal()", "isalpha()",
			"istitle()", "expandtabs()", "expandtabs(3)", "split(none, 1)", "rsplit(none, 1)", "center(12, '·')", "zfill(8)", "isidentifier()", "partition('\\n')")
	}
}

// starCall is a call of a filter, test, method or global with *args and
// **kwargs.
func (g *fuzzGen) starCall() string {
	e := g.expr
	return g.pick(
		e()+"|join(*["+g.pick("','", e())+"])",
		e()+"|map(**{'attribute': "+g.pick("'a'", "0", e())+"})|list",
		e()+"|default(*[1, "+e()+"])",
		"'a{}b{}'.format(*"+e()+")",
		"'{a}|{b}'.format(**"+g.pick("d", e(), "{'a': 1, 'b': 2}")+")",
		e()+"|replace(*['a', 'b'], **{'count': 1})",
		"("+e()+" is divisibleby(*[2]))",
		e()+"|batch(*[2, 'f'])|list",
		"range(*["+e()+", 5])|list",
		e()+"|truncate(**{'length': "+e()+", 'end': '~'})",
		e()+"|"+g.pick("select", "reject", "map")+"(*["+g.pick("'odd'", "'string'", "'upper'", "'divisibleby', 2", "'int'", "'default', 0")+"])|list",
		"dict(*[], **"+g.pick("{'a': 1}", e())+")",
		e()+"|sum(*[], start="+g.pick("0", "[]", "0.5", e())+")",
		e()+"|center(*["+g.pick("9", e())+"])",
		e()+"|format(*"+e()+")",
		e()+"|format(**{'a': "+e()+"})",
	)
}

// markup is an expression on Markup: the safe filter's result, escaping,
// and Markup's operators and methods.
func (g *fuzzGen) markup() string {
	e := g.expr
	m := "(" + g.pick("'<b>%s</b>'", "'<a>'", "'&lt;&amp;'", "'{0}<{1}>'", "'%(a)s<>'", "'<p>a</p> <br>'", "'a<b'", "''") + "|safe)"
	return g.pick(
		m+" % "+g.pick(e(), "("+e()+",)", "{'a': "+e()+"}"),
		m+" ~ "+e(),
		m+" + "+e(),
		e()+" + "+m,
		m+" * "+g.pick("2", "0", e()),
		m+"|upper",
		m+".unescape()",
		m+".striptags()",
		m+".format("+e()+", "+e()+")",
		m+".join(["+e()+", '<']) ",
		m+".split('<')",
		m+".replace('<', "+e()+")",
		e()+"|e|replace('&', 'and')",
		e()+"|forceescape|length",
		"("+m+" in "+e()+")",
		"("+e()+" in "+m+")",
		"'%s'|format("+e()+"|safe)",
		e()+"|escape|string|e",
		e()+"|e|safe|e",
		"["+m+", "+e()+"]|join("+g.pick("", "'<>'", m)+")",
		m+"|center(9)",
		m+"|"+g.pick(fuzzFilters...),
		m+"."+g.pick("upper()", "strip()", "lower()", "title()", "capitalize()", "ljust(9, '<')", "partition('<')", "splitlines()", "__html__()", "escape("+e()+")"),
		"("+m+" == "+e()+")",
		e()+"|urlize"+g.pick("", "|safe", "|e"),
		"("+e()+")|safe|length",
	)
}

// nestedFormat is str.format with fields inside the spec, indexed and
// attribute fields, and the format strings Python refuses.
func (g *fuzzGen) nestedFormat() string {
	e := g.expr
	f := g.pick("{0:{1}}", "{:{w}.{p}f}", "{0[1]}", "{0[a]}", "{a.real}", "{!x}", "{0}{}", "{}{0}", "{", "}", "{0:}", "{0!r:}", "{:{}}", "{0[-1]}",
		"{00}", "{0 }", "{ }", "{:{}{}}", "{0:{1}{2}}", "{a[0]}", "{0.imag}", "{0!s:{1}}", "{a!a}", "{:=^{}}", "{0:{1}.{2}}", "{:d}{:s}", "{:}}", "{{{}}}",
		"{0.__class__}", "{0[0][0]}", "{:>{w}}", "{w}", "{:,d}", "{:_x}", "{:_b}", "{:#_o}", "{:,.2f}", "{:.0%}", "{:c}", "{:+}", "{:n}", "{:=+8}")
	if g.n(4) == 0 {
		return strconv.Quote(f) + ".format_map(" + g.pick("{'a': "+e()+", 'w': 5, 'p': 2}", "d", e()) + ")"
	}
	return strconv.Quote(f) + ".format(" + g.pick(e(), e()+", "+e(), e()+", "+e()+", "+e(), e()+", w="+g.pick("5", e())+", p="+g.pick("2", e()), "a="+e()) + ")"
}

// kwFilter is a filter with keyword arguments and data.
func (g *fuzzGen) kwFilter() string {
	e := g.expr
	b := func() string { return g.pick("true", "false", e()) }
	switch g.n(17) {
	case 0:
		return "urlize(" + g.pick("trim_url_limit="+g.pick("5", "0", "-1", e()), "nofollow="+b(), "target="+e(), "rel="+e(), "extra_schemes=['ftp:', 'x-y:']",
			"10, true, '_blank'", "rel='a', nofollow=true", "extra_schemes="+e()) + ")"
	case 1:
		return "xmlattr(" + g.pick("", "false", b()) + ")"
	case 2:
		return "pprint"
	case 16:
		// pprint past its width, tojson of keys that do not sort, xmlattr of odd keys
		return g.pick("list|pprint", "batch(3)|list|pprint", "tojson", "xmlattr", "dictsort|pprint", "items|list|tojson")
	case 3:
		return "dictsort(" + g.pick("case_sensitive="+b(), "by='value', case_sensitive=true", "reverse="+b(), "by="+e()) + ")"
	case 4:
		return "unique(" + g.pick("case_sensitive="+b(), "attribute="+e(), b()) + ")|list"
	case 5:
		return g.pick("min", "max") + "(" + g.pick("case_sensitive="+b(), "attribute="+e(), "case_sensitive=true, attribute='a'") + ")"
	case 6:
		return g.pick("map", "select", "reject") + "(" + g.pick("'"+g.pick("default", "replace", "int", "round", "center", "join", "truncate", "format")+"', "+e(), "'divisibleby', "+e(), "'in', "+e(), "'sameas', "+e(), "'equalto', "+e(), "'lt', "+e()) + ")|list"
	case 7:
		return g.pick("selectattr", "rejectattr") + "(" + g.pick("'a'", e()) + ", " + g.pick("'equalto'", "'in'", "'gt'", "'divisibleby'", "'string'", "'none'") + ", " + e() + ")|list"
	case 8:
		return "truncate(" + g.pick("length="+e(), "killwords="+b(), "end="+e(), "leeway="+e(), "length=5, leeway=0", "5, false, '...', "+e()) + ")"
	case 9:
		return "indent(" + g.pick("width='> '", "width="+e(), "first="+b(), "blank="+b(), "'\\t', true", "width=0, first=true") + ")"
	case 10:
		return g.pick("filesizeformat(binary="+b()+")", "tojson(indent="+g.pick("2", "0", "'  '", "none", e())+")", "round(precision="+e()+", method="+g.pick("'common'", "'floor'", "'ceil'", "'x'", e())+")")
	case 11:
		return "wordwrap(" + g.pick("width="+e(), "break_long_words="+b(), "wrapstring="+e(), "break_on_hyphens="+b(), "3, true, '|', false", "width=4, break_long_words=false") + ")"
	case 12:
		return g.pick("default(default_value="+e()+", boolean="+b()+")", "attr("+e()+")", "items|list", "int(default="+e()+", base="+g.pick("10", "2", "16", "0", e())+")", "float(default="+e()+")")
	case 13:
		return g.pick("join(d="+e()+", attribute="+e()+")", "batch(linecount="+g.pick("2", e())+", fill_with="+e()+")|list", "slice(slices="+g.pick("2", e())+", fill_with="+e()+")|list",
			"replace("+e()+", "+e()+", count="+e()+")", "trim(chars="+e()+")", "center(width="+e()+")")
	case 14:
		return g.pick("reverse", "list", "length", "first", "last", "string", "title", "capitalize", "wordcount", "striptags", "count", "lower", "upper", "trim") + g.pick("", "|list", "|join('/')", "|string")
	default:
		return "format(" + g.pick("a="+e(), e()+", b="+e(), "**{'a': 1}") + ")"
	}
}

// stmtMore is one of the statements the seventh widening added.
// body is a statement's body; buffered is one that Jinja2 renders into a
// buffer (a set or filter block), where the generator draws no include
// without context (docs/FUZZING.md).
func (g *fuzzGen) stmtMore(depth int, body, buffered func() string) string {
	e := g.expr
	switch g.n(8) {
	case 0:
		// a cycler and a joiner in a loop
		return "{% set c = cycler(" + g.pick("'a', 'b'", e(), e()+", "+e(), "") + ") %}{% set j = joiner(" + g.pick("", "'|'", e()) + ") %}" +
			"{% for x in " + e() + " %}{{ j() }}{{ c.next() }}{{ c.current }}" + g.pick("", "{{ x }}", "{% if loop.index > 2 %}{{ c.reset() }}{% endif %}") + "{% endfor %}" +
			g.pick("", "{{ c.current }}", "{{ c.reset() }}{{ c.current }}", "{{ j() }}{{ j() }}")
	case 1:
		// a recursive macro
		return "{% macro r(n, acc='') %}{% if n is number and n > 0 %}{{ r(n - 1, acc ~ n) }}{% else %}[{{ acc }}|{{ n }}]{% endif %}{% endmacro %}{{ r(" +
			g.pick("3", "0", "-1", "2.5", "'x'", "none", "true") + g.pick("", ", "+e()) + ") }}"
	case 2:
		// a macro reads the names set after it, and the loop around its call
		return "{% macro m() %}{{ " + g.pick("gv", "gv ~ x", "x", "loop is defined") + " }}{% endmacro %}{% set gv = " + e() + " %}{{ m() }}" +
			g.pick("", "{% set gv = 2 %}{{ m() }}", "{% for x in [1, 2] %}{{ m() }}{% endfor %}", "{% with gv = 3 %}{{ m() }}{% endwith %}")
	case 3:
		// text with CR and CRLF, whitespace control around it
		sp := func() string { return g.pick("\r\n", "\r", "a\r\nb", " \r\n ", "\n\r", "x\r") }
		return sp() + "{%" + g.pick("", "-", "+") + " if " + e() + " " + g.pick("", "-") + "%}" + sp() + body() + sp() + "{%" + g.pick("", "-") + " endif " + g.pick("", "-") + "%}" + sp() +
			g.pick("", "{# a\r\nb #}", "{%- raw %} r\r\n{% endraw -%}") + sp()
	case 4:
		// nested with blocks shadowing, and a with that sets
		return "{% with a = " + e() + " %}{% with a = a ~ 1, b = a %}{{ a }}|{{ b }}{% endwith %}{{ a }}" + g.pick("", "{% set a = 5 %}{{ a }}") + "{% endwith %}" +
			g.pick("", "{{ a }}", "{% with %}{% set q = 1 %}{{ q }}{% endwith %}{{ q }}")
	case 5:
		// set blocks and filter blocks under whitespace control
		ws := func() string { return g.pick("", "-", "+") }
		return "{%" + ws() + " set v " + ws() + "%} " + buffered() + " \n{%" + ws() + " endset " + ws() + "%}\n[{{ v }}]" +
			g.pick("", "{%- filter "+g.pick("upper", "trim", "center(20)", "indent(3, true)", "wordwrap(4)")+" -%} a "+buffered()+" {%- endfilter %}")
	case 6:
		// if and elif chains on tests
		return "{% if " + e() + " is " + g.test() + " %}1{% elif " + e() + " %}2" + body() + "{% elif " + e() + " is not " + g.test() + " %}3{% else %}4{% endif %}"
	default:
		// loop attributes in a filtered loop over a generator
		g.loops++
		defer func() { g.loops-- }()
		return "{% for x in " + g.pick(e()+"|map('string')", e()+"|select", e()+"|reject('none')", "range("+g.pick("4", e())+")") + g.pick("", " if x", " if loop is undefined") + " %}" +
			"{{ " + g.loopAttr() + " }}" + g.pick("", ",{{ loop.length }}", ",{{ loop.revindex }}", ",{{ loop.nextitem }}") + ";{% endfor %}"
	}
}
