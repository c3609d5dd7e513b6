package chattemplate_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
	"github.com/rolemark/rolemark/chat/format/internal/fixture"
)

// oracleConversation is a conversation of internal/jinja2's chat oracle
// files (convert/chat.py), as transformers' apply_chat_template gets it.
type oracleConversation struct {
	Messages            []json.RawMessage `json:"messages"`
	Tools               []json.RawMessage `json:"tools"`
	Documents           json.RawMessage   `json:"documents"`
	AddGenerationPrompt bool              `json:"add_generation_prompt"`
	EnableThinking      *bool             `json:"enable_thinking"`
	// the other variables of minja's contexts (chatconv.json)
	ToolsInUserMessage   *bool           `json:"tools_in_user_message"`
	BuiltinTools         json.RawMessage `json:"builtin_tools"`
	CuttingKnowledgeDate json.RawMessage `json:"cutting_knowledge_date"`
	TodaysDate           json.RawMessage `json:"todays_date"`
	// Other holds the variables beyond these (the chat_template_kwargs of
	// the requests sweep9.json renders: thinking_mode, reasoning_effort),
	// passed as format.Vars as transformers passes extra variables.
	Other map[string]json.RawMessage `json:"-"`
}

// conversationKeys are the variables oracleConversation names.
var conversationKeys = map[string]bool{"messages": true, "tools": true, "documents": true,
	"add_generation_prompt": true, "enable_thinking": true, "tools_in_user_message": true,
	"builtin_tools": true, "cutting_knowledge_date": true, "todays_date": true}

func (c *oracleConversation) UnmarshalJSON(b []byte) error {
	type plain oracleConversation
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	for k, v := range all {
		if !conversationKeys[k] {
			if c.Other == nil {
				c.Other = map[string]json.RawMessage{}
			}
			c.Other[k] = v
		}
	}
	return nil
}

// chat returns the conversation as the Go API writes it (the mapping of
// TestShapesAsTransformers; parts: every content is a list, rendered with
// ContentParts; documents, enable_thinking and minja's variables as
// format.Vars), or ok false for a shape it does not state the same way: a
// one-text-part list among strings, content None, a dict or absent,
// reasoning_content or thinking, tools with keys beyond type, name,
// description and parameters or in another order.
func (c oracleConversation) chat(t *testing.T) (msgs []chat.Message, opts []format.Option, parts, ok bool) {
	vars := map[string]any{}
	if len(c.Documents) > 0 && string(c.Documents) != "null" {
		vars["documents"] = c.Documents
	}
	if c.EnableThinking != nil {
		vars["enable_thinking"] = *c.EnableThinking
	}
	if c.ToolsInUserMessage != nil {
		vars["tools_in_user_message"] = *c.ToolsInUserMessage
	}
	for name, raw := range c.Other {
		vars[name] = raw
	}
	for name, raw := range map[string]json.RawMessage{"builtin_tools": c.BuiltinTools,
		"cutting_knowledge_date": c.CuttingKnowledgeDate, "todays_date": c.TodaysDate} {
		if len(raw) > 0 {
			vars[name] = raw
		}
	}
	// contents that are all lists render with ContentParts; a list of one
	// text part among strings would be a string (ContentParts' rule)
	lists, oneText := 0, false
	for _, raw := range c.Messages {
		var m struct {
			Content json.RawMessage `json:"content"`
		}
		_ = json.Unmarshal(raw, &m)
		var ps []map[string]any
		if json.Unmarshal(m.Content, &ps) == nil && ps != nil {
			lists++
			if len(ps) == 1 && ps[0]["type"] == "text" {
				oneText = true
			}
		}
	}
	parts = lists > 0 && lists == len(c.Messages)
	if oneText && !parts {
		return nil, nil, false, false
	}
	for _, raw := range c.Messages {
		var keys map[string]json.RawMessage
		if json.Unmarshal(raw, &keys) != nil {
			return nil, nil, false, false
		}
		if keys["content"] == nil {
			return nil, nil, false, false // no content key: Undefined in the template
		}
		// a message's keys in another order than the Go API writes them
		// (role, content, name, tool_calls, tool_call_id; kronk's requests
		// put content first): a template printing the dict prints its order
		if !inOrder(raw, "role", "content", "name", "tool_calls", "tool_call_id") {
			return nil, nil, false, false
		}
		for k, v := range keys {
			switch k {
			case "role", "name", "tool_call_id", "tool_calls":
			case "content":
				// None, or a dict (minja's polyfill tests' tool result): no
				// chat.Message holds it
				if string(v) == "null" || bytes.HasPrefix(bytes.TrimSpace(v), []byte("{")) {
					return nil, nil, false, false
				}
			default:
				return nil, nil, false, false
			}
		}
		var m shapesMessage
		if json.Unmarshal(raw, &m) != nil {
			return nil, nil, false, false
		}
		msgs = append(msgs, m.message(t))
	}
	var tools []fixture.Tool
	for _, raw := range c.Tools {
		var keys map[string]json.RawMessage
		if json.Unmarshal(raw, &keys) != nil || len(keys) != 2 || keys["function"] == nil || string(keys["type"]) != `"function"` {
			return nil, nil, false, false
		}
		var fn map[string]json.RawMessage
		if json.Unmarshal(keys["function"], &fn) != nil {
			return nil, nil, false, false
		}
		// a tool's keys in another order than the Go API writes them
		// (minja's contexts sort them): tojson prints them in their order
		if !inOrder(raw, "type", "function") || !inOrder(keys["function"], "name", "description", "parameters") {
			return nil, nil, false, false
		}
		for k := range fn {
			if k != "name" && k != "description" && k != "parameters" {
				return nil, nil, false, false
			}
		}
		var tool fixture.Tool
		if json.Unmarshal(raw, &tool) != nil {
			return nil, nil, false, false
		}
		tools = append(tools, tool)
	}
	opts = []format.Option{format.Tools(fixture.ChatTools(tools)...), format.AllowSpecialTokens()}
	if len(vars) > 0 {
		opts = append(opts, format.Vars(vars))
	}
	if c.AddGenerationPrompt {
		opts = append(opts, format.GenerationPrompt())
	}
	return msgs, opts, parts, true
}

