package chattemplate_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
)

// FuzzSpecialTokensOrdered is the differential check on templates whose
// statements the fuzzer orders: texts that are pieces of a token (and
// lone brackets and marks), data printed as it is, as a list's repr, as
// a prefix cut of its JSON or a cut of its repr, beside literals, under
// ifs, loops with break and continue, a raise_exception not reached, a
// macro, a call block and a set block. It is aimed at the write order
// (docs/decisions.md, "Fourth review"): which literal data can follow or
// precede. The rendering may hold the token only where the neutral
// rendering holds it.
func FuzzSpecialTokensOrdered(f *testing.F) {
	f.Add([]byte{1, 1, 6, 1, 0, 0, 3, 0, 0}) // [ then the content /INST]
	f.Add([]byte{1, 0, 0, 1, 6, 1, 0, 1})
	f.Add([]byte{0, 2, 5, 2, 0, 0, 1, 1, 4, 0, 3})
	f.Add([]byte{3, 1, 11, 0, 2, 8, 1, 0, 2, 10, 1, 3, 0, 1, 2})
	f.Add([]byte{1, 3, 6, 1, 2, 5, 1, 0, 12, 2, 0})
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
		i := next(len(tok))
		j := i + next(len(tok)-i+1)
		pieces := []string{tok[:i], tok[j:], "x" + tok[:i], tok[j:] + "x", tok[:1], tok[len(tok)-1:], "[", "]", "<", ">", "|", "/", "_", "x"}
		// @V@ and @X@ are v and x, template variables, or, when the last
		// byte says so, a second message's content and a list literal
		// holding it: a rendering without variables is the one that
		// records where the template's own text wrote (OwnSpans)
		data := []string{"messages[0].content", "@V@", "@X@", "(@X@|string)", "(messages[0].content|tojson)"}
		macro := ""
		var stmts func(depth int) string
		stmts = func(depth int) string {
			var b strings.Builder
			for n := 1 + next(4); n > 0; n-- {
				switch op := next(14); {
				case op < 3:
					b.WriteString(pieces[next(len(pieces))])
				case op == 3:
					b.WriteString("{{ " + data[next(len(data))] + " }}")
				case op == 4:
					lit := strconv.Quote(pieces[next(len(pieces))])
					if next(2) == 0 {
						b.WriteString("{{ " + lit + " ~ " + data[next(len(data))] + " }}")
					} else {
						b.WriteString("{{ " + data[next(len(data))] + " + " + lit + " }}")
					}
				case op == 5:
					b.WriteString("{% set out = " + data[next(len(data))] + "|tojson %}{{ out[:" + []string{"-1", "1", "2", "-2"}[next(4)] + "] }}")
				case op == 6:
					b.WriteString("{{ " + data[next(len(data))] + "[" + []string{":1", "1:", "-1", "0", "::-1"}[next(5)] + "] }}")
				case op == 7:
					b.WriteString("{% if messages|length > 5 %}{{ raise_exception('no') }}{% endif %}")
				case depth >= 2:
					b.WriteString("{{ '' }}")
				case op == 8:
					b.WriteString("{% if messages|length > " + strconv.Itoa(next(2)*5) + " %}" + stmts(depth+1) + "{% else %}" + stmts(depth+1) + "{% endif %}")
				case op == 9:
					b.WriteString("{% for i in range(" + strconv.Itoa(next(3)) + ") %}" + stmts(depth+1))
					switch next(3) {
					case 1:
						b.WriteString("{% if loop.index > 1 %}{% break %}{% endif %}")
					case 2:
						b.WriteString("{% if loop.first %}{% continue %}{% endif %}")
					}
					b.WriteString(stmts(depth+1) + "{% endfor %}")
				case op == 10:
					if macro == "" {
						macro = "-" // a call inside f's body recurses until the limit
						macro = "{% macro f() %}" + stmts(depth+1) + "{% endmacro %}"
					}
					b.WriteString("{{ f() }}")
				case op == 11:
					b.WriteString("{% set s %}" + stmts(depth+1) + "{% endset %}{{ s }}")
				case op == 12:
					b.WriteString("{% macro g() %}{{ caller() }}" + stmts(depth+1) + "{% endmacro %}{% call g() %}" + stmts(depth+1) + "{% endcall %}")
				default:
					b.WriteString("{% filter lower %}" + stmts(depth+1) + "{% endfilter %}")
				}
			}
			return b.String()
		}
		body := stmts(0)
		src := macro + body
		// the middle of the token as the content, and one of its ends as
		// v and in x: the data lacks the other end, which only the
		// template's pieces can write
		mid := tok[i:j]
		vars := map[string]any{"v": tok[j:], "x": []any{tok[j:]}}
		if next(2) == 1 {
			vars["v"], vars["x"] = tok[:i], []any{tok[:i]}
		}
		msgs := []chat.Message{chat.Text(chat.RoleUser, mid)}
		if next(2) == 1 {
			src = strings.NewReplacer("@V@", "messages[1].content", "@X@", "[messages[1].content]").Replace(src)
			msgs = append(msgs, chat.Text(chat.RoleUser, vars["v"].(string)))
			vars = nil
		} else {
			src = strings.NewReplacer("@V@", "v", "@X@", "x").Replace(src)
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
		if vars != nil {
			nopts.Vars["x"] = []any{neutralText(vars["x"].([]any)[0].(string))}
		}
		neutral, err := render(nmsgs, nopts)
		if err != nil {
			return
		}
		if len(out) == len(neutral) {
			for at := 0; at+len(tok) <= len(out); at++ {
				if out[at:at+len(tok)] == tok && neutral[at:at+len(tok)] != tok {
					t.Fatalf("%s with %q, vars %q: the data made %q at %d:\n%q\nneutral:\n%q", src, mid, vars, tok, at, out, neutral)
				}
			}
		} else if strings.Count(out, tok) > strings.Count(neutral, tok) {
			t.Fatalf("%s with %q, vars %q: the data made %q:\n%q\nneutral:\n%q", src, mid, vars, tok, out, neutral)
		}
	})
}
