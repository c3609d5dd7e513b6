package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/rolemark/rolemark/internal/jsonw"
)

// The OpenAI chat-completions wire form. Message owns it through MarshalJSON
// and UnmarshalJSON, as encoding/json types do.

type wireMessage struct {
	Role       Role            `json:"role"`
	Name       string          `json:"name,omitempty"`
	Content    json.RawMessage `json:"content"`
	ToolCalls  []wireToolCall  `json:"tool_calls,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
}

type wireToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type wirePart struct {
	Type       string          `json:"type"`
	Text       *string         `json:"text,omitempty"`
	ImageURL   json.RawMessage `json:"image_url,omitempty"`
	InputAudio *wireAudio      `json:"input_audio,omitempty"`
	File       *wireFile       `json:"file,omitempty"`
}

type wireImageURL struct {
	URL    string `json:"url"`
	Detail string `json:"detail,omitempty"`
}

type wireAudio struct {
	Data   string `json:"data"`
	Format string `json:"format"`
}

type wireFile struct {
	FileData string `json:"file_data,omitempty"`
	FileID   string `json:"file_id,omitempty"`
	Filename string `json:"filename,omitempty"`
}

// MarshalJSON writes the message in OpenAI's chat-completions form: content
// is a string for a text-only message, an array of typed parts otherwise, and
// null for an assistant message that has tool calls and no content. Tool
// calls in a user, system, developer or tool message are an error, as they
// are to the API.
func (m Message) MarshalJSON() ([]byte, error) { return appendOpenAIMessage(nil, &m) }

// appendOpenAIMessage appends m as MarshalJSON writes it, with <, > and &
// as they are.
func appendOpenAIMessage(b []byte, m *Message) ([]byte, error) {
	switch m.Role {
	case RoleUser, RoleSystem, RoleDeveloper, RoleTool:
		if len(m.ToolCalls) > 0 {
			// The API rejects it: only an assistant message makes tool calls.
			return nil, fmt.Errorf("chat: tool calls in a %s message; only an assistant message makes tool calls", m.Role)
		}
	}
	b = append(b, `{"role":`...)
	b = jsonw.String(b, string(m.Role))
	if m.Name != "" {
		b = append(b, `,"name":`...)
		b = jsonw.String(b, m.Name)
	}
	b = append(b, `,"content":`...)
	switch {
	case len(m.Content) == 0 && len(m.ToolCalls) > 0:
		b = append(b, "null"...)
	case m.TextOnly():
		b = jsonw.String(b, m.Text())
	default:
		b = append(b, '[')
		for i, p := range m.Content {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendPart(b, p); err != nil {
				return nil, fmt.Errorf("chat: %s message, part %d: %w", m.Role, i+1, err)
			}
		}
		b = append(b, ']')
	}
	if len(m.ToolCalls) > 0 {
		b = append(b, `,"tool_calls":[`...)
		for i, tc := range m.ToolCalls {
			args := string(tc.Arguments)
			if args == "" {
				args = "{}"
			} else if !json.Valid(tc.Arguments) {
				return nil, fmt.Errorf("chat: %w", &ArgumentsError{ID: tc.ID, Arguments: args})
			}
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":`...)
			b = jsonw.String(b, tc.ID)
			b = append(b, `,"type":"function","function":{"name":`...)
			b = jsonw.String(b, tc.Name)
			b = append(b, `,"arguments":`...)
			b = jsonw.String(b, args)
			b = append(b, "}}"...)
		}
		b = append(b, ']')
	}
	if m.ToolCallID != "" {
		b = append(b, `,"tool_call_id":`...)
		b = jsonw.String(b, m.ToolCallID)
	}
	return append(b, '}'), nil
}

// appendPart appends the OpenAI content part of p.
func appendPart(b []byte, p Part) ([]byte, error) {
	switch p.Type {
	case PartText:
		b = append(b, `{"type":"text","text":`...)
		b = jsonw.String(b, p.Text)
		return append(b, '}'), nil
	case PartImage:
		b = append(b, `{"type":"image_url","image_url":{"url":`...)
		b = jsonw.String(b, p.URL)
		if p.Detail != "" {
			b = append(b, `,"detail":`...)
			b = jsonw.String(b, p.Detail)
		}
		return append(b, "}}"...), nil
	case PartAudio:
		mt, data, ok := ParseDataURI(p.URL)
		if !ok {
			return nil, fmt.Errorf("audio %q: OpenAI takes audio only as inline data (a data: URI)", p.URL)
		}
		mt, err := audioType(mt, p.MediaType)
		if err != nil {
			return nil, err
		}
		b = append(b, `{"type":"input_audio","input_audio":{"data":`...)
		b = jsonw.String(b, base64Std(data))
		b = append(b, `,"format":`...)
		b = jsonw.String(b, audioFormat(mt))
		return append(b, "}}"...), nil
	case PartFile:
		if _, _, ok := ParseDataURI(p.URL); !ok {
			return nil, fmt.Errorf("file %q: OpenAI takes files only as inline data (a data: URI)", p.URL)
		}
		b = append(b, `{"type":"file","file":{"file_data":`...)
		b = jsonw.String(b, p.URL)
		return append(b, "}}"...), nil
	}
	return nil, fmt.Errorf("unknown part type %q", p.Type)
}

