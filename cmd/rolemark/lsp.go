package main

import (
	"context"
	"errors"
	"runtime/debug"
	"strings"

	"github.com/rolemark/rolemark/internal/lsp"
)

const lspAbout = "Runs a Language Server (LSP) on standard input and output for prompt files of every engine: the problems 'rolemark check' finds as you type, hover on an input for its declared type and description, completion of inputs, partials, helpers and filters, and go-to-definition on a partial. Editors start it themselves; docs/lsp.md says how.\n"

// cmdLSP serves the Language Server Protocol on standard input and output.
func cmdLSP(ctx context.Context, sio stdio, args []string) error {
	fl := newFlags("lsp")
	tools := toolsOfFrontMatter(fl)
	if _, err := parseOperands(fl, args, 0, 0, "lsp takes no operands"); err != nil {
		return err
	}
	set := newSet()
	if err := tools(set); err != nil {
		return err
	}
	err := lsp.Serve(ctx, sio.in, sio.out, lsp.Options{Set: set, Funcs: lspFuncs(), Version: version(debug.ReadBuildInfo)})
	if errors.Is(err, lsp.ErrExitWithoutShutdown) {
		return errSilent{}
	}
	return err
}

// lspFuncs lists, by engine, the helpers, functions and filters a template
// can call, for completion: Handlebars' built-in helpers, Python Jinja2's
// filters and globals, pongo2's filters less those rolemark refuses,
// text/template's functions, and rolemark's own in each. lsp_test.go checks
// that each engine knows each.
func lspFuncs() map[string][]lsp.Func {
	own := map[string]string{
		"role":      "starts a message of the role; it runs until the next one",
		"message":   "a whole message of a role",
		"system":    "a system message",
		"user":      "a user message",
		"assistant": "an assistant message",
		"history":   "the history messages, placed here",
		"media":     "an image, audio or file part from a URL",
		"json":      "the value as JSON",
		"raw":       "the value as trusted markup, not escaped",
		"attr":      "an attribute of role or message: name or tool_call_id",
	}
	list := func(kind, names string) []lsp.Func {
		var out []lsp.Func
		for _, n := range strings.Fields(names) {
			out = append(out, lsp.Func{Name: n, Kind: kind, Doc: own[n]})
		}
		return out
	}
	return map[string][]lsp.Func{
		"handlebars": list("helper", "role message system user assistant history media json if unless each with lookup equal ifEquals unlessEquals section"),
		"gotmpl": list("function", "role message history media json raw attr "+
			"and or not len index slice print printf println call html js urlquery eq ne lt le gt ge"),
		"jinja": append(list("function", "role history media range dict lipsum cycler joiner namespace"),
			list("filter", "abs attr batch capitalize center count d default dictsort e escape filesizeformat first float "+
				"forceescape format groupby indent int items join last length list lower map max min pprint random reject "+
				"rejectattr replace reverse round safe select selectattr slice sort string striptags sum title tojson trim "+
				"truncate unique upper urlencode urlize wordcount wordwrap xmlattr")...),
		"pongo2": append(list("function", "role history media"),
			list("filter", "escape e safe escapejs add addslashes capfirst cut date default default_if_none "+
				"divisibleby first floatformat get_digit iriencode join last length length_is linebreaks linebreaksbr "+
				"linenumbers lower make_list pluralize random removetags slice split stringformat striptags "+
				"time title truncatechars truncatewords upper urlencode urlize "+
				"urlizetrunc wordcount wordwrap yesno float integer")...),
	}
}
