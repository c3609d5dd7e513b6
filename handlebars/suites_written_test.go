package handlebars_test

import (
	"fmt"
	"strings"

	"github.com/aymerick/raymond"
)

// writtenCase supplies what a converted raymond case holds as Go code:
// its helpers written as function literals, or data with functions in
// it, written again here by what the suite's code does. data nil keeps
// the converted data.
type writtenCase struct {
	data    map[string]any
	helpers map[string]any
}

func echoString(s string) string { return s }

func goodbyeHash(fn bool) func(options *raymond.Options) string {
	return func(options *raymond.Options) string {
		p, ok := options.HashProp("print").(bool)
		switch {
		case !ok:
			return "THIS SHOULD NOT HAPPEN"
		case !p:
			return "NOT PRINTING"
		case fn:
			return "GOODBYE " + options.HashStr("cruel") + " " + options.Fn()
		}
		return "GOODBYE " + options.HashStr("cruel") + " " + options.HashStr("world")
	}
}

func upperGoodbye(fn bool) map[string]any {
	return map[string]any{
		"goodbye": func(options *raymond.Options) string {
			s := strings.ToUpper(options.ValueStr("goodbye"))
			if fn {
				s += options.Fn()
			}
			return s
		},
		"cruel": func(world string) string { return "cruel " + strings.ToUpper(world) },
	}
}

func inputHelpers() map[string]any {
	return map[string]any{
		"input": func(options *raymond.Options) raymond.SafeString {
			return raymond.SafeString(`<input aria-label="` + options.HashStr("aria-label") + `" placeholder="` + options.HashStr("placeholder") + `" />`)
		},
		"t": func(param string) raymond.SafeString { return raymond.SafeString(param) },
	}
}

const (
	hbBasic    = "handlebars/basic_test.go:basicTests/"
	hbBuiltins = "handlebars/builtins_test.go:builtinsTests/"
	hbHelpers  = "handlebars/helpers_test.go:helpersTests/"
	hbSubexpr  = "handlebars/subexpressions_test.go:subexpressionsTests/"
)

