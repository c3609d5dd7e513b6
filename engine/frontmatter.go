package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine/internal/yamljson"
	"github.com/rolemark/rolemark/engine/schema"
	"github.com/rolemark/rolemark/internal/textpos"
	"github.com/rolemark/rolemark/internal/typo"
)

// FrontMatter is the YAML header of a prompt file, between --- lines at its
// top:
//
//	---
//	engine: jinja
//	model: gpt-4o-mini
//	config: {temperature: 0.2}
//	input:
//	  schema:
//	    name: string, the customer's name
//	    age?: integer
//	  default: {name: guest}
//	tools:
//	  - name: get_rate
//	    description: Exchange rate of a currency
//	    parameters: {type: object, properties: {currency: {type: string}}}
//	---
type FrontMatter struct {
	// Engine names the template's engine; it overrides the file extension.
	Engine string
	// Name names the prompt; Settings names an output schema after it.
	Name string
	// Description says what the prompt is for.
	Description string
	// Model names the model the prompt is written for.
	Model string
	// Config holds free-form model parameters (temperature, max_tokens …).
	Config map[string]any
	// Input declares the variables the template takes; its positions
	// are file lines.
	Input *schema.Schema
	// Defaults fill variables the caller does not supply.
	Defaults map[string]any
	// Output is the output key as written.
	Output map[string]any
	// InputSchema and OutputSchema are input.schema and output.schema
	// compiled to JSON Schema as Dotprompt compiles them: Picoschema
	// becomes an object schema (additionalProperties false, optional
	// properties nullable, (*) the additionalProperties), a mapping with a
	// JSON Schema type or properties is kept as written, and the name of a
	// schema registered with Schemas is replaced by it. Nil when absent.
	InputSchema, OutputSchema json.RawMessage
	// OutputFormat is output.format as written, such as "json".
	OutputFormat string
	// Raw is the whole front matter as written.
	Raw map[string]any
	// Tools are function tools the model may call.
	Tools []chat.Tool
	// ToolChoice is toolChoice as written: auto, none, required or the
	// name of one of the tools.
	ToolChoice string
	// Ext holds the other keys that have a dot, grouped as Dotprompt
	// groups them: the namespace is what precedes the last dot, so
	// "ext1.sub.foo: x" is Ext["ext1.sub"]["foo"]. Other keys without a
	// dot are in Raw only.
	Ext map[string]map[string]any
	// Line is the file line of the first key (for positions of problems).
	Line int

	engineLine, engineCol int
	// settings are the file positions of the keys of the request settings
	// ("model", "config", "config.seed" …), for SettingPos.
	settings map[string][2]int
	// doubts are what a render takes but Check reports, each an *Error at
	// its place: an input.default key the input schema does not declare
	// (a misspelled name defaults nothing; a render passes it as data), an
	// output.format that no Dotprompt format is (a request fails on it
	// later).
	doubts []error
	// lead is how many line breaks stand for the front matter at the
	// start of the body (driver.Config.Lead).
	lead int
}

// splitFrontMatter separates YAML front matter from a template. Blank lines
// and lines starting with # may precede the opening ---; lines end with LF,
// CRLF or a lone CR, as Dotprompt reads them. The body keeps the front
// matter's lines as empty lines, so that engines, which read a lone CR as
// a line break (textpos.LF), report file lines; lead is how many such
// line breaks the body starts with. ok is false when src has no front
// matter.
func splitFrontMatter(src string) (yamlText string, firstLine int, body string, lead int, ok bool) {
	rest := src
	line := 1
	for {
		end, next, found := textpos.LineBreak(rest)
		if !found {
			return "", 0, src, 0, false
		}
		l := strings.TrimRight(rest[:end], " \t")
		switch {
		case l == "---":
			rest = rest[next:]
			line++
			goto open
		case l == "" || strings.HasPrefix(l, "#"):
			rest = rest[next:]
			line++
		default:
			return "", 0, src, 0, false
		}
	}
open:
	start := rest
	firstLine = line
	for {
		end, next, found := textpos.LineBreak(rest)
		if strings.TrimRight(rest[:end], " \t") == "---" {
			yamlText = start[:len(start)-len(rest)]
			after := rest[next:]
			lines := lineBreaks(src[:len(src)-len(after)])
			return yamlText, firstLine, strings.Repeat("\n", lines) + after, lines, true
		}
		if !found {
			return "", 0, src, 0, false
		}
		rest = rest[next:]
	}
}