// inOrder reports whether the keys of the JSON object raw that are among
// order come in that order.
func inOrder(raw json.RawMessage, order ...string) bool {
	rank := map[string]int{}
	for i, k := range order {
		rank[k] = i
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	last := -1
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if r, ok := rank[tok.(string)]; ok {
			if r < last {
				return false
			}
			last = r
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return false
		}
	}
	return true
}

// oracleCases is one of internal/jinja2's chat oracle files.
type oracleCases struct {
	Templates map[string]string             `json:"templates"`
	Contexts  map[string]oracleConversation `json:"contexts"`
	Cases     []oracleChatCase              `json:"cases"`
}

// oracleChatCase is one template over one conversation, and what Jinja2
// made of it.
type oracleChatCase struct {
	ID          string `json:"id"`
	TemplateRef string `json:"template_ref"`
	ContextRef  string `json:"context_ref"`
	Context     struct {
		BOS string `json:"bos_token"`
		EOS string `json:"eos_token"`
	} `json:"context"`
	Expect struct {
		Output *string `json:"output"`
		Error  string  `json:"error"`
	} `json:"expect"`
}

// oracleDir holds internal/jinja2's oracle files.
var oracleDir = filepath.Join("..", "..", "..", "internal", "jinja2", "testdata", "oracle", "cases")

func readOracleCases(t *testing.T, file string) oracleCases {
	t.Helper()
	var doc oracleCases
	fixture.ReadJSON(t, filepath.Join(oracleDir, file), &doc)
	return doc
}

// oracleTally compares renders with Jinja2's: the same bytes, or an
// error where Jinja2 raises; never a different string, never an error
// where Jinja2 renders.
type oracleTally struct {
	n, identical, bothErr int
	bad                   []string
}

func (o *oracleTally) add(c *oracleChatCase, got string, err error) {
	o.n++
	switch want := c.Expect.Output; {
	case want == nil && err != nil:
		o.bothErr++
	case want == nil:
		o.bad = append(o.bad, fmt.Sprintf("%s: Jinja2 raises %s, Render gives %q", c.ID, c.Expect.Error, got))
	case err != nil:
		o.bad = append(o.bad, fmt.Sprintf("%s: Jinja2 renders, Render fails: %v", c.ID, err))
	case got == *want:
		o.identical++
	default:
		i := 0
		for i < len(got) && i < len(*want) && got[i] == (*want)[i] {
			i++
		}
		o.bad = append(o.bad, fmt.Sprintf("%s: differ at byte %d:\n  want %q\n  got  %q", c.ID, i, (*want)[max(0, i-40):], got[max(0, i-40):]))
	}
}

// check fails t unless there were more than atLeast renders, all alike.
func (o *oracleTally) check(t *testing.T, what string, atLeast int) {
	t.Helper()
	t.Logf("%s: %d pairs: %d identical, %d raise in both, %d otherwise", what, o.n, o.identical, o.bothErr, len(o.bad))
	assert.Greater(t, o.n, atLeast)
	assert.Empty(t, o.bad, "%s", strings.Join(o.bad, "\n"))
}

// TestOracleConversations renders the chat oracle files of
// internal/jinja2 (hf.json: this package's corpus; llamacpp.json:
// llama.cpp's templates; chatmore.json, sweep.json, sweep9.json,
// real13.json and real15.json: more real templates; suites18.json: ollama's newer ones
// and all of them over minja's polyfill tests' inputs; chatconv.json: all of them with
// minja's conversations and numbers and template syntax in the data)
// through Template, over every conversation of convert/chat.py
// the Go API states the same way (the hostile strings in text, tool
// arguments, enums and parts included): Jinja2's bytes, or an error where
// Jinja2 raises.
func TestOracleConversations(t *testing.T) {
	for _, file := range []string{"hf.json", "llamacpp.json", "chatmore.json", "sweep.json", "chatconv.json", "sweep9.json", "real13.json", "real15.json", "suites18.json"} {
		t.Run(file, func(t *testing.T) {
			doc := readOracleCases(t, file)
			var tally oracleTally
			skipped := 0
			for i := range doc.Cases {
				c := &doc.Cases[i]
				conv, ok := doc.Contexts[c.ContextRef]
				if !ok || c.TemplateRef == "" {
					continue
				}
				msgs, opts, parts, ok := conv.chat(t)
				if !ok {
					skipped++
					continue
				}
				var got string
				topts := []chattemplate.Option{chattemplate.Name(c.TemplateRef), chattemplate.Clock(pinnedClock),
					chattemplate.Token("bos_token", c.Context.BOS), chattemplate.Token("eos_token", c.Context.EOS)}
				if parts {
					topts = append(topts, chattemplate.ContentParts())
				}
				tpl, err := chattemplate.New(doc.Templates[c.TemplateRef], topts...)
				if err == nil {
					got, err = tpl.Render(context.Background(), msgs, opts...)
				}
				tally.add(c, got, err)
			}
			tally.check(t, fmt.Sprintf("%s (%d with shapes left out)", file, skipped), 100)
		})
	}
}
