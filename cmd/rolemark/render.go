package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/rolemark/rolemark/chat"
	chatformat "github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/internal/caserun"
	"github.com/rolemark/rolemark/internal/jsondata"
	"github.com/rolemark/rolemark/internal/textpos"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
	"github.com/rolemark/rolemark/roleparse"
	"github.com/rolemark/rolemark/tokens"
)

// newSet returns the set of every engine rolemark ships.
func newSet() *engine.Set {
	return engine.NewSet(handlebars.New(), jinja.New(), pongo2.New(), gotmpl.New())
}

// varsFlag collects repeated --var k=v flags, the values as text.
type varsFlag map[string]any

func (v varsFlag) String() string { return "" }

func (v varsFlag) Set(s string) error {
	return setVar(v, "--var", s, func(_, val string) (any, error) { return val, nil })
}

// setVar sets the variable of k=v, the text s of the repeated flag name,
// in m to value(k, v).
func setVar(m map[string]any, name, s string, value func(k, v string) (any, error)) error {
	k, val, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("%s takes key=value, not %q", name, s)
	}
	x, err := value(k, val)
	if err != nil {
		return err
	}
	m[k] = x
	return nil
}

// renderFlags are render's flags, each where its flag.FlagSet writes it.
type renderFlags struct {
	engineName, varsFile, history, format, model *string
	root, dataFile, schemasFile, variant, count  *string
	maxTokens                                    *int
	vars                                         varsFlag
	po                                           promptOptions
}

// newRenderFlags declares render's flags, in the order its help lists
// them.
func newRenderFlags() (*flag.FlagSet, *renderFlags) {
	fl := newFlags("render")
	r := &renderFlags{vars: varsFlag{}}
	r.engineName = fl.String("engine", "", "engine `E` (default: by file extension)")
	r.varsFile = fl.String("vars", "", "variables from a JSON object in `FILE`")
	r.history = fl.String("history", "", "prior messages, an OpenAI messages array in `FILE`")
	r.format = fl.String("format", "openai", "output format `F`")
	r.model = fl.String("model", "", "model `M` of --format openai-request or anthropic-request (default: the front matter's model)")
	r.root = fl.String("root", "", "prompt directory `DIR` whose partials the template may use from a subdirectory (as check and LoadDir do)")
	r.dataFile = fl.String("data", "", "@-variables from a JSON object in `FILE` (Dotprompt's context: {\"state\": …} for {{@state.x}})")
	r.schemasFile = fl.String("schemas", "", "named schemas the front matter may use, a JSON object of name to JSON Schema in `FILE`")
	r.variant = fl.String("variant", "", "render variant `V` of a Dotprompt file: bank.formal.prompt for bank.prompt and --variant formal")
	r.count = fl.String("count", "", "print only the number of tokens of the rendered prompt for tokenizer `T`: o200k_base or cl100k_base (messages with OpenAI's per-message overhead, or the text of a chat --format), or a tokenizer.json file (the text of a chat --format)")
	r.maxTokens = fl.Int("max-tokens", 0, "keep only the newest --history messages that fit `N` tokens of --count's tokenizer (default o200k_base), a tool call with its results, system messages always; what is dropped is reported on standard error")
	fl.Var(r.vars, "var", "variable `k=v` (repeatable)")
	addPromptFlags(fl, &r.po)
	return fl, r
}

