"""Writes testdata/methods.txt: Python's answers to method calls, format()
and % formatting.

Each line: receiver TAB method TAB args TAB kwargs TAB answer, where
receiver, args (a list) and kwargs (a dict) are Python literals and answer
is type:repr(result) or !ExceptionType: message. The method "%" is
receiver % args[0], "format" with no receiver is format(args[0], args[1]),
and the answer to a list's "insert" is the list after the call.
Run: python3 testdata/methods.py > testdata/methods.txt
"""
import itertools

from pyanswer import ans

strs = ["''", "'a'", "'Hello World'", "' 1 2 '", "'ß'", "'ΣΑΣ ΣΑΣ'", "'ǆungla'", "'ﬁ'", "'İ'", "'hello wORLD 3rd'",
        "'a,b,,c'", "'\\t x \\n'", "'line1\\nline2\\r\\nline3\\x85'", "'ab\\xa0cd'", "'12'", "'²'", "'一'", "'-42'", "'x\\u200by'",
        "'They\\'re bill\\'s'", "'ÉCOLE école'"]
noarg = ["upper", "lower", "title", "capitalize", "swapcase", "casefold", "strip", "lstrip", "rstrip", "split", "rsplit",
         "splitlines", "isdigit", "isdecimal", "isnumeric", "isalpha", "isalnum", "isspace", "isascii", "isprintable",
         "islower", "isupper", "istitle", "isidentifier"]
calls = []
for s in strs:
    for m in noarg:
        calls.append((s, m, "[]", "{}"))
