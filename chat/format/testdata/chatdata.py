"""What the Jinja2 oracles share (chat/format/testdata/oracle.py,
chat/format/chattemplate/testdata/hf/oracle.py, batch/testdata's and
internal/jinja2/testdata/oracle's): the
environment transformers' apply_chat_template renders a chat template in,
and the pieces their conversations are made of.

Not a script; the oracles import it.
"""

import json
import os

from jinja2 import nodes
from jinja2.exceptions import TemplateError
from jinja2.ext import Extension, loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment


class AssistantTracker(Extension):
    """transformers' {% generation %} block, which renders its body."""
    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return nodes.CallBlock(self.call_method("_render", []), [], [], body).set_lineno(lineno)

    def _render(self, caller):
        return caller()


def environment(strftime_now, extensions=(), loader=None):
    """transformers' _compile_jinja_template: a sandbox with trim_blocks and
    lstrip_blocks, loopcontrols and the given extensions, its tojson (no
    ASCII escaping), raise_exception raising TemplateError, and
    strftime_now(fmt) as given (the oracles pin the time); loader, if
    given, for include, import and extends."""
    def raise_exception(message):
        raise TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, loader=loader,
                                        extensions=[*extensions, loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env


# bos/eos pairs, the first whose tokens the template writes wins.
TOKEN_PAIRS = [
    ("<|begin_of_text|>", "<|eot_id|>"),
    ("<bos>", "<eos>"),
    ("<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>"),
    ("<BOS_TOKEN>", "<|END_OF_TURN_TOKEN|>"),
    ("<|startoftext|>", "<|endoftext|>"),
    ("[gMASK]<sop>", "<|endoftext|>"),
    ("", "<|im_end|>"),
    ("<s>", "</s>"),
]


def tokens(src):
    """The bos and eos tokens the oracles give the template src: the first
    pair of TOKEN_PAIRS whose bos (if any) or eos it writes; else <s>, </s>."""
    for bos, eos in TOKEN_PAIRS:
        if (bos and bos in src) or eos in src:
            return bos or "<s>", eos
    return "<s>", "</s>"


def hf_templates(hf):
    """The chat templates of chattemplate's corpus, hf being its folder
    (chat/format/chattemplate/testdata/hf): each entry of sources.json with
    the text of its template, newlines as written."""
    with open(os.path.join(hf, "sources.json"), encoding="utf-8") as f:
        sources = json.load(f)
    out = []
    for s in sources:
        with open(os.path.join(hf, "templates", s["file"]), encoding="utf-8", newline="") as f:
            out.append((s, f.read()))
    return out


SYS = "You are a helpful assistant."
TOOLS = [
    {"type": "function", "function": {
        "name": "get_weather",
        "description": "Get the weather — 天气",
        "parameters": {"type": "object", "properties": {
            "city": {"type": "string", "description": "City name"},
            "unit": {"type": "string", "enum": ["°C", "°F"]}},
            "required": ["city"]}}},
    {"type": "function", "function": {
        "name": "get_time",
        "description": "Current time",
        "parameters": {"type": "object", "properties": {"tz": {"type": "string"}}}}},
]


def S(t): return {"role": "system", "content": t}
def U(t): return {"role": "user", "content": t}
def A(t, calls=None):
    m = {"role": "assistant", "content": t}
    if calls:
        m["tool_calls"] = calls
    return m
def T(t, cid): return {"role": "tool", "content": t, "tool_call_id": cid}
# A call as transformers hands it to a template: arguments as a dict.
def call(cid, name, args): return {"id": cid, "type": "function", "function": {"name": name, "arguments": args}}


PARIS = call("call00001", "get_weather", {"city": "Paris", "unit": "°C"})
TIME = call("call00002", "get_time", {"tz": "Europe/Paris"})
