package chattemplate

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format/internal/option"
	"github.com/rolemark/rolemark/chat/format/internal/special"
	"github.com/rolemark/rolemark/internal/jinja2"
	"github.com/rolemark/rolemark/internal/pyjson"
)

// A rendering's variables, as transformers passes them to a chat template,
// converted to internal/jinja2's values. Two things make this cheap enough
// to do at every rendering:
//
//   - The conversation's dicts and lists live in one slab per rendering,
//     pooled: the values are read only while the template renders (the
//     sandbox refuses every change to a list or dict, and the output is a
//     string of its own), so the next rendering reuses the memory.
//   - What callers pass again and again is converted once per Template and
//     shared by renderings: the tool definitions (the last list seen) and
//     tool-call arguments (by their JSON text; a conversation's history
//     comes back at every turn), each with its tojson text, which
//     transformers' templates print at every rendering.

// renderData is one rendering's state and the memory its variables live
// in, pooled by its Template (Template.getData): the options it was
// given, and its variables, without format.Vars args, by position of the
// Template's layout (held in pos, which keeps the values that are the
// same at every rendering from one rendering to the next), and with them
// vars; jr is the Jinja render's own state. The conversation a Template
// keeps lives in a renderData of its own, never pooled (newRenderMem).
//
// Between renderings pos keeps what the Template itself holds: the kept
// conversation's list (heldConv.list) and a tool list of its memo
// (heldTools.val; None when heldTools is nil), with the generation
// prompt's bool (genPrompt), so that a rendering of the same
// conversation, tools and flag as the one before writes none of them:
// each is a 48-byte Value, stored through the write barrier while the
// collector marks. Anything else in pos is dropped by reset. args is pos
// once a rendering has passed its variables by position, and stays so
// (one pointer store less at each rendering); nil when they are vars.
type renderData struct {
	opts      option.Settings
	args      []jinja2.Value
	pos       []jinja2.Value
	vars      map[string]jinja2.Value
	vals      jinja2.Slab
	dicts     []jinja2.Dict
	lists     []jinja2.List
	jr        *jinja2.Renderer
	heldConv  *convKept
	heldTools *toolsEntry
	genPrompt bool
	// into is set while AppendRender renders: the prompt is appended to
	// dst, after its first start bytes, rather than made a string (only
	// the neutral rendering of step 2 still is). last is the length of
	// the prompt AppendRender appended last: the room it makes at once
	// in a dst that lacks it.
	into  bool
	dst   []byte
	start int
	last  int
}

// Values data writes into pos from memory rather than building each on
// the stack (a Value made there field by field and copied at once as
// 48 bytes is read back before its stores have landed: a stall).
var (
	vNone  = jinja2.NoneV()
	vTrue  = jinja2.BoolV(true)
	vFalse = jinja2.BoolV(false)
)

// getData returns a rendering's state, reused when one is free: the
// Template's own (hot) or one from its pool, one object per rendering
// rather than one pool each for the options, the variables and the
// Jinja render. The Template's own is taken and given back by a flag
// (busy) rather than by swapping the pointer out and back: a pointer
// written by an atomic takes the write barrier while the collector
// marks, a bool does not.
func (t *Template) getData() *renderData {
	if t.busy.CompareAndSwap(false, true) {
		if rd := t.hot.Load(); rd != nil {
			return rd
		}
		rd := t.newData()
		t.hot.Store(rd)
		return rd
	}
	if rd, ok := t.states.Get().(*renderData); ok {
		return rd
	}
	return t.newData()
}

// newData returns a new rendering state.
func (t *Template) newData() *renderData {
	rd := &renderData{pos: slices.Clone(t.fixed), jr: t.env.NewRenderer()}
	rd.pos[argTools], rd.pos[argAddGenerationPrompt] = vNone, vFalse
	return rd
}