more = [
    ("' 1 2 '", "split", "[None, 1]", "{}"), ("' 1 2 '", "rsplit", "[None, 1]", "{}"), ("'a,b,,c'", "split", "[',']", "{}"),
    ("'a,b,,c'", "split", "[',', 1]", "{}"), ("'a,b,,c'", "rsplit", "[',', 1]", "{}"), ("'a,b,,c'", "split", "['']", "{}"),
    ("'a,b,,c'", "split", "[]", "{'sep': ',', 'maxsplit': 2}"), ("'a b'", "split", "[1]", "{}"),
    ("'xxhixx'", "strip", "['x']", "{}"), ("'xxhixx'", "lstrip", "['x']", "{}"), ("'xxhixx'", "rstrip", "['xh']", "{}"),
    ("'hello'", "startswith", "['he']", "{}"), ("'hello'", "startswith", "[('x', 'h')]", "{}"), ("'hello'", "endswith", "['lo', 3]", "{}"),
    ("'hello'", "startswith", "[1]", "{}"), ("'hello'", "replace", "['l', 'L']", "{}"), ("'hello'", "replace", "['l', 'L', 1]", "{}"),
    ("'hello'", "replace", "['', '-']", "{}"), ("'héllo'", "find", "['l']", "{}"), ("'héllo'", "rfind", "['l']", "{}"),
    ("'héllo'", "index", "['z']", "{}"), ("'héllo'", "find", "['l', 3]", "{}"), ("'héllo'", "count", "['l']", "{}"),
    ("'héllo'", "count", "['']", "{}"), ("', '", "join", "[['a', 'b']]", "{}"), ("', '", "join", "[['a', 1]]", "{}"),
    ("'-'", "join", "['abc']", "{}"), ("'ab'", "center", "[7, '*']", "{}"), ("'ab'", "center", "[6]", "{}"), ("'abc'", "center", "[6]", "{}"),
    ("'ab'", "ljust", "[5]", "{}"), ("'ab'", "rjust", "[5, '0']", "{}"), ("'-42'", "zfill", "[6]", "{}"), ("'42'", "zfill", "[1]", "{}"),
    ("'a=b=c'", "partition", "['=']", "{}"), ("'a=b=c'", "rpartition", "['=']", "{}"), ("'abc'", "partition", "['=']", "{}"),
    ("'abc'", "rpartition", "['=']", "{}"), ("'a\\tb'", "expandtabs", "[]", "{}"), ("'a\\tb'", "expandtabs", "[4]", "{}"),
    ("'prefix-x'", "removeprefix", "['prefix-']", "{}"), ("'x.txt'", "removesuffix", "['.txt']", "{}"),
    ("'a\\nb'", "splitlines", "[True]", "{}"), ("'upper'", "upper", "[1]", "{}"),
    ("'{} and {}'", "format", "[1, 'b']", "{}"), ("'{0}{1}{0}'", "format", "['a', 'b']", "{}"), ("'{name}!'", "format", "[]", "{'name': 'x'}"),
    ("'{:>8.3f}|{:<5}|{:^7}'", "format", "[3.14159, 'ab', 'c']", "{}"), ("'{!r}'", "format", "[\"it's\"]", "{}"),
    ("'{0[a]} {0[b][0]}'", "format", "[{'a': 1, 'b': [2]}]", "{}"), ("'{:,}'", "format", "[1234567]", "{}"),
    ("'{:08.2f}'", "format", "[-3.5]", "{}"), ("'{:+d}'", "format", "[5]", "{}"), ("'{:x} {:X} {:#o} {:#b}'", "format", "[255, 255, 8, 5]", "{}"),
    ("'{:e}'", "format", "[12345.678]", "{}"), ("'{:g} {:g} {:g}'", "format", "[0.0001, 1e16, 123456789]", "{}"),
    ("'{:.2%}'", "format", "[0.256]", "{}"), ("'{:{w}}'", "format", "['x']", "{'w': 5}"), ("'{}'", "format", "[]", "{}"),
    ("'{0}{}'", "format", "[1, 2]", "{}"), ("'{'", "format", "[]", "{}"), ("'}'", "format", "[]", "{}"), ("'{{x}}'", "format", "[]", "{}"),
    ("'{:d}'", "format", "['a']", "{}"), ("'{:s}'", "format", "[1]", "{}"), ("'{:.3}'", "format", "[2.0]", "{}"), ("'{:.3}'", "format", "['abcdef']", "{}"),
    ("'{}'", "format", "[None]", "{}"), ("'{:>5}'", "format", "[None]", "{}"), ("'{:>5}'", "format", "[True]", "{}"), ("'{}'", "format", "[[1, 'a']]", "{}"),
    ("'{:_}'", "format", "[10**10]", "{}"), ("'{:,.2f}'", "format", "[1234567.891]", "{}"), ("'{:z.1f}'", "format", "[-0.01]", "{}"),
    ("'{:.1f}'", "format", "[-0.01]", "{}"), ("'{:c}'", "format", "[65]", "{}"), ("'{:=+8}'", "format", "[-3]", "{}"), ("'{:*^9}'", "format", "['mid']", "{}"),
    ("'{:.0f} {:.0f} {:.0f}'", "format", "[0.5, 1.5, 2.5]", "{}"), ("'{:}'", "format", "[1.0]", "{}"), ("'{:10}'", "format", "[1.5]", "{}"), ("'{:.2}'", "format", "[1234.5]", "{}"),
    ("'%s says: %s'", "%", "[('a', 'b')]", "{}"), ("'%d %05.2f %r %x'", "%", "[(3, 2.5, 'x', 255)]", "{}"), ("'%s'", "%", "[[1, 2]]", "{}"),
    ("'%s'", "%", "[{'a': 1}]", "{}"), ("'%(a)s-%(b)d'", "%", "[{'a': 'x', 'b': 2}]", "{}"), ("'%s %s'", "%", "[('a',)]", "{}"),
    ("'%s'", "%", "[('a', 'b')]", "{}"), ("'%d'", "%", "['x']", "{}"), ("'%d'", "%", "[3.9]", "{}"), ("'%x'", "%", "[3.9]", "{}"),
    ("'%5s|%-5s|'", "%", "[('a', 'b')]", "{}"), ("'%.2s'", "%", "['abc']", "{}"), ("'%+d % d'", "%", "[(5, 5)]", "{}"), ("'%#x %#o'", "%", "[(255, 8)]", "{}"),
    ("'%e %g %G'", "%", "[(1234.5, 0.00001, 1e20)]", "{}"), ("'%c%c'", "%", "[(65, 'b')]", "{}"), ("'100%%'", "%", "[()]", "{}"), ("'%z'", "%", "[1]", "{}"),
    ("'%'", "%", "[1]", "{}"), ("'%*d'", "%", "[(5, 3)]", "{}"), ("'%.3d'", "%", "[7]", "{}"), ("'%08.3f'", "%", "[-3.14159]", "{}"), ("'%s'", "%", "[None]", "{}"),
    ("'%a'", "%", "['é']", "{}"), ("'%(a)s'", "%", "[('x',)]", "{}"), ("'%s'", "%", "[1.0]", "{}"), ("'%f'", "%", "[float('inf')]", "{}"), ("'%05d'", "%", "[-3]", "{}"),
    ("'%3c|%-3c|%03c|%05s|%-4r|'", "%", "[(65, 'y', 'z', 'ef', 'q')]", "{}"),
    ("[1, 2, 1]", "index", "[1]", "{}"), ("[1, 2, 1]", "index", "[3]", "{}"), ("[1, 2, 1]", "count", "[1]", "{}"), ("(1, 2)", "index", "[3]", "{}"),
    ("{'a': 1}", "get", "['a']", "{}"), ("{'a': 1}", "get", "['b']", "{}"), ("{'a': 1}", "get", "['b', 0]", "{}"), ("{'a': 1}", "items", "[]", "{}"),
    ("{'a': 1}", "keys", "[]", "{}"), ("{'a': 1}", "values", "[]", "{}"), ("{'a': 1}", "pop", "['b']", "{}"), ("{'a': 1}", "pop", "['a']", "{}"),
    ("{}", "popitem", "[]", "{}"), ("{'a': 1}", "setdefault", "['b', 2]", "{}"), ("[]", "pop", "[]", "{}"), ("[3, 1, 2]", "pop", "[0]", "{}"),
    ("[3, 1, 2]", "remove", "[5]", "{}"), ("{'a': 1}", "get", "[]", "{}"), ("'ab'", "upper", "[]", "{'x': 1}"),
    # Indices out of range, negative from the end and clamped (a span's
    # end, list.insert's index); a start past the end matches nothing.
    ("'héllo'", "find", "['l', -4, 99]", "{}"), ("'héllo'", "find", "['l', 0, -2]", "{}"), ("'héllo'", "find", "['l', -99, -99]", "{}"),
    ("'héllo'", "count", "['l', -3, -1]", "{}"), ("'héllo'", "count", "['', 2, 99]", "{}"), ("'héllo'", "find", "['', 5]", "{}"),
    ("'héllo'", "find", "['', 6]", "{}"), ("'héllo'", "rfind", "['l', -9, 3]", "{}"), ("'héllo'", "startswith", "['lo', -2, 99]", "{}"),
    ("[1, 2, 3]", "insert", "[-1, 'x']", "{}"), ("[1, 2, 3]", "insert", "[-99, 'x']", "{}"), ("[1, 2, 3]", "insert", "[99, 'x']", "{}"),
    ("[1, 2, 3]", "insert", "[3, 'x']", "{}"), ("[]", "insert", "[-1, 'x']", "{}"),
]
calls += more
specs = ["", "5", "<5", ">5", "^5", "05", "+", " ", ",", "_", ".2", ".2f", ".0f", "e", ".3e", "g", ".3g", "%", "x", "#x", "b", "o", "c", "d", "n", "s", "10.4", "z.2f", "=+10", "#.0f", "#g", "#.3", "010,", ",.2f", "*>+8.1f"]
vals = ["0", "1", "-1", "255", "10**20", "-2**70", "0.0", "-0.0", "1.5", "-2.25", "1e16", "1e-05", "123456.789", "float('inf')", "float('nan')", "True", "'abc'", "None", "[1]"]
for v in vals:
    for sp in specs:
        calls.append(("None", "format", "[%s, %r]" % (v, sp), "{}"))
for r, m, a, k in calls:
    if r == "None" and m == "format":
        args = eval(a)
        print("%s\t%s\t%s\t%s\t%s" % (r, m, a, k, ans(lambda: format(args[0], args[1]))))
        continue
    recv, args, kwargs = eval(r), eval(a), eval(k)
    if m == "%":
        print("%s\t%s\t%s\t%s\t%s" % (r, m, a, k, ans(lambda: recv % args[0])))
    elif m == "insert":  # None: the answer is the list after the call
        print("%s\t%s\t%s\t%s\t%s" % (r, m, a, k, ans(lambda: (recv.insert(*args, **kwargs), recv)[1])))
    else:
        print("%s\t%s\t%s\t%s\t%s" % (r, m, a, k, ans(lambda: getattr(recv, m)(*args, **kwargs))))
