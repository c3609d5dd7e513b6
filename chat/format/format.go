package format

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format/internal/special"
	"github.com/rolemark/rolemark/chat/format/internal/strictjson"
)

// Format describes how one model family writes a conversation as a single
// prompt string. It is plain data: declare it in Go, or load it from JSON
// (Parse, or encoding/json) or YAML (go.yaml.in/yaml/v3 or gopkg.in/yaml;
// the keys are the JSON ones, and a decoder with KnownFields(true) then
// Validate check it as Parse does). A message is written only if the format
// has a turn for its role (Roles, Fallback or Other).
type Format struct {
	// Name is the preset name ("chatml", "llama3", ...). Informational.
	Name string `json:"name,omitempty" yaml:"name,omitempty"`
	// Description says which model the format is for. Informational.
	Description string `json:"description,omitempty" yaml:"description,omitempty"`

	// BOS is written first, before everything else. Formats whose template
	// repeats the BOS text before every turn put it in the turns instead.
	BOS string `json:"bos,omitempty" yaml:"bos,omitempty"`
	// EOS is the model's end-of-sequence text: the stop string a caller
	// should use. Render writes it only where a turn or End contains it.
	EOS string `json:"eos,omitempty" yaml:"eos,omitempty"`
	// Begin is written after BOS, before the first message.
	Begin string `json:"begin,omitempty" yaml:"begin,omitempty"`
	// End is written after the last message when no generation prompt is
	// added and the final message is not continued.
	End string `json:"end,omitempty" yaml:"end,omitempty"`

	// Roles maps a role to how its messages are written.
	Roles map[chat.Role]Turn `json:"roles,omitempty" yaml:"roles,omitempty"`
	// Fallback writes a role missing from Roles as another role.
	Fallback map[chat.Role]chat.Role `json:"fallback,omitempty" yaml:"fallback,omitempty"`
	// Other writes any role that neither Roles nor Fallback covers. In its
	// Begin and End, "{role}" stands for the role name and "{Role}" for the
	// role name in title case.
	Other *Turn `json:"other,omitempty" yaml:"other,omitempty"`
	// RoleError, when set, makes a message of a role that Roles, Fallback and
	// Other do not cover an error with this text. When empty such a message
	// is left out.
	RoleError string `json:"role_error,omitempty" yaml:"role_error,omitempty"`

	// Generate is the role the model speaks as (default assistant).
	Generate chat.Role `json:"generate,omitempty" yaml:"generate,omitempty"`
	// GenerationPrompt is written after the last message when the caller asks
	// for a generation prompt. When empty, the Begin of Generate's turn is
	// written, if Generate is set.
	GenerationPrompt string `json:"generation_prompt,omitempty" yaml:"generation_prompt,omitempty"`

	// System says where the system message goes.
	System System `json:"system,omitempty" yaml:"system,omitempty"`

	// Alternate makes the format refuse conversations whose roles do not
	// alternate user/assistant, as many templates do.
	Alternate Alternation `json:"alternate,omitempty" yaml:"alternate,omitempty"`
	// AlternateError is the text of that refusal.
	AlternateError string `json:"alternate_error,omitempty" yaml:"alternate_error,omitempty"`

	// Tools says how tool definitions, tool calls and tool results are
	// written. When nil, tool definitions and an assistant message's tool
	// calls are refused (*PartError), and tool messages are written like any
	// other role.
	Tools *ToolFormat `json:"tools,omitempty" yaml:"tools,omitempty"`

	// Image is written in place of each image part of a message (Gemma 3's
	// "<start_of_image>"); the message's text parts are then written one by
	// one, each trimmed when the turn trims. When empty, a message with an
	// image part is refused (*PartError), as is one with audio or a file.
	Image string `json:"image,omitempty" yaml:"image,omitempty"`

	// Special are the model's special tokens: text the tokenizer reads as a
	// token, and text the format's turns are made of that the tokenizer
	// reads as text (Llama 2's [INST]). BOS and EOS count too. Render refuses a message that holds one
	// (*SpecialTokenError) unless AllowSpecialTokens.
	Special []string `json:"special,omitempty" yaml:"special,omitempty"`
}

