package preview

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const typedPrompt = `---
model: gpt-4o-mini
config: {temperature: 0.3}
input:
  schema:
    name: string
    vip: boolean
    age: integer
    score?: number
    tone(enum): [warm, formal]
    address(object):
      city: string
      zip?: string
    tags(array): string
  default: {name: Ada, vip: true, age: 36}
tools:
  - name: lookup
    description: Looks up an account
    parameters: {type: object, properties: {id: {type: string}}}
toolChoice: required
output:
  format: json
  schema:
    answer: string
---
{{#system}}You help {{name}}{{#if vip}} (VIP){{/if}}, {{age}}, {{tone}}.{{/system}}
{{#user}}From {{address.city}}: {{#each tags}}[{{this}}]{{/each}}{{/user}}
`

func TestTypedInputs(t *testing.T) {
	s := newServer(t, writeDir(t, map[string]string{"typed.prompt": typedPrompt}))
	_, body := get(t, s, "/t/typed.prompt")
	for _, w := range []string{
		`<input type="text" name="v.name" value="Ada">`,
		`<span class="check"><input type="checkbox" name="v.vip" value="true" checked><input type="hidden" name="v.vip" value="false"></span>`,
		`<input type="number" name="v.age" step="1" value="36">`,
		`<input type="number" name="v.score" step="any" value="">`,
		`<select name="v.tone"><option>warm</option><option>formal</option></select>`,
		"<textarea name=\"v.address\" rows=\"4\" placeholder=\"{\n  &#34;city&#34;: &#34;&#34;,\n  &#34;zip&#34;: &#34;&#34;\n}\">{\n  &#34;city&#34;: &#34;&#34;,\n  &#34;zip&#34;: &#34;&#34;\n}</textarea>",
		"<textarea name=\"v.tags\" rows=\"4\" placeholder=\"[\n  &#34;&#34;\n]\">[\n  &#34;&#34;\n]</textarea>",
	} {
		assert.Contains(t, body, w)
	}
	// An unchecked box sends only the hidden false; the form's values are typed.
	q := url.Values{"go": {"1"}, "v.name": {"Bo"}, "v.vip": {"false"}, "v.age": {"7"}, "v.tone": {"formal"},
		"v.address": {`{"city": "Oslo"}`}, "v.tags": {`["a", "b"]`}}
	_, body = get(t, s, "/t/typed.prompt?"+q.Encode())
	assert.Contains(t, body, `<div class="text">You help Bo, 7, formal.</div>`)
	assert.Contains(t, body, `<div class="text">From Oslo: [a][b]</div>`)
	assert.Contains(t, body, `<input type="checkbox" name="v.vip" value="true"><input type="hidden" name="v.vip" value="false">`)
	q["v.vip"] = []string{"true", "false"}
	_, body = get(t, s, "/t/typed.prompt?"+q.Encode())
	assert.Contains(t, body, `<div class="text">You help Bo (VIP), 7, formal.</div>`)
}

func TestRequestViewsShowTheWholeRequest(t *testing.T) {
	s := newServer(t, writeDir(t, map[string]string{"typed.prompt": typedPrompt, "plain.hbs": "{{#user}}hi{{/user}}"}))
	q := url.Values{"go": {"1"}, "v.name": {"Bo"}, "v.vip": {"false"}, "v.age": {"7"}, "v.tone": {"warm"},
		"v.address": {`{"city": "Oslo"}`}, "v.tags": {`[]`}}
	_, body := get(t, s, "/t/typed.prompt?"+q.Encode())
	assert.Contains(t, body, `<pre id="openai">{
  &#34;model&#34;: &#34;gpt-4o-mini&#34;,
  &#34;messages&#34;: [`)
	for _, w := range []string{
		`&#34;tools&#34;: [
    {
      &#34;type&#34;: &#34;function&#34;,
      &#34;function&#34;: {
        &#34;name&#34;: &#34;lookup&#34;,`,
		`&#34;tool_choice&#34;: &#34;required&#34;,`,
		`&#34;response_format&#34;: {
    &#34;type&#34;: &#34;json_schema&#34;,
    &#34;json_schema&#34;: {
      &#34;name&#34;: &#34;output&#34;,`,
		`&#34;temperature&#34;: 0.3`,
	} {
		assert.Contains(t, body, w)
	}
	// Anthropic's needs max_tokens, which this front matter lacks: the
	// builder's error and the messages alone.
	assert.Contains(t, body, `<p class="note" id="anthropic-note">chat: anthropic request: config.max_tokens: the Messages API needs max_tokens (or maxOutputTokens) in config: the messages alone.</p>`)
	assert.Contains(t, body, `<pre id="anthropic">{
  &#34;system&#34;: &#34;You help Bo, 7, warm.&#34;,`)

	_, body = get(t, s, "/t/plain.hbs")
	assert.Contains(t, body, `<p class="note" id="openai-note">the front matter declares no model (model:): the messages alone.</p><pre id="openai">[`)
}

