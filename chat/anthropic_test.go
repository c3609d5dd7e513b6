package chat

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func call(id, name, args string) ToolCall {
	return ToolCall{ID: id, Name: name, Arguments: json.RawMessage(args)}
}

func toolResult(id, s string) Message {
	return Message{Role: RoleTool, ToolCallID: id, Content: []Part{TextPart(s)}}
}

// TestToAnthropicGolden converts conversations and compares the indented
// JSON of the request with testdata/anthropic_*.json byte for byte.
func TestToAnthropicGolden(t *testing.T) {
	tests := []struct {
		golden string
		msgs   []Message
	}{
		{"anthropic_conversation.json", []Message{
			Text(RoleSystem, "You are a bank manager."),
			Text(RoleDeveloper, "Answer in one sentence."),
			Text(RoleUser, "Hello, Claude"),
			Text(RoleAssistant, "Hello! How can I help?"),
			{Role: RoleUser, Name: "alice", Content: []Part{TextPart("I want to buy a house.")}},
		}},
		{"anthropic_tools.json", []Message{
			Text(RoleUser, "What is the weather like in San Francisco and Paris?"),
			{Role: RoleAssistant, Content: []Part{TextPart("I'll check both cities.")}, ToolCalls: []ToolCall{
				call("toolu_01", "get_weather", `{"location":"San Francisco, CA","unit":"celsius"}`),
				call("toolu_02", "get_weather", `{"location": "Paris, France"}`),
			}},
			toolResult("toolu_01", "15 degrees"),
			toolResult("toolu_02", "18 degrees"),
			Text(RoleUser, "Which is warmer?"),
			{Role: RoleAssistant, ToolCalls: []ToolCall{call("toolu_03", "get_time", "")}},
			toolResult("toolu_03", ""),
		}},
		{"anthropic_media.json", []Message{
			{Role: RoleUser, Content: []Part{
				{Type: PartImage, URL: "https://upload.wikimedia.org/wikipedia/commons/a/a7/Camponotus_flavomarginatus_ant.jpg", Detail: "low"},
				{Type: PartImage, URL: "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ=="},
				{Type: PartImage, URL: "data:image/gif,GIF89a", MediaType: "image/gif"},
				{Type: PartImage, URL: "data:;base64,iVBORw0KGgo=", MediaType: "image/png"},
				TextPart("Describe these images."),
			}},
			{Role: RoleUser, Content: []Part{
				{Type: PartFile, URL: "data:application/pdf;base64,JVBERi0xLjQK"},
				{Type: PartFile, URL: "https://assets.anthropic.com/m/1cd9d098ac3e6467/original/Claude-3-Model-Card-October-Addendum.pdf"},
				{Type: PartFile, URL: DataURI("text/plain", []byte("The grass is green.\nThe sky is blue.")), MediaType: "text/plain"},
				TextPart("Summarise these documents."),
			}},
		}},
		{"anthropic_merge.json", []Message{
			Text(RoleSystem, ""),
			Text(RoleUser, "first"),
			Text(RoleUser, "second"),
			{Role: RoleUser},
			{Role: RoleAssistant, Content: []Part{TextPart("")}},
			Text(RoleAssistant, "reply"),
			{Role: RoleAssistant, ToolCalls: []ToolCall{call("c1", "lookup", `{"q":"x"}`)}},
			Text(RoleUser, "Here is the result:"),
			toolResult("c1", "42"),
			{Role: RoleUser, Content: []Part{TextPart(""), TextPart("thanks")}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			req, err := ToAnthropic(tt.msgs)
			require.NoError(t, err)
			got, err := json.MarshalIndent(req, "", "  ")
			require.NoError(t, err)
			got = append(got, '\n')
			path := filepath.Join("testdata", tt.golden)
			if *update {
				require.NoError(t, os.WriteFile(path, got, 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
		})
	}
}

// TestToAnthropicDocumentedShapes checks ToAnthropic's output against request
// bodies written the way Anthropic's Messages API documentation writes them
// (content as arrays of blocks).
func TestToAnthropicDocumentedShapes(t *testing.T) {
	tests := []struct {
		name string
		msgs []Message
		want string
	}{
		{"tool use and tool result", []Message{
			Text(RoleUser, "What's the weather like in San Francisco?"),
			{Role: RoleAssistant, Content: []Part{TextPart("<thinking>I need to use get_weather</thinking>")},
				ToolCalls: []ToolCall{call("toolu_01A09q90qw90lq917835lq9", "get_weather", `{"location": "San Francisco, CA", "unit": "celsius"}`)}},
			toolResult("toolu_01A09q90qw90lq917835lq9", "15 degrees"),
		}, `{"messages": [
			{"role": "user", "content": [{"type": "text", "text": "What's the weather like in San Francisco?"}]},
			{"role": "assistant", "content": [
				{"type": "text", "text": "<thinking>I need to use get_weather</thinking>"},
				{"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_weather",
				 "input": {"location": "San Francisco, CA", "unit": "celsius"}}
			]},
			{"role": "user", "content": [
				{"type": "tool_result", "tool_use_id": "toolu_01A09q90qw90lq917835lq9", "content": "15 degrees"}
			]}
		]}`},
		{"system prompt and base64 image", []Message{
			Text(RoleSystem, "You are a seasoned data scientist."),
			{Role: RoleUser, Content: []Part{
				{Type: PartImage, URL: "data:image/jpeg;base64,/9j/4AAQ"},
				TextPart("Describe this image."),
			}},
		}, `{"system": "You are a seasoned data scientist.", "messages": [
			{"role": "user", "content": [
				{"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "/9j/4AAQ"}},
				{"type": "text", "text": "Describe this image."}
			]}
		]}`},
		{"image and PDF by URL", []Message{
			{Role: RoleUser, Content: []Part{
				{Type: PartImage, URL: "https://example.com/ant.jpg"},
				{Type: PartFile, URL: "https://example.com/card.pdf"},
				TextPart("Compare."),
			}},
		}, `{"messages": [
			{"role": "user", "content": [
				{"type": "image", "source": {"type": "url", "url": "https://example.com/ant.jpg"}},
				{"type": "document", "source": {"type": "url", "url": "https://example.com/card.pdf"}},
				{"type": "text", "text": "Compare."}
			]}
		]}`},
		{"a participant name and an image detail are not sent", []Message{
			{Role: RoleUser, Name: "alice", Content: []Part{
				{Type: PartImage, URL: "https://example.com/ant.jpg", Detail: "low"},
				TextPart("Hi."),
			}},
		}, `{"messages": [
			{"role": "user", "content": [
				{"type": "image", "source": {"type": "url", "url": "https://example.com/ant.jpg"}},
				{"type": "text", "text": "Hi."}
			]}
		]}`},
		{"plain-text document", []Message{
			{Role: RoleUser, Content: []Part{{Type: PartFile, URL: "data:text/plain,The%20grass%20is%20green."}}},
		}, `{"messages": [
			{"role": "user", "content": [
				{"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "The grass is green."}}
			]}
		]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := ToAnthropic(tt.msgs)
			require.NoError(t, err)
			got, err := json.Marshal(req)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))
		})
	}
}

func TestToAnthropic(t *testing.T) {
	tests := []struct {
		name string
		msgs []Message
		want string
	}{
		{"nil conversation", nil, `{"messages":[]}`},
		{"system only", []Message{Text(RoleSystem, "s")}, `{"system":"s","messages":[]}`},
		{"system and developer joined in order", []Message{
			Text(RoleDeveloper, "d"), Text(RoleUser, "u"), Text(RoleSystem, "s"),
		}, `{"system":"d\n\ns","messages":[{"role":"user","content":[{"type":"text","text":"u"}]}]}`},
		{"user then user merged", []Message{Text(RoleUser, "a"), Text(RoleUser, "b")},
			`{"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]}`},
		{"merged across a system message", []Message{Text(RoleUser, "a"), Text(RoleSystem, "s"), Text(RoleUser, "b")},
			`{"system":"s","messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]}`},
		{"assistant first is kept", []Message{Text(RoleAssistant, "a")},
			`{"messages":[{"role":"assistant","content":[{"type":"text","text":"a"}]}]}`},
		{"tool result alone becomes a user message", []Message{toolResult("c1", "ok")},
			`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"ok"}]}]}`},
		{"empty tool result has no content", []Message{{Role: RoleTool, ToolCallID: "c1"}},
			`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1"}]}]}`},
		{"tool results moved before user text", []Message{Text(RoleUser, "see:"), toolResult("c1", "1"), Text(RoleUser, "and"), toolResult("c2", "2")},
			`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"1"},{"type":"tool_result","tool_use_id":"c2","content":"2"},{"type":"text","text":"see:"},{"type":"text","text":"and"}]}]}`},
		{"empty arguments become an empty object", []Message{{Role: RoleAssistant, ToolCalls: []ToolCall{call("c1", "now", "")}}},
			`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"now","input":{}}]}]}`},
		{"arguments kept as written", []Message{{Role: RoleAssistant, ToolCalls: []ToolCall{call("c1", "f", `{"a": [1, 2]}`)}}},
			`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"f","input":{"a":[1,2]}}]}]}`},
		{"name and detail dropped", []Message{{Role: RoleUser, Name: "bob", Content: []Part{{Type: PartImage, URL: "https://x/a.png", Detail: "high"}}}},
			`{"messages":[{"role":"user","content":[{"type":"image","source":{"type":"url","url":"https://x/a.png"}}]}]}`},
		{"only empty messages", []Message{{Role: RoleUser}, Text(RoleAssistant, "")}, `{"messages":[]}`},
		// The part is an image because its media type says so; a data: URI
		// that names another type does not make it text.
		{"image MediaType over a data URI's other type", []Message{{Role: RoleUser, Content: []Part{{Type: PartImage, URL: "data:text/plain;base64,iVBORw0KGgo=", MediaType: "image/png"}}}},
			`{"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := ToAnthropic(tt.msgs)
			require.NoError(t, err)
			got, err := json.Marshal(req)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}

func TestToAnthropicDoesNotModifyInput(t *testing.T) {
	msgs := []Message{Text(RoleUser, "a"), toolResult("c1", "r"), Text(RoleUser, "b")}
	before, err := json.Marshal(msgs)
	require.NoError(t, err)
	_, err = ToAnthropic(msgs)
	require.NoError(t, err)
	after, err := json.Marshal(msgs)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after))
}

func TestToAnthropicErrors(t *testing.T) {
	tests := []struct {
		name    string
		msgs    []Message
		wantErr string
	}{
		{"audio by data URI", []Message{{Role: RoleUser, Content: []Part{{Type: PartAudio, URL: "data:audio/wav;base64,UklGRg=="}}}},
			"message 1: audio parts have no Anthropic form"},
		{"audio by URL", []Message{Text(RoleUser, "x"), {Role: RoleUser, Content: []Part{{Type: PartAudio, URL: "https://x/a.mp3"}}}},
			"message 2: audio parts have no Anthropic form"},
		{"unknown part type", []Message{{Role: RoleAssistant, Content: []Part{{Type: "video", URL: "https://x/v.mp4"}}}},
			"video parts have no Anthropic form"},
		{"image whose types are not an image's", []Message{{Role: RoleUser, Content: []Part{{Type: PartImage, URL: "data:;base64,iVBORw0KGgo="}}}},
			"message 1: image of media type text/plain: Anthropic takes an image/… type"},
		{"image in system prompt", []Message{{Role: RoleSystem, Content: []Part{{Type: PartImage, URL: "https://x/a.png"}}}},
			"an Anthropic system prompt holds text only"},
		{"two text parts in developer message", []Message{{Role: RoleDeveloper, Content: []Part{TextPart("a"), TextPart("b")}}},
			"an Anthropic system prompt holds text only"},
		{"image in tool result", []Message{{Role: RoleTool, ToolCallID: "c1", Content: []Part{{Type: PartImage, URL: "https://x/a.png"}}}},
			"tool results hold text only"},
		{"tool result without id", []Message{{Role: RoleTool, Content: []Part{TextPart("r")}}},
			"needs the tool_call_id"},
		{"unknown role", []Message{Text("narrator", "Once upon a time")},
			`role "narrator" has no Anthropic form`},
		{"arguments not JSON", []Message{{Role: RoleAssistant, ToolCalls: []ToolCall{call("c1", "f", `{"a":`)}}},
			`tool call "c1": Anthropic needs the arguments as a JSON object`},
		{"arguments an array", []Message{{Role: RoleAssistant, ToolCalls: []ToolCall{call("c1", "f", `[1,2]`)}}},
			"as a JSON object"},
		{"arguments null", []Message{{Role: RoleAssistant, ToolCalls: []ToolCall{call("c1", "f", `null`)}}},
			"as a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ToAnthropic(tt.msgs)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}
