package jinja2

import "strconv"

// The generator's thirteenth widening (docs/FUZZING.md, issue 23's
// thirteenth round), toward what the earlier generators reach least:
// format specs of % and str.format over the numbers that print oddly
// (huge ints, -0.0, inf, nan, bools, floats near a rounding), numeric
// strs through int and float with a base, the text filters over Unicode
// whose case or width is not one character's (final sigma, ß, dotted
// İ, combining marks, titlecase digraphs, wide and zero-width ones),
// sum, min, max, unique and groupby with attribute, case_sensitive and
// default, slices of odd steps, comparisons and in across kinds, macros
// whose defaults read outer names, call blocks with arguments, set
// blocks with filters, and loop.cycle and loop.changed in recursive loops.

// exprThirteenth is one of the expressions of the thirteenth widening.
func (g *fuzzGen) exprThirteenth() string {
	switch g.n(10) {
	case 0, 1:
		return g.percent13()
	case 2, 3:
		return g.brace13()
	case 4:
		return g.numStr13()
	case 5, 6:
		return g.text13()
	case 7:
		return g.coll13()
	case 8:
		return g.slice13()
	default:
		return g.compare13()
	}
}

// num13 is a number that prints oddly, as a template literal.
func (g *fuzzGen) num13() string {
	return g.pick("0", "1", "-1", "7", "-7", "255", "1234567", "-1234567", "(2**64)", "(-2**70)", "(10**25)", "true", "false",
		"0.0", "-0.0", "0.5", "1.5", "2.5", "-2.5", "0.125", "2.675", "1e16", "1e-5", "1e22", "123456789.125", "1.0", "1e300", "-1e-300",
		"0.1", "(1/3)", "inf", "-inf", "nan", "(0.1+0.2)", "9.995", "99.5", "1e15", "0.0001", "n", "x")
}

// percent13 is '%...' % a number (or a tuple, a dict or a str).
func (g *fuzzGen) percent13() string {
	var spec string
	if g.n(3) == 0 {
		spec = g.percentSpec()
	} else {
		flags := g.pick("", "", "", "-", "+", " ", "#", "0", "-0", "+0", "#0", "# ", "+ ", "-#")
		width := g.pick("", "", "1", "3", "8", "12", "*")
		prec := g.pick("", "", ".0", ".1", ".3", ".10", ".*", ".")
		conv := g.pick("d", "i", "f", "F", "e", "E", "g", "G", "x", "X", "o", "c", "s", "r", "a", "%", "u")
		spec = flags + width + prec + conv
	}
	pre := g.pick("", "", "[", "%% ")
	f := strconv.Quote(pre + "%" + spec + g.pick("", "", "]", " %s"))
	switch g.n(6) {
	case 0:
		return "(" + f + " % (" + g.num13() + ", " + g.num13() + "))"
	case 1:
		return "(" + f + " % (" + g.pick("3", "-3", "0", "'a'", "1.5") + ", " + g.num13() + ", " + g.num13() + "))"
	case 2:
		return "(" + strconv.Quote("%("+g.pick("a", "b")+")"+spec) + " % {'a': " + g.num13() + ", 'b': " + g.pick("'x'", "[1]", "none") + "})"
	case 3:
		return f + "|format(" + g.num13() + g.pick("", ", "+g.num13()) + ")"
	default:
		return "(" + f + " % " + g.num13() + ")"
	}
}

// brace13 is '{:...}'.format of a number, or format() of one.
func (g *fuzzGen) brace13() string {
	var spec string
	if g.n(3) == 0 {
		spec = g.braceSpec()
	} else {
		fill := g.pick("", "", "", "*<", "0>", "^", "<", ">", "=", " =", "x^", "0=", "é>", "😀^")
		sign := g.pick("", "", "+", "-", " ")
		alt := g.pick("", "", "", "#", "z", "z#", "0", "#0")
		width := g.pick("", "", "1", "8", "15", "030")
		group := g.pick("", "", "", ",", "_")
		prec := g.pick("", "", ".0", ".1", ".2", ".6", ".20", ".")
		typ := g.pick("", "", "d", "n", "f", "F", "e", "E", "g", "G", "%", "x", "X", "o", "b", "c", "s")
		spec = fill + sign + alt + width + group + prec + typ
	}
	v := g.num13()
	switch g.n(6) {
	case 0:
		return strconv.Quote("{0:"+spec+"}|{0!r:"+g.pick("", ">8", "^9")+"}") + ".format(" + v + ")"
	case 1:
		return strconv.Quote("{:{}}") + ".format(" + v + ", " + strconv.Quote(spec) + ")"
	case 2:
		return strconv.Quote("{0:"+spec+"}") + ".format_map(" + g.pick("[", "(") + v + g.pick("]", ",)") + ")"
	case 3:
		return v + ".__format__(" + strconv.Quote(spec) + ")"
	case 4:
		return strconv.Quote("{a:"+spec+"}{b:"+g.pick("", "<3", ">4", "^5")+"}") + ".format(a=" + v + ", b=" + g.pick("'ß'", "'e\u0301'", "'日本'", "none", "true", "[1]") + ")"
	default:
		return strconv.Quote("{:"+spec+"}") + ".format(" + v + ")"
	}
}

