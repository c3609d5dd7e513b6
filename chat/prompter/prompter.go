package prompter

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/internal/pyjson"
)

// Prompter turns an input into a prompt: a string for a local model
// (Prompt) or chat messages and tools for a chat API (Messages). It is
// immutable and safe for concurrent use.
type Prompter struct {
	kind        kind
	instruction string
	cfg         config
	tpl         template
	tools       string // the tools section of the string form
}

// Result is the message form of a prompt, LazyLLM's
// {"messages": […], "tools": […]}.
type Result struct {
	Messages []chat.Message `json:"messages"`
	Tools    []chat.Tool    `json:"tools,omitempty"`
}

// NewAlpaca returns a prompter in the Alpaca layout: the system prompt, the
// Alpaca instruction preamble with the instruction, the tools, then
// "### Response:". The instruction may hold {slots}; the input must fill
// them or the extra keys, as the layout has no user turn, and history is
// not accepted.
func NewAlpaca(instruction string, opts ...Option) (*Prompter, error) {
	return newPrompter(alpaca, instruction, opts)
}

// NewChat returns a prompter in LazyLLM's chat layout: a system part with
// the system prompt, instruction and tools, the history, and the user's
// turn. The instruction may hold {slots}; an input that fills none is the
// user's turn.
func NewChat(instruction string, opts ...Option) (*Prompter, error) {
	return newPrompter(chatKind, instruction, opts)
}

func newPrompter(k kind, instruction string, opts []Option) (*Prompter, error) {
	p := &Prompter{kind: k, instruction: instruction, cfg: config{system: DefaultSystem}}
	for _, o := range opts {
		o(&p.cfg)
	}
	p.cfg.reshape, p.cfg.retools = false, false
	p.cfg.history = slices.Clip(p.cfg.history)
	if err := p.cfg.check(k); err != nil {
		return nil, err
	}
	t, err := compile(k, instruction, &p.cfg, false)
	if err != nil {
		return nil, err
	}
	p.tpl = t
	if p.tools, err = toolsSection(&p.cfg); err != nil {
		return nil, err
	}
	return p, nil
}

func (c *config) check(k kind) error {
	if k == alpaca && len(c.history) > 0 {
		return newError(ErrHistory, "the Alpaca prompter takes no history; use the Chat prompter for conversations")
	}
	return nil
}

// parts is a prompt's content before layout.
type parts struct {
	cfg         *config
	instruction string // the filled system-level instruction
	user        string // the filled user-level instruction
	input       string // the part of the input that fills no slot
	values      []string
}

// prepare applies a call's options and fills the instruction with input,
// for the string form (Prompt) or the message form.
func (p *Prompter) prepare(input any, opts []Option, stringForm bool) (parts, error) {
	c, t := &p.cfg, &p.tpl
	if len(opts) > 0 {
		cc := p.cfg
		for _, o := range opts {
			o(&cc)
		}
		c = &cc
		if err := c.check(p.kind); err != nil {
			return parts{}, err
		}
		if c.reshape {
			nt, err := compile(p.kind, p.instruction, c, false)
			if err != nil {
				return parts{}, err
			}
			t = &nt
		}
	}
	if c.release == Release2605 && len(c.tools) > 0 {
		nt, err := compile(p.kind, p.instruction, c, stringForm)
		if err != nil {
			return parts{}, err
		}
		t = &nt
	}
	values, rest, err := t.fill(input)
	if err != nil {
		return parts{}, err
	}
	if p.kind == alpaca && rest != "" {
		return parts{}, newError(ErrUnplaced, "the input has no place: the Alpaca layout has no user turn, so the instruction needs a {slot} or an extra key (ExtraKeys) for it")
	}
	instruction := renderString(t.system, values)
	if t.fc && len(t.slots) == 1 && singleValue(input) {
		// Python's str.format fills the one slot and halves the example's
		// doubled braces; a map is filled with str.replace, which does not.
		if i := strings.LastIndex(instruction, fcExample); i >= 0 {
			instruction = instruction[:i] + fcExample[1:len(fcExample)-1] + instruction[i+len(fcExample):]
		}
	}
	return parts{
		cfg:         c,
		instruction: instruction,
		user:        renderString(t.user, values),
		input:       rest,
		values:      values,
	}, nil
}

