#!/usr/bin/env python3
"""The oracle of internal/jinja2: Python's Jinja2 renders every case.

    python3 internal/jinja2/testdata/oracle/oracle.py            # every cases/*.json
    python3 internal/jinja2/testdata/oracle/oracle.py FILE...    # the files named
    python3 internal/jinja2/testdata/oracle/oracle.py --check    # fail if an expectation would change
    python3 internal/jinja2/testdata/oracle/oracle.py --serve    # JSON lines on stdin (FuzzPython)

It reads each case file, renders every case with Python's Jinja2 and writes
the file back with each case's "expect" replaced: {"output": str} or
{"error": "<exception class>", "message": str(e)} (TemplateSyntaxError also
gives "line"). The Jinja2 version used is written in the file; the Go test
refuses files made with another. Nothing in the Go test decides what a
template should print: this script does.

Case file: {"jinja2": "3.1.6", "source": {...}, "templates": {ref: src},
"cases": [case, ...]}. A case:

  id        unique across all files ("<source>/<name>")
  source    where it came from: {"repo", "path", "test", "licence"}
  template  the template source, or template_ref naming an entry of the
            file's "templates" (a large template shared by many cases)
  context_ref  optional: an entry of the file's "contexts" (a conversation
            shared by many cases), which "context" then adds to
  context   the render's variables, JSON with tagged values where JSON has
            none: {"__tuple__": [...]}, {"__dict__": [[k, v], ...]} (keys
            that are not strings), {"__markup__": s}, {"__float__": "inf" |
            "-inf" | "nan"}, {"__func__": name} (a function of FUNCS below)
  env       {"trim_blocks", "lstrip_blocks", "keep_trailing_newline",
            "autoescape", "sandbox" (ImmutableSandboxedEnvironment),
            "extensions": ["loopcontrols", "do"], "profile": "hf", "globals":
            {name: value} (Environment.globals, values as in context),
            "finalize": a name in FINALIZERS below}; all optional, Jinja2's
            defaults otherwise
  loader    {name: source} for include, import and extends (DictLoader)
  name      optional: the template's name (it is then loaded through the
            loader, as env.get_template(name) does)
  exact_message  optional: true where which error Jinja2 raises is the
            point; the Go test then compares the message word for word

The "hf" profile is transformers' chat-template environment, as
chat/format/testdata/chatdata.py sets it up for every chat oracle: ImmutableSandboxedEnvironment(
trim_blocks=True, lstrip_blocks=True, extensions=[AssistantTracker
({% generation %}), loopcontrols]); tojson = json.dumps(x, ensure_ascii=False,
indent, separators, sort_keys); raise_exception raises TemplateError;
strftime_now formats the pinned time 2024-07-26 12:34:56.
"""

import datetime
import glob
import json
import math
import re
import os
import subprocess
import sys

import jinja2
import jinja2.ext
from jinja2.exceptions import TemplateSyntaxError
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.join(HERE, "..", "..", "..", "..", "chat", "format", "testdata"))
import chatdata  # noqa: E402 (chat/format/testdata/chatdata.py: the hf profile's environment)
VERSION = jinja2.__version__
NOW = datetime.datetime(2024, 7, 26, 12, 34, 56)

# Functions a context may hold ({"__func__": name}); the Go test has the same.
FUNCS = {
    "add": lambda x, y: x + y,                    # huggingface.js (x, y) => x + y
    "count_args": lambda *a: len(a),              # (...args) => args.length
    "join_args": lambda *a: "".join(a),           # (...args) => args.join("")
    "join_args_underscore": lambda *a: "_".join(a),  # (...args) => args.join("_")
    "noop": lambda *a: None,                      # () => {}
}


EXTENSIONS = {"loopcontrols": jinja2.ext.loopcontrols, "do": jinja2.ext.do}


