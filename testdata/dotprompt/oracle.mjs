// Renders every <case>.prompt here with Google's dotprompt (npm dotprompt@1.1.2)
// and writes <case>.expected.json: the messages in OpenAI chat-completions form.
//
//   cd testdata/dotprompt && npm ci && node oracle.mjs
//
// Mapping from Dotprompt's messages to OpenAI's, so that rolemark's output can
// be compared with them (docs/dotprompt.md says why each is needed):
//   - role "model" -> "assistant";
//   - text parts: each trimmed of ASCII whitespace at both ends and dropped when
//     empty, because rolemark trims literal whitespace at the ends of every
//     text; Dotprompt keeps it (a message ends in "\n" before the next marker);
//   - media parts -> {"type": "image_url", "image_url": {"url": …}} (OpenAI's
//     form has no media type);
//   - a message holding one text part has that text as its content string;
//   - history metadata (purpose: "history") is dropped.
// The history in <case>.json is in OpenAI form and goes to Dotprompt in its
// own form (assistant -> model, content -> [{text}]).
import { Dotprompt } from "dotprompt";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

const files = readdirSync(".");
const partials = {};
for (const f of files) {
  if (f.startsWith("_") && f.endsWith(".prompt")) {
    partials[f.slice(1, -".prompt".length)] = readFileSync(f, "utf8");
  }
}
const trim = (s) => s.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, "");

for (const f of files.sort()) {
  if (!f.endsWith(".prompt") || f.startsWith("_")) continue;
  const name = f.slice(0, -".prompt".length);
  const source = readFileSync(f, "utf8");
  const c = JSON.parse(readFileSync(name + ".json", "utf8"));
  const history = (c.history || []).map((m) => ({
    role: m.role === "assistant" ? "model" : m.role,
    content: [{ text: m.content }],
  }));
  const dp = new Dotprompt({ partials });
  const out = await dp.render(source, { input: c.input || {}, messages: history });
  const messages = [];
  for (const m of out.messages) {
    const parts = [];
    for (const p of m.content) {
      if (p.text !== undefined) {
        const t = trim(p.text);
        if (t !== "") parts.push({ type: "text", text: t });
      } else if (p.media) {
        parts.push({ type: "image_url", image_url: { url: p.media.url } });
      }
    }
    const role = m.role === "model" ? "assistant" : m.role;
    const content = parts.length === 1 && parts[0].type === "text" ? parts[0].text : parts.length === 0 ? "" : parts;
    messages.push({ role, content });
  }
  writeFileSync(name + ".expected.json", JSON.stringify(messages, null, 2) + "\n");
  console.log(name, messages.length, "messages");
}
