"""Writes testdata/wordwrap.txt: repr(text) TAB width TAB break_long TAB hyphens TAB json(result of |wordwrap).
Run: python3 testdata/wordwrap.py > testdata/wordwrap.txt"""
import json
from jinja2 import Environment
env = Environment()
texts = ["Hello!\nThis is Jinja saying something.", "a well-known long-winded self-explanatory text -- with dashes---and more",
         "supercalifragilisticexpialidocious is a long word indeed", "  leading spaces and   inner   runs  ", "",
         "x-y-z-aa-bb-cc some--thing ok", "tabs\tand\tspaces mixed in here for width", "Ünïcödé wörds ãre hére tøø, lots of them",
         "one two three four five six seven eight nine ten eleven twelve", "---- dashes ---- only ----", "e-mail re-entry co-op 1-2 a-b",
         "word, punct.--dash and 'quote'--x"]
t = env.from_string("{{ s|wordwrap(w, break_long_words=b, break_on_hyphens=h) }}")
for s in texts:
    for w in (5, 10, 20, 79):
        for b in (True, False):
            for h in (True, False):
                print("%r\t%d\t%s\t%s\t%s" % (s, w, b, h, json.dumps(t.render(s=s, w=w, b=b, h=h))))
