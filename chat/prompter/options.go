package prompter

import (
	"slices"
	"strconv"

	"github.com/rolemark/rolemark/chat"
)

// DefaultSystem is the system prompt a prompter uses unless System sets
// another one.
const DefaultSystem = "You are an AI-Agent developed by LazyLLM."

// Release names the LazyLLM release whose text a prompter reproduces. The
// releases differ only in small details of the text they produce; see the
// package documentation.
type Release int

const (
	// Release2406 is LazyLLM as of June 2024, the release the LazyLLM
	// prompter documentation describes. It is the default.
	Release2406 Release = iota
	// Release2605 is LazyLLM as of May 2026 (the prompter sources last
	// changed then).
	Release2605
)

// String returns the release's name, such as "2406".
func (r Release) String() string {
	switch r {
	case Release2406:
		return "2406"
	case Release2605:
		return "2605"
	}
	return "Release(" + strconv.Itoa(int(r)) + ")"
}

// Option configures a prompter. Given to NewAlpaca or NewChat, an option
// sets the prompter's default; given to Prompt or Messages, it applies to
// that call only: history given to a call is appended to the prompter's
// history, and every other option replaces the prompter's setting.
type Option func(*config)

// config holds every setting an Option can change.
type config struct {
	release         Release
	system          string
	user            string // user-level instruction
	userSet         bool   // the instruction is split into system and user levels
	extraKeys       []string
	markers         Markers
	markersSet      bool
	tools           []chat.Tool
	history         []chat.Message
	skills          string
	noSystemMessage bool
	label           string
	allowMarkers    bool
	// reshape records that an option changed what the instruction
	// template is built from, and retools that an option changed how the
	// tools are written, so a call must redo that work.
	reshape, retools bool
}

// System sets the system prompt that precedes the instruction
// (DefaultSystem unless set). An empty string leaves it out.
func System(s string) Option {
	return func(c *config) { c.system = s }
}

// UserInstruction splits the instruction in two levels, as LazyLLM's
// {"system": …, "user": …} instruction does: the prompter's instruction
// becomes the system-level instruction and s the user-level one, which is
// placed directly before the input in the user's turn. s may hold {slots}
// too.
func UserInstruction(s string) Option {
	return func(c *config) { c.user, c.userSet, c.reshape = s, true, true }
}

// ExtraKeys names inputs that the instruction does not mention: each
// becomes a "### key:" section with a {key} slot, appended to the
// instruction. Keys are made of letters, digits and underscores.
func ExtraKeys(keys ...string) Option {
	keys = slices.Clone(keys)
	return func(c *config) { c.extraKeys, c.reshape = keys, true }
}

// Tools sets the tools the model may call. In the string form they are
// listed as JSON at the end of the system part; in the message form they
// are returned beside the messages. Given to a call, the call's tools
// replace the prompter's (an empty list removes them).
func Tools(tools ...chat.Tool) Option {
	tools = slices.Clone(tools)
	return func(c *config) { c.tools, c.retools = tools, true }
}

// History appends earlier messages of the conversation. Only the Chat
// prompter takes history.
func History(msgs ...chat.Message) Option {
	msgs = slices.Clone(msgs)
	return func(c *config) { c.history = append(slices.Clip(c.history), msgs...) }
}

// Pairs appends earlier turns of the conversation given as
// [question, answer] pairs, LazyLLM's [[q, a], …] history: each pair is a
// user message followed by an assistant message. Only the Chat prompter
// takes history.
func Pairs(pairs ...[2]string) Option {
	msgs := make([]chat.Message, 0, 2*len(pairs))
	for _, p := range pairs {
		msgs = append(msgs, chat.Text(chat.RoleUser, p[0]), chat.Text(chat.RoleAssistant, p[1]))
	}
	return History(msgs...)
}

// UseMarkers sets the markers that frame each role in the string form.
// Unless set, a prompter uses the markers of its release: LazyLLMMarkers for
// Release2406, none for Release2605.
func UseMarkers(m Markers) Option {
	return func(c *config) { c.markers, c.markersSet = m, true }
}

// AllowMarkers lets the string form write values that hold one of its
// markers (ErrMarker). Such a value can forge a turn: allow it only for
// trusted text.
func AllowMarkers() Option {
	return func(c *config) { c.allowMarkers = true }
}

// Skills adds a skills text after the instruction in the system part.
func Skills(s string) Option {
	return func(c *config) { c.skills = s }
}

// NoSystemMessage leaves the system message out of the message form
// (LazyLLM's enable_system=False). The string form is not affected.
func NoSystemMessage() Option {
	return func(c *config) { c.noSystemMessage = true }
}

// Label appends s, the expected answer of a training example, to the
// string form.
func Label(s string) Option {
	return func(c *config) { c.label = s }
}

// UseRelease selects the LazyLLM release whose text the prompter
// reproduces (Release2406 unless set).
func UseRelease(r Release) Option {
	return func(c *config) { c.release, c.reshape, c.retools = r, true, true }
}

// activeMarkers returns the markers set by UseMarkers, or the release's.
func (c *config) activeMarkers() Markers {
	if c.markersSet {
		return c.markers
	}
	if c.release == Release2406 {
		return LazyLLMMarkers()
	}
	return Markers{}
}
