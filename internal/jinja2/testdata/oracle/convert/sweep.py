#!/usr/bin/env python3
"""A sweep of real chat templates not yet in the corpus, with the
conversations of convert/chat.py.

    python3 convert/sweep.py [--all] GIT_DIR...     # -> cases/sweep.json

The run that made cases/sweep.json named, in this order (the first copy
of a text is the one recorded): eigen-hub/vllm, aidendle94/vllm,
Phala-Network/vllm, team-telnyx/vllm, wukaixingxp/vllm,
ZunhaiSu/SGLang-FluentLLM, axolotl-ai-cloud/axolotl, huggingface/trl,
unslothai/unsloth, modelscope/ms-swift, InternLM/lmdeploy,
oobabooga/text-generation-webui, abetlen/llama-cpp-python,
agentica-project/R2E-Gym, EchoCog/gpt-oss-20b, ikawrakow/ik_llama.cpp,
nomic-ai/gpt4all, allenai/open-instruct, guidance-ai/guidance,
Blaizzy/mlx-vlm, ml-explore/mlx-lm, NousResearch/Hermes-Function-Calling,
volcengine/verl, hiyouga/LLaMA-Factory, OpenRLHF/OpenRLHF,
lmstudio-ai/mlx-engine, mlc-ai/mlc-llm, Future-House/ldp,
huggingface/alignment-handbook, pwilkin/llama.cpp, and eleven repositories
found by their chat_template.jinja: DammianMiller/universal-agent-protocol,
Timestep-AI/timestep, kryoz/4090-48gb-vllm-fp8, binarrii/unsloth_peft,
t184256/nix-configs, euclidgame/mathconstruct, hhh2210/RuscaRL,
kyleavery/LLM-Training, ekhadley/subliminal, loris3/ceelm,
aabbdev/state-model-interface (vllm-project/vllm and
sgl-project/sglang are too large to fetch here; their forks are not).

Each GIT_DIR is a snapshot of a public repository (a bare git directory
at .../OWNER+NAME/repo, as the fetch tool leaves it); its HEAD is read.
The templates taken from it:

  - every *.jinja / *.j2 file that reads "messages" and holds "{%" or "{{";
  - the chat_template of every tokenizer_config.json (a str, or a list
    of named templates) and of every chat_template.json; in other JSON
    files, every string under a key naming a template (gpt4all's model
    lists);
  - the C++ raw string literals (R"(...)") that read "messages" (gpt4all's
    replacements of the templates it cannot run);
  - in YAML files, every string under a key naming a template
    (text-generation-webui's instruction_template, alignment-handbook's
    chat_template);
  - the string constants of every *.py file that read "messages" and hold
    "{%" (found with Python's ast, with "+" of constants, names bound to
    constants, dedent() and strip() folded: never extracted by hand), as
    unsloth's chat_templates.py and the tests of many repositories hold
    their templates.

A template whose text (exactly) is already in cases/hf.json,
cases/llamacpp.json or cases/chatmore.json, or earlier in this sweep, is
left out. Every template is rendered in the "hf" profile (transformers'
chat environment) with the conversations of convert/chat.py; Python's
Jinja2 decides every expectation (oracle.py). To keep the file small, a
conversation is kept for a template only if it adds something: a string
or an error no conversation before it gave, and a line of the template's
code (as Jinja2 compiles it) no conversation before it ran, or the
hostile or unicode strings (whose point is the data). With --all every
case is kept.

Repository, commit, path and licence are recorded per template in
"template_sources"; each model's licence applies to its template.
"""
import ast
import json
import os
import re
import subprocess
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chat  # noqa: E402

KNOWN_FILES = ("hf.json", "llamacpp.json", "chatmore.json")
LICENCES = [("Apache License", "Apache-2.0"), ("MIT License", "MIT"), ("Permission is hereby granted", "MIT"),
            ("GNU LESSER GENERAL PUBLIC", "LGPL-3.0"), ("GNU AFFERO", "AGPL-3.0"), ("GNU GENERAL PUBLIC", "GPL-3.0"),
            ("BSD 3-Clause", "BSD-3-Clause"), ("Redistribution and use", "BSD")]


def git(git_dir, *args):
    return subprocess.run(["git", "--git-dir", git_dir] + list(args), check=True, capture_output=True).stdout


