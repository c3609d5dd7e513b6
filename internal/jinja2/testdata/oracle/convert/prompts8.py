#!/usr/bin/env python3
"""Real Jinja2 prompt templates of other projects, with synthesized values.

    python3 convert/prompts8.py [--all] PROMPTSOURCE_GIT LM_EVAL_GIT SWE_AGENT_GIT OUTLINES_GIT
        HAYSTACK_GIT SEMANTIC_KERNEL_GIT PROMPTFLOW_GIT PROMPTY_GIT OPENHANDS_GIT MINI_SWE_AGENT_GIT
        SMOLAGENTS_GIT INSTRUCTOR_GIT MARVIN_GIT NEMO_GUARDRAILS_GIT HAYSTACK_INTEGRATIONS_GIT
        DYNAMIQ_GIT GRIPTAPE_GIT
        # -> cases/prompts8.json
    python3 convert/prompts8.py --all --explore=N GIT...   # -> cases/prompts8x.json, not committed

Each argument is a git directory (a clone or a bare snapshot); its HEAD is
read with git cat-file, so no work tree is needed. The templates:

  bigscience-workshop/promptsource  the "jinja" and "answer_choices" of every
      !Template of promptsource/templates/**/templates.yaml, rendered as
      promptsource's Template.apply renders them: Environment() with zip as
      a global and its own filters (choice, most_frequent, highlight), both
      as written and with each "}}" rewritten to
      " | string | truncate(2048) }}" (apply's truncate=True); templates
      that call zip or the project's filters are left out ("skipped").
  EleutherAI/lm-evaluation-harness  every string holding "{{" or "{%" of
      lm_eval/tasks/**/*.yaml (doc_to_text, doc_to_target, doc_to_choice,
      description, gen_prefix and the like), rendered as lm_eval.utils's
      apply_template: Environment(undefined=StrictUndefined,
      keep_trailing_newline=True) with a regex_replace filter (those
      calling it are left out).
  SWE-agent/SWE-agent  every string holding "{{" or "{%" of config/**/*.yaml,
      rendered as jinja2.Template(s) (the default environment).
  dottxt-ai/outlines  the prompt files of examples/prompts and
      docs/examples/prompt_templates, rendered as outlines' Template.from_file:
      Environment(trim_blocks, lstrip_blocks, keep_trailing_newline,
      undefined=StrictUndefined).
  deepset-ai/haystack  the str constants holding "{{" or "{%" of haystack/,
      test/ and e2e/ (PromptBuilder, ChatPromptBuilder, OutputAdapter,
      ConditionalRouter and their tests), in the sandbox (Haystack's
      SandboxedEnvironment; the case format states the immutable one);
      those using Haystack's {% message %} or {% now %} tags are left out.
  microsoft/semantic-kernel  the str constants of python/samples and
      python/tests files that name jinja2, and the YAML strings of python/,
      in the sandbox (Jinja2PromptTemplate's ImmutableSandboxedEnvironment);
      those calling Semantic Kernel's helpers are left out.
  microsoft/promptflow  the .jinja2/.jinja/.j2 files of examples/ and src/
      (not the code generators' templates), as the LLM tool renders them
      (SandboxedEnvironment(trim_blocks=True, keep_trailing_newline=True)),
      and the bodies of .prompty files (trim_blocks, keep_trailing_newline).
  microsoft/prompty  the cases of the Jinja-subset conformance corpus
      (runtime/python/prompty/prompty/jinja_subset/conformance/corpus.json),
      with their own inputs as well as the synthesized ones, and the bodies
      of every .prompty file, as prompty/renderers/jinja2.py renders them
      (ImmutableSandboxedEnvironment(keep_trailing_newline=True)).
  All-Hands-AI/OpenHands  the .j2, .jinja and .jinja2 files of openhands/,
      evaluation/ and microagents/ not in the corpus, with the files they
      include as the loader (Environment(loader=FileSystemLoader(...))).
  SWE-agent/mini-swe-agent  the Jinja strings of src/minisweagent/config
      (Template(s, undefined=StrictUndefined)).
  huggingface/smolagents  the Jinja strings of src/smolagents/prompts
      (populate_template: Template(s, undefined=StrictUndefined)).
  567-labs/instructor  the str constants of instructor/, tests/ and
      examples/ (templating.py: SandboxedEnvironment().from_string).
  PrefectHQ/marvin  src/marvin/templates/*.jinja (trim_blocks, lstrip_blocks,
      StrictUndefined; autoescape only for .html and .xml).
  NVIDIA/NeMo-Guardrails  the Jinja strings of nemoguardrails/llm/prompts
      (SandboxedEnvironment()), those without its own filters.
  deepset-ai/haystack-core-integrations  the str constants of integrations/
      files naming PromptBuilder or jinja, as Haystack's.
  dynamiq-ai/dynamiq  the str constants of dynamiq/, examples/ and tests/
      (Prompt: jinja2.Template(content).render).
  griptape-ai/griptape  griptape/templates/**/*.j2 (J2: trim_blocks,
      lstrip_blocks).

A template identical to one of the prompt corpus (testdata/jinja2-prompts)
is left out, as is one whose output is random (|random, |choice), one that
calls a function of its project (a name it does not define, called) and
one that names a filter or test Jinja2 does not define. The
committed file keeps one template per sequence of tags and expressions
(two templates differing only in their text test the same code), and of
promptsource's truncated forms only the first context (and for one in 60
text around truncate(2048)'s length); --all keeps every
distinct text and context. --explore=N renders every template with seven
contexts (floats, None, True, integers beyond 64 bits, nested dicts and
tuples, Markup, control characters, text around truncate's length too) in N environments (as the project
renders it; with trim_blocks and lstrip_blocks; autoescape; the sandbox)
into cases/prompts8x.json, for looking for differences.

The case format has no StrictUndefined: every name a template reads gets a
value, so an Undefined is only met where the template tests for one, and
the output is the same. Each template's variables are read from its
syntax tree (jinja2.nodes): a name read with .attr or ['key'] is a dict of
those keys, one iterated or indexed by a number a list, one indexing a
list a small int, one compared with constants one of those constants, one
whose str methods are called a string. Each template gets three contexts:
strings with quotes, apostrophes, backslashes, newlines and non-ASCII text
(free of "<" and "&", for the jinja engine's test); the same with markup
characters, template syntax and other values of the shape; and edge values
(empty strings and lists, numbers where strings were, the other
constants). Identical templates are kept once. Python's Jinja2 decides
every expectation (oracle.py); each template's repository, commit, path
and licence are in "template_sources".
"""
import hashlib
import json
import os
import re
import subprocess
import sys