// lineBreaks counts the line breaks of s: LF, CRLF and lone CR.
func lineBreaks(s string) int {
	n := 0
	for {
		_, next, ok := textpos.LineBreak(s)
		if !ok {
			return n
		}
		n++
		s = s[next:]
	}
}

// parseFrontMatter reads front matter whose first line is file line
// firstLine. Problems are *Error values with file positions.
func parseFrontMatter(name, text string, firstLine int, cfg *settings) (*FrontMatter, error) {
	fm := &FrontMatter{Line: firstLine}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, yamlError(name, text, firstLine, err)
	}
	if len(doc.Content) == 0 {
		return fm, nil
	}
	root := doc.Content[0]
	errAt := func(n *yaml.Node, format string, args ...any) error {
		return &Error{Template: name, Line: firstLine + n.Line - 1, Col: n.Column,
			Err: fmt.Errorf("front matter: "+format, args...)}
	}
	if root.Kind != yaml.MappingNode {
		return nil, errAt(root, "expected a mapping of keys to values")
	}
	if k, first := yamljson.DuplicateKey(root); k != nil {
		return nil, errAt(k, "key %q is already defined at line %d", k.Value, firstLine+first.Line-1)
	}
	if err := root.Decode(&fm.Raw); err != nil {
		return nil, errAt(root, "%v", err)
	}
	fm.Raw = yamljson.Value(fm.Raw).(map[string]any)
	r := &fmReader{fm: fm, cfg: cfg, errAt: errAt, sc: schemaReader{named: cfg.schemas, errAt: errAt}}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		fm.keepSettingPos(k, v)
		if err := r.key(k.Value, v); err != nil {
			var ee *Error
			if asError(err, &ee) {
				return nil, err
			}
			return nil, errAt(v, "%s: %v", k.Value, err)
		}
	}
	if r.input != nil {
		if err := parseInput(fm, r.input, r.sc); err != nil {
			return nil, err
		}
	}
	// Dotprompt lists toolDefs first, then the tools it resolved by name.
	if len(r.defs)+len(r.named) > 0 {
		fm.Tools = append(r.defs, r.named...)
	}
	return fm, nil
}

// keepSettingPos records where the front matter writes key k of the
// request settings (and, for config and output, each key of its mapping
// value v), for SettingPos.
func (fm *FrontMatter) keepSettingPos(k, v *yaml.Node) {
	key := k.Value
	switch key {
	case "model", "name", "toolChoice", "config", "output":
	case "tools", "toolDefs":
		key = "tools" // the tools of the request come from both
	default:
		return
	}
	if fm.settings == nil {
		fm.settings = map[string][2]int{}
	}
	at := func(key string, n *yaml.Node) {
		if _, ok := fm.settings[key]; !ok {
			fm.settings[key] = [2]int{fm.Line + n.Line - 1, n.Column}
		}
	}
	at(key, k)
	if (key == "config" || key == "output") && v.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(v.Content); i += 2 {
			at(key+"."+v.Content[i].Value, v.Content[i])
		}
	}
}

// SettingPos returns the file line and column at which the front matter
// writes the request setting field, named as a *chat.RequestError names it
// ("model", "config.seed", "output.format", "tool_choice", "tools"), so
// that a caller can place a problem with the request the file declares:
// the setting's key, or the key of the mapping that lacks it ("config" for
// a missing config.max_tokens). ok is false when the front matter writes
// neither, as for a model given by the caller or for "messages".
func (fm *FrontMatter) SettingPos(field string) (line, col int, ok bool) {
	if fm == nil {
		return 0, 0, false
	}
	switch field {
	case "tool_choice":
		field = "toolChoice"
	case "output.name":
		field = "name"
	}
	for {
		if p, found := fm.settings[field]; found {
			return p[0], p[1], true
		}
		i := strings.LastIndexByte(field, '.')
		if i < 0 {
			return 0, 0, false
		}
		field = field[:i]
	}
}

// fmReader reads the keys of one front matter into fm; input and the
// tools are put together when every key is read.
type fmReader struct {
	fm          *FrontMatter
	cfg         *settings
	errAt       nodeErr
	sc          schemaReader
	input       *yaml.Node
	named, defs []chat.Tool
}

