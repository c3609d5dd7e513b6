#!/usr/bin/env python3
"""Suites and templates the earlier conversions did not read (issue 23,
eighteenth round).

    python3 convert/suites18.py MINJA_GIT OLLAMA_GIT   # -> cases/suites18.json

MINJA_GIT is a snapshot of ochafik/minja (google/minja's author's fork,
the one minja.json reads), OLLAMA_GIT one of ollama/ollama (bare git
directories, as the fetch tool leaves them; HEAD is read).

  * minja's tests/test-polyfills.cpp, compiled against the stand-in
    headers of convert/minja_stub (needs g++ and nlohmann-json3-dev):
    every chat_template::apply it makes is recorded instead of rendered
    (template, bos and eos, messages, tools, add_generation_prompt). The
    suite expects minja's polyfills (a system message folded into the
    user's, tool calls written as JSON), which Jinja2 does not have: only
    the template and its inputs are kept, and Python's Jinja2 decides in
    the "hf" profile. The test reads eight model templates from
    tests/*.jinja, files minja's build downloads from the Hub; each is
    taken from cases/llamacpp.json's template of that name (the 70B
    DeepSeek-R1-Distill-Llama and Hermes-3 templates as their 8B
    namesakes', which the Hub holds with the same text).
  * The inputs of those calls (the suite's messages: a tool call with
    an id and with a tool_plan, content None, a tool result whose content
    is a dict, a tool whose schema has required) as conversations over
    every chat template of hf.json, llamacpp.json, chatmore.json,
    sweep.json, sweep9.json, real13.json and real15.json, kept per
    template as sweep.py's prune keeps them (a template is written only
    if one of its cases is kept).
  * ollama's model/renderers/testdata/*.jinja and *.jinja2 (the chat
    templates its Go renderers are tested against) whose text no case
    file holds, with the conversations of convert/chat.py,
    convert/real15.py's and the polyfill inputs, pruned the same way.
  * huggingface/transformers' chat-template tests (TF_TEMPLATES below,
    read through the code index: transformers is too large to fetch here):
    each test's template with its own conversations.
  * huggingface/transformers.js's chat-template tests (TFJS_CONVERSATIONS
    below): their conversations only (the templates are the Hub's), over
    the corpus's and ollama's templates as the polyfill inputs are.

Python's Jinja2 decides every expectation (oracle.py).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chat  # noqa: E402
import real13  # noqa: E402
import real15  # noqa: E402
import sweep  # noqa: E402
from chatdata import tokens  # noqa: E402 (chat.py put it on the path)

OUT = "suites18.json"
POLYFILLS = "tests/test-polyfills.cpp"
CORPUS = ("hf.json", "llamacpp.json", "chatmore.json", "sweep.json", "sweep9.json", "real13.json", "real15.json")
# tests/*.jinja files of test-polyfills.cpp that llama.cpp's models/templates
# hold under the name of the model's smaller size (the same text on the Hub).
RENAMED = {"deepseek-ai-DeepSeek-R1-Distill-Llama-70B": "deepseek-ai-DeepSeek-R1-Distill-Llama-8B",
           "NousResearch-Hermes-3-Llama-3.1-70B-tool_use": "NousResearch-Hermes-3-Llama-3.1-8B-tool_use"}
FILE_MARK = "@@FILE:"


# huggingface/transformers' chat-template tests (tests/test_tokenization_common.py
# and tests/utils/test_chat_template_utils.py, read through the code index at
# the commits below; transformers is too large to fetch here): each test's
# template and conversations, as apply_chat_template renders them (hf
# profile, add_generation_prompt false, tools and documents None). What
# apply_chat_template does after rendering (continue_final_message's cut,
# the assistant mask) is not Jinja2's and is left out.
TRANSFORMERS = {"repo": "huggingface/transformers", "licence": "Apache-2.0",
                "commits": {"tests/test_tokenization_common.py": "index id 38782571338",
                            "tests/utils/test_chat_template_utils.py": "index id 2417443963"}}
_GEN = ("{% for message in messages %}"
        "{% if (message['role'] != 'assistant') %}"
        "{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}"
        "{% elif (message['role'] == 'assistant')%}"
        "{{'<|im_start|>' + message['role'] + '\n'}}"
        "{% generation %}"
        "{{message['content'] + '<|im_end|>'}}"
        "{% endgeneration %}"
        "{{'\n'}}"
        "{% endif %}"
        "{% endfor %}")
TF_TEMPLATES = {
    "dummy": "{% for message in messages %}{{message['role'] + message['content']}}{% endfor %}",
    "break": """
        {%- for message in messages %}
            {{- message.role + " " + message.content }}
            {%- if loop.first %}
                {%- break %}
            {%- endif %}
        {%- endfor %}""".strip(),
    "strftime": """{{- strftime_now("%Y-%m-%d") }}""".strip(),
    "generation": _GEN,
    "continue": """
        {%- for message in messages %}
            {{- "<|im_start|>" + message['role'] + "\n" + message['content'] + "<|im_end|>" + "\n"}}
        {%- endfor %}""",
    "continue-trim": """
        {%- for message in messages %}
            {{- "<|im_start|>" + message['role'] + "\n" + message['content'] | trim + "<|im_end|>" + "\n"}}
        {%- endfor %}""",
    "dict-a": "{{'a'}}",
    "dict-b": "{{'b'}}",
    "file-a": "a",
    "test-template": "test template",
}


def _m(role, content):
    return {"role": role, "content": content}


_LONG = ("start turn assistant. long string to be truncated, long string to be truncated, "
         "long string to be truncated, long string to be truncated, long string to be truncated")
TF_CONVERSATIONS = {
    "transformers-dummy": [_m("system", "system message"), _m("user", "user message"), _m("assistant", "assistant message")],
    "transformers-dummy-2": [_m("system", "system message 2"), _m("user", "user message 2"), _m("assistant", "assistant message 2")],
    "transformers-123": [_m("system", "1"), _m("user", "2"), _m("assistant", "3")],
    "transformers-mask-1": [_m("system", "system message"), _m("user", "user message"),
                            _m("assistant", "start turn 1 assistant message. end turn 1"), _m("user", "user message 2"),
                            _m("assistant", "start turn 2 assistant message. end turn 2")],
    "transformers-mask-2": [_m("system", "system message 3"), _m("user", "user message 3"),
                            _m("assistant", "start turn 3 assistant message. end turn 3"), _m("user", "user message 4"),
                            _m("assistant", "start turn 4 assistant message. end turn 4")],
    "transformers-truncated": [_m("system", "system message"), _m("user", "user message"), _m("assistant", _LONG),
                               _m("user", "another user message")],
    "transformers-trailing-space": [_m("system", "system message"), _m("user", "user message"), _m("assistant", "assistant message ")],
    "transformers-decoy": [_m("user", "hi 0"), _m("assistant", "bye: 0"), _m("user", "hi 1"), _m("assistant", "bye: ")],
    "transformers-one-user": [_m("user", "user message")],
}
# which conversations each test renders its template with
TF_PAIRS = [
    ("dummy", ("transformers-dummy", "transformers-dummy-2"), "test_chat_template, test_chat_template_batched"),
    ("break", ("transformers-123",), "test_jinja_loopcontrols"),
    ("strftime", ("transformers-123",), "test_jinja_strftime"),
    ("generation", ("transformers-mask-1", "transformers-mask-2", "transformers-truncated"),
     "test_chat_template_return_assistant_tokens_mask, ..._truncated"),
    ("continue", ("transformers-dummy",), "test_continue_final_message"),
    ("continue-trim", ("transformers-trailing-space", "transformers-decoy"),
     "test_continue_final_message_with_trim, ..._with_decoy_earlier_message"),
    ("dict-a", ("transformers-one-user",), "test_chat_template_dict"),
    ("dict-b", ("transformers-one-user",), "test_chat_template_dict"),
    ("file-a", ("transformers-one-user",), "test_chat_template_file_priority"),
    ("test-template", ("transformers-one-user",), "test_chat_template_save_loading"),
]


# huggingface/transformers.js's packages/transformers/tests/tokenizers.test.js
# ("Chat templates"; commit below): its templates come from the Hub, so only
# its conversations are taken, over every template as the polyfill inputs
# are: documents with citation_mode (Command-R's rag template), Cohere's
# tools with parameter_definitions, and a tool with a "return" schema.
TRANSFORMERS_JS = {"repo": "huggingface/transformers.js", "commit": "5ed4c5c0d3c57d7aec34d2d65f51624786bc6e2e",
                   "path": "packages/transformers/tests/tokenizers.test.js", "licence": "Apache-2.0"}
_PENGUIN = [_m("user", "Whats the biggest penguin in the world?")]
TFJS_CONVERSATIONS = {
    "transformersjs-rag": {"messages": _PENGUIN, "tools": None, "add_generation_prompt": True, "documents": [
        {"title": "Tall penguins", "text": "Emperor penguins are the tallest growing up to 122 cm in height."},
        {"title": "Penguin habitats", "text": "Emperor penguins only live in Antarctica."}], "citation_mode": "accurate"},
    "transformersjs-cohere-tools": {"messages": _PENGUIN, "documents": None, "add_generation_prompt": True, "tools": [
        {"name": "internet_search",
         "description": "Returns a list of relevant document snippets for a textual query retrieved from the internet",
         "parameter_definitions": {"query": {"description": "Query to search the internet with", "type": "str", "required": True}}},
        {"name": "directly_answer",
         "description": "Calls a standard (un-augmented) AI chatbot to generate a response given the conversation history",
         "parameter_definitions": {}}]},
    "transformersjs-return-tool": {"messages": [_m("system", "You are a bot that responds to weather queries."),
                                                _m("user", "Hey, what's the temperature in Paris right now?")],
                                   "documents": None, "add_generation_prompt": False, "tools": [
        {"type": "function", "function": {
            "name": "get_current_temperature", "description": "Get the current temperature at a location.",
            "parameters": {"type": "object", "properties": {"location": {
                "type": "string", "description": 'The location to get the temperature for, in the format "City, Country"'}},
                "required": ["location"]},
            "return": {"type": "number",
                       "description": "The current temperature at the specified location in the specified units, as a float."}}}]},
}

def transformers_cases():
    """(templates, sources, contexts, cases) of transformers' chat-template tests."""
    templates, sources, contexts, cases = {}, {}, {}, []
    for name, convs in TF_CONVERSATIONS.items():
        contexts[name] = {"messages": convs, "tools": None, "documents": None, "add_generation_prompt": False}
    for tname, convs, test in TF_PAIRS:
        ref = "transformers/" + tname
        templates[ref] = TF_TEMPLATES[tname]
        sources[ref] = {"repo": TRANSFORMERS["repo"], "path": "tests/test_tokenization_common.py", "test": test,
                        "licence": TRANSFORMERS["licence"]}
        for c in convs:
            cases.append({"id": "suites18/%s/%s" % (ref, c), "template_ref": ref, "context_ref": c,
                          "context": {"bos_token": "", "eos_token": ""}, "env": {"profile": "hf"}})
    return templates, sources, contexts, cases