// audioType is the media type of an audio part whose data: URI says
// uriType (text/plain when it says none) and whose MediaType is partType:
// the URI's when it is audio, else the part's when that is (the part is
// audio because partType says so, as media() chooses the part by it). When
// neither is audio there is no input_audio format to write.
func audioType(uriType, partType string) (string, error) {
	if strings.HasPrefix(uriType, "audio/") {
		return uriType, nil
	}
	if strings.HasPrefix(partType, "audio/") {
		return partType, nil
	}
	return "", fmt.Errorf("audio of media type %s: OpenAI's input_audio takes audio (give the part an audio/… media type)", uriType)
}

// audioFormat maps a MIME type to OpenAI's input_audio format name.
func audioFormat(mediaType string) string {
	switch mediaType {
	case "audio/mpeg", "audio/mp3":
		return "mp3"
	case "audio/wav", "audio/x-wav", "audio/wave":
		return "wav"
	}
	if sub, ok := strings.CutPrefix(mediaType, "audio/"); ok {
		return sub
	}
	return mediaType
}

func audioMediaType(format string) string {
	switch format {
	case "mp3":
		return "audio/mpeg"
	case "":
		return "application/octet-stream"
	}
	return "audio/" + format
}

// UnmarshalJSON reads a message in OpenAI's chat-completions form, with
// content as a string, an array of parts, or null.
func (m *Message) UnmarshalJSON(b []byte) error {
	var w wireMessage
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if w.Role == "" {
		return errors.New("chat: message has no role")
	}
	*m = Message{Role: Role(strings.ToLower(string(w.Role))), Name: w.Name, ToolCallID: w.ToolCallID}
	content := bytes.TrimSpace(w.Content)
	switch {
	case len(content) == 0 || string(content) == "null":
	case content[0] == '"':
		var s string
		if err := json.Unmarshal(content, &s); err != nil {
			return err
		}
		if s != "" {
			m.Content = []Part{TextPart(s)}
		}
	case content[0] == '[':
		var parts []wirePart
		if err := json.Unmarshal(content, &parts); err != nil {
			return fmt.Errorf("chat: content: %w", err)
		}
		for i, wp := range parts {
			p, err := wp.part()
			if err != nil {
				return fmt.Errorf("chat: content part %d: %w", i+1, err)
			}
			m.Content = append(m.Content, p)
		}
	default:
		return fmt.Errorf("chat: content must be a string, an array or null, not %s", content)
	}
	for _, tc := range w.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			return fmt.Errorf("chat: tool call %q has type %q; only \"function\" is known", tc.ID, tc.Type)
		}
		call, err := NewToolCall(tc.ID, tc.Function.Name, tc.Function.Arguments)
		if err != nil {
			return fmt.Errorf("chat: %w", err)
		}
		m.ToolCalls = append(m.ToolCalls, call)
	}
	return nil
}

func (wp wirePart) part() (Part, error) {
	switch wp.Type {
	case "text":
		if wp.Text == nil {
			return Part{}, errors.New(`text part has no "text"`)
		}
		return TextPart(*wp.Text), nil
	case "image_url":
		var img wireImageURL
		if len(wp.ImageURL) > 0 && wp.ImageURL[0] == '"' {
			if err := json.Unmarshal(wp.ImageURL, &img.URL); err != nil {
				return Part{}, err
			}
		} else if err := json.Unmarshal(wp.ImageURL, &img); err != nil {
			return Part{}, fmt.Errorf("image_url: %w", err)
		}
		p := Part{Type: PartImage, URL: img.URL, Detail: img.Detail}
		if mt, _, ok := ParseDataURI(img.URL); ok {
			p.MediaType = mt
		}
		return p, nil
	case "input_audio":
		if wp.InputAudio == nil {
			return Part{}, errors.New(`input_audio part has no "input_audio"`)
		}
		mt := audioMediaType(wp.InputAudio.Format)
		return Part{Type: PartAudio, URL: "data:" + mt + ";base64," + wp.InputAudio.Data, MediaType: mt}, nil
	case "file":
		if wp.File == nil || wp.File.FileData == "" {
			return Part{}, errors.New(`file part has no "file.file_data" (file ids are not supported)`)
		}
		p := Part{Type: PartFile, URL: wp.File.FileData}
		if mt, _, ok := ParseDataURI(p.URL); ok {
			p.MediaType = mt
		}
		return p, nil
	}
	return Part{}, fmt.Errorf("unknown content part type %q", wp.Type)
}

type wireTool struct {
	Type     string       `json:"type"`
	Function wireToolFunc `json:"function"`
}

type wireToolFunc struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// MarshalJSON writes the tool as an OpenAI function tool:
// {"type":"function","function":{"name":…,"description":…,"parameters":…}}.
func (t Tool) MarshalJSON() ([]byte, error) {
	return json.Marshal(wireTool{Type: "function", Function: wireToolFunc(t)})
}

// UnmarshalJSON reads an OpenAI function tool, or a bare function definition
// ({"name":…,"description":…,"parameters":…}).
func (t *Tool) UnmarshalJSON(b []byte) error {
	var w struct {
		Type     string        `json:"type"`
		Function *wireToolFunc `json:"function"`
		wireToolFunc
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	f := w.wireToolFunc
	if w.Function != nil {
		f = *w.Function
	}
	if f.Name == "" {
		return errors.New("chat: tool has no name")
	}
	*t = Tool(f)
	return nil
}