import jinja2
import jinja2.meta
from jinja2 import nodes
from markupsafe import Markup

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import oracle  # noqa: E402


class Git:
    """The files of a git directory's HEAD, read with git cat-file."""

    def __init__(self, gitdir):
        self.gitdir = gitdir
        self.commit = self.run("rev-parse", "HEAD").strip()
        self.files = self.run("ls-tree", "-r", "--name-only", "HEAD").splitlines()

    def run(self, *args):
        return subprocess.run(["git", "-C", self.gitdir] + list(args), check=True,
                              capture_output=True, text=True).stdout

    def read_many(self, paths):
        """{path: text} for paths, in one git cat-file process."""
        req = "".join("HEAD:%s\n" % p for p in paths).encode()
        out = subprocess.run(["git", "-C", self.gitdir, "cat-file", "--batch"], input=req,
                             check=True, capture_output=True).stdout
        got, pos = {}, 0
        for p in paths:
            nl = out.index(b"\n", pos)
            head = out[pos:nl].split()
            pos = nl + 1
            if head[-1] == b"missing":
                continue
            size = int(head[2])
            got[p] = out[pos:pos + size].decode("utf-8", "replace")
            pos += size + 1
        return got


class AnyTagLoader(yaml.SafeLoader):
    """A YAML loader that reads every tag (!Template, !function, ...) as the
    plain value beneath it."""


def _any_tag(loader, suffix, node):
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node, deep=True)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    return loader.construct_scalar(node)


AnyTagLoader.add_multi_constructor("!", _any_tag)
AnyTagLoader.add_multi_constructor("tag:", _any_tag)


def strings_in(v, path=()):
    """(key path, str) of every string in a YAML value."""
    if isinstance(v, str):
        yield path, v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield from strings_in(x, path + (str(k),))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from strings_in(x, path + (str(i),))


def is_template(s):
    return "{{" in s or "{%" in s


# --- the shape of each variable a template reads -------------------------

STR_METHODS = {"strip", "lstrip", "rstrip", "split", "rsplit", "lower", "upper", "replace", "startswith",
               "endswith", "capitalize", "title", "splitlines", "format", "join", "find", "count",
               "isdigit", "isupper", "islower", "index", "partition", "rpartition", "casefold",
               "encode", "center", "ljust", "rjust", "zfill", "removeprefix", "removesuffix"}
DICT_METHODS = {"items", "keys", "values", "get"}
LIST_FILTERS = {"join", "first", "last", "sort", "unique", "reverse", "batch", "slice", "map", "select",
                "reject", "selectattr", "rejectattr", "sum", "min", "max", "random", "list", "groupby"}
STR_FILTERS = {"upper", "lower", "trim", "capitalize", "title", "replace", "truncate", "wordwrap",
               "indent", "center", "striptags", "wordcount", "urlize", "escape", "e", "forceescape"}


class Shape:
    def __init__(self):
        self.attrs = {}        # str key -> Shape
        self.elem = None       # Shape of an item (iterated, or indexed by a number or a name)
        self.max_index = -1    # the largest constant int index
        self.consts = []       # constants it is compared with
        self.kind = set()      # "str", "list", "dict", "num", "index"

    def attr(self, k):
        if k not in self.attrs:
            self.attrs[k] = Shape()
        return self.attrs[k]

    def item(self):
        if self.elem is None:
            self.elem = Shape()
        return self.elem


