#!/usr/bin/env python3
"""Real templates outside every other case file (issue 23, thirteenth round).

    python3 convert/real13.py [--all] GIT_DIR...      # -> cases/real13.json
    python3 convert/real13.py --all GIT_DIR...        # -> cases/real13x.json, not committed

Each argument is a git directory (a bare snapshot, as the fetch tool leaves
it, at .../OWNER+NAME/repo); its HEAD is read, and the repository its
directory names says what is read of it: the prompt repositories below
(PROMPTS) for their prompt templates, any other for its chat templates. The
run that made cases/real13.json named, in this order (the first copy of a
text is the one recorded): 1CatAI/1Cat-vLLM, xorbitsai/inference,
huggingface/text-generation-inference, EricLBuehler/mistral.rs,
EricLBuehler/candle-vllm, NVIDIA/Megatron-LM, NVIDIA/NeMo,
vllm-project/vllm-ascend, promptslab/Promptify, Azure-Samples/contoso-chat,
Azure-Samples/contoso-creative-writer,
Azure-Samples/agent-openai-python-prompty, meta-llama/llama-stack,
EleutherAI/lm-evaluation-harness.

Chat templates (rendered in the "hf" profile with the conversations of
convert/chat.py, which hold tool calls with dict, list and JSON-string
arguments, content parts and the hostile and unicode strings; kept per
template as convert/sweep.py keeps them, every case with --all): what
sweep.py reads of each CHAT_GIT (*.jinja files, tokenizer_config.json,
templates in JSON and YAML, C++ raw strings, Python constants), and the
Rust string literals (raw r#"..."# and escaped "...") that read
"messages", as TGI's, mistral.rs's and candle-vllm's tests hold the
templates they render. They are:

  1CatAI/1Cat-vLLM      a vLLM fork newer than those of sweep.json
                        (examples/*.jinja, its Rust tests' templates);
                        vllm-project/vllm is too large to fetch here
  xorbitsai/inference   Xinference: the chat_template of every model family
                        of xinference/model/llm/llm_family.json and its
                        tests' Python constants
  huggingface/text-generation-inference, EricLBuehler/mistral.rs,
  EricLBuehler/candle-vllm
                        Rust servers: their tests' templates and
                        mistral.rs's chat_templates/*.json
  NVIDIA/Megatron-LM, NVIDIA/NeMo
                        the chat templates of their tokenizers (Python)
  vllm-project/vllm-ascend
                        its examples' chat templates

Prompt templates (not chat templates), each in its project's environment,
with prompts8.py's three synthesized contexts and two rows more (below):

  promptslab/Promptify  promptify/prompts/templates/*.jinja
                        (Environment(loader=FileSystemLoader(...)))
  Azure-Samples/contoso-chat, contoso-creative-writer,
  agent-openai-python-prompty
                        the bodies of their .prompty files, as prompty
                        renders them (ImmutableSandboxedEnvironment(
                        keep_trailing_newline=True))
  meta-llama/llama-stack
                        the prompt templates of its Llama models
                        (llama_stack/models/llama/**/prompt_templates/*.py:
                        system prompts, tool definitions and tool
                        responses; jinja2.Template(s).render(data))
  EleutherAI/lm-evaluation-harness
                        the Jinja strings of lm_eval/tasks/**/*.yaml, as
                        prompts8.py reads and renders them, one template
                        per sequence of tags and expressions (every
                        distinct text with --all), with the two rows only:
                        prompts8.json holds the other contexts

The rows are what dataset rows hold, built from the names and paths each
template reads (prompts8.py's shapes): strings with quotes, apostrophes,
backslashes, newlines, tabs, a no-break space, U+200B and non-BMP
characters; numbers as ints in the first row and as floats in the second;
lists of strings and of numbers; and in the second row numbers and lists
where a field is read only as text (a label, a score, a list of answers
printed whole).

A template whose text (exactly) is already in another case file or in
testdata/jinja2-prompts is left out. Python's Jinja2 decides every
expectation (oracle.py); repository, commit, path and licence are in
"template_sources".
"""
import glob
import hashlib
import json
import os
import sys

import jinja2

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
import chat  # noqa: E402
import oracle  # noqa: E402
import prompts8  # noqa: E402
import suite  # noqa: E402
import sweep  # noqa: E402

OUT = "real13.json"
OUT_ALL = "real13x.json"   # --all: every case, not committed

# --- chat templates ---------------------------------------------------------


