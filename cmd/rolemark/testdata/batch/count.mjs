// count.mjs prints the summaries `rolemark batch --count` must end with for
// count.jsonl and ask.hbs (TestBatchCount), from the reference tokenizers
// that tokens/testdata/ref installs (npm ci --ignore-scripts there): tiktoken
// for o200k_base and cl100k_base, @huggingface/tokenizers for Qwen 3's
// tokenizer.json.
//
//   node count.mjs > count.golden
//
// Messages count as OpenAI's cookbook counts them: 3 a message, its role
// and content, and 3 for the reply. Text counts with special tokens read as
// such (tiktoken's encode(s, "all"); add_special_tokens: false).
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const ref = path.join(here, "..", "..", "..", "..", "tokens", "testdata");
const require = createRequire(path.join(ref, "ref", "package.json"));
const { get_encoding } = require("tiktoken");
const { Tokenizer } = require("@huggingface/tokenizers");

const rows = fs.readFileSync(path.join(here, "count.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
const system = "Answer briefly.";
// ChatML as rolemark's chatml preset writes it: sft without the generation
// prompt, a chat format with it.
const chatml = (q, gen) =>
  `<|im_start|>system\n${system}<|im_end|>\n<|im_start|>user\n${q}<|im_end|>\n` + (gen ? "<|im_start|>assistant\n" : "");

const tiktoken = (name) => {
  const e = get_encoding(name);
  return { name, count: (s) => e.encode(s, "all").length };
};
const qwen3 = (() => {
  const tj = JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(ref, "vocab", "qwen3.tokenizer.json.gz"))).toString("utf8"));
  const t = new Tokenizer(tj, {});
  return { name: "qwen3.tokenizer.json.gz", count: (s) => t.encode(s, { add_special_tokens: false }).ids.length };
})();

const messages = (tk) => (q) => 3 + tk.count("system") + tk.count(system) + 3 + tk.count("user") + tk.count(q) + 3;
const text = (tk, gen) => (q) => tk.count(chatml(q, gen));

function summary(tk, what, counts) {
  const c = [...counts].sort((a, b) => a - b);
  const sum = c.reduce((a, b) => a + b, 0);
  const mid = c.length >> 1;
  const median = c.length % 2 ? c[mid] : (c[mid - 1] + c[mid]) / 2;
  return `rolemark batch: tokens (${tk.name}, ${what}): ${sum} in ${c.length} rows; per row min ${c[0]}, median ${median}, max ${c[c.length - 1]}`;
}

const o200k = tiktoken("o200k_base");
const cl100k = tiktoken("cl100k_base");
const msgs = "the messages as OpenAI counts them";
const line = "the text of each line";
const out = {
  "openai o200k_base": summary(o200k, msgs, rows.map((r) => messages(o200k)(r.q))),
  // Row 3 repeats row 1's custom_id: it fails and counts nowhere.
  "openai-batch cl100k_base": summary(cl100k, msgs, rows.slice(0, 2).map((r) => messages(cl100k)(r.q))),
  "anthropic-batch o200k_base": summary(o200k, msgs, rows.map((r) => messages(o200k)(r.q))),
  "chatml o200k_base": summary(o200k, line, rows.map((r) => text(o200k, true)(r.q))),
  "sft qwen3": summary(qwen3, line, rows.map((r) => text(qwen3, false)(r.q))),
  "sft cl100k_base": summary(cl100k, line, rows.map((r) => text(cl100k, false)(r.q))),
};
for (const [k, v] of Object.entries(out)) console.log(`${k}\t${v}`);