var suiteWritten = map[string]writtenCase{
	hbBasic + "functions returning safestrings shouldn't be escaped": {data: map[string]any{"awesome": func() raymond.SafeString { return raymond.SafeString("&'\\<>") }}},
	hbBasic + "functions (1)":                                         {data: map[string]any{"awesome": func() string { return "Awesome" }}},
	hbBasic + "functions (2)":                                         {data: map[string]any{"awesome": func(options *raymond.Options) string { return options.ValueStr("more") }, "more": "More awesome"}},
	hbBasic + "functions with context argument":                       {data: map[string]any{"awesome": echoString, "frank": "Frank"}},
	hbBasic + "pathed functions with context argument":                {data: map[string]any{"bar": map[string]any{"awesome": echoString}, "frank": "Frank"}},
	hbBasic + "depthed functions with context argument":               {data: map[string]any{"awesome": echoString, "frank": "Frank"}},
	hbBasic + "block functions with context argument":                 {data: map[string]any{"awesome": func(context any, options *raymond.Options) string { return options.FnWith(context) }}},
	hbBasic + "depthed block functions with context argument":         {data: map[string]any{"awesome": func(context any, options *raymond.Options) string { return options.FnWith(context) }, "value": true}},
	hbBasic + "block functions without context argument":              {data: map[string]any{"awesome": func(options *raymond.Options) string { return options.Fn() }}},
	hbBasic + "that current context path ({{.}}) doesn't hit helpers": {helpers: map[string]any{"helper": func() string { panic("fail") }}},
	hbBasic + "should handle literals in subexpression":               {data: map[string]any{"false": func() string { return "bar" }}, helpers: map[string]any{"foo": echoString}},

	hbBuiltins + "#if - if with function shows the contents when function returns true":     {data: map[string]any{"goodbye": func() bool { return true }, "world": "world"}},
	hbBuiltins + "#if - if with function shows the contents when function returns string":   {data: map[string]any{"goodbye": func() string { return "world" }, "world": "world"}},
	hbBuiltins + "#if - if with function does not show the contents when returns false":     {data: map[string]any{"goodbye": func() bool { return false }, "world": "world"}},
	hbBuiltins + "#if - if with function does not show the contents when returns undefined": {data: map[string]any{"goodbye": func() any { return nil }, "world": "world"}},
	hbBuiltins + "#with - with with function argument":                                      {data: map[string]any{"person": func() map[string]string { return map[string]string{"first": "Alan", "last": "Johnson"} }}},
	hbBuiltins + "#each - each with function argument (1)": {data: map[string]any{"goodbyes": func() []map[string]string {
		return []map[string]string{{"text": "goodbye"}, {"text": "Goodbye"}, {"text": "GOODBYE"}}
	}, "world": "world"}},

	hbHelpers + "helper block with complex lookup expression": {helpers: map[string]any{"goodbyes": func(options *raymond.Options) string {
		out := ""
		for _, s := range []string{"Goodbye", "goodbye", "GOODBYE"} {
			out += s + " " + options.FnWith(s) + "! "
		}
		return out
	}}},
	hbHelpers + "helper returning undefined value (1)": {helpers: map[string]any{"nothere": func() string { return "" }}},
	hbHelpers + "helper returning undefined value (2)": {helpers: map[string]any{"nothere": func() string { return "" }}},
	hbHelpers + "block helper": {helpers: map[string]any{"goodbyes": func(options *raymond.Options) string {
		return options.FnWith(map[string]string{"text": "GOODBYE"})
	}}},
	hbHelpers + "block helper should have context in this": {helpers: map[string]any{"link": func(options *raymond.Options) string {
		return fmt.Sprintf("<a href=\"/people/%s\">%s</a>", options.ValueStr("id"), options.Fn())
	}}},
	hbHelpers + "nested block helpers": {helpers: map[string]any{"link": func(options *raymond.Options) string {
		return fmt.Sprintf("<a href=\"%s\">%s</a>", options.ValueStr("name"), options.Fn())
	}, "form": suiteHelpers["handlebars.formCtxHelper"]}},
	hbHelpers + "helpers hash - providing a helpers hash (1)":                     {helpers: map[string]any{"world": func() string { return "world" }}},
	hbHelpers + "helpers hash - providing a helpers hash (2)":                     {helpers: map[string]any{"world": func() string { return "world" }}},
	hbHelpers + "helpers hash - in cases of conflict, helpers win (1)":            {helpers: map[string]any{"lookup": func() string { return "helpers" }}},
	hbHelpers + "helpers hash - in cases of conflict, helpers win (2)":            {helpers: map[string]any{"lookup": func() string { return "helpers" }}},
	hbHelpers + "helpers hash - the helpers hash is available is nested contexts": {helpers: map[string]any{"helper": func() string { return "helper" }}},
	hbHelpers + "decimal number literals work": {helpers: map[string]any{"hello": func(times, times2 any) string {
		ts, t2s := "NaN", "NaN"
		if v, ok := times.(float64); ok {
			ts = raymond.Str(v)
		}
		if v, ok := times2.(float64); ok {
			t2s = raymond.Str(v)
		}
		return "Hello " + ts + " " + t2s + " times"
	}}},
	hbHelpers + "negative number literals work": {helpers: map[string]any{"hello": func(times any) string {
		ts := "NaN"
		if v, ok := times.(int); ok {
			ts = raymond.Str(v)
		}
		return "Hello " + ts + " times"
	}}},
	hbHelpers + "String literal parameters - simple literals work": {helpers: map[string]any{"hello": func(p, t, b, b2 any) string {
		param, ok := p.(string)
		if !ok {
			param = "NaN"
		}
		times, bool1, bool2 := "NaN", "NaB", "NaB"
		if v, ok := t.(int); ok {
			times = raymond.Str(v)
		}
		if v, ok := b.(bool); ok {
			bool1 = raymond.Str(v)
		}
		if v, ok := b2.(bool); ok {
			bool2 = raymond.Str(v)
		}
		return "Hello " + param + " " + times + " times: " + bool1 + " " + bool2
	}}},
	hbHelpers + "String literal parameters - escaping a String is possible": {helpers: map[string]any{"hello": func(param string) string { return "Hello " + param }}},
	hbHelpers + "String literal parameters - it works with ' marks":         {helpers: map[string]any{"hello": func(param string) string { return "Hello " + param }}},
	hbHelpers + "multiple parameters - simple multi-params work": {helpers: map[string]any{"goodbye": func(cruel, world string) string {
		return "Goodbye " + cruel + " " + world
	}}},
	hbHelpers + "multiple parameters - block multi-params work": {helpers: map[string]any{"goodbye": func(cruel, world string, options *raymond.Options) string {
		return options.FnWith(map[string]any{"greeting": "Goodbye", "adj": cruel, "noun": world})
	}}},
	hbHelpers + "hash - helpers can take an optional hash": {helpers: map[string]any{"goodbye": func(options *raymond.Options) string {
		return "GOODBYE " + options.HashStr("cruel") + " " + options.HashStr("world") + " " + options.HashStr("times") + " TIMES"
	}}},
	hbHelpers + "hash - helpers can take an optional hash with booleans (1)": {helpers: map[string]any{"goodbye": goodbyeHash(false)}},
	hbHelpers + "hash - helpers can take an optional hash with booleans (2)": {helpers: map[string]any{"goodbye": goodbyeHash(false)}},
	hbHelpers + "block helpers can take an optional hash": {helpers: map[string]any{"goodbye": func(options *raymond.Options) string {
		return "GOODBYE " + options.HashStr("cruel") + " " + options.Fn() + " " + options.HashStr("times") + " TIMES"
	}}},
	hbHelpers + "block helpers can take an optional hash with single quoted stings": {helpers: map[string]any{"goodbye": func(options *raymond.Options) string {
		return "GOODBYE " + options.HashStr("cruel") + " " + options.Fn() + " " + options.HashStr("times") + " TIMES"
	}}},
	hbHelpers + "block helpers can take an optional hash with booleans (1)":                   {helpers: map[string]any{"goodbye": goodbyeHash(true)}},
	hbHelpers + "name conflicts - helpers take precedence over same-named context properties": {helpers: upperGoodbye(false)},
	hbHelpers + "name conflicts - Scoped names take precedence over helpers":                  {helpers: upperGoodbye(false)},
	hbHelpers + "name conflicts - Scoped names take precedence over block helpers":            {helpers: upperGoodbye(true)},

	hbSubexpr + "arg-less helper": {helpers: map[string]any{"foo": func(val string) string { return val + val }, "bar": func() string { return "LOL" }}},
	hbSubexpr + "mixed paths and helpers": {helpers: map[string]any{"blog": func(p, p2, p3 string) string {
		return "val is " + p + ", " + p2 + " and " + p3
	}, "equal": suiteHelpers["handlebars.equalHelper"]}},
	hbSubexpr + "as hashes": {helpers: map[string]any{"blog": func(options *raymond.Options) string {
		return "val is " + options.HashStr("fun")
	}, "equal": suiteHelpers["handlebars.equalHelper"]}},
	hbSubexpr + "multiple subexpressions in a hash":              {helpers: inputHelpers()},
	hbSubexpr + "multiple subexpressions in a hash with context": {helpers: inputHelpers()},
	hbSubexpr + "subexpression functions on the context":         {data: map[string]any{"bar": func() string { return "LOL" }}, helpers: map[string]any{"foo": func(val string) string { return val + val }}},

	hbBuiltins + "#each - each with an object and @key (struct)": {data: map[string]any{"goodbyes": struct {
		Foo map[string]string
		Bar map[string]int
	}{map[string]string{"text": "baz"}, map[string]int{"text": 10}}, "world": "world"}},
	hbBuiltins + "#lookup - should lookup struct field": {data: map[string]any{"goodbyes": []string{"Foo", "Bar"}, "data": struct {
		Foo string
		Bar string
	}{"baz", "bat"}}},
	hbBuiltins + "#each - each with an object and @key (map)": {data: map[string]any{"goodbyes": map[any]map[string]string{"<b>#1</b>": {"text": "goodbye"}, 2: {"text": "GOODBYE"}}, "world": "world"}},

	"eval_test.go:evalTests/block helper returns a SafeString": {helpers: map[string]any{"bold": func(options *raymond.Options) raymond.SafeString {
		return raymond.SafeString(`<div class="mybold">` + options.Fn() + "</div>")
	}}},
}

