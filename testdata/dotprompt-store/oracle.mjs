// oracle.mjs writes expected.json: what the real Dotprompt (npm dotprompt,
// the version pinned in package-lock.json) makes of every case in
// cases.json, where a case loads a prompt by name and variant from a
// directory and names tools that the program registers. Run it from this
// directory:
//
//	cd testdata/dotprompt-store && npm ci && node oracle.mjs
//
// The Go test (engine/dotprompt_store_test.go) reads only the committed
// files; CI does not run node.
//
// Loading. Dotprompt 1.1.2 ships its DirStore (src/stores/dir.ts: a
// variant of NAME is the file NAME.VARIANT.prompt) only as TypeScript
// source, outside the package's exports, so the script compiles that file
// with the TypeScript compiler (typescript, a dev dependency) into
// node_modules/.dirstore.mjs and imports it: the store is Dotprompt's own
// code, not a copy. store.load(name, {variant}) reads the source, and
// store.list() the names and variants, which are recorded too.
//
// Tools. tools.json holds the registered tools as OpenAI function tools
// (the file rolemark render --tools reads); the script gives them to
// Dotprompt as ToolDefinitions {name, description, inputSchema} through a
// toolResolver that returns null for a name it does not know, so that an
// unknown name fails the render, as rolemark fails it. (With the static
// tools option instead, Dotprompt would pass an unknown name through in
// the rendered metadata's tools, unresolved.)
//
// Output, per case in cases.json order: {"name", "messages", "tools",
// "unresolved"} or {"name", "error"}. messages are Dotprompt's, in OpenAI
// form (role model -> assistant; text parts joined; whitespace as
// rendered; a message with no text dropped); tools are the rendered
// metadata's toolDefs as OpenAI function tools {type, function: {name,
// description, parameters}}, in Dotprompt's order (the front matter's
// toolDefs, then the tools resolved by name); unresolved is the rendered
// metadata's tools (names left unresolved). The file is written with
// JSON.stringify(v, null, 2) and a final newline.
import { readFileSync, writeFileSync } from "node:fs";
import ts from "typescript";
import { Dotprompt } from "dotprompt";

const dir = new URL(".", import.meta.url).pathname;

const storeTS = readFileSync(dir + "node_modules/dotprompt/src/stores/dir.ts", "utf8");
const storeJS = ts.transpileModule(storeTS, {
  compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
}).outputText;
writeFileSync(dir + "node_modules/.dirstore.mjs", storeJS);
const { DirStore } = await import(dir + "node_modules/.dirstore.mjs");

const registered = {};
for (const t of JSON.parse(readFileSync(dir + "tools.json", "utf8"))) {
  const f = t.function ?? t;
  registered[f.name] = { name: f.name, description: f.description, inputSchema: f.parameters };
}

function toOpenAI(m) {
  const role = m.role === "model" ? "assistant" : m.role;
  let text = "";
  for (const p of m.content) {
    if (p.text === undefined) throw new Error("unsupported part " + JSON.stringify(p));
    text += p.text;
  }
  return text === "" ? null : { role, content: text };
}

function toolOf(d) {
  const fn = { name: d.name };
  if (d.description !== undefined) fn.description = d.description;
  if (d.inputSchema !== undefined) fn.parameters = d.inputSchema;
  return { type: "function", function: fn };
}

const out = { list: {}, cases: [] };
for (const d of ["prompts", "bad"]) {
  const { prompts } = await new DirStore({ directory: dir + d }).list();
  out.list[d] = prompts
    .map((p) => ({ name: p.name, variant: p.variant ?? "" }))
    .sort((a, b) => (a.name + "." + a.variant).localeCompare(b.name + "." + b.variant));
}
for (const c of JSON.parse(readFileSync(dir + "cases.json", "utf8"))) {
  const store = new DirStore({ directory: dir + c.dir });
  const dp = new Dotprompt({ toolResolver: (name) => registered[name] ?? null });
  try {
    const { source } = await store.load(c.prompt, c.variant ? { variant: c.variant } : undefined);
    const rendered = await dp.render(source, { input: c.input ?? {} });
    out.cases.push({
      name: c.name,
      messages: rendered.messages.map(toOpenAI).filter((m) => m !== null),
      tools: (rendered.toolDefs ?? []).map(toolOf),
      unresolved: rendered.tools ?? [],
    });
  } catch (e) {
    out.cases.push({ name: c.name, error: String(e.message ?? e).replaceAll(dir, "") });
  }
}
writeFileSync(dir + "expected.json", JSON.stringify(out, null, 2) + "\n");
console.log(`wrote ${out.cases.length} cases`);
