package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// arityCases call each markup function or block of each engine with
// arguments that do not fit, on line 7 after an emoji and in the branch
// of an if that a render with the synthetic inputs does not take (name is
// "user", so the else runs never): check must find each from the source,
// at the function's name, as it finds the same call at the top level
// (text/template's words name the file, %s in want).
var arityCases = []struct{ engine, call, want string }{
	{"hbs", `{{role}}`, `7:26: variable "role" is not declared in the input schema (declared: name); written so, role reads a variable, not the markup's role, which takes a role`},
	{"hbs", `{{role "user" "bob"}}`, `7:24: role takes one argument, the role: {{role "user" name=…}}`},
	{"hbs", `{{media}}`, `7:26: variable "media" is not declared in the input schema (declared: name); written so, media reads a variable, not the markup's media, which takes a url`},
	{"hbs", `{{media "a.png"}}`, `7:24: media takes its arguments by name: {{media url=… mimetype=…}}`},
	{"hbs", `{{media mimetype="image/png"}}`, `7:24: media needs a url: {{media url=… mimetype=…}}`},
	{"hbs", `{{history "x"}}`, `7:24: history takes no arguments`},
	{"hbs", `{{#message}}x{{/message}}`, `7:24: message needs a role: {{#message role="user"}}`},
	{"hbs", `{{#user "bob"}}x{{/user}}`, `7:24: user takes no positional arguments`},
	{"j2", `{{ role() }}`, `7:30: TypeError: role() missing required argument: 'role'`},
	{"j2", `{{ role("user", "a", "b", "c") }}`, `7:30: TypeError: role() takes from 1 to 3 positional arguments but 4 were given`},
	{"j2", `{{ media() }}`, `7:30: TypeError: media() missing required argument: 'url'`},
	{"j2", `{{ media("a", "b", "c") }}`, `7:30: TypeError: media() takes from 1 to 2 positional arguments but 3 were given`},
	{"j2", `{{ media("a", size=1) }}`, `7:30: TypeError: media() got an unexpected keyword argument 'size'`},
	{"j2", `{{ history("x") }}`, `7:30: TypeError: history() takes 0 positional arguments but 1 were given`},
	{"j2", `{% message %}x{% endmessage %}`, `7:30: TypeError: message() missing required argument: 'role'`},
	{"j2", `{% user "bob", "x", "y" %}x{% enduser %}`, `7:30: TypeError: user() takes from 0 to 2 positional arguments but 3 were given`},
	{"pongo2", `{{ role() }}`, `7:30: role takes a role and optionally a name and a tool call id, not 0 arguments`},
	{"pongo2", `{{ role("user", "a", "b", "c") }}`, `7:30: role takes a role and optionally a name and a tool call id, not 4 arguments`},
	{"pongo2", `{{ media() }}`, `7:30: media takes a URL and optionally a media type, not 0 arguments`},
	{"pongo2", `{{ media("a", "b", "c") }}`, `7:30: media takes a URL and optionally a media type, not 3 arguments`},
	{"pongo2", `{{ history("x") }}`, `7:30: function input argument count (0) of 'history' must be equal to the calling argument count (1)`},
	{"tmpl", `{{role}}`, `7:26: executing "%s" at <role>: wrong number of args for role: want at least 1 got 0`},
	{"tmpl", `{{role "user" "bob"}}`, `7:26: executing "%s" at <role "user" "bob">: error calling role: role takes attributes written (attr "name" VALUE) after the role; found the string "bob"`},
	{"tmpl", `{{media}}`, `7:26: executing "%s" at <media>: wrong number of args for media: want at least 1 got 0`},
	{"tmpl", `{{media "a" "b" "c"}}`, `7:26: executing "%s" at <media "a" "b" "c">: error calling media: media takes a URL and at most one media type`},
	{"tmpl", `{{"a.png" | media "image/png" "x"}}`, `7:36: executing "%s" at <media "image/png" "x">: error calling media: media takes a URL and at most one media type`},
	{"tmpl", `{{history "x"}}`, `7:26: executing "%s" at <history>: wrong number of args for history: want 0 got 1`},
	{"tmpl", `{{message}}`, `7:26: executing "%s" at <message>: wrong number of args for message: want at least 1 got 0`},
	{"tmpl", `{{raw}}`, `7:26: executing "%s" at <raw>: wrong number of args for raw: want 1 got 0`},
	{"tmpl", `{{message "user" (attr "name")}}`, `7:42: executing "%s" at <attr>: wrong number of args for attr: want 2 got 1`},
}

// TestCheckArity runs rolemark check on each of arityCases, in a branch
// not taken and at the top level, and requires exactly the expected line.
func TestCheckArity(t *testing.T) {
	dir := t.TempDir()
	for i, tc := range arityCases {
		var first, branch string
		switch tc.engine {
		case "hbs":
			first, branch = "{{role \"user\"}}{{name}}", "{{#if name}}x{{else}}"+tc.call+"{{/if}}"
		case "tmpl":
			first, branch = "{{role \"user\"}}{{.name}}", "{{if .name}}x{{else}}"+tc.call+"{{end}}"
		default:
			first, branch = "{{ role(\"user\") }}{{ name }}", "{% if name %}x{% else %}"+tc.call+"{% endif %}"
		}
		for _, at := range []string{"branch", "top"} {
			body, want := branch, tc.want
			if at == "top" {
				// the call alone, where the branch's else began
				pad := strings.Repeat(" ", strings.Index(branch, tc.call))
				body = pad + tc.call
			}
			base := strings.Repeat("x", i+1) + "_" + at + "." + tc.engine
			name := filepath.Join(dir, base)
			if tc.engine == "tmpl" {
				want = fmt.Sprintf(want, base) // the template text/template says it executes
			}
			require.NoError(t, os.WriteFile(name, []byte(classHeader+first+"\n😀 "+body), 0o644))
			t.Run(tc.engine+" "+tc.call+" "+at, func(t *testing.T) {
				var out, errOut bytes.Buffer
				code := run(context.Background(), []string{"check", name}, nil, &out, &errOut)
				assert.Equal(t, 1, code)
				assert.Empty(t, errOut.String())
				assert.Equal(t, name+":"+want+"\n", out.String())
			})
		}
	}
}
