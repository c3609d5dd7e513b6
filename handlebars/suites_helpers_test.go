package handlebars_test

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/aymerick/raymond"
)

// suiteHelpers are the named helpers of raymond's tests, written again
// here by what they do, under the name the converter records: the
// package of the test file and the function's name. A case whose helpers
// are function literals stays skipped.
var suiteHelpers = map[string]any{
	"handlebars.barSuffixHelper": func(context string) string { return "bar " + context },
	"handlebars.echoHelper":      func(str string) string { return str },
	"handlebars.linkHelper": func(prefix string, options *raymond.Options) string {
		return fmt.Sprintf(`<a href="%s/%s">%s</a>`, prefix, options.ValueStr("url"), options.ValueStr("text"))
	},
	"handlebars.rawHelper": func(options *raymond.Options) string { return options.Fn() },
	"handlebars.rawThreeHelper": func(a, b, c string, options *raymond.Options) string {
		return options.Fn() + a + b + c
	},
	"handlebars.formHelper": func(options *raymond.Options) string { return "<form>" + options.Fn() + "</form>" },
	"handlebars.formCtxHelper": func(context any, options *raymond.Options) string {
		return "<form>" + options.FnWith(context) + "</form>"
	},
	"handlebars.listHelper": func(context any, options *raymond.Options) string {
		v := reflect.ValueOf(context)
		if (v.Kind() == reflect.Slice || v.Kind() == reflect.Array) && v.Len() > 0 {
			var b strings.Builder
			b.WriteString("<ul>")
			for i := range v.Len() {
				b.WriteString("<li>" + options.FnWith(v.Index(i).Interface()) + "</li>")
			}
			b.WriteString("</ul>")
			return b.String()
		}
		return "<p>" + options.Inverse() + "</p>"
	},
	"handlebars.blogHelper":   func(val string) string { return "val is " + val },
	"handlebars.equalHelper":  func(a, b string) string { return raymond.Str(a == b) },
	"handlebars.dashHelper":   func(a, b string) string { return a + "-" + b },
	"handlebars.concatHelper": func(a, b string) string { return a + b },
	"handlebars.detectDataHelper": func(options *raymond.Options) string {
		s, _ := options.DataFrame().Get("exclaim").(string)
		return s
	},
	"raymond.barHelper":  func(options *raymond.Options) string { return "bar" },
	"raymond.echoHelper": func(str string, nb int) string { return strings.Repeat(str, nb) },
	"raymond.boolHelper": func(b bool) string {
		if b {
			return "yes it is"
		}
		return "absolutely not"
	},
	"raymond.gnakHelper": func(nb int) string { return strings.Repeat("GnAK!", nb) },
}

// helpersOf maps a case's helper names to suiteHelpers' functions.
func helpersOf(names map[string]string) (map[string]any, error) {
	if len(names) == 0 {
		return nil, nil
	}
	m := map[string]any{}
	for name, fn := range names {
		h, ok := suiteHelpers[fn]
		if !ok {
			return nil, fmt.Errorf("no helper %s", fn)
		}
		m[name] = h
	}
	return m, nil
}