// numStr13 is a numeric str through int or float, with a base, a default
// or a rounding.
func (g *fuzzGen) numStr13() string {
	s := g.pick("'0x1f'", "'0X1F'", "'0b1_0'", "'0o17'", "'017'", "'1_000'", "'1__0'", "'_1'", "'1_'", "'  1e3 '", "' 12 '", "'-0x10'", "'+0b1'",
		"'1e3'", "'1.5'", "'-1.5e-3'", "'inf'", "'-nan'", "'nAn'", "'Infinity'", "'1_0.5'", "'1.0_1'", "'0_0'", "'00'", "'٣'", "'²'", "'１２'",
		"'9'*30", "'1e400'", "'0x'", "'0b'", "''", "' '", "'1 2'", "'true'", "'3.'", "'.5'", "'1E+2'", "'0.1e-1_0'", "'99999999999999999999.5'", "'1e-400'")
	return s + "|" + g.pick("int", "float", "int(base=16)", "int(0, 16)", "int(0, 0)", "int(-1, 0)", "int(7, 2)", "int(0, 8)", "int(0, 36)", "int(base=37)",
		"int(base=true)", "int('d', 0)", "float('d')", "float(none)", "int(none)", "int|string", "float|string", "float|round(2)", "float|round(0, 'floor')",
		"float|round(1, 'ceil')", "float|round(-1)", "int|round(2)", "float|int", "float|int(5)", "int(base=0)|float", "float|filesizeformat", "int|filesizeformat(true)",
		"float|abs", "float|tojson", "int|tojson", "float|pprint")
}

// uni13 is a str whose case, width or characters are not simple.
func (g *fuzzGen) uni13() string {
	return g.pick("'ΣΊΣΥΦΟΣ ΌΔΟΣ'", "'σς Σ'", "'straße GROSS'", "'ǅemal ǆ ǈ'", "'İstanbul ıi'", "'ﬁne ﬂow'", "'e\u0301te\u0301 o\u0308'", "'ŉ ǰ'",
		"'ΐ ΰ'", "'日本語 テキスト'", "'a\u200bb\u200cc'", "'tab\there\tnow'", "'a\u00a0b\u2003c'", "'Ⅻ ⅻ'", "'ǲ dz'", "'x\u0345y'", "'😀 😀😀'",
		"'hello world'", "'HELLO wORLD'", "'it\\'s o\\'neil'", "'a-b_c d.e'", "'1st 2nd'", "'<b>Bold</b> &amp; <i>x</i>'", "'line\\none\\r\\ntwo'", "' sp  aces '",
		"'ᾳ ᾼ'", "'ǈ'", "'\u1e9e'", "'Ǆ'", "'ʼn'", "'\u0130'", "s", "x")
}

// text13 is a text filter over a Unicode str.
func (g *fuzzGen) text13() string {
	u := g.uni13()
	switch g.n(5) {
	case 0:
		return u + "|" + g.pick("title", "capitalize", "upper", "lower", "wordcount", "striptags", "trim", "length", "reverse|join", "list|length",
			"title|length", "upper|length", "escape", "urlencode", "urlize", "pprint", "tojson", "string|center(20)", "format", "first", "last", "unique|join", "sort|join", "max", "min")
	case 1:
		return u + "." + g.pick("title()", "capitalize()", "swapcase()", "casefold()", "upper()", "lower()", "istitle()", "isupper()", "islower()",
			"isalpha()", "isalnum()", "isspace()", "isprintable()", "isidentifier()", "split()", "splitlines()", "center(15, '·')", "ljust(12, 'ß')", "zfill(12)", "expandtabs(3)", "encode()")
	case 2:
		return u + "|" + g.pick("truncate(", "wordwrap(", "center(", "indent(") + g.pick("1", "3", "5", "8", "12", "0", "-1", "2.5", "true") +
			g.pick("", ", true", ", false", ", true, '…'", ", first=true", ", blank=true", ", break_long_words=false", ", wrapstring='|'", ", leeway=0", ", 3, true") + ")"
	case 3:
		return u + "|" + g.pick("urlize(", "urlize(10, true", "urlize(trim_url_limit=", "urlize(target=") + g.pick("", "5", "'_b'", "none") + ")"
	default:
		return "{'a': " + u + ", " + g.pick("'b'", "'c d'", "'data-x'", "'é'", "'on'") + ": " + g.pick("none", "true", "1", "''", "'<&>'", "undefined_name", u) + "}|xmlattr" + g.pick("", "(false)", "(autospace=false)")
	}
}