// putData keeps rd for another rendering, holding none of the caller's
// data (reset has dropped the variables), unless it grew large.
func (t *Template) putData(rd *renderData) {
	hot := rd == t.hot.Load()
	if len(rd.vars) > 64 || rd.vals.Cap() > 1<<14 || cap(rd.dicts) > 1<<12 || cap(rd.lists) > 1<<12 {
		// let a large one go rather than keep it
		if hot {
			t.hot.Store(nil)
			t.busy.Store(false)
		}
		return
	}
	// a field at a time: the Settings written whole is cleared with a
	// bulk write barrier while the collector marks
	if rd.opts.Tools != nil {
		rd.opts.Tools = nil
	}
	if rd.opts.Vars != nil {
		rd.opts.Vars = nil
	}
	rd.opts.AddGenerationPrompt, rd.opts.ContinueFinal, rd.opts.AllowSpecialTokens = false, false, false
	// the Template's own state stays its own while it is small (taking
	// it is one atomic compare-and-swap, where the pool pins and unpins
	// the P at Get and at Put); it outlives collections, as the pool's
	// items do not, so a larger one (more than 1,024 values, or an
	// output buffer over 64 KB: jinja2.Renderer) goes to the pool
	if !hot {
		t.states.Put(rd)
		return
	}
	if rd.vals.Cap() > 1<<10 || cap(rd.dicts) > 1<<8 || cap(rd.lists) > 1<<8 {
		t.hot.Store(nil)
		t.busy.Store(false)
		t.states.Put(rd)
		return
	}
	t.busy.Store(false)
}

// reset drops a rendering's variables once it is done, keeping the
// memory for the next rendering (the neutral one, or the next call's),
// and in pos what t holds still (renderData).
func (rd *renderData) reset(t *Template) {
	if len(rd.vars) > 0 {
		clear(rd.vars)
	}
	// the values of pos from argDocuments on are the Template's own
	if rd.heldConv == nil || rd.heldConv != t.conv.Load() {
		rd.heldConv, rd.pos[argMessages] = nil, jinja2.Value{}
	}
	if te := rd.heldTools; te != nil && te != t.memo.tools[0].Load() && te != t.memo.tools[1].Load() {
		rd.heldTools, rd.pos[argTools] = nil, vNone
	}
	if rd.vals.Len() > 0 {
		rd.vals.Reset()
	}
	if len(rd.dicts) > 0 {
		clear(rd.dicts)
		rd.dicts = rd.dicts[:0]
	}
	if len(rd.lists) > 0 {
		clear(rd.lists)
		rd.lists = rd.lists[:0]
	}
}

// dict returns the dict of the str keys and the values vals, in the
// slab's memory; keys is one of the shared key lists below.
func (rd *renderData) dict(keys, vals []jinja2.Value) jinja2.Value {
	if len(rd.dicts) == cap(rd.dicts) {
		rd.dicts = make([]jinja2.Dict, 0, max(2*cap(rd.dicts), 16))
	}
	rd.dicts = rd.dicts[:len(rd.dicts)+1]
	d := &rd.dicts[len(rd.dicts)-1]
	d.InitStrDictKeys(keys, vals)
	return jinja2.DictV(d)
}

// list returns the list holding items, in the slab's memory.
func (rd *renderData) list(items []jinja2.Value) jinja2.Value {
	if len(rd.lists) == cap(rd.lists) {
		rd.lists = make([]jinja2.List, 0, max(2*cap(rd.lists), 8))
	}
	rd.lists = append(rd.lists, jinja2.List{Items: items})
	return jinja2.ListRefV(&rd.lists[len(rd.lists)-1])
}