func cmdRender(ctx context.Context, sio stdio, args []string) error {
	stdin := sio.in
	fl, r := newRenderFlags()
	operands, err := parseArgs(fl, args)
	if err != nil {
		return err
	}
	engineName, varsFile, history, format, root, dataFile, schemasFile, variant, count, maxTokens := r.engineName, r.varsFile, r.history, r.format, r.root, r.dataFile, r.schemasFile, r.variant, r.count, r.maxTokens
	vars, po := r.vars, r.po
	if len(operands) > 1 {
		return usageErr("render takes one template, not %d: %s", len(operands), strings.Join(operands, " "))
	}
	if err := checkFormat(*format, true); err != nil {
		return err
	}
	if err := po.check(*format); err != nil {
		return err
	}
	tk, budgetTk, err := renderTokenizers(*count, *format, *maxTokens)
	if err != nil {
		return err
	}
	set, fileTools, err := renderSet(&po, *schemasFile, *engineName)
	if err != nil {
		return err
	}
	allVars := map[string]any{}
	if *varsFile != "" {
		if err := readDataFile(*varsFile, &allVars); err != nil {
			return err
		}
	}
	for k, v := range vars {
		allVars[k] = v
	}
	opts, err := renderOptions(*history, *dataFile)
	if err != nil {
		return err
	}
	name := ""
	if len(operands) == 1 {
		name = operands[0]
	}
	tpl, renamed, err := loadTemplate(set, stdin, name, *engineName, *root, *variant)
	if err != nil {
		return renamed(err)
	}
	if name == "" && *varsFile == "" && len(vars) == 0 {
		// the built-in example renders with its own variables
		b, _ := fs.ReadFile(exampleFS, "example/bank.json")
		if err := jsondata.Unmarshal(b, &allVars); err != nil {
			return err
		}
	}
	typeVars(tpl.FrontMatter(), vars, allVars)
	// A chat format shows the tools the front matter declares (or names);
	// for a template that declares none, those of --tools.
	tools := fileTools
	if fm := tpl.FrontMatter(); fm != nil && len(fm.Tools) > 0 {
		tools = fm.Tools
	}
	var trimmed engine.Trimmed
	if *maxTokens > 0 {
		count := func(msgs []chat.Message) int {
			n, _ := countTokens(ctx, budgetTk, msgs, *format, tools, &po)
			return n
		}
		opts = append(opts, engine.HistoryBudget(*maxTokens, count, &trimmed))
	}
	msgs, err := tpl.Messages(ctx, allVars, opts...)
	if err != nil {
		return renamed(err)
	}
	return writeRendered(ctx, sio, name, msgs, tpl.FrontMatter(), tools, &trimmed, tk, r)
}

// renderSet is the set of engines render uses: with --schemas' named
// schemas and --tools' tools, which front matter may name; --engine
// must name one of its engines.
func renderSet(po *promptOptions, schemasFile, engineName string) (*engine.Set, []chat.Tool, error) {
	set := newSet()
	if schemasFile != "" {
		var schemas map[string]json.RawMessage
		if err := readJSONFile(schemasFile, &schemas); err != nil {
			return nil, nil, err
		}
		set.Option(engine.Schemas(schemas))
	}
	// The tools of --tools are the ones front matter may name (tools:
	// [get_weather]), as a program registers them with engine.Tools.
	fileTools, err := po.tools(nil)
	if err != nil {
		return nil, nil, err
	}
	set.Option(engine.Tools(fileTools...))
	if err := knownEngine(set, engineName); err != nil {
		return nil, nil, err
	}
	return set, fileTools, nil
}

// renderTokenizers loads --count's tokenizer (nil without it) and the
// one --max-tokens counts with: --count's, else o200k_base.
func renderTokenizers(count, format string, maxTokens int) (tk, budgetTk *tokens.Tokenizer, err error) {
	if count != "" {
		if tk, err = loadTokenizer(count, format); err != nil {
			return nil, nil, err
		}
	}
	if maxTokens < 0 {
		return nil, nil, usageErr("--max-tokens takes a positive number, not %d", maxTokens)
	}
	budgetTk = tk
	if maxTokens > 0 && budgetTk == nil {
		if budgetTk, err = loadTokenizer("o200k_base", format); err != nil {
			return nil, nil, err
		}
	}
	return tk, budgetTk, nil
}

