// oracle.mjs writes <case>.expected.json for every <case>.prompt in this
// directory by rendering it with the real Dotprompt (npm dotprompt, the
// version pinned in package-lock.json). Run it from this directory:
//
//	cd testdata/dotprompt && npm ci && node oracle.mjs
//
// The Go test (handlebars/dotprompt_oracle_test.go) reads only the committed
// files; CI does not run node.
//
// Inputs. <case>.json is {"input": {...}, "history": [...]}, history in
// OpenAI chat form. Files named _NAME.prompt are partials, given to
// Dotprompt as partials {NAME: source}; they are not cases.
//
// Rendering. new Dotprompt({partials}).render(source, {input, messages},
// options). Dotprompt's JS render applies input defaults only from its
// options argument (options.input.default), not from the file's front
// matter (checked with dotprompt 1.1.2: a front-matter default alone
// renders as empty). A caller that wants the file's defaults passes them, so
// the script passes {input: {default: <front matter input.default>}} as
// options, and a front-matter default applies, as it does in rolemark.
//
// History: OpenAI form -> Dotprompt form: role assistant -> model, other
// roles unchanged; string content -> [{text}]; a text part -> {text}; an
// image_url part -> {media: {url}}.
//
// Output: Dotprompt messages -> OpenAI form:
//   - role model -> assistant, other roles unchanged;
//   - metadata (history's purpose, part metadata) dropped, and a part that
//     holds only metadata (the pending part {{section "name"}} leaves, a
//     placeholder with no content) dropped;
//   - adjacent text parts joined into one;
//   - media parts -> {type: "image_url", image_url: {url}} (contentType dropped:
//     OpenAI's image part has no media type);
//   - text is kept as Dotprompt renders it, whitespace included (rolemark
//     keeps a .prompt file's whitespace as Dotprompt does); a message left
//     with no part is dropped;
//   - content is a string when only text remains, else an array of parts
//     {type: "text", text} / {type: "image_url", image_url: {url}}.
// A case that Dotprompt rejects gets {"error": message} instead.
// Files are written with JSON.stringify(v, null, 2) and a final newline.
import { readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { Dotprompt } from "dotprompt";

const dir = new URL(".", import.meta.url).pathname;
const files = readdirSync(dir).sort();

const partials = {};
for (const f of files) {
  if (f.startsWith("_") && f.endsWith(".prompt")) {
    partials[f.slice(1, -".prompt".length)] = readFileSync(dir + f, "utf8");
  }
}

function toDotprompt(m) {
  const role = m.role === "assistant" ? "model" : m.role;
  let content;
  if (typeof m.content === "string") {
    content = [{ text: m.content }];
  } else {
    content = m.content.map((p) => {
      if (p.type === "text") return { text: p.text };
      if (p.type === "image_url") return { media: { url: p.image_url.url } };
      throw new Error("unsupported history part " + p.type);
    });
  }
  return { role, content };
}

function toOpenAI(m) {
  const role = m.role === "model" ? "assistant" : m.role;
  const parts = [];
  for (const p of m.content) {
    if (p.text !== undefined) {
      const last = parts.at(-1);
      if (last && last.type === "text") last.text += p.text;
      else parts.push({ type: "text", text: p.text });
    } else if (p.media) {
      parts.push({ type: "image_url", image_url: { url: p.media.url } });
    } else if (p.metadata?.pending && Object.keys(p).length === 1) {
      // a section placeholder: no content
    } else {
      throw new Error("unsupported part " + JSON.stringify(p));
    }
  }
  const kept = parts.filter((p) => p.type !== "text" || p.text !== "");
  if (kept.length === 0) return null;
  if (kept.every((p) => p.type === "text")) {
    return { role, content: kept.map((p) => p.text).join("") };
  }
  return { role, content: kept };
}

let n = 0;
for (const f of files) {
  if (!f.endsWith(".prompt") || f.startsWith("_")) continue;
  const name = f.slice(0, -".prompt".length);
  const source = readFileSync(dir + f, "utf8");
  const data = existsSync(dir + name + ".json")
    ? JSON.parse(readFileSync(dir + name + ".json", "utf8"))
    : {};
  const dp = new Dotprompt({ partials });
  let out;
  try {
    const parsed = dp.parse(source);
    const options = parsed.input?.default ? { input: { default: parsed.input.default } } : undefined;
    const rendered = await dp.render(
      source,
      { input: data.input ?? {}, messages: (data.history ?? []).map(toDotprompt) },
      options,
    );
    out = rendered.messages.map(toOpenAI).filter((m) => m !== null);
  } catch (e) {
    out = { error: String(e.message ?? e) };
  }
  writeFileSync(dir + name + ".expected.json", JSON.stringify(out, null, 2) + "\n");
  n++;
}
console.log(`wrote ${n} expected files`);