def show(git_dir, commit, path):
    """A file's bytes; empty when the snapshot lacks it (its largest files
    may be listed but absent)."""
    try:
        return git(git_dir, "show", commit + ":" + path)
    except subprocess.CalledProcessError:
        return b""


def known_templates():
    texts = set()
    for name in KNOWN_FILES:
        with open(os.path.join(HERE, "..", "cases", name), encoding="utf-8") as f:
            doc = json.load(f)
        texts.update(doc.get("templates", {}).values())
        texts.update(c["template"] for c in doc["cases"] if "template" in c)
    return texts


def licence_file(text):
    for needle, name in LICENCES:
        if needle in text:
            return name
    return None


def licences(git_dir, commit, paths):
    """The licence of each directory holding a LICENSE (before COPYING)."""
    out = {}
    for p in sorted(paths, key=lambda p: (p.rsplit("/", 1)[-1].upper().startswith("COPYING"), p)):
        d, _, base = p.rpartition("/")
        if base.upper().startswith(("LICENSE", "LICENCE", "COPYING")) and d not in out:
            name = licence_file(git(git_dir, "show", commit + ":" + p).decode("utf-8", "replace"))
            if name:
                out[d] = name
    return out


def licence_of(lics, path):
    d = path
    while d:
        d = d.rpartition("/")[0]
        if d in lics:
            return lics[d]
    return "none stated"


def is_chat(text):
    return isinstance(text, str) and "messages" in text and ("{%" in text or "{{" in text)


class Folder(ast.NodeVisitor):
    """Finds the maximal string-valued expressions of a module."""

    def __init__(self):
        self.env, self.found = {}, []

    def value(self, node):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            return self.env.get(node.id)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            a, b = self.value(node.left), self.value(node.right)
            return a + b if a is not None and b is not None else None
        if isinstance(node, ast.Call) and not node.keywords:
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr in ("strip", "lstrip", "rstrip") and not node.args:
                v = self.value(f.value)
                return getattr(v, f.attr)() if v is not None else None
            fname = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if fname == "dedent" and len(node.args) == 1:
                v = self.value(node.args[0])
                return textwrap.dedent(v) if v is not None else None
        return None

    def visit_Assign(self, node):
        v = self.value(node.value)
        name = None
        for t in node.targets:
            if isinstance(t, ast.Name):
                name = t.id
                if v is not None:
                    self.env[t.id] = v
            elif isinstance(t, ast.Attribute):
                name = t.attr
        if v is not None:
            self.found.append((name or "line%d" % node.lineno, v))
        else:
            self.generic_visit(node)

    def generic_visit(self, node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr) and not isinstance(child, ast.Name):
                v = self.value(child)
                if v is not None:
                    self.found.append(("line%d" % child.lineno, v))
                    continue
            self.visit(child)


# C++ raw string literals: R"delim(...)delim", no escapes inside.
RAW_STRING = re.compile(r'R"([^()\\ ]{0,16})\((.*?)\)\1"', re.S)