class Walker:
    def __init__(self):
        self.shapes = {}
        self.called = set()

    def root(self, name, scope):
        if name in scope:
            return scope[name]
        if name not in self.shapes:
            self.shapes[name] = Shape()
        return self.shapes[name]

    def shape_of(self, node, scope):
        """The Shape an expression reads (None where it is not a path of a
        variable), visiting its parts."""
        if isinstance(node, nodes.Name):
            if node.ctx == "load":
                return self.root(node.name, scope)
            return None
        if isinstance(node, nodes.Getattr):
            base = self.shape_of(node.node, scope)
            if base is None:
                return None
            if node.attr in STR_METHODS | DICT_METHODS:
                return None
            return base.attr(node.attr)
        if isinstance(node, nodes.Getitem):
            base = self.shape_of(node.node, scope)
            arg = node.arg
            if isinstance(arg, nodes.Slice):
                self.visit(arg, scope)
                if base is not None:
                    base.kind.add("seq")
                return base
            if base is None:
                self.visit(arg, scope)
                return None
            if isinstance(arg, nodes.Const):
                if isinstance(arg.value, str):
                    return base.attr(arg.value)
                if isinstance(arg.value, int):
                    base.kind.add("list")
                    base.max_index = max(base.max_index, arg.value if arg.value >= 0 else -arg.value - 1)
                    return base.item()
                return None
            if isinstance(arg, nodes.Neg) and isinstance(arg.node, nodes.Const) and isinstance(arg.node.value, int):
                base.kind.add("list")
                base.max_index = max(base.max_index, arg.node.value - 1)
                return base.item()
            idx = self.shape_of(arg, scope)
            if idx is not None:
                idx.kind.add("index")
            else:
                self.visit(arg, scope)
            base.kind.add("list")
            base.max_index = max(base.max_index, 2)
            return base.item()
        if isinstance(node, nodes.Call):
            f = node.node
            for a in node.args + [k.value for k in node.kwargs]:
                self.visit(a, scope)
            for a in (node.dyn_args, node.dyn_kwargs):
                if a is not None:
                    self.visit(a, scope)
            if isinstance(f, nodes.Getattr):
                base = self.shape_of(f.node, scope)
                if base is not None:
                    if f.attr in DICT_METHODS:
                        base.kind.add("dict")
                        if f.attr == "get" and node.args and isinstance(node.args[0], nodes.Const) \
                                and isinstance(node.args[0].value, str):
                            return base.attr(node.args[0].value)
                        if f.attr == "values":
                            return None
                    elif f.attr in STR_METHODS:
                        base.kind.add("str")
                return None
            if isinstance(f, nodes.Name) and f.name not in scope:
                self.called.add(f.name)
            self.visit(f, scope)
            return None
        if isinstance(node, nodes.Filter):
            if node.node is not None:
                base = self.shape_of(node.node, scope)
                if base is not None:
                    if node.name in LIST_FILTERS and not base.attrs:
                        base.kind.add("list")
                    elif node.name in STR_FILTERS:
                        base.kind.add("str")
                    elif node.name in ("int", "float", "round", "abs"):
                        base.kind.add("num")
                    elif node.name == "dictsort":
                        base.kind.add("dict")
            for a in node.args + [k.value for k in node.kwargs]:
                self.visit(a, scope)
            if node.name in ("default", "d") and node.node is not None:
                return self.shape_of(node.node, scope)
            return None
        self.visit(node, scope)
        return None

    def visit(self, node, scope):
        if isinstance(node, (nodes.Name, nodes.Getattr, nodes.Getitem, nodes.Call, nodes.Filter)):
            self.shape_of(node, scope)
            return
        if isinstance(node, (nodes.Sub, nodes.Mul, nodes.Div, nodes.FloorDiv, nodes.Pow, nodes.Mod)):
            for side in (node.left, node.right):
                sh = self.shape_of(side, scope)
                if sh is not None and not (isinstance(node, (nodes.Mod, nodes.Mul)) and side is node.left
                                           and not sh.attrs and sh.elem is None):
                    sh.kind.add("num")
            return
        if isinstance(node, nodes.Compare):
            left = self.shape_of(node.expr, scope)
            for op in node.ops:
                right = self.shape_of(op.expr, scope)
                for s, other in ((left, op.expr), (right, node.expr)):
                    if s is not None and isinstance(other, nodes.Const):
                        if op.op in ("in", "notin") and s is left and isinstance(other.value, str):
                            s.consts.append(other.value[:1] or "x")
                        elif op.op not in ("in", "notin"):
                            s.consts.append(other.value)
                    if s is not None and isinstance(other, (nodes.List, nodes.Tuple)) and op.op in ("in", "notin"):
                        s.consts.extend(i.value for i in other.items if isinstance(i, nodes.Const))
            return
        if isinstance(node, nodes.For):
            it = self.shape_of(node.iter, scope)
            inner = dict(scope)
            elem = None
            items_of = None
            if isinstance(node.iter, nodes.Call) and isinstance(node.iter.node, nodes.Getattr) \
                    and node.iter.node.attr == "items":
                items_of = self.shape_of(node.iter.node.node, scope)
            elif isinstance(node.iter, nodes.Filter) and node.iter.name == "dictsort" and node.iter.node is not None:
                items_of = self.shape_of(node.iter.node, scope)
            elif it is not None:
                it.kind.add("list")
                elem = it.item()
            if items_of is not None:
                items_of.kind.add("dict")
            self.bind(node.target, elem, items_of, inner)
            for n in node.body:
                self.visit(n, inner)
            for n in node.else_:
                self.visit(n, scope)
            if node.test is not None:
                self.visit(node.test, inner)
            return
        if isinstance(node, nodes.Assign):
            self.visit(node.node, scope)
            self.bind(node.target, None, None, scope)
            return
        if isinstance(node, nodes.AssignBlock):
            for n in node.body:
                self.visit(n, scope)
            self.bind(node.target, None, None, scope)
            return
        if isinstance(node, nodes.Macro):
            inner = dict(scope)
            for a in node.args:
                inner[a.name] = Shape()
            for n in node.defaults:
                self.visit(n, scope)
            for n in node.body:
                self.visit(n, inner)
            scope[node.name] = Shape()
            return
        for child in node.iter_child_nodes():
            self.visit(child, scope)

    def bind(self, target, elem, items_of, scope):
        if isinstance(target, nodes.Name):
            scope[target.name] = elem if elem is not None else Shape()
        elif isinstance(target, nodes.Tuple):
            if items_of is not None and len(target.items) == 2:
                k, v = target.items
                scope[k.name] = Shape()
                scope[v.name] = items_of.item() if isinstance(v, nodes.Name) else Shape()
                items_of.kind.add("dict")
                return
            if elem is not None:
                elem.kind.add("tuple")
                elem.max_index = max(elem.max_index, len(target.items) - 1)
            for t in target.items:
                if isinstance(t, nodes.Name):
                    scope[t.name] = (elem.item() if elem is not None else Shape())
        elif isinstance(target, nodes.NSRef):
            pass