def corpus_doc(name):
    with open(os.path.join(HERE, "..", "cases", name), encoding="utf-8") as f:
        return json.load(f)


def polyfill_records(git_dir, commit):
    """The (test, line, record) of every apply test-polyfills.cpp makes."""
    src = sweep.git(git_dir, "show", commit + ":" + POLYFILLS).decode("utf-8")
    live = re.sub(r"/\*.*?\*/", "", src, flags=re.S)
    tests = re.findall(r"^TEST\((\w+), (\w+)\)", live, flags=re.M)
    with tempfile.TemporaryDirectory() as tmp:
        cpp = os.path.join(tmp, "t.cpp")
        with open(cpp, "w", encoding="utf-8") as f:
            f.write(src + "\nint main() {\n")
            for a, b in tests:
                f.write('    std::cout << "{\\"test\\": \\"%s.%s\\"}\\n"; test_%s_%s();\n' % (a, b, a, b))
            f.write("    return 0;\n}\n")
        exe = os.path.join(tmp, "t")
        subprocess.run(["g++", "-std=c++17", "-w", "-I", os.path.join(HERE, "minja_stub"), cpp, "-o", exe], check=True)
        os.mkdir(os.path.join(tmp, "tests"))
        for name in set(re.findall(r'read_file\("tests/([^"]+)"\)', src)):
            with open(os.path.join(tmp, "tests", name), "w", encoding="utf-8") as f:
                f.write(FILE_MARK + name)
        out = subprocess.run([exe], check=True, capture_output=True, text=True, cwd=tmp).stdout
    test = None
    for line in out.splitlines():
        r = json.loads(line)
        if "test" in r:
            test = r["test"]
            continue
        yield test, r


