package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRun(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		stdin      string
		wantCode   int
		wantOut    string
		wantErrSub string
	}{
		{name: "no args", args: nil, wantCode: 2, wantErrSub: "usage:"},
		{name: "unknown command", args: []string{"frobnicate"}, wantCode: 2, wantErrSub: `unknown command "frobnicate"`},
		{name: "render example as markup", args: []string{"render", "--format", "markup"}, wantCode: 0,
			wantOut: "<message role=\"system\">You are a bank manager at Acme &amp; Sons. Be precise and friendly.</message>\n" +
				"<message role=\"user\" name=\"alice\">I want to buy a house &lt;today&gt;. What do I need?</message>\n"},
		{name: "render file with vars and history", args: []string{"render", "--var", "q=<why>", "--history", "testdata/history.json", "--format", "markup", "testdata/hello.tmpl"}, wantCode: 0,
			wantOut: "<message role=\"system\">Be brief.</message>\n<message role=\"user\">earlier</message>\n" +
				"<message role=\"assistant\">reply</message>\n<message role=\"user\">&lt;why&gt;</message>\n"},
		{name: "render openai", args: []string{"render", "--var", "q=a & b", "testdata/hello.tmpl"}, wantCode: 0,
			wantOut: "[\n  {\n    \"role\": \"system\",\n    \"content\": \"Be brief.\"\n  },\n  {\n    \"role\": \"user\",\n    \"content\": \"a & b\"\n  }\n]\n"},
		{name: "render stdin", args: []string{"render", "--engine", "gotmpl", "--var", "x=1", "--format", "markup", "-"}, stdin: `{{role "user"}}n={{.x}}`, wantCode: 0,
			wantOut: "<message role=\"user\">n=1</message>\n"},
		{name: "render stdin needs engine", args: []string{"render", "-"}, wantCode: 2, wantErrSub: "needs --engine"},
		{name: "render missing variable", args: []string{"render", "testdata/bad.tmpl"}, wantCode: 1,
			wantErrSub: "testdata/bad.tmpl:2:18: variable \"missing\" is not supplied\n"},
		{name: "render unknown extension", args: []string{"render", "testdata/history.json"}, wantCode: 1, wantErrSub: `no engine for extension ".json"`},
		{name: "render unknown format", args: []string{"render", "--format", "nope"}, wantCode: 2, wantErrSub: `unknown format "nope"`},
		{name: "bad flag", args: []string{"render", "--bogus"}, wantCode: 2, wantErrSub: "flag provided but not defined: -bogus"},
		{name: "parse stdin anthropic", args: []string{"parse", "--format", "anthropic", "-"}, stdin: `<message role="system">S</message><message role="user">U</message>`, wantCode: 0,
			wantOut: "{\n  \"system\": \"S\",\n  \"messages\": [\n    {\n      \"role\": \"user\",\n      \"content\": [\n        {\n          \"type\": \"text\",\n          \"text\": \"U\"\n        }\n      ]\n    }\n  ]\n}\n"},
		{name: "parse error position", args: []string{"parse", "testdata/bad.markup"}, wantCode: 1,
			wantErrSub: "testdata/bad.markup:2:1: text outside a message: \"oops\\n\""},
		{name: "parse needs input", args: []string{"parse"}, wantCode: 2, wantErrSub: "parse takes one markup file or -"},
		{name: "engines", args: []string{"engines"}, wantCode: 0, wantOut: "gotmpl       .tmpl .gotmpl\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), tc.args, strings.NewReader(tc.stdin), &out, &errOut)
			assert.Equal(t, tc.wantCode, code, "stderr: %s", errOut.String())
			if tc.wantCode == 0 {
				assert.Equal(t, tc.wantOut, out.String())
				assert.Empty(t, errOut.String())
			} else {
				assert.Contains(t, errOut.String(), tc.wantErrSub)
			}
		})
	}
}
