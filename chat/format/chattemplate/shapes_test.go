package chattemplate_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
	"github.com/rolemark/rolemark/chat/format/internal/fixture"
)

// The values a Template hands a chat template, against transformers':
// testdata/shapes/shapes.py renders conversations written as a Python
// caller writes them with templates that print what they are given, and
// this test builds each conversation with the Go API and wants the same
// bytes. The mapping from transformers' shape to the Go API:
//
//   - content a string: chat.Text; a list of parts: one chat.Part each,
//     {"type", "text"} or {"type", "url", "mime_type", "detail"} (a media
//     part holds only the keys that are set, so {"type": "image"} is a
//     Part with no URL); a conversation whose every content is a list
//     ("content_parts") renders with chattemplate.ContentParts;
//   - tool_calls: chat.ToolCall with ID (none when the call has no "id"),
//     Name, and Arguments the JSON text of "arguments" as written: an
//     object for a dict, a JSON string for a string;
//   - name and tool_call_id: Message.Name and Message.ToolCallID;
//   - tools: chat.Tool (name, description, parameters);
//   - documents and other keyword arguments: format.Vars, each value a
//     json.RawMessage (read as json.loads reads it, key order kept).

type shapesFile struct {
	Jinja2        string            `json:"jinja2"`
	Templates     map[string]string `json:"templates"`
	Conversations []struct {
		Name         string                     `json:"name"`
		ContentParts bool                       `json:"content_parts"`
		Messages     []shapesMessage            `json:"messages"`
		Tools        []fixture.Tool             `json:"tools"`
		Kwargs       map[string]json.RawMessage `json:"kwargs"`
	} `json:"conversations"`
	Cases []struct {
		Template     string  `json:"template"`
		Conversation string  `json:"conversation"`
		Output       *string `json:"output"`
		Error        string  `json:"error"`
	} `json:"cases"`
}

type shapesMessage struct {
	Role       chat.Role       `json:"role"`
	Content    json.RawMessage `json:"content"`
	Name       string          `json:"name"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

func (m shapesMessage) message(t *testing.T) chat.Message {
	t.Helper()
	msg := chat.Message{Role: m.Role, Name: m.Name, ToolCallID: m.ToolCallID}
	var s string
	var parts []struct {
		Type      chat.PartType `json:"type"`
		Text      string        `json:"text"`
		URL       string        `json:"url"`
		MediaType string        `json:"mime_type"`
		Detail    string        `json:"detail"`
	}
	switch {
	case json.Unmarshal(m.Content, &s) == nil:
		msg.Content = chat.Text(m.Role, s).Content
	case json.Unmarshal(m.Content, &parts) == nil:
		for _, p := range parts {
			msg.Content = append(msg.Content, chat.Part{Type: p.Type, Text: p.Text, URL: p.URL, MediaType: p.MediaType, Detail: p.Detail})
		}
	default:
		t.Fatalf("content %s", m.Content)
	}
	for _, c := range m.ToolCalls {
		msg.ToolCalls = append(msg.ToolCalls, chat.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
	}
	return msg
}

func TestShapesAsTransformers(t *testing.T) {
	var doc shapesFile
	fixture.ReadJSON(t, filepath.Join("testdata", "shapes", "cases.json"), &doc)
	require.NotEmpty(t, doc.Cases)
	tpls := map[string]*chattemplate.Template{}      // content a string when it can be
	partsTpls := map[string]*chattemplate.Template{} // content always a list
	for name, src := range doc.Templates {
		opts := []chattemplate.Option{chattemplate.Name(name), chattemplate.Token("bos_token", "<s>"), chattemplate.Token("eos_token", "</s>")}
		tpl, err := chattemplate.New(src, opts...)
		require.NoError(t, err)
		tpls[name] = tpl
		tpl, err = chattemplate.New(src, append(opts, chattemplate.ContentParts())...)
		require.NoError(t, err)
		partsTpls[name] = tpl
	}
	for _, c := range doc.Cases {
		t.Run(c.Conversation+"/"+c.Template, func(t *testing.T) {
			for _, conv := range doc.Conversations {
				if conv.Name != c.Conversation {
					continue
				}
				var msgs []chat.Message
				for _, m := range conv.Messages {
					msgs = append(msgs, m.message(t))
				}
				opts := []format.Option{format.GenerationPrompt(), format.Tools(fixture.ChatTools(conv.Tools)...)}
				if len(conv.Kwargs) > 0 {
					vars := map[string]any{}
					for k, v := range conv.Kwargs {
						vars[k] = v
					}
					opts = append(opts, format.Vars(vars))
				}
				tpl := tpls[c.Template]
				if conv.ContentParts {
					tpl = partsTpls[c.Template]
				}
				got, err := tpl.Render(context.Background(), msgs, opts...)
				if c.Output == nil {
					assert.Error(t, err, "Jinja2 raises %s", c.Error)
					return
				}
				require.NoError(t, err)
				assert.Equal(t, *c.Output, got)
			}
		})
	}
}
