package react_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/react"
)

// eachLine calls f with each line of a JSON Lines file of testdata.
func eachLine(t *testing.T, name string, f func(line []byte)) {
	t.Helper()
	file, err := os.Open("testdata/" + name)
	require.NoError(t, err)
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		f(sc.Bytes())
		n++
	}
	require.NoError(t, sc.Err())
	require.Greater(t, n, 100)
}

// TestParseReplyAgainstQwen compares ParseReply and LatestAction with what
// Qwen's parse_response and parse_latest_plugin_call return for random
// replies.
func TestParseReplyAgainstQwen(t *testing.T) {
	eachLine(t, "qwen_parse_response.jsonl", func(line []byte) {
		var c struct {
			In   string `json:"in"`
			Want struct {
				Content string  `json:"content"`
				Name    *string `json:"name"`
				Args    *string `json:"args"`
			} `json:"want"`
			Latest []string `json:"latest"`
		}
		require.NoError(t, json.Unmarshal(line, &c))
		r, err := react.ParseReply(c.In, nil)
		if c.Want.Name != nil {
			if assert.NotNil(t, r.ToolCall, "%q", c.In) {
				assert.Equal(t, c.Want.Content, r.Thought, "%q", c.In)
				assert.Equal(t, *c.Want.Name, r.ToolCall.Name, "%q", c.In)
				assert.Equal(t, *c.Want.Args, string(r.ToolCall.Arguments), "%q", c.In)
			}
		} else {
			assert.Nil(t, r.ToolCall, "%q", c.In)
			assert.Equal(t, c.Want.Content, r.FinalAnswer, "%q", c.In)
			var fe *react.FormatError
			if errors.As(err, &fe) {
				assert.Equal(t, c.Want.Content, fe.Reply, "%q", c.In)
			}
		}
		name, args, rest, ok := react.LatestAction(c.In)
		assert.Equal(t, c.Latest, []string{name, args, rest}, "%q", c.In)
		assert.Equal(t, name != "", ok)
	})
}

// TestConvertAgainstQwen compares Convert with what Qwen's parse_messages
// returns for random conversations.
func TestConvertAgainstQwen(t *testing.T) {
	gw := getWeather(t)
	instruction := react.Instruction(react.VariantAPI, []react.Tool{gw})
	eachLine(t, "qwen_parse_messages.jsonl", func(line []byte) {
		var c struct {
			Msgs []struct {
				Role         string `json:"role"`
				Content      string `json:"content"`
				FunctionCall *struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function_call"`
			} `json:"msgs"`
			Tools bool `json:"tools"`
			Want  *struct {
				Query   *string    `json:"query"`
				History [][]string `json:"history"`
				System  string     `json:"system"`
			} `json:"want"`
		}
		require.NoError(t, json.Unmarshal(line, &c))
		var msgs []chat.Message
		for _, m := range c.Msgs {
			role := chat.Role(m.Role)
			if role == "function" {
				role = chat.RoleTool
			}
			cm := chat.Text(role, m.Content)
			if m.FunctionCall != nil {
				cm.ToolCalls = []chat.ToolCall{{Name: m.FunctionCall.Name, Arguments: json.RawMessage(m.FunctionCall.Arguments)}}
			}
			msgs = append(msgs, cm)
		}
		var tools []react.Tool
		if c.Tools {
			tools = []react.Tool{gw}
		}
		got, err := react.Convert(react.VariantAPI, tools, msgs)
		if c.Want == nil {
			var ce *react.ConversationError
			assert.True(t, errors.As(err, &ce), "%s: got %q, %v", line, got, err)
			return
		}
		if !assert.NoError(t, err, "%s", line) {
			return
		}
		expand := func(s string) string { return strings.ReplaceAll(s, "{instruction}", instruction) }
		want := []chat.Message{chat.Text(chat.RoleSystem, c.Want.System)}
		for _, p := range c.Want.History {
			want = append(want, chat.Text(chat.RoleUser, expand(p[0])), chat.Text(chat.RoleAssistant, expand(p[1])))
		}
		if c.Want.Query != nil {
			want = append(want, chat.Text(chat.RoleUser, expand(*c.Want.Query)))
		}
		assert.Equal(t, want, got, "%s", line)
	})
}
