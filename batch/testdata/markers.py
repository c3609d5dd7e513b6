"""What batch's two span oracles (sft_oracle.py, sft_tools_oracle.py)
share: finding an assistant content in a template's text by rendering it
once more between two private-use marker characters.

Not a script; the oracles import it.
"""

OPEN, CLOSE = "\ue000", "\ue001"


def content_span(render, msgs, i, full):
    """The range [start, end) of msgs[i]'s content in full, render(msgs):
    render(marked), with the content between OPEN and CLOSE, shares with
    full what comes before and after the markers, which fixes where the
    content lies (so a template that trims it is followed). None where the
    template writes no marker, or cannot be followed and the content is
    only white space; ValueError where it cannot be followed otherwise."""
    m = msgs[i]
    marked = [dict(x) for x in msgs]
    marked[i]["content"] = OPEN + m["content"] + CLOSE
    w = render(marked)
    if OPEN not in w and CLOSE not in w:
        return None
    a, b = w.index(OPEN), w.index(CLOSE)
    prefix, suffix = w[:a], w[b + 1:]
    ok = (w.count(OPEN) == 1 and w.count(CLOSE) == 1 and a < b and len(prefix) + len(suffix) <= len(full)
          and full.startswith(prefix) and full.endswith(suffix))
    if not ok:
        if m["content"].strip() == "":
            return None
        raise ValueError("cannot locate message %d" % (i + 1))
    return [len(prefix), len(full) - len(suffix)]
