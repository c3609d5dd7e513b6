package chattemplate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rolemark/rolemark/internal/jinja2"
	"github.com/rolemark/rolemark/internal/pyjson"
)

// Chat templates render on internal/jinja2, the project's one Jinja2, in
// the environment transformers renders them in: ImmutableSandboxedEnvironment
// with trim_blocks and lstrip_blocks, loop controls (LoopControls), its
// tojson filter, raise_exception and strftime_now. A model repository's
// template is data from the internet, so every rendering runs under
// chatLimits.

// chatLimits bound what a chat template may use: where Python's Jinja2
// would raise RecursionError or MemoryError, or run for minutes, a
// rendering ends with a *TemplateError naming the limit.
var chatLimits = jinja2.Limits{
	Depth:      200,      // nested macro calls, includes and recursive loops
	Output:     16 << 20, // bytes of prompt: millions of tokens, past any model's window
	Iterations: 5_000_000,
	Size:       16 << 20, // bytes of one string, items of one list
}

// compiled is one chat template ready to render.
type compiled struct {
	tpl *jinja2.Template
	gen bool // the source has a {% generation %} block (generation.go)
}

// chatEnv returns the environment of a Template whose strftime_now reads
// clock.
func chatEnv(clock func() time.Time, m *memo) *jinja2.Env {
	return jinja2.New(
		jinja2.Sandbox(), jinja2.TrimBlocks(), jinja2.LStripBlocks(), jinja2.GenerationTag(), jinja2.LoopControls(),
		jinja2.WithLimits(chatLimits),
		jinja2.WithAppendFilter("tojson", func(c *jinja2.Ctx, v jinja2.Value, args []jinja2.Value, kw []jinja2.Kwarg) (jinja2.Value, error) {
			if len(args) == 0 && len(kw) == 0 {
				if s, ok := m.toJSON(v); ok {
					return jinja2.StrV(s), c.Grow(len(s))
				}
			}
			if len(args) == 0 && len(kw) == 1 && kw[0].Name == "indent" && kw[0].Value.Kind() == jinja2.KindInt {
				if n, ok := kw[0].Value.Int64(); ok && n >= 0 && n < 16 {
					s, ok, err := m.toJSONIndent(c, v, int(n))
					if err != nil {
						return jinja2.Value{}, err
					}
					if ok {
						return jinja2.StrV(s), c.Grow(len(s))
					}
				}
			}
			return hfToJSON(c, v, args, kw)
		}, m.appendToJSON),
		jinja2.WithGlobal("raise_exception", jinja2.FuncV(&jinja2.Func{Name: "raise_exception",
			Call: func(c *jinja2.Ctx, args []jinja2.Value, kw []jinja2.Kwarg) (jinja2.Value, error) {
				msg := ""
				if len(args) > 0 {
					s, err := jinja2.ToStr(c, args[0])
					if err != nil {
						return jinja2.Value{}, err
					}
					msg = s
				}
				return jinja2.Value{}, &jinja2.Error{Kind: "TemplateError", Msg: msg}
			}})),
		jinja2.WithGlobal("strftime_now", jinja2.FuncV(&jinja2.Func{Name: "strftime_now",
			Call: func(c *jinja2.Ctx, args []jinja2.Value, kw []jinja2.Kwarg) (jinja2.Value, error) {
				if len(args) != 1 || len(kw) != 0 || args[0].Kind() != jinja2.KindStr {
					return jinja2.Value{}, &jinja2.Error{Kind: "TypeError", Msg: "strftime_now() takes one format string"}
				}
				f, _ := jinja2.ToStr(c, args[0])
				c.Varies() // the clock: the next render may read another time
				s, err := m.strftimeNow(clock(), f)
				if err != nil {
					return jinja2.Value{}, &jinja2.Error{Kind: "ValueError", Msg: err.Error()}
				}
				return jinja2.StrV(s), nil
			}})),
	)
}

// compileJinja compiles a chat template source.
func compileJinja(env *jinja2.Env, name, src string) (*compiled, *TemplateError) {
	tpl, err := env.Parse(name, src)
	if err != nil {
		return nil, templateError(name, err)
	}
	return &compiled{tpl: tpl, gen: hasGeneration(src)}, nil
}

