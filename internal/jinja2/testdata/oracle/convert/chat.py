#!/usr/bin/env python3
"""Chat templates with conversations, as oracle cases in the "hf" profile.

    python3 convert/chat.py hf                      # chat/format/chattemplate/testdata/hf -> cases/hf.json
    python3 convert/chat.py llamacpp GIT_DIR COMMIT # llama.cpp models/templates/*.jinja and the templates
                                                    # of tests/test-chat-template.cpp -> cases/llamacpp.json

Every template is rendered with every conversation below: the ten of
chat/format/chattemplate/testdata/hf/oracle.py (read from its conversations.json), the
conversations of llama.cpp's tests/test-chat-template.cpp (its six-turn
conversation and its default JSON inputs, with and without tools), and
conversations whose strings hold apostrophes, quotes, backslashes,
newlines, tabs, a no-break space, zero-width and non-BMP characters, in
message text, tool arguments (a dict, a list, a JSON string), tool enums
and descriptions, and content parts, which templates print as lists and
dicts (Python's repr) or through tojson; and transformers' other shapes
(a part without a URL, a one-part list, JSON-string arguments, a tool
result's name, content None, reasoning_content, enable_thinking, documents,
strict tools with $defs, flat tools). The variables are transformers':
messages, tools (None when absent), documents (None when absent), add_generation_prompt,
enable_thinking where the conversation sets it,
bos_token, eos_token (chosen per template as chat/format's oracle does).
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", "..", ".."))
HF = os.path.join(ROOT, "chat", "format", "chattemplate", "testdata", "hf")
sys.path.append(os.path.join(ROOT, "chat", "format", "testdata"))
from chatdata import A, S, T, U, call, hf_templates, tokens  # noqa: E402 (chat/format/testdata/chatdata.py: the messages)

# The characters a prompt's strings must survive.
HOSTILE = "It's \"quoted\" and 'single', back\\slash \\n literal,\nnew line,\ttab, no\u00a0break, zero\u200bwidth, \U0001F600 \U0001D518 \u00e9\u0301"
APOS = "fahrenheit's"

HOSTILE_TOOLS = [
    {"type": "function", "function": {
        "name": "convert",
        "description": "Convert a temperature. It's \"exact\" \\ to the\ndegree\t\u00a0\u200b\U0001F321",
        "parameters": {"type": "object", "properties": {
            "value": {"type": "number", "description": "The value, e.g. 1e3 or -0.0"},
            "unit": {"type": "string", "enum": ["celsius", APOS, "k\\elvin", "r\u00e9aumur \"R\""]},
            "tags": {"type": "array", "items": {"type": "string"}},
            "exact": {"type": "boolean"}},
            "required": ["value", "unit"]}}},
]


HOSTILE_ARGS = {"value": 1000.0, "unit": APOS, "tags": ["a'b", "c\"d", "e\\f", "g\nh", "\u00a0", "\u200b", "\U0001F600"],
                "exact": True, "none": None, "negzero": -0.0, "big": 2 ** 70, "nested": {"k'ey": ["v\"al", 1.5, False]}}

# llama.cpp tests/test-chat-template.cpp: its conversation and default inputs.
LLAMA_CONVERSATION = [S("You are a helpful assistant"), U("Hello"), A("Hi there"), U("Who are you"),
                      A("   I am an assistant   "), U("Another question")]
LLAMA_DEFAULT = [U("Hello, how are you?"), A("I am fine, thank you!")]
LLAMA_TOOLS = [{"type": "function", "function": {"name": "test", "description": "Test", "parameters": {
    "type": "object", "properties": {"arg": {"type": "string"}}}, "required": ["arg"]}}]
LLAMA_WITH_TOOLS = LLAMA_DEFAULT + [U("Call a tool!"), {"role": "assistant", "tool_calls": [
    {"id": "call00001", "type": "function", "function": {"name": "test", "arguments": {"arg": "hello"}}}]}]

# Tools as OpenAI's strict function calling writes them: strict beside
# the function's name, $defs and $ref, anyOf with null.
SHAPE_TOOLS = [
    {"type": "function", "function": {"name": "search_docs", "description": "Search the docs.", "strict": True, "parameters": {
        "type": "object", "additionalProperties": False,
        "$defs": {"Filter": {"type": "object", "properties": {"field": {"type": "string"}, "op": {"type": "string", "enum": ["eq", "ne"]}}}},
        "properties": {"query": {"type": "string", "description": "What to find"}, "limit": {"type": "integer", "default": 5, "minimum": 1},
                       "filters": {"type": "array", "items": {"$ref": "#/$defs/Filter"}}, "mode": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
        "required": ["query", "limit", "filters", "mode"]}}},
    {"type": "function", "function": {"name": "get_time", "description": "Current time", "parameters": {"type": "object", "properties": {}}}},
]

EXTRA = [
    {"name": "llamacpp-conversation", "add_generation_prompt": True, "messages": LLAMA_CONVERSATION},
    {"name": "llamacpp-default", "add_generation_prompt": True, "messages": LLAMA_DEFAULT},
    {"name": "llamacpp-with-tools", "add_generation_prompt": True, "messages": LLAMA_WITH_TOOLS, "tools": LLAMA_TOOLS},
    {"name": "hostile-text", "add_generation_prompt": True,
     "messages": [S(HOSTILE), U(HOSTILE), A(HOSTILE), U("again: " + HOSTILE)]},
    {"name": "hostile-tools-offered", "add_generation_prompt": True, "tools": HOSTILE_TOOLS,
     "messages": [S("Use tools. " + HOSTILE), U("Convert 1e3 " + APOS)]},
    {"name": "hostile-tool-call-dict", "add_generation_prompt": True, "tools": HOSTILE_TOOLS,
     "messages": [U("Convert it"), A("", [call("call00009", "convert", HOSTILE_ARGS)]),
                  T(HOSTILE, "call00009"), A("Done: " + HOSTILE), U("Thanks")]},
    {"name": "hostile-tool-call-string", "add_generation_prompt": True, "tools": HOSTILE_TOOLS,
     "messages": [U("Convert it"), A(None, [call("call00010", "convert", json.dumps(HOSTILE_ARGS, ensure_ascii=False))]),
                  T('{"result": "It\'s \\"hot\\"\\n"}', "call00010")]},
    {"name": "hostile-content-parts", "add_generation_prompt": True,
     "messages": [S([{"type": "text", "text": HOSTILE}]),
                  {"role": "user", "content": [{"type": "text", "text": HOSTILE},
                                               {"type": "image", "url": "https://example.com/it's.png"},
                                               {"type": "text", "text": "tab\there"}]},
                  A([{"type": "text", "text": "a'b \"c\" \\d"}]), U([{"type": "text", "text": "\u200b\U0001F600"}])]},
    {"name": "hostile-no-generation", "add_generation_prompt": False,
     "messages": [U("q'uote\\"), A("a\"nswer\n\t\u00a0")]},
] + [
    # transformers' other message shapes: parts without a URL (the
    # placeholder vision templates loop over) and a one-part list, tool
    # calls with JSON-string arguments and tool results with a name,
    # content None, reasoning_content and thinking, enable_thinking both
    # ways, documents, tools with strict, $defs and anyOf, tools in the
    # flat form.
    {"name": "vision-image-first", "add_generation_prompt": True, "messages": [
        {"role": "user", "content": [{"type": "image"}, {"type": "text", "text": "What is shown?"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "A cat."}]},
        {"role": "user", "content": [{"type": "text", "text": "And here?"}, {"type": "image", "url": "https://x.test/b.png"}, {"type": "video"}]}]},
    {"name": "single-text-part", "add_generation_prompt": True, "messages": [
        {"role": "system", "content": [{"type": "text", "text": "Be brief."}]},
        {"role": "user", "content": [{"type": "text", "text": "Hi"}]}]},
    {"name": "tool-name-json-args", "add_generation_prompt": True, "tools": SHAPE_TOOLS, "messages": [
        S("Use tools."), U("Find it and the time"),
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_a1", "type": "function", "function": {"name": "search_docs", "arguments": json.dumps({"query": "it's", "limit": 3, "filters": [], "mode": None})}},
            {"id": "call_b2", "type": "function", "function": {"name": "get_time", "arguments": {}}}]},
        {"role": "tool", "name": "search_docs", "tool_call_id": "call_a1", "content": "[\"doc1\"]"},
        {"role": "tool", "name": "get_time", "tool_call_id": "call_b2", "content": "12:00"},
        A("Found doc1 at 12:00.")]},
    {"name": "reasoning-content", "add_generation_prompt": True, "enable_thinking": True, "messages": [
        U("2+2?"), {"role": "assistant", "content": "4", "reasoning_content": "Add them: 4."}, U("3+3?"),
        {"role": "assistant", "content": "6", "thinking": "Six."}, U("Thanks")]},
    {"name": "thinking-off", "add_generation_prompt": True, "enable_thinking": False, "messages": [U("Hi there")]},
    {"name": "thinking-on-no-generation", "add_generation_prompt": False, "enable_thinking": True, "messages": [
        U("Q"), {"role": "assistant", "content": "<think>\nhmm\n</think>\n\nA", "reasoning_content": "hmm"}]},
    {"name": "documents", "add_generation_prompt": True, "messages": [U("Where is Paris?")],
     "documents": [{"title": "Doc's one", "text": "Paris is in France."}, {"title": "Two", "text": "Tab\there"}]},
    {"name": "tools-flat", "add_generation_prompt": True, "messages": [U("Time?")],
     "tools": [{"name": "get_time", "description": "Current time", "parameters": {"type": "object", "properties": {"tz": {"type": "string"}}}}]},
]


def conversations():
    with open(os.path.join(HF, "conversations.json"), encoding="utf-8") as f:
        convs = json.load(f)
    return convs + EXTRA


def context(conv):
    c = {"messages": conv["messages"], "tools": conv.get("tools"), "documents": conv.get("documents"),
         "add_generation_prompt": conv["add_generation_prompt"]}
    if "enable_thinking" in conv:
        c["enable_thinking"] = conv["enable_thinking"]
    c.update(conv.get("kwargs", {}))  # other chat_template_kwargs (real15.py's conversations)
    return c


def build(prefix, templates, source, out_name, extra_cases=(), more=()):
    """templates: [(ref, text, source-of-the-template)]; more: conversations
    beyond conversations()."""
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    convs = conversations() + list(more)
    doc = {"jinja2": "", "source": source, "template_sources": {}, "contexts": {c["name"]: context(c) for c in convs},
           "templates": {}, "cases": []}
    for ref, text, tsource in templates:
        doc["templates"][ref] = text
        doc["template_sources"][ref] = tsource
        bos, eos = tokens(text)
        for c in convs:
            doc["cases"].append({"id": "%s/%s/%s" % (prefix, ref, c["name"]), "source": {"template": ref, "conversation": c["name"]},
                                 "template_ref": ref, "context_ref": c["name"],
                                 "context": {"bos_token": bos, "eos_token": eos}, "env": {"profile": "hf"}})
    doc["cases"].extend(extra_cases)
    oracle.write_cases(out_name, doc)


# Stand-ins that let the test cases of tests/test-chat-template.cpp compile
# on their own and be written out as JSON.
LLAMA_HARNESS = r'''
#include <iostream>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>
struct llama_chat_message { const char * role; const char * content; };
#define U8C(x) (const char*)(u8##x)
int main() {
%s
%s
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto & t : test_cases) {
        nlohmann::ordered_json extra = nlohmann::ordered_json::array();
        for (const auto & m : t.extra_conversation) extra.push_back({{"role", m.role}, {"content", m.content}});
        out.push_back({{"name", t.name}, {"template", t.template_str}, {"bos_token", t.bos_token},
                       {"eos_token", t.eos_token}, {"supported_with_jinja", t.supported_with_jinja}, {"extra", extra}});
    }
    std::cout << out.dump();
}
'''


def git(git_dir, *args):
    return subprocess.run(["git", "--git-dir", git_dir] + list(args), check=True, capture_output=True).stdout


def llamacpp_test_cases(src):
    """The TestCase list of tests/test-chat-template.cpp, compiled with
    stand-ins (needs g++ and nlohmann-json3-dev)."""
    lines = src.splitlines()
    start = next(i for i, l in enumerate(lines) if "struct TestCase {" in l)
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("    };") and "test_cases" in "\n".join(lines[start:i]))
    block = "\n".join(lines[start:end + 1])
    with tempfile.TemporaryDirectory() as tmp:
        cpp = os.path.join(tmp, "t.cpp")
        with open(cpp, "w", encoding="utf-8") as f:
            f.write(LLAMA_HARNESS % ("", block))
        exe = os.path.join(tmp, "t")
        subprocess.run(["g++", "-std=c++17", "-w", cpp, "-o", exe], check=True)
        return json.loads(subprocess.run([exe], check=True, capture_output=True).stdout)


def llamacpp(git_dir, commit):
    commit = git(git_dir, "rev-parse", commit).decode().strip()
    licence = "MIT (llama.cpp); the model's licence applies to its template"
    templates = []
    names = git(git_dir, "ls-tree", "--name-only", commit, "models/templates/").decode().split("\n")
    for path in sorted(n for n in names if n.endswith(".jinja")):
        text = git(git_dir, "show", commit + ":" + path).decode("utf-8")
        name = path.rsplit("/", 1)[1][:-len(".jinja")]
        templates.append((name, text, {"path": path, "licence": licence}))
    src = git(git_dir, "show", commit + ":tests/test-chat-template.cpp").decode("utf-8")
    pairs = []
    for i, t in enumerate(llamacpp_test_cases(src)):
        msgs = [dict(m) for m in LLAMA_CONVERSATION] + t["extra"]
        pairs.append({"id": "llamacpp/test-chat-template/%02d %s" % (i, t["name"]),
                      "source": {"path": "tests/test-chat-template.cpp", "test": t["name"],
                                 "supported_with_jinja": t["supported_with_jinja"]},
                      "template": t["template"],
                      "context": {"messages": msgs, "add_generation_prompt": True,
                                  "bos_token": t["bos_token"], "eos_token": t["eos_token"]},
                      "env": {"profile": "hf"}})
    build("llamacpp", templates, {"repo": "ggml-org/llama.cpp", "commit": commit,
                                  "path": "models/templates/*.jinja, tests/test-chat-template.cpp", "licence": "MIT"},
          "llamacpp.json", extra_cases=pairs)


def main():
    what = sys.argv[1]
    if what == "hf":
        templates = []
        for s, text in hf_templates(HF):
            ref = s["file"].rsplit(".", 1)[0]
            templates.append((ref, text, {"repo": s["source"], "model": s["model"], "licence": s["licence"],
                                          "path": "chat/format/chattemplate/testdata/hf/templates/" + s["file"]}))
        build("hf", templates, {"repo": "rolemark (chat/format/chattemplate/testdata/hf)", "path": "templates/*.jinja, sources.json",
                                "licence": "per template (sources.json): MIT (ollama, huggingface.js), Apache-2.0"}, "hf.json")
    elif what == "llamacpp":
        llamacpp(sys.argv[2], sys.argv[3])
    else:
        sys.exit("usage: chat.py hf | llamacpp DIR")


if __name__ == "__main__":
    main()
