package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var anthropicEvents = []string{
	"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"claude-test\",\"usage\":{\"input_tokens\":88,\"output_tokens\":1}}}",
	"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}",
	"event: ping\ndata: {\"type\": \"ping\"}",
	"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"I will check \"}}",
	"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"the rate.\"}}",
	"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}",
	"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_9\",\"name\":\"get_rate\",\"input\":{}}}",
	"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"currency\\\": \"}}",
	"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\\\"CHF\\\"}\"}}",
	"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}",
	"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":42}}",
	"event: message_stop\ndata: {\"type\":\"message_stop\"}",
}

func TestRunAnthropic(t *testing.T) {
	ctx := browser(t)
	openai := &standIn{events: openaiEvents}
	oai := openai.start(t)
	claude := &standIn{events: anthropicEvents}
	ant := claude.start(t)
	dir := filepath.Join(t.TempDir(), "prompts")
	write(t, dir, "rate.prompt", strings.Replace(ratePrompt, "model: gpt-4o-mini", "model: claude-sonnet-4-5", 1))
	base := serveEnv(t, dir, "OPENAI_BASE_URL="+oai.URL, "ANTHROPIC_API_KEY=ak-e2e-secret", "ANTHROPIC_BASE_URL="+ant.URL)

	var targets []string
	var chosen, html string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(base+"/t/rate.prompt"),
		chromedp.WaitVisible(`#run-button`, chromedp.ByQuery),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#run-target option')).map(o => o.value)`, &targets),
		chromedp.Evaluate(`document.querySelector('#run-target').value`, &chosen),
		setValue(`[name="v.currency"]`, "CHF"),
		chromedp.Evaluate(`document.documentElement.outerHTML`, &html),
	))
	assert.Equal(t, []string{"openai", "anthropic"}, targets)
	assert.Equal(t, "anthropic", chosen, "a claude model goes to Anthropic first")
	assert.NotContains(t, html, "ak-e2e-secret")
	assert.NotContains(t, html, ant.URL)

	st := pressRun(t, ctx)
	assert.Equal(t, "done", st.State, "%+v", st)
	assert.Equal(t, "done (tool_use)", st.Status)
	assert.Equal(t, "I will check the rate.", st.Reply)
	assert.Equal(t, []string{"get_rate toolu_9 {\n  \"currency\": \"CHF\"\n}"}, st.Calls)
	assert.Regexp(t, `^88 tokens in · 42 tokens out · first byte \d+ ms · total \d+ ms$`, st.Stats)

	got := claude.last(t)
	assert.Equal(t, "/v1/messages", got.Path)
	assert.Equal(t, "ak-e2e-secret", got.Header.Get("x-api-key"))
	assert.Equal(t, "2023-06-01", got.Header.Get("anthropic-version"))
	assert.Empty(t, got.Header.Get("Authorization"))
	assert.Equal(t, asJSON(t, `{
		"model": "claude-sonnet-4-5",
		"max_tokens": 300,
		"system": "You convert money. Call get_rate for rates.",
		"messages": [{"role": "user", "content": [{"type": "text", "text": "How much is 100 CHF in dollars?"}]}],
		"tools": [{"name": "get_rate", "description": "Exchange rate of a currency against the dollar",
			"input_schema": {"type": "object", "properties": {"currency": {"type": "string"}}, "required": ["currency"]}}],
		"tool_choice": {"type": "auto"},
		"temperature": 0.2,
		"stream": true
	}`), got.Body)
	openai.mu.Lock()
	assert.Empty(t, openai.requests, "the OpenAI stand-in was called")
	openai.mu.Unlock()

	// The other target, chosen on the page.
	require.NoError(t, chromedp.Run(ctx, setValue(`#run-target`, "openai")))
	st = pressRun(t, ctx)
	assert.Equal(t, "done", st.State, "%+v", st)
	assert.Equal(t, "claude-sonnet-4-5", openai.last(t).Body["model"])
}

