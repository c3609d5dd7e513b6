"""Writes testdata/pprint.txt: repr(value) TAB json.dumps(pprint.pformat(value)).
Run: python3 testdata/pformat.py > testdata/pprint.txt"""
import pprint, json
vals = [list(range(100)), {'b': 1, 'a': [1, 2, 3] * 20, 'c': {'x': 'y' * 90}}, 'word ' * 40, ['a' * 30, 'b' * 30, 'c' * 30],
        (1,), {'k': ('t' * 50, 's' * 50)}, {'nested': {'deeper': {'deepest': list(range(30))}}}, "line one\nline two " + "x " * 50,
        [{'role': 'user', 'content': "it's a long message that goes past the width of eighty characters, really"}], {2: 'a', 1: 'b'}, 'short',
        [('a' * 40, 1), ('b' * 40, 2)], {'z': None, 'a': True, 'm': 1.5}]
for v in vals:
    print("%r\t%s" % (v, json.dumps(pprint.pformat(v))))
