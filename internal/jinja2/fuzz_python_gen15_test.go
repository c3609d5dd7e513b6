package jinja2

import "strconv"

// The generator's fifteenth widening (docs/FUZZING.md, issue 23's
// fifteenth round), toward what the earlier fourteen reach least: a
// str.format field's whole grammar (nested replacement fields in the spec,
// indexes and attributes in the field name, conversions, {:%Y} and other
// specs a type does not take, widths past Py_ssize_t) over values of every
// kind, not numbers alone; % with * widths and precisions taken from the
// tuple, mappings with *, %c of strs and big ints, too few and too many
// arguments; str, list and dict methods with two and three arguments
// (counts, starts and ends that are negative, None, bools or huge);
// filters with every positional and keyword argument (indent, truncate,
// wordwrap, replace, dictsort, join, map, select, selectattr) over
// Unicode with non-BMP, wide and combining characters and U+2028; tests
// with arguments across kinds; and statements: {% set %} in if, for,
// with, macros and call blocks read after them, macros defined inside
// macros whose defaults read earlier arguments, loop.cycle and
// loop.changed with several arguments, includes of lists of names with
// ignore missing.

// val15 is a value of any kind, as a template literal.
func (g *fuzzGen) val15() string {
	return g.pick("0", "1", "-1", "42", "-7", "(2**64)", "(-2**70)", "true", "false", "none", "0.0", "-0.0", "1.5", "-2.5", "1e16", "1e-7", "inf", "-inf", "nan",
		"''", "'a'", "'abc'", "'ß'", "'日本'", "'😀x'", "'e\u0301'", "'<&>'", "'a\u2028b'", "[1, 2]", "[]", "('a', 1)", "()", "{'a': 1}", "{}", "'a'|e", "range(3)",
		"namespace(a=1)", "undefined_name", "x", "s", "n", "d", "items", "cycler(1)", "joiner()", "lipsum|string|length")
}

// exprFifteenth is one of the expressions of the fifteenth widening.
func (g *fuzzGen) exprFifteenth() string {
	switch g.n(12) {
	case 0, 1:
		return g.format15()
	case 2:
		return g.percent15()
	case 3, 4:
		return g.method15()
	case 5, 6:
		return g.filter15()
	case 7:
		return g.test15()
	case 8:
		return g.numFilter15()
	case 9:
		return g.unicode15()
	case 10:
		return g.coll15()
	default:
		return g.compare15()
	}
}

// spec15 is a format spec, parts of which a type may not take.
func (g *fuzzGen) spec15() string {
	switch g.n(4) {
	case 0:
		return g.pick("%Y", "%Y-%m-%d", "%H:%M", "%", "%%", "%s", "{}", "x<", "<<", "==", "^^10", "0=+10", ",_", "_,", ".-1", ".x", "10.", "-", "z", "zd", "z.2f",
			"#s", "+s", "=10s", ",s", ".2d", ".2x", "#c", "+c", ",c", ",x", "_x", "_o", "_b", ",e", "n", ",n", "99999999999999999999", ".99999999999999999999",
			"2147483648", "c", "Z", "j", "%Y%", "\u00e9", "\u00e9>5", "😀^7")
	case 1:
		return g.braceSpec()
	default:
		fill := g.pick("", "", "", "*", "0", " ", "é", "😀", "}")
		align := g.pick("", "", "<", ">", "^", "=")
		if align == "" {
			fill = ""
		}
		return fill + align + g.pick("", "", "+", "-", " ") + g.pick("", "", "z", "#", "0", "#0") + g.pick("", "", "3", "10", "25", "0") +
			g.pick("", "", ",", "_") + g.pick("", "", ".0", ".2", ".5", ".30") + g.pick("", "", "s", "d", "f", "e", "g", "%", "x", "X", "b", "o", "c", "n", "G", "E", "F")
	}
}

