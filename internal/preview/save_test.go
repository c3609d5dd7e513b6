package preview

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// snapshot returns every file under dir (links as "-> target") with its
// text, to show that a request wrote nothing.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		require.NoError(t, err)
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&os.ModeSymlink != 0:
			target, err := os.Readlink(p)
			require.NoError(t, err)
			out[rel] = "-> " + target
		case !d.IsDir():
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			out[rel] = string(b)
		}
		return nil
	}))
	return out
}

const bankCases = "cases:\n  - name: a greeting\n    inputs: {q: hi}\n    messages: [{role: system, content: Be brief.}, {role: user, content: hi}]\n"

// saveDir is a directory to save cases in, and one outside it that links
// reach.
func saveDir(t *testing.T) (dir, outside string) {
	outside = writeDir(t, map[string]string{"x.hbs": "{{#user}}{{q}}{{/user}}", "x.cases.yaml": "cases: []\n"})
	dir = writeDir(t, map[string]string{
		"bank.hbs":        caseFiles["bank.hbs"],
		"bank.cases.yaml": bankCases,
		"v.prompt":        "---\ninput:\n  schema:\n    q: string\n---\nHi {{q}}",
		"v.formal.prompt": "---\ninput:\n  schema:\n    q: string\n---\nGood day {{q}}",
		"broken.hbs":      "{{#if x}}",
		"j/ask.j2":        "---\ninput:\n  schema:\n    n: integer\n    who: string\n---\n{{ role('user') }}{{ who }} asks {{ n }} times",
		"linked.hbs":      "{{#user}}{{q}}{{/user}}",
		"inlinked.hbs":    "{{#user}}{{q}}{{/user}}",
		"notes.txt":       "not a template",
		"bad.hbs":         "{{#user}}{{q}}{{/user}}",
		"bad.cases.yaml":  "cases: [\n",
	})
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "out")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "x.cases.yaml"), filepath.Join(dir, "linked.cases.yaml")))
	require.NoError(t, os.Symlink("bank.cases.yaml", filepath.Join(dir, "inlinked.cases.yaml")))
	return dir, outside
}

// TestSaveCase: with WriteCases, Save as case renders the posted form as
// the page does and adds the inputs, the history and the messages as a
// new case to the template's cases file, which then passes when run.
func TestSaveCase(t *testing.T) {
	tests := []struct {
		name, path, body string
		reply            string
		file, text       string // the cases file and its text after
		page             string // the template's page once its cases run
		want             []string
	}{
		{name: "beside a file of cases", path: "/case/bank.hbs", body: `{"form":"go=1&v.q=%3Cb%3Ehello%3C%2Fb%3E&history=%5B%7B%22role%22%3A%22user%22%2C%22content%22%3A%22before%22%7D%5D","name":"  bold <b>  "}`,
			reply: `{"file":"bank.cases.yaml","case":"bold <b>"}` + "\n", file: "bank.cases.yaml",
			text: bankCases[:len(bankCases)-1] + `
  - name: bold <b>
    inputs:
      q: <b>hello</b>
    history:
      - role: user
        content: before
    messages:
      - role: system
        content: Be brief.
      - role: user
        content: before
      - role: user
        content: <b>hello</b>
`, page: "/t/bank.hbs?cases=run",
			want: []string{`<p class="casefile"><code>bank.cases.yaml</code> <span class="tally">2 passed, 0 failed</span></p>`,
				`<span class="verdict">pass</span> <span class="cname">bold &lt;b&gt;</span>`}},
		{name: "a new file, typed inputs", path: "/case/j/ask.j2", body: `{"form":"go=1&v.n=3&v.who=Ada&vars=%7B%22extra%22%3A%5B1%2C2.5%5D%7D","name":"three"}`,
			reply: `{"file":"j/ask.cases.yaml","case":"three"}` + "\n", file: "j/ask.cases.yaml",
			text: `template: ask.j2
cases:
  - name: three
    inputs:
      extra:
        - 1
        - 2.5
      "n": 3
      who: Ada
    messages:
      - role: user
        content: Ada asks 3 times
`, page: "/t/j/ask.j2?cases=run",
			want: []string{`<p class="casefile"><code>j/ask.cases.yaml</code> <span class="tally">1 passed, 0 failed</span></p>`}},
		{name: "a variant, to its prompt's file", path: "/case/v.formal.prompt", body: `{"form":"go=1&v.q=Ada","name":"formally"}`,
			reply: `{"file":"v.cases.yaml","case":"formally"}` + "\n", file: "v.cases.yaml",
			text: "template: v.prompt\ncases:\n  - name: formally\n    variant: formal\n    inputs:\n      q: Ada\n    messages:\n      - role: user\n        content: Good day Ada\n",
			page: "/t/v.prompt?cases=run",
			want: []string{`<span class="verdict">pass</span> <span class="cname">formally</span> <span class="kind">variant formal</span>`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, _ := saveDir(t)
			s := newServer(t, dir, WriteCases())
			code, body := postRun(t, s, tc.path, tc.body, map[string]string{"Origin": "http://example.com"})
			require.Equal(t, 200, code, body)
			assert.Equal(t, tc.reply, body)
			b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(tc.file)))
			require.NoError(t, err)
			assert.Equal(t, tc.text, string(b))
			getPage(t, s, tc.page, tc.want, []string{`class="verdict">fail`})
		})
	}
}

