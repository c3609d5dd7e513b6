// Package cases reads and writes a prompt's test cases: the inputs an
// author keeps beside a prompt (bank.cases.yaml beside bank.prompt), with
// the result each gave when it was recorded. rolemark test renders them
// again and compares; rolemark serve shows and saves them. Reading and
// writing keep the file's comments and order. A problem of a file's text
// or of its prompt is an *engine.Error naming the file, and the line and
// column where it has them; a file that cannot be read or written is the
// fs or os error.
package cases

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/internal/yamljson"
)

// Ext ends the name of a file of test cases: bank.cases.yaml holds the
// cases of bank.prompt (or bank.hbs, bank.j2 …), beside it.
const Ext = ".cases.yaml"

// TemplateNames tells which file names are templates, by their extension;
// an *engine.Set is one. Read and FileFor use it to find the prompt a cases
// file belongs to.
type TemplateNames interface {
	IsTemplate(name string) bool
}

// Case is one test case of a prompt: inputs an author keeps, and the result
// they gave when it was recorded. In its file (see File) it is written
// as YAML:
//
//	cases:
//	  - name: a house
//	    inputs: {input: buy a house}
//	    messages:
//	      - role: system
//	        content: You are a bank manager.
//	      - role: user
//	        content: I want to buy a house.
type Case struct {
	// Name names the case; it is unique in its file.
	Name string
	// Variant chooses a Dotprompt variant of the prompt (engine.Variant).
	Variant string
	// Format, when set, names the format whose output is the result: a
	// chat format's prompt string (chatml, llama3 …) or markup; when empty,
	// the result is the messages.
	Format string
	// Inputs are the template's variables.
	Inputs map[string]any
	// History and Data are the render's engine.History and engine.Data
	// options.
	History []chat.Message
	Data    map[string]any
	// Want is the recorded result; nil when none is recorded yet.
	Want *Result
}

// Result is what a case renders to.
type Result struct {
	// Messages are the messages, for a case with no Format, written as
	// their OpenAI JSON (chat.Message's JSON form) in YAML.
	Messages []chat.Message
	// Text is the output of the case's Format.
	Text string
	// Error is the error's message, for a case whose render fails.
	Error string
}

// Equal reports whether two results are the same: the same messages as
// JSON, the same text, the same error.
func (r *Result) Equal(o *Result) bool {
	if r == nil || o == nil {
		return r == o
	}
	a, errA := r.node()
	b, errB := o.node()
	if errA != nil || errB != nil {
		return false
	}
	ya, _ := yamlText(a)
	yb, _ := yamlText(b)
	return ya == yb
}

// YAML returns the result as its file writes it: the messages, prompt or
// error key and its value.
func (r *Result) YAML() (string, error) {
	n, err := r.node()
	if err != nil {
		return "", err
	}
	return yamlText(n)
}

// resultKeys are the keys that hold a case's recorded result.
var resultKeys = []string{"messages", "prompt", "error"}

// node writes the result as a mapping of its one key.
func (r *Result) node() (*yaml.Node, error) {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	switch {
	case r.Error != "":
		m.Content = append(m.Content, textNode("error"), textNode(r.Error))
	case r.Messages != nil || r.Text == "":
		msgs := r.Messages
		if msgs == nil {
			msgs = []chat.Message{}
		}
		b, err := json.Marshal(msgs)
		if err != nil {
			return nil, err
		}
		v, err := jsonNode(b)
		if err != nil {
			return nil, err
		}
		m.Content = append(m.Content, textNode("messages"), v)
	default:
		m.Content = append(m.Content, textNode("prompt"), textNode(r.Text))
	}
	return m, nil
}

// File is a file of test cases of one prompt, beside it: a YAML
// mapping with the prompt's file name and a list of cases.
//
//	template: bank.prompt
//	cases:
//	  - name: a house
//	    inputs: {input: buy a house}
//	    messages: …
//	  - name: as ChatML
//	    format: chatml
//	    inputs: {input: buy a house}
//	    prompt: |
//	      <|im_start|>system
//	      …
//
// template may be left out when one template file of the directory has the
// cases file's name (bank.cases.yaml: bank.prompt, bank.hbs …). A case
// has name and inputs, and may have variant, format, history (OpenAI
// messages) and data; its recorded result is messages, prompt (the text of
// its format) or error. Record rewrites a result in place, keeping the
// rest of the file, comments included, as written.
type File struct {
	// Path is the file's name in its file system.
	Path string
	// Prompt is the prompt's file name in the same file system.
	Prompt string
	// Cases are the cases, in file order, as read. Add and Record change
	// them and the file's text together; Marshal and Save write the text,
	// so a case changed here only is not written.
	Cases []Case

	doc             yaml.Node
	nodes           []*yaml.Node // each case's mapping
	tplLine, tplCol int          // where the template key's value is
}