// format15 is str.format, format_map or the format filter with a whole
// field grammar.
func (g *fuzzGen) format15() string {
	v := g.val15()
	spec := g.spec15()
	q := strconv.Quote
	switch g.n(10) {
	case 0:
		return q("{:"+spec+"}") + ".format(" + v + ")"
	case 1:
		// nested fields in the spec
		return q(g.pick("{:{}}", "{:{}{}}", "{0:{1}.{2}}", "{0:{1}{2}}", "{:>{}}", "{:{}.{}f}", "{0:{w}}", "{:{}}{}", "{:{:{}}}", "{0:{0}}")) + ".format(" + v + ", " +
			g.pick("'>10'", "10", "'^'", "3", "-1", "'x'", "none", "2.5", "''", q(spec)) + g.pick("", ", 2", ", 'd'", ", '.3'") + g.pick("", ", w=5", ", w='*^7'") + ")"
	case 2:
		// field names: indexes, attributes, keys
		return q(g.pick("{0[0]}", "{0[1]}", "{0[-1]}", "{0[a]}", "{0['a']}", "{0.real}", "{0.imag}", "{0.__class__}", "{0.upper}", "{a[0]}", "{a.b}", "{0[0][0]}",
			"{0[]}", "{0.}", "{[0]}", "{.a}", "{0[0}", "{0]}", "{0!}", "{0!x}", "{0!r:}", "{0!s:>5}", "{0!a}", "{!r}", "{00}", "{01}", "{0x}", "{ 0}", "{-1}", "{999999999999999999999}",
			"{0[99999999999999999999]}", "{0.__len__}", "{0[a][b]}", "{a}", "{}", "{} {}", "{0}{}", "}", "{", "}}{{", "{{}}", "{0:}", "{:}", "{0:{}}")) + ".format(" +
			g.pick(v, v+", "+g.val15(), "a="+v, v+", a="+g.val15(), "*"+g.pick("[1, 2]", "'ab'", "()", "x"), "**"+g.pick("{'a': 1}", "{'a': {'b': 2}}", "{}", "d")) + ")"
	case 3:
		return q("{0:"+spec+"}") + ".format_map(" + g.pick("["+v+"]", "("+v+",)", "{'0': "+v+"}", "{0: "+v+"}", v, "x") + ")"
	case 4:
		return q("{a:"+spec+"}") + ".format_map(" + g.pick("{'a': "+v+"}", "{}", "namespace(a="+v+")", "d", "x") + ")"
	case 5:
		return v + "|string|" + g.pick("format", "format(1)") + "|e"
	case 6:
		// Markup's format escapes the arguments
		return "(" + q("<{0:"+spec+"}>{1!r}") + "|safe).format(" + v + ", " + g.val15() + ")"
	case 7:
		return "(" + v + ").__format__(" + q(spec) + ")"
	case 8:
		return q("{0:"+spec+"}|{0!r:"+spec+"}|{0!s:"+g.pick("^9", "<3", "", ".1")+"}") + ".format(" + v + ")"
	default:
		return q("{:"+spec+"}") + ".format(" + g.pick("1.0", "-0.0", "nan", "-nan", "inf", "1e300", "(2**100)", "-(2**100)", "1234567.891", "true", "false", "0.5", "-1") + ")"
	}
}

// percent15 is % with * widths and precisions, mappings and %c.
func (g *fuzzGen) percent15() string {
	q := strconv.Quote
	conv := func() string {
		return g.pick("d", "i", "u", "f", "F", "e", "E", "g", "G", "x", "X", "o", "c", "s", "r", "a", "%", "b", "y", "")
	}
	flags := func() string { return g.pick("", "", "-", "+", " ", "#", "0", "-0", "+ ", "#0", "--", "00") }
	switch g.n(6) {
	case 0:
		return "(" + q("%"+flags()+g.pick("*", "*.*", ".*", "*.2", "5.*")+conv()) + " % (" + g.pick("3", "-3", "0", "-0", "(2**31)", "(2**63)", "true", "1.5", "'3'", "none") + ", " +
			g.pick("3", "-1", "0", "2", "30") + ", " + g.val15() + g.pick("", ", 1") + "))"
	case 1:
		return "(" + q(g.pick("%(a)", "%(a)*", "%(a).*", "%(b)", "%()", "%(a", "%(a)(b)")+flags()+g.pick("", "4", ".2")+conv()) + " % " +
			g.pick("{'a': "+g.val15()+", 'b': 2}", "{'a': 1}", "{}", "{(): 1}", "("+g.val15()+",)", g.val15(), "d", "x", "namespace(a=1)") + ")"
	case 2:
		return "(" + q("%"+flags()+g.pick("", "3", "10")+"c") + " % " + g.pick("'a'", "'ab'", "''", "'😀'", "65", "-1", "1114111", "1114112", "(2**64)", "65.0", "true", "none", "[65]", "('x',)") + ")"
	case 3:
		// too few, too many or no arguments
		return "(" + q(g.pick("%s %s", "%s", "", "no format", "%%", "%s%%", "%", "%5", "%-", "% s", "%(a)s %s", "%s %(a)s", "%.3s|%-6s|")) + " % " +
			g.pick("()", "(1,)", "(1, 2)", "(1, 2, 3)", "[1, 2]", "'ab'", "{'a': 1}", "{}", "1", "none", "x", "d") + ")"
	case 4:
		return "(" + q("%"+flags()+g.pick("", "5", "20", ".1", ".0", "8.3")+conv()) + " % " + g.val15() + ")"
	default:
		return q("%"+flags()+g.pick("", "5", ".2")+conv()) + "|format(" + g.pick(g.val15(), g.val15()+", "+g.val15(), "a=1", "*[1, 2]", "") + ")"
	}
}