// rec13 is a list of dicts with mixed cases, missing keys and kinds.
func (g *fuzzGen) rec13() string {
	return g.pick("[{'a': 'b', 'n': 2}, {'a': 'B', 'n': 1}, {'a': 'a', 'n': 3}]", "[{'a': 1}, {'a': 1.0}, {'a': true}, {'a': 2}]",
		"[{'a': 'x'}, {'b': 'y'}, {'a': none}]", "[{'a': {'b': 2}}, {'a': {'b': -1}}, {'a': {}}]", "[{'a': 'Ä'}, {'a': 'ä'}, {'a': 'z'}, {'a': 'ß'}, {'a': 'SS'}]",
		"[{'a': [1, 2]}, {'a': [1]}, {'a': [0, 5]}]", "[{'a': -0.0}, {'a': 0}, {'a': false}]", "[{'a': 'İ'}, {'a': 'i'}, {'a': 'I'}]", "[]", "items", "x")
}

// coll13 is sum, min, max, unique, groupby or sort with their keywords.
func (g *fuzzGen) coll13() string {
	attr := g.pick("'a'", "'n'", "'a.b'", "'a.0'", "'z'", "'a,n'", "0")
	cs := g.pick("", "case_sensitive=true", "case_sensitive=false")
	with := func(parts ...string) string {
		var out string
		for _, p := range parts {
			if p == "" {
				continue
			}
			if out != "" {
				out += ", "
			}
			out += p
		}
		return out
	}
	switch g.n(6) {
	case 0:
		return g.rec13() + "|sum(" + with(g.pick("", "attribute="+attr), g.pick("", "start="+g.num13(), "start=[]", "start=''")) + ")"
	case 1:
		return g.rec13() + "|" + g.pick("min", "max") + "(" + with(cs, g.pick("", "attribute="+attr)) + ")"
	case 2:
		return g.rec13() + "|unique(" + with(cs, g.pick("", "attribute="+attr)) + ")|list"
	case 3:
		return g.rec13() + "|groupby(" + with(attr, g.pick("", "default="+g.pick("'?'", "0", "none", "'a'")), cs) + ")" +
			g.pick("|list", "|map(attribute='grouper')|list", "|map(attribute='list')|map('length')|list", "|first|last")
	case 4:
		return g.rec13() + "|sort(" + with(g.pick("", "reverse=true"), cs, g.pick("", "attribute="+attr)) + ")|map(attribute=" + g.pick("'a'", "'n'") + ", default='-')|join(',')"
	default:
		return g.pick("'bBaA'", "['b', 'B', 'a', 'ä', 'A']", "[3, 1.0, true, 2]", "['ß', 'SS', 'ss']", "['İ', 'i', 'I', 'ı']") + "|" +
			g.pick("min", "max", "unique|list", "sort|list", "groupby(0)|list") + (map[bool]string{true: "", false: "(" + cs + ")"}[cs == ""])
	}
}

// slice13 is a slice with negative, huge or odd steps.
func (g *fuzzGen) slice13() string {
	b := func() string {
		return g.pick("", "", "0", "1", "-1", "-2", "3", "10", "-10", "(2**70)", "-(2**70)", "true", "none", "n")
	}
	return g.pick("'abcdef'", "[0, 1, 2, 3, 4]", "'ßé😀x'", "(1, 2, 3)", "range(10)", "range(0, 20, 3)", "x", "s", "items", "{'a': 1}") +
		"[" + b() + ":" + b() + ":" + g.pick("-1", "-2", "-3", "2", "(2**70)", "-(2**70)", "0", "true", "none", "1.5", "''") + "]" + g.pick("", "|list", "|join", "|length")
}