// key reads the front matter's key k, whose value is v. An error that is
// no *Error is placed at v by the caller.
func (r *fmReader) key(k string, v *yaml.Node) error {
	fm, errAt := r.fm, r.errAt
	str := func(dst *string) error {
		if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
			return errAt(v, "%s must be a string", k)
		}
		*dst = v.Value
		return nil
	}
	var err error
	switch k {
	case "engine":
		err = str(&fm.Engine)
		fm.engineLine, fm.engineCol = fm.Line+v.Line-1, v.Column
	case "name":
		err = str(&fm.Name)
	case "description":
		err = str(&fm.Description)
	case "model":
		err = str(&fm.Model)
	case "config":
		if v.Kind != yaml.MappingNode {
			return errAt(v, "config must be a mapping of model parameters")
		}
		if err = v.Decode(&fm.Config); err == nil {
			fm.Config = yamljson.Value(fm.Config).(map[string]any)
		}
	case "output":
		if v.Kind != yaml.MappingNode {
			return errAt(v, "output must be a mapping")
		}
		if err = v.Decode(&fm.Output); err == nil {
			err = parseOutput(fm, v, r.sc)
		}
	case "input":
		if v.Kind != yaml.MappingNode {
			return errAt(v, "input must be a mapping with schema and default")
		}
		r.input = v
	case "tools":
		r.named, err = decodeTools(v, true, r.cfg.tools, errAt)
	case "toolDefs":
		r.defs, err = decodeTools(v, false, nil, errAt)
	case "toolChoice":
		err = str(&fm.ToolChoice)
	default:
		err = fm.addExt(k, v)
	}
	return err
}

// yamlError is the *Error of YAML that does not parse, at the line YAML
// names (and its first non-blank column) in the file.
func yamlError(name, text string, firstLine int, err error) *Error {
	line, msg := yamljson.ErrorLine(err)
	e := &Error{Template: name, Err: fmt.Errorf("front matter: %s", msg)}
	if l, c, ok := locateYAMLError(text, msg, line); ok {
		e.Line, e.Col = firstLine+l-1, c
	} else if line > 0 {
		e.Line = firstLine + line - 1
		e.Col = firstNonBlank(text, line)
	}
	return e
}

// locateBudget is the bytes locateYAMLError parses from the text's start
// before it looks near the line the YAML library named instead, and
// maxLocate the bytes it parses in all before it gives up.
const (
	locateBudget = 64 << 10
	maxLocate    = 16 << 20
)

// locateYAMLError places the YAML problem msg (the text's own error,
// without "yaml: line N:") at its line and column (in runes, from 1).
// The YAML library gives only a line, and not always the problem's own
// (the line before it for a parser's problem, the end of the text for a
// quote that is never closed, none on the first line), and no column. The
// problem is where the text first fails with it: the last character of the
// shortest prefix that fails with the same message, such as the quote that
// opens a string never closed or the second colon of "model: a: b"; for a
// flow collection that is never closed, its [ or {. ok is false when only
// the whole text fails so, or the search costs more than maxLocate bytes
// of parsing. The search starts at the text's start; when that has cost
// locateBudget bytes of parsing (a problem far down a long front matter),
// it goes on from the line before reported, the line the YAML library
// named, unless the text already fails so there (the library named a line
// after the problem's).
func locateYAMLError(text, msg string, reported int) (line, col int, ok bool) {
	if name, found := strings.CutPrefix(msg, "unknown anchor '"); found {
		if i := strings.Index(text, "*"+strings.TrimSuffix(name, "' referenced")); i >= 0 {
			line, col = textpos.LineCol(text, i)
			return line, col, true
		}
	}
	spent, jumped, first := 0, false, false
	for p := 0; p < len(text); {
		if spent > maxLocate {
			return 0, 0, false
		}
		if spent > locateBudget && !jumped {
			jumped, first = true, true
			start := 0
			for l := 1; l < reported-1; l++ {
				_, next, ok := textpos.LineBreak(text[start:])
				if !ok {
					break
				}
				start += next
			}
			p = max(p, start)
		}
		_, size := utf8.DecodeRuneInString(text[p:])
		p += size
		spent += p
		var n yaml.Node
		err := yaml.Unmarshal([]byte(text[:p]), &n)
		wasFirst := first
		first = false
		if err == nil {
			continue
		}
		_, got := yamljson.ErrorLine(err)
		if got != msg {
			continue
		}
		if p == len(text) || wasFirst {
			return 0, 0, false
		}
		at := p - size
		if strings.HasPrefix(msg, "did not find expected ',' or ") {
			// the first item of a flow collection never closed: its
			// opening bracket is the problem
			if j := len(strings.TrimRight(text[:at], " \t\r\n")) - 1; j >= 0 && (text[j] == '[' || text[j] == '{') {
				at = j
			}
		}
		line, col = textpos.LineCol(text, at)
		return line, col, true
	}
	return 0, 0, false
}