// method15 is a str, list or dict method called with two or three
// arguments at their edges.
func (g *fuzzGen) method15() string {
	pos := func() string {
		return g.pick("0", "1", "2", "-1", "-2", "-100", "100", "none", "true", "(2**64)", "-(2**64)", "1.0", "'1'")
	}
	str := g.pick("'abcabc'", "'a,b,,c'", "'  x y  '", "'ßẞß'", "'日本日本'", "'😀a😀'", "'e\u0301e\u0301'", "'a\u2028b\\nc\\r\\nd'", "''", "'AbC'", "s", "x", "'a\\tb\\tc'", "'-12'", "'+3'")
	sub := g.pick("'a'", "'b'", "''", "'bc'", "'😀'", "'ß'", "'\u0301'", "','", "('a', 'c')", "('x',)", "()", "none", "1", "['a']")
	switch g.n(9) {
	case 0:
		return str + "." + g.pick("find", "rfind", "index", "rindex", "count", "startswith", "endswith") + "(" + sub + g.pick("", ", "+pos(), ", "+pos()+", "+pos(), ", "+pos()+", "+pos()+", 1") + ")"
	case 1:
		return str + "." + g.pick("replace", "replace") + "(" + sub + ", " + g.pick("'X'", "''", "'😀'", "1", "none") + g.pick("", ", "+pos(), ", count="+pos()) + ")"
	case 2:
		return str + "." + g.pick("split", "rsplit") + "(" + g.pick("", sub, "none", "sep="+sub) + g.pick("", ", "+pos(), ", maxsplit="+pos()) + ")"
	case 3:
		return str + "." + g.pick("center", "ljust", "rjust") + "(" + g.pick("0", "5", "10", "-3", "(2**64)", "2.0", "true", "none") + g.pick("", ", '*'", ", 'ß'", ", '😀'", ", ''", ", 'ab'", ", 1", ", fillchar='-'") + ")"
	case 4:
		return str + "." + g.pick("strip", "lstrip", "rstrip", "splitlines", "expandtabs", "zfill", "partition", "rpartition", "removeprefix", "removesuffix", "join", "encode", "title", "count") +
			"(" + g.pick("", sub, "none", "true", "2", "-1", "0", sub+", 1", "'utf-8', 'strict'", "'ascii', 'ignore'", "'ascii', 'replace'", "'latin-1'", "tabsize=4", "keepends=true") + ")"
	case 5:
		lst := g.pick("[1, 2, 1, 'a']", "[]", "['b', 'a']", "(1, 2, 1)", "items", "x", "[none, 0, false]")
		return lst + "." + g.pick("index", "count") + "(" + g.pick("1", "'a'", "0", "none", "true", "1.0", "2") + g.pick("", ", "+pos(), ", "+pos()+", "+pos()) + ")"
	case 6:
		d := g.pick("{'a': 1, 'b': none}", "{}", "{1: 'x', true: 'y'}", "d", "x", "namespace(a=1)")
		return d + "." + g.pick("get", "pop", "setdefault", "copy", "keys", "items", "values", "update", "fromkeys") + "(" + g.pick("", "'a'", "'z'", "1", "'a', 2", "'z', none", "'a', 1, 2", "k='v'", "[1, 2]", "'a', default=2") + ")"
	case 7:
		return g.pick("'{}'", "','", "'-'", "''", "'😀'") + ".join(" + g.pick("['a', 'b']", "'abc'", "[1, 2]", "[]", "('x', none)", "{'a': 1, 'b': 2}", "range(3)", "x", "items", "['a', 'b'], 'c'") + ")"
	default:
		return str + "." + g.pick("translate", "maketrans", "format", "format_map", "casefold", "swapcase", "isdecimal", "isdigit", "isnumeric", "isascii") +
			"(" + g.pick("", "{97: 'A'}", "{97: none}", "'ab', 'cd'", "'ab', 'c'", "'a', 'b', 'c'", "{'a': 'b'}", "1") + ")"
	}
}