func TestImagesAndHistoryMarked(t *testing.T) {
	s := newServer(t, writeDir(t, map[string]string{"img.hbs": "{{#system}}Look.{{/system}}{{#user}}What is this?{{media url=u}}{{/user}}"}))
	for _, tc := range []struct{ url, want string }{
		{"https://example.com/cat.png", `<img src="https://example.com/cat.png" alt="image" referrerpolicy="no-referrer">`},
		{"data:image/png;base64,iVBORw0KGgo=", `<img src="data:image/png;base64,iVBORw0KGgo=" alt="image" referrerpolicy="no-referrer">`},
		{"data:image/svg+xml;base64,PHN2Zz4=", `<div class="media"><span class="kind">image</span> <span class="url">data:image/svg&#43;xml;base64,PHN2Zz4=</span>`},
		{"javascript:alert(1)", `<span class="url">javascript:alert(1)</span>`},
	} {
		vars := `{"u":` + string(mustJSON(t, tc.url)) + `}`
		_, body := get(t, s, "/t/img.hbs?go=1&vars="+url.QueryEscape(vars))
		assert.Contains(t, body, tc.want, tc.url)
		if tc.want[1] != 'i' {
			assert.NotContains(t, body, "<img", tc.url)
		}
	}
	hist := `[{"role":"user","content":"earlier"},{"role":"assistant","content":"noted"}]`
	_, body := get(t, s, "/t/img.hbs?go=1&vars="+url.QueryEscape(`{"u":"https://x/y.png"}`)+"&history="+url.QueryEscape(hist))
	assert.Contains(t, body, `<li class="msg role-user history">
<div class="who"><span class="hist" title="from the history box, not the template">history</span> <span class="role">user</span></div>
<div class="text">earlier</div>`)
	assert.Contains(t, body, `<li class="msg role-assistant history">`)
	assert.Contains(t, body, `<li class="msg role-system">`)
	assert.Contains(t, body, "<li class=\"msg role-user\">\n<div class=\"who\"><span class=\"role\">user</span></div>\n<div class=\"text\">What is this?</div>")
}

func TestSideBySidePage(t *testing.T) {
	s := newServer(t, writeDir(t, files))
	_, body := get(t, s, "/t/greet.hbs?go=1&v.name=Ada&v.n=2&format=chatml&bformat=llama3")
	assert.Contains(t, body, `<button type="button" data-tab="compare">Side by side</button>`)
	assert.Contains(t, body, `<th colspan="2">A: chatml, the form&#39;s inputs</th><th colspan="2">B: llama3, the form&#39;s inputs</th>`)
	assert.Contains(t, body, `<tr class="change"><td class="n">1</td><td class="a">&lt;|<mark>im_start|&gt;system</mark></td><td class="n">1</td><td class="b">&lt;|<mark>begin_of_text|&gt;&lt;|start_header_id|&gt;system&lt;|end_header_id|&gt;</mark></td></tr>`)

	_, body = get(t, s, "/t/greet.hbs?go=1&v.name=Ada&v.n=2&bvars="+url.QueryEscape(`{"name": "Grace"}`))
	assert.Contains(t, body, `<p class="help" id="compare-summary">1 of 2 lines differ; the differences are marked.</p>`)
	assert.Contains(t, body, `<tr class="change"><td class="n">2</td><td class="a">&lt;message role=&#34;user&#34;&gt;Hi <mark>Ada</mark> x2&lt;/message&gt;</td><td class="n">2</td><td class="b">&lt;message role=&#34;user&#34;&gt;Hi <mark>Grace</mark> x2&lt;/message&gt;</td></tr>`)

	_, body = get(t, s, "/t/greet.hbs?go=1&v.name=Ada&v.n=2&bvars=nope")
	assert.Contains(t, body, `<p class="error" id="compare-error">inputs B: nope is not a JSON object</p>`)
}

func TestParseErrorKeepsTheForm(t *testing.T) {
	s := newServer(t, writeDir(t, map[string]string{
		"open.tmpl": "---\ninput:\n  schema:\n    n: integer\n  default: {n: 3}\n---\n{{role \"user\"}}\n{{if .n}}\nmany\n\n",
		"open.j2":   "---\ninput:\n  schema:\n    q: string\n---\n{{ role(\"user\") }}\n  {% if q %}\n{{ q }}\n",
	}))
	_, body := get(t, s, "/t/open.tmpl")
	require.Contains(t, body, `id="errors"`)
	assert.Contains(t, body, `<input type="number" name="v.n" step="1" value="3">`)
	assert.Contains(t, body, `<button type="submit" id="render">Render</button>`)
	assert.Contains(t, body, `<p class="pmsg">open.tmpl:8:1: {{if}} is not closed: expected {{end}} before the end of the template (text/template: unexpected EOF)</p>`)
	assert.Contains(t, body, `<span class="ln mark"><span class="n">8</span>{{if .n}}</span><span class="caret"><span class="n"></span>^</span>`)

	_, body = get(t, s, "/t/open.j2")
	assert.Contains(t, body, `<input type="text" name="v.q" value="">`)
	assert.Regexp(t, `<p class="pmsg">open\.j2:7:3: TemplateSyntaxError: Unexpected end of template`, body)
	assert.Contains(t, body, `<span class="ln mark"><span class="n">7</span>  {% if q %}</span><span class="caret"><span class="n"></span>  ^</span>`)
}
