// Package run sends a chat request to a model and reads its streamed reply,
// over net/http with the project's own request builders (chat.OpenAIBody,
// chat.AnthropicBody): no SDK. It speaks two protocols, OpenAI's chat
// completions (which OpenAI, Ollama, vLLM and llama.cpp's server serve) and
// Anthropic's Messages API, both with stream set, and reads their
// server-sent events itself.
//
// `rolemark serve` uses it for the page's Run button. The endpoint and its
// key come from the Endpoint the caller builds (the operator's environment),
// never from the request being run.
package run

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/rolemark/rolemark/chat"
)

// The protocols an Endpoint speaks.
const (
	OpenAI    = "openai"
	Anthropic = "anthropic"
)

// Default base URLs, used when Endpoint.BaseURL is empty.
const (
	DefaultOpenAIURL    = "https://api.openai.com/v1"
	DefaultAnthropicURL = "https://api.anthropic.com"
)

// AnthropicVersion is the anthropic-version header sent to Anthropic.
const AnthropicVersion = "2023-06-01"

// Endpoint is where a request goes and how it authenticates.
type Endpoint struct {
	// Protocol is OpenAI or Anthropic.
	Protocol string
	// BaseURL is the API's base: OpenAI's ends before /chat/completions
	// (https://api.openai.com/v1, http://localhost:11434/v1), Anthropic's
	// before /v1/messages. Empty means the protocol's default.
	BaseURL string
	// APIKey is sent as a bearer token (OpenAI) or x-api-key (Anthropic);
	// an OpenAI-compatible endpoint may take none.
	APIKey string
}