// templateError is err, from internal/jinja2, as a *TemplateError.
func templateError(name string, err error) *TemplateError {
	var je *jinja2.Error
	if !errors.As(err, &je) {
		return &TemplateError{Template: name, Msg: err.Error(), Err: err}
	}
	te := &TemplateError{Template: name, Line: je.Line, Col: je.Col, Msg: je.Kind + ": " + je.Msg, Err: err}
	if je.Kind == "TemplateError" {
		te.Raised, te.Msg = true, je.Msg
	}
	return te
}

// render renders c with rd's variables (t.data), returning the prompt,
// or appending it to rd.dst when rd.into is set (AppendRender); the
// context's error when it ends first.
func (c *compiled) render(ctx context.Context, t *Template, rd *renderData, spans *[]jinja2.Span) (string, error) {
	var out string
	var err error
	switch {
	case spans != nil:
		vars := rd.vars
		if len(rd.args) > 0 {
			vars = make(map[string]jinja2.Value, len(rd.args))
			for i, name := range slices.Backward(t.lay.Names()) {
				vars[name] = rd.args[i]
			}
		}
		out, *spans, err = c.tpl.RenderGeneration(ctx, vars)
	case rd.into && len(rd.args) > 0:
		// AppendRender's: the prompt goes after rd.dst, nothing returned
		rd.dst, err = c.tpl.AppendRenderVarsWith(ctx, rd.jr, rd.dst, t.lay, rd.args)
	case len(rd.args) > 0:
		out, err = c.tpl.RenderVarsWith(ctx, rd.jr, t.lay, rd.args)
	case rd.into:
		rd.dst, err = c.tpl.AppendRender(ctx, rd.dst, rd.vars)
	default:
		out, err = c.tpl.Render(ctx, rd.vars)
	}
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", templateError(t.name, err)
	}
	return out, nil
}

// toJSONWriters are the writers of tojson (the first) and of
// tojson(indent=n) for n from 0 to 8, the forms chat templates use, made
// once instead of at every call.
var toJSONWriters = func() (ws [10]pyjson.Writer) {
	ws[0] = pyjson.NewWriter()
	for n := 1; n < len(ws); n++ {
		ws[n] = pyjson.NewWriter(pyjson.Indent(n - 1))
	}
	return ws
}()

// appendToJSON is the tojson filter's append form (jinja2.AppendFilter)
// for tojson and tojson(indent=n), n an int or a bool up to 8: the text
// the memo holds, or the JSON written as hfToJSON writes it, with its
// errors.
func (m *memo) appendToJSON(c *jinja2.Ctx, dst []byte, v jinja2.Value, args []jinja2.Value, kw []jinja2.Kwarg) ([]byte, bool, error) {
	n := -1 // no indent
	var s string
	var held bool
	switch {
	case len(args) != 0 || len(kw) > 1:
		return dst, false, nil
	case len(kw) == 1:
		// an int or a bool, as hfToJSON reads it (a negative indent
		// indents by nothing, as 0 does)
		k := kw[0].Value.Kind()
		i, ok := kw[0].Value.Int64()
		if kw[0].Name != "indent" || k != jinja2.KindInt && k != jinja2.KindBool || !ok || i+1 >= int64(len(toJSONWriters)) {
			return dst, false, nil
		}
		n = int(max(i, 0))
		var err error
		if s, held, err = m.toJSONIndent(c, v, n); err != nil {
			return dst, false, err
		}
	default:
		s, held = m.toJSON(v)
	}
	if held {
		if err := c.Grow(len(s)); err != nil {
			return dst, false, err
		}
		return append(dst, s...), true, nil
	}
	w := toJSONWriters[n+1]
	out, err := jinja2.AppendJSON(dst, v, &w)
	if err != nil {
		return dst, false, err
	}
	if err := c.Grow(len(out) - len(dst)); err != nil {
		return dst, false, err
	}
	return out, true, nil
}

