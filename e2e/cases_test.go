package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// greetCases are saved cases of greet: one that passes, one whose
// recorded greeting is out of date, one in a chat format (rolemark test's
// formats, run by the page) and one with a hostile name and input.
const greetCases = `# the cases rolemark test runs
cases:
  - name: a first visit
    inputs: {name: Ada, bank: Acme, visits: 1}
    messages:
      - {role: system, content: You are a clerk at Acme.}
      - {role: user, content: "Hi, I am Ada and this is visit 1."}
  - name: a regular
    inputs: {name: Grace, bank: Acme, visits: 9}
    messages:
      - {role: system, content: You are a clerk at Acme.}
      - {role: user, content: "Hello, I am Grace; visit 9."}
  - name: as ChatML
    format: chatml
    inputs: {name: Ada, bank: Acme, visits: 1}
    prompt: |
      <|im_start|>system
      You are a clerk at Acme.<|im_end|>
      <|im_start|>user
      Hi, I am Ada and this is visit 1.<|im_end|>
      <|im_start|>assistant
  - name: <img src=x onerror="window.pwned = 1">
    inputs: {name: "<script>window.pwned = 2</script>", bank: Acme, visits: 1}
    messages:
      - {role: system, content: You are a clerk at Acme.}
      - {role: user, content: "Hi, I am <script>window.pwned = 2</script> and this is visit 1."}
`

// TestCasesInBrowser opens a template with saved cases, sees them listed,
// runs them, and sees each marked: the out-of-date one failed with its
// diff, the others passed, the hostile values as text.
func TestCasesInBrowser(t *testing.T) {
	ctx := browser(t)
	dir := filepath.Join(t.TempDir(), "prompts")
	write(t, dir, "bank/greet.hbs", greet)
	write(t, dir, "bank/greet.cases.yaml", greetCases)
	before, err := os.ReadFile(filepath.Join(dir, "bank", "greet.cases.yaml"))
	require.NoError(t, err)
	base := serve(t, dir)
	shots := os.Getenv("ROLEMARK_SCREENSHOTS")

	const namesJS = `Array.from(document.querySelectorAll('#cases li.case .cname')).map(n => n.textContent)`
	var names []string
	var verdicts, saveBoxes int
	var readOnly string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(base+"/t/bank/greet.hbs"),
		chromedp.WaitVisible(`#run-cases`, chromedp.ByQuery),
		chromedp.Evaluate(namesJS, &names),
		chromedp.Evaluate(`document.querySelectorAll('#cases .verdict').length`, &verdicts),
		text(`#read-only`, &readOnly),
		chromedp.Evaluate(`document.querySelectorAll('#save-case').length`, &saveBoxes),
	))
	// Started without --write-cases, the page says it is read-only.
	assert.Equal(t, "Read-only: the page writes no file. Start rolemark serve --write-cases DIR to save what a template renders as a test case.", readOnly)
	assert.Zero(t, saveBoxes)
	hostileName := `<img src=x onerror="window.pwned = 1">`
	assert.Equal(t, []string{"a first visit", "a regular", "as ChatML", hostileName}, names)
	assert.Zero(t, verdicts, "the cases are listed, not run, until asked")

	reload(t, ctx, `document.querySelector('#run-cases').click()`, `document.querySelector('#cases .tally') !== null`)
	var results [][]string
	var tally, diff, location string
	var pwned bool
	var foreign int
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#cases li.case')).map(li =>
			[li.querySelector('.cname').textContent, li.querySelector('.verdict').textContent, li.className])`, &results),
		text(`#cases .tally`, &tally),
		text(`#cases li.case.fail pre.diff`, &diff),
		chromedp.Evaluate(`location.pathname + location.search + location.hash`, &location),
		chromedp.Evaluate(`window.pwned !== undefined`, &pwned),
		chromedp.Evaluate(`document.querySelectorAll('#cases img, #cases script').length`, &foreign),
	))
	assert.Equal(t, [][]string{
		{"a first visit", "pass", "case pass"},
		{"a regular", "fail", "case fail"},
		{"as ChatML", "pass", "case pass"},
		{hostileName, "pass", "case pass"},
	}, results)
	assert.Equal(t, "3 passed, 1 failed", tally)
	assert.Equal(t, "--- bank/greet.cases.yaml: a regular (recorded)\n"+
		"+++ bank/greet.hbs (rendered)\n"+
		"@@ -2,4 +2,4 @@\n"+
		"   - role: system\n"+
		"     content: You are a clerk at Acme.\n"+
		"   - role: user\n"+
		"-    content: Hello, I am Grace; visit 9.\n"+
		"+    content: Hi, I am Grace and this is visit 9.\n", diff)
	assert.Regexp(t, `^/t/bank/greet\.hbs\?go=1&.*cases=run#cases$`, location)
	assert.False(t, pwned, "a case's value ran a script")
	assert.Zero(t, foreign, "a case's value made elements")
	if shots != "" {
		screenshot(t, ctx, filepath.Join(shots, "preview-cases.png"))
	}

	// The index runs every cases file of the directory, as rolemark test
	// DIR does, and links to the template whose case failed.
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(`#run-all-cases`, chromedp.ByQuery),
	))
	reload(t, ctx, `document.querySelector('#run-all-cases').click()`, `document.querySelector('#cases-tally') !== null`)
	var failing, link string
	require.NoError(t, chromedp.Run(ctx,
		text(`#cases-tally`, &tally),
		text(`#cases .failing`, &failing),
		chromedp.Evaluate(`document.querySelector('#cases .casefiles a').getAttribute('href')`, &link),
	))
	assert.Equal(t, "1 of 4 cases differ", tally)
	assert.Equal(t, "failed: a regular", failing)
	assert.Equal(t, "/t/bank/greet.hbs?cases=run#cases", link)

	after, err := os.ReadFile(filepath.Join(dir, "bank", "greet.cases.yaml"))
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), "running cases wrote the file")
}
