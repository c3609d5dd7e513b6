package preview

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	chatformat "github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
)

// writeDir writes files (path -> content) under a new temporary directory.
func writeDir(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
	}
	return dir
}

func newServer(t *testing.T, dir string, opts ...Option) *Server {
	t.Helper()
	s, err := New(dir, engine.NewSet(handlebars.New(), jinja.New(), pongo2.New(), gotmpl.New()), opts...)
	require.NoError(t, err)
	return s
}

func get(t *testing.T, h http.Handler, target string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
	b, err := io.ReadAll(rec.Result().Body)
	require.NoError(t, err)
	return rec.Code, string(b)
}

// getPage gets target from h and checks that it is a page holding every
// string of want and none of notWant.
func getPage(t *testing.T, h http.Handler, target string, want, notWant []string) {
	t.Helper()
	code, body := get(t, h, target)
	require.Equal(t, 200, code)
	for _, w := range want {
		assert.Contains(t, body, w)
	}
	for _, w := range notWant {
		assert.NotContains(t, body, w)
	}
}

var files = map[string]string{
	"greet.hbs": "---\ninput:\n  schema:\n    name: string, who to greet\n    n?: integer\n  default: {name: Ada, n: 2}\n---\n" +
		"{{#system}}Be kind.{{/system}}{{role \"user\"}}Hi {{name}} x{{n}}",
	"ask.j2":         "{{ role(\"user\") }}{{ q }}",
	"sub/plain.tmpl": "<message role=\"user\">{{.x}}</message>\n",
	"sub/_part.tmpl": "partial",
	"bad.tmpl":       "---\ninput:\n  default: {}\n  schema: {}\n---\n\n<message role=\"wizard\">hi</message>\n",
	"notes.txt":      "not a template",
}

func TestIndexListsTemplatesAndPartials(t *testing.T) {
	s := newServer(t, writeDir(t, files))
	code, body := get(t, s, "/")
	require.Equal(t, 200, code)
	for _, want := range []string{
		`<li><a href="/t/ask.j2">ask.j2</a></li>`,
		`<li><a href="/t/bad.tmpl">bad.tmpl</a></li>`,
		`<li><a href="/t/greet.hbs">greet.hbs</a></li>`,
		`<li class="partial" title="partial: used by the templates that include it">sub/_part.tmpl</li>`,
		`<li><a href="/t/sub/plain.tmpl">sub/plain.tmpl</a></li>`,
	} {
		assert.Contains(t, body, want)
	}
	assert.NotContains(t, body, "notes.txt")
}

func TestTemplatePage(t *testing.T) {
	s := newServer(t, writeDir(t, files))
	tests := []struct {
		name    string
		target  string
		want    []string
		notWant []string
	}{
		{name: "defaults fill the form and render", target: "/t/greet.hbs",
			want: []string{
				`<input type="text" name="v.name" value="Ada">`,
				`<input type="number" name="v.n" step="1" value="2">`,
				`<span class="help">who to greet</span>`,
				`<div class="text">Be kind.</div>`,
				`<div class="text">Hi Ada x2</div>`,
				`<mark class="tok">&lt;|im_start|&gt;</mark>user`,
				"&#34;content&#34;: &#34;Hi Ada x2&#34;",
				`&#34;system&#34;: &#34;Be kind.&#34;`,
			}},
		{name: "submitted values", target: "/t/greet.hbs?go=1&v.name=Bob&v.n=7&format=llama3",
			want: []string{`<div class="text">Hi Bob x7</div>`, `<mark class="tok">&lt;|start_header_id|&gt;</mark>user`, `<option selected>llama3</option>`}},
		{name: "a number field that is not JSON", target: "/t/greet.hbs?go=1&v.name=Bob&v.n=seven",
			want: []string{`<p class="pmsg">input &#34;n&#34;: &#34;seven&#34; is not an integer written as JSON</p>`}},
		{name: "more variables of JSON null are none", target: "/t/greet.hbs?go=1&v.name=Bob&vars=null",
			want: []string{`<div class="text">Hi Bob x2</div>`}},
		{name: "history box", target: "/t/ask.j2?go=1&vars=" + url.QueryEscape(`{"q":"now?"}`) + "&history=" + url.QueryEscape(`[{"role":"user","content":"before"}]`),
			want: []string{`<div class="text">before</div>`, `<div class="text">now?</div>`}},
		{name: "bad history", target: "/t/ask.j2?go=1&history=nope",
			want: []string{`history: invalid character`}},
		{name: "missing variable without schema", target: "/t/ask.j2",
			want: []string{`<p class="pmsg">ask.j2:1:22: variable &#34;q&#34; is not supplied</p>`}},
		{name: "error marks the source line and column", target: "/t/bad.tmpl",
			want: []string{
				`<span class="ln mark"><span class="n">7</span>&lt;message role=&#34;wizard&#34;&gt;hi&lt;/message&gt;</span>` +
					`<span class="caret"><span class="n"></span>              ^</span>`,
			}, notWant: []string{`id="result"`}},
		{name: "a template in a subdirectory", target: "/t/sub/plain.tmpl?go=1&vars=" + url.QueryEscape(`{"x":"<b>&amp;</b>"}`),
			want: []string{`<div class="text">&lt;b&gt;&amp;amp;&lt;/b&gt;</div>`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			getPage(t, s, tc.target, tc.want, tc.notWant)
		})
	}
}

