package format

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/internal/pyjson"
)

// The compiled path's data: the conversation and tools in transformers'
// shape (the same shape messagesValue and toolsValue give the engine),
// built straight from chat values into compact dicts.

// reservedVars are caller variables whose meaning the compiled path does
// not model (they would shadow Jinja2's globals); a call that passes one
// renders with the engine.
var reservedVars = setOf("namespace dict cycler joiner lipsum loop caller varargs kwargs self")

// renderFast renders with the compiled template, or reports false when the
// call must render with the engine instead. An error is a *TemplateError
// for an operation Python refuses and the engine would not (raisedError).
func (t *Template) renderFast(ctx context.Context, c *compiled, msgs []chat.Message, opts Options) (string, bool, error) {
	ft := c.fast
	st, _ := ft.pool.Get().(*rstate)
	if st == nil {
		st = &rstate{slots: make([]value, len(ft.names)), stack: make([]value, 0, 16)}
	}
	defer st.release(&ft.pool)
	st.ctx, st.now, st.budget = ctx, t.clock, 1000
	copy(st.slots, c.fastInit)
	for k, v := range opts.Vars {
		if reservedVars[k] {
			return "", false, nil
		}
		i, ok := ft.slot[k]
		if !ok {
			continue
		}
		cv, err := goValueFast(v)
		if err != nil {
			return "", false, nil
		}
		st.slots[i] = cv
	}
	size := ft.sizeHint
	if ft.messages >= 0 {
		mv, n, err := st.msgs.messages(msgs, t.fastArguments)
		if err != nil {
			return "", false, nil
		}
		st.slots[ft.messages] = mv
		size += n
	}
	if ft.tools >= 0 {
		st.slots[ft.tools] = none
		if len(opts.Tools) > 0 {
			tv, err := t.fastTools(opts.Tools)
			if err != nil {
				return "", false, nil
			}
			st.slots[ft.tools] = tv
			size += 2 * len(tv.list().items) * 256
		}
	}
	if ft.documents >= 0 {
		st.slots[ft.documents] = none
	}
	if ft.agp >= 0 {
		st.slots[ft.agp] = boolV(opts.AddGenerationPrompt)
	}
	if cap(st.out) < size {
		st.out = make([]byte, 0, size+size/4)
	}
	if err := ft.body(st); err != nil {
		var re *raisedError
		if errors.As(err, &re) {
			return "", true, &TemplateError{Template: t.name, Msg: re.msg, Err: re}
		}
		return "", false, nil
	}
	return string(st.out), true, nil
}

// release clears a rendering's state (so that it holds no data) and puts
// it back in the pool for the next rendering.
func (st *rstate) release(pool *sync.Pool) {
	clear(st.slots)
	st.stack = st.stack[:0]
	st.out = st.out[:0]
	st.ctx, st.now, st.depth = nil, nil, 0
	st.msgs.clear()
	clear(st.loops[:st.nloops])
	st.nloops = 0
	pool.Put(st)
}

// fastInit returns the slots' starting values: the special tokens.
func fastInit(ft *fastTemplate, tokens map[string]string) []value {
	init := make([]value, len(ft.names))
	for i, name := range ft.names {
		if tok, ok := tokens[name]; ok {
			init[i] = strV(tok)
		}
	}
	return init
}

var (
	keysTextPart = []string{"type", "text"}
	keysFunction = []string{"name", "arguments"}
	keysCallID   = []string{"id", "type", "function"}
	keysCall     = []string{"type", "function"}
	strFunction  = strV("function")
	// keysMessage are a message's keys by which of name (1), tool_calls
	// (2) and tool_call_id (4) it has.
	keysMessage = func() [8][]string {
		var k [8][]string
		for mask := range 8 {
			k[mask] = []string{"role", "content"}
			for bit, name := range []string{"name", "tool_calls", "tool_call_id"} {
				if mask&(1<<bit) != 0 {
					k[mask] = append(k[mask], name)
				}
			}
		}
		return k
	}()
)

// intern returns the conversation's own copy of s when it is one of its
// keys or roles, so that comparing the template's strings with the
// conversation's compares one pointer.
func intern(s string) string {
	switch s {
	case "role":
		return "role"
	case "content":
		return "content"
	case "name":
		return "name"
	case "tool_calls":
		return "tool_calls"
	case "tool_call_id":
		return "tool_call_id"
	case "type":
		return "type"
	case "text":
		return "text"
	case "function":
		return "function"
	case "arguments":
		return "arguments"
	case "id":
		return "id"
	case "system":
		return "system"
	case "user":
		return "user"
	case "assistant":
		return "assistant"
	case "tool":
		return "tool"
	}
	return s
}

