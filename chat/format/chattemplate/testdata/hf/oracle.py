#!/usr/bin/env python3
"""Oracle for chat/format's Template: real chat templates rendered by Jinja2
as transformers' apply_chat_template renders them.

    python3 chat/format/chattemplate/testdata/hf/oracle.py            # render: writes results.json
    python3 chat/format/chattemplate/testdata/hf/oracle.py --collect  # re-collect templates/ (needs go, npm, node)

Templates (templates/NNN.jinja, listed in sources.json with where each came
from and the licence of that file):
  * github.com/ollama/ollama@v0.17.4 template/index.json (MIT): chat_template
    strings copied from the models' tokenizer_config.json files.
  * npm @huggingface/ollama-utils@0.0.18 src/chat-template-automap.ts (MIT):
    the chat templates of GGUF files on the HuggingFace Hub, by Ollama model.
  * chat/format/testdata/oracle.py: Qwen2.5-Instruct and Mistral v3, as
    published with the models.
Each template is kept once (by its text). The models' own licences apply to
the templates themselves; sources.json names the model.

Environment, as transformers' _compile_jinja_template sets it up:
ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
extensions=[AssistantTracker ({% generation %}), loopcontrols]); tojson =
json.dumps(x, ensure_ascii=False, indent, separators, sort_keys);
raise_exception raises TemplateError; strftime_now formats the pinned time
2024-07-26 12:34:56. Variables: messages, tools (None when absent),
documents=None, add_generation_prompt, bos_token and eos_token (chosen per
template from the tokens it writes; see chatdata.tokens()).

results.json: for each template and conversation, "output" or "error" (with
the Python exception's type). The Go test (hf_corpus_test.go) renders the
same pairs with format.Template.
"""

import datetime
import hashlib
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "testdata"))
import chatdata  # noqa: E402 (chat/format/testdata/chatdata.py)
from chatdata import A, PARIS, S, SYS, T, TIME, TOOLS, U  # noqa: E402,F401 (sft_tools_oracle.py uses TOOLS)

NOW = datetime.datetime(2024, 7, 26, 12, 34, 56)


def environment():
    return chatdata.environment(lambda fmt: NOW.strftime(fmt), [chatdata.AssistantTracker])


SPECIAL_RE = re.compile(r"<\|[A-Za-z0-9_.:/ -]{1,40}\|>|<｜[^｜]{1,40}｜>|<(?:start|end)_of_turn>|\[/?INST\]|<(?:/?)(?:tool_call|tool_response)>")


def special_tokens(src, bos, eos):
    """Special tokens for the injection test: bos, eos, and the token-like
    literals the template writes."""
    found = set(SPECIAL_RE.findall(src))
    found.update(t for t in (bos, eos) if t)
    return sorted(found)


# ---------------------------------------------------------------- conversations

CONVERSATIONS = [
    {"name": "system-user-assistant-user", "add_generation_prompt": True,
     "messages": [S(SYS), U("Hello, how are you?"), A("I'm doing great. How can I help you today?"),
                  U("I'd like to show off how chat templating works!")]},
    {"name": "system-user-assistant-user-no-generation", "add_generation_prompt": False,
     "messages": [S(SYS), U("Hello, how are you?"), A("I'm doing great. How can I help you today?"),
                  U("I'd like to show off how chat templating works!")]},
    {"name": "user-assistant-no-generation", "add_generation_prompt": False,
     "messages": [U("What is 2+2?"), A("4")]},
    {"name": "user", "add_generation_prompt": True, "messages": [U("Hi!")]},
    {"name": "tools-call-result", "add_generation_prompt": True, "tools": TOOLS,
     "messages": [U("Weather in Paris?"), A("", [PARIS]), T('{"temp": 20}', "call00001")]},
    {"name": "tools-two-calls-answer", "add_generation_prompt": True, "tools": TOOLS,
     "messages": [S(SYS), U("Weather and time in Paris?"), A("Let me check.", [PARIS, TIME]),
                  T('{"temp": 20}', "call00001"), T('"12:00"', "call00002"),
                  A("It is 20 °C and noon."), U("Thanks!")]},
    {"name": "tools-offered", "add_generation_prompt": True, "tools": TOOLS,
     "messages": [S("Be brief."), U("Weather in Paris?")]},
    {"name": "image-parts", "add_generation_prompt": True,
     "messages": [{"role": "user", "content": [
         {"type": "text", "text": "What is in this picture?"},
         {"type": "image", "url": "https://example.com/cat.png"},
         {"type": "text", "text": "Answer briefly."}]}]},
    {"name": "unicode", "add_generation_prompt": True,
     "messages": [S("你是一个乐于助人的助手。"), U("Grüß dich! Ça va? 😀 “quotes” \\n <tag> & {braces}"),
                  A("很好，谢谢！\n  indented"), U("  日本語で答えてください\t")]},
    {"name": "system-late", "add_generation_prompt": True,
     "messages": [U("Hello"), A("Hi"), S("Now be brief."), U("Bye")]},
]


# ---------------------------------------------------------------- collection