def rust_strings(src):
    """(line, value) of the string literals of Rust source: raw strings
    (r"...", r#"..."#, ...) as written, and escaped ones with Rust's
    escapes (\\n \\r \\t \\\\ \\0 \\' \\" \\u{...}, and a backslash before a
    newline, which drops the newline and the whitespace after it); line
    and block comments and char literals are skipped."""
    out, i, n = [], 0, len(src)
    esc = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", "0": "\0", "'": "'", '"': '"'}
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c == "r" and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")) \
                and src[i + 1:i + 2] in ('"', "#"):
            j = i + 1
            while j < n and src[j] == "#":
                j += 1
            if j >= n or src[j] != '"':
                i += 1
                continue
            close = '"' + "#" * (j - i - 1)
            k = src.find(close, j + 1)
            if k < 0:
                return out
            out.append((src.count("\n", 0, i) + 1, src[j + 1:k]))
            i = k + len(close)
        elif c == "'":
            # a char literal ('x', '\n', '\u{..}') or a lifetime ('a)
            if src.startswith("\\", i + 1):
                j = src.find("'", i + 2)
                i = n if j < 0 else j + 1
            elif src[i + 2:i + 3] == "'":
                i += 3
            else:
                i += 1
        elif c == '"':
            start, j, buf = i, i + 1, []
            while j < n and src[j] != '"':
                if src[j] == "\\":
                    e = src[j + 1]
                    if e == "\n":
                        j += 2
                        while j < n and src[j] in " \t\r\n":
                            j += 1
                        continue
                    if e == "u":
                        end = src.index("}", j)
                        buf.append(chr(int(src[j + 3:end], 16)))
                        j = end + 1
                        continue
                    if e == "x":
                        buf.append(chr(int(src[j + 2:j + 4], 16)))
                        j += 4
                        continue
                    buf.append(esc.get(e, e))
                    j += 2
                else:
                    buf.append(src[j])
                    j += 1
            out.append((src.count("\n", 0, start) + 1, "".join(buf)))
            i = j + 1
        else:
            i += 1
    return out


def rust_templates(git_dir):
    repo = "/".join(os.path.basename(os.path.dirname(os.path.abspath(git_dir))).split("+", 1))
    commit = sweep.git(git_dir, "rev-parse", "HEAD").decode().strip()
    paths = [p for p in sweep.git(git_dir, "ls-tree", "-r", "-z", "--name-only", commit).decode().split("\0") if p]
    lics = sweep.licences(git_dir, commit, paths)
    for path in sorted(p for p in paths if p.endswith(".rs")):
        src = sweep.show(git_dir, commit, path).decode("utf-8", "replace")
        for line, text in rust_strings(src):
            if sweep.is_chat(text):
                yield repo, commit, "%s#line%d" % (path, line), sweep.licence_of(lics, path), text


def known_texts(exclude=(OUT, OUT_ALL)):
    """Every template text of the other case files (all but exclude) and of
    the prompt corpus."""
    texts = set(prompts8.corpus_texts())
    for path in glob.glob(os.path.join(HERE, "..", "cases", "*.json")):
        # suites18.json holds copies of the other files' templates (with
        # other conversations): a template first found by a later round
        # stays that round's
        if os.path.basename(path) in exclude or os.path.basename(path) == "suites18.json":
            continue
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        texts.update(v for v in doc.get("templates", {}).values() if isinstance(v, str))
        for c in doc["cases"]:
            if isinstance(c.get("template"), str):
                texts.add(c["template"])
            texts.update(v for v in (c.get("loader") or {}).values() if isinstance(v, str))
    return texts


# Licences sweep.py's reading of a LICENSE file names wrongly: Megatron-LM's
# is NVIDIA's BSD-3-Clause text, followed by the licences (Apache-2.0 among
# them) of the files it took from other projects.
LICENCE_OF = {"NVIDIA/Megatron-LM": "BSD-3-Clause"}


def chat_templates(git_dirs, seen):
    found = [(repo, commit, path, LICENCE_OF.get(repo, lic), text)
             for g in git_dirs for repo, commit, path, lic, text in list(sweep.templates_of(g)) + list(rust_templates(g))]
    return sweep.new_templates(found, seen)


# --- prompt templates -------------------------------------------------------