func TestCheckProblemsBesideTheRender(t *testing.T) {
	s := newServer(t, writeDir(t, map[string]string{"c.tmpl": "---\ninput:\n  schema:\n    plan: string\n  default: {plan: gold}\n---\n" +
		"{{role \"user\"}}{{if .plan}}{{.plan}}{{else}}{{.plna}}{{end}}"}))
	_, body := get(t, s, "/t/c.tmpl")
	assert.Contains(t, body, `<div class="text">gold</div>`)
	assert.Contains(t, body, `<section id="checks">`)
	assert.Contains(t, body, `<p class="pmsg">c.tmpl:7:47: variable &#34;plna&#34; is not declared in the input schema (declared: plan)</p>`)
	assert.NotContains(t, body, `id="errors"`)
}

func TestRequiredInputWaitsForTheForm(t *testing.T) {
	s := newServer(t, writeDir(t, map[string]string{"r.hbs": "---\ninput:\n  schema:\n    who: string\n---\n{{role \"user\"}}{{who}}"}))
	_, body := get(t, s, "/t/r.hbs")
	assert.Contains(t, body, `<p id="waiting" class="help">Fill in who and press Render.</p>`)
	assert.NotContains(t, body, `id="errors"`)
	_, body = get(t, s, "/t/r.hbs?go=1&v.who=me")
	assert.Contains(t, body, `<div class="text">me</div>`)
}

func TestReadsOnlyInsideDir(t *testing.T) {
	outside := writeDir(t, map[string]string{"secret.tmpl": "SECRET"})
	dir := writeDir(t, map[string]string{"ok.tmpl": "{{role \"user\"}}hi", "inc.j2": `{% include "../secret.tmpl" %}`})
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.tmpl"), filepath.Join(dir, "link.tmpl")))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "out")))
	s := newServer(t, dir)
	for _, target := range []string{"/t/link.tmpl", "/t/out/secret.tmpl", "/t/../secret.tmpl", "/t/%2e%2e/secret.tmpl", "/t/notes.txt", "/static/../preview.go"} {
		t.Run(target, func(t *testing.T) {
			code, body := get(t, s, target)
			assert.NotContains(t, body, "SECRET")
			assert.NotEqual(t, 200, code)
		})
	}
	_, body := get(t, s, "/t/inc.j2")
	assert.NotContains(t, body, "SECRET")
	assert.Contains(t, body, `id="errors"`)
	_, body = get(t, s, "/")
	assert.NotContains(t, body, "secret.tmpl")
}

