"""What the Python oracles of testdata/ (methods.py, ops.py, slices.py)
write for one operation: type:repr(result), or !ExceptionType: message,
which the Go tests' answer() writes for the package's result.

Not a script; they import it.
"""


def ans(f):
    try:
        r = f()
    except Exception as e:
        return "!%s: %s" % (type(e).__name__, e)
    return "%s:%r" % (type(r).__name__, r)
