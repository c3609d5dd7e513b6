"""Writes testdata/urlize.txt: repr(text) TAB json(kwargs) TAB json(result of |urlize(**kwargs)).
Run: python3 testdata/urlize.py > testdata/urlize.txt"""
import json
from jinja2 import Environment
env = Environment()
texts = ["foo http://www.example.com/ bar", "foo www.example.com bar", "(see http://example.org/a_(b)).", "email me@example.com, or mailto:x@y.co",
         "<https://x.io/?q=1&r=2> and <b>", "a.b.com c.org example.xyz", "https://192.168.0.1:8080/path #frag", "http://[::1]/ and xn--bcher-kva.de",
         "@user and a@b@c", "tel:+1-514-555-1234 ftp://files.example.net", "it's http://example.com/it's", "long https://example.com/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
         "(www.example.com)", "www.example.com.", "multi\nline\twww.example.com\n"]
kws = [{}, {"trim_url_limit": 10}, {"nofollow": True, "target": "_blank"}, {"rel": "x y"}, {"extra_schemes": ["tel:", "ftp://"]}]
t = env.from_string("{{ s|urlize(**kw) }}")
for s in texts:
    for kw in kws:
        print("%r\t%s\t%s" % (s, json.dumps(kw), json.dumps(t.render(s=s, kw=kw))))
