#!/usr/bin/env python3
"""Issue 23's tenth round: refusals made renders, and what probing where
templates go found, each made small.

    python3 convert/exact10.py     # -> cases/exact10.json

As convert/exact9.py: Python's Jinja2 decides what each entry prints or
raises (oracle.py); the note says what the package did before. A note
starting "exact:" compares the message word for word.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

SB = {"sandbox": True}
HF = {"profile": "hf"}

# (name, template, context, note[, env[, loader]])
FOUND = [
    # int.to_bytes and int.from_bytes (refused before): Argument Clinic's
    # binding and conversions, then the C function's checks
    ("int-bytes-00", '{{ (5).to_bytes() }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-01", '{{ (258).to_bytes(2) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-02", "{{ (258).to_bytes(2, 'little') }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-03", '{{ (258).to_bytes(1) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-04", '{{ (-1).to_bytes(2) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-05", '{{ (-1).to_bytes(2, signed=true) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-06", '{{ (-129).to_bytes(1, signed=true) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-07", '{{ (0).to_bytes(0) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-08", '{{ (1).to_bytes(0) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-09", '{{ (1).to_bytes(-1) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-10", "{{ (1).to_bytes(2, 'mid') }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-11", '{{ (1).to_bytes(2, 1) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-12", "{{ (1).to_bytes('2') }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-13", '{{ (1).to_bytes(2.0) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-14", "{{ (1).to_bytes(2, 'big', true) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-15", '{{ (1).to_bytes(x=1) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-16", "{{ (1).to_bytes(length=3, byteorder='little') }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-17", '{{ true.to_bytes() }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-18", '{{ (2**70).to_bytes(10) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-19", '{{ (1).to_bytes(2**70) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-20", '{{ (1).to_bytes(true) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-21", '{{ (1).to_bytes(1, signed=1) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-22", '{{ (1).to_bytes(1, signed=none) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-23", "{{ (1).to_bytes(1, 'big', 'x') }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-24", "{{ (1).to_bytes(1, 'big', 2) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-25", '{{ (1).to_bytes }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-26", '{{ (0).from_bytes([1, 2]) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-27", "{{ (0).from_bytes([1, 2], 'little') }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-28", "{{ (0).from_bytes('ab'.encode()) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-29", "{{ (0).from_bytes('ab') }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-30", '{{ (0).from_bytes([256]) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-31", '{{ (0).from_bytes([-1]) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-32", '{{ (0).from_bytes([255], signed=true) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-33", '{{ (0).from_bytes([]) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-34", '{{ (0).from_bytes((1, 2)) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-35", '{{ (0).from_bytes(1) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-36", '{{ (0).from_bytes(none) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-37", '{{ (0).from_bytes([1.5]) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-38", "{{ (0).from_bytes(['a']) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-39", '{{ (0).from_bytes(range(3)) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-40", '{{ (0).from_bytes({1: 2}) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-41", '{{ true.from_bytes([1]) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-42", '{{ (0).from_bytes }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-43", '{{ (0).from_bytes() }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-44", "{{ (0).from_bytes([1], 'x') }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-45", "{{ (0).from_bytes([1], byteorder='little', signed=true) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-46", '{{ (0).from_bytes(bytes=[1]) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-47", '{{ (0).from_bytes([true]) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-48", '{{ (0).from_bytes([1]*20) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-49", "{{ (0).from_bytes('ab'|list) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-50", '{{ (0).from_bytes([2**70]) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-51", "{{ (0).from_bytes([1], 'big', true) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-52", '{{ (0).from_bytes(x) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-53", '{{ (0).from_bytes([x]) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-54", '{{ (0).from_bytes({}) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-55", "{{ (0).from_bytes('ab'.encode()|list) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-56", '{{ 1.5.to_bytes }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-57", '{{ (1).to_bytes(1, byteorder=none) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-58", "{{ (0).from_bytes([1], 'big', signed=[]) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-59", "{{ (0).from_bytes(('<'|safe).encode()) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-60", "{{ (0).from_bytes([], 'little', signed=true) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-61", "{{ (-128).to_bytes(1, 'little', signed=true) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-62", '{{ (128).to_bytes(1, signed=true) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-63", '{{ (0).to_bytes(1, signed=true) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-64", '{{ (-256).to_bytes(1, signed=true) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-65", '{{ (0).from_bytes(nothere) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-66", "{{ (1).to_bytes(-1, 'mid') }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-67", "{{ (1).to_bytes('x', 1) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-68", '{{ (1).to_bytes(1, length=2) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-69", "{{ (1).to_bytes(1, 'big', signed=true, x=1) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-70", '{{ (1).to_bytes(x=1, length=1) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-71", '{{ (1).to_bytes(nothere) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-72", '{{ (300).to_bytes(-1) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-73", "{{ (1).to_bytes(1, 'big', x=1) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-74", '{{ (0).from_bytes([1], 1) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-75", "{{ (0).from_bytes([1], 'x', signed=1) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-76", '{{ (0).from_bytes([1], x=1) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-77", "{{ (0).from_bytes(1, 'x') }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-78", '{{ (0).from_bytes([1], bytes=[2]) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-79", '{{ (0).from_bytes(x=1) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-80", "{{ (0).from_bytes([1], 'big', 1, 2) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-81", "{{ (1).to_bytes(1, 'big', 1, 2) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-82", "{{ (0).from_bytes(('a'|safe)) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-83", "{{ (0).from_bytes([1]|map('int')) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-84", "{{ (0).from_bytes('a'.encode().upper()) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-85", "{{ (0).from_bytes([1], byteorder='little', signed=false) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-86", '{{ (-1).to_bytes(0, signed=true) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-87", '{{ (0).to_bytes(0, signed=true) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-88", '{{ (255).to_bytes(1, signed=false) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-89", "{{ (1).to_bytes(1, byteorder='Big') }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-90", "{{ ((2**70).to_bytes(9, 'little', signed=true)) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-91", "{{ (-(2**70)).to_bytes(9, 'little', signed=true) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-92", "{{ (0).from_bytes(b) }}|{{ (0).from_bytes('\\x01\\u00ff'.encode('latin-1'), 'little', signed=true) }}", {}, "exact: bytes from str.encode"),
    ("int-bytes-93", "{{ (0).from_bytes([1], 'big', signed=nothere) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-94", "{{ (0).from_bytes(x, 'big') }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-95", '{{ (1).to_bytes(2)|length }}{{ (1).to_bytes(2)[1] }}{{ (1).to_bytes(2).hex() }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-96", "{{ (0).from_bytes([1, 0, 0, 0, 0, 0, 0, 0, 0], 'little', signed=true) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-97", '{{ (0).from_bytes([0x80] + [0] * 8, signed=true) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-98", '{{ (0).from_bytes([0xff] * 9, signed=true) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-99", "{{ (0).from_bytes([1], 'big', **{'signed': 1}) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-100", "{{ (1).to_bytes(*[1, 'big']) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-101", '{{ (0).from_bytes(1.5) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-102", '{{ (0).from_bytes([1], none) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-103", '{{ (0).from_bytes([x]) }}', {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    ("int-bytes-104", "{{ (0).from_bytes([1], 'big', signed=x) }}", {"x": None}, "exact: int.to_bytes and from_bytes were refused"),
    # wordwrap with a nan width: textwrap never ends on a line with a
    # chunk (the package refuses it by name), but lines without one wrap
    # to nothing (refused before)
    ("wordwrap-nan-empty-lines", "{{ '\\n'|wordwrap(x) }}|{{ '\\n\\n'|wordwrap(x, wrapstring='-') }}|{{ '\\r\\n'|wordwrap(x) }}|{{ ''|wordwrap(x) }}|{{ '\\n'|wordwrap(x, true, '<b>'|safe) }}", {"x": {"__float__": "nan"}}, "the package refused a nan width whatever the text"),
]


def main():
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    oracle.write_found("exact10.json", "exact10", "issue 23, tenth round", "internal/jinja2/testdata/oracle/convert/exact10.py", FOUND)


if __name__ == "__main__":
    main()
