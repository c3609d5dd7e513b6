#!/usr/bin/env python3
"""Real chat templates outside every other case file (issue 23, fifteenth
round), with conversations the newer templates need.

    python3 convert/real15.py --index DIR GIT_DIR...   # -> cases/real15.json

Templates come from two places:

  * GIT_DIR...: snapshots of public repositories (bare git directories at
    .../OWNER+NAME/repo, as the fetch tool leaves them), read as
    convert/sweep.py reads them (*.jinja files, tokenizer_config.json and
    chat_template.json). The run that made cases/real15.json looked
    through every snapshot fetched for the earlier rounds (123
    repositories, llama.cpp's, vLLM's and SGLang's forks among them); what
    was new in them is in MIRRORED below (the rest is in other case files
    already, differs only in leading or trailing whitespace, or is a prompt
    template, not a chat template).
  * INDEXED: files of repositories too large to fetch here
    (ggml-org/llama.cpp's models/templates, sgl-project/sglang's), as the
    code index stores them at the commit named; DIR holds each file's text
    as a JSON string, named after the file (NAME.jinja -> NAME.json; a
    chat_template.jinja after its directory, DIR-chat_template.json), as
    the index returned it.

A template whose text is already in another case file, in the prompt
corpus or in a .jinja file of this repository (exactly, or but for leading
and trailing white space: such variants add nothing) is left out. Every
template is rendered in the "hf" profile with the conversations of
convert/chat.py and those of MORE below: tool calls whose arguments hold
lists and nested dicts (a dict and the same as a JSON string),
reasoning_content with tool calls, thinking, a developer message, tool
results as content parts and as Gemma 4's tool_responses, tools whose
parameters nest objects, arrays of objects, enums, const, anyOf, $ref,
defaults and type lists, chat_template_kwargs (reasoning_effort,
preserve_thinking, force_reasoning, clear_thinking, thinking, reasoning,
current_date, knowledge_cutoff, a dict of tool namespace descriptions,
enable_thinking off with tools), and user texts in TranslateGemma's
request markup, their strings holding apostrophes, quotes, backslashes,
newlines, tabs, a no-break space, U+200B and non-BMP characters. sweep.py's prune keeps, per template, the
conversations that add something (MORE's, as the hostile ones, whenever
they print something new). Python's Jinja2 decides every
expectation (oracle.py).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chat  # noqa: E402
import real13  # noqa: E402
import sweep  # noqa: E402
from chat import A, S, T, U, call  # noqa: E402

OUT = "real15.json"

# (repo, path) of the snapshots' templates found new by the run.
MIRRORED = [
    ("ochafik/minja", "tests/synthetic-deepseek-v3.2-dsml.jinja"),
]

# (repo, commit, path, licence) of the files read through the code index.
INDEXED = [
    ("ggml-org/llama.cpp", "708653def250076cc56382f9c524af9db855542c", "models/templates/DeepSeek-V3.2.jinja", "MIT"),
    ("ggml-org/llama.cpp", "ca13f4c01cae739755fedfae817d266846e27b30", "models/templates/StepFun3.7-Flash.jinja", "MIT"),
    ("ggml-org/llama.cpp", "3700b6f7b10b67844b61a196c32218d2558e6099", "models/templates/llama-cpp-lfm2.jinja", "MIT"),
    ("ggml-org/llama.cpp", "a21f05affbf67c90f2ac574f1bdd7197ccbe2369", "models/templates/unsloth-MiniMax-M2.jinja", "MIT"),
    ("ggml-org/llama.cpp", "623f3dd04b05999ffcb598a88d4f79fa9c3af849", "models/templates/glm_4_5.jinja", "MIT"),
    ("ggml-org/llama.cpp", "6d7822c18b5bc43c0053f09cf0eba66bd7e78a93",
     "models/templates/llama-cpp-microsoft-Phi-4-mini-instruct.jinja", "MIT"),
    ("ggml-org/llama.cpp", "0c3c896ea80643608b4e961eec7e1efcd844e109", "models/templates/moonshotai-Kimi-K2-Thinking.jinja",
     "MIT"),
    ("ggml-org/llama.cpp", "44cfbebb441feb06939b275fed91319995cdd4d8", "models/templates/GigaChat3.5.jinja", "MIT"),
    ("ggml-org/llama.cpp", "75f1ba7389067a9f90082515e124c377a1e104b2", "models/templates/gemma4.jinja", "MIT"),
    ("ggml-org/llama.cpp", "1035d607de4b7225ced27a19071a8bd8a1c08fbc",
     "models/templates/nvidia-Llama-3_3-Nemotron-Super-49B-v1_5.jinja", "MIT"),
    ("ggml-org/llama.cpp", "5801ed3557edfdfcd7d14e0821bf8adefdf1aaf1", "models/templates/NVIDIA-Nemotron-Nano-v2.jinja", "MIT"),
    ("ggml-org/llama.cpp", "20bdc4fac4e8779e5b73646f4b3b24a9964aa566", "models/templates/Apriel-1.6-15b-Thinker-fixed.jinja",
     "MIT"),
    ("sgl-project/sglang", "cd1e1632e2f97a5e0bca38438319cbd4af48f428", "docker/glm53-flash/chat_template.jinja", "Apache-2.0"),
    ("vllm-project/vllm", "2e30b474731f235b021ecf9821124116786dfce5", "examples/tool_chat_template_olmo3.jinja", "Apache-2.0"),
    ("vllm-project/vllm", "9a525916e3dfc19c9b00febc373d0d0a556614f6",
     "examples/tool_chat_template_hyperclovax_seed_think_14b.jinja", "Apache-2.0"),
    ("vllm-project/vllm", "1905d9ba0429b0a31198e7d777b596d139d39894", "examples/tool_chat_template_translategemma.jinja",
     "Apache-2.0"),
    ("vllm-project/vllm", "0c36f0b4a90331e477df2bd8fe102b0a79ca127d", "examples/tool_chat_template_muse_glimmer.jinja",
     "Apache-2.0"),
    ("vllm-project/vllm", "385768ea4bb849a846fa783ee83be516205ccff3", "examples/tool_chat_template_nemotron_nano_v2.jinja",
     "Apache-2.0"),
    ("vllm-project/vllm", "36f13f9e85ab7ac7b572f00ca8eeef12539940e7", "examples/tool_chat_template_deepseekv32.jinja",
     "Apache-2.0"),
]

# --- conversations ------------------------------------------------------------

ODD = "O'Brien said \"hi\" \\ back\\slash\nnext\tline\u00a0nbsp\u200bzw \U0001F600\U0001D518"

NESTED_TOOLS = [
    {"type": "function", "function": {
        "name": "book_trip", "description": "Book a trip.\nIt's \"final\" \u2014 no refunds \U0001F6EB",
        "parameters": {
            "type": "object",
            "$defs": {"Place": {"type": "object", "properties": {"city": {"type": "string"}, "code": {"type": "string", "pattern": "^[A-Z]{3}$"}}}},
            "properties": {
                "travellers": {"type": "array", "description": "Who goes", "minItems": 1, "items": {
                    "type": "object", "properties": {
                        "name": {"type": "string", "description": "Full name\nas on the passport"},
                        "age": {"type": "integer", "minimum": 0, "maximum": 130},
                        "kind": {"type": "string", "enum": ["adult", "child's", "in\"fant"]}},
                    "required": ["name"]}},
                "from": {"$ref": "#/$defs/Place"},
                "to": {"$ref": "#/$defs/Place"},
                "class": {"type": "string", "enum": ["economy", "business"], "default": "economy"},
                "flexible": {"type": ["boolean", "null"], "default": None},
                "budget": {"anyOf": [{"type": "number", "exclusiveMinimum": 0}, {"type": "null"}]},
                "currency": {"const": "EUR"},
                "notes": {"type": "object", "additionalProperties": {"type": "string"}}},
            "required": ["travellers", "from", "to"]}}},
    {"type": "function", "function": {"name": "noop", "description": "Nothing.", "parameters": {"type": "object", "properties": {}}}},
]

LIST_ARGS = {"travellers": [{"name": "Zo\u00eb O'Neil", "age": 7, "kind": "child's"}, {"name": "A \"B\" C", "kind": "adult"}],
             "from": {"city": "K\u00f6ln", "code": "CGN"}, "to": {"city": "\u6771\u4eac\u200b", "code": "HND"},
             "class": "business", "flexible": None, "budget": 1234.5, "currency": "EUR",
             "notes": {"diet": "no\u00a0nuts\tplease", "path": "C:\\trips\\2025", "emoji": "\U0001F600"}}

MORE = [
    {"name": "r15-list-args", "add_generation_prompt": True, "tools": NESTED_TOOLS, "messages": [
        S("Plan trips. " + ODD), U("Book it: " + ODD),
        A("Booking now.", [call("call_r15a", "book_trip", LIST_ARGS),
                           call("call_r15b", "book_trip", json.dumps(LIST_ARGS, ensure_ascii=False))]),
        T("{\"ok\": true, \"ref\": \"X'1\"}", "call_r15a"), T("[1, 2.5, \"three\"]", "call_r15b"),
        A("Booked twice: " + ODD)]},
    {"name": "r15-reasoning-tools", "add_generation_prompt": True, "enable_thinking": True, "tools": NESTED_TOOLS, "messages": [
        U("Book a trip for one"),
        {"role": "assistant", "content": "", "reasoning_content": "Need the tool.\nIt's \"easy\" \\ ok",
         "tool_calls": [call("call_r15c", "book_trip", {"travellers": [{"name": "Al"}], "from": {"city": "A"}, "to": {"city": "B"}})]},
        T("{\"ok\": true}", "call_r15c"),
        {"role": "assistant", "content": "Done.", "reasoning_content": "It worked \U0001F600"},
        U("And another " + ODD)]},
    {"name": "r15-thinking-key", "add_generation_prompt": False, "messages": [
        S("sys"), U("Q\u00a0?"), {"role": "assistant", "content": "A \u200b", "thinking": "T'hink \"x\"\n\tmore"}]},
    {"name": "r15-kwargs", "add_generation_prompt": True, "enable_thinking": False, "tools": NESTED_TOOLS,
     "kwargs": {"reasoning_effort": "high", "preserve_thinking": True, "force_reasoning": True, "clear_thinking": False,
                "thinking": True, "reasoning": True, "current_date": "2026-11-27", "knowledge_cutoff": "2025-01", "tool_namespace_descriptions": {"book_trip": "Trips 'n' \"more\""}},
     "messages": [S("Be brief."), U("Hi"), {"role": "assistant", "content": "<think>\nold\n</think>\n\nHello", "reasoning_content": "old"},
                  U("Again " + ODD)]},
    {"name": "r15-translate", "add_generation_prompt": True, "messages": [
        U("<<<source>>> en_US <<<target>>>de<<<text>>>  It's \"fine\" \\ ok\t\U0001F600\u00a0"), A(" Es ist \"gut\" "),
        U("<<<source>>>fr<<<target>>>zh-Hant<<<text>>>Ça\u200bva ?")]},
    {"name": "r15-translate-parts", "add_generation_prompt": False, "messages": [
        {"role": "user", "content": [{"type": "text", "text": "<<<custom>>> Summarise O'Brien's \"notes\"\n"}, {"type": "image"}]}]},
    {"name": "r15-developer", "add_generation_prompt": True, "messages": [
        {"role": "developer", "content": "Dev rules: " + ODD}, U("Hi"), A("Hello"), U("Bye")]},
    {"name": "r15-tool-responses", "add_generation_prompt": True, "tools": NESTED_TOOLS, "messages": [
        U("Book it"), A("", [call("call_r15e", "book_trip", LIST_ARGS)]),
        {"role": "assistant", "content": "", "tool_responses": [
            {"name": "book_trip", "response": {"ok": True, "ref": "X'1", "legs": [1, 2.5]}},
            {"name": "noop", "response": "plain \"text\""}]}]},
    {"name": "r15-tool-parts", "add_generation_prompt": True, "tools": NESTED_TOOLS, "messages": [
        U("Go"), A("", [call("call_r15d", "noop", {})]),
        {"role": "tool", "tool_call_id": "call_r15d", "content": [{"type": "text", "text": "part 'one'"}, {"type": "text", "text": "two\n\"2\""}]}]},
]

# --- templates ----------------------------------------------------------------


def known_texts():
    texts = real13.known_texts(exclude=(OUT,))
    root = os.path.abspath(os.path.join(HERE, "..", "..", "..", "..", ".."))
    files = sweep.git(os.path.join(root, ".git"), "ls-files").decode().split("\n")
    for p in files:
        if p.endswith((".jinja", ".j2", ".jinja2")):
            with open(os.path.join(root, p), encoding="utf-8", errors="replace") as f:
                texts.add(f.read())
    return texts


def mirrored(git_dirs):
    want = {}
    for repo, path in MIRRORED:
        want.setdefault(repo, []).append(path)
    for g in git_dirs:
        repo = real13.repo_of(g)
        commit = sweep.git(g, "rev-parse", "HEAD").decode().strip()
        paths = [p for p in sweep.git(g, "ls-tree", "-r", "-z", "--name-only", commit).decode().split("\0") if p]
        lics = sweep.licences(g, commit, [p for p in paths if "/" not in p or p.count("/") < 3])
        for path in want.get(repo, []):
            yield repo, commit, path, real13.LICENCE_OF.get(repo, sweep.licence_of(lics, path)), sweep.show(g, commit, path).decode("utf-8")


def indexed(index_dir):
    for repo, commit, path, lic in INDEXED:
        name = path.rsplit("/", 2)[-2] + "-" if path.endswith("/chat_template.jinja") else ""
        name += os.path.basename(path)[:-len(".jinja")] + ".json"
        with open(os.path.join(index_dir, name), encoding="utf-8") as f:
            yield repo, commit, path, lic, json.load(f)


def main(argv):
    if "--index" not in argv:
        sys.exit(__doc__)
    i = argv.index("--index")
    index_dir, git_dirs = argv[i + 1], argv[:i] + argv[i + 2:]
    seen = known_texts()
    stripped = {t.strip() for t in seen}
    found = [f for f in list(mirrored(git_dirs)) + list(indexed(index_dir)) if f[4].strip() not in stripped]
    templates = sweep.new_templates(found, seen)
    print("%d new templates" % len(templates), file=sys.stderr)
    chat.build("real15", templates, {"repo": "per template (template_sources)", "path": "convert/real15.py",
                                     "licence": "per template (template_sources)"}, OUT, more=MORE)
    sweep.prune(os.path.join(HERE, "..", "cases", OUT), sweep.DATA_CONVERSATIONS + ("r15-",))


if __name__ == "__main__":
    main(sys.argv[1:])
