package chat

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMessageMarshalJSON(t *testing.T) {
	tests := []struct {
		name string
		msg  Message
		want string
	}{
		{"system text", Text(RoleSystem, "You are a bank manager."),
			`{"role":"system","content":"You are a bank manager."}`},
		{"developer text", Text(RoleDeveloper, "Answer in French."),
			`{"role":"developer","content":"Answer in French."}`},
		{"user with name", Message{Role: RoleUser, Name: "alice", Content: []Part{TextPart("hi")}},
			`{"role":"user","name":"alice","content":"hi"}`},
		{"empty message has empty string content", Message{Role: RoleUser},
			`{"role":"user","content":""}`},
		{"html-ish and unicode text", Text(RoleUser, "if a < b && c > d: \"quote\" é 😀\n"),
			`{"role":"user","content":"if a \u003c b \u0026\u0026 c \u003e d: \"quote\" é 😀\n"}`},
		{"assistant tool calls and no content gives null",
			Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "get_rate", Arguments: json.RawMessage(`{"currency":"EUR"}`)}}},
			`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_rate","arguments":"{\"currency\":\"EUR\"}"}}]}`},
		{"assistant text and two tool calls",
			Message{Role: RoleAssistant, Content: []Part{TextPart("Let me check.")}, ToolCalls: []ToolCall{
				{ID: "c1", Name: "a", Arguments: json.RawMessage(`{ "x" : 1 }`)},
				{ID: "c2", Name: "b"},
			}},
			`{"role":"assistant","content":"Let me check.","tool_calls":[{"id":"c1","type":"function","function":{"name":"a","arguments":"{ \"x\" : 1 }"}},{"id":"c2","type":"function","function":{"name":"b","arguments":"{}"}}]}`},
		{"tool result", Message{Role: RoleTool, ToolCallID: "c1", Content: []Part{TextPart("1.08")}},
			`{"role":"tool","content":"1.08","tool_call_id":"c1"}`},
		{"text and image by URL with detail",
			Message{Role: RoleUser, Content: []Part{TextPart("What is in this picture?"), {Type: PartImage, URL: "https://example.com/a.png", Detail: "low"}}},
			`{"role":"user","content":[{"type":"text","text":"What is in this picture?"},{"type":"image_url","image_url":{"url":"https://example.com/a.png","detail":"low"}}]}`},
		{"single image is not text only",
			Message{Role: RoleUser, Content: []Part{{Type: PartImage, URL: "data:image/png;base64,iVBORw0KGgo=", MediaType: "image/png"}}},
			`{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo="}}]}`},
		{"two text parts stay an array",
			Message{Role: RoleUser, Content: []Part{TextPart("a"), TextPart("")}},
			`{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":""}]}`},
		{"audio wav from data URI",
			Message{Role: RoleUser, Content: []Part{{Type: PartAudio, URL: "data:audio/wav;base64,UklGRg==", MediaType: "audio/wav"}}},
			`{"role":"user","content":[{"type":"input_audio","input_audio":{"data":"UklGRg==","format":"wav"}}]}`},
		{"audio mpeg is mp3",
			Message{Role: RoleUser, Content: []Part{{Type: PartAudio, URL: "data:audio/mpeg;base64,SUQz"}}},
			`{"role":"user","content":[{"type":"input_audio","input_audio":{"data":"SUQz","format":"mp3"}}]}`},
		{"audio x-wav is wav",
			Message{Role: RoleUser, Content: []Part{{Type: PartAudio, URL: "data:audio/x-wav;base64,UklGRg=="}}},
			`{"role":"user","content":[{"type":"input_audio","input_audio":{"data":"UklGRg==","format":"wav"}}]}`},
		{"other audio types use their subtype",
			Message{Role: RoleUser, Content: []Part{{Type: PartAudio, URL: "data:audio/flac;base64,ZkxhQw=="}}},
			`{"role":"user","content":[{"type":"input_audio","input_audio":{"data":"ZkxhQw==","format":"flac"}}]}`},
		{"audio percent-encoded data URI is re-encoded as base64",
			Message{Role: RoleUser, Content: []Part{{Type: PartAudio, URL: "data:audio/wav,RIFF%00"}}},
			`{"role":"user","content":[{"type":"input_audio","input_audio":{"data":"UklGRgA=","format":"wav"}}]}`},
		{"audio data URI without type takes MediaType",
			Message{Role: RoleUser, Content: []Part{{Type: PartAudio, URL: "data:;base64,SUQz", MediaType: "audio/mp3"}}},
			`{"role":"user","content":[{"type":"input_audio","input_audio":{"data":"SUQz","format":"mp3"}}]}`},
		// The part is audio because its media type says so ({{media u "audio/wav"}}
		// of a data: URI that says otherwise): the format is the audio type.
		{"audio MediaType over a data URI's other type",
			Message{Role: RoleUser, Content: []Part{{Type: PartAudio, URL: "data:image/png;base64,UklGRg==", MediaType: "audio/wav"}}},
			`{"role":"user","content":[{"type":"input_audio","input_audio":{"data":"UklGRg==","format":"wav"}}]}`},
		{"file from data URI",
			Message{Role: RoleUser, Content: []Part{{Type: PartFile, URL: "data:application/pdf;base64,JVBERi0=", MediaType: "application/pdf"}, TextPart("Summarise.")}},
			`{"role":"user","content":[{"type":"file","file":{"file_data":"data:application/pdf;base64,JVBERi0="}},{"type":"text","text":"Summarise."}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.msg)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}

func TestMessagesMarshalJSON(t *testing.T) {
	msgs := []Message{
		Text(RoleSystem, "s"),
		Text(RoleUser, "u"),
	}
	got, err := json.Marshal(msgs)
	require.NoError(t, err)
	assert.Equal(t, `[{"role":"system","content":"s"},{"role":"user","content":"u"}]`, string(got))

	got, err = json.Marshal([]Message{})
	require.NoError(t, err)
	assert.Equal(t, `[]`, string(got))
}

func TestMessageMarshalJSONErrors(t *testing.T) {
	tests := []struct {
		name    string
		msg     Message
		wantErr string
	}{
		{"audio by URL", Message{Role: RoleUser, Content: []Part{{Type: PartAudio, URL: "https://example.com/a.wav"}}},
			"OpenAI takes audio only as inline data"},
		{"audio with bad base64", Message{Role: RoleUser, Content: []Part{{Type: PartAudio, URL: "data:audio/wav;base64,!!!"}}},
			"OpenAI takes audio only as inline data"},
		{"audio whose types are not audio", Message{Role: RoleUser, Content: []Part{{Type: PartAudio, URL: "data:image/png;base64,UklGRg=="}}},
			`part 1: audio of media type image/png: OpenAI's input_audio takes audio (give the part an audio/… media type)`},
		{"audio without a type", Message{Role: RoleUser, Content: []Part{{Type: PartAudio, URL: "data:;base64,UklGRg=="}}},
			`audio of media type text/plain: OpenAI`},
		{"file by URL", Message{Role: RoleUser, Content: []Part{{Type: PartFile, URL: "https://example.com/a.pdf"}}},
			"OpenAI takes files only as inline data"},
		{"unknown part type", Message{Role: RoleUser, Content: []Part{TextPart("a"), {Type: "video", URL: "https://example.com/v.mp4"}}},
			`part 2: unknown part type "video"`},
		{"arguments not JSON", Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "f", Arguments: json.RawMessage(`{"a":`)}}},
			`tool call "c1": arguments are not valid JSON`},
		{"tool call in a user message", Message{Role: RoleUser, ToolCalls: []ToolCall{{ID: "c1", Name: "f"}}},
			"chat: tool calls in a user message; only an assistant message makes tool calls"},
		{"tool call in a system message", Message{Role: RoleSystem, Content: []Part{TextPart("s")}, ToolCalls: []ToolCall{{Name: "f"}}},
			"chat: tool calls in a system message; only an assistant message makes tool calls"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := json.Marshal(tt.msg)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}

