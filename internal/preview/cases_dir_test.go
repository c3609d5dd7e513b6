package preview

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDirCasesView: the index lists every cases file with its template
// and count; Run all cases runs them as rolemark test DIR does and shows
// the counts, the names of the cases that failed (as text) and the files
// that do not load.
func TestDirCasesView(t *testing.T) {
	s := newServer(t, writeDir(t, caseFiles), CaseFormats(plainFormat, checkPlain))
	tests := []struct {
		name    string
		target  string
		want    []string
		notWant []string
	}{
		{
			name:   "listed",
			target: "/",
			want: []string{
				`<button type="submit" name="cases" value="run" id="run-all-cases">Run all cases</button>`,
				`<li><code>bank.cases.yaml</code> of <a href="/t/bank.hbs#cases">bank.hbs</a>: 3 cases`,
				`<li><code>other/far.cases.yaml</code> of <a href="/t/bank.hbs#cases">bank.hbs</a>: 1 cases`,
				`<li><code>broken.cases.yaml</code>` + "\n" + `<div class="problem">` + "\n" + `<p class="pmsg">broken.cases.yaml:3:1: did not find expected node content</p>`,
			},
			notWant: []string{`id="cases-tally"`, `class="failing"`},
		},
		{
			name:   "run",
			target: "/?cases=run",
			want: []string{
				`<p class="tally" id="cases-tally">3 of 6 cases differ; 1 load errors</p>`,
				`<li><code>bank.cases.yaml</code> of <a href="/t/bank.hbs?cases=run#cases">bank.hbs</a>: 3 cases <span class="tally">2 passed, 1 failed</span>` + "\n" +
					`<span class="failing">failed: <span class="cname">&lt;script&gt;alert(1)&lt;/script&gt;</span></span>`,
				`<li><code>v.cases.yaml</code> of <a href="/t/v.prompt?cases=run#cases">v.prompt</a>: 1 cases <span class="tally">1 passed, 0 failed</span>`,
			},
			notWant: []string{"<script>alert"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			getPage(t, s, tc.target, tc.want, tc.notWant)
		})
	}
	// All pass.
	getPage(t, newServer(t, writeDir(t, map[string]string{"bank.hbs": caseFiles["bank.hbs"],
		"bank.cases.yaml": "cases:\n  - name: one\n    inputs: {q: hi}\n    messages: [{role: system, content: Be brief.}, {role: user, content: hi}]\n"})),
		"/?cases=run", []string{`<p class="tally" id="cases-tally">all 1 cases pass</p>`}, nil)
	// A directory without cases says nothing of them.
	getPage(t, newServer(t, writeDir(t, files)), "/", nil, []string{`id="run-all-cases"`})
}

// TestSkippedDirectories: the page walks the directory as rolemark test
// does (caserun.SkipDir): a template, a cases file or an edit under
// node_modules or a hidden directory is not listed, not run and does not
// reload the page.
func TestSkippedDirectories(t *testing.T) {
	bank := map[string]string{"bank.hbs": caseFiles["bank.hbs"],
		"bank.cases.yaml": "cases:\n  - name: one\n    inputs: {q: hi}\n    messages: [{role: system, content: Be brief.}, {role: user, content: hi}]\n"}
	files := map[string]string{}
	for _, under := range []string{"", "node_modules/pkg/", "web/node_modules/", ".git/", "sub/.cache/"} {
		for name, text := range bank {
			files[under+name] = text
		}
	}
	dir := writeDir(t, files)
	s := newServer(t, dir)
	tests := []struct {
		name    string
		target  string
		want    []string
		notWant []string
	}{
		{name: "listing", target: "/",
			want:    []string{`<li><a href="/t/bank.hbs">bank.hbs</a></li>`, `<li><code>bank.cases.yaml</code> of <a href="/t/bank.hbs#cases">bank.hbs</a>: 1 cases`},
			notWant: []string{"node_modules", ".git", ".cache"}},
		{name: "run all", target: "/?cases=run",
			want:    []string{`<p class="tally" id="cases-tally">all 1 cases pass</p>`},
			notWant: []string{"node_modules", ".git", ".cache"}},
		{name: "a template's cases", target: "/t/bank.hbs?cases=run",
			want:    []string{`<p class="casefile"><code>bank.cases.yaml</code> <span class="tally">1 passed, 0 failed</span></p>`},
			notWant: []string{"node_modules", ".git", ".cache"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			getPage(t, s, tc.target, tc.want, tc.notWant)
		})
	}
	_, before := get(t, s, "/version")
	for _, under := range []string{"node_modules/pkg/", "web/node_modules/", ".git/", "sub/.cache/"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.FromSlash(under+"new.hbs")), []byte("new"), 0o644))
	}
	_, after := get(t, s, "/version")
	assert.Equal(t, before, after, "an edit in a skipped directory reloads the page")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "new.hbs"), []byte("new"), 0o644))
	_, after = get(t, s, "/version")
	assert.NotEqual(t, before, after)
}
