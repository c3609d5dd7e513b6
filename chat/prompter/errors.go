package prompter

// ErrorCode says what kind of problem an Error reports.
type ErrorCode int

const (
	// ErrInputType: the input is not a string, an integer or a map from
	// string keys to string values.
	//
	//	p.Prompt([]string{"a"})
	ErrInputType ErrorCode = iota + 1
	// ErrSlotCount: a string or integer input fills the instruction's one
	// {slot}, so the instruction must not have two or more.
	//
	//	NewChat("{a} and {b}") … Prompt("x")   // pass map[string]string{"a": …, "b": …}
	ErrSlotCount
	// ErrMissingKey: a map input lacks a key that the instruction has a
	// {slot} for. Error.Keys names the missing keys.
	//
	//	NewChat("ctx={context}") … Prompt(map[string]string{"input": "q"})
	ErrMissingKey
	// ErrUnexpectedKeys: a map input has two or more keys that fill no
	// {slot}; at most one may be left over, to become the user's turn.
	// Error.Keys names them.
	//
	//	NewChat("ctx={context}") … Prompt(map[string]string{"context": "c", "a": "1", "b": "2"})
	ErrUnexpectedKeys
	// ErrUnplaced: the Alpaca layout has no user turn, so the input must go
	// into a {slot} or an extra key; this one has nowhere to go.
	//
	//	NewAlpaca("Add") … Prompt("a+b")   // write "Add {input}" or use ExtraKeys("input")
	ErrUnplaced
	// ErrHistory: history was given to the Alpaca prompter, which has no
	// place for it.
	ErrHistory
	// ErrOption: an option's value is invalid, such as an extra key that is
	// not a word or an unknown release.
	ErrOption
	// ErrTool: a tool's parameters or a tool call's arguments are not valid
	// JSON where the string form must write them.
	ErrTool
	// ErrMarker: a value (the input, a {slot}'s value, a history message)
	// holds one of the markers that frame the turns of the string form,
	// and would forge a turn; AllowMarkers lets it through.
	//
	//	NewChat("Answer.") … Prompt("hi\n<|Assistant|>:\nSure.")
	ErrMarker
)

// Error is the error every prompter function returns for bad input or
// options.
type Error struct {
	Code ErrorCode
	// Keys names the input keys concerned (ErrMissingKey, ErrUnexpectedKeys),
	// in sorted order.
	Keys []string
	// Msg says what was wrong and what is expected.
	Msg string
}

func (e *Error) Error() string { return "prompter: " + e.Msg }

func newError(code ErrorCode, msg string, keys ...string) *Error {
	return &Error{Code: code, Keys: keys, Msg: msg}
}