def decode(v):
    """A context value from its JSON form."""
    if isinstance(v, list):
        return [decode(x) for x in v]
    if isinstance(v, dict):
        if len(v) == 1:
            (k, x), = v.items()
            if k == "__tuple__":
                return tuple(decode(i) for i in x)
            if k == "__dict__":
                return {decode(a): decode(b) for a, b in x}
            if k == "__markup__":
                return Markup(x)
            if k == "__float__":
                return float(x)
            if k == "__func__":
                return FUNCS[x]
        return {k: decode(x) for k, x in v.items()}
    return v


def encode(v):
    """The JSON form of a context value, or raise TypeError."""
    if v is None or isinstance(v, (bool, str)) and not isinstance(v, Markup):
        return v
    if isinstance(v, Markup):
        return {"__markup__": str(v)}
    if isinstance(v, int):
        return int(v)
    if isinstance(v, float):
        if math.isinf(v) or math.isnan(v):
            return {"__float__": repr(v)}
        return v
    if isinstance(v, list):
        return [encode(x) for x in v]
    if isinstance(v, tuple):
        return {"__tuple__": [encode(x) for x in v]}
    if isinstance(v, dict) and type(v) is dict:
        if all(isinstance(k, str) for k in v):
            if len(v) == 1 and next(iter(v)).startswith("__"):
                raise TypeError("dict with a tag-like key")
            return {k: encode(x) for k, x in v.items()}
        return {"__dict__": [[encode(k), encode(x)] for k, x in v.items()]}
    for name, f in FUNCS.items():
        if v is f:
            return {"__func__": name}
    raise TypeError(type(v).__name__)


def hf_environment(loader=None):
    return chatdata.environment(lambda fmt: NOW.strftime(fmt), [chatdata.AssistantTracker], loader)


KNOWN_ENV = {"trim_blocks", "lstrip_blocks", "keep_trailing_newline", "autoescape", "sandbox", "extensions", "profile", "globals", "finalize"}

# Environment.finalize functions a case may name; oracle_test.go's
# oracleEnvironment has the same. "twice" writes a printed str (Markup
# or not) twice, so a print that skips finalize shows.
# "none_empty" prints None as nothing, as the jinja engine's finalize does.
FINALIZERS = {"twice": lambda v: v * 2 if isinstance(v, str) else v,
              "none_empty": lambda v: "" if v is None else v}


def environment(spec, loader=None):
    spec = spec or {}
    unknown = set(spec) - KNOWN_ENV
    if unknown:
        raise ValueError("unknown env options %s" % sorted(unknown))
    dl = jinja2.DictLoader(loader) if loader else None
    if spec.get("profile") == "hf":
        env = hf_environment(dl)
    elif spec.get("profile"):
        raise ValueError("unknown profile %r" % spec["profile"])
    else:
        cls = ImmutableSandboxedEnvironment if spec.get("sandbox") else jinja2.Environment
        env = cls(trim_blocks=spec.get("trim_blocks", False), lstrip_blocks=spec.get("lstrip_blocks", False),
                  keep_trailing_newline=spec.get("keep_trailing_newline", False),
                  autoescape=spec.get("autoescape", False), loader=dl,
                  extensions=[EXTENSIONS[e] for e in spec.get("extensions", [])])
    env.globals.update(decode(spec.get("globals") or {}))
    if spec.get("finalize"):
        env.finalize = FINALIZERS[spec["finalize"]]
    return env


def template_source(case, templates):
    if "template_ref" in case:
        return templates[case["template_ref"]]
    return case["template"]


SERVE_SECONDS = 8        # FuzzPython gives up on an answer after 10
SERVE_MEMORY = 2 << 30   # bytes of address space for --serve

ADDRESS = re.compile(r"0x[0-9a-f]{6,}\b", re.I)  # upper-cased (|upper), after %20 (|urlencode)
RECURSION_ID = re.compile(r"(Recursion on \w+ with id=)[0-9]+")  # pprint's id() of a list in itself