// Read reads the cases file name from fsys and finds its prompt, a
// template of tn beside it. Problems with its text or its prompt are
// *engine.Error values naming the file, line and column.
func Read(tn TemplateNames, fsys fs.FS, name string) (*File, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	f, err := parseCases(name, b)
	if err != nil {
		return nil, err
	}
	if err := f.findPrompt(fsys, tn); err != nil {
		return nil, err
	}
	return f, nil
}

// New returns an empty cases file at name for the prompt file
// prompt (both in one file system; the file records the prompt relative to
// its own directory).
func New(name, prompt string) *File {
	f := &File{Path: name, Prompt: prompt}
	f.doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{
		textNode("template"), textNode(relTo(path.Dir(name), prompt)),
		textNode("cases"), {Kind: yaml.SequenceNode, Tag: "!!seq"},
	}}}}
	return f
}

func relTo(dir, p string) string {
	if dir == "." {
		return p
	}
	return strings.TrimPrefix(p, dir+"/")
}

func parseCases(name string, b []byte) (*File, error) {
	f := &File{Path: name}
	errAt := func(n *yaml.Node, format string, args ...any) error {
		return &engine.Error{Template: name, Line: n.Line, Col: n.Column, Err: fmt.Errorf(format, args...)}
	}
	if err := yaml.Unmarshal(b, &f.doc); err != nil {
		line, msg := yamljson.ErrorLine(err)
		return nil, &engine.Error{Template: name, Line: line, Col: min(line, 1), Err: errors.New(msg)}
	}
	if len(f.doc.Content) == 0 {
		return nil, &engine.Error{Template: name, Err: errors.New("empty; a cases file is a mapping with template and cases")}
	}
	root := f.doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, errAt(root, "a cases file is a mapping with template and cases")
	}
	// a repeated key would be read last, and Add and Record would write
	// where it was first
	if k, first := yamljson.DuplicateKey(root); k != nil {
		return nil, errAt(k, "key %q is already defined at line %d", k.Value, first.Line)
	}
	var list *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "template":
			if v.Kind != yaml.ScalarNode || v.Value == "" {
				return nil, errAt(v, "template must be the prompt's file name")
			}
			f.Prompt, f.tplLine, f.tplCol = v.Value, v.Line, v.Column
		case "cases":
			if v.Kind != yaml.SequenceNode {
				return nil, errAt(v, "cases must be a list of cases")
			}
			list = v
		default:
			return nil, errAt(k, "unknown key %q; expected template or cases", k.Value)
		}
	}
	if list == nil {
		return nil, errAt(root, "no cases: key")
	}
	seen := map[string]int{}
	for _, n := range list.Content {
		c, err := parseCase(n, errAt)
		if err != nil {
			return nil, err
		}
		if line, dup := seen[c.Name]; dup {
			return nil, errAt(n, "case %q is also at line %d", c.Name, line)
		}
		seen[c.Name] = n.Line
		f.Cases = append(f.Cases, c)
		f.nodes = append(f.nodes, n)
	}
	return f, nil
}

// nodeErr makes the *engine.Error of a problem at a node.
type nodeErr func(n *yaml.Node, format string, args ...any) error