// PartError is a message part, or the tool definitions, that a format
// cannot write: rendering it would drop it silently.
type PartError struct {
	// Format is the format's name.
	Format string
	// Index is the position of the message; -1 for the tool definitions.
	Index int
	// Part says what cannot be written: "image", "audio", "file", "tool
	// call", "tools".
	Part string
}

func (e *PartError) Error() string {
	name := "format"
	if e.Format != "" {
		name += " " + e.Format
	}
	if e.Index < 0 {
		return name + ": the format has no place for " + e.Part
	}
	what := "a " + e.Part
	switch e.Part {
	case "image", "audio":
		what = "an " + e.Part + " part"
	case "file":
		what = "a file part"
	}
	return fmt.Sprintf("%s: message %d has %s, which the format cannot write", name, e.Index, what)
}

// Turn is how the messages of one role are written: Begin, the text, End.
type Turn struct {
	Begin string `json:"begin,omitempty" yaml:"begin,omitempty"`
	End   string `json:"end,omitempty" yaml:"end,omitempty"`
	// Trim removes leading and trailing white space from the text (Python's
	// str.strip, which HuggingFace templates use).
	Trim bool `json:"trim,omitempty" yaml:"trim,omitempty"`
	// SkipEmpty leaves out a message whose text is empty.
	SkipEmpty bool `json:"skip_empty,omitempty" yaml:"skip_empty,omitempty"`
	// Error, when set, refuses a message of the role with this text.
	Error string `json:"error,omitempty" yaml:"error,omitempty"`
	// First, when set, replaces Begin and End for the first message of the
	// role; Last for the last one. Last wins when a message is both.
	First *Edges `json:"first,omitempty" yaml:"first,omitempty"`
	Last  *Edges `json:"last,omitempty" yaml:"last,omitempty"`
}

// Edges are the Begin and End of a Turn at one position.
type Edges struct {
	Begin string `json:"begin,omitempty" yaml:"begin,omitempty"`
	End   string `json:"end,omitempty" yaml:"end,omitempty"`
}

// Placement says where a format puts the system message.
type Placement string

// The placements of the system message.
const (
	// SystemTurn: system messages are turns like any other role, wherever
	// they stand. Default, when set, is written as a system turn at the
	// start of a conversation that has no system message at all.
	SystemTurn Placement = "turn"
	// SystemLeading: a system message at the start of the conversation is
	// written as the system turn (System.Turn, else Roles["system"]) before
	// the rest; later system messages are ordinary messages.
	SystemLeading Placement = "leading"
	// SystemFirstMessage: a leading system message is not a turn; its text,
	// between System.Prefix and System.Suffix, starts the text of the first
	// remaining message.
	SystemFirstMessage Placement = "first-message"
	// SystemLastUser: a leading system message starts the text of the last
	// remaining message when that is a user message, and is left out
	// otherwise.
	SystemLastUser Placement = "last-user"
	// SystemRefuse: a leading system message is an error (System.Error).
	SystemRefuse Placement = "refuse"
)

// System is where and how a format writes the system message.
type System struct {
	// Placement defaults to SystemTurn.
	Placement Placement `json:"placement,omitempty" yaml:"placement,omitempty"`
	// Turn writes the leading system message for SystemLeading. When nil,
	// Roles["system"] is used.
	Turn *Turn `json:"turn,omitempty" yaml:"turn,omitempty"`
	// Prefix and Suffix surround the system text folded into a message by
	// SystemFirstMessage and SystemLastUser.
	Prefix string `json:"prefix,omitempty" yaml:"prefix,omitempty"`
	Suffix string `json:"suffix,omitempty" yaml:"suffix,omitempty"`
	// TrimFolded applies the receiving turn's Trim to the folded text as a
	// whole (prefix, system text, suffix and message) instead of to the
	// message's own text only.
	TrimFolded bool `json:"trim_folded,omitempty" yaml:"trim_folded,omitempty"`
	// Default is the system text used when the conversation has none: with
	// SystemTurn, when no message is a system message; with the other
	// placements, when the first message is not one. Empty means no
	// default.
	Default string `json:"default,omitempty" yaml:"default,omitempty"`
	// Error is the text of the error SystemRefuse raises.
	Error string `json:"error,omitempty" yaml:"error,omitempty"`
}

