#!/usr/bin/env python3
"""The user's alternative to rolemark batch, for batch's BenchmarkRows: Python Jinja2 renders the
benchmark prompt (testdata/bench/literal.hbs, the same texts) for every row of a JSON Lines file and
writes, per row, an OpenAI Batch API request line (openai-batch) or the prompt string of ChatML's
HuggingFace chat template (chatml, the template and environment of chat/format/testdata/oracle.py, as
transformers renders it) to /dev/null, then prints rows per second.

    python3 batch/testdata/bench_jinja2.py openai-batch|chatml ROWS.jsonl
"""

import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "chat", "format", "testdata"))
import oracle  # noqa: E402

SYSTEM = ("You are {{name}}, a careful financial analyst at {{company}}. Today is {{date}}.\n"
          "Answer only from the document the user gives you. Quote figures exactly, name the section you used,\n"
          "and say \"I don't know\" when the document does not say. Keep answers under 120 words; use plain text.")
DOCUMENT = "Here is the document:\n{{document}}"
ASSISTANT = "I have read the document. What would you like to know?"
QUESTION = "{{question}} Please answer for {{company}}."


def main():
    mode, path = sys.argv[1], sys.argv[2]
    env = oracle.environment()
    system, document, question = (env.from_string(s) for s in (SYSTEM, DOCUMENT, QUESTION))
    chat = None
    if mode == "chatml":
        src, _, bos, eos = oracle.load_templates()["chatml"]
        chat = env.from_string(src)
    start = time.perf_counter()
    n = 0
    with open(path, encoding="utf-8") as f, open(os.devnull, "w", encoding="utf-8") as out:
        for line in f:
            row = json.loads(line)
            msgs = [{"role": "system", "content": system.render(row).strip()},
                    {"role": "user", "content": document.render(row).strip()},
                    {"role": "assistant", "content": ASSISTANT},
                    {"role": "user", "content": question.render(row).strip()}]
            n += 1
            if chat is not None:
                text = chat.render(messages=msgs, add_generation_prompt=True, bos_token=bos, eos_token=eos)
                out.write(json.dumps({"prompt": text}, ensure_ascii=False) + "\n")
            else:
                out.write(json.dumps({"custom_id": "row-%d" % n, "method": "POST", "url": "/v1/chat/completions",
                                      "body": {"model": "gpt-4o-mini", "messages": msgs}}, ensure_ascii=False) + "\n")
    print("%.1f" % (n / (time.perf_counter() - start)))


if __name__ == "__main__":
    main()