// writeRendered reports what --max-tokens dropped and writes the
// rendered messages as --count, --format and --model ask.
func writeRendered(ctx context.Context, sio stdio, name string, msgs []chat.Message, fm *engine.FrontMatter, tools []chat.Tool, trimmed *engine.Trimmed, tk *tokens.Tokenizer, r *renderFlags) error {
	stdout, format, model, maxTokens, po := sio.out, r.format, r.model, r.maxTokens, &r.po
	if *maxTokens > 0 {
		if len(trimmed.Dropped) > 0 {
			fmt.Fprintf(sio.err, "rolemark: --max-tokens %d: dropped the %d oldest history message(s); %d tokens remain\n", *maxTokens, len(trimmed.Dropped), trimmed.Tokens)
		}
		if trimmed.Over {
			fmt.Fprintf(sio.err, "rolemark: --max-tokens %d: %d tokens with no history message left to drop\n", *maxTokens, trimmed.Tokens)
		}
	}
	if tk != nil {
		n, err := countTokens(ctx, tk, msgs, *format, tools, po)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(stdout, n)
		return err
	}
	if *format == "openai-request" || *format == "anthropic-request" {
		err := writeRequest(stdout, *format, fm, *model, msgs)
		var re *chat.RequestError
		if errors.As(err, &re) {
			return inSettings(name, fm, *model, err)
		}
		return inFile(name, err)
	}
	return inFile(name, writeMessages(ctx, stdout, msgs, *format, tools, po))
}

// renderOptions reads --history and --data into render options.
func renderOptions(history, dataFile string) ([]engine.RenderOption, error) {
	var opts []engine.RenderOption
	if history != "" {
		h, err := readHistory(history)
		if err != nil {
			return nil, err
		}
		opts = append(opts, engine.History(h))
	}
	if dataFile != "" {
		var data map[string]any
		if err := readDataFile(dataFile, &data); err != nil {
			return nil, err
		}
		opts = append(opts, engine.Data(data))
	}
	return opts, nil
}

// loadTemplate parses the template render names: the built-in example for
// no name, standard input for "-", else the file, whose partials are read
// beside it, and in each parent up to root when root is set. renamed
// puts the name as given on the command line into an error of the
// template's.
func loadTemplate(set *engine.Set, stdin io.Reader, name, engineName, root, variant string) (tpl *engine.Template, renamed func(error) error, err error) {
	renamed = func(err error) error { return err }
	if variant != "" && (name == "" || name == "-") {
		return nil, renamed, usageErr("--variant needs a template file: it reads the file NAME.%s.prompt beside NAME.prompt", variant)
	}
	switch name {
	case "":
		tpl, err = set.ParseFS(exampleFS, "example/bank.tmpl")
	case "-":
		src, rerr := io.ReadAll(stdin)
		if rerr != nil {
			return nil, renamed, rerr
		}
		tpl, err = set.Parse(engineName, "-", string(src))
		if errors.Is(err, engine.ErrNoEngine) {
			return nil, renamed, usageErr("reading a template from standard input needs --engine or an engine: key in its front matter")
		}
	default:
		opts := []engine.FileOption{engine.UseEngine(engineName), engine.Variant(variant)}
		var fsys fs.FS
		var rel string
		if root == "" {
			fsys, rel = templateFS(name)
		} else {
			r, rerr := filepath.Rel(root, name)
			if rerr != nil || !fs.ValidPath(filepath.ToSlash(r)) {
				return nil, renamed, usageErr("template %s is not inside --root %s", name, root)
			}
			fsys, rel = os.DirFS(root), filepath.ToSlash(r)
			opts = append(opts, engine.PartialRoot("."))
		}
		tpl, err = set.ParseFS(fsys, rel, opts...)
		err = engineHint(set, rel, engineName, err)
		renamed = func(err error) error {
			err = caserun.RenameTemplate(err, engine.VariantFile(rel, variant), engine.VariantFile(filepath.ToSlash(name), variant))
			if root == "" {
				err = rootHint(err)
			}
			return err
		}
	}
	return tpl, renamed, err
}