def polyfills(git_dir, llamacpp):
    """(templates, contexts, cases) of test-polyfills.cpp's applies."""
    commit = sweep.git(git_dir, "rev-parse", "HEAD").decode().strip()
    repo = real13.repo_of(git_dir)
    templates, sources, contexts, cases, keys = {}, {}, {}, [], set()
    inline = {}
    for test, r in polyfill_records(git_dir, commit):
        text = r["template"]
        if text.startswith(FILE_MARK):
            name = text[len(FILE_MARK):-len(".jinja")]
            name = RENAMED.get(name, name)
            ref = "llamacpp/" + name
            text = llamacpp["templates"][name]
            src = dict(llamacpp["template_sources"].get(name, {}), read_by="%s %s (tests/%s)" % (repo, POLYFILLS, r["template"][len(FILE_MARK):]))
        else:
            if text not in inline:
                inline[text] = "polyfills/template-%d" % (len(inline) + 1)
            ref = inline[text]
            src = {"repo": repo, "commit": commit, "path": POLYFILLS, "licence": "MIT"}
        templates[ref], sources[ref] = text, src
        ctx = {"messages": r["messages"], "tools": r["tools"], "documents": None,
               "add_generation_prompt": r["add_generation_prompt"]}
        ctx.update(r["extra_context"])
        cjson = json.dumps(ctx, sort_keys=True)
        cname = next((k for k, v in contexts.items() if json.dumps(v, sort_keys=True) == cjson), None)
        if cname is None:
            cname = "polyfills-%d" % (len(contexts) + 1)
            contexts[cname] = ctx
        key = (ref, cname, r["bos_token"], r["eos_token"])
        if key in keys:
            continue
        keys.add(key)
        cases.append({"id": "suites18/%s/%s" % (ref, cname), "source": {"test": "%s, line %d" % (test, r["line"])},
                      "template_ref": ref, "context_ref": cname,
                      "context": {"bos_token": r["bos_token"], "eos_token": r["eos_token"]}, "env": {"profile": "hf"}})
    return templates, sources, contexts, cases, commit


