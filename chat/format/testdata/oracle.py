#!/usr/bin/env python3
"""Oracle for the chat/format golden tests.

Renders every case below with each preset's real HuggingFace chat template,
the way transformers' apply_chat_template does it, and writes the results to
testdata/golden/<preset>.json (the cases themselves in
testdata/golden/cases.json). The Go test (format_golden_test.go) renders the
same cases with the Go presets and compares byte for byte.

Regenerate (from the repository root, Python 3 with Jinja2 3.1.6):

    (cd /tmp && mkdir -p ol && cd ol && (test -f go.mod || go mod init x) && \
        go mod download -json github.com/ollama/ollama@v0.17.4)
    python3 chat/format/testdata/oracle.py
    # or, the same through the Go test:
    go test ./chat/format -run TestGolden -update

Template sources:
  * ollama's Go module github.com/ollama/ollama@v0.17.4, file template/index.json
    (HF chat_template strings copied from tokenizer_config.json files), read from
    the Go module cache at run time (`go env GOMODCACHE`); each entry is picked by
    index and checked by name and SHA-256 so a different file fails loudly.
  * Qwen2.5-Instruct and Mistral "v3" (Mistral-Large-Instruct-2407 / llama.cpp's
    "mistral-v3" test template) are not in that module; their official template
    strings are embedded below, verbatim.

Environment: jinja2.sandbox.ImmutableSandboxedEnvironment(trim_blocks=True,
lstrip_blocks=True, extensions=[jinja2.ext.loopcontrols]), globals
raise_exception (raises TemplateError) and strftime_now, filter tojson =
json.dumps(ensure_ascii=False) -- as transformers' _compile_jinja_template --
and continue_final_message handled as transformers' apply_chat_template does.
"""

import hashlib
import json
import os
import subprocess
import sys

import jinja2
from jinja2.exceptions import TemplateError

import chatdata
from chatdata import A, PARIS, S, SYS, T, TIME, TOOLS, U, call  # noqa: F401 (the batch oracles use them too)

HERE = os.path.dirname(os.path.abspath(__file__))
OLLAMA = "github.com/ollama/ollama@v0.17.4"

QWEN25 = r'''{%- if tools %}
    {{- '<|im_start|>system\n' }}
    {%- if messages[0]['role'] == 'system' %}
        {{- messages[0]['content'] }}
    {%- else %}
        {{- 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.' }}
    {%- endif %}
    {{- "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>" }}
    {%- for tool in tools %}
        {{- "\n" }}
        {{- tool | tojson }}
    {%- endfor %}
    {{- "\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n" }}
{%- else %}
    {%- if messages[0]['role'] == 'system' %}
        {{- '<|im_start|>system\n' + messages[0]['content'] + '<|im_end|>\n' }}
    {%- else %}
        {{- '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n' }}
    {%- endif %}
{%- endif %}
{%- for message in messages %}
    {%- if (message.role == "user") or (message.role == "system" and not loop.first) or (message.role == "assistant" and not message.tool_calls) %}
        {{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>' + '\n' }}
    {%- elif message.role == "assistant" %}
        {{- '<|im_start|>' + message.role }}
        {%- if message.content %}
            {{- '\n' + message.content }}
        {%- endif %}
        {%- for tool_call in message.tool_calls %}
            {%- if tool_call.function is defined %}
                {%- set tool_call = tool_call.function %}
            {%- endif %}
            {{- '\n<tool_call>\n{"name": "' }}
            {{- tool_call.name }}
            {{- '", "arguments": ' }}
            {{- tool_call.arguments | tojson }}
            {{- '}\n</tool_call>' }}
        {%- endfor %}
        {{- '<|im_end|>\n' }}
    {%- elif message.role == "tool" %}
        {%- if (loop.index0 == 0) or (messages[loop.index0 - 1].role != "tool") %}
            {{- '<|im_start|>user' }}
        {%- endif %}
        {{- '\n<tool_response>\n' }}
        {{- message.content }}
        {{- '\n</tool_response>' }}
        {%- if loop.last or (messages[loop.index0 + 1].role != "tool") %}
            {{- '<|im_end|>\n' }}
        {%- endif %}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\n' }}
{%- endif %}
'''

