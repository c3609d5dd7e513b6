package format

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
)

// fullFormat returns a Format with every field set, each string to a text
// of its own.
func fullFormat() *Format {
	edges := func(p string) *Edges { return &Edges{Begin: p + ".first.begin", End: p + ".first.end"} }
	turn := func(p string) Turn {
		return Turn{Begin: p + ".begin", End: p + ".end", Trim: true, SkipEmpty: true, Error: p + ".error",
			First: edges(p + ".first"), Last: edges(p + ".last")}
	}
	other, sys, call := turn("other"), turn("system.turn"), turn("tools.call_turn")
	return &Format{
		Name: "name", Description: "description", BOS: "bos", EOS: "eos", Begin: "begin", End: "end",
		Roles:    map[chat.Role]Turn{chat.RoleUser: turn("user"), chat.RoleAssistant: turn("assistant")},
		Fallback: map[chat.Role]chat.Role{chat.RoleTool: chat.RoleUser},
		Other:    &other, RoleError: "role_error", Generate: chat.RoleAssistant, GenerationPrompt: "generation_prompt",
		System: System{Placement: SystemLeading, Turn: &sys, Prefix: "system.prefix", Suffix: "system.suffix",
			TrimFolded: true, Default: "system.default", Error: "system.error"},
		Alternate: AlternateStrict, AlternateError: "alternate_error",
		Tools: &ToolFormat{Placement: ToolsInSystem, Begin: "tools.begin", Sep: "tools.sep", End: "tools.end",
			RawStrings: true, CallTurn: &call, ContentPrefix: "tools.content_prefix", DropContent: true,
			CallsBegin: "tools.calls_begin", CallBegin: "tools.call_begin", CallSep: "tools.call_sep",
			CallEnd: "tools.call_end", CallsEnd: "tools.calls_end", CallID: true, IDLength: 9, IDError: "tools.id_error",
			ResultsBegin: "tools.results_begin", ResultBegin: "tools.result_begin", ResultEnd: "tools.result_end",
			ResultsEnd: "tools.results_end"},
		Image:   "image",
		Special: []string{"special.0", "special.1"},
	}
}

// textLeaves returns the path of every string, and of every pointer (its
// last element "<nil>"), under v.
func textLeaves(v reflect.Value, path []string) [][]string {
	switch v.Kind() {
	case reflect.String:
		return [][]string{slices.Clone(path)}
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return append([][]string{append(slices.Clone(path), "<nil>")}, textLeaves(v.Elem(), path)...)
	case reflect.Struct:
		var out [][]string
		for i := range v.NumField() {
			out = append(out, textLeaves(v.Field(i), append(path, v.Type().Field(i).Name))...)
		}
		return out
	case reflect.Map:
		var out [][]string
		for _, k := range v.MapKeys() {
			out = append(out, textLeaves(v.MapIndex(k), append(path, k.String()))...)
		}
		return out
	case reflect.Slice:
		var out [][]string
		for i := range v.Len() {
			out = append(out, textLeaves(v.Index(i), append(path, string(rune('0'+i))))...)
		}
		return out
	}
	return nil
}

// change changes the string at path under v (sets the pointer to nil, for
// a path ending in "<nil>").
func change(v reflect.Value, path []string) {
	switch {
	case len(path) == 1 && path[0] == "<nil>":
		v.SetZero()
	case len(path) == 0:
		v.SetString(v.String() + ".changed")
	case v.Kind() == reflect.Pointer:
		change(v.Elem(), path)
	case v.Kind() == reflect.Struct:
		change(v.FieldByName(path[0]), path[1:])
	case v.Kind() == reflect.Map:
		k := reflect.ValueOf(path[0]).Convert(v.Type().Key())
		e := reflect.New(v.Type().Elem()).Elem()
		e.Set(v.MapIndex(k))
		change(e, path[1:])
		v.SetMapIndex(k, e)
	case v.Kind() == reflect.Slice:
		change(v.Index(int(path[0][0]-'0')), path[1:])
	}
}

