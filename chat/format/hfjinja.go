package format

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ardanlabs/jinja"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/internal/pyjson"
	"github.com/rolemark/rolemark/internal/textpos"
)

// The Jinja engine is github.com/ardanlabs/jinja (docs/decisions.md). What
// transformers' environment has and the engine does not is added here and
// in hfsource.go:
//
//   - Jinja2's lexer (whitespace control with trim_blocks and
//     lstrip_blocks, newline normalisation, keep_trailing_newline off,
//     Python string escapes) is applied to the source before the engine
//     sees it (prepareSource).
//   - tojson as transformers defines it (json.dumps with ensure_ascii=False
//     and its indent, separators and sort_keys), through internal/pyjson.
//     The engine looks its built-in filters up before the data, so the
//     source's tojson filters are renamed to a name the data supplies.
//   - raise_exception as an error that says it is the template's refusal;
//     strftime_now on the caller's clock; range bounded as Jinja2's sandbox
//     bounds it (MAX_RANGE, 100000 items).
//   - The data as ordered dicts, so that key order is the caller's.
//
// Where the engine would render something Jinja2 refuses (it joins a list,
// a dict or an undefined value to a string with '+' where Python raises),
// the template's code is inspected at compile time (sourceInfo) and a
// probe rendering settles whether this conversation takes that path
// (sourceInfo.check); such a rendering is refused. Constructs the engine
// cannot render as Jinja2 does are refused at compile time
// (unsupportedConstruct). Never a silently different string, on the corpus
// of testdata/hf.

const (
	tojsonName = "rolemark_tojson"
	trimName   = "rolemark_strip"
	lstripName = "rolemark_lstrip"
	rstripName = "rolemark_rstrip"
	maxRange   = 100000
)

// compiled is one chat template ready to render.
type compiled struct {
	jt   *jinja.Template
	info *sourceInfo
	// fast is the template compiled to closures (hfc_parse.go), when the
	// compiled path models all of it; fastInit are its starting slots.
	fast     *fastTemplate
	fastInit []value
}

// compileJinja compiles a chat template source.
func compileJinja(src string) (*compiled, *TemplateError) {
	if err := unsupportedConstruct(src); err != nil {
		return nil, err
	}
	prepared, info, err := prepareSource(src)
	if err != nil {
		return nil, err
	}
	if info.refused != "" {
		return nil, &TemplateError{Msg: "unsupported: " + info.refused}
	}
	jt, cerr := jinja.Compile(prepared)
	if cerr != nil {
		// The prepared source keeps the template's lines (prepareSource),
		// so the engine's line is the template's.
		te := &TemplateError{Msg: cerr.Error(), Err: cerr}
		if m := engineLineRe.FindStringSubmatch(cerr.Error()); m != nil {
			te.Line, _ = strconv.Atoi(m[1])
			if m[2] != "" {
				te.Col, _ = strconv.Atoi(m[2])
			}
		}
		return nil, te
	}
	c := &compiled{jt: jt, info: info}
	if ft, err := compileFast(info.events); err == nil {
		c.fast = ft
	}
	info.events = nil
	return c, nil
}

var engineLineRe = regexp.MustCompile(`line (\d+)(?:, col (\d+))?`)

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentChar(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

// unsupportedConstruct refuses templates that use what the engine would
// render differently from Jinja2.
func unsupportedConstruct(src string) *TemplateError {
	for _, u := range unsupported {
		if loc := u.re.FindStringIndex(src); loc != nil {
			line, col := textpos.LineCol(src, loc[0])
			return &TemplateError{Line: line, Col: col, Msg: "unsupported: " + u.why}
		}
	}
	return nil
}

var unsupported = []struct {
	re  *regexp.Regexp
	why string
}{
	// The engine hands keyword arguments over in a Go map, so dict()'s
	// keys would come out in random order.
	{regexp.MustCompile(`\bdict\(\s*\w+\s*=[^)]*,\s*\w+\s*=`), "dict() with several keyword arguments (key order)"},
}

// renderJinja renders jt with data; a raise_exception comes back as a
// *TemplateError with Raised set.
func renderJinja(jt *jinja.Template, data map[string]jinja.Value) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = "", &TemplateError{Msg: fmt.Sprintf("the engine failed: %v", r)}
		}
	}()
	return jt.RenderValues(data)
}