// TestSaveCaseRefusals: the route is guarded as /run is (same origin,
// JSON, size), saves only a new name of a template that renders, and
// writes nothing outside the directory or through a link; a refusal
// writes nothing at all.
func TestSaveCaseRefusals(t *testing.T) {
	dir, outside := saveDir(t)
	s := newServer(t, dir, WriteCases())
	before, beforeOut := snapshot(t, dir), snapshot(t, outside)
	json := map[string]string{"Content-Type": "application/json"}
	for _, tc := range []struct {
		name, path, body string
		header           map[string]string
		code             int
		want             string
	}{
		{"another site", "/case/bank.hbs", `{"form":"v.q=x","name":"n"}`, map[string]string{"Origin": "http://evil.example"}, 403, "a case is saved from the page only\n"},
		{"a plain form", "/case/bank.hbs", `form=v.q%3Dx&name=n`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415, "a case is posted as application/json\n"},
		{"no content type", "/case/bank.hbs", `{"form":"v.q=x","name":"n"}`, map[string]string{"Content-Type": ""}, 415, "a case is posted as application/json\n"},
		{"too large", "/case/bank.hbs", `{"form":"v.q=` + strings.Repeat("x", maxPost) + `","name":"n"}`, json, 413, "a case is at most 16777216 bytes\n"},
		{"not JSON", "/case/bank.hbs", `{"form":`, json, 400, "bad request for a case: unexpected EOF\n"},
		{"no name", "/case/bank.hbs", `{"form":"v.q=x","name":"  "}`, json, 400, "a case needs a name\n"},
		{"a name of two lines", "/case/bank.hbs", `{"form":"v.q=x","name":"a\nb"}`, json, 400, "a case's name is one line, without control characters\n"},
		// the page's box holds at most 200 (maxlength counts UTF-16 units)
		{"a name too long", "/case/bank.hbs", `{"form":"v.q=x","name":"` + strings.Repeat("x", 201) + `"}`, json, 400, "a case's name is at most 200 characters\n"},
		{"a name too long in UTF-16", "/case/bank.hbs", `{"form":"v.q=x","name":"` + strings.Repeat("😀", 101) + `"}`, json, 400, "a case's name is at most 200 characters\n"},
		{"a name with a tab", "/case/bank.hbs", `{"form":"v.q=x","name":"a\tb"}`, json, 400, "a case's name is one line, without control characters\n"},
		{"a name already there", "/case/bank.hbs", `{"form":"v.q=x","name":"a greeting"}`, json, 409,
			"bank.cases.yaml: case \"a greeting\": the cases file already has a case of this name; choose another name\n"},
		{"does not render", "/case/broken.hbs", `{"form":"","name":"n"}`, json, 422, "nothing to save: the template does not render: broken.hbs:1:"},
		{"a required input left empty", "/case/j/ask.j2", `{"form":"v.who=Ada","name":"n"}`, json, 422, "nothing to save: the template does not render: "},
		{"a cases file that does not load", "/case/bad.hbs", `{"form":"vars=%7B%22q%22%3A1%7D","name":"n"}`, json, 422, "bad.cases.yaml:1:1: did not find expected node content\n"},
		{"not a template", "/case/notes.txt", `{"form":"","name":"n"}`, json, 404, "404 page not found\n"},
		{"no such template", "/case/gone.hbs", `{"form":"","name":"n"}`, json, 404, "404 page not found\n"},
		{"dot dot, escaped", "/case/..%2Fx.hbs", `{"form":"v.q=x","name":"n"}`, json, 404, "404 page not found\n"},
		{"dot dot", "/case/../x.hbs", `{"form":"v.q=x","name":"n"}`, json, 307, ""},
		{"a directory linked out", "/case/out/x.hbs", `{"form":"v.q=x","name":"n"}`, json, 403, "out/x.hbs: outside the directory (a symbolic link leads out of it)\n"},
		{"a cases file linked out", "/case/linked.hbs", `{"form":"vars=%7B%22q%22%3A1%7D","name":"n"}`, json, 403, "linked.cases.yaml: outside the directory (a symbolic link leads out of it)\n"},
		{"a cases file linked in", "/case/inlinked.hbs", `{"form":"vars=%7B%22q%22%3A1%7D","name":"n"}`, json, 403, "inlinked.cases.yaml: a symbolic link; the page writes regular files only\n"},
		{"a GET", "/case/bank.hbs", "", json, 405, "Method Not Allowed\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			method := "POST"
			if tc.name == "a GET" {
				method = "GET"
			}
			req := httptest.NewRequest(method, tc.path, strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			assert.Equal(t, tc.code, rec.Code)
			if strings.HasSuffix(tc.want, "\n") {
				assert.Equal(t, tc.want, rec.Body.String())
			} else {
				assert.Contains(t, rec.Body.String(), tc.want)
			}
			assert.Equal(t, before, snapshot(t, dir))
			assert.Equal(t, beforeOut, snapshot(t, outside))
		})
	}
}