// Alternation is a rule on the order of roles.
type Alternation string

// The alternation rules. Both apply to the messages that remain after a
// leading system message has been taken out (for SystemLeading,
// SystemFirstMessage and SystemLastUser) and otherwise to all messages.
const (
	// AlternateStrict: messages at even positions must be user messages
	// and messages at odd positions must not be.
	AlternateStrict Alternation = "strict"
	// AlternateSkipTools: as AlternateStrict, counting only messages that
	// are neither tool results nor assistant messages with tool calls.
	AlternateSkipTools Alternation = "skip-tools"
)

// ToolFormat is how a format writes tool definitions, calls and results.
type ToolFormat struct {
	// Placement of the tool definitions: ToolsInSystem appends them to the
	// system text; ToolsBeforeLastUser writes them before the last user
	// message's turn.
	Placement ToolPlacement `json:"placement,omitempty" yaml:"placement,omitempty"`
	// Begin, Sep and End surround and separate the definitions. Each
	// definition is {"type": "function", "function": {"name": …,
	// "description": …, "parameters": …}}, in JSON written as Python's
	// json.dumps writes it (", " and ": " separators, non-ASCII kept).
	Begin string `json:"begin,omitempty" yaml:"begin,omitempty"`
	Sep   string `json:"sep,omitempty" yaml:"sep,omitempty"`
	End   string `json:"end,omitempty" yaml:"end,omitempty"`
	// RawStrings writes the name and description without JSON escaping, as
	// Mistral's template does.
	RawStrings bool `json:"raw_strings,omitempty" yaml:"raw_strings,omitempty"`

	// CallTurn writes an assistant message that has tool calls. When nil,
	// the assistant's turn is used.
	CallTurn *Turn `json:"call_turn,omitempty" yaml:"call_turn,omitempty"`
	// ContentPrefix is written before the text of such a message when the
	// text is not empty.
	ContentPrefix string `json:"content_prefix,omitempty" yaml:"content_prefix,omitempty"`
	// DropContent leaves the text of such a message out.
	DropContent bool `json:"drop_content,omitempty" yaml:"drop_content,omitempty"`
	// The calls are written as CallsBegin, then each call as CallBegin, the
	// call, CallEnd, separated by CallSep, then CallsEnd. A call is
	// {"name": …, "arguments": …}, with "id" last when CallID is set.
	CallsBegin string `json:"calls_begin,omitempty" yaml:"calls_begin,omitempty"`
	CallBegin  string `json:"call_begin,omitempty" yaml:"call_begin,omitempty"`
	CallSep    string `json:"call_sep,omitempty" yaml:"call_sep,omitempty"`
	CallEnd    string `json:"call_end,omitempty" yaml:"call_end,omitempty"`
	CallsEnd   string `json:"calls_end,omitempty" yaml:"calls_end,omitempty"`
	CallID     bool   `json:"call_id,omitempty" yaml:"call_id,omitempty"`

	// IDLength, when not zero, is the length every tool call ID (in calls
	// and in results) must have; IDError is the error text otherwise.
	IDLength int    `json:"id_length,omitempty" yaml:"id_length,omitempty"`
	IDError  string `json:"id_error,omitempty" yaml:"id_error,omitempty"`

	// A run of consecutive tool messages is written as ResultsBegin, then
	// each result as ResultBegin, its text, ResultEnd, then ResultsEnd. In
	// ResultBegin and ResultEnd, "{id}" stands for the tool call ID.
	ResultsBegin string `json:"results_begin,omitempty" yaml:"results_begin,omitempty"`
	ResultBegin  string `json:"result_begin,omitempty" yaml:"result_begin,omitempty"`
	ResultEnd    string `json:"result_end,omitempty" yaml:"result_end,omitempty"`
	ResultsEnd   string `json:"results_end,omitempty" yaml:"results_end,omitempty"`
}