// data builds the template's variables as transformers passes them:
// messages, tools, documents, add_generation_prompt, the special tokens,
// the caller's variables, and the functions of its environment.
func (t *Template) data(ctx context.Context, msgs []chat.Message, opts Options) (map[string]jinja.Value, error) {
	d := make(map[string]jinja.Value, 10+len(t.tokens)+len(opts.Vars))
	for k, v := range t.tokens {
		d[k] = jinja.NewString(v)
	}
	for k, v := range opts.Vars {
		jv, err := goValue(v)
		if err != nil {
			return nil, &TemplateError{Template: t.name, Msg: "variable " + k + ": " + err.Error()}
		}
		d[k] = jv
	}
	mv, err := messagesValue(msgs)
	if err != nil {
		return nil, &TemplateError{Template: t.name, Msg: err.Error()}
	}
	d["messages"] = mv
	d["tools"] = jinja.None()
	if len(opts.Tools) > 0 {
		tv, err := t.toolsValue(opts.Tools)
		if err != nil {
			return nil, &TemplateError{Template: t.name, Msg: err.Error()}
		}
		d["tools"] = tv
	}
	d["documents"] = jinja.None()
	d["add_generation_prompt"] = jinja.NewBool(opts.AddGenerationPrompt)

	now := t.clock
	d["raise_exception"] = jinja.NewCallable("raise_exception", func(args []jinja.Value, _ map[string]jinja.Value) (jinja.Value, error) {
		msg := ""
		if len(args) > 0 {
			msg = pyStr(args[0])
		}
		return jinja.Undefined(), &TemplateError{Raised: true, Msg: msg}
	})
	d["strftime_now"] = jinja.NewCallable("strftime_now", func(args []jinja.Value, _ map[string]jinja.Value) (jinja.Value, error) {
		if len(args) != 1 || !args[0].IsString() {
			return jinja.Undefined(), fmt.Errorf("strftime_now takes one format string")
		}
		s, err := strftime(now(), args[0].AsString())
		return jinja.NewString(s), err
	})
	d["range"] = jinja.NewCallable("range", func(args []jinja.Value, _ map[string]jinja.Value) (jinja.Value, error) {
		if err := ctx.Err(); err != nil {
			return jinja.Undefined(), err
		}
		return pyRange(args)
	})
	d[tojsonName] = jinja.NewCallable("tojson", tojson)
	d[trimName] = jinja.NewCallable("strip", pyStrip(strings.TrimFunc))
	d[lstripName] = jinja.NewCallable("lstrip", pyStrip(strings.TrimLeftFunc))
	d[rstripName] = jinja.NewCallable("rstrip", pyStrip(strings.TrimRightFunc))
	return d, nil
}

// toolsCache is the last tool list a Template converted: a caller usually
// passes the same tools on every call, and converting their JSON Schemas
// is a third of a rendering's cost. Templates cannot change the values
// (the sandbox refuses .update() and attribute assignment outside
// namespaces), so renderings can share them.
type toolsCache struct {
	key string
	val jinja.Value
}

func (t *Template) toolsValue(tools []chat.Tool) (jinja.Value, error) {
	var key strings.Builder
	for _, tl := range tools {
		key.WriteString(tl.Name)
		key.WriteByte(0)
		key.WriteString(tl.Description)
		key.WriteByte(0)
		key.Write(tl.Parameters)
		key.WriteByte(1)
	}
	k := key.String()
	if c := t.tools.Load(); c != nil && c.key == k {
		return c.val, nil
	}
	v, err := toolsValue(tools)
	if err != nil {
		return v, err
	}
	t.tools.Store(&toolsCache{key: k, val: v})
	return v, nil
}

// tojson is transformers' tojson filter: json.dumps(x, ensure_ascii=False,
// indent=indent, separators=separators, sort_keys=sort_keys).
func tojson(args []jinja.Value, kwargs map[string]jinja.Value) (jinja.Value, error) {
	if len(args) == 0 {
		return jinja.Undefined(), fmt.Errorf("tojson: no value")
	}
	opts := []pyjson.Option{}
	// Positional arguments follow transformers' signature:
	// tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False).
	pos := args[1:]
	if len(pos) > 4 {
		return jinja.Undefined(), fmt.Errorf("tojson() takes from 1 to 5 positional arguments but %d were given", len(args))
	}
	params := [...]string{"ensure_ascii", "indent", "separators", "sort_keys"}
	get := func(name string) (jinja.Value, bool) { // by keyword or position
		if v, ok := kwargs[name]; ok {
			return v, true
		}
		i := slices.Index(params[:], name)
		if i < len(pos) {
			return pos[i], true
		}
		return jinja.Undefined(), false
	}
	for k := range kwargs {
		i := slices.Index(params[:], k)
		if i < 0 {
			return jinja.Undefined(), fmt.Errorf("tojson() got an unexpected keyword argument '%s'", k)
		}
		if i < len(pos) {
			return jinja.Undefined(), fmt.Errorf("tojson() got multiple values for argument '%s'", k)
		}
	}
	if v, ok := get("ensure_ascii"); ok && v.IsTruthy() {
		opts = append(opts, pyjson.EnsureASCII(true))
	}
	if v, ok := get("indent"); ok && !v.IsNone() && !v.IsUndefined() {
		switch {
		case v.IsInt():
			opts = append(opts, pyjson.Indent(int(v.AsInt())))
		case v.IsString():
			opts = append(opts, pyjson.IndentString(v.AsString()))
		default:
			return jinja.Undefined(), fmt.Errorf("tojson: indent must be an int or a string")
		}
	}
	if v, ok := get("separators"); ok && !v.IsNone() && !v.IsUndefined() {
		if !v.IsList() || v.AsList().Len() != 2 || !v.AsList().Get(0).IsString() || !v.AsList().Get(1).IsString() {
			return jinja.Undefined(), fmt.Errorf("tojson: separators must be two strings")
		}
		opts = append(opts, pyjson.Separators(v.AsList().Get(0).AsString(), v.AsList().Get(1).AsString()))
	}
	if v, ok := get("sort_keys"); ok && v.IsTruthy() {
		opts = append(opts, pyjson.SortKeys(true))
	}
	pv, err := pyValue(args[0], 0)
	if err != nil {
		return jinja.Undefined(), err
	}
	return jinja.NewString(pyjson.Dumps(pv, opts...)), nil
}