def collect():
    out = []

    def add(src, source, licence, model):
        for t in out:
            if t["text"] == src:
                t["also"].append(source + " (" + model + ")")
                return
        out.append({"text": src, "source": source, "licence": licence, "model": model, "also": []})

    tmp = "/tmp/rolemark-hf-collect"
    os.makedirs(tmp, exist_ok=True)
    if not os.path.exists(os.path.join(tmp, "go.mod")):
        subprocess.run(["go", "mod", "init", "x"], cwd=tmp, check=True, capture_output=True)
    info = json.loads(subprocess.run(["go", "mod", "download", "-json", "github.com/ollama/ollama@v0.17.4"],
                                     cwd=tmp, check=True, capture_output=True, text=True).stdout)
    with open(os.path.join(info["Dir"], "template", "index.json"), encoding="utf-8") as f:
        for i, e in enumerate(json.load(f)):
            add(e["template"], f"github.com/ollama/ollama@v0.17.4 template/index.json[{i}]", "MIT (ollama)", e["name"])

    subprocess.run(["npm", "pack", "@huggingface/ollama-utils@0.0.18"], cwd=tmp, check=True, capture_output=True)
    subprocess.run(["tar", "xzf", "huggingface-ollama-utils-0.0.18.tgz"], cwd=tmp, check=True)
    js = r'''
let s=require("fs").readFileSync(process.argv[1],"utf8");
s=s.replace(/^import type.*$/m,"").replace(/export const OLLAMA_CHAT_TEMPLATE_MAPPING[^=]*=/,"module.exports =");
const m={exports:{}}; new Function("module",s)(m);
process.stdout.write(JSON.stringify(m.exports.map(e=>({model:e.model,gguf:e.gguf}))));
'''
    automap = json.loads(subprocess.run(["node", "-e", js, os.path.join(tmp, "package", "src", "chat-template-automap.ts")],
                                        check=True, capture_output=True, text=True).stdout)
    for e in automap:
        add(e["gguf"], "npm @huggingface/ollama-utils@0.0.18 src/chat-template-automap.ts",
            "MIT (huggingface.js)", e["model"])

    import oracle as preset_oracle  # chat/format/testdata/oracle.py
    add(preset_oracle.QWEN25, "chat/format/testdata/oracle.py QWEN25", "Apache-2.0 (Qwen2.5)", "Qwen/Qwen2.5-7B-Instruct")
    add(preset_oracle.MISTRAL_V3, "chat/format/testdata/oracle.py MISTRAL_V3", "Apache-2.0 (Mistral)", "mistralai/Mistral-7B-Instruct-v0.3")

    tdir = os.path.join(HERE, "templates")
    os.makedirs(tdir, exist_ok=True)
    for f in os.listdir(tdir):
        os.remove(os.path.join(tdir, f))
    sources = []
    for i, t in enumerate(out):
        fname = "%03d.jinja" % i
        with open(os.path.join(tdir, fname), "w", encoding="utf-8", newline="") as f:
            f.write(t["text"])
        bos, eos = chatdata.tokens(t["text"])
        sources.append({"file": fname, "model": t["model"], "source": t["source"], "licence": t["licence"],
                        "sha256": hashlib.sha256(t["text"].encode()).hexdigest()[:16],
                        "bos_token": bos, "eos_token": eos, "special": special_tokens(t["text"], bos, eos),
                        "also": t["also"]})
    with open(os.path.join(HERE, "sources.json"), "w", encoding="utf-8") as f:
        f.write("[\n" + ",\n".join(json.dumps(s, ensure_ascii=False) for s in sources) + "\n]\n")
    print(len(sources), "templates")


# ---------------------------------------------------------------- rendering

def render_all():
    env = environment()
    templates = chatdata.hf_templates(HERE)
    results = []
    for s, src in templates:
        try:
            tmpl = env.from_string(src)
        except Exception as e:
            for c in CONVERSATIONS:
                results.append({"template": s["file"], "conversation": c["name"], "error": str(e), "error_kind": type(e).__name__})
            continue
        for c in CONVERSATIONS:
            r = {"template": s["file"], "conversation": c["name"]}
            try:
                r["output"] = tmpl.render(messages=c["messages"], tools=c.get("tools"), documents=None,
                                          add_generation_prompt=c["add_generation_prompt"],
                                          bos_token=s["bos_token"], eos_token=s["eos_token"])
            except Exception as e:
                r["error"] = str(e)
                r["error_kind"] = type(e).__name__
            results.append(r)
    with open(os.path.join(HERE, "conversations.json"), "w", encoding="utf-8") as f:
        f.write("[\n" + ",\n".join(json.dumps(c, ensure_ascii=False) for c in CONVERSATIONS) + "\n]\n")
    with open(os.path.join(HERE, "results.json"), "w", encoding="utf-8") as f:
        f.write("[\n" + ",\n".join(json.dumps(r, ensure_ascii=False) for r in results) + "\n]\n")
    ok = sum("output" in r for r in results)
    print(len(templates), "templates,", len(results), "pairs,", ok, "rendered,", len(results) - ok, "raised")


if __name__ == "__main__":
    if "--collect" in sys.argv:
        collect()
    render_all()