// TestReadOnlyByDefault: without WriteCases the page says it is
// read-only, offers no Save as case, and the route does not exist.
func TestReadOnlyByDefault(t *testing.T) {
	dir, _ := saveDir(t)
	before := snapshot(t, dir)
	ro := newServer(t, dir)
	getPage(t, ro, "/t/bank.hbs", []string{`<p class="help" id="read-only">Read-only: the page writes no file. Start <code>rolemark serve --write-cases DIR</code> to save what a template renders as a test case.</p>`},
		[]string{`id="save-case"`})
	for _, method := range []string{"POST", "PUT", "GET"} {
		req := httptest.NewRequest(method, "/case/bank.hbs", strings.NewReader(`{"form":"v.q=x","name":"n"}`))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		ro.ServeHTTP(rec, req)
		assert.Equal(t, 404, rec.Code, method)
	}
	assert.Equal(t, before, snapshot(t, dir))

	rw := newServer(t, dir, WriteCases())
	tests := []struct {
		name, target string
		want         []string
		notWant      []string
	}{
		{name: "a template that renders", target: "/t/bank.hbs",
			want: []string{"<div class=\"savecase\" id=\"save-case\" data-path=\"bank.hbs\">\n" +
				`<label>Save as case <input type="text" id="case-name" placeholder="the new case's name" maxlength="200"></label> <button type="button" id="save-case-button">Save</button>` + "\n" +
				`<span class="help">adds the form's inputs, the history and the messages rendered above to <code>bank.cases.yaml</code> as a new case (rolemark serve --write-cases)</span>`},
			notWant: []string{`id="read-only"`}},
		{name: "a template without cases", target: "/t/j/ask.j2?go=1&v.n=1&v.who=x",
			want: []string{`to <code>j/ask.cases.yaml</code> as a new case`, `<p class="help" id="no-cases">No saved test cases: <code>j/ask.cases.yaml</code>`}},
		{name: "a template waiting for its inputs", target: "/t/j/ask.j2",
			want: []string{`<p class="help" id="save-case-hint">Save as case is offered once the template renders.</p>`}, notWant: []string{`id="save-case"`}},
		{name: "a template that does not render", target: "/t/broken.hbs",
			want: []string{`<p class="help" id="save-case-hint">Save as case is offered once the template renders.</p>`}, notWant: []string{`id="save-case"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			getPage(t, rw, tc.target, tc.want, tc.notWant)
		})
	}
}

// TestRunGuards: /run refuses what /case refuses, by the same guard.
func TestRunGuards(t *testing.T) {
	s := newServer(t, writeDir(t, map[string]string{"ask.hbs": runPrompt}))
	for _, tc := range []struct {
		name, body string
		header     map[string]string
		code       int
		want       string
	}{
		{"too large", `{"form":"` + strings.Repeat("x", maxPost) + `"}`, nil, 413, "a run is at most 16777216 bytes\n"},
		{"not JSON", `[`, nil, 400, "bad request for a run: unexpected EOF\n"},
		{"no content type", `{}`, map[string]string{"Content-Type": ""}, 415, "a run is posted as application/json\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := postRun(t, s, "/run/ask.hbs", tc.body, tc.header)
			assert.Equal(t, tc.code, code)
			assert.Equal(t, tc.want, body)
		})
	}
}

// TestSaveCaseOnce: saves of one name at once save it once; the others
// are told it is there.
func TestSaveCaseOnce(t *testing.T) {
	dir, _ := saveDir(t)
	s := newServer(t, dir, WriteCases())
	const n = 32
	codes := make(chan int, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := httptest.NewRequest("POST", "/case/j/ask.j2", strings.NewReader(`{"form":"v.n=1&v.who=Ada","name":"once"}`))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			codes <- rec.Code
		}()
	}
	wg.Wait()
	close(codes)
	count := map[int]int{}
	for c := range codes {
		count[c]++
	}
	assert.Equal(t, map[int]int{200: 1, 409: n - 1}, count)
	b, err := os.ReadFile(filepath.Join(dir, "j", "ask.cases.yaml"))
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(string(b), "- name: once"))
}

// TestOddNames: a template whose name holds a space, # or ? is linked,
// rendered, has its cases run and saved under its own name: every URL the
// page writes escapes each segment of the path.
func TestOddNames(t *testing.T) {
	const name = "sub dir/odd #1?.hbs"
	dir := writeDir(t, map[string]string{
		name:                         "---\ninput:\n  schema:\n    q: string\n  default: {q: hi}\n---\n{{#user}}{{q}}{{/user}}",
		"sub dir/odd #1?.cases.yaml": "cases:\n  - name: one\n    inputs: {q: hi}\n    messages: [{role: user, content: hi}]\n",
	})
	s := newServer(t, dir, WriteCases())
	const escaped = "/t/sub%20dir/odd%20%231%3F.hbs"
	tests := []struct {
		name, target string
		want         []string
	}{
		{name: "index", target: "/?cases=run", want: []string{
			`<li><a href="` + escaped + `">sub dir/odd #1?.hbs</a></li>`,
			`of <a href="` + escaped + `?cases=run#cases">sub dir/odd #1?.hbs</a>: 1 cases <span class="tally">1 passed, 0 failed</span>`}},
		{name: "page", target: escaped + "?cases=run", want: []string{
			`<form id="inputs" method="get" action="` + escaped + `">`,
			`formaction="` + escaped + `#cases"`,
			`<div class="text">hi</div>`,
			`<span class="tally">1 passed, 0 failed</span>`,
			`<div class="savecase" id="save-case" data-path="sub dir/odd #1?.hbs">`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			getPage(t, s, tc.target, tc.want, nil)
		})
	}
	code, body := postRun(t, s, "/case/sub%20dir/odd%20%231%3F.hbs", `{"form":"v.q=bye","name":"two"}`, nil)
	require.Equal(t, 200, code, body)
	assert.Equal(t, `{"file":"sub dir/odd #1?.cases.yaml","case":"two"}`+"\n", body)
	getPage(t, s, escaped+"?cases=run", []string{`<span class="tally">2 passed, 0 failed</span>`}, nil)
}

// TestCaseNameLimitIsThePages: the server's limit on a case's name is the
// one the page's box has (it was the page's alone: a name posted by hand
// could be any length).
func TestCaseNameLimitIsThePages(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("assets", "page.html"))
	require.NoError(t, err)
	assert.Contains(t, string(page), `id="case-name" placeholder="the new case's name" maxlength="`+strconv.Itoa(maxCaseName)+`"`)
	dir, _ := saveDir(t)
	s := newServer(t, dir, WriteCases())
	name := strings.Repeat("😀", maxCaseName/2) // 200 UTF-16 units: the most
	req := httptest.NewRequest("POST", "/case/bank.hbs", strings.NewReader(`{"form":"v.q=x","name":"`+name+`"}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	assert.Equal(t, 200, rec.Code, rec.Body.String())
}
