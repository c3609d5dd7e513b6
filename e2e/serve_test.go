package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
)

// chromium finds the browser, or skips the test when it is not installed
// and not required.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("ROLEMARK_BROWSER") == "required" {
		t.Fatal("no chromium on the PATH, and ROLEMARK_BROWSER=required")
	}
	t.Skip("no chromium on the PATH (apt-get install chromium); set ROLEMARK_BROWSER=required to fail instead")
	return ""
}

// serve builds rolemark, starts `rolemark serve --addr 127.0.0.1:0 dir` and
// returns the address it prints.
func serve(t *testing.T, dir string) string {
	t.Helper()
	return serveEnv(t, dir)
}

// serveEnv is serve with the variables env (KEY=VALUE) added to the
// environment and the endpoints' variables taken out of it.
func serveEnv(t *testing.T, dir string, env ...string) string {
	t.Helper()
	return serveWith(t, build(t), dir, nil, env...)
}

// build builds rolemark and returns the binary's path.
func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "rolemark")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/rolemark")
	cmd.Dir = ".."
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}

// serveWith is serveEnv with the binary bin and the flags args.
func serveWith(t *testing.T, bin, dir string, args []string, env ...string) string {
	t.Helper()
	cmd := exec.Command(bin, append(append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), filepath.Base(dir))...)
	cmd.Dir = filepath.Dir(dir)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OPENAI_") && !strings.HasPrefix(kv, "ANTHROPIC_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	rd := bufio.NewReader(stdout)
	line, err := rd.ReadString('\n')
	require.NoError(t, err)
	go func() { _, _ = io.Copy(io.Discard, rd) }() // the lines naming the Run endpoints
	m := regexp.MustCompile(`at (http://127\.0\.0\.1:\d+)/\n$`).FindStringSubmatch(line)
	require.NotNil(t, m, "serve printed %q", line)
	return m[1]
}

// browser starts headless Chromium with a fresh profile.
func browser(t *testing.T) context.Context {
	t.Helper()
	// A fresh profile, removed once the browser is gone; Chromium's helpers
	// may still write to it for a moment after it exits, so not t.TempDir.
	profile, err := os.MkdirTemp("", "rolemark-e2e-chromium-")
	require.NoError(t, err)
	t.Cleanup(func() {
		time.Sleep(200 * time.Millisecond)
		_ = os.RemoveAll(profile)
	})
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium(t)),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 860),
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, 6*time.Minute) // a shared machine under load is slow
	t.Cleanup(cancel3)
	require.NoError(t, chromedp.Run(ctx)) // start the browser
	return ctx
}

func write(t *testing.T, dir, name, src string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	// Write and rename, as editors save, so that the page never sees half a file.
	require.NoError(t, os.WriteFile(p+".tmp~", []byte(src), 0o644))
	require.NoError(t, os.Rename(p+".tmp~", p))
}

const greet = `---
description: Greets a customer of the bank.
input:
  schema:
    name: string, the customer's name
    bank: string
    visits?: integer, how often they came
  default: {name: Ada, bank: Acme & Sons, visits: 2}
---
{{#system}}You are a clerk at {{bank}}.{{/system}}
{{#user}}Hi, I am {{name}} and this is visit {{visits}}.{{/user}}
`

// texts returns the role and text of every message shown in the chat view.
const chatJS = `Array.from(document.querySelectorAll('#messages > li.msg')).map(li =>
  li.querySelector('.role').textContent + ': ' + Array.from(li.querySelectorAll('.text')).map(d => d.textContent).join('|'))`

