package engine

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/textpos"
	"github.com/rolemark/rolemark/roleparse"
)

// ErrNoEngine is the cause of Set.Parse's error when neither the caller nor
// the front matter names an engine.
var ErrNoEngine = errors.New("no engine: name one, or write engine: in the front matter")

// markupError is rendered markup that does not parse. located says that the
// enclosing *Error carries the problem's position in the template source, so
// the markup's own position is left out of the message.
type markupError struct {
	err     *roleparse.Error
	located bool
	hint    string // what probably caused it, appended to the message
}

func (e *markupError) Error() string {
	msg := e.err.Error()
	if e.located {
		msg = e.err.Msg
	}
	if e.hint != "" {
		msg += " (" + e.hint + ")"
	}
	return "rendered markup: " + msg
}

// historyInMessage is markupError's hint when the markup failed to parse
// with history and the template placed the history inside a message.
const historyInMessage = "the history is placed inside a message: it is whole messages, the first of which closes that one; place it between messages"

// historyInside reports whether the history marker in markup (before the
// history replaced it) stands inside an open message: the markup before it
// has a message tag, and one more </message> closes one.
func historyInside(markup string, opts []roleparse.Option) bool {
	i := strings.Index(markup, driver.HistoryMarker)
	if i < 0 || !strings.Contains(strings.ToLower(markup[:i]), "<message") {
		return false
	}
	_, err := roleparse.Parse(markup[:i]+string(roleparse.EndTag), opts...)
	return err == nil
}

// placementFault reports whether a parse error of markup with history
// placed at driver.HistoryMarker is the placement's: the markup parses
// without the history, and the history parses alone. A history the markup
// cannot hold, or a mistake elsewhere in the template, gets no hint.
func placementFault(markup string, history []chat.Message, opts []roleparse.Option) bool {
	if _, err := roleparse.Parse(strings.ReplaceAll(markup, driver.HistoryMarker, ""), opts...); err != nil {
		return false
	}
	h, err := roleparse.Marshal(history)
	if err != nil {
		return false
	}
	_, err = roleparse.Parse(h, opts...)
	return err == nil
}

func (e *markupError) Unwrap() error { return e.err }

// markupError returns the *Error for markup out, rendered by the template,
// that failed to parse with err. When the rendered text from the problem to
// the end of its line (or to the next "<" in it) is found exactly once in the
// template's source, the error carries that place in the source: it is where
// the template author wrote what went wrong, such as a literal
// <message role="wizard">. Otherwise it gives the place in the rendered
// markup.
func (t *Template) markupError(out string, err error) error {
	var pe *roleparse.Error
	if !errors.As(err, &pe) {
		return &Error{Template: t.name, Err: fmt.Errorf("rendered markup: %w", err)}
	}
	e := &Error{Template: t.name, Err: &markupError{err: pe}}
	if line, col, ok := locate(t.src, out, pe.Offset); ok {
		e.Line, e.Col = line, col
		e.Err.(*markupError).located = true
	}
	return e
}

// locate finds the rendered text at offset off of out in src, as described at
// markupError, and returns its 1-based line and column (in runes).
func locate(src, out string, off int) (line, col int, ok bool) {
	if off < 0 || off >= len(out) {
		return 0, 0, false
	}
	rest := out[off:]
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
		rest = rest[:nl]
	}
	cands := []string{rest}
	if lt := strings.IndexByte(rest[min(1, len(rest)):], '<'); lt >= 0 {
		cands = append(cands, rest[:lt+1])
	}
	for _, c := range cands {
		c = strings.TrimRight(c, " \t\r")
		if len(c) < 3 || strings.Count(src, c) != 1 {
			continue
		}
		line, col = textpos.LineCol(src, strings.Index(src, c))
		return line, col, true
	}
	return 0, 0, false
}