MISTRAL_V3 = r'''{%- if messages[0]["role"] == "system" %}
    {%- set system_message = messages[0]["content"] %}
    {%- set loop_messages = messages[1:] %}
{%- else %}
    {%- set loop_messages = messages %}
{%- endif %}
{%- if not tools is defined %}
    {%- set tools = none %}
{%- endif %}
{%- set user_messages = loop_messages | selectattr("role", "equalto", "user") | list %}

{#- This block checks for alternating user/assistant messages, skipping tool calling messages #}
{%- set ns = namespace() %}
{%- set ns.index = 0 %}
{%- for message in loop_messages %}
    {%- if not (message.role == "tool" or message.role == "tool_results" or (message.tool_calls is defined and message.tool_calls is not none)) %}
        {%- if (message["role"] == "user") != (ns.index % 2 == 0) %}
            {{- raise_exception("After the optional system message, conversation roles must alternate user/assistant/user/assistant/...") }}
        {%- endif %}
        {%- set ns.index = ns.index + 1 %}
    {%- endif %}
{%- endfor %}

{{- bos_token }}
{%- for message in loop_messages %}
    {%- if message["role"] == "user" %}
        {%- if tools is not none and (message == user_messages[-1]) %}
            {{- "[AVAILABLE_TOOLS] [" }}
            {%- for tool in tools %}
                {%- set tool = tool.function %}
                {{- '{"type": "function", "function": {' }}
                {%- for key, val in tool.items() if key != "return" %}
                    {%- if val is string %}
                        {{- '"' + key + '": "' + val + '"' }}
                    {%- else %}
                        {{- '"' + key + '": ' + val|tojson }}
                    {%- endif %}
                    {%- if not loop.last %}
                        {{- ", " }}
                    {%- endif %}
                {%- endfor %}
                {{- "}}" }}
                {%- if not loop.last %}
                    {{- ", " }}
                {%- else %}
                    {{- "]" }}
                {%- endif %}
            {%- endfor %}
            {{- "[/AVAILABLE_TOOLS]" }}
            {%- endif %}
        {%- if loop.last and system_message is defined %}
            {{- "[INST] " + system_message + "\n\n" + message["content"] + "[/INST]" }}
        {%- else %}
            {{- "[INST] " + message["content"] + "[/INST]" }}
        {%- endif %}
    {%- elif message.tool_calls is defined and message.tool_calls is not none %}
        {{- "[TOOL_CALLS] [" }}
        {%- for tool_call in message.tool_calls %}
            {%- set out = tool_call.function|tojson %}
            {{- out[:-1] }}
            {%- if not tool_call.id is defined or tool_call.id|length != 9 %}
                {{- raise_exception("Tool call IDs should be alphanumeric strings with length 9!") }}
            {%- endif %}
            {{- ', "id": "' + tool_call.id + '"}' }}
            {%- if not loop.last %}
                {{- ", " }}
            {%- else %}
                {{- "]" + eos_token }}
            {%- endif %}
        {%- endfor %}
    {%- elif message["role"] == "assistant" %}
        {{- " " + message["content"]|trim + eos_token}}
    {%- elif message["role"] == "tool_results" or message["role"] == "tool" %}
        {%- if message.content is defined and message.content.content is defined %}
            {%- set content = message.content.content %}
        {%- else %}
            {%- set content = message.content %}
        {%- endif %}
        {{- '[TOOL_RESULTS] {"content": ' + content|string + ", " }}
        {%- if not message.tool_call_id is defined or message.tool_call_id|length != 9 %}
            {{- raise_exception("Tool call IDs should be alphanumeric strings with length 9!") }}
        {%- endif %}
        {{- '"call_id": "' + message.tool_call_id + '"}[/TOOL_RESULTS]' }}
    {%- else %}
        {{- raise_exception("Only user and assistant roles are supported, with the exception of an initial optional system message!") }}
    {%- endif %}
{%- endfor %}
'''

