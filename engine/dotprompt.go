package engine

// Dotprompt's dialect, all of it: a .prompt file is a Dotprompt file, and
// what Dotprompt does differently from the other templates of a Set is
// here. Front matter (frontmatter.go) and its schemas (package
// engine/schema) are read alike for every file; Dotprompt's front-matter
// keys are among them.
//
//   - which file is one (readDialect) and how its markup becomes
//     messages (dotpromptMessages);
//   - the model message Dotprompt opens after {{history}}
//     (dotpromptAfterHistory);
//   - variants: NAME.VARIANT.prompt (SplitVariant, VariantFile, Variant).

import (
	"context"
	"errors"
	"path"
	"strings"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/textpos"
	"github.com/rolemark/rolemark/roleparse"
)

// dotpromptOpen is the message every Dotprompt render starts in.
const dotpromptOpen = `<message role="user">`

// dotpromptAfterHistory follows the history that {{history}} places in a
// Dotprompt file: Dotprompt opens a model (assistant) message there.
func dotpromptAfterHistory() string {
	return string(roleparse.MessageTag(string(chat.RoleAssistant)))
}

// isDotpromptFile reports whether the file name ends in .prompt, in any
// case: a Dotprompt file.
func isDotpromptFile(name string) bool { return strings.EqualFold(path.Ext(name), ".prompt") }

// readDialect marks a Dotprompt file (.prompt) by its name and notes how
// Dotprompt trims its body: src is the template after the front matter,
// whose lines it keeps as blank lines.
func (t *Template) readDialect(src string) {
	if !isDotpromptFile(t.name) {
		return
	}
	t.dotprompt = true
	t.trimLead = len(src) - len(strings.TrimLeft(src, " \t\r\n"))
	t.trimBody = t.fm != nil
}

// dotpromptMessages turns the markup a Dotprompt file (.prompt) rendered
// into messages the way Dotprompt splits its rendered text:
//
//   - the render starts in a user message, so text before the first role
//     marker, and a {{media}} there, belong to a user message;
//   - {{history}} is followed by a model (assistant) message (see
//     placeHistory);
//   - whitespace is kept as rendered, except that a template with front
//     matter is trimmed at both ends, as Dotprompt trims what follows the
//     front matter;
//   - a text piece that is only ASCII whitespace (the markup's whitespace;
//     a value of Unicode spaces such as U+0085 or U+2028 is content) is
//     dropped, and so is a message
//     left with nothing in it (so a role marker right after another one
//     just changes the role).
func (t *Template) dotpromptMessages(ctx context.Context, r *driver.Request, markup string, history []chat.Message, placed bool) ([]chat.Message, error) {
	msgs, err := t.dotpromptParse(markup)
	if err != nil {
		return nil, t.markupErrorFor(ctx, r, history, markup, err)
	}
	out := msgs[:0]
	for _, m := range msgs {
		parts := m.Content[:0]
		for _, p := range m.Content {
			if p.Type == chat.PartText && strings.Trim(p.Text, " \t\r\n") == "" {
				continue
			}
			parts = append(parts, p)
		}
		m.Content = parts
		if len(m.Content) == 0 {
			m.Content = nil
			if len(m.ToolCalls) == 0 && m.ToolCallID == "" {
				continue
			}
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		out = nil
	}
	if len(history) > 0 && !placed {
		out = insertHistory(out, history)
	}
	return out, nil
}

// dotpromptParse parses markup, a Dotprompt file's render, as Dotprompt
// splits it (see dotpromptMessages); a *roleparse.Error's place is in
// markup.
func (t *Template) dotpromptParse(markup string) ([]chat.Message, error) {
	lead := 0
	body := markup
	if t.trimBody {
		for lead < len(body) && lead < t.trimLead && isSpaceByte(body[lead]) {
			lead++
		}
		body = strings.TrimRight(body[lead:], " \t\r\n")
	}
	opts := append(append([]roleparse.Option(nil), t.parse...), roleparse.KeepSpace(), roleparse.Loose())
	msgs, err := roleparse.Parse(dotpromptOpen+body, opts...)
	if err != nil {
		var pe *roleparse.Error
		if errors.As(err, &pe) {
			off := max(pe.Offset-len(dotpromptOpen)+lead, 0)
			line, col := textpos.LineCol(markup, off)
			err = &roleparse.Error{Line: line, Col: col, Offset: off, Msg: pe.Msg}
		}
		return nil, err
	}
	return msgs, nil
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// SplitVariant splits the path of a Dotprompt file named as Dotprompt's
// DirStore names a variant, DIR/NAME.VARIANT.prompt, into the prompt's
// path without the extension (DIR/NAME) and the variant. Any other path
// gives itself without its extension and an empty variant; so does a
// name with more dots (a.b.c.prompt), which DirStore would skip.
func SplitVariant(p string) (name, variant string) {
	ext := path.Ext(p)
	name = strings.TrimSuffix(p, ext)
	if !isDotpromptFile(p) {
		return name, ""
	}
	dir, base := path.Split(name)
	n, v, ok := strings.Cut(base, ".")
	if !ok || n == "" || v == "" || strings.Contains(v, ".") {
		return name, ""
	}
	return dir + n, v
}

// VariantFile returns the file of variant v of the template file p:
// bank.formal.prompt for bank.prompt and formal; p itself for an empty v.
func VariantFile(p, v string) string {
	if v == "" {
		return p
	}
	ext := path.Ext(p)
	return strings.TrimSuffix(p, ext) + "." + v + ext
}

// Variant reads variant v of the named file instead of the file itself:
// bank.formal.prompt for bank.prompt and Variant("formal"), as Dotprompt's
// DirStore loads a variant. Errors name the variant's file. An empty v
// reads the file itself.
func Variant(v string) FileOption { return func(f *fileSettings) { f.variant = v } }