// filter15 is a filter with every positional and keyword argument.
func (g *fuzzGen) filter15() string {
	u := g.pick("'one two three four five six'", "'ΣΊΣ όδος ΣΑΣ'", "'日本語 テキスト です ね'", "'😀😀 😀 😀😀😀'", "'e\u0301e\u0301 o\u0308o\u0308 a'", "'a\u2028b\u2029c d'",
		"'line1\\nline2\\r\\nline3\\rline4'", "'a-b-c-d-e well-known'", "'   '", "''", "'x'", "'\\t tab\\tbed'", "'long' * 5", "s", "x", "'a\u00a0b c\u3000d'", "'<b>x</b> y'|safe")
	w := func() string { return g.pick("0", "1", "3", "5", "8", "12", "40", "-1", "2.5", "true", "'4'", "none") }
	b := func() string { return g.pick("true", "false", "none", "0", "1", "''", "'x'") }
	switch g.n(10) {
	case 0:
		return u + "|indent(" + g.pick("", w(), "'>> '", "'\\t'", w()+", "+b(), w()+", "+b()+", "+b(), "first="+b(), "blank="+b(), "width='-'", "width="+w()+", first=true, blank=true") + ")"
	case 1:
		return u + "|truncate(" + g.pick("", w(), w()+", "+b(), w()+", "+b()+", '…'", w()+", "+b()+", '', "+w(), "leeway="+w(), "end='>>', length="+w(), "killwords="+b()+", leeway=0", w()+", end=none") + ")"
	case 2:
		return u + "|wordwrap(" + g.pick(w(), w()+", "+b(), w()+", "+b()+", '|'", w()+", "+b()+", '<br>', "+b(), "width="+w()+", break_on_hyphens="+b(), w()+", wrapstring='\\r\\n'", "3, break_long_words=false") + ")"
	case 3:
		return u + "|replace(" + g.pick("' ', '_'", "'', '.'", "'o', 'O', 1", "'o', 'O', -1", "'o', 'O', 0", "'Σ', 'x', 2", "'\u0301', ''", "'😀', '<>'", "' ', '_', count=2", "1, 2", "'a'", "old='a', new='b'") + ")"
	case 4:
		return u + "|" + g.pick("center", "center") + "(" + g.pick("", w(), "width="+w()) + ")|" + g.pick("length", "string", "replace(' ', '.')", "e")
	case 5:
		return g.pick("{'b': 1, 'A': 2, 'a': 3, 'B': 0}", "{'x': 'b', 'y': 'B', 'z': 'a'}", "{1: 'a', 'b': 2}", "{}", "d", "{'é': 1, 'E': 2, 'e': 3}") +
			"|dictsort(" + g.pick("", b(), b()+", 'value'", b()+", 'key', true", "by='value'", "by='nope'", "reverse=true", "case_sensitive=true, by='value'", "false, 'value', true") + ")|list"
	case 6:
		return g.pick("[{'n': 'a', 'v': 1}, {'n': 'B'}, {'n': none, 'v': 3}]", "['a', 'B', 1]", "[[1, 2], [3]]", "items", "x", "'abc'") +
			"|" + g.pick("join", "map", "select", "reject", "selectattr", "rejectattr") + "(" +
			g.pick("", "','", "', ', 'n'", "attribute='n'", "'n'", "'v'", "'upper'", "'string'", "'length'", "'n', 'defined'", "'n', 'equalto', 'a'", "'v', 'gt', 1",
				"'odd'", "'sameas', none", "'replace', 'a', 'b'", "'default', 'd'", "attribute='n', default='?'", "'lower'", "'join', '-'", "'nope'", "'in', 'abc'") + ")|list"
	case 7:
		return g.pick("1024", "1000", "1023", "0", "-1", "(2**80)", "1.5", "1e30", "'2048'", "true", "none", "'x'") + "|filesizeformat(" + g.pick("", "true", "false", "binary=true", "1") + ")"
	case 8:
		return g.pick("{'a': 1, 'b c': none, 'd': true}", "{'a': '<>&\"'}", "{'on-x': 'é'}", "{}", "d", "{'a b': 1}", "{'a/b': 1}", "{'a=b': 1}", "{'a>b': 1}") + "|xmlattr(" + b() + ")"
	default:
		return u + "|" + g.pick("urlize(", "urlize(", "wordcount(", "striptags(", "title(", "capitalize(", "trim(", "escape(") + g.pick("", "", "5", "'é'", "none") + ")"
	}
}