func TestServeInBrowser(t *testing.T) {
	ctx := browser(t)
	dir := filepath.Join(t.TempDir(), "prompts")
	write(t, dir, "bank/greet.hbs", greet)
	write(t, dir, "bank/_footer.hbs", "Thank you.")
	write(t, dir, "ask.j2", "---\ninput:\n  schema:\n    q: string\n  default: {q: What is 2+2?}\n---\n{{ role(\"system\") }}Answer briefly.\n{{ role(\"user\") }}{{ q }}\n")
	write(t, dir, "hostile.tmpl", "---\ninput:\n  schema:\n    x: string\n  default: {x: hello}\n---\n{{role \"user\" (attr \"name\" \"n\")}}{{.x}}\n{{role \"assistant\"}}<tool_call id=\"c1\" name=\"echo\">{\"v\": 1}</tool_call>\n")
	base := serve(t, dir)
	shots := os.Getenv("ROLEMARK_SCREENSHOTS")

	// The index lists templates; partials are not links.
	var links []string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(base+"/"),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#templates a')).map(a => a.textContent)`, &links),
	))
	assert.Equal(t, []string{"ask.j2", "bank/greet.hbs", "hostile.tmpl"}, links)

	// The form holds the defaults and the page shows what they render.
	var name, visits string
	var msgs []string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Click(`#templates a[href="/t/bank/greet.hbs"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#messages`, chromedp.ByQuery),
		chromedp.Value(`input[name="v.name"]`, &name, chromedp.ByQuery),
		chromedp.Value(`input[name="v.visits"]`, &visits, chromedp.ByQuery),
		chromedp.Evaluate(chatJS, &msgs),
	))
	assert.Equal(t, "Ada", name)
	assert.Equal(t, "2", visits)
	assert.Equal(t, []string{"system: You are a clerk at Acme & Sons.", "user: Hi, I am Ada and this is visit 2."}, msgs)

	// Fill the form and render.
	require.NoError(t, chromedp.Run(ctx,
		setValue(`input[name="v.name"]`, ""),
		chromedp.SendKeys(`input[name="v.name"]`, "Grace <Hopper>", chromedp.ByQuery),
		setValue(`input[name="v.visits"]`, "7"),
		chromedp.Click(`details:nth-of-type(2) summary`, chromedp.ByQuery),
		setValue(`textarea[name="history"]`, `[{"role":"user","content":"earlier"},{"role":"assistant","content":"noted"}]`),
	))
	reload(t, ctx, `document.querySelector('#render').click()`, `document.querySelector('#messages').textContent.includes('Grace')`)
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(chatJS, &msgs)))
	assert.Equal(t, []string{"system: You are a clerk at Acme & Sons.", "user: earlier", "assistant: noted",
		"user: Hi, I am Grace <Hopper> and this is visit 7."}, msgs)
	// The token counts, o200k_base by default (tiktoken's figures: each
	// message 3 + role + text, 3 more for the reply).
	var perMessage []string
	var total string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#messages > li.msg .who .ntok')).map(s => s.textContent)`, &perMessage),
		text(`#pane-chat .tokens`, &total),
	))
	assert.Equal(t, []string{"14 tokens", "6 tokens", "6 tokens", "20 tokens"}, perMessage)
	assert.Equal(t, "49 tokens (o200k_base): the messages as OpenAI counts them, 3 a message and 3 to prime the reply.", total)
	if shots != "" {
		screenshot(t, ctx, filepath.Join(shots, "preview-chat.png"))
	}

	// The OpenAI tab holds the same messages as JSON.
	var openai string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`document.querySelector('[data-tab="openai"]').click(); true`, nil),
		text(`#openai`, &openai),
	))
	var wire []chat.Message
	require.NoError(t, json.Unmarshal([]byte(openai), &wire))
	require.Len(t, wire, 4)
	assert.Equal(t, "Hi, I am Grace <Hopper> and this is visit 7.", wire[3].Text())

	// Choosing a chat format shows its prompt string with the tokens marked.
	var toks []string
	var prompt string
	require.NoError(t, chromedp.Run(ctx,
		setValue(`#format`, "llama3"),
	))
	reload(t, ctx, `document.querySelector('#format').dispatchEvent(new Event('change'))`,
		`document.querySelector('#prompt').textContent.includes('start_header_id') && !document.querySelector('#pane-prompt').hidden`)
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`Array.from(new Set(Array.from(document.querySelectorAll('#prompt mark.tok')).map(m => m.textContent))).sort()`, &toks),
		text(`#prompt`, &prompt),
	))
	assert.Equal(t, []string{"<|begin_of_text|>", "<|end_header_id|>", "<|eot_id|>", "<|start_header_id|>"}, toks)
	assert.Contains(t, prompt, "<|start_header_id|>user<|end_header_id|>\n\nHi, I am Grace <Hopper> and this is visit 7.<|eot_id|>")
	var promptTokens string
	require.NoError(t, chromedp.Run(ctx, text(`#pane-prompt .tokens`, &promptTokens)))
	assert.Equal(t, "133 tokens (o200k_base): this prompt string, the special tokens o200k_base knows read as such.", promptTokens)
	if shots != "" {
		screenshot(t, ctx, filepath.Join(shots, "preview-prompt.png"))
	}

	// Editing the file updates the page, keeping the form's values.
	write(t, dir, "bank/greet.hbs", strings.Replace(greet, "Hi, I am", "Hello, my name is", 1))
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`document.querySelector('[data-tab="chat"]').click(); true`, nil)))
	reload(t, ctx, "", `document.querySelector('#messages').textContent.includes('Hello, my name is Grace')`)
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(chatJS, &msgs)))
	assert.Equal(t, "user: Hello, my name is Grace <Hopper> and this is visit 7.", msgs[3])

	// A mistake shows the error with the template's line marked.
	write(t, dir, "bank/greet.hbs", strings.NewReplacer("{{#user}}", "<message role=\"wizard\">", "{{/user}}", "</message>").Replace(greet))
	var problem, marked string
	reload(t, ctx, "", `document.querySelector('#errors') !== null`)
	require.NoError(t, chromedp.Run(ctx,
		text(`#errors .pmsg`, &problem),
		text(`#errors .ln.mark`, &marked),
	))
	// The line holds values, and the error is still placed in the template.
	assert.Regexp(t, `^bank/greet\.hbs:11:15: rendered markup: unknown role "wizard"`, problem)
	assert.Equal(t, `11<message role="wizard">Hi, I am {{name}} and this is visit {{visits}}.</message>`, marked)
	if shots != "" {
		screenshot(t, ctx, filepath.Join(shots, "preview-error.png"))
	}

	// Hostile values are text: each shows as typed, and no script runs.
	raw, err := os.ReadFile("../testdata/hostile.json")
	require.NoError(t, err)
	var hostile []string
	require.NoError(t, json.Unmarshal(raw, &hostile))
	hostile = append(hostile,
		`<script>window.pwned = 1</script>`,
		`<img src=x onerror="window.pwned = 2">`,
		`"><svg onload="window.pwned = 3">`,
		`</div></li></ol><script>window.pwned = 4</script>`,
		`<iframe src="javascript:window.parent.pwned = 5"></iframe>`,
		`{{.x}}{{ x }}<%= x %>`,
	)
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(base+"/t/hostile.tmpl")))
	for _, v := range hostile {
		if !utf8.ValidString(v) || strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			continue // the browser's parser rewrites control characters and invalid UTF-8; the Go tests cover them
		}
		var shown, mname string
		var pwned bool
		var scripts, foreign int
		if err := chromedp.Run(ctx, setValue(`[name="v.x"]`, v)); err != nil {
			var loc, body string
			_ = chromedp.Run(ctx, chromedp.Location(&loc), chromedp.Evaluate(`document.body.innerText`, &body))
			t.Fatalf("%q: %v\n%s\n%s", v, err, loc, body)
		}
		reload(t, ctx, `document.querySelector('#render').click()`, `document.querySelector('#messages') !== null`)
		err := chromedp.Run(ctx,
			chromedp.Evaluate(`document.querySelector('#messages li.msg .text') ? document.querySelector('#messages li.msg .text').textContent : ''`, &shown),
			chromedp.Evaluate(`document.querySelector('#messages li.msg .mname').textContent`, &mname),
			chromedp.Evaluate(`window.pwned !== undefined || window.parent.pwned !== undefined`, &pwned),
			chromedp.Evaluate(`document.scripts.length`, &scripts),
			chromedp.Evaluate(`document.querySelectorAll('main img, main svg, main iframe, main script, main message, main tool_call').length`, &foreign),
		)
		require.NoError(t, err, "%q", v)
		assert.Equal(t, strings.Trim(v, " \t"), shown, "%q", v)
		assert.Equal(t, "n", mname, "%q", v)
		assert.False(t, pwned, "%q ran a script", v)
		assert.Equal(t, 1, scripts, "%q", v)
		assert.Zero(t, foreign, "%q made elements", v)
	}
}