def render(case, templates=None, contexts=None):
    """What Jinja2 does with case: {"output": ...} or {"error": ..., "message": ...}.
    A memory address Python prints (<generator object … at 0x7f…>) is
    written 0xADDR, and the id pprint prints of a list in itself
    (<Recursion on list with id=…>) ADDR, with "normalized": "address";
    the Go test writes its own addresses the same way."""
    got = render_raw(case, templates, contexts)
    text = json.dumps(got, ensure_ascii=False)
    if ADDRESS.search(text) or RECURSION_ID.search(text):
        got = json.loads(RECURSION_ID.sub(r"\g<1>ADDR", ADDRESS.sub("0xADDR", text)))
        got["normalized"] = "address"
    return got


def render_raw(case, templates=None, contexts=None):
    try:
        env = environment(case.get("env"), case.get("loader"))
        if case.get("name"):
            tmpl = env.get_template(case["name"])
        else:
            tmpl = env.from_string(template_source(case, templates or {}))
        ctx = {}
        if "context_ref" in case:
            ctx.update((contexts or {})[case["context_ref"]])
        ctx.update(case.get("context") or {})
        return {"output": tmpl.render(decode(ctx))}
    except TemplateSyntaxError as e:
        return {"error": type(e).__name__, "message": e.message or "", "line": e.lineno}
    except RecursionError:
        return {"error": "RecursionError", "message": "maximum recursion depth exceeded"}
    except Exception as e:  # every Python exception is an expected outcome
        return {"error": type(e).__name__, "message": str(e)}


def dump(doc):
    """The case file's text: one case a line, so diffs stay readable."""
    head = {k: v for k, v in doc.items() if k not in ("cases", "templates", "contexts")}
    out = ["{"]
    for k, v in head.items():
        out.append("%s: %s," % (json.dumps(k), json.dumps(v, ensure_ascii=False)))
    for section in ("contexts", "templates"):
        if section in doc:
            out.append('"%s": {' % section)
            items = list(doc[section].items())
            for i, (k, v) in enumerate(items):
                out.append("%s: %s%s" % (json.dumps(k), json.dumps(v, ensure_ascii=False), "," if i < len(items) - 1 else ""))
            out.append("},")
    out.append('"cases": [')
    for i, c in enumerate(doc["cases"]):
        out.append(json.dumps(c, ensure_ascii=False) + ("," if i < len(doc["cases"]) - 1 else ""))
    out.append("]}")
    return "\n".join(out) + "\n"


