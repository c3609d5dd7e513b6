package chattemplate_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
)

// FuzzSpecialTokensComposed is the differential check on templates the
// fuzzer composes: three expressions joined by ~, each an atom (a piece
// of the token as a literal, the data, an object, a container of data, a
// number) under up to three operations (an index, a slice, a filter or
// a method: case changes, repr, JSON, escapes, padding, striptags, …),
// with a part of the token as the message's content (as given, lower
// cased or as HTML character references) and the rest as a variable.
// The rendering may hold the token only where the neutral rendering
// holds it; a rendering that fails, or whose neutral rendering fails, is
// skipped.
func FuzzSpecialTokensComposed(f *testing.F) {
	f.Add([]byte{0, 1, 2, 5, 3, 1, 0, 7, 1, 2, 0})
	f.Add([]byte{3, 4, 9, 1, 20, 2, 6, 3, 33, 4, 1, 0})
	f.Add([]byte{1, 7, 2, 2, 5, 40, 0, 44, 1, 14, 3, 1, 2})
	f.Fuzz(func(t *testing.T, prog []byte) {
		k := 0
		next := func(n int) int {
			if k >= len(prog) {
				return 0
			}
			k++
			return int(prog[k-1]) % n
		}
		tok := composeTokens[next(len(composeTokens))]
		cut := 1 + next(len(tok)-1)
		a, c := tok[:cut], tok[cut:]
		atoms := []string{jq(a), jq(c), jq("x" + a), jq(c + "x"), jq(reversed(a)), jq(strings.ToLower(tok)),
			"messages[0].content", "v", "range", "loop", "(messages[0].content,)", "[messages[0].content]",
			"{'k': messages[0].content}", "1", "-1", "1.5", "none", "true", "dict(a_b=1)", "cycler('x')",
			"namespace(a=1)", "m", "messages[0]", "g", "g.A"}
		// v, g and g.A are template variables, or, when the last byte
		// says so, a second message, its content and role: a rendering
		// without variables is the one that records where the template's
		// own text wrote (OwnSpans)
		atoms[7], atoms[23], atoms[24] = "@V@", "@G@", "@G@.@A@"
		var parts []string
		for range 3 {
			e := atoms[next(len(atoms))]
			for n := next(4); n > 0; n-- {
				e = "(" + e + ")" + composeOps[next(len(composeOps))]
			}
			parts = append(parts, e)
		}
		src := "{% macro m() %}x{% endmacro %}{% for q in [1] %}{{ " + strings.Join(parts, " ~ ") + " }}{% endfor %}"
		i := next(len(tok) + 1)
		j := i + next(len(tok)-i+1)
		content := tok[i:j]
		switch next(3) {
		case 1:
			content = strings.ToLower(content)
		case 2:
			var e strings.Builder
			for _, r := range content {
				fmt.Fprintf(&e, "&#%d;", r)
			}
			content = e.String()
		}
		type goStruct struct{ A string }
		vars := map[string]any{"v": tok[j:], "g": goStruct{A: "a"}}
		msgs := []chat.Message{chat.Text(chat.RoleUser, content)}
		if next(2) == 1 {
			src = strings.NewReplacer("@V@", "messages[1].content", "@G@", "messages[1]", "@A@", "role").Replace(src)
			msgs = append(msgs, chat.Text(chat.RoleUser, tok[j:]))
			vars = nil
		} else {
			src = strings.NewReplacer("@V@", "v", "@G@", "g", "@A@", "A").Replace(src)
		}
		tpl, err := chattemplate.New(src, chattemplate.SpecialTokens(tok))
		if err != nil {
			return
		}
		render := func(m []chat.Message, o renderOpts) (string, error) {
			return tpl.Render(context.Background(), m, o.options()...)
		}
		out, err := render(msgs, renderOpts{Vars: vars})
		if err != nil {
			return
		}
		nmsgs, nopts := neutralConversation(t, msgs, renderOpts{Vars: vars})
		nopts.AllowSpecialTokens = true
		neutral, err := render(nmsgs, nopts)
		if err != nil {
			return
		}
		if len(out) == len(neutral) {
			for at := 0; at+len(tok) <= len(out); at++ {
				if out[at:at+len(tok)] == tok && neutral[at:at+len(tok)] != tok {
					t.Fatalf("%s with %q, v %q: the data made %q at %d:\n%q\nneutral:\n%q", src, content, tok[j:], tok, at, out, neutral)
				}
			}
		} else if strings.Count(out, tok) > strings.Count(neutral, tok) {
			t.Fatalf("%s with %q, v %q: the data made %q:\n%q\nneutral:\n%q", src, content, tok[j:], tok, out, neutral)
		}
	})
}

var composeTokens = []string{"<|im_end|>", "[/INST]", "<tool_call>", "<s>", "<｜User｜>"}

var composeOps = []string{"[0]", "[-1]", "[1:]", "[:-1]", "[::-1]", "|first", "|last", "|reverse", "|upper",
	"|lower", "|title", "|capitalize", "|string", "|list", "|join", "|tojson", "|trim", "|e", "|urlencode",
	"|center(12)", "|truncate(5, true, leeway=0)", "|wordwrap(3)", "|replace('x', '')", "|replace('a', '<')",
	"|format", "|sort", "|unique", "|min", "|max", "|batch(1)|list", "|map('first')|list", "|items|list",
	"|dictsort", "|pprint", "|xmlattr", "|striptags", "|indent(2, true)", "|int", "|length", "|default('<|')",
	".upper()", ".strip('x')", ".split('x')", ".title()", ".lower()", ".replace('x', '')", ".format(1)",
	"|attr('upper')", ".upper", ".items", "|string|list|reverse|join", "|select|join"}