def shapes_of(env, src):
    """{name: Shape} of the undeclared names src reads."""
    ast = env.parse(src)
    undeclared = jinja2.meta.find_undeclared_variables(ast)
    w = Walker()
    w.visit(ast, {})
    return {n: w.shapes.get(n, Shape()) for n in sorted(undeclared)}, w.called & undeclared


# --- values of those shapes ------------------------------------------------

# Variant 0: free of "<" and "&" (the jinja engine's test reads these).
PLAIN = [
    "It's a \"quoted\" answer",
    "first line\nsecond line\n",
    "Zoë's café — naïve 日本語 🎉",
    "  padded with spaces  ",
    "back\\slash and tab\there",
    "Ünïcödé: ñ, ß, Ω, İstanbul",
    "42",
    "O'Brien said: \"don't\"",
]
# Variant 1: markup characters, template syntax, other text.
HOSTILE = [
    "<b>bold</b> & 'amp'",
    "{{ not_a_var }} {% raw %}",
    "Line\r\nCRLF and \u00a0no-break",
    "ends with a newline\n",
    "a|||b",
    "zero\u200bwidth \U0001d400 math",
    "#### 17",
    "\"double\" 'single' `back`",
]


class Gen:
    def __init__(self, variant, seed):
        self.variant = variant
        self.n = seed

    def text(self):
        self.n += 1
        if self.variant == 6:
            # around truncate(2048)'s length and leeway (5), in words, one word, spaces
            w = "wörd " * 409 + "ab"          # 2047
            return [w + "cdefgh", w + "c", "x" * 2060, w + "  \n  tail", " " * 2100,
                    "日本語" * 700, w[:2040] + "\U0001f389" * 20][self.n % 7]
        if self.variant == 3:
            return [1.5, 1e20, -0.0, 3.0, None, True, 10**20, 2.5e-7, float("inf"), -7][self.n % 10]
        if self.variant == 4:
            return [{"a'b": [1, "x\"y"]}, ("t", 1), [None, False, 0.1], {1: "one", (2, 3): {}}, "\u2028 sep"][self.n % 5]
        if self.variant == 5:
            return [Markup("<i>safe</i>"), "<&>\"'", "\x00\x1f\x7f", "\ud7ff\ue000", "é"][self.n % 5]
        if self.variant == 2:
            return ["", "0", "x", " ", "Yes"][self.n % 5]
        pal = PLAIN if self.variant == 0 else HOSTILE
        return pal[self.n % len(pal)]

    def value(self, s, depth=0):
        if s is None:
            return self.text()
        v = self.variant
        if s.consts:
            consts = [c for c in s.consts if isinstance(c, (str, int, float, bool)) or c is None]
            if consts:
                return consts[(v + self.n) % len(consts)] if v != 1 or len(consts) > 1 else consts[0]
        if "index" in s.kind:
            return [0, 1, 2][v % 3] if v != 2 else 1
        if depth > 6:
            return self.text()
        if s.attrs:
            # keys in sorted order, the order a Go map gives the jinja engine
            d = {k: self.value(s.attrs[k], depth + 1) for k in sorted(s.attrs)}
            if s.elem is not None and "dict" in s.kind:
                d.setdefault("extra", self.value(s.elem, depth + 1))
            return d
        if "dict" in s.kind:
            n = [2, 3, 0, 1, 2, 1, 2][v]
            keys = sorted("key%d %s" % (i, str(self.text()).strip()[:6]) for i in range(n))
            return {k: self.value(s.elem, depth + 1) for k in keys}
        if "list" in s.kind or "tuple" in s.kind or s.elem is not None or s.max_index >= 0:
            n = max(s.max_index + 1, [3, 2, 0 if s.max_index < 0 else s.max_index + 1, 1, 4, 2, 2][v])
            if "tuple" in s.kind:
                n = max(s.max_index + 1, 2)
            return [self.value(s.elem, depth + 1) for _ in range(n)]
        if "num" in s.kind:
            return [3, 7, 0, 2.5, -4, 10**19, 2049][v]
        if v == 2 and "str" not in s.kind and self.n % 3 == 0:
            self.n += 1
            return [0, 12, -1][self.n % 3]
        return self.text()