func parseCase(n *yaml.Node, errAt nodeErr) (Case, error) {
	var c Case
	if n.Kind != yaml.MappingNode {
		return c, errAt(n, "a case must be a mapping with name and inputs")
	}
	str := func(v *yaml.Node, key string, dst *string) error {
		if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
			return errAt(v, "%s must be a string", key)
		}
		*dst = v.Value
		return nil
	}
	fromJSON := func(v *yaml.Node, key string, dst any) error {
		// Decode, not a walk of the nodes: it refuses a document whose
		// aliases expand without bound (a billion laughs).
		var val any
		if err := v.Decode(&val); err != nil {
			return errAt(v, "%s: %v", key, err)
		}
		b, err := json.Marshal(yamljson.Value(val))
		if err != nil {
			return errAt(v, "%s cannot be read as JSON: %v", key, err)
		}
		if err := json.Unmarshal(b, dst); err != nil {
			return errAt(v, "%s: %v", key, err)
		}
		return nil
	}
	var result *yaml.Node // the key of the recorded result
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if isResultKey(k.Value) {
			if result != nil {
				return c, errAt(k, "%s and %s (line %d): a case records one result, messages, prompt or error", k.Value, result.Value, result.Line)
			}
			result = k
		}
		var err error
		switch k.Value {
		case "name":
			err = str(v, "name", &c.Name)
		case "variant":
			err = str(v, "variant", &c.Variant)
		case "format":
			err = str(v, "format", &c.Format)
		case "inputs":
			if v.Kind != yaml.MappingNode {
				return c, errAt(v, "inputs must be a mapping of variable names to values")
			}
			err = fromJSON(v, "inputs", &c.Inputs)
		case "data":
			if v.Kind != yaml.MappingNode {
				return c, errAt(v, "data must be a mapping")
			}
			err = fromJSON(v, "data", &c.Data)
		case "history":
			err = fromJSON(v, "history", &c.History)
		case "messages":
			c.Want = &Result{}
			err = fromJSON(v, "messages", &c.Want.Messages)
			if err == nil && c.Want.Messages == nil {
				c.Want.Messages = []chat.Message{}
			}
		case "prompt":
			c.Want = &Result{}
			err = str(v, "prompt", &c.Want.Text)
		case "error":
			c.Want = &Result{}
			err = str(v, "error", &c.Want.Error)
		default:
			err = errAt(k, "unknown key %q in a case; expected name, inputs, variant, format, history, data, messages, prompt or error", k.Value)
		}
		if err != nil {
			return c, err
		}
	}
	if c.Name == "" {
		return c, errAt(n, "a case needs a name")
	}
	return c, nil
}

// findPrompt resolves the file's prompt: its template key, relative to the
// file's directory, or the one template file named as the cases file is.
func (f *File) findPrompt(fsys fs.FS, tn TemplateNames) error {
	dir := path.Dir(f.Path)
	if f.Prompt != "" {
		p := path.Join(dir, f.Prompt)
		if path.IsAbs(f.Prompt) || !fs.ValidPath(p) {
			// path.Join would read /x.hbs as x.hbs, beside the file
			return &engine.Error{Template: f.Path, Line: f.tplLine, Col: f.tplCol, Err: fmt.Errorf("template %s: not a file under the directory read; name it relative to the cases file", f.Prompt)}
		}
		if _, err := fs.Stat(fsys, p); err != nil {
			return &engine.Error{Template: f.Path, Line: f.tplLine, Col: f.tplCol, Err: fmt.Errorf("template %s: %w", f.Prompt, err)}
		}
		f.Prompt = p
		return nil
	}
	base := strings.TrimSuffix(path.Base(f.Path), Ext)
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return err
	}
	var found []string
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() && tn.IsTemplate(n) && strings.TrimSuffix(n, path.Ext(n)) == base {
			found = append(found, n)
		}
	}
	switch len(found) {
	case 0:
		return &engine.Error{Template: f.Path, Err: fmt.Errorf("no template %s.* beside it; name one with a template: key", base)}
	case 1:
		f.Prompt = path.Join(dir, found[0])
		return nil
	}
	return &engine.Error{Template: f.Path, Err: fmt.Errorf("%s are all named %s; name one with a template: key", strings.Join(found, " and "), base)}
}

// Record sets the recorded result of case i, in the case and in the
// file's text, replacing the one recorded before. An i that is no case's
// index is an error.
func (f *File) Record(i int, r Result) error {
	if i < 0 || i >= len(f.nodes) {
		return &engine.Error{Template: f.Path, Err: fmt.Errorf("no case %d to record; the file has %d", i, len(f.nodes))}
	}
	rn, err := r.node()
	if err != nil {
		return err
	}
	n := f.nodes[i]
	kept := n.Content[:0:0]
	at := -1
	for j := 0; j+1 < len(n.Content); j += 2 {
		if isResultKey(n.Content[j].Value) {
			if at < 0 {
				at = len(kept)
			}
			continue
		}
		kept = append(kept, n.Content[j], n.Content[j+1])
	}
	if at < 0 {
		at = len(kept)
	}
	n.Content = append(kept[:at:at], append(rn.Content, kept[at:]...)...)
	f.Cases[i].Want = &r
	return nil
}