# preset name -> (template source, bos_token, eos_token)
# ("ollama", index, name, sha256 prefix) or ("embedded", text)
PRESETS = {
    "chatml": (("ollama", 6, "chatml", "153280e3ff55"), "<s>", "<|im_end|>"),
    "zephyr": (("ollama", 2, "zephyr", "66291cf0045c"), "<s>", "</s>"),
    "openchat": (("ollama", 4, "openchat", "901b10d47195"), "<s>", "<|end_of_turn|>"),
    "mistral": (("ollama", 10, "mistral-instruct", "26a59556925c"), "<s>", "</s>"),
    "llama2": (("ollama", 12, "llama2-chat", "ea2472f29dbd"), "<s>", "</s>"),
    "alpaca": (("ollama", 19, "alpaca", "993c0af704ba"), "<｜begin▁of▁sentence｜>", "<|EOT|>"),
    "chatqa": (("ollama", 20, "chatqa", "8aeba567270f"), "<|begin_of_text|>", "<|end_of_text|>"),
    "gemma": (("ollama", 21, "gemma-instruct", "ecd6ae513fe1"), "<bos>", "<eos>"),
    "gemma3": (("ollama", 22, "gemma3-instruct", "7de1c58e208e"), "<bos>", "<eos>"),
    "llama3": (("ollama", 23, "llama3-instruct", "ba03a121d097"), "<|begin_of_text|>", "<|eot_id|>"),
    "granite": (("ollama", 25, "granite-instruct", "e84ee90c8a81"), "<|endoftext|>", "<|endoftext|>"),
    "phi3": (("ollama", 31, "phi-3", "b0e53f5e7bae"), "<s>", "<|endoftext|>"),
    "solar": (("ollama", 35, "solar-instruct", "b8e5e922a7a4"), "<s>", "</s>"),
    "command-r": (("ollama", 36, "command-r", "9db2cf47ce03"), "<BOS_TOKEN>", "<|END_OF_TURN_TOKEN|>"),
    "qwen2": (("ollama", 7, "chatml", "793202280c09"), "", "<|im_end|>"),
    "starcoder2": (("ollama", 11, "starcoder2-instruct", "6de66c5b4eb2"), "<|endoftext|>", "<|endoftext|>"),
    "codellama-70b": (("ollama", 13, "codellama-70b-instruct", "75678d463085"), "<s>", "</s>"),
    "magicoder": (("ollama", 26, "magicoder", "230527c8a608"), "<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>"),
    "alfred": (("ollama", 27, "alfred", "071cfb2d4c79"), "", "<|endoftext|>"),
    "falcon": (("ollama", 33, "falcon-instruct", "2c575663fbb6"), "", "<|endoftext|>"),
    "qwen2.5": (("embedded", QWEN25), "", "<|im_end|>"),
    "mistral-v3": (("embedded", MISTRAL_V3), "<s>", "</s>"),
}

def case(name, messages, gen=True, cont=False, tools=None):
    c = {"name": name, "messages": messages, "add_generation_prompt": gen, "continue_final_message": cont}
    if tools is not None:
        c["tools"] = tools
    return c


HELLO = "Hello, how are you?"
GREAT = "I'm doing great. How can I help you today?"
SHOW = "I'd like to show off how chat templating works!"