// The keys of transformers' message shape.
var (
	kRole       = jinja2.StrV("role")
	kContent    = jinja2.StrV("content")
	kName       = jinja2.StrV("name")
	kToolCalls  = jinja2.StrV("tool_calls")
	kToolCallID = jinja2.StrV("tool_call_id")
	kType       = jinja2.StrV("type")
	kText       = jinja2.StrV("text")
	kURL        = jinja2.StrV("url")
	kMimeType   = jinja2.StrV("mime_type")
	kDetail     = jinja2.StrV("detail")
	kID         = jinja2.StrV("id")
	kFunction   = jinja2.StrV("function")
	kArguments  = jinja2.StrV("arguments")
	kDesc       = jinja2.StrV("description")
	kParams     = jinja2.StrV("parameters")
	vFunction   = jinja2.StrV("function")
)

// The key lists of the dicts of a conversation, one per shape, shared by
// every rendering's dicts (a dict never writes to its keys), so that a
// rendering writes only the values.
var (
	// messageKeys[shape]: role, content, then name (shape&1),
	// tool_calls (shape&2), tool_call_id (shape&4) when set.
	messageKeys = func() (keys [8][]jinja2.Value) {
		for shape := range keys {
			k := []jinja2.Value{kRole, kContent}
			for i, opt := range []jinja2.Value{kName, kToolCalls, kToolCallID} {
				if shape&(1<<i) != 0 {
					k = append(k, opt)
				}
			}
			keys[shape] = k
		}
		return keys
	}()
	// mediaKeys[shape]: type, then url (shape&1), mime_type (shape&2),
	// detail (shape&4) when set: transformers' {"type": "image"}, the
	// placeholder of a vision template, is a part with no URL.
	mediaKeys = func() (keys [8][]jinja2.Value) {
		for shape := range keys {
			k := []jinja2.Value{kType}
			for i, opt := range []jinja2.Value{kURL, kMimeType, kDetail} {
				if shape&(1<<i) != 0 {
					k = append(k, opt)
				}
			}
			keys[shape] = k
		}
		return keys
	}()
	textKeys = []jinja2.Value{kType, kText}
	callKeys = []jinja2.Value{kID, kType, kFunction} // without id: [1:]
	fnKeys   = []jinja2.Value{kName, kArguments}
)

// The variables a Template passes at every rendering, by position of its
// layout: those of a rendering first, then documents and the special
// tokens, the same at every rendering (Template.fixed). A token named like
// one before it is hidden by it, as the rendering's value replaced it in
// a map.
const (
	argMessages = iota
	argTools
	argAddGenerationPrompt
	argDocuments
	argTokens // the tokens, sorted by name
)

// layout returns the layout of a Template's variables and their values
// that are the same at every rendering (all but the first argDocuments).
func layout(tokens map[string]string) (*jinja2.Layout, []jinja2.Value) {
	names := []string{"messages", "tools", "add_generation_prompt", "documents"}
	fixed := []jinja2.Value{{}, {}, {}, jinja2.NoneV()}
	for _, k := range slices.Sorted(maps.Keys(tokens)) {
		names = append(names, k)
		fixed = append(fixed, jinja2.OwnStrV(tokens[k])) // the template's own text (the special-token rule)
	}
	return jinja2.NewLayout(names...), fixed
}