VARIANTS = 3


def contexts_for(env, src, variants=None):
    shapes, _ = shapes_of(env, src)
    seed = int(hashlib.sha1(src.encode()).hexdigest()[:6], 16)
    return [{name: Gen(v, seed).value(s) for name, s in shapes.items()}
            for v in (range(VARIANTS) if variants is None else variants)]


# --- the sources ------------------------------------------------------------

# Templates whose output is random (promptsource's choice filter, Jinja2's
# random) or that call a project's own filters or globals.
RANDOM = re.compile(r"\|\s*(choice|random)\b|\brandom\s*\(")
PS_OWN = re.compile(r"\|\s*(most_frequent|highlight)\b|\bzip\s*\(")


def promptsource(git):
    paths = [p for p in git.files if p.startswith("promptsource/templates/") and p.endswith("templates.yaml")]
    for path, text in sorted(git.read_many(paths).items()):
        doc = yaml.load(text, Loader=AnyTagLoader)
        short = path[len("promptsource/templates/"):-len("/templates.yaml")]
        for tid, t in sorted((doc or {}).get("templates", {}).items()):
            for field in ("jinja", "answer_choices"):
                src = t.get(field)
                if not isinstance(src, str) or not src:
                    continue
                key = "%s/%s.%s" % (short, tid[:8], field)
                skip = PS_OWN.search(src) and "promptsource's own filter or zip"
                yield key, path + "#" + tid + "." + field, src, {}, skip
                if field == "jinja" and "}}" in src:
                    yield key + "+truncate", path + "#" + tid + "." + field + " (Template.apply's truncate)", \
                        src.replace("}}", " | string | truncate(2048) }}"), {}, skip


def yaml_strings(git, prefix, env, own=None):
    paths = [p for p in git.files if p.startswith(prefix) and p.endswith((".yaml", ".yml"))]
    for path, text in sorted(git.read_many(paths).items()):
        try:
            doc = yaml.load(text, Loader=AnyTagLoader)
        except yaml.YAMLError:
            continue
        for kp, s in strings_in(doc):
            if is_template(s):
                where = "%s#%s" % (path, ".".join(kp))
                yield where[len(prefix):], where, s, env, own and own(s)


def python_strings(git, prefixes, env, want=lambda path, text: True, own=None):
    """The str constants holding "{{" or "{%" of the .py files under
    prefixes (not docstrings, not parts of f-strings), by ast."""
    paths = [p for p in git.files if p.startswith(prefixes) and p.endswith(".py")]
    for path, text in sorted(git.read_many(paths).items()):
        if not want(path, text):
            continue
        for line, value in py_constants(text):
            where = "%s:%d" % (path, line)
            yield where, where, value, env, own and own(value)


