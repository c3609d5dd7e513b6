package chattemplate

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/internal/option"
	"github.com/rolemark/rolemark/chat/format/internal/pystr"
	"github.com/rolemark/rolemark/chat/format/internal/special"
	"github.com/rolemark/rolemark/internal/jinja2"
)

// Template is a model's own chat template: the Jinja source HuggingFace
// models publish in tokenizer_config.json (or chat_template.jinja), with the
// special tokens it reads. Render gives the string transformers'
// apply_chat_template(messages, tools=…, add_generation_prompt=…,
// tokenize=False, **vars) gives. A Template is safe for concurrent use.
type Template struct {
	name     string
	variants map[string]*compiled // "default", "tool_use", …
	tokens   map[string]string    // bos_token, eos_token, …
	special  []string             // refused in message content, longest first
	inferred []string             // the special tokens taken from the source's text
	guard    *special.Guard       // nil without special tokens
	// joins is set when the template's own text could make a special
	// token with data written next to it that holds some of its marks,
	// not all (Guard.JoinsData): the guard knows the pieces that do
	// (Guard.JoinedByPieces).
	joins bool
	// neutral counts the neutral renderings (step 2), neutralConverted
	// the neutral conversations converted and kept, for tests.
	neutral, neutralConverted atomic.Uint64
	// unforgeable counts the renderings whose data called for step 2
	// but whose prompt held no token the data could have made.
	unforgeable atomic.Uint64
	// forgeChecks counts the prompts step 2's first test read (the
	// others were renderings found clean before: convKept.clean), for
	// tests.
	forgeChecks atomic.Uint64
	clock       func() time.Time
	memo        memo
	// parts: every message's content is a list of parts (ContentParts).
	parts bool
	// conv is the conversation kept (conv.go); lastSeen the fingerprint
	// of the last one not kept, which starts from seed.
	conv     atomic.Pointer[convKept]
	lastSeen atomic.Uint64
	seed     uint64
	// def and toolUse are variants["default"] and ["tool_use"].
	def, toolUse *compiled
	// lay is the layout of the variables of a rendering without
	// format.Vars, and fixed their values that are the same at every
	// rendering (data.go).
	lay   *jinja2.Layout
	fixed []jinja2.Value
	// env is the variants' environment; states pools renderings' state
	// (*renderData, data.go), and hot holds the Template's own, which
	// the rendering that sets busy takes (nil until one makes it).
	env    *jinja2.Env
	states sync.Pool
	hot    atomic.Pointer[renderData]
	busy   atomic.Bool
}

// Option configures a Template.
type Option func(*templateSettings)

type templateSettings struct {
	// known is set when a tokenizer config or Token gave the tokens.
	known   bool
	name    string
	tokens  map[string]string
	special []string
	clock   func() time.Time
	variant string
	parts   bool
}

// Name names the template in errors (usually its file name).
func Name(name string) Option {
	return func(s *templateSettings) { s.name = name }
}

// Token sets a special token variable the template reads, such as
// "bos_token" or "eos_token", and adds its value to the special tokens
// refused in message content. It overrides what a tokenizer_config.json
// says. A template given a token variable is taken to know its tokens, as
// one with a tokenizer config does: those its text writes are not added
// (see New).
func Token(variable, value string) Option {
	return func(s *templateSettings) {
		s.known = true
		if s.tokens == nil {
			s.tokens = map[string]string{}
		}
		s.tokens[variable] = value
	}
}

// SpecialTokens adds tokens the model's tokenizer reads as special
// (added_tokens_decoder entries marked special): message content that holds
// one is refused unless rendering allows it (format.AllowSpecialTokens).
func SpecialTokens(tokens ...string) Option {
	return func(s *templateSettings) { s.special = append(s.special, tokens...) }
}

// Clock sets the clock strftime_now reads (default time.Now), so that
// templates that print today's date render the same in tests.
func Clock(now func() time.Time) Option {
	return func(s *templateSettings) { s.clock = now }
}