func TestMessageUnmarshalJSON(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Message
	}{
		{"system string", `{"role":"system","content":"You are a helpful assistant."}`,
			Text(RoleSystem, "You are a helpful assistant.")},
		{"role is lower-cased", `{"role":"USER","content":"Hi"}`, Text(RoleUser, "Hi")},
		{"name", `{"role":"user","name":"bob","content":"Hi"}`,
			Message{Role: RoleUser, Name: "bob", Content: []Part{TextPart("Hi")}}},
		{"empty string content has no parts", `{"role":"assistant","content":""}`, Message{Role: RoleAssistant}},
		{"null content", `{"role":"assistant","content":null}`, Message{Role: RoleAssistant}},
		{"missing content", `{"role":"assistant"}`, Message{Role: RoleAssistant}},
		{"array with one text part", `{"role":"user","content":[{"type":"text","text":"Hi"}]}`, Text(RoleUser, "Hi")},
		{"image_url as object with detail",
			`{"role":"user","content":[{"type":"image_url","image_url":{"url":"https://example.com/a.png","detail":"high"}}]}`,
			Message{Role: RoleUser, Content: []Part{{Type: PartImage, URL: "https://example.com/a.png", Detail: "high"}}}},
		{"image_url as a bare string",
			`{"role":"user","content":[{"type":"image_url","image_url":"https://example.com/a.png"}]}`,
			Message{Role: RoleUser, Content: []Part{{Type: PartImage, URL: "https://example.com/a.png"}}}},
		{"image data URI sets media type",
			`{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo="}}]}`,
			Message{Role: RoleUser, Content: []Part{{Type: PartImage, URL: "data:image/png;base64,iVBORw0KGgo=", MediaType: "image/png"}}}},
		{"input_audio mp3",
			`{"role":"user","content":[{"type":"input_audio","input_audio":{"data":"SUQz","format":"mp3"}}]}`,
			Message{Role: RoleUser, Content: []Part{{Type: PartAudio, URL: "data:audio/mpeg;base64,SUQz", MediaType: "audio/mpeg"}}}},
		{"input_audio without format",
			`{"role":"user","content":[{"type":"input_audio","input_audio":{"data":"SUQz"}}]}`,
			Message{Role: RoleUser, Content: []Part{{Type: PartAudio, URL: "data:application/octet-stream;base64,SUQz", MediaType: "application/octet-stream"}}}},
		{"file with file_data",
			`{"role":"user","content":[{"type":"file","file":{"filename":"a.pdf","file_data":"data:application/pdf;base64,JVBERi0="}}]}`,
			Message{Role: RoleUser, Content: []Part{{Type: PartFile, URL: "data:application/pdf;base64,JVBERi0=", MediaType: "application/pdf"}}}},
		{"tool calls with empty arguments",
			`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"now","arguments":""}}]}`,
			Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "now", Arguments: json.RawMessage("")}}}},
		{"tool call without type",
			`{"role":"assistant","tool_calls":[{"id":"c1","function":{"name":"f","arguments":"[1,2]"}}]}`,
			Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "f", Arguments: json.RawMessage("[1,2]")}}}},
		{"tool message", `{"role":"tool","tool_call_id":"c1","content":"1.08"}`,
			Message{Role: RoleTool, ToolCallID: "c1", Content: []Part{TextPart("1.08")}}},
		{"unknown fields ignored", `{"role":"assistant","content":"x","refusal":null,"annotations":[]}`,
			Text(RoleAssistant, "x")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got Message
			require.NoError(t, json.Unmarshal([]byte(tt.in), &got))
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestMessageUnmarshalJSONErrors(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantErr string
	}{
		{"not an object", `"hello"`, "cannot unmarshal"},
		{"no role", `{"content":"x"}`, "message has no role"},
		{"content a number", `{"role":"user","content":42}`, "content must be a string, an array or null"},
		{"content an object", `{"role":"user","content":{"text":"x"}}`, "content must be a string, an array or null"},
		{"content array of strings", `{"role":"user","content":["x"]}`, "chat: content:"},
		{"unknown part type", `{"role":"user","content":[{"type":"text","text":"a"},{"type":"video_url","video_url":{}}]}`,
			`content part 2: unknown content part type "video_url"`},
		{"text part without text", `{"role":"user","content":[{"type":"text"}]}`, `text part has no "text"`},
		{"image_url missing", `{"role":"user","content":[{"type":"image_url"}]}`, "image_url"},
		{"image_url a number", `{"role":"user","content":[{"type":"image_url","image_url":5}]}`, "image_url"},
		{"input_audio missing", `{"role":"user","content":[{"type":"input_audio"}]}`, `input_audio part has no "input_audio"`},
		{"file by id", `{"role":"user","content":[{"type":"file","file":{"file_id":"file-abc"}}]}`, "file ids are not supported"},
		{"arguments not JSON", `{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{location: Boston}"}}]}`,
			`tool call "c1": arguments are not valid JSON`},
		{"arguments an object, not a string", `{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":{"a":1}}}]}`,
			"cannot unmarshal"},
		{"non-function tool call", `{"role":"assistant","tool_calls":[{"id":"c1","type":"custom","custom":{"name":"f","input":"x"}}]}`,
			`only "function" is known`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got Message
			err := json.Unmarshal([]byte(tt.in), &got)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}

// roundTripMessages holds a message of every shape the model can hold in the
// OpenAI form; each must come back from its JSON unchanged.
var roundTripMessages = []struct {
	name string
	msg  Message
}{
	{"system", Text(RoleSystem, "You are a bank manager.")},
	{"developer", Text(RoleDeveloper, "Be brief.")},
	{"empty user", Message{Role: RoleUser}},
	{"user with name", Message{Role: RoleUser, Name: "alice", Content: []Part{TextPart("I want to buy a house")}}},
	{"whitespace and control characters", Text(RoleUser, " \t<message role=\"x\">\x00\u2028 ")},
	{"assistant tool calls", Message{Role: RoleAssistant, ToolCalls: []ToolCall{
		{ID: "c1", Name: "get_rate", Arguments: json.RawMessage(`{"currency": "EUR"}`)},
		{ID: "c2", Name: "get_time", Arguments: json.RawMessage(`{}`)},
	}}},
	{"assistant text and tool call", Message{Role: RoleAssistant, Content: []Part{TextPart("Checking.")},
		ToolCalls: []ToolCall{{ID: "c1", Name: "f", Arguments: json.RawMessage(`[1, "two", null]`)}}}},
	{"tool result", Message{Role: RoleTool, ToolCallID: "c1", Content: []Part{TextPart(`{"rate":1.08}`)}}},
	{"image by URL", Message{Role: RoleUser, Content: []Part{TextPart("What is this?"), {Type: PartImage, URL: "https://example.com/a.jpg", Detail: "auto"}}}},
	{"image by data URI", Message{Role: RoleUser, Content: []Part{{Type: PartImage, URL: DataURI("image/png", []byte("\x89PNG")), MediaType: "image/png", Detail: "high"}}}},
	{"audio wav", Message{Role: RoleUser, Content: []Part{TextPart("Transcribe."), {Type: PartAudio, URL: DataURI("audio/wav", []byte("RIFF")), MediaType: "audio/wav"}}}},
	{"audio mp3", Message{Role: RoleUser, Content: []Part{{Type: PartAudio, URL: DataURI("audio/mpeg", []byte("ID3")), MediaType: "audio/mpeg"}}}},
	{"file", Message{Role: RoleUser, Content: []Part{{Type: PartFile, URL: DataURI("application/pdf", []byte("%PDF-1.4")), MediaType: "application/pdf"}, TextPart("Summarise.")}}},
	{"several text parts", Message{Role: RoleUser, Content: []Part{TextPart("one"), TextPart("two")}}},
}

func TestMessageRoundTrip(t *testing.T) {
	for _, tt := range roundTripMessages {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.msg)
			require.NoError(t, err)
			var back Message
			require.NoError(t, json.Unmarshal(b, &back), "%s", b)
			assert.Equal(t, tt.msg, back)
			again, err := json.Marshal(back)
			require.NoError(t, err)
			assert.Equal(t, string(b), string(again))
		})
	}
}