// test15 is a test with arguments across kinds.
func (g *fuzzGen) test15() string {
	return "(" + g.val15() + " is " + g.pick("", "", "not ") + g.pick("divisibleby(", "divisibleby(", "in(", "sameas(", "eq(", "ne(", "lt(", "le(", "gt(", "ge(", "equalto(", "greaterthan(", "lessthan(",
		"defined(", "number(", "escaped(", "filter(", "test(", "iterable(", "mapping(", "upper(", "lower(", "string(", "sequence(", "boolean(", "integer(", "float(") +
		g.pick("", "0", "1", "3", "0.5", "-0.0", "'abc'", "[1, 'a']", "none", "(2**64)", "'upper'", "'nope'", "{'a': 1}", "inf", "nan", "x", "1, 2") + "))"
}

// numFilter15 is round, int or float of odd strs and values.
func (g *fuzzGen) numFilter15() string {
	v := g.pick("'  1_000 '", "'0x1f'", "'0X_1F'", "'1e3'", "'inf'", "'-nan'", "'+inf'", "'-Infinity'", "'1_0'", "'1__0'", "'١٢'", "' 12\\n'", "'12\u00a0'", "'1.5e'", "'٣.٥'",
		"'0b101'", "'0o17'", "'-0'", "'-0.0'", "'1e-5'", "'2.5'", "'3.5'", "'-2.5'", "'0.125'", "'1e308'", "'1e309'", "'9' * 25", "'12abc'", "''", "none", "true", "(2**64)", "2.675", "-0.5", "nan", "-inf", "1e16", "x", "n")
	return v + "|" + g.pick("round", "round(1)", "round(-1)", "round(2, 'floor')", "round(0, 'ceil')", "round(method='common')", "round(1, 'nope')", "round(precision=-2)",
		"int", "int(3)", "int(base=16)", "int(0, 0)", "int(0, 2)", "int(default=none)", "float", "float(-1)", "float(default='d')", "float|round", "int|round(1)",
		"float|int", "string|float", "float|string", "round|int", "float|round(3, 'floor')|string", "int|abs", "float|abs", "float|round(-400)", "float|round(400)")
}

// unicode15 is a text filter or method over Unicode whose width or
// segmentation is not one code point's.
func (g *fuzzGen) unicode15() string {
	u := g.pick("'e\u0301\u0301x'", "'日本語'", "'😀👍🏽'", "'🇫🇷x'", "'a\u200db'", "'\u2028\u2029\u0085'", "'\u1680 \u2000x'", "'Σ'", "'ΌΣ.'", "'aΣ b'", "'ǰ'", "'ﬃ'", "'ß' * 3",
		"'\U0001D400\U0001D401'", "'\u0345'", "'İi'", "'\ufeffbom'", "'\u00ad'", "'x\u0000y'", "'\u001f\u007f'")
	return u + g.pick("|wordcount", "|center(9)", "|truncate(3, true, '')", "|wordwrap(2)", "|wordwrap(2, false)", "|title", "|capitalize", "|upper", "|lower", "|length", "|reverse",
		"|list|length", "|e", "|urlencode", "|tojson", "|pprint", "|string|center(7, )", "|indent(2, true)", "|trim", "|trim('x')", ".split()", ".splitlines()", ".strip()",
		".isspace()", ".isprintable()", ".upper()|length", ".casefold()", ".swapcase()", ".title()", ".center(7, 'é')", ".ljust(5, '😀')", ".zfill(6)", ".expandtabs()",
		"|format", "|first", "|last", "|sort|join", "|unique|join", "|min", "|max", "|batch(2)|list", "|slice(2)|list", "|wordcount|string", ".encode('utf-8')|length")
}