// Variant chooses one of a tokenizer_config.json's named templates
// ("default", "tool_use", "rag", …) for every rendering. Without it,
// rendering picks "tool_use" when tools are given and the config has it,
// and "default" otherwise, as transformers does.
func Variant(name string) Option {
	return func(s *templateSettings) { s.variant = name }
}

// ContentParts passes every message's content to the template as a list
// of parts, a text-only message's as [{"type": "text", "text": …}] and a
// message without content as [], as callers of vision models' templates
// write it: a template that only loops over parts (llava's, the embedding
// and reranking templates of Qwen2-VL-style models) prints nothing of a
// content string. Without it, a message of at most one text part is a
// string, as most templates expect.
func ContentParts() Option {
	return func(s *templateSettings) { s.parts = true }
}

// TemplateError is a chat template that cannot be compiled or that fails
// while rendering: a Jinja error, or the template's own refusal
// (raise_exception), whose message is Msg.
type TemplateError struct {
	// Template is the template's name (Name), often its file.
	Template string
	// Line and Col locate a compile error in the source, when known.
	Line, Col int
	// Raised is true for the template's own raise_exception.
	Raised bool
	// Msg says what went wrong.
	Msg string
	// Err is the underlying error, when there is one.
	Err error
}

func (e *TemplateError) Error() string {
	var b strings.Builder
	b.WriteString(orDefault(e.Template, "chat template"))
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	b.WriteString(": ")
	if e.Raised {
		b.WriteString("the template refuses the conversation: ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

func (e *TemplateError) Unwrap() error { return e.Err }

// MaxDepth is how deep the maps, lists and pointers of a variable given
// with format.Vars may nest (engine.MaxDepth in the engines): Python's
// Jinja2 goes no deeper either, its recursion limit is 1000.
const MaxDepth = 1000

// DepthError is a variable of format.Vars nested deeper than MaxDepth, a
// map or list that holds itself most likely, which the conversion would
// follow until the Go runtime ended the process. A rendering returns it as
// a *TemplateError's Err; it reads as engine.DepthError does.
type DepthError struct {
	// Name is the variable.
	Name string
}

func (e *DepthError) Error() string {
	return fmt.Sprintf("variable %q nests more than %d maps and lists deep (a map or list that holds itself?)", e.Name, MaxDepth)
}

// specialTokenError is the error for a token the special-token rule found.
func specialTokenError(name string, h *special.Hit) error {
	return &format.SpecialTokenError{Format: name, Index: h.Index, Token: h.Token, Where: h.Where}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// New compiles a chat template from its Jinja source. Without a
// tokenizer config (Load and ParseTokenizerConfig read one) and
// without Token, its special tokens are those its own text writes, as
// TextTokens lists them, plus any SpecialTokens names.
func New(source string, opts ...Option) (*Template, error) {
	return newTemplate(map[string]string{"default": source}, opts)
}

func newTemplate(sources map[string]string, opts []Option) (*Template, error) {
	t, known, err := buildTemplate(sources, opts, nil)
	if err != nil || known {
		return t, err
	}
	// A template may compose a token its text holds in no literal
	// ('<|' + message['role'] + '|>'): what it writes around a neutral
	// conversation is its own too. The template is built again, so that
	// the probe's renderings leave nothing in the one returned.
	if !t.composesTokens() {
		return t, nil
	}
	t, _, err = buildTemplate(sources, opts, t.writtenTokens())
	return t, err
}

// probeTimeout bounds each rendering of writtenTokens: a real template
// writes four short messages in microseconds, and New of a hostile one
// (a loop of minutes) must stay quick.
const probeTimeout = 100 * time.Millisecond

// composesTokens reports whether a literal of the template holds a part
// of a token's brackets outside a whole token ("<|", "|>" and DeepSeek's
// full-width ones), from which it may compose a token with data.
func (t *Template) composesTokens() bool {
	found := false
	for _, jt := range t.variants {
		jinjaLiterals(jt.tpl.Tree(), func(lit string) bool {
			rest := textTokenPattern.ReplaceAllString(lit, "")
			for _, part := range []string{"<|", "|>", "<｜", "｜>"} {
				if strings.Contains(rest, part) {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// probeConversations are neutral conversations whose rendering shows the
// tokens a template writes of its own (one without a system message for
// templates that refuse it).
var probeConversations = [][]chat.Message{
	{chat.Text(chat.RoleSystem, "a"), chat.Text(chat.RoleUser, "b"), chat.Text(chat.RoleAssistant, "c"), chat.Text(chat.RoleUser, "d")},
	{chat.Text(chat.RoleUser, "b"), chat.Text(chat.RoleAssistant, "c"), chat.Text(chat.RoleUser, "d")},
}

// writtenTokens returns the tokens (textTokenPattern) that renderings of
// the probe conversations hold and t.inferred lacks; a rendering that
// fails adds none.
func (t *Template) writtenTokens() []string {
	var out []string
	for _, msgs := range probeConversations {
		for _, gen := range []bool{true, false} {
			var opts []format.Option
			if gen {
				opts = append(opts, format.GenerationPrompt())
			}
			ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
			s, err := t.Render(ctx, msgs, opts...)
			cancel()
			if err != nil {
				continue
			}
			for _, tok := range textTokens(s) {
				if !slices.Contains(t.inferred, tok) && !slices.Contains(out, tok) {
					out = append(out, tok)
				}
			}
		}
	}
	return out
}

// buildTemplate compiles a template; written are tokens its renderings
// write (writtenTokens), taken as its text's when no tokenizer config
// gives the tokens. known reports that one (or Token) did.
func buildTemplate(sources map[string]string, opts []Option, written []string) (_ *Template, known bool, _ error) {
	var s templateSettings
	for _, o := range opts {
		o(&s)
	}
	t := &Template{
		name:     s.name,
		variants: map[string]*compiled{},
		tokens:   map[string]string{},
		clock:    s.clock,
		seed:     0xcbf29ce484222325,
		parts:    s.parts,
	}
	if t.clock == nil {
		t.clock = time.Now
	}
	if s.variant != "" {
		src, ok := sources[s.variant]
		if !ok {
			return nil, s.known, &TemplateError{Template: t.name, Msg: fmt.Sprintf("no chat template named %q (have %s)",
				s.variant, strings.Join(slices.Sorted(maps.Keys(sources)), ", "))}
		}
		sources = map[string]string{"default": src}
	}
	env := chatEnv(t.clock, &t.memo)
	t.env = env
	for name, src := range sources {
		jt, err := compileJinja(env, orDefault(t.name, "chat template"), src)
		if err != nil {
			if len(sources) > 1 {
				err.Msg = "template " + name + ": " + err.Msg
			}
			err.Template = t.name
			return nil, s.known, err
		}
		t.variants[name] = jt
	}
	maps.Copy(t.tokens, s.tokens)
	t.def, t.toolUse = t.variants["default"], t.variants["tool_use"]
	t.lay, t.fixed = layout(t.tokens)
	refused := append([]string{}, s.special...)
	for _, v := range t.tokens {
		refused = append(refused, v)
	}
	if !s.known {
		t.inferred = textTokens(append(slices.Collect(maps.Values(sources)), written...)...)
		refused = append(refused, t.inferred...)
	}
	t.special = specialSet(refused)
	if t.guard = special.New(t.special); t.guard != nil {
		t.joinOwnPieces()
	}
	return t, s.known, nil
}

// joinOwnPieces tells the guard the pieces of the template's own text
// that could make a token with data next to them.
// The pieces of the template's own text that could make a token
// with data next to them: its literals, and the token variables it
// prints as it prints its text; the punctuation Jinja2 writes of
// its own (reprPunct); what readOwnText finds it writes besides:
// when it cuts its literals (% formatting, replace, a slice, an
// index, |upper, …), every part of a token they hold; when it
// writes text no literal holds (an object's repr, %c), every mark.
// A literal written whole as a write of its own has the sides the
// order of the template's writes gives it (writeOrder); Jinja2's
// own brackets are closed on their inner side unless the template
// may cut a repr (reprCuts); every other piece is open.
func (t *Template) joinOwnPieces() {
	t.guard.JSONValues()
	var joining []special.Piece
	keepE := func(lit string, e edges) {
		if t.guard.Joins(lit) {
			joining = append(joining, special.Piece{Text: lit, LeftClosed: !e.left, RightClosed: !e.right})
		}
	}
	keep := func(lit string) bool {
		keepE(lit, open)
		return true
	}
	own, order, reprOpen := t.readOwnWrites()
	for _, jt := range t.variants {
		jinjaLiterals(jt.tpl.Tree(), func(lit string) bool {
			keepE(lit, order.edgesOf(lit))
			if own.trims {
				trimmed(lit, keep)
			}
			if own.cuts {
				literalPieces(lit, t.special, func(p string) { keep(p) })
			}
			return true
		})
	}
	for _, v := range t.tokens {
		keep(v)
		if own.trims {
			trimmed(v, keep)
		}
		if own.cuts {
			literalPieces(v, t.special, func(p string) { keep(p) })
		}
	}
	if !own.cuts {
		for _, lit := range own.cutLits {
			literalPieces(lit, t.special, func(p string) { keep(p) })
		}
	}
	for i := 0; i < len(reprPunct); i++ {
		keepE(reprPunct[i:i+1], reprEdges(reprPunct[i], reprOpen))
	}
	for _, p := range own.chars {
		keep(p)
	}
	if own.loose {
		for _, tok := range t.special {
			for i := 0; i < len(tok); i++ {
				keep(tok[i : i+1])
			}
		}
	}
	if own.decodes {
		t.guard.AlsoMark('&')
	}
	slices.SortFunc(joining, func(a, b special.Piece) int {
		return cmp.Or(strings.Compare(a.Text, b.Text), cmpBool(a.LeftClosed, b.LeftClosed), cmpBool(a.RightClosed, b.RightClosed))
	})
	joining = slices.Compact(joining)
	t.guard.JoinedByPieces(joining)
	t.joins = t.guard.JoinsData()
}

// readOwnWrites reads every variant's tree: what it writes of its own
// (readOwnText), the order of its writes (readWriteOrder; nil where a
// variant's is not known) and whether Jinja2's brackets may be open on
// their inner side (a repr the template may cut, reprCuts).
func (t *Template) readOwnWrites() (own ownText, order *writeOrder, reprOpen bool) {
	order = &writeOrder{lits: map[string]edges{}}
	for _, jt := range t.variants {
		own.merge(readOwnText(jt.tpl.Tree(), t.tokens))
		wo := readWriteOrder(jt.tpl.Tree())
		if wo == nil {
			order, reprOpen = nil, true
			continue
		}
		reprOpen = reprOpen || wo.jsonRight || reprCuts(jt.tpl.Tree(), wo.jsonCuts)
		if order != nil {
			order.merge(wo)
		}
	}
	return own, order, reprOpen
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// reprEdges are the sides of c, a character of reprPunct, that data may
// stand next to: an opening bracket, brace or parenthesis Jinja2 writes
// is followed by its own text, a closing one preceded by it, unless the
// template may cut such text (cut); every other character is open.
func reprEdges(c byte, cut bool) edges {
	switch {
	case cut:
		return open
	case c == '[' || c == '{' || c == '(':
		return edges{left: true}
	case c == ']' || c == '}' || c == ')':
		return edges{right: true}
	}
	return open
}

// trimmed keeps lit with white space trimmed off its start, its end
// and both, as Python's str.strip trims (|trim, .strip()).
func trimmed(lit string, keep func(string) bool) {
	keep(pystr.TrimLeft(lit))
	keep(strings.TrimRightFunc(lit, pystr.IsSpace))
	keep(pystr.Trim(lit))
}

// TextTokens returns the special tokens taken from the template's own text
// (<|im_start|>, [INST], <start_of_turn>, … as textTokens reads them)
// because neither a tokenizer config nor Token gave the model's; nil
// when one did. They are among SpecialTokens.
func (t *Template) TextTokens() []string { return slices.Clone(t.inferred) }

// specialSet returns the distinct non-empty tokens, longest first, so that
// the longest match is named.
func specialSet(tokens []string) []string { return sortSpecial(slices.Clone(tokens)) }

// sortSpecial is specialSet in tokens' own memory.
func sortSpecial(tokens []string) []string {
	out := slices.DeleteFunc(tokens, func(s string) bool { return s == "" })
	slices.SortFunc(out, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	return slices.Compact(out)
}

// Name is the template's name (Name).
func (t *Template) Name() string { return t.name }

// Tokens returns the special token variables the template is rendered with
// (bos_token, eos_token, …).
func (t *Template) Tokens() map[string]string { return maps.Clone(t.tokens) }

// SpecialTokens returns the tokens refused in message content.
func (t *Template) SpecialTokens() []string { return slices.Clone(t.special) }

// Render writes msgs with the template, as transformers'
// apply_chat_template(msgs, tools=…, add_generation_prompt=…,
// continue_final_message=…, tokenize=False, **vars) does, with the options
// of package format: format.Tools, format.GenerationPrompt,
// format.ContinueFinal, format.Vars. Messages reach the template in
// transformers' shape (see the package documentation). A template's
// refusal is a *TemplateError with Raised set; data holding a special
// token is a *format.SpecialTokenError unless format.AllowSpecialTokens.
func (t *Template) Render(ctx context.Context, msgs []chat.Message, opts ...format.Option) (string, error) {
	rd := t.getData()
	option.ApplyTo(&rd.opts, opts)
	out, err := t.checkedRender(ctx, rd, msgs, nil)
	t.putData(rd)
	if err != nil && len(t.inferred) > 0 {
		t.markFromText(err)
	}
	return out, err
}

// AppendRender appends the prompt Render returns to dst and returns the
// extended slice, as strconv's Append functions do; on an error it
// returns dst as it was, with Render's error. It takes Render's options
// and makes Render's checks. The template writes the prompt straight into
// dst, so a caller that renders many conversations into one buffer it
// reuses (dst[:0]) makes no allocation for the prompt; bytes of dst past
// the length it returns (its spare capacity) may have been written.
func (t *Template) AppendRender(ctx context.Context, dst []byte, msgs []chat.Message, opts ...format.Option) ([]byte, error) {
	rd := t.getData()
	option.ApplyTo(&rd.opts, opts)
	into := dst
	if cap(into)-len(into) < rd.last {
		// room for a prompt as long as the last one, made at once
		// rather than grown step by step from nothing
		into = slices.Grow(into, rd.last)
	}
	rd.into, rd.dst, rd.start = true, into, len(dst)
	_, err := t.checkedRender(ctx, rd, msgs, nil)
	out := rd.dst
	// the caller's memory is not kept with the pooled state
	rd.into, rd.dst = false, nil
	if err == nil {
		rd.last = len(out) - len(dst)
	}
	t.putData(rd)
	if err != nil {
		if len(t.inferred) > 0 {
			t.markFromText(err)
		}
		return dst, err
	}
	return out, nil
}

// markFromText sets FromText on a *SpecialTokenError for a token taken
// from the template's text.
func (t *Template) markFromText(err error) {
	var se *format.SpecialTokenError
	if errors.As(err, &se) && slices.Contains(t.inferred, se.Token) {
		se.FromText = true
	}
}

// checkedRender is Render, with the options in rd, before its error says
// where a token came from; it also records, when spans is not nil, the
// spans of the {% generation %} blocks of what it returns. With rd.into
// set (AppendRender) the prompt is appended to rd.dst instead, and what
// it returns is not the prompt.
func (t *Template) checkedRender(ctx context.Context, rd *renderData, msgs []chat.Message, spans *[]jinja2.Span) (string, error) {
	opts := &rd.opts
	if opts.AddGenerationPrompt && opts.ContinueFinal {
		return "", format.ErrContinueConflict
	}
	check := !opts.AllowSpecialTokens && t.guard != nil
	// the kept conversation, when msgs is it, is taken where it lies:
	// its list goes on by pointer rather than as a Value copied through
	// every call on the way to the variables
	var list *jinja2.Value
	var kept *convKept // list is &kept.list
	kc := t.conv.Load()
	if n := kc.heldBy(msgs); kc != nil && n == len(kc.snaps) && n == len(msgs) {
		list, kept = &kc.list, kc
	} else {
		var lv jinja2.Value
		var hit *special.Hit
		if lv, _, kc, hit = t.conversation(msgs, check); hit != nil {
			return "", specialTokenError(t.name, hit)
		}
		if lv.Kind() == jinja2.KindList {
			list = &lv
		}
	}
	// the tools are compared with the memo's once: the entry found
	// holds their converted value and the guard's verdict on them
	var te *toolsEntry
	if len(opts.Tools) > 0 {
		te = t.memo.find(opts.Tools)
	}
	var v dataVerdict
	if check {
		if len(opts.Tools) > 0 {
			v.tv = t.toolsVerdict(te, opts.Tools)
		}
		// te keeps tv: the verdict on the kept conversation with
		// these tools is kept with the conversation (keptVerdict)
		var kv *keptVerdict
		if kc != nil && te != nil && len(opts.Vars) == 0 {
			kv = kc.withTools.Load()
		}
		switch {
		case kc != nil && v.tv == nil && len(opts.Vars) == 0:
			// the verdict on the kept conversation alone, made as it
			// was kept
			v.forge, v.neutral = kc.forge, kc.neutralAlone
		case kv != nil && kv.tv == v.tv:
			// the verdict on it with these tools, made at the first
			// rendering with them
			v.forge, v.neutral = kv.forge, kv.neutral
		default:
			if err := t.scanVerdict(&v, msgs, opts, kc, te, kv); err != nil {
				return "", err
			}
		}
	}
	if v.neutral && v.forge != nil && spans == nil && t.foundClean(rd, kc, te) {
		// the verdict is the kept conversation's, and a rendering of it
		// with these tools and flags was found clean
		v.neutral = false
	}
	if v.neutral {
		// where the template's own text wrote, for Forgeable
		rd.jr.TrackOwn(true)
	}
	out, err := t.render(ctx, rd, msgs, list, kept, te, v.tv, opts, spans)
	if err != nil || !v.neutral {
		return out, err
	}
	return t.neutralCheck(ctx, rd, msgs, out, kc, te, v, spans)
}

// dataVerdict is the guard's verdict on the data before a rendering
// (checkedRender, scanVerdict):
// neutral when step 2 (a neutral rendering to compare with) may be
// needed; forge, when not nil, the tokens the data could make, kept
// with the conversation or with its verdict; seen otherwise the marks
// of all the data, read only when neutral; tv the verdict on the tools.
type dataVerdict struct {
	neutral bool
	seen    *special.Marks
	forge   *special.Forgers
	tv      *special.ToolsVerdict
}

// scanVerdict makes the verdict on the data where none is kept: the
// messages are scanned (unless kc, the kept conversation, holds their
// marks) and checked with the tools' verdict v.tv and the variables;
// the verdict made at the first rendering of a kept conversation with
// tools is kept with it (kv is the one kept, nil where none is).
func (t *Template) scanVerdict(v *dataVerdict, msgs []chat.Message, opts *option.Settings, kc *convKept, te *toolsEntry, kv *keptVerdict) error {
	var marks special.Marks
	if kc != nil {
		marks = kc.all
	} else {
		var hit *special.Hit
		if marks, hit = t.guard.ScanMessages(msgs); hit != nil {
			return specialTokenError(t.name, hit)
		}
	}
	all, n, hit := t.guard.CheckScannedVerdict(marks, v.tv, opts.Vars)
	if hit != nil {
		return specialTokenError(t.name, hit)
	}
	v.seen, v.neutral = &all, n
	if kc != nil && te != nil && kv == nil && len(opts.Vars) == 0 {
		// kept for the first tools it is rendered with: another
		// list in turn is checked at each rendering, as before,
		// rather than allocate a verdict each time
		kept := &keptVerdict{tv: v.tv, neutral: n}
		if n {
			kept.forge = t.guard.Forgers(all)
		}
		kc.withTools.CompareAndSwap(nil, kept)
	}
	return nil
}

// neutralCheck is checkedRender's step 2 for out, a prompt rendered from
// data that may hold a special token's marks: where no such token could
// have been forged outside the template's own text, out stands;
// otherwise the neutral conversation is rendered and compared with it.
func (t *Template) neutralCheck(ctx context.Context, rd *renderData, msgs []chat.Message, out string, kc *convKept, te *toolsEntry, v dataVerdict, spans *[]jinja2.Span) (string, error) {
	opts := &rd.opts
	// Only a token the data could have made (its marks, or a join's,
	// are in the data) can be forged, and only where the template's own
	// text did not write all of it: a prompt holding no such token needs
	// no neutral rendering (special.Guard.ForgeableOutside).
	var forgeable bool
	own := ownSpans(rd.jr.OwnSpans()).at
	switch {
	case v.forge != nil && rd.into:
		forgeable = t.guard.ForgeableByBytes(v.forge, rd.dst[rd.start:], own)
	case v.forge != nil:
		forgeable = t.guard.ForgeableBy(v.forge, out, own)
	case rd.into:
		forgeable = t.guard.ForgeableOutsideBytes(*v.seen, rd.dst[rd.start:], own)
	default:
		forgeable = t.guard.ForgeableOutside(*v.seen, out, own)
	}
	rd.jr.TrackOwn(false)
	t.forgeChecks.Add(1)
	if !forgeable {
		t.unforgeable.Add(1)
		if v.forge != nil && spans == nil && kc.clean.Load() == nil && len(rd.args) > 0 && !rd.jr.Varied() {
			// rendered with rd.jr (the variables by position), and
			// nothing read that varies (the rendering's own report):
			// another rendering with these tools and flags writes
			// this prompt again
			kc.clean.CompareAndSwap(nil, &cleanRender{te: te, gen: opts.AddGenerationPrompt, cont: opts.ContinueFinal})
		}
		return out, nil
	}
	t.neutral.Add(1)
	nopts := *opts
	_, _, nopts.Vars = t.guard.Neutral(nil, nil, opts.Vars)
	if len(opts.Tools) > 0 {
		nopts.Tools = t.guard.NeutralTools(v.tv, opts.Tools)
	}
	// the neutral conversation is kept with the conversation (not as the
	// conversation kept: it would replace the one the next rendering
	// looks for), or converted in the rendering's memory
	nmsgs, nlist := t.neutralOf(kc, msgs)
	var nte *toolsEntry
	if len(nopts.Tools) > 0 {
		nte = t.memo.find(nopts.Tools)
	}
	var list *jinja2.Value
	if nlist.Kind() == jinja2.KindList {
		list = &nlist
	}
	// the neutral prompt is a string of its own, also for AppendRender
	into := rd.into
	rd.into = false
	n, err := t.render(ctx, rd, nmsgs, list, nil, nte, nil, &nopts, nil)
	rd.into = into
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", &format.SpecialTokenError{Format: t.name, Index: -1,
			Where: "the prompt could not be checked (the neutral conversation fails: " + err.Error() + ");"}
	}
	if into {
		out = string(rd.dst[rd.start:])
	}
	if hit := t.guard.Compare(out, n); hit != nil {
		return "", specialTokenError(t.name, hit)
	}
	return out, nil
}

// foundClean reports whether a rendering of kc, the kept conversation,
// with te, the memo's entry of the tools (nil without tools), and the
// flags of rd was found clean (convKept.clean): it writes the same
// prompt, which holds no token the data could have made.
func (t *Template) foundClean(rd *renderData, kc *convKept, te *toolsEntry) bool {
	cr := kc.clean.Load()
	if cr == nil {
		return false
	}
	if cr.te != te || cr.gen != rd.opts.AddGenerationPrompt || cr.cont != rd.opts.ContinueFinal {
		return false
	}
	t.unforgeable.Add(1)
	return true
}

// ownSpans is the spans of a prompt that the template's own text wrote
// (jinja2.Renderer.OwnSpans), in order.
type ownSpans []jinja2.Span

// at returns the i-th span, or false past the last.
func (o ownSpans) at(i int) (start, end int, ok bool) {
	if i >= len(o) {
		return 0, 0, false
	}
	return o[i].Start, o[i].End, true
}

// render is Render after the checks of the data, in rd; list is msgs as
// the messages list, or nil to convert them in rd, and kept the
// Template's kept conversation when list is &kept.list; te is the
// memo's entry for opts.Tools, or nil to convert them (and keep tv, the
// guard's verdict on them, with the entry made).
func (t *Template) render(ctx context.Context, rd *renderData, msgs []chat.Message, list *jinja2.Value, kept *convKept, te *toolsEntry, tv *special.ToolsVerdict, opts *option.Settings, spans *[]jinja2.Span) (string, error) {
	jt := t.def
	if len(opts.Tools) > 0 && t.toolUse != nil {
		jt = t.toolUse
	}
	if jt == nil {
		return "", &TemplateError{Template: t.name, Msg: "no default chat template (the config names only " +
			strings.Join(slices.Sorted(maps.Keys(t.variants)), ", ") + "; choose one with Variant)"}
	}
	if spans != nil && !jt.gen {
		return "", ErrNoGeneration
	}
	if err := t.data(rd, msgs, list, kept, te, tv, opts); err != nil {
		return "", err
	}
	out, err := jt.render(ctx, t, rd, spans)
	rd.reset(t)
	if err != nil {
		return "", err
	}
	if opts.ContinueFinal {
		if rd.into {
			return "", rd.continueFinal(msgs)
		}
		return continueFinal(out, msgs)
	}
	return out, nil
}

// continueFinal is continueFinal of the prompt AppendRender appended to
// rd.dst, cut there.
func (rd *renderData) continueFinal(msgs []chat.Message) error {
	n := continueAt(rd.dst[rd.start:], msgs)
	if n < 0 {
		return format.ErrNotContinuable
	}
	rd.dst = rd.dst[:rd.start+n]
	return nil
}

// continueFinal cuts the prompt after the final message's text, as
// transformers' continue_final_message does.
func continueFinal(out string, msgs []chat.Message) (string, error) {
	n := continueAt(out, msgs)
	if n < 0 {
		return "", format.ErrNotContinuable
	}
	return out[:n], nil
}

// continueAt returns the length of the prompt out cut after the final
// message's text (continueFinal), or -1 when out does not hold it.
func continueAt[S string | []byte](out S, msgs []chat.Message) int {
	if len(msgs) == 0 {
		return len(out)
	}
	final := msgs[len(msgs)-1].Text()
	stripped := pystr.Trim(final)
	loc := -1
	switch o := any(out).(type) {
	case string:
		loc = strings.LastIndex(o, stripped)
	case []byte:
		loc = bytes.LastIndex(o, []byte(stripped))
	}
	if loc < 0 {
		return -1
	}
	lstripped := pystr.TrimLeft(final)
	if loc+len(lstripped) <= len(out) && string(out[loc:loc+len(lstripped)]) == final {
		return loc + len(lstripped)
	}
	return loc + len(stripped)
}