// data builds the template's variables as transformers passes them:
// messages, tools, documents, add_generation_prompt, the special tokens and
// the caller's variables, in rd; list is msgs as the messages list, or nil
// to convert them in rd. The caller resets rd after the rendering. Without
// format.Vars they are rd.args, by position of t.layout; with them,
// rd.vars.
func (t *Template) data(rd *renderData, msgs []chat.Message, list *jinja2.Value, kept *convKept, te *toolsEntry, tv *special.ToolsVerdict, opts *option.Settings) error {
	var conv jinja2.Value
	if list == nil {
		conv = t.messagesValue(rd, msgs)
		list = &conv
	}
	var toolsVal *jinja2.Value
	if len(opts.Tools) > 0 {
		if te == nil {
			var err error
			if te, err = t.convertTools(opts.Tools, tv); err != nil {
				rd.reset(t)
				return &TemplateError{Template: t.name, Msg: err.Error()}
			}
		}
		toolsVal = &te.val
	}
	if len(opts.Vars) == 0 {
		// the values are written where they go, not copied through
		// locals first, and only those not there already (renderData)
		pos := rd.pos[:argDocuments]
		if kept == nil || kept != rd.heldConv {
			pos[argMessages], rd.heldConv = *list, kept
		}
		if te != rd.heldTools {
			if te != nil {
				pos[argTools] = te.val
			} else {
				pos[argTools] = vNone
			}
			rd.heldTools = te
		}
		if g := opts.AddGenerationPrompt; g != rd.genPrompt {
			if g {
				pos[argAddGenerationPrompt] = vTrue
			} else {
				pos[argAddGenerationPrompt] = vFalse
			}
			rd.genPrompt = g
		}
		if rd.args == nil {
			rd.args = rd.pos // kept from rendering to rendering
		}
		return nil
	}
	if rd.args != nil {
		rd.args = nil // the variables are rd.vars
	}
	if rd.vars == nil {
		rd.vars = map[string]jinja2.Value{}
	}
	d := rd.vars
	for k, v := range t.tokens {
		d[k] = jinja2.StrV(v)
	}
	for k, v := range opts.Vars {
		x, ok := jinja2.FromGoNamed(v, k, MaxDepth, goFunc)
		if !ok {
			rd.reset(t)
			de := &DepthError{Name: k}
			return &TemplateError{Template: t.name, Msg: de.Error(), Err: de}
		}
		d[k] = x
	}
	if _, given := opts.Vars["documents"]; !given {
		// transformers' documents argument: None unless the caller gives it
		d["documents"] = jinja2.NoneV()
	}
	tools := jinja2.NoneV()
	if toolsVal != nil {
		tools = *toolsVal
	}
	d["messages"], d["tools"], d["add_generation_prompt"] = *list, tools, jinja2.BoolV(opts.AddGenerationPrompt)
	return nil
}

// messagesValue converts a conversation to transformers' message shape:
//
//	{"role": …, "content": …, "name": …, "tool_calls": [{"id": …,
//	 "type": "function", "function": {"name": …, "arguments": {…}}}],
//	 "tool_call_id": …}
//
// content is a string when the message holds at most one text part, and a
// list of parts otherwise (always a list with ContentParts): {"type": "text", "text": …} and
// {"type": "image"|"audio"|"file", "url": …, "mime_type": …, "detail": …},
// each of url, mime_type and detail only when set ({"type": "image"} is
// the placeholder vision templates loop over). name, tool_calls and tool_call_id are present only when set.
// A tool call's arguments are the JSON mapping they hold (transformers
// expects a mapping); arguments that are not JSON are passed as their text.
func (t *Template) messagesValue(rd *renderData, msgs []chat.Message) jinja2.Value {
	items := rd.vals.Take(len(msgs))
	for i := range msgs {
		items[i] = t.messageValue(rd, &msgs[i])
	}
	return rd.list(items)
}

func (t *Template) messageValue(rd *renderData, m *chat.Message) jinja2.Value {
	shape, n := 0, 2
	if m.Name != "" {
		shape, n = shape|1, n+1
	}
	if len(m.ToolCalls) > 0 {
		shape, n = shape|2, n+1
	}
	if m.ToolCallID != "" {
		shape, n = shape|4, n+1
	}
	vals := rd.vals.Take(n)
	vals[0] = jinja2.StrV(jinja2.Intern(string(m.Role)))
	if m.TextOnly() && !t.parts {
		vals[1] = jinja2.StrV(m.Text())
	} else {
		vals[1] = partsValue(rd, m.Content)
	}
	i := 2
	if m.Name != "" {
		vals[i] = jinja2.StrV(m.Name)
		i++
	}
	if len(m.ToolCalls) > 0 {
		vals[i] = t.callsValue(rd, m.ToolCalls)
		i++
	}
	if m.ToolCallID != "" {
		vals[i] = jinja2.StrV(m.ToolCallID)
	}
	return rd.dict(messageKeys[shape], vals)
}

