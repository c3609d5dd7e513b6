package chat

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTextAndTextOnly(t *testing.T) {
	img := Part{Type: PartImage, URL: "https://example.com/a.png"}
	tests := []struct {
		name     string
		msg      Message
		text     string
		textOnly bool
	}{
		{"no content", Message{Role: RoleUser}, "", true},
		{"one text part", Text(RoleUser, "hi"), "hi", true},
		{"one empty text part", Message{Role: RoleUser, Content: []Part{TextPart("")}}, "", true},
		{"two text parts are joined without separator", Message{Role: RoleUser, Content: []Part{TextPart("a "), TextPart("b")}}, "a b", false},
		{"image only", Message{Role: RoleUser, Content: []Part{img}}, "", false},
		{"lone image with a stray Text field", Message{Role: RoleUser, Content: []Part{{Type: PartImage, URL: "u", Text: "alt"}}}, "", false},
		{"text around an image", Message{Role: RoleUser, Content: []Part{TextPart("look: "), img, TextPart("!")}}, "look: !", false},
		{"tool calls do not count", Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "f"}}}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.text, tt.msg.Text())
			assert.Equal(t, tt.textOnly, tt.msg.TextOnly())
		})
	}
}

func TestTextConstructor(t *testing.T) {
	tests := []struct {
		name string
		role Role
		s    string
		want Message
	}{
		{"text", RoleUser, "hi", Message{Role: RoleUser, Content: []Part{{Type: PartText, Text: "hi"}}}},
		{"empty text gives no parts", RoleAssistant, "", Message{Role: RoleAssistant}},
		{"whitespace is content", RoleSystem, " ", Message{Role: RoleSystem, Content: []Part{{Type: PartText, Text: " "}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Text(tt.role, tt.s))
		})
	}
}

func TestDataURI(t *testing.T) {
	tests := []struct {
		name      string
		mediaType string
		data      []byte
		want      string
		parsedMT  string // the media type ParseDataURI gives back
	}{
		{"png", "image/png", []byte("\x89PNG\r\n"), "data:image/png;base64,iVBORw0K", "image/png"},
		{"empty data", "text/plain", nil, "data:text/plain;base64,", "text/plain"},
		{"padding", "audio/wav", []byte("RIFF!"), "data:audio/wav;base64,UklGRiE=", "audio/wav"},
		{"parameters kept", "text/plain;charset=utf-8", []byte("é"), "data:text/plain;charset=utf-8;base64,w6k=", "text/plain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := DataURI(tt.mediaType, tt.data)
			assert.Equal(t, tt.want, got)
			mt, data, ok := ParseDataURI(got)
			require.True(t, ok)
			assert.Equal(t, tt.parsedMT, mt)
			assert.Equal(t, string(tt.data), string(data))
		})
	}
}

func TestParseDataURI(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		mediaType string
		data      string
		ok        bool
	}{
		{"base64", "data:image/jpeg;base64,/9j/4A==", "image/jpeg", "\xff\xd8\xff\xe0", true},
		{"percent-encoded", "data:text/plain,Hello%2C%20World%21", "text/plain", "Hello, World!", true},
		{"default media type", "data:,A%20brief%20note", "text/plain", "A brief note", true},
		{"default media type base64", "data:;base64,SGk=", "text/plain", "Hi", true},
		{"parameters dropped", "data:text/html;charset=utf-8,%3Ch1%3E", "text/html", "<h1>", true},
		{"parameters and base64", "data:text/plain;charset=US-ASCII;base64,SGk=", "text/plain", "Hi", true},
		{"plus is not a space", "data:text/plain,a+b", "text/plain", "a+b", true},
		{"comma in payload", "data:text/plain,a,b", "text/plain", "a,b", true},
		{"empty payload", "data:image/gif;base64,", "image/gif", "", true},
		{"base64 with line breaks", "data:text/plain;base64,SGVs\r\nbG8=", "text/plain", "Hello", true},
		{"not a data URI", "https://example.com/a.png", "", "", false},
		{"empty", "", "", "", false},
		{"no comma", "data:image/png;base64", "", "", false},
		{"bad base64", "data:image/png;base64,@@@", "", "", false},
		{"unpadded base64", "data:text/plain;base64,SGk", "", "", false},
		{"bad percent escape", "data:text/plain,100%", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mt, data, ok := ParseDataURI(tt.in)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.mediaType, mt)
			assert.Equal(t, tt.data, string(data))
		})
	}
}

func TestNewToolCall(t *testing.T) {
	call, err := NewToolCall("c1", "f", `{"x":1}`)
	require.NoError(t, err)
	assert.Equal(t, ToolCall{ID: "c1", Name: "f", Arguments: json.RawMessage(`{"x":1}`)}, call)
	call, err = NewToolCall("c2", "g", "")
	require.NoError(t, err)
	assert.Empty(t, call.Arguments)

	_, err = NewToolCall("c3", "h", "{x")
	var ae *ArgumentsError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, `tool call "c3": arguments are not valid JSON: "{x"`, err.Error())
	_, err = NewToolCall("c4", "h", strings.Repeat("é", 100))
	assert.Equal(t, `tool call "c4": arguments are not valid JSON: "`+strings.Repeat("é", 80)+`"… (200 bytes)`, err.Error())
}
