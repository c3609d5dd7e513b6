package preview

import "testing"

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
