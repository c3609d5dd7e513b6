"""A pytest plugin for convert/pallets.py: while Jinja2's own tests run, it
records every template they render (source or name, the render's context,
the environment's settings, the loader's templates) and what came of it,
as JSON lines in $ORACLE_HARNESS_OUT. It changes nothing the tests see."""
import json
import os
import threading

import jinja2
import jinja2.ext
from jinja2 import defaults, loaders
from jinja2.environment import Environment, Template
from jinja2.runtime import Undefined
from jinja2.sandbox import ImmutableSandboxedEnvironment, SandboxedEnvironment

_out = open(os.environ["ORACLE_HARNESS_OUT"], "w", encoding="utf-8")
_state = threading.local()
_current = {"test": None}

EXT_NAMES = {jinja2.ext.LoopControlExtension: "loopcontrols", jinja2.ext.ExprStmtExtension: "do"}
DEFAULT_DELIMS = dict(block_start_string=defaults.BLOCK_START_STRING, block_end_string=defaults.BLOCK_END_STRING,
                      variable_start_string=defaults.VARIABLE_START_STRING, variable_end_string=defaults.VARIABLE_END_STRING,
                      comment_start_string=defaults.COMMENT_START_STRING, comment_end_string=defaults.COMMENT_END_STRING)
_pristine = {}


def pristine(cls):
    if cls not in _pristine:
        _pristine[cls] = cls()
    return _pristine[cls]


def pytest_runtest_setup(item):
    _current["test"] = item.nodeid


def _depth():
    return getattr(_state, "depth", 0)


def _emit(rec):
    rec["test"] = _current["test"]
    _out.write(json.dumps(rec, ensure_ascii=False, default=lambda o: "<%s>" % type(o).__name__) + "\n")
    _out.flush()


def env_spec(env):
    """The case's env, or a string saying why it cannot be one."""
    t = type(env)
    if t not in (Environment, SandboxedEnvironment, ImmutableSandboxedEnvironment):
        return "environment class %s" % t.__name__
    for k, v in DEFAULT_DELIMS.items():
        if getattr(env, k) != v:
            return "custom delimiters"
    if env.line_statement_prefix or env.line_comment_prefix:
        return "line statements"
    if env.newline_sequence != "\n":
        return "newline_sequence"
    if env.undefined is not Undefined:
        return "undefined=%s" % env.undefined.__name__
    if env.finalize is not None:
        return "finalize"
    if callable(env.autoescape):
        return "autoescape function"
    if env.filters != pristine(t).filters:
        return "custom filters"
    if env.tests != pristine(t).tests:
        return "custom tests"
    extra = {k: v for k, v in env.globals.items() if pristine(t).globals.get(k, _pristine) is not v}
    if extra:
        from oracle import encode
        try:
            extra = {k: encode(v) for k, v in extra.items()}
        except TypeError as e:
            return "custom global holds %s" % e
    if env.policies != pristine(t).policies:
        return "custom policies"
    spec = {}
    for k in ("trim_blocks", "lstrip_blocks", "keep_trailing_newline"):
        if getattr(env, k):
            spec[k] = True
    if env.autoescape:
        spec["autoescape"] = True
    if env.is_async:
        spec["_async"] = True
    if t is not Environment:
        spec["sandbox"] = True
        if t is SandboxedEnvironment:
            spec["_sandbox_class"] = "SandboxedEnvironment"
    exts = []
    for e in env.extensions.values():
        name = EXT_NAMES.get(type(e))
        if name is None:
            return "extension %s" % type(e).__name__
        exts.append(name)
    if exts:
        spec["extensions"] = sorted(exts)
    if extra:
        spec["globals"] = extra
    return spec


def loader_map(env):
    if env.loader is None:
        return None
    try:
        return {n: env.loader.get_source(env, n)[0] for n in env.loader.list_templates()}
    except Exception as e:
        return "loader %s: %s" % (type(env.loader).__name__, type(e).__name__)


def _outcome(fn):
    try:
        return fn(), None
    except BaseException as e:
        out = {"error": type(e).__name__, "message": str(e)}
        if isinstance(e, jinja2.TemplateSyntaxError):
            out["message"] = e.message or ""
        return out, e


_orig_from_string = Environment.from_string
_orig_get_template = Environment.get_template
_orig_render = Template.render


def _load(env, load, recorded, key, value, globals):
    """A test's own load of a template (load(), not one Jinja2 makes
    inside it): its error recorded as a parse event, its template marked
    with key: value for the renders, when recorded."""
    if _depth():
        return load()
    _state.depth = 1
    try:
        tmpl, exc = _outcome(load)
    finally:
        _state.depth = 0
    if exc is not None:
        if recorded:
            _emit({"event": "parse", key: value, "env": env_spec(env), "loader": loader_map(env), "outcome": tmpl})
        raise exc
    if recorded:
        tmpl._oracle = {key: value, "globals": dict(globals or {})}
        _emit({"event": "created", "id": id(tmpl)})
    return tmpl


def from_string(self, source, globals=None, template_class=None):
    return _load(self, lambda: _orig_from_string(self, source, globals, template_class),
                 isinstance(source, str), "template", source, globals)


def get_template(self, name, parent=None, globals=None):
    return _load(self, lambda: _orig_get_template(self, name, parent, globals),
                 isinstance(name, str) and parent is None, "name", name, globals)


def referenced(tmpl):
    """The names a template (and nothing it includes) reads, or None."""
    if "template" not in tmpl._oracle:
        return None
    from jinja2 import meta
    try:
        return meta.find_undeclared_variables(tmpl.environment.parse(tmpl._oracle["template"]))
    except Exception:
        return None


def render(self, *args, **kwargs):
    if _depth() or not hasattr(self, "_oracle"):
        return _orig_render(self, *args, **kwargs)
    _state.depth = 1
    try:
        out, exc = _outcome(lambda: _orig_render(self, *args, **kwargs))
    finally:
        _state.depth = 0
    ctx = dict(self._oracle["globals"])
    try:
        ctx.update(dict(*args, **kwargs))
    except Exception:
        ctx = None
    rec = {"event": "render", "id": id(self), "env": env_spec(self.environment), "loader": loader_map(self.environment),
           "context": ctx, "outcome": out if exc is not None else {"output": out}}
    for k in ("template", "name"):
        if k in self._oracle:
            rec[k] = self._oracle[k]
    if ctx is not None:
        from oracle import encode
        used = None
        enc = {}
        for k, v in ctx.items():
            try:
                enc[k] = encode(v)
            except TypeError as e:
                if used is None:
                    used = referenced(self)
                if used is not None and k not in used:
                    continue  # a variable the template never reads
                rec["context_skip"] = "context holds %s" % e
                enc = None
                break
        rec["context"] = enc
    _emit(rec)
    if exc is not None:
        raise exc
    return out


Environment.from_string = from_string
Environment.get_template = get_template
Template.render = render