CASES = [
    case("user", [U(HELLO)]),
    case("user-no-generation", [U(HELLO)], gen=False),
    case("system-user", [S(SYS), U(HELLO)]),
    case("system-user-assistant-user", [S(SYS), U(HELLO), A(GREAT), U(SHOW)]),
    case("system-user-assistant-user-no-generation", [S(SYS), U(HELLO), A(GREAT), U(SHOW)], gen=False),
    case("user-assistant-user", [U(HELLO), A(GREAT), U(SHOW)]),
    case("user-assistant", [U(HELLO), A(GREAT)], gen=False),
    case("many-turns", [S(SYS), U("One?"), A("1"), U("Two?"), A("2"), U("Three?"), A("3"), U("Four?")]),
    case("many-turns-no-system", [U("One?"), A("1"), U("Two?"), A("2"), U("Three?"), A("3"), U("Four?"), A("4")], gen=False),
    case("non-ascii", [S("你是一个乐于助人的助手。"), U("Grüß dich! Ça va? 😀 “quotes” \\n <tag> & {braces}"), A("很好，谢谢！"), U("日本語で答えてください")]),
    case("spaces", [S("  padded system  "), U("  hello  "), A("\n answer with spaces \n"), U("\tlast question\t ")]),
    case("unicode-spaces", [U("\u3000wide\u3000"), A("\u00a0nbsp\u00a0"), U("\x1fsep\x1f")]),
    case("empty-system", [S(""), U(HELLO)]),
    case("empty-user", [U("")]),
    case("system-only", [S(SYS)]),
    case("continue-final", [U("Write a haiku."), A("Autumn moon")], gen=False, cont=True),
    case("continue-final-system", [S(SYS), U("Write a haiku."), A("Autumn moon")], gen=False, cont=True),
    case("continue-final-trailing-space", [U("Count:"), A("1, 2, ")], gen=False, cont=True),
    case("continue-final-leading-space", [U("Count:"), A("  1, 2")], gen=False, cont=True),
    case("continue-final-user", [U(HELLO), A(GREAT), U("Complete this: the sky is")], gen=False, cont=True),
    case("continue-and-generation", [U(HELLO), A("Sure")], gen=True, cont=True),
    case("consecutive-users", [U("a"), U("b")]),
    case("starts-with-assistant", [A("I start."), U("ok")]),
    case("late-system", [U(HELLO), A(GREAT), S("Now be brief."), U(SHOW)]),
    case("tools-definitions", [U("Weather in Paris?")], tools=TOOLS),
    case("tools-system", [S("Be brief."), U("Weather in Paris?")], tools=TOOLS),
    case("tools-call-result", [U("Weather in Paris?"), A("", [PARIS]), T('{"temp": 20}', "call00001")], tools=TOOLS),
    case("tools-call-result-answer", [S(SYS), U("Weather and time in Paris?"), A("Let me check.", [PARIS, TIME]),
                                     T('{"temp": 20}', "call00001"), T('"12:00"', "call00002"),
                                     A("It is 20 °C and noon."), U("Thanks!")], tools=TOOLS),
    case("tool-calls-without-tools", [U("Weather in Paris?"), A("", [PARIS]), T('{"temp": 20}', "call00001")]),
    case("tool-call-json", [U("Compute."), A("", [call("call00003", "calc", {
        "int": 10, "float": 1.5, "big": 1e20, "small": 0.00001, "negzero": -0.0, "exp": 2.5e-3,
        "esc": "q\"b\\s\nn\u0001c\u2028\u00e9", "nested": [1, {"x": None, "t": True, "f": False}], "empty": {}})]),
        T("ok", "call00003")], tools=TOOLS),
    case("repeated-last-user", [U("hi"), A("hello"), U("hi")], tools=TOOLS),
    case("developer-role", [{"role": "developer", "content": "Be terse."}, U(HELLO)]),
    case("starts-with-tool", [T("42", "call00001"), U("What was that?")]),
    case("tool-call-bad-id", [U("Weather in Paris?"), A("", [call("c1", "get_weather", {"city": "Paris"})]), T("20", "c1")], tools=TOOLS),
]


# Random conversations (seeded, so the goldens are stable): alternating and
# not, with and without system, tool calls and results, tricky text.
POOL = ["Hello there", "  padded both  ", "\nnewline first", "trailing newline\n", "multi\nline\ntext",
        "Ünïcödé ✓ 中文 текст", "emoji 🎉 party", '{"json": [1, 2.5]}', "<b>tags</b> & amp; <|im_end|>",
        "tab\tinside", "", "   ", "\u00a0nbsp edges\u00a0", "back\\slash", "quote's \"double\"",
        "Question about stars?", "Answer with details.", "\u3000ideographic\u3000"]


