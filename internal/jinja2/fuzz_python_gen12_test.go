package jinja2

// The generator's twelfth widening (docs/FUZZING.md, issue 23's twelfth
// round), toward what the round implemented: Markup's str methods bound
// as markupsafe's Python functions (keywords, counts, the Markup or str
// they return, their arguments escaped), Markup's item and __getitem__,
// str.translate; loops over a dict, its views and |items whose body
// changes the dict (update, pop, setdefault, a set block on an attribute),
// with loop's attributes, a filter or recursion, and loops over a list
// the body appends to.

// exprTwelfth is one of the expressions of the twelfth widening.
func (g *fuzzGen) exprTwelfth() string {
	switch g.n(3) {
	case 0, 1:
		return g.markupMethod12()
	default:
		return g.translate12()
	}
}

// markup12 is a Markup value, or a str beside it.
func (g *fuzzGen) markup12() string {
	return g.pick("(x|e)", "('<a> & b'|safe)", "(s|e)", "('a\tb\\nc'|safe)", "('&lt;x&gt;'|safe)", "('{}<{a}>'|safe)", "('|'|safe)", "('ab'|e)", "'<s>'", "x")
}

// markupArg12 is an argument of a Markup method.
func (g *fuzzGen) markupArg12() string {
	return g.pick("'<'", "'&'", "'a'", "''", "1", "-1", "12", "none", "true", "x", "'<b>'|safe", "[x, '<']", "{'a': '<'}", "2**70", "nothere", "' '", "';'")
}

// markupMethod12 is a str method of a Markup value, called with
// positions, keywords or the wrong count, or read as a bound method.
func (g *fuzzGen) markupMethod12() string {
	m := g.pick("split", "rsplit", "splitlines", "partition", "rpartition", "strip", "lstrip", "rstrip", "replace", "ljust", "rjust", "center",
		"zfill", "upper", "lower", "title", "capitalize", "swapcase", "casefold", "removeprefix", "removesuffix", "expandtabs", "join",
		"format", "format_map", "translate", "__getitem__", "unescape", "striptags", "find", "count", "startswith", "encode")
	var args string
	switch g.n(6) {
	case 0:
		args = ""
	case 1:
		args = g.markupArg12()
	case 2:
		args = g.markupArg12() + ", " + g.markupArg12()
	case 3:
		args = g.pick("sep", "maxsplit", "keepends", "chars", "old", "width", "fillchar", "suffix", "prefix", "tabsize", "key", "table", "a", "foo") + "=" + g.markupArg12()
	case 4:
		args = g.markupArg12() + ", " + g.pick("sep", "maxsplit", "new", "fillchar", "foo") + "=" + g.markupArg12()
	default:
		args = "1, 2, 3, 4"
	}
	call := g.markup12() + "." + m + "(" + args + ")"
	switch g.n(8) {
	case 0:
		return g.markup12() + "." + m
	case 1:
		return call + ".__class__.__name__"
	case 2:
		return call + " ~ '<'"
	case 3:
		return g.markup12() + "[" + g.pick("0", "-1", "1:4", "::-1", "99", "'a'", "true") + "]" + g.pick("", " ~ '<'", "|length", ".__class__.__name__")
	case 4:
		return call + "|" + g.pick("list", "first", "join('<')", "length", "e", "string", "tojson")
	default:
		return call
	}
}

// translate12 is str.translate of a str or Markup with a table.
func (g *fuzzGen) translate12() string {
	return g.pick("'abc'", "'a<b'", "('a&b'|safe)", "x", "'\u00e9\U0001F600'") + ".translate(" +
		g.pick("{97: 'x'}", "{97: none, 98: 66}", "{60: '&lt;'}", "[]", "'0123456789' * 10", "{97: -1}", "{97: 1.5}", "{97: true}", "none", "1", "", "{}, {}", "table={}", "nothere", "{38: '<'|safe}", "{233: 'e', 128512: ':)'}", "(1, 2)") + ")"
}

// stmtTwelfth is one of the statements of the twelfth widening.
func (g *fuzzGen) stmtTwelfth(depth int, body, buffered func() string) string {
	if g.n(3) == 0 {
		return "{{ " + g.markupMethod12() + " }}"
	}
	// a loop whose body may change what it iterates
	attr := g.pick("", "{{ loop.index }}", "{{ loop.nextitem }}", "{{ loop.last }}", "{{ loop.length }}", "{{ loop.revindex }}", "{{ loop.previtem }}",
		"{{ loop.changed(k) }}", "{{ loop.cycle('a', 'b') }}", "{{ loop.first }}", "{{ loop|length }}")
	change := g.pick("{% set _ = d.update({'z': 1}) %}", "{% set _ = d.update({'b': 9}) %}", "{% set _ = d.pop('c', 0) %}", "{% set _ = d.setdefault(k ~ k, 1) %}",
		"{% set _ = d.clear() %}", "{% set d.z %}x{% endset %}", "{% set d.a %}x{% endset %}", "{% set _ = d.popitem() %}", "{{ m() }}")
	cond := g.pick("", "", " if loop.first", " if loop.last", " if loop.index == 2", " if k == 'b'")
	if cond != "" {
		change = "{% if " + cond[4:] + " %}" + change + "{% endif %}"
	}
	it := g.pick("d", "d.items()", "d.keys()", "d.values()", "d|items", "d|dictsort", "d|list")
	target := "k"
	if it == "d.items()" || it == "d|items" || it == "d|dictsort" {
		target = g.pick("k, v", "k")
	}
	filter := g.pick("", "", " if k", " if k != 'b'", " if loop is defined")
	brk := g.pick("", "", "{% if loop.index == 2 %}{% break %}{% endif %}")
	if g.n(4) == 0 {
		// a list the body appends to or pops from
		return "{% set l = [1, 2, 3] %}{% for k in l" + filter + " %}{{ k }}" + attr +
			g.pick("{% if k < 5 %}{% set _ = l.append(k + 3) %}{% endif %}", "{% set _ = l.pop() if l|length > 1 %}", "{% set _ = l.insert(0, 9) if loop.first %}", "") + brk + "|{% endfor %}{{ l }}"
	}
	return "{% set d = {'a': 1, 'b': 2, 'c': 3} %}{% macro m() %}{% set _ = d.update({'q': 0}) %}{% endmacro %}{% for " + target + " in " + it + filter +
		g.pick("", "", " recursive") + " %}{{ " + target + " }}" + attr + change + brk + ";" + g.pick("", "{% else %}E") + "{% endfor %}{{ d }}"
}
