package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSaveCaseInBrowser starts rolemark serve --write-cases on a copy of
// a prompt directory, renders a template with new inputs and a history,
// saves them as a case, sees the page run the template's cases with the
// new one passing, is refused a second case of the same name, and runs
// the file green with rolemark test.
func TestSaveCaseInBrowser(t *testing.T) {
	ctx := browser(t)
	dir := filepath.Join(t.TempDir(), "prompts")
	write(t, dir, "bank #1/greet.hbs", greet) // a # and a space, escaped in every URL
	write(t, dir, "bank #1/greet.cases.yaml", "# kept when a case is saved\ncases:\n"+
		"  - name: a first visit\n    inputs: {name: Ada, bank: Acme, visits: 1}\n    messages:\n"+
		"      - {role: system, content: You are a clerk at Acme.}\n      - {role: user, content: \"Hi, I am Ada and this is visit 1.\"}\n")
	bin := build(t)
	base := serveWith(t, bin, dir, []string{"--write-cases"})
	shots := os.Getenv("ROLEMARK_SCREENSHOTS")

	var readOnly bool
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(base+"/t/bank%20%231/greet.hbs"),
		chromedp.WaitVisible(`#save-case`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('#read-only') !== null`, &readOnly),
		setValue(`input[name="v.name"]`, "Grace <Hopper>"),
		setValue(`input[name="v.visits"]`, "7"),
		chromedp.Click(`details:nth-of-type(2) summary`, chromedp.ByQuery),
		setValue(`textarea[name="history"]`, `[{"role":"user","content":"earlier"}]`),
	))
	assert.False(t, readOnly)
	reload(t, ctx, `document.querySelector('#render').click()`, `document.querySelector('#messages').textContent.includes('Grace')`)
	var msgs []string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(chatJS, &msgs),
		setValue(`#case-name`, `a <b>saved</b> visit`),
	))
	assert.Equal(t, []string{"system: You are a clerk at Acme & Sons.", "user: earlier", "user: Hi, I am Grace <Hopper> and this is visit 7."}, msgs)

	// Saved, the page runs the template's cases: the new one passes.
	reload(t, ctx, `document.querySelector('#save-case-button').click()`, `document.querySelector('#cases .tally') !== null`)
	var results [][]string
	var tally, location string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#cases li.case')).map(li =>
			[li.querySelector('.cname').textContent, li.querySelector('.verdict').textContent])`, &results),
		text(`#cases .tally`, &tally),
		chromedp.Evaluate(`location.pathname + location.search + location.hash`, &location),
	))
	assert.Equal(t, [][]string{{"a first visit", "pass"}, {"a <b>saved</b> visit", "pass"}}, results)
	assert.Equal(t, "2 passed, 0 failed", tally)
	assert.Regexp(t, `^/t/bank%20%231/greet\.hbs\?go=1&.*cases=run#cases$`, location)
	b, err := os.ReadFile(filepath.Join(dir, "bank #1", "greet.cases.yaml"))
	require.NoError(t, err)
	assert.Equal(t, `# kept when a case is saved
cases:
  - name: a first visit
    inputs: {name: Ada, bank: Acme, visits: 1}
    messages:
      - {role: system, content: You are a clerk at Acme.}
      - {role: user, content: "Hi, I am Ada and this is visit 1."}
  - name: a <b>saved</b> visit
    inputs:
      bank: Acme & Sons
      name: Grace <Hopper>
      visits: 7
    history:
      - role: user
        content: earlier
    messages:
      - role: system
        content: You are a clerk at Acme & Sons.
      - role: user
        content: earlier
      - role: user
        content: Hi, I am Grace <Hopper> and this is visit 7.
`, string(b))
	if shots != "" {
		screenshot(t, ctx, filepath.Join(shots, "preview-save-case.png"))
	}

	// The same name again is refused, and says why.
	var status, class string
	require.NoError(t, chromedp.Run(ctx,
		setValue(`#case-name`, `a <b>saved</b> visit`),
		chromedp.Evaluate(`document.querySelector('#save-case-button').click(); true`, nil),
		chromedp.Poll(`document.querySelector('#save-status').className === 'error'`, nil),
		text(`#save-status`, &status),
		chromedp.Evaluate(`document.querySelector('#save-status').className`, &class),
	))
	assert.Equal(t, `bank #1/greet.cases.yaml: case "a <b>saved</b> visit": the cases file already has a case of this name; choose another name`, status)
	after, err := os.ReadFile(filepath.Join(dir, "bank #1", "greet.cases.yaml"))
	require.NoError(t, err)
	assert.Equal(t, string(b), string(after))

	out, err := exec.Command(bin, "test", dir).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Equal(t, "ok\t2 cases in 1 files\n", string(out))
}