# Row strings: what the brief of the round names, in dataset-like text.
ROW_TEXT = [
    "It's the \"right\" answer, isn't it?",
    "Line one\nline two\n\tindented with a tab",
    "C:\\path\\to\\file and \\n literally",
    "no\u00a0break\u00a0space and zero\u200bwidth\u200b",
    "non-BMP: \U0001F600 \U0001D518 \U00020BB7 math",
    "O'Reilly's \"Learning\" \u2014 2nd ed.",
    "  leading and trailing  ",
    "caf\u00e9 vs cafe\u0301 \u00fc\u00df \u0130",
]
# The second row: text, and where a field is read only as text, numbers and lists.
ROW_MIXED = [
    "Tab\there, quote \" and apostrophe '",
    7,
    0.25,
    ["a'b", "c\"d", "e\\f", "g\nh"],
    "\u200b\u00a0\U0001F389",
    -3,
    1e-05,
    [1, 2.5, 3],
    "ends with backslash \\",
    2.0,
]
ROW_INTS = [3, 0, 42, -1, 100, 7, 2 ** 31]
ROW_FLOATS = [0.5, 2.0, 1e-05, 3.14159, 1234567.5, 0.1 + 0.2, 100.0, -0.75, 1e16]


class Row(prompts8.Gen):
    """prompts8's values of a template's shapes, with dataset rows' strings
    and numbers."""

    def __init__(self, which, seed):
        super().__init__(0 if which == 0 else 4, seed)
        self.which = which

    def text(self):
        self.n += 1
        pal = ROW_TEXT if self.which == 0 else ROW_MIXED
        return pal[self.n % len(pal)]

    def value(self, s, depth=0):
        if s is not None and "num" in s.kind and not s.consts and "index" not in s.kind and not s.attrs \
                and s.elem is None and s.max_index < 0 and not ({"list", "dict", "tuple", "seq"} & s.kind):
            self.n += 1
            nums = ROW_INTS if self.which == 0 else ROW_FLOATS
            return nums[self.n % len(nums)]
        return super().value(s, depth)


def rows_for(env, src):
    shapes, _ = prompts8.shapes_of(env, src)
    seed = int(hashlib.sha1(src.encode()).hexdigest()[:6], 16)
    return [{name: Row(w, seed).value(s) for name, s in shapes.items()} for w in (0, 1)]


class Folder(sweep.Folder):
    """sweep.py's folding of string expressions, with strip, lstrip and
    rstrip of a constant argument too (llama-stack's .strip("\\n"))."""

    def value(self, node):
        import ast
        if isinstance(node, ast.Call) and not node.keywords and len(node.args) == 1 \
                and isinstance(node.func, ast.Attribute) and node.func.attr in ("strip", "lstrip", "rstrip"):
            v, arg = self.value(node.func.value), self.value(node.args[0])
            return getattr(v, node.func.attr)(arg) if v is not None and arg is not None else None
        return super().value(node)


def llama_stack(git):
    """The prompt templates of llama-stack's models (PromptTemplate renders
    jinja2.Template(template).render(data)): the folded string expressions
    of llama_stack/models/llama/**/prompt_templates/*.py holding "{{" or
    "{%", a template_str as gen() passes it (.lstrip("\\n"))."""
    import ast
    paths = [p for p in git.files if p.startswith("llama_stack/models/llama/") and "/prompt_templates/" in p
             and p.endswith(".py")]
    for path, text in sorted(git.read_many(paths).items()):
        f = Folder()
        f.visit(ast.parse(text))
        for name, value in f.found:
            if prompts8.is_template(value):
                yield "%s#%s" % (path, name), value.lstrip("\n") if name == "template_str" else value


def repo_of(git_dir):
    return "/".join(os.path.basename(os.path.dirname(os.path.abspath(git_dir))).split("+", 1))


def promptify(git):
    for key, path, src, env, skip, loader in prompts8.template_files(
            git, ("promptify/prompts/templates/",), (".jinja",), {}):
        yield "promptify/" + key, path, src, env, skip, loader, False


def prompty_files(git, short):
    for key, path, src, env, skip, loader in prompts8.template_files(
            git, ("",), (".prompty",), {"sandbox": True, "keep_trailing_newline": True}, front_matter=True):
        yield short + "/" + key, path, src, env, skip, loader, False


def llama_stack_templates(git):
    seen_keys = {}
    for key, src in llama_stack(git):
        n = seen_keys[key] = seen_keys.get(key, 0) + 1
        key = key if n == 1 else "%s-%d" % (key, n)
        yield "llama-stack/" + key, key.split("#")[0], src, {}, None, None, False


def lm_eval(git):
    own = lambda s: "regex_replace" in s and "lm-eval's regex_replace filter"  # noqa: E731
    for key, path, src, env, skip in prompts8.yaml_strings(git, "lm_eval/tasks/", {"keep_trailing_newline": True},
                                                           own=own):
        yield "lm-eval/" + key, path, src, env, skip, None, True