// pyStrip is Python's str.strip (lstrip, rstrip) and Jinja2's trim filter:
// white space as Python's str.isspace sees it, or the characters given.
func pyStrip(trim func(string, func(rune) bool) string) func([]jinja.Value, map[string]jinja.Value) (jinja.Value, error) {
	return func(args []jinja.Value, kwargs map[string]jinja.Value) (jinja.Value, error) {
		if len(args) == 0 {
			return jinja.Undefined(), fmt.Errorf("strip: no value")
		}
		s := pyStr(args[0])
		if args[0].IsUndefined() {
			s = ""
		}
		chars, ok := kwargs["chars"]
		if len(args) > 1 {
			chars, ok = args[1], true
		}
		if ok && chars.IsString() {
			set := chars.AsString()
			return jinja.NewString(trim(s, func(r rune) bool { return strings.ContainsRune(set, r) })), nil
		}
		return jinja.NewString(trim(s, pyIsSpace)), nil
	}
}

// pyValue converts a template value to what json.dumps serialises.
func pyValue(v jinja.Value, depth int) (pyjson.Value, error) {
	if depth > 500 {
		return pyjson.Value{}, fmt.Errorf("tojson: value nested too deeply")
	}
	switch {
	case v.IsNone():
		return pyjson.Value{Kind: pyjson.Null}, nil
	case v.IsBool():
		return pyjson.Value{Kind: pyjson.Bool, Bool: v.AsBool()}, nil
	case v.IsInt():
		return pyjson.Value{Kind: pyjson.Int, Int: strconv.FormatInt(v.AsInt(), 10)}, nil
	case v.IsFloat():
		return pyjson.Value{Kind: pyjson.Float, Float: v.AsFloat()}, nil
	case v.IsString():
		return pyjson.Value{Kind: pyjson.String, Str: v.AsString()}, nil
	case v.IsList():
		items := v.AsList().Items
		out := pyjson.Value{Kind: pyjson.Array, Items: make([]pyjson.Value, len(items))}
		for i, it := range items {
			pv, err := pyValue(it, depth+1)
			if err != nil {
				return pyjson.Value{}, err
			}
			out.Items[i] = pv
		}
		return out, nil
	case v.IsDict():
		d := v.AsDict()
		out := pyjson.Value{Kind: pyjson.Object, Keys: make([]string, len(d.Keys)), Items: make([]pyjson.Value, len(d.Keys))}
		for i, k := range d.Keys {
			pv, err := pyValue(d.Data[k], depth+1)
			if err != nil {
				return pyjson.Value{}, err
			}
			out.Keys[i], out.Items[i] = k, pv
		}
		return out, nil
	case v.IsUndefined():
		return pyjson.Value{}, fmt.Errorf("tojson: an undefined value is not JSON serializable")
	}
	return pyjson.Value{}, fmt.Errorf("tojson: a function is not JSON serializable")
}

// jinjaValue converts a JSON value read by pyjson to a template value.
func jinjaValue(v *pyjson.Value) (jinja.Value, error) {
	switch v.Kind {
	case pyjson.Null:
		return jinja.None(), nil
	case pyjson.Bool:
		return jinja.NewBool(v.Bool), nil
	case pyjson.Int:
		n, err := strconv.ParseInt(v.Int, 10, 64)
		if err != nil {
			return jinja.Undefined(), fmt.Errorf("integer %s does not fit 64 bits", v.Int)
		}
		return jinja.NewInt(n), nil
	case pyjson.Float:
		return jinja.NewFloat(v.Float), nil
	case pyjson.String:
		return jinja.NewString(v.Str), nil
	case pyjson.Array:
		items := make([]jinja.Value, len(v.Items))
		for i := range v.Items {
			jv, err := jinjaValue(&v.Items[i])
			if err != nil {
				return jinja.Undefined(), err
			}
			items[i] = jv
		}
		return jinja.NewList(items), nil
	case pyjson.Object:
		d := newDict(len(v.Keys))
		for i, k := range v.Keys {
			jv, err := jinjaValue(&v.Items[i])
			if err != nil {
				return jinja.Undefined(), err
			}
			d.AsDict().Set(k, jv)
		}
		return d, nil
	}
	return jinja.None(), nil
}