def known_texts():
    """Every template text of the other case files (real15.json's too), of
    the prompt corpus and of the repository's .jinja files."""
    texts = real13.known_texts(exclude=(OUT,))
    root = os.path.abspath(os.path.join(HERE, "..", "..", "..", "..", ".."))
    for p in sweep.git(os.path.join(root, ".git"), "ls-files").decode().split("\n"):
        if p.endswith((".jinja", ".j2", ".jinja2")):
            with open(os.path.join(root, p), encoding="utf-8", errors="replace") as f:
                texts.add(f.read())
    return texts


def ollama_templates(git_dir, seen):
    commit = sweep.git(git_dir, "rev-parse", "HEAD").decode().strip()
    paths = [p for p in sweep.git(git_dir, "ls-tree", "-r", "-z", "--name-only", commit, "model/renderers/testdata").decode().split("\0")
             if p.endswith((".jinja", ".jinja2"))]
    stripped = {t.strip() for t in seen}
    found = []
    for p in sorted(paths):
        text = sweep.show(git_dir, commit, p).decode("utf-8")
        if text.strip() not in stripped:
            found.append(("ollama/ollama", commit, p, "MIT", text))
    return sweep.new_templates(found, seen)


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    minja_git, ollama_git = argv
    llamacpp = corpus_doc("llamacpp.json")
    templates, sources, contexts, cases, minja_commit = polyfills(minja_git, llamacpp)
    poly_convs = [dict(name=k, **v) for k, v in contexts.items()]
    for name, ctx in TFJS_CONVERSATIONS.items():
        contexts[name] = ctx
        poly_convs.append(dict(name=name, **ctx))
    tt, ts, tc, tcases = transformers_cases()
    templates.update(tt)
    sources.update(ts)
    contexts.update(tc)
    cases.extend(tcases)
    convs = chat.conversations() + real15.MORE
    for c in convs:
        contexts[c["name"]] = chat.context(c)
    # ollama's templates: every conversation.
    seen = known_texts()
    for ref, text, tsource in ollama_templates(ollama_git, seen):
        templates[ref], sources[ref] = text, tsource
        bos, eos = tokens(text)
        for c in convs + poly_convs:
            cases.append({"id": "suites18/%s/%s" % (ref, c["name"]), "template_ref": ref, "context_ref": c["name"],
                          "context": {"bos_token": bos, "eos_token": eos}, "env": {"profile": "hf"}})
    # the corpus's templates: the polyfill inputs.
    done = set(templates.values())
    for name in CORPUS:
        doc = corpus_doc(name)
        for ref, text in doc["templates"].items():
            if not isinstance(text, str) or text in done or ("{{" not in text and "{%" not in text) or "messages" not in text:
                continue
            done.add(text)
            cref = name[:-len(".json")] + "/" + ref
            templates[cref] = text
            sources[cref] = dict(doc.get("template_sources", {}).get(ref) or {"file": name}, case_file=name)
            bos, eos = tokens(text)
            for c in poly_convs:
                cases.append({"id": "suites18/%s/%s" % (cref, c["name"]), "template_ref": cref, "context_ref": c["name"],
                              "context": {"bos_token": bos, "eos_token": eos}, "env": {"profile": "hf"}})
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    doc = {"jinja2": "", "source": {
        "repo": "ochafik/minja %s (%s); ollama/ollama (model/renderers/testdata); huggingface/transformers and huggingface/transformers.js %s (chat-template tests); the templates of %s" % (minja_commit, POLYFILLS, TRANSFORMERS_JS["commit"], ", ".join(CORPUS)),
        "path": "convert/suites18.py", "licence": "MIT (minja, ollama), Apache-2.0 (transformers, transformers.js); per template (template_sources)"},
        "template_sources": sources, "contexts": contexts, "templates": templates, "cases": cases}
    oracle.write_cases(OUT, doc)
    path = os.path.join(HERE, "..", "cases", OUT)
    sweep.prune(path, sweep.DATA_CONVERSATIONS + ("r15-", "transformers-"))
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    used = {c["template_ref"] for c in doc["cases"]}
    usedc = {c["context_ref"] for c in doc["cases"]}
    doc["templates"] = {k: v for k, v in doc["templates"].items() if k in used}
    doc["template_sources"] = {k: v for k, v in doc["template_sources"].items() if k in used}
    doc["contexts"] = {k: v for k, v in doc["contexts"].items() if k in usedc}
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(oracle.dump(doc))
    print("%d templates, %d cases" % (len(doc["templates"]), len(doc["cases"])), file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