# The prompt repositories: licence and reader (key, path, template, env,
# why it is skipped, loader, rows only) of each.
PROMPTS = {
    "promptslab/Promptify": ("Apache-2.0", promptify),
    "Azure-Samples/contoso-chat": ("MIT", lambda g: prompty_files(g, "contoso-chat")),
    "Azure-Samples/contoso-creative-writer": ("MIT", lambda g: prompty_files(g, "contoso-creative-writer")),
    "Azure-Samples/agent-openai-python-prompty": ("MIT", lambda g: prompty_files(g, "agent-openai-python-prompty")),
    "meta-llama/llama-stack": ("MIT", llama_stack_templates),
    "EleutherAI/lm-evaluation-harness": ("MIT", lm_eval),
}


def prompt_sources(git_dirs):
    for g in git_dirs:
        repo = repo_of(g)
        git = prompts8.Git(g)
        licence, read = PROMPTS[repo]
        for key, path, src, env, skip, loader, rows_only in read(git):
            yield repo, git.commit, licence, key, path, src, env, skip, loader, rows_only


def prompt_cases(git_dirs, seen, every, skipped):
    """(templates, template_sources, cases) of the prompt templates."""
    templates, sources, cases, seen_code, counts = {}, {}, [], set(), {}
    for repo, commit, licence, ref, path, src, envspec, skip, loader, rows_only in prompt_sources(git_dirs):
        found, kept = counts.get(repo, (0, 0))
        found += 1
        counts[repo] = (found, kept)
        if src in seen and not rows_only:
            continue
        seen.add(src)
        env = oracle.environment(envspec)
        if not skip and prompts8.RANDOM.search(src):
            skip = "random output"
        try:
            _, called = prompts8.shapes_of(env, src)
        except jinja2.TemplateSyntaxError:
            called = set()
        if not skip and called:
            skip = "calls the project's function %s" % ", ".join(sorted(called))
        if not skip:
            unknown = prompts8.own_filters(env, src)
            if unknown:
                skip = "uses the project's filter or test %s" % ", ".join(sorted(unknown))
        if skip:
            skipped[ref] = skip
            continue
        ck = (prompts8.code_of(src), repr(sorted(envspec.items())), repr(loader))
        if ck in seen_code and not every:
            continue
        seen_code.add(ck)
        try:
            ctxs = ([] if rows_only else prompts8.contexts_for(env, src)) + rows_for(env, src)
            names = ([] if rows_only else ["synth0", "synth1", "synth2"]) + ["row-ints", "row-floats"]
        except jinja2.TemplateSyntaxError:
            ctxs, names = [{}], ["empty"]
        counts[repo] = (found, kept + 1)
        templates[ref] = src
        sources[ref] = {"repo": repo, "commit": commit, "path": path, "licence": licence}
        for name, ctx in zip(names, ctxs):
            case = {"id": "real13/%s/%s" % (ref, name), "source": {"test": "real13"}, "template_ref": ref,
                    "context": oracle.encode(ctx), "env": dict(envspec)}
            if loader:
                case["loader"] = loader
            cases.append(case)
    return templates, sources, cases, counts


def main(argv):
    every = "--all" in argv
    argv = [a for a in argv if a != "--all"]
    if not argv:
        sys.exit(__doc__)
    seen = known_texts()
    chats = chat_templates([g for g in argv if repo_of(g) not in PROMPTS], seen)
    skipped = {}
    ptemplates, psources, pcases, counts = prompt_cases([g for g in argv if repo_of(g) in PROMPTS], seen, every,
                                                        skipped)
    convs = chat.conversations()
    templates, sources, cases = {}, {}, []
    for ref, text, tsource in chats:
        templates[ref] = text
        sources[ref] = tsource
        bos, eos = chat.tokens(text)
        for c in convs:
            cases.append({"id": "real13/%s/%s" % (ref, c["name"]), "template_ref": ref, "context_ref": c["name"],
                          "context": {"bos_token": bos, "eos_token": eos}, "env": {"profile": "hf"}})
    templates.update(ptemplates)
    sources.update(psources)
    cases.extend(pcases)
    print("chat templates: %d new" % len(chats), file=sys.stderr)
    for repo, (found, kept) in counts.items():
        print("%s: %d templates, %d kept" % (repo, found, kept), file=sys.stderr)
    out = OUT_ALL if every else OUT
    suite.write_cases(out, {"repo": "per template (template_sources)", "path": "convert/real13.py",
                            "licence": "per template (template_sources)"}, cases,
                      counts={"chat": len(chats), **{r: {"templates": f, "kept": k} for r, (f, k) in counts.items()}},
                      template_sources=sources, skipped=skipped,
                      contexts={c["name"]: chat.context(c) for c in convs}, templates=templates)
    if not every:
        sweep.prune(os.path.join(HERE, "..", "cases", out))


if __name__ == "__main__":
    main(sys.argv[1:])
