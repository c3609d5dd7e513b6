"""What the project's hand-made case lists share: exact6.py, exact7.py,
exact8.py, exact9.py, exact10.py, fuzzfound.py, fuzzfound7.py,
fuzzfound8.py, portfound.py, scoping.py and suite10.py hold (name,
template, context, note[, env[, loader]]) entries, each the small form of
something the package once rendered differently from Jinja2; the note says
what the package, or the fuzzer, did before, and a note starting "exact:"
compares the message word for word. appendform.py, destination.py,
exact.py, fastpath.py, inplace.py, options.py, realworld.py and
sortorder.py hold (name, template, context, env[, loader]) rows, the forms
one part of the package handles. Python's Jinja2 decides what each entry
prints or raises (oracle.py). Run as a script, each list writes itself
with write or write_rows.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import oracle  # noqa: E402


def write(prefix, test, path, found, noted=True, exact=False):
    """Writes found as cases/PREFIX.json, whose ids are PREFIX/name, and
    renders its expectations: (name, template, context, note[, env[,
    loader]]) entries, or without the note where noted is false; a loader
    (template names to sources) is written where one is given. A case
    whose note starts "exact:", or every case where exact is true, has its
    message compared word for word. test and path say where the cases come
    from."""
    cases = []
    for cid, tpl, ctx, *rest in found:
        source = {"test": test}
        if noted:
            source["note"] = rest.pop(0)
        case = {"id": prefix + "/" + cid, "source": source, "template": tpl, "context": ctx,
                "env": rest[0] if rest else {}}
        if len(rest) > 1 and rest[1]:
            case["loader"] = rest[1]
        if exact or source.get("note", "").startswith("exact:"):
            case["exact_message"] = True
        cases.append(case)
    oracle.write_cases(prefix + ".json", {"jinja2": "", "source": {"repo": "rolemark", "path": path,
                                                                  "licence": "this project's"}, "cases": cases})


def write_rows(name, rows, exact=False):
    """Writes convert/NAME.py's rows, (name, template, context, env[,
    loader]), as cases/NAME.json, whose ids are NAME/name (write)."""
    write(name, name, "internal/jinja2/testdata/oracle/convert/" + name + ".py", rows, noted=False, exact=exact)