const studioPrompt = `---
model: gpt-4o-mini
config: {temperature: 0.2}
input:
  schema:
    name: string, the customer's name
    vip: boolean, gets the premium tone
    visits: integer
    tone(enum, how formal): [warm, formal, terse]
    address(object):
      city: string
      zip?: string
    photo?: string, an image URL
  default: {name: Ada, vip: false, visits: 2, tone: warm}
tools:
  - name: lookup
    description: Looks up an account
    parameters: {type: object, properties: {id: {type: string}}}
toolChoice: auto
---
{{#system}}You are a {{tone}} clerk{{#if vip}} for VIP customers{{/if}}.{{/system}}
{{#user}}Hi, I am {{name}} from {{address.city}}, visit {{visits}}.{{#if photo}}{{media url=photo}}{{/if}}{{/user}}
`

// pixel is a 24x16 PNG, blue.
const pixel = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABgAAAAQCAIAAACDRijCAAAAGklEQVR42mOwjr5NFcQwatCoQaMGjRpEGQIACoIpn1VO2yMAAAAASUVORK5CYII="

func TestStudioInBrowser(t *testing.T) {
	ctx := browser(t)
	dir := filepath.Join(t.TempDir(), "prompts")
	write(t, dir, "studio.prompt", studioPrompt)
	write(t, dir, "bank/greet.hbs", greet)
	write(t, dir, "open.tmpl", "---\ninput:\n  schema:\n    n: integer\n  default: {n: 3}\n---\n{{role \"user\"}}\n{{if .n}}\nmany\n{{range .items}}\n{{.}}\n{{end}}\n\n")
	base := serveEnv(t, dir)
	shots := os.Getenv("ROLEMARK_SCREENSHOTS")

	// Typed inputs: a checkbox, a number, choices, a JSON skeleton.
	var kinds map[string]string
	var skeleton string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(base+"/t/studio.prompt"),
		chromedp.WaitVisible(`#inputs`, chromedp.ByQuery),
		chromedp.Evaluate(`Object.fromEntries(Array.from(document.querySelectorAll('#inputs .field')).map(l => {
			const c = l.querySelector('[name^="v."]'); return [c.name, c.tagName.toLowerCase() + (c.type ? ':' + c.type : '')] }))`, &kinds),
		chromedp.Evaluate(`document.querySelector('[name="v.address"]').value`, &skeleton),
	))
	assert.Equal(t, map[string]string{"v.name": "input:text", "v.vip": "input:checkbox", "v.visits": "input:number",
		"v.tone": "select:select-one", "v.address": "textarea:textarea", "v.photo": "input:text"}, kinds)
	assert.Equal(t, "{\n  \"city\": \"\",\n  \"zip\": \"\"\n}", skeleton)

	var msgs []string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`document.querySelector('[name="v.vip"][type=checkbox]').click(); true`, nil),
		setValue(`[name="v.visits"]`, "5"),
		setValue(`[name="v.tone"]`, "formal"),
		setValue(`[name="v.address"]`, `{"city": "Oslo"}`),
		setValue(`[name="v.photo"]`, pixel),
		chromedp.Click(`details:nth-of-type(2) summary`, chromedp.ByQuery),
		setValue(`textarea[name="history"]`, `[{"role":"user","content":"Is my card ready?"},{"role":"assistant","content":"Yes, since Monday."}]`),
	))
	reload(t, ctx, `document.querySelector('#render').click()`, `document.querySelector('#messages') !== null`)
	var history []string
	var imgOK bool
	var openai string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(chatJS, &msgs),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#messages li.msg.history .text')).map(d => d.textContent)`, &history),
		chromedp.Evaluate(`(() => { const i = document.querySelector('#messages figure.image img'); return !!i && i.complete && i.naturalWidth === 24 })()`, &imgOK),
	))
	assert.Equal(t, []string{"system: You are a formal clerk for VIP customers.", "user: Is my card ready?", "assistant: Yes, since Monday.",
		"user: Hi, I am Ada from Oslo, visit 5."}, msgs)
	assert.Equal(t, []string{"Is my card ready?", "Yes, since Monday."}, history)
	assert.True(t, imgOK, "the image is not shown")
	if shots != "" {
		screenshot(t, ctx, filepath.Join(shots, "preview-inputs.png"))
	}

	// The OpenAI view is the whole request.
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`document.querySelector('[data-tab="openai"]').click(); true`, nil),
		text(`#openai`, &openai),
	))
	req := asJSON(t, openai).(map[string]any)
	assert.Equal(t, "gpt-4o-mini", req["model"])
	assert.Equal(t, "auto", req["tool_choice"])
	assert.Equal(t, 0.2, req["temperature"])
	assert.Len(t, req["tools"], 1)
	assert.Len(t, req["messages"], 4)

	// Two input sets, as markup, the differences marked.
	require.NoError(t, chromedp.Run(ctx,
		setValue(`#bformat`, ""),
		setValue(`textarea[name="bvars"]`, `{"name": "Grace", "vip": false}`),
	))
	reload(t, ctx, `document.querySelector('#render').click()`, `document.querySelector('#compare') !== null`)
	var changed [][]string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#compare tr.change')).map(tr =>
			[(tr.querySelector('td.a mark') || {}).textContent || '', (tr.querySelector('td.b mark') || {}).textContent || ''])`, &changed),
	))
	assert.Equal(t, [][]string{{" for VIP customers", ""}, {"Ada", "Grace"}}, changed)
	var shown bool
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`!document.querySelector('#pane-compare').hidden`, &shown)))
	assert.True(t, shown, "asking for a side by side shows it")
	if shots != "" {
		screenshot(t, ctx, filepath.Join(shots, "preview-compare.png"))
	}

	// Two chat formats side by side (a prompt without tools or images,
	// which every format can write).
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(base+"/t/bank/greet.hbs"),
		chromedp.WaitVisible(`#inputs`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('#compare-box').open = true; true`, nil),
		setValue(`#bformat`, "llama3"),
	))
	reload(t, ctx, `document.querySelector('#render').click()`, `document.querySelector('#compare') !== null`)
	var heads []string
	var marksA, marksB int
	var visible bool
	var summary string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#compare th')).map(th => th.textContent)`, &heads),
		chromedp.Evaluate(`document.querySelectorAll('#compare td.a mark').length`, &marksA),
		chromedp.Evaluate(`document.querySelectorAll('#compare td.b mark').length`, &marksB),
		chromedp.Evaluate(`!document.querySelector('#pane-compare').hidden`, &visible),
		text(`#compare-summary`, &summary),
	))
	assert.Equal(t, []string{"A: chatml, the form's inputs", "B: llama3, the form's inputs"}, heads)
	assert.True(t, visible, "the side by side is not the pane shown")
	assert.Positive(t, marksA)
	assert.Positive(t, marksB)
	assert.Regexp(t, `^\d+ of \d+ lines differ; the differences are marked\.$`, summary)
	// Each side's token count (o200k_base, tiktoken's figures for the two
	// prompt strings).
	var compareTokens string
	require.NoError(t, chromedp.Run(ctx, text(`#compare-tokens`, &compareTokens)))
	assert.Equal(t, "A 56 tokens, B 83 (o200k_base, the prompt strings): B has 27 more.", compareTokens)
	if shots != "" {
		screenshot(t, ctx, filepath.Join(shots, "preview-compare-formats.png"))
	}

	// A parse error keeps the form and marks where the block opens.
	var problem, marked, caret string
	var field string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(base+"/t/open.tmpl"),
		chromedp.WaitVisible(`#errors`, chromedp.ByQuery),
		text(`#errors .pmsg`, &problem),
		text(`#errors .ln.mark`, &marked),
		text(`#errors .caret`, &caret),
		chromedp.Value(`input[name="v.n"]`, &field, chromedp.ByQuery),
	))
	assert.Equal(t, "open.tmpl:8:1: {{if}} is not closed: expected {{end}} before the end of the template (text/template: unexpected EOF)", problem)
	assert.Equal(t, "8{{if .n}}", marked)
	assert.Equal(t, "^", caret)
	assert.Equal(t, "3", field)
	if shots != "" {
		screenshot(t, ctx, filepath.Join(shots, "preview-parse-error.png"))
	}
}