// Prompt returns the prompt for input as one string, with the markers of the
// prompter's release or those set by UseMarkers. input is a string or an
// integer, which fills the instruction's one {slot} or else becomes the
// user's turn, or a map from string keys to string values (such as
// map[string]string, or map[string]any holding strings) whose keys fill the
// slots of the same name; at most one key may be left over, and its value
// becomes the user's turn.
func (p *Prompter) Prompt(input any, opts ...Option) (string, error) {
	ps, err := p.prepare(input, opts, true)
	if err != nil {
		return "", err
	}
	c := ps.cfg
	tools := p.tools
	if c.retools {
		if tools, err = toolsSection(c); err != nil {
			return "", err
		}
	}
	if p.kind != alpaca && !c.allowMarkers {
		if err := checkMarkers(c.activeMarkers(), ps, c.history); err != nil {
			return "", err
		}
	}
	ascii := c.release == Release2406
	var b strings.Builder
	b.Grow(256 + len(tools) + len(ps.instruction) + len(ps.user) + len(ps.input))
	if p.kind == alpaca {
		b.WriteString(c.system)
		b.WriteByte('\n')
		b.WriteString(ps.instruction)
		b.WriteString(c.skills)
		b.WriteByte('\n')
		b.WriteString(tools)
		b.WriteByte('\n')
		b.WriteString(ps.user)
		b.WriteString("### Response:\n")
	} else {
		m := c.activeMarkers()
		b.WriteString(m.SystemStart)
		b.WriteString(c.system)
		b.WriteString(ps.instruction)
		b.WriteString(c.skills)
		b.WriteString(tools)
		b.WriteString(m.SystemEnd)
		b.WriteString("\n\n")
		writeHistory(&b, c.history, &m, ascii)
		b.WriteByte('\n')
		b.WriteString(m.UserStart)
		b.WriteByte('\n')
		b.WriteString(ps.user)
		b.WriteString(ps.input)
		b.WriteByte('\n')
		b.WriteString(m.UserEnd)
		b.WriteString(m.AssistantStart)
		b.WriteByte('\n')
	}
	b.WriteString(c.label)
	s := b.String()
	if c.release == Release2605 {
		s = strings.TrimLeft(s, "\n")
	}
	return s, nil
}

// toolsSection returns the tools section of the string form: empty without
// tools.
func toolsSection(c *config) (string, error) {
	if len(c.tools) == 0 {
		return "", nil
	}
	raw, err := json.Marshal(c.tools)
	if err != nil {
		return "", newError(ErrTool, "tools: "+err.Error())
	}
	var js string
	if c.release == Release2605 {
		// LazyLLM 2605 writes tools with json5.dumps.
		v, err := pyjson.Parse(raw)
		if err != nil {
			return "", newError(ErrTool, "tools: "+err.Error())
		}
		js = string(appendJSON5(nil, &v))
	} else if js, err = pyjson.Reformat(raw, pyjson.EnsureASCII(true)); err != nil {
		return "", newError(ErrTool, "tools: "+err.Error())
	}
	return "### Function-call Tools. \n\n" + js + "\n\n", nil
}

// writeHistory writes earlier turns in the string form. System, developer
// and other roles have no place there and are left out.
func writeHistory(b *strings.Builder, history []chat.Message, m *Markers, ascii bool) {
	for _, msg := range history {
		switch msg.Role {
		case chat.RoleUser:
			b.WriteString(m.UserStart)
			b.WriteString(msg.Text())
			b.WriteString(m.UserEnd)
		case chat.RoleAssistant:
			b.WriteString(m.AssistantStart)
			b.WriteString(msg.Text())
			for _, tc := range msg.ToolCalls {
				b.WriteString(m.CallStart)
				b.WriteByte('\n')
				if m.CallArgs != "" {
					b.WriteString(tc.Name)
					b.WriteString(m.CallArgs)
					writeArguments(b, tc.Arguments, ascii)
				} else {
					b.WriteString(`{"name": `)
					b.Write(pyjson.AppendString(nil, tc.Name, ascii))
					b.WriteString(`, "arguments": `)
					writeArguments(b, tc.Arguments, ascii)
					b.WriteByte('}')
				}
				b.WriteString(m.CallEnd)
				b.WriteByte('\n')
			}
			b.WriteString(m.AssistantEnd)
		case chat.RoleTool:
			b.WriteString(m.ToolStart)
			b.WriteString(msg.Text())
			b.WriteString(m.ToolEnd)
		}
	}
}