// ToolPlacement says where tool definitions go.
type ToolPlacement string

// The placements of tool definitions.
const (
	ToolsInSystem       ToolPlacement = "system"
	ToolsBeforeLastUser ToolPlacement = "last-user"
)

// Errors Render returns for a request it cannot carry out. The refusals a
// format declares (RoleError, AlternateError, System.Error, Turn.Error,
// ToolFormat.IDError) come back as *Error values instead.
var (
	ErrNoMessages       = errors.New("format: no messages")
	ErrContinueConflict = errors.New("format: ContinueFinal and GenerationPrompt cannot be combined")
	ErrNotContinuable   = errors.New("format: the format leaves the final message out, so it cannot be continued")
	// ErrVars is Vars given to a Format or a meta template, which have no
	// variables.
	ErrVars = errors.New("format: Vars are a chat template's variables; a format has none")
)

// Error is a conversation a format refuses, with the message the model's
// own template gives.
type Error struct {
	// Format is the format's name.
	Format string
	// Index is the position of the offending message.
	Index int
	// Msg is the template's text, such as "System role not supported".
	Msg string
}

func (e *Error) Error() string {
	if e.Format == "" {
		return "format: " + e.Msg
	}
	return "format " + e.Format + ": " + e.Msg
}

// SpecialTokenError is a prompt in which data (a message, a tool
// definition, a template variable) would put one of the model's special
// tokens. The tokenizer would read that text as the token itself, so a user
// could close a turn and forge another (prompt injection through the chat
// format). The option AllowSpecialTokens turns the check off.
type SpecialTokenError struct {
	// Format is the format's or template's name.
	Format string
	// Index is the position of the message, from 0 (the error's text
	// counts from 1, as every error naming a message does), or -1 when the
	// token is not in one message's string: a tool definition, a template variable, or a
	// token the format or template makes of several strings (text parts
	// joined, a string next to the format's own text, JSON decoded).
	Index int
	// Token is the special token found.
	Token string
	// Where says which part of the message holds it ("content", "name",
	// "tool call arguments", …), or where the token is, when Index is -1.
	Where string
	// FromText is set when the token is one a chat template's own text
	// writes, taken as special because no tokenizer config gave the
	// model's tokens (chattemplate's Template.TextTokens).
	FromText bool
}

func (e *SpecialTokenError) Error() string {
	var b strings.Builder
	b.WriteString("format")
	if e.Format != "" {
		b.WriteString(" " + e.Format)
	}
	if e.Index >= 0 {
		b.WriteString(": message ")
		b.WriteString(strconv.Itoa(e.Index + 1))
		b.WriteString(" (" + e.Where + ") holds the special token ")
	} else {
		b.WriteString(": " + e.Where + " holds the special token ")
	}
	b.WriteString(strconv.Quote(e.Token))
	if e.FromText {
		b.WriteString(" (a token the template's own text writes, taken as special without a tokenizer config)")
	}
	b.WriteString("; refused so that content cannot forge a turn (AllowSpecialTokens allows it)")
	return b.String()
}

// specialTokenError is the error for a token the special-token rule found.
func specialTokenError(name string, h *special.Hit) error {
	return &SpecialTokenError{Format: name, Index: h.Index, Token: h.Token, Where: h.Where}
}

// Parse reads a Format from its JSON form, refusing unknown fields and
// unknown placement and alternation values.
func Parse(data []byte) (*Format, error) {
	return strictjson.Decode[Format](data, "format")
}