def write_sweep(here, script, group, rows, extra=None):
    """Renders one group of a grid sweep (sweep14.py, sweep17.py) with Jinja2
    and writes cases/SCRIPT-GROUP.json under here; prints the path and count.
    rows yields (id, template, context, env); extra holds keys every case gets.
    A case whose expectation holds a lone surrogate (no case file can) or that
    runs Python out of memory is left out."""
    cases = []
    for cid, tpl, ctx, env in rows:
        c = {"id": "%s-%s/%s" % (script, group, cid), "source": {"test": script}, "template": tpl, "context": ctx, "env": env}
        c.update(extra or {})
        try:
            c["expect"] = render(c, {}, {})
            json.dumps(c["expect"], ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            continue
        except MemoryError:
            print("%s: Python ran out of memory, left out" % c["id"])
            continue
        cases.append(c)
    path = os.path.join(here, "cases", "%s-%s.json" % (script, group))
    with open(path, "w", encoding="utf-8") as f:
        f.write(dump({"jinja2": VERSION, "source": {"repo": "rolemark", "path": "internal/jinja2/testdata/%s.py" % script, "licence": "this project's"},
                      "cases": cases}))
    print("%s: %d cases" % (path, len(cases)))


def sweep_main(script, groups, extra=None):
    """A grid sweep's command line: DIR [GROUP...]; writes each group (all by
    default) under DIR/testdata/oracle/cases with write_sweep."""
    here = os.path.join(sys.argv[1], "testdata", "oracle")
    for group in sys.argv[2:] or list(groups):
        write_sweep(here, script, group, groups[group](), extra)


def write_cases(name, doc):
    """The converters' last step: writes doc as cases/NAME and renders its
    expectations into it."""
    path = os.path.join(HERE, "cases", name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(dump(doc))
    # rendered by oracle.py's own process, under its fixed hash seed
    subprocess.run([sys.executable, os.path.abspath(__file__), path], check=True)


def run_file(path, check=False):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    before = dump(doc)
    doc["jinja2"] = VERSION
    templates = doc.get("templates", {})
    contexts = doc.get("contexts", {})
    seen = set()
    for c in doc["cases"]:
        if c["id"] in seen:
            sys.exit("%s: duplicate id %s" % (path, c["id"]))
        seen.add(c["id"])
        c["expect"] = render(c, templates, contexts)
    after = dump(doc)
    n_err = sum("error" in c["expect"] for c in doc["cases"])
    print("%s: %d cases, %d outputs, %d errors" % (os.path.relpath(path, HERE), len(doc["cases"]), len(doc["cases"]) - n_err, n_err))
    if check:
        return before == after
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(after)
    return True


class ServeTimeout(BaseException):
    """A request took too long (not an Exception, so render's except
    clauses let it through)."""


def on_alarm(signum, frame):
    raise ServeTimeout()


def serve():
    """One JSON request a line ({"template", "context", "env", "loader"}),
    one JSON answer a line (the expect of render).

    A request gets SERVE_SECONDS and the process SERVE_MEMORY of address
    space: a template that makes Python build a huge value (slice(2**53)
    appends lists one by one) answers OracleError or MemoryError instead
    of running on after the fuzzer that asked has given up on it."""
    import resource
    import signal
    resource.setrlimit(resource.RLIMIT_AS, (SERVE_MEMORY, SERVE_MEMORY))
    signal.signal(signal.SIGALRM, on_alarm)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            signal.alarm(SERVE_SECONDS)
            req = json.loads(line)
            ans = render(req)
            # Rendered again with other objects alive, so that new objects
            # get other addresses: an answer that changes depends on the
            # digits of an address (a generator's repr sorted, counted or
            # cut), which no other implementation can reproduce.
            hold = [bytes(n) for n in range(1, 512) for _ in range(4)]
            again = render(req)
            del hold
            signal.alarm(0)
            if again != ans:
                ans = {"error": "OracleError", "message": "the output depends on memory addresses"}
        except ServeTimeout:
            ans = {"error": "OracleError", "message": "took over %d seconds" % SERVE_SECONDS}
        except Exception as e:  # a malformed request: say so, keep serving
            signal.alarm(0)
            ans = {"error": "OracleError", "message": "%s: %s" % (type(e).__name__, e)}
        try:
            out = json.dumps(ans, ensure_ascii=False)
            out.encode("utf-8")
        except UnicodeEncodeError:
            out = json.dumps({"error": "OracleError", "message": "output is not valid UTF-8 (lone surrogate)"})
        sys.stdout.write(out + "\n")
        sys.stdout.flush()


def main(argv):
    # Python's default recursion limit (1000), as a plain Jinja2 process has
    # it: a template nested deeper raises RecursionError there, and so here.
    if "--serve" in argv:
        serve()
        return
    if os.environ.get("PYTHONHASHSEED") != "0":
        # A set of strs prints in hash order, which changes with each
        # process's seed: the expectations are written under seed 0, so
        # that --check gives the same answer every time.
        env = dict(os.environ, PYTHONHASHSEED="0")
        os.execve(sys.executable, [sys.executable, os.path.abspath(__file__)] + argv, env)
    check = "--check" in argv
    files = [a for a in argv if not a.startswith("--")] or sorted(glob.glob(os.path.join(HERE, "cases", "*.json")))
    ok = all([run_file(f, check) for f in files])
    if not ok:
        sys.exit("expectations differ from the committed ones: run oracle.py")


if __name__ == "__main__":
    main(sys.argv[1:])