// coll15 is sum, min, max, unique or groupby over mixed values.
func (g *fuzzGen) coll15() string {
	seq := g.pick("[1, 2.5, true]", "['b', 'A', 'a', 'B']", "[1, 'a']", "[none, 1]", "[[1], [0, 2]]", "[(1, 'b'), (1, 'a')]", "[{'k': 'B'}, {'k': 'a'}, {'k': 'A'}, {}]",
		"[{'k': 1}, {'k': 2.5}, {'k': none}]", "[]", "[-0.0, 0, false]", "['ß', 'SS', 'ss']", "[nan, 1, 0]", "['', none, 0]", "items", "x", "'bAaB'")
	attr := g.pick("'k'", "'0'", "0", "'k.0'", "'nope'", "'1'", "'real'", "'upper'")
	cs := g.pick("", ", case_sensitive=true", ", case_sensitive=false")
	switch g.n(6) {
	case 0:
		return seq + "|sum(" + g.pick("", "attribute="+attr, "start="+g.pick("0.5", "[]", "''", "none", "(2**64)", "-0.0"), "attribute="+attr+", start=1") + ")"
	case 1:
		return seq + "|" + g.pick("min", "max") + "(" + g.pick("", "true", "false", "attribute="+attr, "attribute="+attr+cs, "case_sensitive=true") + ")"
	case 2:
		return seq + "|unique(" + g.pick("", "true", "false", "attribute="+attr, "attribute="+attr+cs) + ")|list"
	case 3:
		return seq + "|groupby(" + attr + g.pick("", ", default='?'", ", default=none", ", 0", ", '-'") + cs + ")|" + g.pick("list", "map('first')|list", "map(attribute='list')|list", "length")
	case 4:
		return seq + "|" + g.pick("sort", "sort(true)", "sort(false, true)", "sort(attribute="+attr+")", "sort(reverse=true"+cs+")", "reverse", "list", "join(',', attribute="+attr+")") + g.pick("", "|list", "|join('|')")
	default:
		return seq + "|" + g.pick("select", "reject") + "(" + g.pick("", "'none'", "'string'", "'number'", "'lower'", "'upper'", "'gt', 0", "'in', [1, 'a']", "'eq', 'a'") + ")|list"
	}
}

// compare15 is a comparison or membership across kinds, for its errors.
func (g *fuzzGen) compare15() string {
	a, b := g.val15(), g.val15()
	switch g.n(4) {
	case 0:
		return "(" + a + " " + g.pick("<", "<=", ">", ">=") + " " + b + ")"
	case 1:
		return "(" + a + g.pick(" in ", " not in ") + b + ")"
	case 2:
		return "(" + a + " " + g.pick("==", "!=") + " " + b + ", " + a + " " + g.pick("<", ">=") + " " + b + ")"
	default:
		return "[" + a + ", " + b + "]|" + g.pick("sort|list", "max", "min", "unique|list", "sum")
	}
}