def random_cases(n, seed=20261122):
    import random
    rnd = random.Random(seed)
    out = []
    for k in range(n):
        msgs = []
        if rnd.random() < 0.4:
            msgs.append(S(rnd.choice(POOL)))
        length = rnd.randint(1, 7)
        alternate = rnd.random() < 0.6
        for i in range(length):
            if alternate:
                role = "user" if i % 2 == 0 else "assistant"
            else:
                role = rnd.choice(["user", "assistant", "user", "assistant", "tool", "system", "developer"])
            if role == "assistant" and rnd.random() < 0.25:
                cid = "call%05d" % rnd.randint(0, 99999) if rnd.random() < 0.9 else "bad"
                msgs.append(A(rnd.choice(["", "Let me look.", " spaced "]),
                              [call(cid, "get_weather", {"city": rnd.choice(["Paris", "Zürich", "東京"]), "n": rnd.choice([1, 2.5, -3])})]))
                if rnd.random() < 0.7:
                    msgs.append(T(rnd.choice(['{"temp": 20}', "plain result", "  spaced  "]), cid))
            elif role == "tool":
                msgs.append(T(rnd.choice(['{"temp": 20}', "plain result"]), "call%05d" % rnd.randint(0, 99999)))
            else:
                msgs.append({"role": role, "content": rnd.choice(POOL)})
        cont = rnd.random() < 0.25
        gen = (not cont and rnd.random() < 0.6) or (cont and rnd.random() < 0.1)
        tools = TOOLS if rnd.random() < 0.3 else None
        out.append(case("random-%02d" % k, msgs, gen=gen, cont=cont, tools=tools))
    return out


CASES += random_cases(40)


def module_dir():
    gomodcache = subprocess.run(["go", "env", "GOMODCACHE"], capture_output=True, text=True, check=True).stdout.strip()
    return os.path.join(gomodcache, "github.com", "ollama", "ollama@v0.17.4")


def load_templates():
    path = os.path.join(module_dir(), "template", "index.json")
    with open(path, encoding="utf-8") as f:
        index = json.load(f)
    out = {}
    for preset, (src, bos, eos) in PRESETS.items():
        if src[0] == "ollama":
            _, i, name, sha = src
            e = index[i]
            got = hashlib.sha256(e["template"].encode()).hexdigest()
            if e["name"] != name or not got.startswith(sha):
                sys.exit(f"{preset}: index.json[{i}] is {e['name']} {got[:12]}, want {name} {sha}")
            out[preset] = (e["template"], f"{OLLAMA} template/index.json[{i}] ({name}, sha256 {got[:12]})", bos, eos)
        else:
            out[preset] = (src[1], "embedded in oracle.py", bos, eos)
    return out


def environment():
    return chatdata.environment(lambda fmt: "26 Jul 2024")


def apply(tmpl, bos, eos, c):
    """What transformers' apply_chat_template(tokenize=False) returns."""
    gen, cont = c["add_generation_prompt"], c["continue_final_message"]
    if gen and cont:
        raise ValueError("continue_final_message and add_generation_prompt are not compatible.")
    rendered = tmpl.render(messages=c["messages"], tools=c.get("tools"), documents=None,
                           add_generation_prompt=gen, bos_token=bos, eos_token=eos)
    if cont:
        final = c["messages"][-1]["content"]
        if final.strip() not in rendered:
            raise ValueError("continue_final_message is set but the final message does not appear in the chat after applying the chat template!")
        loc = rendered.rindex(final.strip())
        if rendered[loc:loc + len(final.lstrip())] == final:
            rendered = rendered[:loc + len(final.lstrip())]
        else:
            rendered = rendered[:loc + len(final.strip())]
    return rendered


def main():
    env = environment()
    outdir = os.path.join(HERE, "golden")
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "cases.json"), "w", encoding="utf-8") as f:
        f.write("[\n" + ",\n".join(json.dumps(c, ensure_ascii=False) for c in CASES) + "\n]\n")
    for preset, (source, origin, bos, eos) in load_templates().items():
        tmpl = env.from_string(source)
        results = []
        for c in CASES:
            r = {"name": c["name"]}
            try:
                r["output"] = apply(tmpl, bos, eos, c)
            except TemplateError as e:
                r["error"] = str(e)
                r["error_kind"] = "TemplateError"
            except Exception as e:  # ValueError from apply, or a template crash
                r["error"] = str(e)
                r["error_kind"] = type(e).__name__
            results.append(r)
        head = json.dumps({"preset": preset, "template": origin, "bos_token": bos, "eos_token": eos}, ensure_ascii=False)
        with open(os.path.join(outdir, preset + ".json"), "w", encoding="utf-8") as f:
            f.write(head[:-1] + ', "results": [\n' + ",\n".join(json.dumps(r, ensure_ascii=False) for r in results) + "\n]}\n")
        print(preset, sum("output" in r for r in results), "outputs,", sum("error" in r for r in results), "errors")


if __name__ == "__main__":
    main()
