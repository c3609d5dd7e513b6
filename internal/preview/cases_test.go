package preview

import (
	"context"
	"fmt"
	"html"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
)

// plainFormat is a stand-in for rolemark's formats: "plain" writes each
// message's role and text.
func plainFormat(_ context.Context, w io.Writer, msgs []chat.Message, format string, _ []chat.Tool) error {
	for _, m := range msgs {
		fmt.Fprintf(w, "%s: %s\n", m.Role, m.Text())
	}
	return nil
}

func checkPlain(format string) error {
	if format != "plain" {
		return fmt.Errorf("unknown format %q", format)
	}
	return nil
}

var caseFiles = map[string]string{
	"bank.hbs": "---\ninput:\n  schema:\n    q: string\n  default: {q: hello}\n---\n{{#system}}Be brief.{{/system}}{{#user}}{{q}}{{/user}}",
	"bank.cases.yaml": `cases:
  - name: a greeting
    inputs: {q: hi}
    messages:
      - {role: system, content: Be brief.}
      - {role: user, content: hi}
  - name: <script>alert(1)</script>
    inputs: {q: "<img src=x onerror=alert(2)>"}
    messages:
      - {role: system, content: Be brief.}
      - {role: user, content: "<b>recorded</b>"}
  - name: as plain text
    format: plain
    inputs: {q: hi}
    prompt: "system: Be brief.\nuser: hi\n"
`,
	"broken.j2":             "{{ role('user') }}{{ q }}",
	"broken.cases.yaml":     "cases:\n  - name: one\n    inputs: {q: [\n",
	"none.tmpl":             `<message role="user">{{.q}}</message>`,
	"other/far.cases.yaml":  "template: ../bank.hbs\ncases:\n  - name: from afar\n    inputs: {q: far}\n",
	"other/near.cases.yaml": "template: ../v.prompt\ncases:\n  - name: not bank's\n    inputs: {q: bank.hbs}\n",
	"v.prompt":              "Hi {{q}}",
	"v.formal.prompt":       "Good day {{q}}",
	"v.cases.yaml":          "cases:\n  - name: formal\n    variant: formal\n    inputs: {q: Ada}\n    messages: [{role: user, content: Good day Ada}]\n",
}

func TestCasesView(t *testing.T) {
	dir := writeDir(t, caseFiles)
	s := newServer(t, dir, CaseFormats(plainFormat, checkPlain))
	tests := []struct {
		name    string
		target  string
		want    []string
		notWant []string
	}{
		{
			name:   "listed, not run",
			target: "/t/bank.hbs",
			want: []string{
				`<button type="submit" form="inputs" formaction="/t/bank.hbs#cases" name="cases" value="run" id="run-cases">Run cases</button>`,
				`<p class="casefile"><code>bank.cases.yaml</code></p>`,
				"<li class=\"case\">\n<div class=\"casehead\"><span class=\"cname\">a greeting</span></div>\n" +
					"<div class=\"cvars\"><span class=\"label\">inputs</span> <code>{&#34;q&#34;:&#34;hi&#34;}</code></div>\n" +
					"<details class=\"want\"><summary>expected</summary><pre>messages:\n  - role: system\n    content: Be brief.\n  - role: user\n    content: hi\n</pre></details>\n</li>",
				`<span class="cname">as plain text</span> <span class="kind">format plain</span>`,
				"<pre>prompt: |\n  system: Be brief.\n  user: hi\n</pre>",
				// Hostile values are text.
				`<span class="cname">&lt;script&gt;alert(1)&lt;/script&gt;</span>`,
				`<code>{&#34;q&#34;:&#34;&lt;img src=x onerror=alert(2)&gt;&#34;}</code>`,
				"    content: &lt;b&gt;recorded&lt;/b&gt;\n</pre>",
			},
			notWant: []string{`class="verdict"`, "<script>alert", "<img src=x", "<b>recorded"},
		},
		{
			name:   "run: one pass, one fail with its diff, a format",
			target: "/t/bank.hbs?go=1&v.q=hello&cases=run",
			want: []string{
				`<p class="casefile"><code>bank.cases.yaml</code> <span class="tally">2 passed, 1 failed</span></p>`,
				`<li class="case pass">` + "\n" + `<div class="casehead"><span class="verdict">pass</span> <span class="cname">a greeting</span></div>`,
				`<li class="case pass">` + "\n" + `<div class="casehead"><span class="verdict">pass</span> <span class="cname">as plain text</span> <span class="kind">format plain</span></div>`,
				`<li class="case fail">` + "\n" + `<div class="casehead"><span class="verdict">fail</span> <span class="cname">&lt;script&gt;alert(1)&lt;/script&gt;</span></div>`,
				"<pre class=\"diff\">" +
					"<span class=\"head\">--- bank.cases.yaml: &lt;script&gt;alert(1)&lt;/script&gt; (recorded)\n</span>" +
					"<span class=\"head\">&#43;&#43;&#43; bank.hbs (rendered)\n</span>" +
					"<span class=\"hunk\">@@ -2,4 &#43;2,4 @@\n</span>" +
					"<span class=\"same\">   - role: system\n</span>" +
					"<span class=\"same\">     content: Be brief.\n</span>" +
					"<span class=\"same\">   - role: user\n</span>" +
					"<span class=\"del\">-    content: &lt;b&gt;recorded&lt;/b&gt;\n</span>" +
					"<span class=\"add\">&#43;    content: &lt;img src=x onerror=alert(2)&gt;\n</span>" +
					"</pre>",
			},
			notWant: []string{"<script>alert", "<img src=x", "<b>recorded"},
		},
		{
			name:   "a cases file that does not parse",
			target: "/t/broken.j2?cases=run",
			want: []string{
				`<p class="casefile"><code>broken.cases.yaml</code></p>`,
				`<p class="pmsg">broken.cases.yaml:3:1: did not find expected node content</p>`,
				`<span class="ln mark"><span class="n">3</span>    inputs: {q: [</span>`,
			},
			notWant: []string{`class="tally"`, `<li class="case`, "<ol>\n</ol>"},
		},
		{
			name:   "a variant's page runs the cases of its prompt",
			target: "/t/v.formal.prompt?cases=run",
			want: []string{`<p class="casefile"><code>v.cases.yaml</code> <span class="tally">1 passed, 0 failed</span></p>`,
				`<span class="verdict">pass</span> <span class="cname">formal</span> <span class="kind">variant formal</span>`},
		},
		{
			name:    "a cases file elsewhere that names the template",
			target:  "/t/bank.hbs",
			want:    []string{`<p class="casefile"><code>bank.cases.yaml</code></p>`, `<p class="casefile"><code>other/far.cases.yaml</code></p>`, `<span class="cname">from afar</span>`},
			notWant: []string{`other/near.cases.yaml`},
		},
		{
			name:    "no cases",
			target:  "/t/none.tmpl",
			want:    []string{`<p class="help" id="no-cases">No saved test cases: <code>none.cases.yaml</code> beside the template holds them (rolemark test runs them).</p>`},
			notWant: []string{`id="run-cases"`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			getPage(t, s, tc.target, tc.want, tc.notWant)
		})
	}
}