def py_constants(text):
    """The str constants holding "{{" or "{%" of Python source text (not
    docstrings, not parts of f-strings), with their lines."""
    import ast
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            skip.update(id(v) for v in ast.walk(node))
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body \
                and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
            skip.add(id(node.body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip \
                and is_template(node.value):
            yield node.lineno, node.value


def outlines(git):
    paths = [p for p in git.files if p.startswith(("examples/prompts/", "docs/examples/prompt_templates/"))
             and p.endswith(".txt")]
    env = {"trim_blocks": True, "lstrip_blocks": True, "keep_trailing_newline": True}
    for path, text in sorted(git.read_many(paths).items()):
        yield path, path, text, env, None


def haystack_own(s):
    if re.search(r"{%-?\s*(message|now)\b", s):
        return "Haystack's own tag ({% message %}, {% now %})"
    return None


def semantic_kernel(git):
    yield from python_strings(git, ("python/samples/", "python/tests/"), {"sandbox": True},
                              want=lambda p, t: "jinja2" in t)
    yield from yaml_strings(git, "python/", {"sandbox": True})


REFERENCE = re.compile(r"""{%-?\s*(?:include|import|extends|from)\s+["']([^"']+)["']""")


def template_files(git, prefixes, exts, env, skip_dirs=(), front_matter=False):
    """Whole template files (a .prompty's body after its YAML front matter),
    each with the files it includes, imports or extends (found beside it
    or under the prefix it came from) as its loader."""
    paths = [p for p in git.files if p.startswith(prefixes) and p.endswith(exts)
             and not any(d in p for d in skip_dirs)]
    texts = git.read_many(paths)
    for path, text in sorted(texts.items()):
        if front_matter:
            m = re.match(r"---\r?\n.*?\r?\n---\r?\n", text, re.S)
            if not m:
                continue
            text = text[m.end():]
        if not is_template(text):
            continue
        loader, todo = {}, REFERENCE.findall(text)
        while todo:
            name = todo.pop()
            if name in loader:
                continue
            found = [p for p in texts if p == os.path.join(os.path.dirname(path), name)] or \
                [p for p in texts if p.endswith("/" + name)]
            if found:
                loader[name] = texts[found[0]]
                todo.extend(REFERENCE.findall(loader[name]))
        yield path, path, text, env, None, loader or None


def promptflow(git):
    # the LLM tool's render_jinja_template: SandboxedEnvironment(trim_blocks=True, keep_trailing_newline=True)
    yield from template_files(git, ("examples/", "src/"), (".jinja2", ".jinja", ".j2"),
                              {"sandbox": True, "trim_blocks": True, "keep_trailing_newline": True},
                              skip_dirs=("/templates/", "/ghactions"))
    # prompty: Template(body, trim_blocks=True, keep_trailing_newline=True)
    yield from template_files(git, ("examples/", "src/"), (".prompty",),
                              {"trim_blocks": True, "keep_trailing_newline": True}, front_matter=True)


def prompty(git):
    env = {"sandbox": True, "keep_trailing_newline": True}   # prompty/renderers/jinja2.py
    path = "runtime/python/prompty/prompty/jinja_subset/conformance/corpus.json"
    doc = json.loads(git.read_many([path])[path])
    for c in doc["cases"]:
        yield "conformance/" + c["name"], path + "#" + c["name"], c["template"], env, None, None, [c.get("inputs", {})]
    yield from template_files(git, ("",), (".prompty",), env, front_matter=True)


SOURCES = [
    ("bigscience-workshop/promptsource", "ps", "Apache-2.0", promptsource),
    ("EleutherAI/lm-evaluation-harness", "lm-eval", "MIT",
     lambda g: yaml_strings(g, "lm_eval/tasks/", {"keep_trailing_newline": True},
                            own=lambda s: "regex_replace" in s and "lm-eval's regex_replace filter")),
    ("SWE-agent/SWE-agent", "swe-agent", "MIT", lambda g: yaml_strings(g, "config/", {})),
    ("dottxt-ai/outlines", "outlines", "Apache-2.0", outlines),
    ("deepset-ai/haystack", "haystack", "Apache-2.0",
     lambda g: python_strings(g, ("haystack/", "test/", "e2e/"), {"sandbox": True}, own=haystack_own)),
    ("microsoft/semantic-kernel", "semantic-kernel", "MIT", semantic_kernel),
    ("microsoft/promptflow", "promptflow", "MIT", promptflow),
    ("microsoft/prompty", "prompty", "MIT", prompty),
    ("All-Hands-AI/OpenHands", "openhands", "MIT",
     lambda g: template_files(g, ("openhands/", "evaluation/", "microagents/"), (".j2", ".jinja", ".jinja2"), {})),
    ("SWE-agent/mini-swe-agent", "mini-swe-agent", "MIT", lambda g: yaml_strings(g, "src/minisweagent/config/", {})),
    ("huggingface/smolagents", "smolagents", "Apache-2.0", lambda g: yaml_strings(g, "src/smolagents/prompts/", {})),
    ("567-labs/instructor", "instructor", "MIT",
     lambda g: python_strings(g, ("tests/", "examples/", "instructor/"), {"sandbox": True})),
    ("PrefectHQ/marvin", "marvin", "Apache-2.0",
     lambda g: template_files(g, ("src/marvin/templates/",), (".jinja",), {"trim_blocks": True, "lstrip_blocks": True})),
    ("NVIDIA/NeMo-Guardrails", "nemo-guardrails", "Apache-2.0",
     lambda g: yaml_strings(g, "nemoguardrails/llm/prompts/", {"sandbox": True})),
    ("deepset-ai/haystack-core-integrations", "haystack-integrations", "Apache-2.0",
     lambda g: python_strings(g, ("integrations/",), {"sandbox": True},
                              want=lambda p, t: "PromptBuilder" in t or "jinja" in t.lower(), own=haystack_own)),
    ("dynamiq-ai/dynamiq", "dynamiq", "Apache-2.0",
     lambda g: python_strings(g, ("dynamiq/", "examples/", "tests/"), {})),
    ("griptape-ai/griptape", "griptape", "Apache-2.0",
     lambda g: template_files(g, ("griptape/templates/",), (".j2",), {"trim_blocks": True, "lstrip_blocks": True})),
]

# The templates of the project's prompt corpus (testdata/jinja2-prompts),
# tested already: left out here.
CORPUS = os.path.join(HERE, "..", "..", "..", "..", "..", "testdata", "jinja2-prompts")


def corpus_texts():
    texts = set()
    for root, _, files in os.walk(CORPUS):
        for f in files:
            if f.endswith((".jinja", ".jinja2", ".j2")):
                with open(os.path.join(root, f), encoding="utf-8") as fh:
                    texts.add(fh.read())
    return texts

# Outside the committed file (a few MB at most): a template whose tags and
# expressions, in order, are those of one kept earlier (it differs only in
# its text) is rendered with --all only.
CODE = re.compile(r"{{.*?}}|{%.*?%}|{#.*?#}", re.S)


def own_filters(env, src):
    """The filters and tests src names that Jinja2 does not define."""
    try:
        ast = env.parse(src)
    except jinja2.TemplateSyntaxError:
        return set()
    names = {f.name for f in ast.find_all(nodes.Filter) if f.name not in env.filters}
    names |= {t.name for t in ast.find_all(nodes.Test) if t.name not in env.tests}
    return names


def code_of(src):
    return tuple(CODE.findall(src))


# Differences the templates above showed, reduced by hand (ids
# prompts8/found/NAME); their messages are compared word for word.
FOUND = [
    # Jinja2's lexer names the char it cannot read with repr() (a Haystack
    # regex, r"\{%\s*message\s", read as a template): a backslash is '\\',
    # a control or format char an escape; ' is "'" and " is '"'.
    ("unexpected-char-backslash", "\\{%\\s*message\\s", {}),
    ("unexpected-char-backslash-in-print", "{{ a \\ }}", {}),
    ("unexpected-char-nul", "{{ a \x00 }}", {}),
    ("unexpected-char-del", "{% if \x7f %}", {}),
    ("unexpected-char-soft-hyphen", "{{ a \xad }}", {}),
    ("unexpected-char-zero-width-space", "{{ a \u200b }}", {}),
    ("unexpected-char-line-separator-is-space", "{{ a \u2028 }}", {"a": 1}),
    ("unexpected-char-tag-char", "{{ a \U000e0001 }}", {}),
    ("unexpected-char-escape", "{{ a \x1b }}", {}),
    ("unexpected-char-question", "{{ a ? }}", {}),
    ("unexpected-char-unclosed-double-quote", '{{ "abc }}', {}),
    ("unexpected-char-unclosed-single-quote", "{{ 'abc }}", {}),
    ("unexpected-char-backtick", "{{ `x` }}", {}),
    # Jinja2's names are Python's identifiers: Other_ID_Start (℘, ℮) may
    # start one and Other_ID_Continue (the middle dots, Ethiopic digits)
    # continue one; a run of \w and those chars that is no identifier (a
    # digit that is not a decimal, a mark or a middle dot first) is
    # "Invalid character in identifier" (pallets' test_name found the last).
    ("name-other-id-start", "{{ \u2118 }}|{{ a\u212e }}|{{ \u1885x }}", {"\u2118": 1, "a\u212e": 2, "\u1885x": 3}),
    ("name-other-id-continue", "{{ a\u00b7b }}|{{ a\u0387 }}|{{ x\u1369\u1371 }}|{{ y\u19da }}",
     {"a\u00b7b": 1, "a\u0387": 2, "x\u1369\u1371": 3, "y\u19da": 4}),
    ("name-other-id-set", "{% set k\u00b7v = 5 %}{% for \u2118 in [1, 2] %}{{ \u2118 * k\u00b7v }}{% endfor %}", {}),
    ("name-other-id-attr", "{{ d.a\u00b7b }}|{{ d.\u212e }}", {"d": {"a\u00b7b": "x", "\u212e": "y"}}),
    ("name-other-id-start-undefined", "[{{ \u2118 }}]", {}),
    ("name-invalid-superscript", "{{ a\u00b2 }}", {}),
    ("name-invalid-superscript-alone", "{{ \u00b2 }}", {}),
    ("name-invalid-fraction", "{% if \u00bd %}{% endif %}", {}),
    ("name-invalid-circled-digit", "{{ \u2460 }}", {}),
    ("name-invalid-combining-first", "{{ \u0301 }}", {}),
    ("name-invalid-middle-dot-first", "{{ \u00b7a }}", {}),
    ("name-invalid-attr-middle-dot", "{{ x.\u00b7 }}", {}),
    ("name-invalid-ethiopic-digit-first", "{{ \u1369 }}", {}),
    ("name-unexpected-309b", "{{ a\u309b }}", {}),
    # Python 3.11's identifiers are Unicode 14's: a letter Unicode 15
    # added is no name char, and the letters NFKC changes are not XID.
    ("name-unicode-15-letter", "{{ \U00031350 }}", {}),
    ("name-unicode-15-letter-after", "{{ a\U00031350 }}", {}),
    ("name-unicode-15-kawi", "{{ \U00011f04 }}", {}),
    ("name-nfkc-ypogegrammeni", "{{ \u037a }}", {}),
    ("name-nfkc-ypogegrammeni-after", "{{ a\u037a }}", {}),
    ("name-vertical-tilde", "{{ \u2e2f }}", {}),
    ("name-arabic-presentation", "{{ a\ufe70 }}", {}),
    ("name-thai-am-continues", "{{ a\u0e33 }}|{{ k\uff9e }}", {"a\u0e33": 1, "k\uff9e": 2}),
    ("name-thai-am-first", "{{ \u0e33 }}", {}),
    ("name-halfwidth-voiced-first", "{{ \uff9e }}", {}),
    ("name-arabic-presentation-odd", "{{ a\ufe71 }}", {"a\ufe71": 3}),
    # Jinja2's number patterns read re's \d, any decimal digit: an integer
    # is [1-9](_?\d)* (int() reads its value), a float holding a digit
    # that is not ASCII is literal_eval's SyntaxError, and a digit that is
    # not ASCII cannot start an integer (a name char then).
    ("number-arabic-indic-after-first", "{{ 1\u0663 }}|{{ 1_\u0663 }}|{{ 2\u0664\u0665 + 1 }}", {}),
    ("number-fullwidth-after-first", "{{ 1\uff12 }}|{{ 9\U0001d7ce }}", {}),
    ("number-float-arabic-indic", "{{ 1\u0663.5 }}", {}),
    ("number-float-arabic-indic-fraction", "{{ 1.\u0663 }}", {}),
    ("number-float-arabic-indic-first", "{{ \u0663e2 }}", {}),
    ("number-arabic-indic-first", "{{ \u0663 }}", {}),
    ("number-after-dot", "{{ x.1\u0663 }}|{{ x.0 }}", {"x": [5]}),
    ("number-integer-then-name", "{{ 1\u0663e }}", {}),
    ("number-hex-arabic-indic", "{{ 0x1\u0663 }}|{{ 0x\u0663 }}|{{ 0X\u0661_f }}|{{ 10\u0660_0 }}", {}),
    ("number-octal-arabic-indic", "{{ 0o1\u0663 }}", {}),
    ("number-binary-arabic-indic", "{{ 0b1\u0661 }}", {}),
    ("number-zero-arabic-indic", "{{ 0\u0660 }}", {}),
    ("number-in-set-and-range", "{% set n = 1\u0660 %}{{ n }}|{{ range(1\u0662)|length }}", {}),
]


def main(argv):
    global VARIANTS
    every = "--all" in argv
    explore = [a for a in argv if a.startswith("--explore=")]
    argv = [a for a in argv if a != "--all" and not a.startswith("--explore=")]
    out = "prompts8.json"
    envs = [None]
    if explore:
        # not committed: more values and environments, to look for differences
        VARIANTS = 7
        out = "prompts8x.json"
        envs = [None, {"trim_blocks": True, "lstrip_blocks": True}, {"autoescape": True}, {"sandbox": True}][:int(explore[0].split("=")[1])]
    if len(argv) != len(SOURCES):
        sys.exit(__doc__)
    templates, sources, cases, skipped = {}, {}, [], {}
    seen, seen_code = set(), set()
    truncated = 0
    corpus = corpus_texts()
    counts = {}
    for (repo, short, licence, read), gitdir in zip(SOURCES, argv):
        git = Git(gitdir)
        found = distinct = kept = 0
        for key, path, src, envspec, skip, *extra in read(git):
            loader = extra[0] if extra else None
            own_ctxs = extra[1] if len(extra) > 1 else []
            found += 1
            ref = "%s/%s" % (short, key)
            n = 2
            while ref in templates or ref in skipped:
                ref = "%s/%s~%d" % (short, key, n)
                n += 1
            k = (src, repr(sorted(envspec.items())), repr(loader))
            if k in seen:
                continue
            seen.add(k)
            if src in corpus:
                skipped[ref] = "in testdata/jinja2-prompts"
                continue
            distinct += 1
            if not skip and RANDOM.search(src):
                skip = "random output"
            env = oracle.environment(envspec)
            try:
                shapes, called = shapes_of(env, src)
            except jinja2.TemplateSyntaxError:
                called = set()
            if not skip and called:
                skip = "calls the project's function %s" % ", ".join(sorted(called))
            if not skip:
                unknown = own_filters(env, src)
                if unknown:
                    skip = "uses the project's filter or test %s" % ", ".join(sorted(unknown))
            if skip:
                skipped[ref] = skip
                continue
            ck = (code_of(src), repr(sorted(envspec.items())), repr(loader))
            if ck in seen_code and not every and not own_ctxs:
                continue
            seen_code.add(ck)
            variants = None
            if key.endswith("+truncate") and not every:
                # the template's code with one filter more: one context, and
                # for one in 60 text around truncate(2048)'s length too
                truncated += 1
                variants = [0, 6] if truncated % 60 == 1 else [0]
            try:
                ctxs = own_ctxs + contexts_for(env, src, variants)
            except jinja2.TemplateSyntaxError:
                ctxs = own_ctxs or [{}]
            kept += 1
            templates[ref] = src
            sources[ref] = {"repo": repo, "commit": git.commit, "path": path, "licence": licence}
            for j, more in enumerate(envs):
                for i, ctx in enumerate(ctxs):
                    case = {"id": "prompts8/%s/%d" % (ref, i) + ("" if more is None else "/env%d" % j),
                            "source": {"test": "prompts8"}, "template_ref": ref,
                            "context": oracle.encode(ctx), "env": dict(envspec, **(more or {}))}
                    if loader:
                        case["loader"] = loader
                    cases.append(case)
        counts[repo] = (found, distinct, kept)
    for name, src, ctx in FOUND:
        cases.append({"id": "prompts8/found/" + name, "source": {"test": "prompts8", "note": "reduced by hand"},
                      "template": src, "context": ctx, "env": {}, "exact_message": True})
    for repo, (found, distinct, kept) in counts.items():
        print("%s: %d templates, %d distinct, %d kept" % (repo, found, distinct, kept))
    print("skipped: %d" % len(skipped))
    doc = {"jinja2": "", "source": {"repo": "per template (template_sources)", "path": "convert/prompts8.py",
                                   "licence": "per template (template_sources)"},
           "counts": {r: {"templates": f, "distinct": d, "kept": k} for r, (f, d, k) in counts.items()},
           "template_sources": sources, "skipped": skipped, "templates": templates, "cases": cases}
    oracle.write_cases(out, doc)


if __name__ == "__main__":
    main(sys.argv[1:])