const hbData = "handlebars/data_test.go:dataTests/"

// letHelper sets its hash as @-variables of its block.
func letHelper(options *raymond.Options) string {
	frame := options.NewDataFrame()
	for k, v := range options.Hash() {
		frame.Set(k, v)
	}
	return options.FnData(frame)
}

// exclaimed is "!" when the context's exclaim is true, "" when false.
func exclaimed(options *raymond.Options) string {
	b, ok := options.Value("exclaim").(bool)
	switch {
	case !ok:
		return "error"
	case b:
		return "!"
	}
	return ""
}

func adjectiveWorld(context string, options *raymond.Options) string {
	return options.DataStr("adjective") + " " + context + options.ValueStr("exclaim")
}

func sadHello(ctx map[string]string) func(options *raymond.Options) string {
	return func(options *raymond.Options) string {
		data := options.NewDataFrame()
		data.Set("adjective", "sad")
		return options.FnCtxData(ctx, data)
	}
}

func adjectiveNoun(options *raymond.Options) string {
	return options.DataStr("adjective") + " " + options.ValueStr("noun")
}

func helloContext(context string) string { return "Hello " + context }

func init() {
	for id, w := range map[string]writtenCase{
		hbData + "passing in data to a compiled function that expects data - works with helpers":             {helpers: map[string]any{"hello": adjectiveNoun}},
		hbData + "passing in data to a compiled function that expects data - works with helpers in partials": {helpers: map[string]any{"hello": adjectiveNoun}},
		hbData + "deep @foo triggers automatic top-level data":                                               {helpers: map[string]any{"let": letHelper}},
		hbData + "data is inherited downstream":                                                              {helpers: map[string]any{"let": letHelper}},
		hbData + "parameter data can be looked up via @foo":                                                  {helpers: map[string]any{"hello": helloContext}},
		hbData + "nested parameter data can be looked up via @foo.bar":                                       {helpers: map[string]any{"hello": helloContext}},
		hbData + "nested parameter data does not fail with @world.bar":                                       {helpers: map[string]any{"hello": helloContext}},
		hbData + "hash values can be looked up via @foo": {helpers: map[string]any{"hello": func(options *raymond.Options) string {
			return "Hello " + options.HashStr("noun")
		}}},
		hbData + "passing in data to a compiled function that expects data - works with helpers and parameters": {helpers: map[string]any{"hello": func(context string, options *raymond.Options) string {
			return options.DataStr("adjective") + " " + context + exclaimed(options)
		}}},
		hbData + "passing in data to a compiled function that expects data - works with block helpers": {helpers: map[string]any{
			"hello": func(options *raymond.Options) string { return options.Fn() },
			"world": func(options *raymond.Options) string {
				return options.DataStr("adjective") + " world" + exclaimed(options)
			},
		}},
		hbData + "passing in data to a compiled function that expects data - works with block helpers that use ..": {helpers: map[string]any{
			"hello": func(options *raymond.Options) string { return options.FnWith(map[string]string{"exclaim": "?"}) },
			"world": adjectiveWorld,
		}},
		hbData + "passing in data to a compiled function that expects data - data is passed to with block helpers where children use ..": {helpers: map[string]any{
			"hello": func(options *raymond.Options) string {
				return options.DataStr("accessData") + " " + options.FnWith(map[string]string{"exclaim": "?"})
			},
			"world": adjectiveWorld,
		}},
		hbData + "you can override inherited data when invoking a helper": {helpers: map[string]any{
			"hello": sadHello(map[string]string{"exclaim": "?", "zomg": "world"}),
			"world": adjectiveWorld,
		}},
		hbData + "you can override inherited data when invoking a helper with depth": {helpers: map[string]any{
			"hello": sadHello(map[string]string{"exclaim": "?"}),
			"world": adjectiveWorld,
		}},
		hbData + "nesting - the root context can be looked up via @root": {helpers: map[string]any{"helper": func(options *raymond.Options) string {
			data := options.NewDataFrame()
			if depth, ok := options.Data("depth").(int); ok {
				data.Set("depth", depth+1)
			}
			return options.FnData(data)
		}}},
	} {
		suiteWritten[id] = w
	}
}