func TestMessagesRoundTrip(t *testing.T) {
	var msgs []Message
	for _, tt := range roundTripMessages {
		msgs = append(msgs, tt.msg)
	}
	b, err := json.Marshal(msgs)
	require.NoError(t, err)
	var back []Message
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, msgs, back)
}

// openAIRequest is the part of a chat-completions request body the tests read.
type openAIRequest struct {
	Messages []json.RawMessage `json:"messages"`
	Tools    []Tool            `json:"tools"`
}

// TestOpenAIReferenceRequests reads request bodies shaped like the examples
// of OpenAI's API reference, checks the messages they give, and checks that
// marshalling those messages gives the same JSON back.
func TestOpenAIReferenceRequests(t *testing.T) {
	weatherParams := `{
          "type": "object",
          "properties": {
            "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}
          },
          "required": ["location"]
        }`
	tests := []struct {
		file      string
		want      []Message
		wantTools []Tool
		// remarshal, when set, is the exact JSON of the messages marshalled
		// again, for requests that carry something the model drops.
		remarshal string
	}{
		{file: "openai_developer.json", want: []Message{
			Text(RoleDeveloper, "You are a helpful assistant."),
			Text(RoleUser, "Hello!"),
		}},
		{file: "openai_conversation.json", want: []Message{
			Text(RoleSystem, "You are a helpful assistant."),
			Text(RoleUser, "Who won the world series in 2020?"),
			Text(RoleAssistant, "The Los Angeles Dodgers won the World Series in 2020."),
			{Role: RoleUser, Name: "alice", Content: []Part{TextPart("Where was it played?")}},
		}},
		{file: "openai_vision_url.json", want: []Message{{Role: RoleUser, Content: []Part{
			TextPart("What is in this image?"),
			{Type: PartImage, URL: "https://upload.wikimedia.org/wikipedia/commons/thumb/d/dd/Gfp-wisconsin-madison-the-nature-boardwalk.jpg/2560px-Gfp-wisconsin-madison-the-nature-boardwalk.jpg"},
		}}}},
		{file: "openai_vision_base64.json", want: []Message{{Role: RoleUser, Content: []Part{
			TextPart("What's in this image?"),
			{Type: PartImage, URL: "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ==", MediaType: "image/jpeg", Detail: "low"},
		}}}},
		{file: "openai_tools.json", want: []Message{
			Text(RoleUser, "What's the weather like in Boston today?"),
			{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "call_abc123", Name: "get_current_weather",
				Arguments: json.RawMessage("{\n\"location\": \"Boston, MA\"\n}")}}},
			{Role: RoleTool, ToolCallID: "call_abc123", Content: []Part{TextPart(`{"temperature": 22, "unit": "celsius"}`)}},
		}, wantTools: []Tool{{Name: "get_current_weather", Description: "Get the current weather in a given location",
			Parameters: json.RawMessage(weatherParams)}}},
		{file: "openai_audio.json", want: []Message{{Role: RoleUser, Content: []Part{
			TextPart("What is in this recording?"),
			{Type: PartAudio, URL: "data:audio/wav;base64,UklGRiQAAABXQVZF", MediaType: "audio/wav"},
		}}}},
		{file: "openai_file.json", want: []Message{{Role: RoleUser, Content: []Part{
			{Type: PartFile, URL: "data:application/pdf;base64,JVBERi0xLjQK", MediaType: "application/pdf"},
			TextPart("What is the first dragon in the book?"),
		}}}, remarshal: `[{"role":"user","content":[{"type":"file","file":{"file_data":"data:application/pdf;base64,JVBERi0xLjQK"}},{"type":"text","text":"What is the first dragon in the book?"}]}]`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			body, err := os.ReadFile(filepath.Join("testdata", tt.file))
			require.NoError(t, err)
			var req openAIRequest
			require.NoError(t, json.Unmarshal(body, &req))

			var got []Message
			for _, raw := range req.Messages {
				var m Message
				require.NoError(t, json.Unmarshal(raw, &m), "%s", raw)
				got = append(got, m)
			}
			assert.Equal(t, tt.want, got)
			if tt.wantTools != nil {
				require.Len(t, req.Tools, len(tt.wantTools))
				for i := range tt.wantTools {
					assert.Equal(t, tt.wantTools[i].Name, req.Tools[i].Name)
					assert.Equal(t, tt.wantTools[i].Description, req.Tools[i].Description)
					assert.JSONEq(t, string(tt.wantTools[i].Parameters), string(req.Tools[i].Parameters))
				}
			}

			b, err := json.Marshal(got)
			require.NoError(t, err)
			if tt.remarshal != "" {
				assert.Equal(t, tt.remarshal, string(b))
				return
			}
			orig, err := json.Marshal(req.Messages)
			require.NoError(t, err)
			assert.JSONEq(t, string(orig), string(b)) // the reference's key order is not ours
		})
	}
}