// compare13 is a comparison or membership across kinds.
func (g *fuzzGen) compare13() string {
	v := func() string {
		return g.pick("1", "1.0", "true", "false", "0", "-0.0", "(2**64)", "18446744073709551616.0", "1e16", "10000000000000001", "nan", "inf", "'1'", "none", "[1]", "(1,)", "[1.0]", "{'a': 1}", "'a'", "'A'", "''")
	}
	switch g.n(4) {
	case 0:
		return "(" + v() + " " + g.pick("==", "!=", "<", "<=", ">", ">=") + " " + v() + ")"
	case 1:
		return "(" + v() + g.pick(" in ", " not in ") + g.pick("'abc1'", "''", "[1, 'a', none]", "[1.0]", "(true,)", "{'a': 1, 1: 2}", "{1.0: 'x'}", "range(3)", "'a'|e", "x", "s", "d") + ")"
	case 2:
		return "(" + v() + " " + g.pick("<", "==") + " " + v() + " " + g.pick("<", "<=", "!=") + " " + v() + ")"
	default:
		return "[" + v() + ", " + v() + ", " + v() + "]|" + g.pick("sort|list", "unique|list", "max", "min", "sum", "select('equalto', 1)|list", "map('int')|list")
	}
}

// stmtThirteenth is one of the statements of the thirteenth widening.
func (g *fuzzGen) stmtThirteenth(depth int, body, buffered func() string) string {
	switch g.n(6) {
	case 0:
		// a macro whose defaults read outer names, set before or after it
		return g.pick("", "{% set o = 5 %}") + "{% macro m(a=o, b=a ~ o, c=x) %}" + g.pick("[{{ a }}|{{ b }}|{{ c }}]", "{{ a }}{{ o }}{{ varargs }}", "{{ b|length }}{{ kwargs }}") + "{% endmacro %}" +
			g.pick("", "{% set o = 7 %}") + "{{ m(" + g.pick("", "1", "b=2", "1, 2, 3", "c=none", "d=1", "*[1, 2]") + ") }}" + g.pick("", "{% for o in [8, 9] %}{{ m() }}{% endfor %}", "{% with o = 'w' %}{{ m() }}{% endwith %}")
	case 1:
		// a call block with arguments and defaults
		return "{% macro m(v) %}<{{ caller(" + g.pick("v", "v, 2", "b=v", "", "v, c=3", "*[v]") + ") }}>{% endmacro %}" +
			"{% call(" + g.pick("a", "a, b=1", "a=none, b='d'", "a, *r", "") + ") m(" + g.num13() + ") %}" + g.pick("{{ a }}", "{{ a }}|{{ b }}", "{{ varargs }}", "{{ a|"+g.pick("round(1)", "string|length", "int", "abs")+" }}", "x") + "{% endcall %}"
	case 2:
		// a set block with a filter chain
		return "{% set v | " + g.pick("title", "upper|replace('Σ', 's')", "wordcount", "striptags|trim", "center(12)", "indent(2, true)", "truncate(6)", "wordwrap(4)", "list|unique|join", "length", "e|length", "capitalize") +
			" %}" + g.pick(" ΣΊΣ Straße ", "<b>a</b> b\nc", "{{ "+g.uni13()+" }}", "{{ "+g.num13()+" }}") + buffered() + "{% endset %}{{ v }}|{{ v is string }}"
	case 3:
		// loop.cycle and loop.changed in a recursive loop
		return "{% for i in " + g.pick("[1, [1, 2, [2, 2]], 3, [3]]", "[[], [[]], 1]", "['a', ['A', 'a'], 'a']", "items", "x") + g.pick("", " if i != 2") + " recursive %}" +
			g.pick("{{ loop.cycle('o', 'e') }}", "{{ loop.changed(i) }}", "{{ loop.changed(loop.depth) }}", "{{ loop.cycle(*'xyz') }}", "{{ loop.depth }}{{ loop.changed(i is iterable) }}") + "{{ i }}" +
			"{% if i is iterable and i is not string %}(" + g.pick("{{ loop(i) }}", "{{ loop(i|reverse) }}", "{{ loop(i)|length }}") + "){% endif %}{% endfor %}"
	case 4:
		return "{{ " + g.exprThirteenth() + " }}"
	default:
		// a filter block of a Unicode text filter
		return "{% filter " + g.pick("title", "capitalize", "wordwrap(5)", "center(15)", "indent(3)", "truncate(7, true)", "striptags", "wordcount", "urlize") + " %}" +
			g.pick("ΣΊΣ όδος", "straße İi", "ǆ e\u0301x", "a <b>x</b>  www.x.com") + body() + "{% endfilter %}"
	}
}