// URL returns the address a request to e is posted to.
func (e Endpoint) URL() string {
	switch e.Protocol {
	case Anthropic:
		base := strings.TrimRight(cmpOr(e.BaseURL, DefaultAnthropicURL), "/")
		return base + "/v1/messages"
	default:
		base := strings.TrimRight(cmpOr(e.BaseURL, DefaultOpenAIURL), "/")
		return base + "/chat/completions"
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Event is one piece of a streamed reply, as the page shows it.
type Event struct {
	// Type is "text" (Text holds the next piece of the reply),
	// "tool_call" (a tool call's ID and Name when it starts, then pieces
	// of its Arguments; Index says which call), "usage" (token counts so
	// far) or "stop" (StopReason).
	Type         string `json:"type"`
	Text         string `json:"text,omitempty"`
	Index        int    `json:"index"`
	ID           string `json:"id,omitempty"`
	Name         string `json:"name,omitempty"`
	Arguments    string `json:"arguments,omitempty"`
	InputTokens  int    `json:"input_tokens,omitempty"`
	OutputTokens int    `json:"output_tokens,omitempty"`
	StopReason   string `json:"stop_reason,omitempty"`
}

// Result is the whole reply once the stream ends.
type Result struct {
	Text         string
	ToolCalls    []chat.ToolCall
	InputTokens  int
	OutputTokens int
	StopReason   string
	// FirstByte is the time from sending the request to the first event;
	// Latency the time to the end of the stream.
	FirstByte, Latency time.Duration
}

// Error is a reply the endpoint refused, or a stream that reported an
// error.
type Error struct {
	Status int    // the HTTP status, 0 for an error inside the stream
	Msg    string // the API's message, or the start of the body
}

func (e *Error) Error() string {
	if e.Status == 0 {
		return "the model's stream reported: " + e.Msg
	}
	return fmt.Sprintf("the endpoint answered %d %s: %s", e.Status, http.StatusText(e.Status), e.Msg)
}

// Body returns the request body Stream sends: the builder's body for the
// protocol with stream set (and, for OpenAI, stream_options asking for the
// usage). A "stream" or "stream_options" in s.Config is left out: the
// reply is always streamed.
func Body(protocol string, msgs []chat.Message, s chat.Settings) ([]byte, error) {
	if _, ok := s.Config["stream"]; ok || s.Config["stream_options"] != nil {
		cfg := make(map[string]any, len(s.Config))
		for k, v := range s.Config {
			if k != "stream" && k != "stream_options" {
				cfg[k] = v
			}
		}
		s.Config = cfg
	}
	var b []byte
	var err error
	tail := `,"stream":true}`
	switch protocol {
	case OpenAI:
		b, err = chat.OpenAIBody(msgs, s)
		tail = `,"stream":true,"stream_options":{"include_usage":true}}`
	case Anthropic:
		b, err = chat.AnthropicBody(msgs, s)
	default:
		return nil, fmt.Errorf("run: unknown protocol %q", protocol)
	}
	if err != nil {
		return nil, err
	}
	return append(b[:len(b)-1], tail...), nil
}

// Stream sends msgs with s to e, calls emit with every event of the reply
// as it arrives, and returns the whole reply. client nil means
// http.DefaultClient. The context ends the request.
func Stream(ctx context.Context, client *http.Client, e Endpoint, msgs []chat.Message, s chat.Settings, emit func(Event)) (Result, error) {
	if client == nil {
		client = http.DefaultClient
	}
	if emit == nil {
		emit = func(Event) {}
	}
	body, err := Body(e.Protocol, msgs, s)
	if err != nil {
		return Result{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.URL(), bytes.NewReader(body))
	if err != nil {
		return Result{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	switch e.Protocol {
	case Anthropic:
		req.Header.Set("x-api-key", e.APIKey)
		req.Header.Set("anthropic-version", AnthropicVersion)
	default:
		if e.APIKey != "" {
			req.Header.Set("Authorization", "Bearer "+e.APIKey)
		}
	}
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return Result{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return Result{}, &Error{Status: resp.StatusCode, Msg: apiMessage(raw)}
	}
	var r Result
	first := true
	acc := accumulator{res: &r, emit: func(ev Event) {
		if first {
			r.FirstByte = time.Since(start)
			first = false
		}
		emit(ev)
	}}
	if e.Protocol == Anthropic {
		err = readSSE(resp.Body, acc.anthropic)
	} else {
		err = readSSE(resp.Body, acc.openai)
	}
	r.Latency = time.Since(start)
	return r, err
}

// apiMessage returns the error message of an API's JSON error body
// ({"error":{"message":…}} in both protocols), or the body itself, cut.
func apiMessage(raw []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &e) == nil && e.Error.Message != "" {
		return e.Error.Message
	}
	s := strings.TrimSpace(string(raw))
	if len(s) > 500 {
		s = s[:500] + "…"
	}
	return s
}

// errDone ends a stream early without an error (OpenAI's [DONE]).
var errDone = errors.New("done")

// readSSE reads server-sent events and calls on with each event's name and
// data (data lines joined by newlines).
func readSSE(r io.Reader, on func(event, data string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var event string
	var data []string
	dispatch := func() error {
		if len(data) == 0 {
			event = ""
			return nil
		}
		err := on(event, strings.Join(data, "\n"))
		event, data = "", data[:0]
		return err
	}
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" {
			if err := dispatch(); err != nil {
				return ignoreDone(err)
			}
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue // a comment, such as a keep-alive
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "event":
			event = value
		case "data":
			data = append(data, value)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return ignoreDone(dispatch())
}

func ignoreDone(err error) error {
	if errors.Is(err, errDone) {
		return nil
	}
	return err
}

// accumulator turns a protocol's events into Events and the Result.
type accumulator struct {
	res  *Result
	emit func(Event)
	// blocks maps an Anthropic content block's index to its tool call's
	// index, for tool_use blocks.
	blocks map[int]int
	text   strings.Builder
	args   []strings.Builder
}

func (a *accumulator) text1(s string) {
	if s == "" {
		return
	}
	a.text.WriteString(s)
	a.res.Text = a.text.String()
	a.emit(Event{Type: "text", Text: s})
}

// call returns tool call i, adding calls up to it.
func (a *accumulator) call(i int) *chat.ToolCall {
	for len(a.res.ToolCalls) <= i {
		a.res.ToolCalls = append(a.res.ToolCalls, chat.ToolCall{})
		a.args = append(a.args, strings.Builder{})
	}
	return &a.res.ToolCalls[i]
}

func (a *accumulator) arguments(i int, s string) {
	if s == "" {
		return
	}
	c := a.call(i)
	a.args[i].WriteString(s)
	c.Arguments = json.RawMessage(a.args[i].String())
	a.emit(Event{Type: "tool_call", Index: i, Arguments: s})
}

func (a *accumulator) usage(in, out int) {
	if in > 0 {
		a.res.InputTokens = in
	}
	if out > 0 {
		a.res.OutputTokens = out
	}
	a.emit(Event{Type: "usage", InputTokens: a.res.InputTokens, OutputTokens: a.res.OutputTokens})
}

func (a *accumulator) stop(reason string) {
	if reason == "" {
		return
	}
	a.res.StopReason = reason
	a.emit(Event{Type: "stop", StopReason: reason})
}

// openai reads one chunk of OpenAI's stream.
func (a *accumulator) openai(_, data string) error {
	if strings.TrimSpace(data) == "[DONE]" {
		return errDone
	}
	var c struct {
		Choices []struct {
			Index int `json:"index"`
			Delta struct {
				Content   *string `json:"content"`
				ToolCalls []struct {
					Index    int    `json:"index"`
					ID       string `json:"id"`
					Function struct {
						Name      string `json:"name"`
						Arguments string `json:"arguments"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"delta"`
			FinishReason *string `json:"finish_reason"`
		} `json:"choices"`
		Usage *struct {
			PromptTokens     int `json:"prompt_tokens"`
			CompletionTokens int `json:"completion_tokens"`
		} `json:"usage"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(data), &c); err != nil {
		return fmt.Errorf("run: a chunk of the stream is not JSON: %v", err)
	}
	if c.Error != nil {
		return &Error{Msg: c.Error.Message}
	}
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue // the page shows the first choice
		}
		if ch.Delta.Content != nil {
			a.text1(*ch.Delta.Content)
		}
		for _, tc := range ch.Delta.ToolCalls {
			call := a.call(tc.Index)
			if tc.ID != "" || tc.Function.Name != "" {
				if tc.ID != "" {
					call.ID = tc.ID
				}
				if tc.Function.Name != "" {
					call.Name = tc.Function.Name
				}
				a.emit(Event{Type: "tool_call", Index: tc.Index, ID: call.ID, Name: call.Name})
			}
			a.arguments(tc.Index, tc.Function.Arguments)
		}
		if ch.FinishReason != nil {
			a.stop(*ch.FinishReason)
		}
	}
	if c.Usage != nil {
		a.usage(c.Usage.PromptTokens, c.Usage.CompletionTokens)
	}
	return nil
}

// anthropic reads one event of Anthropic's stream.
func (a *accumulator) anthropic(event, data string) error {
	var ev struct {
		Type    string `json:"type"`
		Index   int    `json:"index"`
		Message struct {
			Usage anthropicUsage `json:"usage"`
		} `json:"message"`
		ContentBlock struct {
			Type string `json:"type"`
			ID   string `json:"id"`
			Name string `json:"name"`
			Text string `json:"text"`
		} `json:"content_block"`
		Delta struct {
			Type        string `json:"type"`
			Text        string `json:"text"`
			PartialJSON string `json:"partial_json"`
			StopReason  string `json:"stop_reason"`
		} `json:"delta"`
		Usage *anthropicUsage `json:"usage"`
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(data), &ev); err != nil {
		return fmt.Errorf("run: an event of the stream is not JSON: %v", err)
	}
	typ := cmpOr(ev.Type, event)
	switch typ {
	case "message_start":
		u := ev.Message.Usage
		a.usage(u.InputTokens+u.CacheCreation+u.CacheRead, u.OutputTokens)
	case "content_block_start":
		switch ev.ContentBlock.Type {
		case "text":
			a.text1(ev.ContentBlock.Text)
		case "tool_use", "server_tool_use":
			if a.blocks == nil {
				a.blocks = map[int]int{}
			}
			i := len(a.res.ToolCalls)
			a.blocks[ev.Index] = i
			c := a.call(i)
			c.ID, c.Name = ev.ContentBlock.ID, ev.ContentBlock.Name
			a.emit(Event{Type: "tool_call", Index: i, ID: c.ID, Name: c.Name})
		}
	case "content_block_delta":
		switch ev.Delta.Type {
		case "text_delta":
			a.text1(ev.Delta.Text)
		case "input_json_delta":
			if i, ok := a.blocks[ev.Index]; ok {
				a.arguments(i, ev.Delta.PartialJSON)
			}
		}
	case "message_delta":
		a.stop(ev.Delta.StopReason)
		if ev.Usage != nil {
			a.usage(0, ev.Usage.OutputTokens)
		}
	case "message_stop":
		return errDone
	case "error":
		return &Error{Msg: cmpOr(ev.Error.Message, ev.Error.Type)}
	}
	return nil
}

type anthropicUsage struct {
	InputTokens   int `json:"input_tokens"`
	OutputTokens  int `json:"output_tokens"`
	CacheCreation int `json:"cache_creation_input_tokens"`
	CacheRead     int `json:"cache_read_input_tokens"`
}