def json_templates(doc, where=""):
    """The strings of a JSON document under a key naming a template."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            if isinstance(v, str) and "template" in str(k).lower():
                yield "#" + (where + "." if where else "") + str(k), v
            else:
                yield from json_templates(v, (where + "." if where else "") + str(k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            name = v.get("name") or v.get("filename") if isinstance(v, dict) else None
            yield from json_templates(v, "%s[%s]" % (where, name if isinstance(name, str) else i))


def python_templates(src):
    try:
        tree = ast.parse(src)
    except (SyntaxError, ValueError):
        return []
    f = Folder()
    f.visit(tree)
    out, names = [], {}
    for name, text in f.found:
        if "{%" not in text or "messages" not in text:
            continue
        n = names[name] = names.get(name, 0) + 1
        out.append(("#" + name + ("" if n == 1 else "-%d" % n), text))
    return out


def templates_of(git_dir):
    repo = "/".join(os.path.basename(os.path.dirname(os.path.abspath(git_dir))).split("+", 1))
    commit = git(git_dir, "rev-parse", "HEAD").decode().strip()
    # blobs only: a submodule's entry (llama-cpp-python's vendor/llama.cpp) holds no text
    paths = [line.split("\t", 1)[1] for line in git(git_dir, "ls-tree", "-r", "-z", commit).decode().split("\0")
             if line.split(" ", 2)[1:2] == ["blob"]]
    lics = licences(git_dir, commit, paths)
    for path in sorted(paths):
        found = []
        base = path.rsplit("/", 1)[-1]
        if path.endswith((".jinja", ".j2", ".jinja2")):
            found.append(("", show(git_dir, commit, path).decode("utf-8", "replace")))
        elif base in ("tokenizer_config.json", "chat_template.json"):
            try:
                ct = json.loads(show(git_dir, commit, path)).get("chat_template")
            except (ValueError, AttributeError):
                ct = None
            if isinstance(ct, str):
                found.append(("", ct))
            elif isinstance(ct, list):
                found.extend(("#" + t.get("name", str(i)), t.get("template")) for i, t in enumerate(ct) if isinstance(t, dict))
        elif path.endswith(".json"):
            try:
                found.extend(json_templates(json.loads(show(git_dir, commit, path))))
            except ValueError:
                pass
        elif path.endswith((".cpp", ".cc", ".h", ".hpp")):
            src = show(git_dir, commit, path).decode("utf-8", "replace")
            found.extend(("#line%d" % (src.count("\n", 0, m.start()) + 1), m.group(2)) for m in RAW_STRING.finditer(src))
        elif path.endswith((".yaml", ".yml")):
            import yaml
            try:
                doc = yaml.safe_load(show(git_dir, commit, path))
            except yaml.YAMLError:
                doc = None
            found.extend(json_templates(doc))
        elif path.endswith(".py"):
            found.extend(python_templates(show(git_dir, commit, path).decode("utf-8", "replace")))
        for suffix, text in found:
            if is_chat(text):
                yield repo, commit, path + suffix, licence_of(lics, path), text


def new_templates(found, seen):
    """[(ref, text, source)] of the (repo, commit, path, licence, text) of
    found whose text is not in seen, adding each to seen."""
    out = []
    for repo, commit, path, lic, text in found:
        if text in seen:
            continue
        seen.add(text)
        out.append(("%s/%s" % (repo, path), text, {
            "repo": repo, "commit": commit, "path": path,
            "licence": "%s (%s); the model's licence applies to its template" % (lic, repo)}))
    return out


def main():
    args = sys.argv[1:]
    keep_all = "--all" in args
    args = [a for a in args if a != "--all"]
    seen = known_templates()
    templates = new_templates((t for git_dir in args for t in templates_of(git_dir)), seen)
    print("%d new templates" % len(templates), file=sys.stderr)
    chat.build("sweep", templates, {"repo": "per template (template_sources)", "path": "convert/sweep.py",
                                    "licence": "per template (template_sources)"}, "sweep.json")
    if not keep_all:
        prune(os.path.join(HERE, "..", "cases", "sweep.json"))


# Conversations whose point is their strings (non-BMP, quotes, escapes),
# not the path they take: kept whenever they print something new.
DATA_CONVERSATIONS = ("hostile", "unicode")


def lines_run(oracle, case, templates, contexts):
    """The lines of the template's Python code (Jinja2 compiles each
    template to a module named <template>) that rendering case runs."""
    seen = set()

    def local(frame, event, arg):
        if event == "line":
            seen.add(frame.f_lineno)
        return local

    def tracer(frame, event, arg):
        return local if frame.f_code.co_filename == "<template>" else None

    sys.settrace(tracer)
    try:
        oracle.render_raw(case, templates, contexts)
    finally:
        sys.settrace(None)
    return seen


def prune(path, data=DATA_CONVERSATIONS):
    """Keeps the cases that add something for their template: of the
    conversations that print the same string or raise the same error for
    one template, the first; and of the others, those that run a line of
    the template's code no conversation before them ran, or whose strings
    are the hostile ones or unicode's (their point is the data, not the
    path). A case without a conversation (real13.py's prompt templates) is
    kept as it is."""
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    seen, covered, cases = set(), {}, []
    for c in doc["cases"]:
        if "context_ref" not in c:
            cases.append(c)
            continue
        e = c["expect"]
        ref = c["template_ref"]
        key = (ref, e["error"], e.get("message")) if "error" in e else (ref, e["output"])
        if key in seen:
            continue
        lines = lines_run(oracle, c, doc["templates"], doc["contexts"])
        done = covered.setdefault(ref, set())
        if lines <= done and not c["context_ref"].startswith(data):
            continue
        done |= lines
        seen.add(key)
        c.pop("source", None)  # template_ref and context_ref say it
        cases.append(c)
    doc["cases"] = cases
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(oracle.dump(doc))


if __name__ == "__main__":
    main()