func isResultKey(k string) bool {
	for _, r := range resultKeys {
		if k == r {
			return true
		}
	}
	return false
}

// Put puts case c in the file's text, in memory: at the end, or in place
// of the case of the same name where it stands, with its recorded result
// (c.Want) when it has one. (The package's Add, which writes the file,
// refuses a name the file holds; Save, as Put, replaces it.)
func (f *File) Put(c Case) error {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	add := func(k string, v *yaml.Node) { n.Content = append(n.Content, textNode(k), v) }
	add("name", textNode(c.Name))
	if c.Variant != "" {
		add("variant", textNode(c.Variant))
	}
	if c.Format != "" {
		add("format", textNode(c.Format))
	}
	for _, kv := range []struct {
		key string
		v   any
		set bool
	}{{"inputs", c.Inputs, true}, {"history", c.History, len(c.History) > 0}, {"data", c.Data, len(c.Data) > 0}} {
		if !kv.set {
			continue
		}
		v := kv.v
		if m, ok := v.(map[string]any); ok && m == nil {
			v = map[string]any{}
		}
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("case %q: %s: %w", c.Name, kv.key, err)
		}
		vn, err := jsonNode(b)
		if err != nil {
			return err
		}
		add(kv.key, vn)
	}
	if c.Want != nil {
		rn, err := c.Want.node()
		if err != nil {
			return err
		}
		n.Content = append(n.Content, rn.Content...)
	}
	list := yamljson.MappingValue(f.doc.Content[0], "cases")
	for i := range f.Cases {
		if f.Cases[i].Name == c.Name {
			*f.nodes[i] = *n
			f.Cases[i] = c
			return nil
		}
	}
	// a block mapping in a flow list ([]) would make every case flow
	list.Style &^= yaml.FlowStyle
	list.Content = append(list.Content, n)
	f.nodes = append(f.nodes, n)
	f.Cases = append(f.Cases, c)
	return nil
}

// Marshal returns the file's text.
func (f *File) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&f.doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// FileFor returns the name of the cases file of the template file
// prompt: bank.cases.yaml for bank.prompt, or bank.prompt.cases.yaml when
// another template beside it is named bank too (bank.hbs). Variants have
// no file of their own: a case of bank.cases.yaml names its variant.
func FileFor(tn TemplateNames, fsys fs.FS, prompt string) string {
	if name, v := engine.SplitVariant(prompt); v != "" {
		prompt = name + path.Ext(prompt)
	}
	dir, file := path.Split(prompt)
	base := strings.TrimSuffix(file, path.Ext(file))
	entries, _ := fs.ReadDir(fsys, path.Clean(dir+"."))
	for _, e := range entries {
		n := e.Name()
		if n != file && !e.IsDir() && tn.IsTemplate(n) && strings.TrimSuffix(n, path.Ext(n)) == base {
			return prompt + Ext
		}
	}
	return dir + base + Ext
}

// ErrExists is what Add's error wraps (an *engine.Error naming the cases
// file) for a name the file already holds.
var ErrExists = errors.New("the cases file already has a case of this name")

// Save adds case c to the cases file of the template file prompt in the
// prompt directory dir on disk (replacing a case of the same name), making
// the file when there is none, and writes it with File.Save. It
// returns the file's path. It is for a program that edits prompts, to keep
// the inputs an author tried with the result they gave. Calls that write
// one file at once, from goroutines of one process, take turns, so that
// each keeps its case; another process writing the file at the same time
// is not held off.
func Save(tn TemplateNames, dir, prompt string, c Case) (string, error) {
	return save(dir, prompt, c, tn, true)
}

// Add is Save for a new case only: a case of the same name in the
// file is an error that wraps ErrExists, and the file is left as it
// was. rolemark serve --write-cases saves the studio's cases with it.
func Add(tn TemplateNames, dir, prompt string, c Case) (string, error) {
	return save(dir, prompt, c, tn, false)
}