// addExt records a key with a dot in Ext, grouped as Dotprompt groups it
// (see FrontMatter.Ext); a key without one is in Raw only.
func (fm *FrontMatter) addExt(key string, v *yaml.Node) error {
	i := strings.LastIndexByte(key, '.')
	if i < 0 {
		return nil
	}
	var val any
	if err := v.Decode(&val); err != nil {
		return err
	}
	ns, field := key[:i], key[i+1:]
	if fm.Ext == nil {
		fm.Ext = map[string]map[string]any{}
	}
	if fm.Ext[ns] == nil {
		fm.Ext[ns] = map[string]any{}
	}
	fm.Ext[ns][field] = yamljson.Value(val)
	return nil
}

// schemaReader reads the schemas of one front matter with package schema,
// whose errors it places in the file.
type schemaReader struct {
	named map[string]json.RawMessage
	errAt nodeErr
}

// err turns a *schema.Error, positioned in the front matter's YAML, into an
// *Error positioned in the file.
func (sc schemaReader) err(err error) error {
	var se *schema.Error
	if !errors.As(err, &se) {
		return err
	}
	return sc.errAt(&yaml.Node{Line: se.Line, Column: se.Col}, "%s", se.Msg)
}

// parseInput reads input: schema and default.
func parseInput(fm *FrontMatter, n *yaml.Node, sc schemaReader) error {
	var defaults *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "schema":
			s, js, err := schema.Parse(v, sc.named)
			if err != nil {
				return sc.err(err)
			}
			inFile(s, fm.Line-1)
			fm.Input, fm.InputSchema = s, js
		case "default":
			if v.Kind != yaml.MappingNode {
				return sc.errAt(v, "input.default must be a mapping of variable names to values")
			}
			if err := v.Decode(&fm.Defaults); err != nil {
				return sc.errAt(v, "input.default: %v", err)
			}
			for k, x := range fm.Defaults {
				fm.Defaults[k] = yamljson.Value(x)
			}
			defaults = v
		default:
			return sc.errAt(k, "input has no key %q; expected schema or default", k.Value)
		}
	}
	return checkDefaults(fm, defaults, sc.errAt)
}

// inFile moves the positions of a schema read from the front matter's YAML
// down by the lines above it, to file lines.
func inFile(s *schema.Schema, lines int) {
	if s == nil {
		return
	}
	s.Line += lines
	for _, p := range s.Properties {
		inFile(p, lines)
	}
	inFile(s.Items, lines)
}

// checkDefaults checks each declared default against the schema of its
// input, so that a default of the wrong type is a front-matter error at the
// default, not a render error.
func checkDefaults(fm *FrontMatter, defaults *yaml.Node, errAt nodeErr) error {
	if fm.Input == nil || defaults == nil {
		return nil
	}
	for i := 0; i+1 < len(defaults.Content); i += 2 {
		k, v := defaults.Content[i], defaults.Content[i+1]
		p := fm.Input.Properties[k.Value]
		if p == nil && fm.Input.Additional {
			continue // the wildcard takes it
		}
		if p == nil {
			fm.doubts = append(fm.doubts, errAt(k, "input.default %q is not an input of the schema (declared: %s)", k.Value, strings.Join(fm.Input.Order, ", ")))
			continue
		}
		var ie *schema.InputError
		if errors.As(p.Check(k.Value, fm.Defaults[k.Value]), &ie) {
			return errAt(v, "input.default %q %s", ie.Name, ie.Msg)
		}
	}
	return nil
}

// dotpromptFormats are the output formats Dotprompt (Genkit) knows;
// rolemark's requests take text and json.
var dotpromptFormats = []string{"json", "text", "media", "array", "enum", "jsonl"}

// nearFormat returns the format of dotpromptFormats that f, which is none
// of them, misspells: the same but for case ("JSON"; Genkit looks formats
// up as written), or one edit away ("jsn", "txt"). "" when f is
// one of them, or far from all: a custom format, which Genkit's
// defineFormat registers under any name ("csv").
func nearFormat(f string) string {
	if slices.Contains(dotpromptFormats, f) {
		return ""
	}
	low := strings.ToLower(f)
	for _, k := range dotpromptFormats {
		if low == k {
			return k
		}
	}
	for _, k := range dotpromptFormats {
		if typo.OneEdit(low, k) {
			return k
		}
	}
	return ""
}