func partsValue(rd *renderData, content []chat.Part) jinja2.Value {
	parts := rd.vals.Take(len(content))
	for i, p := range content {
		if p.Type == chat.PartText {
			vals := rd.vals.Take(2)
			vals[0], vals[1] = jinja2.StrV(string(p.Type)), jinja2.StrV(p.Text)
			parts[i] = rd.dict(textKeys, vals)
			continue
		}
		shape, n := 0, 1
		if p.URL != "" {
			shape, n = shape|1, n+1
		}
		if p.MediaType != "" {
			shape, n = shape|2, n+1
		}
		if p.Detail != "" {
			shape, n = shape|4, n+1
		}
		vals := rd.vals.Take(n)
		vals[0] = jinja2.StrV(string(p.Type))
		j := 1
		if p.URL != "" {
			vals[j] = jinja2.StrV(p.URL)
			j++
		}
		if p.MediaType != "" {
			vals[j] = jinja2.StrV(p.MediaType)
			j++
		}
		if p.Detail != "" {
			vals[j] = jinja2.StrV(p.Detail)
		}
		parts[i] = rd.dict(mediaKeys[shape], vals)
	}
	return rd.list(parts)
}

func (t *Template) callsValue(rd *renderData, calls []chat.ToolCall) jinja2.Value {
	items := rd.vals.Take(len(calls))
	for i := range calls {
		c := &calls[i]
		fn := rd.vals.Take(2)
		fn[0], fn[1] = jinja2.StrV(c.Name), t.memo.args.value(c.Arguments)
		if c.ID != "" {
			vals := rd.vals.Take(3)
			vals[0], vals[1], vals[2] = jinja2.StrV(c.ID), vFunction, rd.dict(fnKeys, fn)
			items[i] = rd.dict(callKeys, vals)
		} else {
			vals := rd.vals.Take(2)
			vals[0], vals[1] = vFunction, rd.dict(fnKeys, fn)
			items[i] = rd.dict(callKeys[1:], vals)
		}
	}
	return rd.list(items)
}

// memo is what a Template converted once for many renderings: values
// shared by renderings (the sandbox keeps every list and dict as it is),
// and the tojson text of those that are lists or dicts.
type memo struct {
	// tools are the last two tool lists converted, the latest first: a
	// rendering the special-token guard checks renders the caller's tools
	// and their neutral copy in turn, and one slot would convert both
	// every time.
	tools [2]atomic.Pointer[toolsEntry]
	args  argsCache
	// converted counts the tool lists converted, scanned the tool lists
	// the special-token guard scanned, for tests.
	converted, scanned atomic.Uint64
	// now is strftime_now's last text.
	now atomic.Pointer[nowText]
}

// toJSON returns the tojson text (no arguments) of a list or dict the
// memo holds.
func (m *memo) toJSON(v jinja2.Value) (string, bool) {
	key, ok := memoKey(v)
	if !ok {
		return "", false
	}
	for i := range m.tools {
		if te := m.tools[i].Load(); te != nil {
			if s, ok := te.json[key]; ok {
				return s, true
			}
		}
	}
	if at := m.args.table.Load(); at != nil {
		if s, ok := at.json[key]; ok {
			return s, true
		}
	}
	return "", false
}