// TestOwnTextFollowsEveryText: a change to any text of a Format that
// its own-text check reads makes sameText false, so a rendering after it
// computes the check afresh; the fields it does not read are listed.
func TestOwnTextFollowsEveryText(t *testing.T) {
	notRead := []string{"Name", "Description", "Fallback", "RoleError", "Generate", "Alternate", "AlternateError",
		"System.Placement", "System.Error", "Error"}
	ignored := func(path []string) bool {
		p := strings.Join(path, ".")
		for _, n := range notRead {
			if p == n || strings.HasPrefix(p, n+".") || n == "Error" && path[len(path)-1] == "Error" {
				return true
			}
		}
		return false
	}
	leaves := textLeaves(reflect.ValueOf(fullFormat()).Elem(), nil)
	require.Greater(t, len(leaves), 60)
	for _, path := range leaves {
		t.Run(strings.Join(path, "."), func(t *testing.T) {
			f := fullFormat()
			o := newOwnText(f)
			require.True(t, sameText(&o.text, f))
			change(reflect.ValueOf(f).Elem(), path)
			if ignored(path) {
				return
			}
			assert.False(t, sameText(&o.text, f), "a change of %s goes unseen", strings.Join(path, "."))
		})
	}
}

// TestCloneTextHoldsEveryLiteral: the clone ownText is computed from
// yields the same texts as the Format it was made of.
func TestCloneTextHoldsEveryLiteral(t *testing.T) {
	texts := func(f *Format) []string {
		var out []string
		yield := func(s string) bool { out = append(out, s); return true }
		f.ownLiterals(yield)
		f.toolLiterals(yield)
		out = append(out, f.specialTokens(nil)...)
		out = append(out, f.Other.Begin, f.Other.End, edge(f.Other.First, true), edge(f.Other.First, false),
			edge(f.Other.Last, true), edge(f.Other.Last, false))
		slices.Sort(out)
		return out
	}
	f := fullFormat()
	c := cloneText(f)
	assert.Equal(t, texts(f), texts(&c))
	assert.True(t, sameText(&c, f))
	assert.Greater(t, len(texts(f)), 50)
}

// TestOwnTextAfterAChange: a format changed after a rendering is checked
// as it now is. Each change makes the format's own text end with the start
// of <|im_end|>, which the message completes.
func TestOwnTextAfterAChange(t *testing.T) {
	base := func() *Format {
		return &Format{Name: "own", Special: []string{"<|im_start|>", "<|im_end|>"},
			Other:            &Turn{Begin: "<|im_start|>{role}\n", End: "<|im_end|>\n"},
			GenerationPrompt: "<|im_start|>assistant\n"}
	}
	msgs := []chat.Message{chat.Text(chat.RoleUser, "end|> hello")}
	for _, tc := range []struct {
		name   string
		change func(f *Format)
	}{
		{"Other.Begin", func(f *Format) { f.Other.Begin += "<|im_" }},
		{"Other replaced", func(f *Format) { f.Other = &Turn{Begin: "<|im_start|>{role}\n<|im_", End: "\n"} }},
		{"a role's turn", func(f *Format) {
			f.Roles = map[chat.Role]Turn{chat.RoleUser: {Begin: "<|im_start|>user\n<|im_", End: "\n"}}
		}},
		{"Begin", func(f *Format) { f.Begin = "<|im_"; f.Other.Begin = "" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := base()
			out, err := f.Render(msgs)
			require.NoError(t, err)
			assert.Equal(t, "<|im_start|>user\nend|> hello<|im_end|>\n", out)
			tc.change(f)
			_, err = f.Render(msgs)
			var se *SpecialTokenError
			require.True(t, errors.As(err, &se), "got %v", err)
			assert.Equal(t, "<|im_end|>", se.Token)
			assert.Equal(t, -1, se.Index)
		})
	}
}
