package opencompass_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format/opencompass"
)

// TestListTemplateApply holds OpenCompass's list-form API meta template
// (APITemplateParser, 2026): seedsys.md's A09 and A09b, and what
// OpenCompass's code gives for the other paths of its merge. A09b's research
// vector shows the inserted item as "SYS"; OpenCompass inserts a copy of the
// meta item, so its content is "SYS: " as written (checked by running
// OpenCompass's parse_template on the vector).
func TestListTemplateApply(t *testing.T) {
	u := func(s string) chat.Message { return chat.Text(chat.RoleUser, s) }
	a := func(s string) chat.Message { return chat.Text(chat.RoleAssistant, s) }
	s := func(s string) chat.Message { return chat.Text(chat.RoleSystem, s) }
	tests := []struct {
		name string
		meta string
		in   []chat.Message
		want []chat.Message
	}{
		{"A09 same role prefixes", `[{"role":"system","content":"SYS: "}]`,
			[]chat.Message{s("be nice"), u("hi")}, []chat.Message{s("SYS: be nice"), u("hi")}},
		{"A09b missing role is inserted as written", `[{"role":"system","content":"SYS: "}]`,
			[]chat.Message{u("hi")}, []chat.Message{s("SYS: "), u("hi")}},
		{"inserted then merged", `[{"role":"system","content":"S"},{"role":"user","content":"U: "}]`,
			[]chat.Message{u("hi"), a("x"), u("y")}, []chat.Message{s("S"), u("U: hi"), a("x"), u("y")}},
		{"kept until the role comes", `[{"role":"user","content":"A"}]`,
			[]chat.Message{s("s"), u("hi")}, []chat.Message{s("s"), u("Ahi")}},
		{"template items left are appended", `[{"role":"user","content":"A"},{"role":"assistant","content":"B"}]`,
			[]chat.Message{u("hi")}, []chat.Message{u("Ahi"), a("B")}},
		{"after the conversation ends", `[{"role":"assistant","content":"B"},{"role":"user","content":"U"}]`,
			[]chat.Message{u("hi"), a("x")}, []chat.Message{u("hi"), a("Bx"), u("U")}},
		{"empty conversation stays empty", `[{"role":"system","content":"S"}]`,
			[]chat.Message{}, []chat.Message{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := opencompass.ParseList([]byte(tc.meta))
			if err != nil {
				t.Fatal(err)
			}
			got, err := l.Apply(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			gj, _ := json.Marshal(got)
			wj, _ := json.Marshal(tc.want)
			if string(gj) != string(wj) {
				t.Errorf("meta %s on %d messages:\n got %s\nwant %s", tc.meta, len(tc.in), gj, wj)
			}
		})
	}
}

func TestListTemplateRefused(t *testing.T) {
	for _, src := range []string{
		`[{"role":"tool","content":"x"}]`,
		`[{"role":"SYSTEM","content":"x"}]`,
		`[{"role":"system","content":"x","begin":"<s>"}]`,
	} {
		if _, err := opencompass.ParseList([]byte(src)); err == nil {
			t.Errorf("ParseList(%s): no error", src)
		}
	}
	_, err := opencompass.Parse([]byte(`[{"role":"system","content":"x"}]`))
	if err == nil || !strings.Contains(err.Error(), "ParseList") {
		t.Errorf("Parse of a list-form template: %v, want an error naming ParseList", err)
	}
}

// The prefix goes before the first part of a message that is not text only.
func TestListTemplateParts(t *testing.T) {
	l := opencompass.ListTemplate{{Role: chat.RoleUser, Content: "Q: "}}
	in := []chat.Message{{Role: chat.RoleUser, Content: []chat.Part{{Type: chat.PartImage, URL: "https://x/a.png"}, chat.TextPart("what?")}}}
	got, err := l.Apply(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got[0].Content) != 3 || got[0].Content[0].Text != "Q: " || len(in[0].Content) != 2 {
		t.Errorf("got %+v (input now %+v)", got, in)
	}
}
