"""What the project's hand-made case lists share: exact6.py, exact7.py,
exact8.py, exact9.py, exact10.py, fuzzfound.py, fuzzfound7.py,
fuzzfound8.py, portfound.py and scoping.py.

Each holds (name, template, context, note[, env[, loader]]) entries, each
the small form of something the package once rendered differently from
Jinja2. Python's Jinja2 decides what each entry prints or raises
(oracle.py); the note says what the package, or the fuzzer, did before. A
note starting "exact:" compares the message word for word. Run as a
script, each list writes itself with write.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import oracle  # noqa: E402


def write(prefix, test, path, found):
    """Writes found as cases/PREFIX.json, whose ids are PREFIX/name, and
    renders its expectations (oracle.write_found); test and path say where
    the cases come from."""
    oracle.write_found(prefix + ".json", prefix, test, path, found)