// engineHint adds to ParseFS's error for file rel, when no engine claims
// its extension and neither --engine (engineName) nor the front matter
// names one, how to name one: a new user's prompt.txt.
func engineHint(set *engine.Set, rel, engineName string, err error) error {
	if err == nil || engineName != "" {
		return err
	}
	var ee *engine.Error
	if _, extErr := set.EngineFor(rel); extErr != nil && errors.As(err, &ee) && ee.Line == 0 {
		// (a problem of the front matter, an unknown engine: included, has a line)
		return fmt.Errorf("%w (pass --engine E, or write engine: in its front matter; rolemark engines lists them)", err)
	}
	return err
}

// rootHint adds to a partial that was not found, in a template rendered
// without --root, that one of a parent directory needs it: a file rendered
// alone sees its own directory's partials, where check, LoadDir and the
// preview look up to the prompt directory.
func rootHint(err error) error {
	var pe *driver.PartialError
	if errors.As(err, &pe) && errors.Is(pe.Err, fs.ErrNotExist) && len(pe.Tried) > 0 {
		return fmt.Errorf("%w (a partial of a parent directory needs --root DIR, the prompt directory)", err)
	}
	return err
}

// inFile prefixes an error that has no place in the file (a format or a
// request body refusing the messages) with the file's name, so that every
// problem of an input starts FILE: as DESIGN.md's command line says. A
// usage error, the built-in example's (no name) and a chat template's
// error, which names the chat template's own file, are left as they are.
func inFile(name string, err error) error {
	var u errUsage
	var te *chattemplate.TemplateError
	if err == nil || name == "" || errors.As(err, &u) || errors.As(err, &te) {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// inSettings names the file of a *chat.RequestError, a setting of the
// request the front matter declares that the target cannot carry, and the
// line and column where the front matter writes that setting
// (FrontMatter.SettingPos): FILE:LINE:COL: message. A model given by a
// flag (modelFlag) is not the front matter's, and is not placed there.
// Other errors are returned as they are.
func inSettings(name string, fm *engine.FrontMatter, modelFlag string, err error) error {
	var re *chat.RequestError
	if name == "" || !errors.As(err, &re) {
		return err
	}
	if line, col, ok := fm.SettingPos(re.Field); ok && (re.Field != "model" || modelFlag == "") {
		return fmt.Errorf("%s:%d:%d: %w", name, line, col, err)
	}
	return fmt.Errorf("%s: %w", name, err)
}

// wireFormat reports whether format is one of the formats that are not the
// text a model reads.
func wireFormat(format string) bool {
	switch format {
	case "openai", "anthropic", "markup", "openai-request", "anthropic-request":
		return true
	}
	return false
}

// countTokens counts the tokens of the rendered prompt. For a chat format
// (chatml, llama3, hf:FILE, ...) it is the tokens of the text the format
// renders, special tokens read as such; for the wire formats it is
// OpenAI's count of the messages (tokens.CountChat).
func countTokens(ctx context.Context, tk *tokens.Tokenizer, msgs []chat.Message, format string, tools []chat.Tool, po *promptOptions) (int, error) {
	if wireFormat(format) {
		return tokens.CountChat(tk, msgs), nil
	}
	var text bytes.Buffer
	if err := writeMessages(ctx, &text, msgs, format, tools, po); err != nil {
		return 0, err
	}
	return tk.Count(text.String()), nil
}

// loadTokenizer returns one of OpenAI's encodings by name, or reads a
// tokenizer.json (gzipped when its name ends in .gz), which counts only
// the text of a chat format: OpenAI's per-message overhead is OpenAI's.
func loadTokenizer(name, format string) (*tokens.Tokenizer, error) {
	if slices.Contains(tokens.Encodings(), name) {
		return tokens.OpenAI(name)
	}
	if !strings.HasSuffix(name, ".json") && !strings.HasSuffix(name, ".json.gz") {
		return nil, usageErr("--count takes %s or a tokenizer.json file, not %q", strings.Join(tokens.Encodings(), ", "), name)
	}
	if wireFormat(format) {
		return nil, usageErr("--count %s counts the text of a chat format: pass --format with one (rolemark formats lists them)", name)
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, err
	}
	return tokens.LoadHFFile(os.DirFS(filepath.Dir(abs)), filepath.Base(abs))
}

// writeRequest prints a whole request body for format openai-request or
// anthropic-request: chat.OpenAIBody or chat.AnthropicBody of the messages
// and the front matter's settings, with the model of --model when given. A
// request needs a model; what the target cannot carry is an error.
func writeRequest(w io.Writer, format string, fm *engine.FrontMatter, model string, msgs []chat.Message) error {
	s := fm.Settings()
	if model != "" {
		s.Model = model
	}
	if s.Model == "" {
		return usageErr("--format %s needs a model: write model: in the template's front matter or pass --model", format)
	}
	build := chat.OpenAIBody
	if format == "anthropic-request" {
		build = chat.AnthropicBody
	}
	body, err := build(msgs, s)
	if err != nil {
		return err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, body, "", "  "); err != nil {
		return err
	}
	out.WriteByte('\n')
	_, err = out.WriteTo(w)
	return err
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// typeVars reads --var values as JSON where the template declares a
// non-string type for them (--var n=5 for an integer input), so that a
// command line can supply numbers, booleans, lists and objects.
func typeVars(fm *engine.FrontMatter, flagVars, all map[string]any) {
	if fm == nil || fm.Input == nil {
		return
	}
	for name, v := range flagVars {
		p := fm.Input.Properties[name]
		s, isString := v.(string)
		if p == nil || !isString || p.Type == "string" || p.Type == "" {
			continue
		}
		var typed any
		if jsondata.Unmarshal([]byte(s), &typed) == nil {
			all[name] = typed
		}
	}
}

// templateFS returns a file system holding the named template file and the
// template's path in it: the current directory for a path below it, the
// file's own directory otherwise.
func templateFS(name string) (fs.FS, string) {
	if rel := filepath.ToSlash(filepath.Clean(name)); fs.ValidPath(rel) {
		return os.DirFS("."), rel
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		abs = name
	}
	return os.DirFS(filepath.Dir(abs)), filepath.Base(abs)
}

// engineNames lists the names of the set's engines.
func engineNames(set *engine.Set) []string {
	var names []string
	for _, e := range set.Engines() {
		names = append(names, e.Name())
	}
	return names
}

// checkFormat reports a usage error for a format that writeMessages cannot
// print, before any input is read, so that a bad flag is reported as one
// whatever the input holds. openai-request and anthropic-request need a template's front matter,
// so only render takes it.
func checkFormat(format string, render bool) error {
	switch format {
	case "openai", "anthropic", "markup":
		return nil
	case "openai-request", "anthropic-request":
		if render {
			return nil
		}
		return usageErr("format %s is for render only; parse takes openai, anthropic, markup or a chat format", format)
	}
	if _, ok, err := loadPromptFormat(format); err != nil || !ok {
		if err == nil {
			err = usageErr("unknown format %q; known: %s, hf:FILE (rolemark formats lists them)", format, strings.Join(formatNames(), ", "))
		}
		return err
	}
	return nil
}

func readJSONFile(name string, v any) error {
	return readJSON(name, v, json.Unmarshal)
}

// readDataFile reads the data of a template (--vars, --data), whose
// integers stay integers (internal/jsondata). A file of JSON null holds no
// values: *v is an empty map then, never nil, so that --var can add to it.
func readDataFile(name string, v *map[string]any) error {
	if err := readJSON(name, v, jsondata.Unmarshal); err != nil {
		return err
	}
	if *v == nil {
		*v = map[string]any{}
	}
	return nil
}

func readJSON(name string, v any, unmarshal func([]byte, any) error) error {
	b, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	b = dropBOM(b)
	if err := unmarshal(b, v); err != nil {
		return jsonFileError(name, b, err)
	}
	return nil
}

// jsonFileError names the file of a JSON error, and its line and column
// when encoding/json gives the offset.
func jsonFileError(name string, data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		line, col := jsonLineCol(data, se.Offset)
		return fmt.Errorf("%s:%d:%d: %w", name, line, col, err)
	case errors.As(err, &te):
		line, col := jsonLineCol(data, te.Offset)
		return fmt.Errorf("%s:%d:%d: %w", name, line, col, kindError{te})
	}
	return fmt.Errorf("%s: %w", name, err)
}

// kindError is a *json.UnmarshalTypeError said in JSON's words, "expected
// a JSON object, not an array", where encoding/json names the Go type it
// decodes into (map[string]interface {}, []chat.Tool, chat.wireMessage),
// which a user of the command never wrote.
type kindError struct{ te *json.UnmarshalTypeError }

func (e kindError) Error() string {
	var want string
	switch e.te.Type.Kind() {
	case reflect.Map, reflect.Struct:
		want = "a JSON object"
	case reflect.Slice, reflect.Array:
		want = "a JSON array"
	case reflect.String:
		want = "a string"
	case reflect.Bool:
		want = "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		want = "a number"
	default:
		return e.te.Error()
	}
	got := e.te.Value
	if strings.HasPrefix(got, "a") || strings.HasPrefix(got, "o") {
		got = "an " + got
	} else {
		got = "a " + got
	}
	if e.te.Field != "" {
		return fmt.Sprintf("%s: expected %s, not %s", e.te.Field, want, got)
	}
	return fmt.Sprintf("expected %s, not %s", want, got)
}

func (e kindError) Unwrap() error { return e.te }

// readHistory reads --history, an array of messages in the OpenAI form; an
// error in a message names the line and column where the message begins.
func readHistory(name string) ([]chat.Message, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	b = dropBOM(b)
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, jsonFileError(name, b, err)
	}
	msgs := make([]chat.Message, len(raw))
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.Token() // [, read above
	for i := range raw {
		start := int(dec.InputOffset())
		for start < len(b) && strings.IndexByte(" \t\r\n,", b[start]) >= 0 {
			start++
		}
		err := dec.Decode(&msgs[i])
		if err == nil {
			// what the markup cannot hold (a tool call in a user
			// message, a role alias), as the engine would refuse it
			var one string
			if one, err = roleparse.Marshal(msgs[i : i+1]); err == nil {
				_, err = roleparse.Parse(one) // a role the markup refuses
				var pe *roleparse.Error
				if errors.As(err, &pe) {
					err = errors.New(pe.Msg)
				}
			} else {
				err = errors.Unwrap(err) // not "message 1"
			}
		}
		if err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				err = kindError{te}
			}
			line, col := textpos.LineCol(string(b), start)
			return nil, fmt.Errorf("%s:%d:%d: message %d: %w", name, line, col, i+1, err)
		}
	}
	return msgs, nil
}