func TestToolMarshalJSON(t *testing.T) {
	tests := []struct {
		name string
		tool Tool
		want string
	}{
		{"full", Tool{Name: "get_rate", Description: "Exchange rate.", Parameters: json.RawMessage(`{"type":"object","properties":{"currency":{"type":"string"}},"required":["currency"]}`)},
			`{"type":"function","function":{"name":"get_rate","description":"Exchange rate.","parameters":{"type":"object","properties":{"currency":{"type":"string"}},"required":["currency"]}}}`},
		{"name only", Tool{Name: "now"}, `{"type":"function","function":{"name":"now"}}`},
		{"parameters compacted", Tool{Name: "f", Parameters: json.RawMessage("{ \"type\" : \"object\" }")},
			`{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.tool)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))

			var back Tool
			require.NoError(t, json.Unmarshal(got, &back))
			assert.Equal(t, tt.tool.Name, back.Name)
			assert.Equal(t, tt.tool.Description, back.Description)
			if tt.tool.Parameters != nil {
				assert.JSONEq(t, string(tt.tool.Parameters), string(back.Parameters))
			} else {
				assert.Nil(t, back.Parameters)
			}
		})
	}
}

func TestToolUnmarshalJSON(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    Tool
		wantErr string
	}{
		{name: "function tool", in: `{"type":"function","function":{"name":"f","description":"d","parameters":{"type":"object"}}}`,
			want: Tool{Name: "f", Description: "d", Parameters: json.RawMessage(`{"type":"object"}`)}},
		{name: "bare function", in: `{"name":"f","description":"d","parameters":{"type":"object"}}`,
			want: Tool{Name: "f", Description: "d", Parameters: json.RawMessage(`{"type":"object"}`)}},
		{name: "bare function without parameters", in: `{"name":"f"}`, want: Tool{Name: "f"}},
		{name: "no name", in: `{"type":"function","function":{"description":"d"}}`, wantErr: "tool has no name"},
		{name: "empty object", in: `{}`, wantErr: "tool has no name"},
		{name: "not an object", in: `["f"]`, wantErr: "cannot unmarshal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got Tool
			err := json.Unmarshal([]byte(tt.in), &got)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestLongArgumentsErrorIsShort: an error about tool-call arguments that
// are not JSON quoted them whole, so that a model's 400 KB of brackets
// (deeper than encoding/json reads) made a 400 KB error line; it quotes
// their start and says how long they are.
func TestLongArgumentsErrorIsShort(t *testing.T) {
	args := strings.Repeat("[", 100000)
	var m Message
	err := m.UnmarshalJSON([]byte(`{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"` + args + `"}}]}`))
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 300, err.Error())
	assert.Contains(t, err.Error(), `arguments are not valid JSON: "[[[[`)
	assert.Contains(t, err.Error(), `… (100000 bytes)`)
	_, err = Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "f", Arguments: []byte(args)}}}.MarshalJSON()
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 300, err.Error())
	assert.Contains(t, err.Error(), `… (100000 bytes)`)
}
