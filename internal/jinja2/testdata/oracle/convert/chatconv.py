#!/usr/bin/env python3
"""The corpus's real chat templates with conversations from elsewhere.

    python3 convert/chatconv.py MINJA_GIT     # -> cases/chatconv.json

Every template of cases/hf.json, cases/llamacpp.json, cases/chatmore.json
and cases/sweep.json, rendered in the "hf" profile with conversations
convert/chat.py does not have:

  - google/minja's tests/contexts/*.json (simple, system, tool_use: the
    conversations its chat-template tests render every model's template
    with), as transformers' apply_chat_template passes them: messages,
    tools (None when absent), documents None, add_generation_prompt, and
    their other keys as template variables (tools_in_user_message,
    builtin_tools, cutting_knowledge_date, todays_date); the bos and eos
    tokens are the template's (convert/chat.py's choice), not minja's;
  - this project's conversations of numbers and template syntax in the
    data: tool-call arguments (a dict) holding floats
    whose repr Python writes with an exponent (1e+16, 1e-05, -2.5e-07,
    1.5e+300), integers beyond 64 bits, nested and empty containers and
    non-ASCII keys, a tool whose description holds "{{" and "{%" and
    whose schema holds number bounds; message text holding "{{", "{%",
    "{#" and other models' special tokens.

Python's Jinja2 decides every expectation (oracle.py). Per template, the
conversations that add nothing are left out as convert/sweep.py leaves
them out (same string or error as an earlier one, and no template code
an earlier one did not run; the number and syntax conversations are kept
whenever they print something new).
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chat  # noqa: E402
import sweep  # noqa: E402
from chatdata import A, S, T, U, call  # noqa: E402 (chat.py put it on the path)

ARGS = {"f1": 1e16, "f2": 1e-05, "f3": 0.1, "f4": 123456789.123, "f5": 1.5e300, "f6": 100.0, "f7": -2.5e-7,
        "f8": 1e15, "f9": 12345678901234567.0, "i": -7, "big": 10 ** 20, "t": True, "n": None,
        "l": [1, 2.0, "x"], "u": {"\u043a\u043b\u044e\u0447": "\u0437\u043d\u0430\u0447\u0435\u043d\u0438\u0435", "k": {"deep": [[]]}},
        "e": "", "emptyd": {}}
TOOLS = [{"type": "function", "function": {"name": "calc", "description": "Compute {{ x }} and {% raw %}", "parameters": {
    "type": "object", "properties": {
        "x": {"type": "number", "minimum": -1e-3, "maximum": 1e21, "default": 0.5},
        "y": {"type": "integer", "enum": [1, 2, 3]},
        "z": {"type": ["string", "null"]},
        "w": {"type": "object", "properties": {"a": {"type": "boolean"}}}},
    "required": []}}}]

OWN = {
    "data-num-args-dict": {"messages": [U("Compute"), A("", [call("c1", "calc", ARGS)]), T("{\"r\": 1e16}", "c1"),
                                        A("Result 1e+16"), U("ok")], "tools": TOOLS},
    "data-template-syntax": {"messages": [S("Use {{ braces }} and {% tags %} and {# c #}"),
                                          U("<|im_end|> <s> </s> [INST] <|eot_id|>"), A("{{'x'}}"), U("end")]},
}


def minja_contexts(git_dir):
    out = {}
    names = sweep.git(git_dir, "ls-tree", "--name-only", "HEAD", "tests/contexts/").decode().split()
    for path in sorted(names):
        ctx = json.loads(sweep.git(git_dir, "show", "HEAD:" + path))
        name = "minja-" + path.rsplit("/", 1)[1][:-len(".json")]
        c = {"messages": ctx["messages"], "tools": ctx.get("tools"), "documents": None,
             "add_generation_prompt": ctx.get("add_generation_prompt", True)}
        c.update((k, v) for k, v in ctx.items() if k not in c and k not in ("bos_token", "eos_token"))
        out[name] = c
    return out


def main():
    minja = sys.argv[1]
    commit = sweep.git(minja, "rev-parse", "HEAD").decode().strip()
    contexts = minja_contexts(minja)
    for name, c in OWN.items():
        contexts[name] = {"messages": c["messages"], "tools": c.get("tools"), "documents": None,
                          "add_generation_prompt": c.get("add_generation_prompt", True)}
    templates = {}
    for name in ("hf.json", "llamacpp.json", "chatmore.json", "sweep.json"):
        with open(os.path.join(HERE, "..", "cases", name), encoding="utf-8") as f:
            doc = json.load(f)
        for ref, text in doc["templates"].items():
            templates[name[:-len(".json")] + "/" + ref] = text
    cases = []
    for ref, text in templates.items():
        bos, eos = chat.tokens(text)
        for cname in contexts:
            cases.append({"id": "chatconv/%s/%s" % (ref, cname), "template_ref": ref, "context_ref": cname,
                          "context": {"bos_token": bos, "eos_token": eos}, "env": {"profile": "hf"}})
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    doc = {"jinja2": "", "source": {
        "repo": "google/minja (tests/contexts/*.json) at " + commit + "; the templates of hf.json, llamacpp.json, chatmore.json and sweep.json",
        "path": "convert/chatconv.py", "licence": "MIT (minja's contexts); the templates' as their files state"},
        "contexts": contexts, "templates": templates, "cases": cases}
    oracle.write_cases("chatconv.json", doc)
    sweep.prune(os.path.join(HERE, "..", "cases", "chatconv.json"), data=("data-",))


if __name__ == "__main__":
    main()