func cmdParse(ctx context.Context, sio stdio, args []string) error {
	stdin, stdout := sio.in, sio.out
	fl := newFlags("parse")
	format := fl.String("format", "openai", "output format `F`")
	var po promptOptions
	addPromptFlags(fl, &po)
	loose := fl.Bool("loose", false, "read text outside messages as Semantic Kernel does: before the first message a system message, after one a user message (roleparse.Loose)")
	operands, err := parseOperands(fl, args, 1, 1, "parse takes one markup file or -")
	if err != nil {
		return err
	}
	if err := checkFormat(*format, false); err != nil {
		return err
	}
	if err := po.check(*format); err != nil {
		return err
	}
	name := operands[0]
	src, err := readInput(name, stdin)
	if err != nil {
		return err
	}
	var opts []roleparse.Option
	if *loose {
		opts = append(opts, roleparse.Loose())
	}
	msgs, err := roleparse.ParseBytes(src, opts...)
	if err != nil {
		var pe *roleparse.Error
		if errors.As(err, &pe) {
			return fmt.Errorf("%s:%d:%d: %s", name, pe.Line, pe.Col, pe.Msg)
		}
		return err
	}
	tools, err := po.tools(nil)
	if err != nil {
		return err
	}
	return inFile(name, writeMessages(ctx, stdout, msgs, *format, tools, &po))
}