// parseOutput reads output.format and compiles output.schema.
func parseOutput(fm *FrontMatter, n *yaml.Node, sc schemaReader) error {
	if f := yamljson.MappingValue(n, "format"); f != nil {
		if f.Kind != yaml.ScalarNode {
			return sc.errAt(f, "output.format must be a string, such as json or text")
		}
		fm.OutputFormat = f.Value
		if near := nearFormat(f.Value); near != "" {
			fm.doubts = append(fm.doubts, sc.errAt(f, "output.format %q is none of %s; did you mean %q?", f.Value, strings.Join(dotpromptFormats, ", "), near))
		}
	}
	if s := yamljson.MappingValue(n, "schema"); s != nil {
		js, err := schema.Compile(s, sc.named)
		if err != nil {
			return sc.err(err)
		}
		fm.OutputSchema = js
	}
	return nil
}

func asError(err error, target **Error) bool {
	e, ok := err.(*Error)
	if ok {
		*target = e
	}
	return ok
}

func firstNonBlank(text string, line int) int {
	lines := strings.Split(text, "\n")
	if line < 1 || line > len(lines) {
		return 1
	}
	l := lines[line-1]
	return 1 + len(l) - len(strings.TrimLeft(l, " \t"))
}

type nodeErr func(n *yaml.Node, format string, args ...any) error

// decodeTools reads a list of tools: OpenAI function tools, bare function
// definitions, Dotprompt's toolDefs form (inputSchema for parameters), or
// the name of a tool registered with the Tools option (Dotprompt's tools:
// [getWeather]) when byName (tools:, not toolDefs:).
func decodeTools(v *yaml.Node, byName bool, registered map[string]chat.Tool, errAt nodeErr) ([]chat.Tool, error) {
	if v.Kind != yaml.SequenceNode {
		if byName {
			return nil, errAt(v, "tools must be a list of tool names or definitions")
		}
		return nil, errAt(v, "toolDefs must be a list of tool definitions")
	}
	var tools []chat.Tool
	for _, item := range v.Content {
		if item.Kind == yaml.ScalarNode && item.Tag == "!!str" && byName {
			t, ok := registered[item.Value]
			if !ok {
				return nil, errAt(item, "%s", unknownTool(item.Value, registered))
			}
			tools = append(tools, t)
			continue
		}
		if item.Kind != yaml.MappingNode {
			if byName {
				return nil, errAt(item, "a tool must be the name of a registered tool or a mapping with name, description and parameters")
			}
			return nil, errAt(item, "a tool definition must be a mapping with name, description and inputSchema")
		}
		var m map[string]any
		if err := item.Decode(&m); err != nil {
			return nil, errAt(item, "tool: %v", err)
		}
		if f, ok := m["function"].(map[string]any); ok {
			m = f
		}
		if s, ok := m["inputSchema"]; ok && m["parameters"] == nil {
			m["parameters"] = s
		}
		b, err := json.Marshal(yamljson.Value(m))
		if err != nil {
			return nil, errAt(item, "tool: %v", err)
		}
		var t chat.Tool
		if err := json.Unmarshal(b, &t); err != nil {
			return nil, errAt(item, "tool: %v", err)
		}
		if p := toolParams(item); p != nil {
			if ordered, ok := yamljson.Ordered(p); ok {
				t.Parameters = ordered
			}
		}
		tools = append(tools, t)
	}
	return tools, nil
}

// unknownTool says that a tool named in front matter is not registered, and
// which are.
func unknownTool(name string, registered map[string]chat.Tool) string {
	if len(registered) == 0 {
		return fmt.Sprintf("unknown tool %q: no tools are registered (engine.Tools; rolemark --tools FILE)", name)
	}
	known := make([]string, 0, len(registered))
	for n := range registered {
		known = append(known, n)
	}
	sort.Strings(known)
	return fmt.Sprintf("unknown tool %q; registered: %s", name, strings.Join(known, ", "))
}

// toolParams returns the node of a tool's parameters (or Dotprompt's
// inputSchema), in the tool itself or in its function, or nil.
func toolParams(item *yaml.Node) *yaml.Node {
	if f := yamljson.MappingValue(item, "function"); f != nil && f.Kind == yaml.MappingNode {
		item = f
	}
	p := yamljson.MappingValue(item, "parameters")
	if p == nil || p.Tag == "!!null" {
		p = yamljson.MappingValue(item, "inputSchema")
	}
	if p == nil || p.Tag == "!!null" {
		return nil
	}
	return p
}