func newDict(n int) jinja.Value {
	d := jinja.NewDict()
	dd := d.AsDict()
	dd.Keys = make([]string, 0, n)
	return d
}

// goValue converts a caller's variable (a Go value) through its JSON form,
// so that any type encoding/json can write is accepted.
func goValue(v any) (jinja.Value, error) {
	switch x := v.(type) {
	case string:
		return jinja.NewString(x), nil
	case bool:
		return jinja.NewBool(x), nil
	case int:
		return jinja.NewInt(int64(x)), nil
	case nil:
		return jinja.None(), nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return jinja.Undefined(), err
	}
	pv, err := pyjson.Parse(raw)
	if err != nil {
		return jinja.Undefined(), err
	}
	return jinjaValue(&pv)
}

// pyStr is Python's str() of a value for raise_exception's message.
func pyStr(v jinja.Value) string {
	switch {
	case v.IsString():
		return v.AsString()
	case v.IsNone():
		return "None"
	}
	return v.String()
}

func pyRange(args []jinja.Value) (jinja.Value, error) {
	var n [3]int64
	for i, a := range args {
		if i >= 3 || !a.IsInt() {
			return jinja.Undefined(), fmt.Errorf("range() takes one to three integers")
		}
		n[i] = a.AsInt()
	}
	start, stop, step := int64(0), int64(0), int64(1)
	switch len(args) {
	case 1:
		stop = n[0]
	case 2:
		start, stop = n[0], n[1]
	case 3:
		start, stop, step = n[0], n[1], n[2]
	default:
		return jinja.Undefined(), fmt.Errorf("range expected at least 1 argument, got 0")
	}
	if step == 0 {
		return jinja.Undefined(), fmt.Errorf("range() arg 3 must not be zero")
	}
	var count int64
	if step > 0 && stop > start {
		count = (stop - start + step - 1) / step
	} else if step < 0 && stop < start {
		count = (start - stop - step - 1) / -step
	}
	if count > maxRange {
		return jinja.Undefined(), fmt.Errorf("range too big: the sandbox blocks ranges larger than %d items", maxRange)
	}
	items := make([]jinja.Value, count)
	for i := range items {
		items[i] = jinja.NewInt(start + int64(i)*step)
	}
	return jinja.NewList(items), nil
}

// strftime formats t with a Python strftime format (the C directives).
func strftime(t time.Time, format string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		pad := true
		if format[i] == '-' && i+1 < len(format) { // glibc: no padding
			pad = false
			i++
		}
		num := func(n, width int) {
			s := strconv.Itoa(n)
			if pad {
				for len(s) < width {
					s = "0" + s
				}
			}
			b.WriteString(s)
		}
		switch format[i] {
		case 'Y':
			num(t.Year(), 4)
		case 'y':
			num(t.Year()%100, 2)
		case 'm':
			num(int(t.Month()), 2)
		case 'd':
			num(t.Day(), 2)
		case 'e':
			s := strconv.Itoa(t.Day())
			if len(s) < 2 && pad {
				s = " " + s
			}
			b.WriteString(s)
		case 'H':
			num(t.Hour(), 2)
		case 'I':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			num(h, 2)
		case 'M':
			num(t.Minute(), 2)
		case 'S':
			num(t.Second(), 2)
		case 'f':
			num(t.Nanosecond()/1000, 6)
		case 'j':
			num(t.YearDay(), 3)
		case 'p':
			if t.Hour() < 12 {
				b.WriteString("AM")
			} else {
				b.WriteString("PM")
			}
		case 'B':
			b.WriteString(t.Month().String())
		case 'b', 'h':
			b.WriteString(t.Month().String()[:3])
		case 'A':
			b.WriteString(t.Weekday().String())
		case 'a':
			b.WriteString(t.Weekday().String()[:3])
		case 'w':
			num(int(t.Weekday()), 1)
		case 'Z':
			name, _ := t.Zone()
			b.WriteString(name)
		case 'z':
			b.WriteString(t.Format("-0700"))
		case '%':
			b.WriteByte('%')
		default:
			return "", fmt.Errorf("strftime_now: unsupported directive %%%c", format[i])
		}
	}
	return b.String(), nil
}