// writeMessages prints messages in the named format: a wire form, markup,
// or the prompt string of a local model's chat format (with the generation
// prompt and the given tools).
func writeMessages(ctx context.Context, w io.Writer, msgs []chat.Message, format string, tools []chat.Tool, po *promptOptions) error {
	var v any
	switch format {
	case "openai":
		if msgs == nil {
			msgs = []chat.Message{}
		}
		v = msgs
	case "anthropic":
		req, err := chat.ToAnthropic(msgs)
		if err != nil {
			return err
		}
		v = req
	case "markup":
		s, err := roleparse.Marshal(msgs)
		if err != nil {
			return err
		}
		_, err = io.WriteString(w, s)
		return err
	default:
		p, ok, err := loadPromptFormat(format, po.templateOptions()...)
		if err != nil {
			return err
		}
		if !ok {
			return usageErr("unknown format %q; known: %s, hf:FILE (rolemark formats lists them)", format, strings.Join(formatNames(), ", "))
		}
		s, err := p.render(ctx, msgs, tools, po)
		if err != nil {
			return err
		}
		_, err = io.WriteString(w, s)
		return err
	}
	return writeJSON(w, v)
}

// wireFormats are the formats that are not chat formats of local models.
var wireFormats = []struct{ name, desc string }{
	{"openai", "OpenAI chat-completions messages (JSON array)"},
	{"openai-request", "a whole chat-completions request: model, config, tools, tool choice, output and messages (render only)"},
	{"anthropic-request", "a whole Anthropic Messages request: model, max_tokens, config, tools, tool choice, output and messages (render only)"},
	{"anthropic", `Anthropic Messages API: {"system": …, "messages": […]}`},
	{"markup", "canonical rolemark markup"},
}