// stmtFifteenth is one of the statements of the fifteenth widening.
func (g *fuzzGen) stmtFifteenth(depth int, body, buffered func() string) string {
	switch g.n(10) {
	case 0:
		// a set inside if, for, with, a macro or a call block, read after it
		inner := "{% set v = " + g.pick("1", "v ~ 'i'", "x", "loop.index", "(v is defined)") + " %}"
		wrap := g.pick("{% if "+g.pick("true", "false", "x")+" %}"+inner+"{% else %}{% set v = 'e' %}{% endif %}",
			"{% for i in "+g.pick("[1, 2]", "[]", "x")+" %}"+inner+"{{ v }}{% endfor %}",
			"{% with w = 1 %}"+inner+"{{ v }}{% endwith %}",
			"{% macro m() %}"+inner+"{{ v }}{% endmacro %}{{ m() }}",
			"{% macro c() %}{{ caller() }}{% endmacro %}{% call c() %}"+inner+"{{ v }}{% endcall %}",
			"{% filter upper %}"+inner+"{{ v }}{% endfilter %}",
			"{% set blk %}"+inner+"{{ v }}{% endset %}{{ blk }}")
		return g.pick("", "{% set v = 0 %}") + wrap + "|{{ v }}" + g.pick("", "{% set v = v ~ 1 %}{{ v }}")
	case 1:
		// a macro inside a macro, defaults reading earlier arguments
		return "{% macro outer(a, b=a, c=b ~ 'c') %}{% macro inner(d=a, e=c) %}" + g.pick("{{ d }}{{ e }}", "{{ a }}{{ b }}{{ d }}", "{{ varargs }}{{ kwargs }}", "{{ caller() if caller }}") +
			"{% endmacro %}[{{ a }}|{{ b }}|{{ c }}]{{ inner(" + g.pick("", "1", "e=2", "1, 2, 3", "f=1") + ") }}" + g.pick("", "{{ inner.name }}", "{{ inner.arguments }}", "{{ inner.catch_kwargs }}") +
			"{% endmacro %}{{ outer(" + g.pick("1", "1, 2", "a=5", "b=1", "", "1, c=none", "*[1, 2, 3]", "1, **{'b': 'k'}") + ") }}"
	case 2:
		// loop.cycle and loop.changed with several arguments
		return "{% for i in " + g.pick("[1, 1, 2, 2, 1]", "'aabba'", "[[1], [1], [2]]", "[]", "range(5)", "items", "x") + g.pick("", " if i != 2", " if loop is defined") + " %}" +
			g.pick("{{ loop.cycle('a', 'b', 'c') }}", "{{ loop.cycle() }}", "{{ loop.cycle(*[]) }}", "{{ loop.changed(i, loop.index is odd) }}", "{{ loop.changed() }}",
				"{{ loop.changed(i) }}{{ loop.changed(i) }}", "{{ loop.cycle(i, 2) }}", "{{ loop.changed(i|string) }}", "{{ loop.cycle(*'xy') }}") + "{% endfor %}"
	case 3:
		// include of lists of names, with ignore missing
		g.partials()
		if g.inPartial || g.buffered > 0 {
			return "{{ x }}"
		}
		return "{% include " + g.pick("['nope.j2', 'p.j2']", "['nope.j2']", "[]", "('nope.j2', 'nope2.j2')", "['p.j2', 'nope.j2']", "'nope.j2'", "[none, 'p.j2']", "[1]", "x", "''") +
			g.pick("", " ignore missing", " ignore missing", " ignore missing with context", " ignore missing without context", " without context") + " %}"
	case 4:
		// a set block with filters, over a loop
		return "{% set v | " + g.pick("trim|upper", "replace('\\n', '/')|trim", "wordcount", "center(11)|replace(' ', '.')", "truncate(5, true, '')", "indent(2, true, true)", "list|reverse|join", "e|safe|length", "wordwrap(3)|replace('\\n', '/')") +
			" %}" + g.pick("{% for i in range(3) %} {{ i }}\n{% endfor %}", " ΣΑΣ 日本\u2028x ", "{{ x }} {{ s }}") + "{% endset %}{{ v }}|{{ v|length }}"
	case 5:
		// a with block's names and set after it
		return "{% with a = " + g.val15() + ", b = " + g.pick("a", "1", "x") + " %}{% set a = a ~ 'w' %}{{ a }}{{ b }}{% endwith %}{{ a is defined }}" + g.pick("", "{{ a }}")
	case 6:
		// a for loop's names after it, loop else, set in else
		return "{% set i = 'o' %}{% for i in " + g.pick("[1, 2]", "[]", "x") + " %}{% set j = i %}{% else %}{% set j = 'e' %}{% endfor %}{{ i }}|{{ j is defined }}"
	case 7:
		// a set of tuples and a namespace in a macro
		return "{% macro m(t) %}{% set a, b = t %}{{ a }}-{{ b }}{% endmacro %}{{ m(" + g.pick("(1, 2)", "'ab'", "[1]", "[1, 2, 3]", "{'k': 1, 'j': 2}", "x", "none") + ") }}"
	case 8:
		return "{{ " + g.exprFifteenth() + " }}"
	default:
		return "{{ " + g.exprFifteenth() + " }}" + body()
	}
}
