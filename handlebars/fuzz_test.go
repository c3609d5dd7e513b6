package handlebars_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
)

// FuzzEscape holds the property of roleparse's security model for this
// engine: whatever the value x, a template that prints it in a message's
// text, in a name attribute, in a media URL or in history yields exactly the
// messages the template writes, with x intact (trimmed of ASCII whitespace
// at both ends where it is message text). The seed corpus (the shared
// hostile values) runs in every go test.
// maxFuzzLen bounds FuzzEscape's values. Seeded with testdata/hostile.json's
// 20,000-byte values, the fuzzer spent most of its time minimizing long
// inputs and ran a few hundred values a minute.
const maxFuzzLen = 512

func FuzzEscape(f *testing.F) {
	for _, x := range hostile(f) {
		if len(x) <= maxFuzzLen {
			f.Add(x) // the long ones are TestInjection's
		}
	}
	f.Add("")
	f.Add(" ")
	f.Add("&#32;x&#32;")
	set := engine.NewSet(handlebars.New())
	type compiledPos struct {
		position
		tpl *engine.Template
	}
	var all []compiledPos
	for _, p := range positions() {
		tpl, err := set.Parse("handlebars", p.name+".hbs", p.src)
		if err != nil {
			f.Fatal(err)
		}
		all = append(all, compiledPos{p, tpl})
	}
	f.Fuzz(func(t *testing.T, x string) {
		if len(x) > maxFuzzLen {
			t.Skip("escaping reads a value a character at a time: a long value adds nothing but time, most of it the minimizer's")
		}
		for _, p := range all {
			vars := map[string]any{"x": x, "user": x, "xs": []any{x}, "o": map[string]any{"v": x}}
			var hist []chat.Message
			if p.hist {
				hist = []chat.Message{chat.Text(chat.RoleUser, x), withName(chat.Text(chat.RoleAssistant, x), x)}
			}
			msgs, err := p.tpl.Messages(context.Background(), vars, engine.History(hist))
			if err != nil {
				if x == "" && strings.Contains(p.name, "url") {
					continue // a media item needs a URL
				}
				t.Fatalf("%s: %q: %v", p.name, x, err)
			}
			if want := p.want(x); !equalMsgs(want, msgs) {
				t.Fatalf("%s: %q:\nwant %s\ngot  %s", p.name, x, show(want), show(msgs))
			}
		}
	})
}