func TestHostileValuesAreText(t *testing.T) {
	raw, err := os.ReadFile("../../testdata/hostile.json")
	require.NoError(t, err)
	var hostile []string
	require.NoError(t, json.Unmarshal(raw, &hostile))
	hostile = append(hostile, `<script>window.pwned=1</script>`, `<img src=x onerror="window.pwned=1">`,
		`"><svg onload=alert(1)>`, `</pre></div><script>alert(1)</script>`, `javascript:alert(1)`)
	s := newServer(t, writeDir(t, map[string]string{
		"h.hbs":    "{{role \"user\"}}{{x}}{{role \"assistant\"}}{{media url=x}}",
		"h.j2":     "{{ role(\"user\") }}{{ x }}",
		"h.pongo2": "{{ role(\"user\", x) }}{{ x }}",
		"h.tmpl":   "{{role \"user\" (attr \"name\" .x)}}{{.x}}",
	}))
	for _, tpl := range []string{"h.hbs", "h.j2", "h.pongo2", "h.tmpl"} {
		for _, v := range hostile {
			_, body := get(t, s, "/t/"+tpl+"?go=1&vars="+url.QueryEscape(`{"x":`+string(mustJSON(t, v))+`}`))
			lower := strings.ToLower(body)
			assert.Equal(t, 1, strings.Count(lower, "<script"), "%s %q", tpl, v)
			for _, bad := range []string{"<img", "<svg", "<message", "<tool_call", "<image", "<text>", "<chat_history"} {
				assert.False(t, strings.Contains(lower, bad), "%s %q: page holds %s", tpl, v, bad)
			}
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

func TestHeadersAndHosts(t *testing.T) {
	s := newServer(t, writeDir(t, files), LocalOnly())
	for _, tc := range []struct {
		host string
		code int
	}{{"127.0.0.1:7878", 200}, {"localhost:7878", 200}, {"[::1]:7878", 200}, {"evil.example:7878", 403}, {"10.0.0.1", 403}} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/", nil)
		req.Host = tc.host
		s.ServeHTTP(rec, req)
		assert.Equal(t, tc.code, rec.Code, tc.host)
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/", nil)
	req.Host = "127.0.0.1"
	s.ServeHTTP(rec, req)
	assert.Contains(t, rec.Header().Get("Content-Security-Policy"), "script-src 'self';")
	assert.Equal(t, "nosniff", rec.Header().Get("X-Content-Type-Options"))
}

func TestVersionFollowsChanges(t *testing.T) {
	dir := writeDir(t, files)
	s := newServer(t, dir)
	_, v1 := get(t, s, "/version")
	_, again := get(t, s, "/version")
	assert.Equal(t, v1, again)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ask.j2"), []byte("{{ role(\"user\") }}changed"), 0o644))
	_, v2 := get(t, s, "/version")
	assert.NotEqual(t, v1, v2)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sub", "new.hbs"), []byte("x"), 0o644))
	_, v3 := get(t, s, "/version")
	assert.NotEqual(t, v2, v3)
}

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []segment
	}{
		{"<|im_start|>user\nhi<|im_end|>", []segment{{"<|im_start|>", true}, {"user\nhi", false}, {"<|im_end|>", true}}},
		{"<s>[INST] a < b [/INST]", []segment{{"<s>", true}, {"[INST]", true}, {" a < b ", false}, {"[/INST]", true}}},
		{"plain [inst] <|x y|>", []segment{{"plain [inst] <|x y|>", false}}},
	}
	f := &chatformat.Format{}
	for _, tc := range tests {
		assert.Equal(t, tc.want, tokens(tc.in, []string{f.BOS, f.EOS}), tc.in)
	}
	assert.Equal(t, []segment{{"BOS", true}, {"x", false}, {"EOS", true}}, tokens("BOSxEOS", []string{"BOS", "EOS"}))
}

// A model's own chat template (rolemark serve --format hf:FILE) is offered
// beside the presets and renders the prompt string with its special tokens
// marked.
func TestChatTemplate(t *testing.T) {
	tpl, err := chattemplate.New("{% for m in messages %}<|turn|>{{ m.role }}: {{ m.content }}<|end|>{% endfor %}",
		chattemplate.SpecialTokens("<|turn|>", "<|end|>"))
	require.NoError(t, err)
	s := newServer(t, writeDir(t, files), ChatTemplate("hf:model.jinja", tpl), DefaultFormat("hf:model.jinja"))
	code, body := get(t, s, "/t/greet.hbs")
	require.Equal(t, 200, code)
	assert.Contains(t, body, `<option selected>hf:model.jinja</option>`)
	assert.Contains(t, body, `<mark class="tok">&lt;|turn|&gt;</mark>user: Hi Ada x2<mark class="tok">&lt;|end|&gt;</mark>`)
	_, body = get(t, s, "/t/greet.hbs?format=chatml")
	assert.Contains(t, body, `<option selected>chatml</option>`)
}

// An optional input's box left empty is the input left out, as rolemark
// render without it: in the jinja engine Jinja2's Undefined, which
// default() replaces. A required input's empty box, and one that showed a
// default, is the empty string.
func TestEmptyOptionalBoxIsLeftOut(t *testing.T) {
	s := newServer(t, writeDir(t, map[string]string{"o.j2": "---\ninput:\n  schema:\n    name: string\n    note?: string\n    mood?: string\n  default: {mood: calm}\n---\n" +
		"{{ role(\"user\") }}[{{ name|default('anon') }}] [{{ note|default('none given') }}] [{{ mood|default('no mood') }}] {{ note is defined }}"}))
	_, body := get(t, s, "/t/o.j2?go=1&v.name=&v.note=&v.mood=")
	assert.Contains(t, body, `<div class="text">[] [none given] [] False</div>`)
	_, body = get(t, s, "/t/o.j2?go=1&v.name=Ann&v.note=hi&v.mood=glad")
	assert.Contains(t, body, `<div class="text">[Ann] [hi] [glad] True</div>`)
}