// reload runs the script act, which makes the page load anew (or, when
// act is empty, waits for the page to reload itself), and waits until the
// new page is loaded and the script done is true on it. A marker set on the
// old page tells the two apart.
func reload(t *testing.T, ctx context.Context, act, done string) {
	t.Helper()
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`window.__old = true`, nil)))
	if act != "" {
		require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(act+`; true`, nil)))
	}
	cond := `window.__old === undefined && document.readyState === 'complete' && (` + done + `)`
	deadline := time.Now().Add(20 * time.Second)
	for {
		var ok bool
		err := chromedp.Run(ctx, chromedp.Evaluate(cond, &ok))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			var body string
			_ = chromedp.Run(ctx, chromedp.Evaluate(`document.body ? document.body.innerText : ''`, &body))
			t.Fatalf("waited 20s for %s (last error %v); the page shows:\n%s", done, err, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// text reads the text of the element sel finds (chromedp.Text can lose
// track of a page that reloaded itself; Evaluate cannot).
func text(sel string, dst *string) chromedp.Action {
	return chromedp.Evaluate(`document.querySelector(`+jsString(sel)+`).textContent`, dst)
}

// setValue sets the value of the element sel finds, as typing would leave it.
func setValue(sel, v string) chromedp.Action {
	return chromedp.Evaluate(`document.querySelector(`+jsString(sel)+`).value = `+jsString(v)+`; true`, nil)
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func screenshot(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	var png []byte
	require.NoError(t, chromedp.Run(ctx, chromedp.FullScreenshot(&png, 100)))
	require.NoError(t, os.WriteFile(path, png, 0o644), fmt.Sprint(path))
}