// TestCasesRunWritesNothing: running cases that differ or have no recorded
// result leaves every file as it was (rolemark test --update records; the
// page never writes), and running is a GET: a POST is refused.
func TestCasesRunWritesNothing(t *testing.T) {
	files := map[string]string{
		"p.hbs":        `<message role="user">{{q}}</message>`,
		"p.cases.yaml": "cases:\n  - name: unrecorded\n    inputs: {q: hi}\n  - name: differs\n    inputs: {q: hi}\n    error: old\n",
	}
	dir := writeDir(t, files)
	old := time.Now().Add(-time.Hour)
	for name := range files {
		require.NoError(t, os.Chtimes(filepath.Join(dir, name), old, old))
	}
	s := newServer(t, dir, CaseFormats(plainFormat, checkPlain))
	getPage(t, s, "/t/p.hbs?cases=run", []string{`<span class="tally">0 passed, 2 failed</span>`,
		`<pre>nothing recorded yet (rolemark test --update records the result)</pre>`}, nil)
	code, _ := postRun(t, s, "/t/p.hbs?cases=run", "", nil)
	assert.Equal(t, 405, code)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, len(files))
	for name, src := range files {
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		assert.Equal(t, src, string(b))
		info, err := os.Stat(filepath.Join(dir, name))
		require.NoError(t, err)
		assert.True(t, info.ModTime().Equal(old), name)
	}
}

// TestCasesFormats: a page made without CaseFormats says why a case with a
// format does not run; an hf:FILE through a link out of the directory is
// refused before anything is read.
func TestCasesFormats(t *testing.T) {
	outside := writeDir(t, map[string]string{"secret.jinja": "{{ 'SECRET' }}"})
	dir := writeDir(t, map[string]string{
		"p.hbs":        `<message role="user">{{q}}</message>`,
		"p.cases.yaml": "cases:\n  - name: plain\n    format: plain\n    inputs: {q: hi}\n",
		"q.hbs":        `<message role="user">{{q}}</message>`,
		"q.cases.yaml": "cases:\n  - name: hf\n    format: hf:link.jinja\n    inputs: {q: hi}\n",
	})
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.jinja"), filepath.Join(dir, "link.jinja")))

	bare := newServer(t, dir)
	getPage(t, bare, "/t/p.hbs?cases=run",
		[]string{`<p class="pmsg">p.cases.yaml: case &#34;plain&#34;: this page runs no case formats (preview.CaseFormats)</p>`}, nil)

	var read []string
	s := newServer(t, dir, CaseFormats(func(_ context.Context, w io.Writer, _ []chat.Message, format string, _ []chat.Tool) error {
		read = append(read, format)
		return nil
	}, nil))
	_, body := get(t, s, "/t/q.hbs?cases=run")
	assert.Contains(t, body, `<p class="pmsg">q.cases.yaml: case &#34;hf&#34;: format hf:link.jinja: open link.jinja: permission denied</p>`)
	assert.NotContains(t, body, "SECRET")
	assert.Empty(t, read)
	assert.False(t, strings.Contains(body, `class="tally"`))
}