// hfToJSON is transformers' tojson filter: json.dumps(x,
// ensure_ascii=ensure_ascii, indent=indent, separators=separators,
// sort_keys=sort_keys), with its parameters in that order (Jinja2's own
// tojson escapes HTML and sorts keys; transformers replaces it).
func hfToJSON(c *jinja2.Ctx, v jinja2.Value, args []jinja2.Value, kw []jinja2.Kwarg) (jinja2.Value, error) {
	params := [...]string{"ensure_ascii", "indent", "separators", "sort_keys"}
	if len(args) > len(params) {
		return jinja2.Value{}, &jinja2.Error{Kind: "TypeError",
			Msg: fmt.Sprintf("tojson() takes from 1 to 5 positional arguments but %d were given", len(args)+1)}
	}
	var got [len(params)]jinja2.Value
	var set [len(params)]bool
	for i, a := range args {
		got[i], set[i] = a, true
	}
	for _, k := range kw {
		i := -1
		for j, p := range params {
			if p == k.Name {
				i = j
			}
		}
		if i < 0 {
			return jinja2.Value{}, &jinja2.Error{Kind: "TypeError", Msg: fmt.Sprintf("tojson() got an unexpected keyword argument '%s'", k.Name)}
		}
		if set[i] {
			return jinja2.Value{}, &jinja2.Error{Kind: "TypeError", Msg: fmt.Sprintf("tojson() got multiple values for argument '%s'", k.Name)}
		}
		got[i], set[i] = k.Value, true
	}
	ascii := set[0] && got[0].Truth()
	indent, indentStr := -1, "" // -1: none; -2: indentStr
	if ind := got[1]; set[1] && ind.Kind() != jinja2.KindNone && ind.Kind() != jinja2.KindUndefined {
		switch ind.Kind() {
		case jinja2.KindInt, jinja2.KindBool:
			n, ok := ind.Int64() // a bool's is 0 or 1
			if !ok || n > 1<<16 {
				return jinja2.Value{}, &jinja2.Error{Kind: "LimitError", Msg: "tojson's indent is over 65536"}
			}
			indent = int(max(n, 0)) // a negative indent indents by nothing, as 0 does
		case jinja2.KindStr:
			indent, indentStr = -2, ind.Str()
		default:
			return jinja2.Value{}, &jinja2.Error{Kind: "TypeError", Msg: "tojson: indent must be an int or a string"}
		}
	}
	var seps []jinja2.Value
	if sep := got[2]; set[2] && sep.Kind() != jinja2.KindNone && sep.Kind() != jinja2.KindUndefined {
		items, err := jinja2.Iterate(c, sep)
		if err != nil || len(items) != 2 || items[0].Kind() != jinja2.KindStr || items[1].Kind() != jinja2.KindStr {
			return jinja2.Value{}, &jinja2.Error{Kind: "ValueError", Msg: "tojson: separators must be two strings"}
		}
		seps = items
	}
	sortKeys := set[3] && got[3].Truth()
	var w pyjson.Writer
	if !ascii && seps == nil && !sortKeys && indent >= -1 && indent+1 < len(toJSONWriters) {
		// tojson and tojson(indent=n): the writers made once
		w = toJSONWriters[indent+1]
	} else {
		var opts []pyjson.Option
		if ascii {
			opts = append(opts, pyjson.EnsureASCII(true))
		}
		switch {
		case indent == -2:
			opts = append(opts, pyjson.IndentString(indentStr))
		case indent >= 0:
			opts = append(opts, pyjson.Indent(indent))
		}
		if seps != nil {
			opts = append(opts, pyjson.Separators(seps[0].Str(), seps[1].Str()))
		}
		if sortKeys {
			opts = append(opts, pyjson.SortKeys(true))
		}
		w = pyjson.NewWriter(opts...)
	}
	s, err := jinja2.JSONString(c, v, &w)
	if err != nil {
		return jinja2.Value{}, err
	}
	if err := c.Grow(len(s)); err != nil {
		return jinja2.Value{}, err
	}
	return jinja2.StrV(s), nil
}

// nowText is strftime_now's last text: a template calls it at every
// rendering, with one format, and the text changes once a second at
// most.
type nowText struct {
	format string
	sec    int64
	loc    *time.Location
	text   string
}

// strftimeNow is strftime(t, format), the text of the last call kept
// while the second, its zone and the format are the same; a format with
// microseconds is made at every call.
func (m *memo) strftimeNow(t time.Time, format string) (string, error) {
	if strings.Contains(format, "%f") || strings.Contains(format, "%-f") {
		return strftime(t, format)
	}
	sec, loc := t.Unix(), t.Location()
	if n := m.now.Load(); n != nil && n.sec == sec && n.loc == loc && n.format == format {
		return n.text, nil
	}
	s, err := strftime(t, format)
	if err == nil {
		m.now.Store(&nowText{format: strings.Clone(format), sec: sec, loc: loc, text: s})
	}
	return s, err
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