// writeArguments writes a tool call's arguments as JSON, or as written when
// they are not valid JSON.
func writeArguments(b *strings.Builder, args json.RawMessage, ascii bool) {
	if len(args) == 0 {
		b.WriteString("{}")
		return
	}
	if js, err := pyjson.Reformat(args, pyjson.EnsureASCII(ascii)); err == nil {
		b.WriteString(js)
		return
	}
	b.Write(args)
}

// Messages returns the prompt for input as chat messages and tools, the form
// a chat API takes: a system message with the system prompt, instruction and
// skills (unless NoSystemMessage), the history, and a user message with
// the user-level instruction followed by the input. input is read as by
// Prompt.
func (p *Prompter) Messages(input any, opts ...Option) (Result, error) {
	ps, err := p.prepare(input, opts, false)
	if err != nil {
		return Result{}, err
	}
	c := ps.cfg
	msgs := make([]chat.Message, 0, len(c.history)+2)
	if !c.noSystemMessage {
		msgs = append(msgs, chat.Text(chat.RoleSystem, systemContent(c, ps.instruction)))
	}
	for _, h := range c.history {
		h.Content = slices.Clone(h.Content)
		h.ToolCalls = slices.Clone(h.ToolCalls)
		msgs = append(msgs, h)
	}
	msgs = append(msgs, chat.Text(chat.RoleUser, ps.user+ps.input))
	return Result{Messages: msgs, Tools: slices.Clone(c.tools)}, nil
}

// systemContent joins the system prompt, the instruction and the skills for
// the system message.
func systemContent(c *config, instruction string) string {
	if c.release == Release2406 {
		s := c.system
		if instruction != "" {
			s += "\n" + instruction
		}
		if c.skills != "" {
			s += "\n" + c.skills
		}
		return s
	}
	var parts []string
	for _, s := range [...]string{c.system, instruction, c.skills} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n")
}

// Response returns the model's answer from output, a generated text that may
// repeat the prompt: the text after the last "### Response:" (Alpaca) or
// after the last assistant marker (Chat). Release2605 expects a newline
// after either. Output without it is returned whole.
func (p *Prompter) Response(output string) string {
	var split string
	if p.kind == alpaca {
		split = "### Response:"
	} else {
		split = p.cfg.activeMarkers().AssistantStart
		if split == "" {
			return output
		}
	}
	if p.cfg.release == Release2605 {
		split += "\n"
	}
	if i := strings.LastIndex(output, split); i >= 0 {
		return output[i+len(split):]
	}
	return output
}

// checkMarkers refuses a value of the string form that holds one of the
// markers framing its turns: the input, the values of the slots, and the
// history's texts and tool calls. A marker is looked for without the
// whitespace at its ends ("<|im_start|>user" of "<|im_start|>user\n").
func checkMarkers(m Markers, ps parts, history []chat.Message) error {
	var marks []string
	for _, s := range []string{m.SystemStart, m.SystemEnd, m.UserStart, m.UserEnd, m.AssistantStart,
		m.AssistantEnd, m.ToolStart, m.ToolEnd, m.CallStart, m.CallArgs, m.CallEnd} {
		if s = strings.TrimSpace(s); s != "" {
			marks = append(marks, s)
		}
	}
	if len(marks) == 0 {
		return nil
	}
	check := func(what, s string) error {
		for _, mk := range marks {
			if strings.Contains(s, mk) {
				return newError(ErrMarker, fmt.Sprintf("%s holds the marker %q, which would forge a turn of the prompt (AllowMarkers allows it)", what, mk))
			}
		}
		return nil
	}
	if err := check("the input", ps.input); err != nil {
		return err
	}
	for _, v := range ps.values {
		if err := check("a {slot}'s value", v); err != nil {
			return err
		}
	}
	for i, msg := range history {
		what := fmt.Sprintf("history message %d", i+1)
		for _, part := range msg.Content {
			if err := check(what, part.Text); err != nil {
				return err
			}
		}
		for _, tc := range msg.ToolCalls {
			if err := check(what, tc.Name); err != nil {
				return err
			}
			if err := check(what, string(tc.Arguments)); err != nil {
				return err
			}
		}
	}
	return nil
}