func save(dir, prompt string, c Case, tn TemplateNames, replace bool) (string, error) {
	if c.Name == "" {
		return "", errors.New("a case needs a name")
	}
	base := prompt
	if n, v := engine.SplitVariant(prompt); v != "" {
		base = n + path.Ext(prompt)
		if c.Variant == "" {
			c.Variant = v
		}
	}
	fsys := os.DirFS(dir)
	name := FileFor(tn, fsys, base)
	// Reading the file, adding the case and writing it back is one step
	// for the writers of this process: two at once would each write the
	// file with their own case only.
	unlock := lockCasesFile(filepath.Join(dir, filepath.FromSlash(name)))
	defer unlock()
	f, err := Read(tn, fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		f, err = New(name, base), nil
	}
	if err != nil {
		return "", err
	}
	if !replace {
		for _, old := range f.Cases {
			if old.Name == c.Name {
				return "", &engine.Error{Template: name, Err: fmt.Errorf("case %q: %w", c.Name, ErrExists)}
			}
		}
	}
	if err := f.Put(c); err != nil {
		return "", err
	}
	return f.Save(dir)
}

// casesLocks holds a *sync.Mutex for each cases file Save or Add
// is writing, by absolute path; an entry stays once made (a program saves
// the cases of the few templates it edits).
var casesLocks sync.Map

// lockCasesFile locks the cases file at path for the calling goroutine and
// returns its unlock.
func lockCasesFile(path string) (unlock func()) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	m, _ := casesLocks.LoadOrStore(path, new(sync.Mutex))
	mu := m.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

// Save writes the file's text to its Path under the directory dir on disk
// and returns the file's path there. It writes a new file beside it and
// renames it over the old one, so that a reader never sees half a file,
// keeping the old file's permissions (0644 for a new one). It writes only
// inside dir: a Path that is not a local path, a directory reached through
// a symbolic link that leads out of dir, and a file that is itself a
// symbolic link are refused. rolemark test --update, Save and Add
// all write with it.
func (f *File) Save(dir string) (string, error) {
	b, err := f.Marshal()
	if err != nil {
		return "", err
	}
	if !fs.ValidPath(f.Path) || f.Path == "." {
		return "", &engine.Error{Template: f.Path, Err: fmt.Errorf("not a file under %s", dir)}
	}
	file := filepath.Join(dir, filepath.FromSlash(f.Path))
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	parent, err := filepath.EvalSymlinks(filepath.Dir(file))
	if err != nil {
		return "", err
	}
	if rel, err := filepath.Rel(root, parent); err != nil || !filepath.IsLocal(rel) {
		return "", &engine.Error{Template: f.Path, Err: fmt.Errorf("its directory leads out of %s through a symbolic link", dir)}
	}
	mode := fs.FileMode(0o644)
	if info, err := os.Lstat(file); err == nil {
		if info.Mode()&fs.ModeSymlink != 0 {
			return "", &engine.Error{Template: f.Path, Err: errors.New("a symbolic link; cases are written to regular files only")}
		}
		mode = info.Mode().Perm()
	}
	tmp, err := os.CreateTemp(parent, ".cases-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return "", err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(parent, filepath.Base(file))); err != nil {
		return "", err
	}
	return file, nil
}

func textNode(s string) *yaml.Node {
	n := &yaml.Node{}
	_ = n.Encode(s) // a string always encodes; Encode picks the style (| for lines)
	return n
}

// jsonNode turns JSON text into a YAML node, keeping the order of keys.
func jsonNode(b []byte) (*yaml.Node, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var walk func() (*yaml.Node, error)
	walk = func() (*yaml.Node, error) {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' {
				m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
				for dec.More() {
					k, err := dec.Token()
					if err != nil {
						return nil, err
					}
					v, err := walk()
					if err != nil {
						return nil, err
					}
					m.Content = append(m.Content, textNode(k.(string)), v)
				}
				_, err := dec.Token()
				return m, err
			}
			s := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
			for dec.More() {
				v, err := walk()
				if err != nil {
					return nil, err
				}
				s.Content = append(s.Content, v)
			}
			_, err := dec.Token()
			return s, err
		case string:
			return textNode(t), nil
		case json.Number:
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: numberTag(t), Value: t.String()}, nil
		case bool:
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(t)}, nil
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	}
	return walk()
}

func numberTag(n json.Number) string {
	if _, err := n.Int64(); err == nil {
		return "!!int"
	}
	return "!!float"
}

// yamlText writes a node as YAML with two-space indents.
func yamlText(n *yaml.Node) (string, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return b.String(), nil
}