// BenchmarkCasesOfPage measures what finding a template's cases adds to
// each view of its page: every cases file of a directory of 500 prompts
// in 25 directories, each with a cases file of three cases, is read to
// learn its template.
func BenchmarkCasesOfPage(b *testing.B) {
	files := map[string]string{}
	for i := 0; i < 500; i++ {
		files[fmt.Sprintf("d%02d/p%03d.hbs", i%25, i)] = "{{role \"user\"}}hello {{name}}"
		files[fmt.Sprintf("d%02d/p%03d.cases.yaml", i%25, i)] = "cases:\n" + strings.Repeat("  - name: n\n    inputs: {name: Ada}\n    messages: [{role: user, content: hello Ada}]\n", 3)
	}
	dir := writeDir(b, files)
	s, err := New(dir, engine.NewSet(handlebars.New()))
	require.NoError(b, err)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if got := s.cases(ctx, "d07/p007.hbs", false); len(got) != 1 {
			b.Fatal(got)
		}
	}
}

// formValues returns what the form of inputs on page submits as it is
// shown: its hidden, text and number inputs, its checked boxes, its
// textareas and the chosen option of each select (no button).
func formValues(t *testing.T, page string) url.Values {
	t.Helper()
	start := strings.Index(page, `<form id="inputs"`)
	require.GreaterOrEqual(t, start, 0, "no form of inputs")
	form := page[start:]
	form = form[:strings.Index(form, "</form>")]
	v := url.Values{}
	for _, m := range regexp.MustCompile(`<input type="(?:hidden|text|number)" name="([^"]*)"(?: step="[^"]*")? value="([^"]*)">`).FindAllStringSubmatch(form, -1) {
		v.Add(html.UnescapeString(m[1]), html.UnescapeString(m[2]))
	}
	for _, m := range regexp.MustCompile(`<input type="checkbox" name="([^"]*)" value="([^"]*)" checked>`).FindAllStringSubmatch(form, -1) {
		v.Add(html.UnescapeString(m[1]), html.UnescapeString(m[2]))
	}
	for _, m := range regexp.MustCompile(`(?s)<textarea name="([^"]*)"[^>]*>(.*?)</textarea>`).FindAllStringSubmatch(form, -1) {
		v.Add(html.UnescapeString(m[1]), html.UnescapeString(m[2]))
	}
	for _, m := range regexp.MustCompile(`(?s)<select name="([^"]*)"[^>]*>.*?<option(?: value="([^"]*)")? selected>([^<]*)</option>`).FindAllStringSubmatch(form, -1) {
		val := m[3]
		if strings.Contains(m[0][strings.LastIndex(m[0], "<option"):], "value=") {
			val = m[2]
		}
		v.Add(html.UnescapeString(m[1]), html.UnescapeString(val))
	}
	return v
}

// TestRenderKeepsCasesRun: once the cases ran (Run cases, or the index's
// link), pressing Render — the form's values, as a browser submits them —
// runs them again, and a page that did not run them does not start.
func TestRenderKeepsCasesRun(t *testing.T) {
	s := newServer(t, writeDir(t, caseFiles), CaseFormats(plainFormat, checkPlain))
	const tally = `<p class="casefile"><code>bank.cases.yaml</code> <span class="tally">2 passed, 1 failed</span></p>`
	tests := []struct {
		name   string
		target string
		edit   url.Values // fields changed before Render
		ran    bool
	}{
		{name: "after Run cases", target: "/t/bank.hbs?go=1&v.q=hello&cases=run", edit: url.Values{"v.q": {"bye"}}, ran: true},
		{name: "from the index's link", target: "/t/bank.hbs?cases=run", ran: true},
		{name: "a new format", target: "/t/bank.hbs?cases=run", edit: url.Values{"format": {"llama3"}}, ran: true},
		{name: "not run", target: "/t/bank.hbs", edit: url.Values{"v.q": {"bye"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, page := get(t, s, tc.target)
			form := formValues(t, page)
			assert.Equal(t, tc.ran, form.Get("cases") == "run", "%v", form)
			for k, v := range tc.edit {
				form[k] = v
			}
			_, page = get(t, s, "/t/bank.hbs?"+form.Encode())
			if tc.ran {
				assert.Contains(t, page, tally)
			} else {
				assert.NotContains(t, page, `class="tally"`)
			}
			for k, v := range tc.edit {
				if k == "v.q" {
					assert.Contains(t, page, `<input type="text" name="v.q" value="`+v[0]+`">`)
				} else {
					assert.Contains(t, page, `<option selected>`+v[0]+`</option>`)
				}
			}
		})
	}
}