func formatNames() []string {
	var names []string
	for _, f := range wireFormats {
		names = append(names, f.name)
	}
	return append(names, chatformat.Names()...)
}

// noOperands parses the flags of the command name, which has none of
// its own, and refuses operands.
func noOperands(name string, args []string) error {
	_, err := parseOperands(newFlags(name), args, 0, 0, name+" takes no arguments")
	return err
}

func cmdFormats(_ context.Context, sio stdio, args []string) error {
	stdout := sio.out
	if err := noOperands("formats", args); err != nil {
		return err
	}
	// the names' column is as wide as the longest name, and two spaces
	width := len("hf:FILE")
	for _, f := range wireFormats {
		width = max(width, len(f.name))
	}
	for _, name := range chatformat.Names() {
		width = max(width, len(name))
	}
	for _, f := range wireFormats {
		fmt.Fprintf(stdout, "%-*s  %s\n", width, f.name, f.desc)
	}
	for _, name := range chatformat.Names() {
		f, _ := chatformat.Lookup(name)
		fmt.Fprintf(stdout, "%-*s  %s\n", width, name, f.Description)
	}
	fmt.Fprintf(stdout, "%-*s  %s\n", width, "hf:FILE", hfUsage)
	return nil
}

func cmdEngines(_ context.Context, sio stdio, args []string) error {
	stdout := sio.out
	if err := noOperands("engines", args); err != nil {
		return err
	}
	for _, e := range newSet().Engines() {
		fmt.Fprintf(stdout, "%-12s %s\n", e.Name(), strings.Join(e.Extensions(), " "))
	}
	return nil
}