// msgBuf holds the memory of a conversation's values between renderings:
// the messages' dicts and their values, and their tool calls' lists,
// dicts and values (vals and dicts hold the messages' then the tool
// calls').
type msgBuf struct {
	vals  []value
	dicts []vdict
	lists []vlist
	list  vlist
}

func (b *msgBuf) clear() {
	clear(b.vals)
	clear(b.dicts)
	clear(b.lists)
	b.list = vlist{}
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// messages converts a conversation as messagesValue does, and returns the
// size of its text.
func (b *msgBuf) messages(msgs []chat.Message, arguments func([]byte) (value, error)) (value, int, error) {
	n, calls, withCalls := 0, 0, 0
	for i := range msgs {
		n += 2
		m := &msgs[i]
		if m.Name != "" {
			n++
		}
		if len(m.ToolCalls) > 0 {
			n++
			withCalls++
			calls += len(m.ToolCalls)
		}
		if m.ToolCallID != "" {
			n++
		}
	}
	b.vals = grow(b.vals, len(msgs)+n+6*calls)
	b.dicts = grow(b.dicts, len(msgs)+2*calls)
	b.lists = grow(b.lists, withCalls)
	items, vals := b.vals[:len(msgs)], b.vals[len(msgs):len(msgs)+n]
	dicts := b.dicts[:len(msgs)]
	callItems, callVals := b.vals[len(msgs)+n:len(msgs)+n+calls], b.vals[len(msgs)+n+calls:]
	callDicts := b.dicts[len(msgs):]
	size := 0
	off, coff, loff := 0, 0, 0
	for i := range msgs {
		m := &msgs[i]
		d := &dicts[i]
		items[i] = dictV(d)
		mask := 0
		if m.Name != "" {
			mask |= 1
		}
		if len(m.ToolCalls) > 0 {
			mask |= 2
		}
		if m.ToolCallID != "" {
			mask |= 4
		}
		d.keys = keysMessage[mask]
		d.vals = vals[off : off+len(d.keys) : off+len(d.keys)]
		off += len(d.keys)
		d.vals[0] = strV(intern(string(m.Role)))
		switch {
		case len(m.Content) == 0:
			d.vals[1] = emptyStr
		case len(m.Content) == 1 && m.Content[0].Type == chat.PartText:
			s := m.Content[0].Text
			size += len(s)
			d.vals[1] = strV(s)
		default:
			parts := make([]value, len(m.Content))
			for j, p := range m.Content {
				pd := &vdict{}
				if p.Type == chat.PartText {
					pd.keys, pd.vals = keysTextPart, []value{strV(string(p.Type)), strV(p.Text)}
					size += len(p.Text)
				} else {
					pd.keys, pd.vals = []string{"type", "url"}, []value{strV(string(p.Type)), strV(p.URL)}
					if p.MediaType != "" {
						pd.set("mime_type", strV(p.MediaType))
					}
					if p.Detail != "" {
						pd.set("detail", strV(p.Detail))
					}
				}
				parts[j] = dictV(pd)
			}
			d.vals[1] = listV(parts, flList)
		}
		k := 2
		if m.Name != "" {
			d.vals[k] = strV(m.Name)
			k++
		}
		if len(m.ToolCalls) > 0 {
			nc := len(m.ToolCalls)
			calls := callItems[coff : coff+nc : coff+nc]
			cd := callDicts[2*coff : 2*(coff+nc)]
			cv := callVals[5*coff : 5*(coff+nc)]
			coff += nc
			for j, c := range m.ToolCalls {
				args, err := arguments(c.Arguments)
				if err != nil {
					return undef, 0, err
				}
				size += len(c.Arguments) + len(c.Name) + 64
				fn, call := &cd[2*j], &cd[2*j+1]
				fn.keys, fn.vals = keysFunction, cv[5*j:5*j+2:5*j+2]
				fn.vals[0], fn.vals[1] = strV(c.Name), args
				if c.ID != "" {
					call.keys, call.vals = keysCallID, cv[5*j+2:5*j+5:5*j+5]
					call.vals[0], call.vals[1], call.vals[2] = strV(c.ID), strFunction, dictV(fn)
				} else {
					call.keys, call.vals = keysCall, cv[5*j+2:5*j+4:5*j+4]
					call.vals[0], call.vals[1] = strFunction, dictV(fn)
				}
				calls[j] = dictV(call)
			}
			l := &b.lists[loff]
			loff++
			*l = vlist{items: calls}
			d.vals[k] = value{k: vList, ref: l}
			k++
		}
		if m.ToolCallID != "" {
			d.vals[k] = strV(m.ToolCallID)
		}
	}
	b.list = vlist{items: items}
	return value{k: vList, ref: &b.list}, size, nil
}

// fastArguments is argumentsValue for the compiled path. A conversation
// is rendered again with each new turn, so the arguments it has seen are
// kept (up to maxArguments of them); templates cannot change the values.
func (t *Template) fastArguments(raw []byte) (value, error) {
	if len(raw) == 0 {
		return dictV(&vdict{}), nil
	}
	if v, ok := t.fargs.Load(string(raw)); ok {
		return v.(value), nil
	}
	pv, err := pyjson.Parse(raw)
	if err != nil {
		return strV(string(raw)), nil
	}
	v, err := fromPy(&pv)
	if err != nil {
		return undef, err
	}
	if len(raw) <= 4096 && t.nargs.Load() < maxArguments {
		if err := precomputeJSON(v, 0); err == nil {
			t.nargs.Add(1)
			t.fargs.Store(string(raw), v)
		}
	}
	return v, nil
}

const maxArguments = 4096

// fastToolsCache is the last tool list the compiled path converted (see
// toolsCache): the values are never changed by a rendering, so renderings
// share them, and each dict's JSON is written once.
type fastToolsCache struct {
	tools []chat.Tool
	val   value
}

func (t *Template) fastTools(tools []chat.Tool) (value, error) {
	if c := t.ftools.Load(); c != nil && sameTools(c.tools, tools) {
		return c.val, nil
	}
	items := make([]value, len(tools))
	for i, tl := range tools {
		fn := &vdict{}
		fn.set("name", strV(tl.Name))
		if tl.Description != "" {
			fn.set("description", strV(tl.Description))
		}
		if len(tl.Parameters) > 0 {
			pv, err := pyjson.Parse(tl.Parameters)
			if err != nil {
				return undef, err
			}
			v, err := fromPy(&pv)
			if err != nil {
				return undef, err
			}
			fn.set("parameters", v)
		}
		d := &vdict{}
		d.set("type", strFunction)
		d.set("function", dictV(fn))
		items[i] = dictV(d)
	}
	v := listV(items, flList)
	if err := precomputeJSON(v, 0); err != nil {
		return undef, err
	}
	cp := make([]chat.Tool, len(tools))
	for i, tl := range tools {
		cp[i] = chat.Tool{Name: tl.Name, Description: tl.Description, Parameters: bytes.Clone(tl.Parameters)}
	}
	t.ftools.Store(&fastToolsCache{tools: cp, val: v})
	return v, nil
}

func sameTools(a, b []chat.Tool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Description != b[i].Description || !bytes.Equal(a[i].Parameters, b[i].Parameters) {
			return false
		}
	}
	return true
}

// precomputeJSON records each dict's JSON in it (vdict.js).
func precomputeJSON(v value, depth int) error {
	if depth > 500 {
		return unmodelled("deep tools")
	}
	switch v.k {
	case vList:
		for _, it := range v.list().items {
			if err := precomputeJSON(it, depth+1); err != nil {
				return err
			}
		}
	case vDict:
		d := v.dict()
		for _, it := range d.vals {
			if err := precomputeJSON(it, depth+1); err != nil {
				return err
			}
		}
		b, err := appendJSON(nil, v, 0)
		if err != nil {
			return err
		}
		d.js = string(b)
	}
	return nil
}

// goValueFast converts a caller's variable as goValue does.
func goValueFast(v any) (value, error) {
	switch x := v.(type) {
	case string:
		return strV(x), nil
	case bool:
		return boolV(x), nil
	case int:
		return intV(int64(x)), nil
	case nil:
		return none, nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return undef, err
	}
	pv, err := pyjson.Parse(raw)
	if err != nil {
		return undef, err
	}
	return fromPy(&pv)
}