// toJSONIndent returns the tojson(indent=n) text of a list or dict of a
// tool list the memo holds, for n from 0 to 8; ok is false for any
// other value. The text is made (as hfToJSON makes it) at its first use
// and kept with the tool list.
func (m *memo) toJSONIndent(c *jinja2.Ctx, v jinja2.Value, n int) (s string, ok bool, err error) {
	key, ok := memoKey(v)
	if !ok || n < 0 || n+1 >= len(toJSONWriters) {
		return "", false, nil
	}
	for i := range m.tools {
		te := m.tools[i].Load()
		if te == nil {
			continue
		}
		if _, held := te.json[key]; !held {
			continue
		}
		if s, ok := te.indented[n].Load(key); ok {
			return s.(string), true, nil
		}
		w := toJSONWriters[n+1]
		if s, err = jinja2.JSONString(c, v, &w); err != nil {
			return "", false, err
		}
		te.indented[n].Store(key, s)
		return s, true, nil
	}
	return "", false, nil
}

// toolsEntry is a tool list a Template converted: a caller usually
// passes the same tools on every call, and converting their JSON Schemas
// and printing them with tojson is much of a rendering's cost.
type toolsEntry struct {
	tools []chat.Tool // a copy of the caller's
	val   jinja2.Value
	json  map[any]string // tojson text by *jinja2.Dict, or by &Items[0] of a list
	// indented[n] holds the tojson(indent=n) texts (strings) of the keys
	// of json, made at their first use: tool schemas printed with
	// indent=4 (a third of the corpus's templates with tools)
	indented [len(toJSONWriters) - 1]sync.Map
	// verdict is the special-token guard's on the tools, made at its
	// first use (a rendering with special tokens allowed needs none)
	verdict atomic.Pointer[special.ToolsVerdict]
}

// find returns the entry of the tool list the memo holds for tools, or
// nil.
func (m *memo) find(tools []chat.Tool) *toolsEntry {
	for i := range m.tools {
		if te := m.tools[i].Load(); te != nil && sameTools(te.tools, tools) {
			return te
		}
	}
	return nil
}

// sameTools is special.SameTools with the names and descriptions compared
// by eqStr: the entry's are the caller's strings, taken when it was made,
// and == calls memequal even for strings sharing their bytes. The
// schemas are the entry's copies, compared byte by byte.
func sameTools(a, b []chat.Tool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if !eqStr(x.Name, y.Name) || !eqStr(x.Description, y.Description) || !bytes.Equal(x.Parameters, y.Parameters) {
			return false
		}
	}
	return true
}

// toolsVerdict returns the guard's verdict on tools, kept with te, their
// entry in the memo, when te is not nil.
func (t *Template) toolsVerdict(te *toolsEntry, tools []chat.Tool) *special.ToolsVerdict {
	if te != nil {
		if tv := te.verdict.Load(); tv != nil {
			return tv
		}
	}
	t.memo.scanned.Add(1)
	tv := t.guard.ScanTools(tools)
	if te != nil {
		te.verdict.Store(tv)
	}
	return tv
}

// convertTools converts tools and keeps them in the memo, with tv, the
// guard's verdict on them, when it is not nil.
func (t *Template) convertTools(tools []chat.Tool, tv *special.ToolsVerdict) (*toolsEntry, error) {
	t.memo.converted.Add(1)
	te := &toolsEntry{tools: make([]chat.Tool, len(tools)), json: map[any]string{}}
	if tv != nil {
		te.verdict.Store(tv)
	}
	items := make([]jinja2.Value, len(tools))
	for i, tl := range tools {
		te.tools[i] = chat.Tool{Name: tl.Name, Description: tl.Description, Parameters: bytes.Clone(tl.Parameters)}
		fn := jinja2.NewDict(3)
		fn.Set(kName, jinja2.StrV(tl.Name))
		if tl.Description != "" {
			fn.Set(kDesc, jinja2.StrV(tl.Description))
		}
		if len(tl.Parameters) > 0 {
			pv, err := pyjson.Parse(tl.Parameters)
			if err != nil {
				return nil, fmt.Errorf("tool %s: parameters: %w", tl.Name, err)
			}
			fn.Set(kParams, jinja2.FromGo(pv))
		}
		d := jinja2.NewDict(2)
		d.Set(kType, vFunction)
		d.Set(kFunction, jinja2.DictV(fn))
		items[i] = jinja2.DictV(d)
		remember(te.json, items[i])
		remember(te.json, jinja2.DictV(fn))
		if pv, ok := fn.GetStr("parameters"); ok {
			remember(te.json, pv)
		}
	}
	te.val = jinja2.ListV(items)
	remember(te.json, te.val)
	// Two renderings storing at once may leave one list in both slots:
	// a later rendering converts again, it never reads a wrong entry.
	t.memo.tools[1].Store(t.memo.tools[0].Load())
	t.memo.tools[0].Store(te)
	return te, nil
}

// memoKey returns the key of v's tojson text in a memo: v's
// *jinja2.Dict, or &Items[0] of a non-empty list; ok is false for any
// other value.
func memoKey(v jinja2.Value) (key any, ok bool) {
	if d := v.DictOf(); d != nil && !v.IsMappingProxy() {
		// (a mappingproxy of a dict is no dict to tojson)
		return d, true
	}
	if items := v.Items(); v.Kind() == jinja2.KindList && len(items) > 0 {
		return &items[0], true
	}
	return nil, false
}

// remember keeps the tojson text of v, a list or dict shared by
// renderings, in memo.
func remember(memo map[any]string, v jinja2.Value) {
	key, ok := memoKey(v)
	if !ok {
		return
	}
	pv, err := jinja2.ToPyJSON(v)
	if err != nil {
		return
	}
	memo[key] = pyjson.Dumps(pv)
}

// argsCache holds tool-call arguments converted, by their JSON text, with
// their tojson text. It is read without a lock and copied on write; it
// starts again empty when it is full.
type argsCache struct {
	mu    sync.Mutex
	table atomic.Pointer[argsTable]
}

type argsTable struct {
	vals map[string]jinja2.Value
	json map[any]string
}

const maxCachedArgs = 256

// value returns the arguments raw as transformers passes them: the JSON
// value they hold (a mapping, usually), or their text when they are not
// JSON; an empty dict when there are none.
func (a *argsCache) value(raw []byte) jinja2.Value {
	if len(raw) == 0 {
		return jinja2.DictV(jinja2.NewDict(0))
	}
	if at := a.table.Load(); at != nil {
		if v, ok := at.vals[string(raw)]; ok {
			return v
		}
	}
	pv, err := pyjson.Parse(raw)
	if err != nil {
		return jinja2.StrV(string(raw))
	}
	v := jinja2.FromGo(pv)
	key := string(raw)
	a.mu.Lock()
	defer a.mu.Unlock()
	old := a.table.Load()
	nt := &argsTable{vals: map[string]jinja2.Value{}, json: map[any]string{}}
	if old != nil && len(old.vals) < maxCachedArgs {
		for k, v := range old.vals {
			nt.vals[k] = v
		}
		for k, v := range old.json {
			nt.json[k] = v
		}
	}
	nt.vals[key] = v
	remember(nt.json, v)
	a.table.Store(nt)
	return v
}

// goFunc is what a Go function in the template variables (format.Vars)
// becomes, at any depth, named by its key or field: a callable that
// refuses to be called (Unsupported, at the call), printed as
// <function NAME>. Python's Jinja2 would call a Python callable, but a Go
// function's parameters and results have no Python types to follow; a
// template that does not call it renders as it would with any other
// value, where it was None before (a call said "'NoneType' object is not
// callable").
func goFunc(name string, _ any) jinja2.Value {
	return jinja2.FuncV(&jinja2.Func{
		Name: name,
		Repr: "<function " + name + ">",
		Call: func(*jinja2.Ctx, []jinja2.Value, []jinja2.Kwarg) (jinja2.Value, error) {
			return jinja2.Value{}, &jinja2.Error{Kind: "Unsupported", Msg: "calling " + name + ", a Go function of the template variables, is not supported: pass its result as data"}
		},
	})
}
