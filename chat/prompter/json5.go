package prompter

import (
	"reflect"
	"unicode"
	"unicode/utf8"

	"github.com/rolemark/rolemark/internal/pyjson"
)

// appendJSON5 appends v as the Python json5 package's dumps writes it with
// ensure_ascii=False, as LazyLLM 2605 writes tools in the string form: the
// separators of json.dumps, an object key that is an ECMAScript identifier
// and not a reserved word without quotes, strings escaped as json5 escapes
// them, numbers as Python prints them.
func appendJSON5(dst []byte, v *pyjson.Value) []byte {
	switch v.Kind {
	case pyjson.String:
		return appendJSON5String(dst, v.Str)
	case pyjson.Array, pyjson.Object:
		open, end := byte('['), byte(']')
		if v.Kind == pyjson.Object {
			open, end = '{', '}'
		}
		dst = append(dst, open)
		for i := range v.Items {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			if v.Kind == pyjson.Object {
				if k := v.Keys[i]; json5Ident(k) && !json5Reserved[k] {
					dst = append(dst, k...)
				} else {
					dst = appendJSON5String(dst, k)
				}
				dst = append(dst, ": "...)
			}
			dst = appendJSON5(dst, &v.Items[i])
		}
		return append(dst, end)
	}
	return pyjson.Append(dst, *v)
}

// appendJSON5String appends s as json5's _dump_str writes a str with
// ensure_ascii=False: the characters of json5Escapes escaped, every other
// as it is.
func appendJSON5String(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for _, r := range s {
		if e, ok := json5Escapes[r]; ok {
			dst = append(dst, e...)
		} else {
			dst = utf8.AppendRune(dst, r)
		}
	}
	return append(dst, '"')
}

// json5Escapes are the characters json5's _dump_str escapes, and how: a
// backslash, a double quote, U+2028, U+2029 and \n \r \b \f \t \v \0.
var json5Escapes = map[rune]string{'\\': `\\`, '"': `\"`, '\u2028': `\u2028`, '\u2029': `\u2029`,
	'\n': `\n`, '\r': `\r`, '\b': `\b`, '\f': `\f`, '\t': `\t`, '\v': `\v`, 0: `\0`}

// json5Ident reports whether k is written without quotes as a key: its
// first character a letter (Unicode categories Lu Ll Lt Lm Lo Nl), $ or _,
// the others also digits (Nd), marks (Mn Mc) or connectors (Pc).
func json5Ident(k string) bool {
	if k == "" {
		return false
	}
	for i, r := range k {
		switch {
		case r == '$' || r == '_':
		case unicode.In(r, unicode.Lu, unicode.Ll, unicode.Lt, unicode.Lm, unicode.Lo, unicode.Nl):
		case i > 0 && unicode.In(r, unicode.Nd, unicode.Mn, unicode.Mc, unicode.Pc):
		default:
			return false
		}
	}
	return true
}

// json5Reserved are the words json5 quotes as keys (ECMA-262 7.6.1).
var json5Reserved = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{"break", "case", "catch", "class", "const", "continue", "debugger", "default",
		"delete", "do", "else", "enum", "export", "extends", "false", "finally", "for", "function", "if",
		"import", "in", "instanceof", "new", "null", "return", "super", "switch", "this", "throw", "true",
		"try", "typeof", "var", "void", "while", "with"} {
		m[w] = true
	}
	return m
}()

// singleValue reports whether input is one value (a string or an
// integer), which LazyLLM places with str.format, rather than a map.
func singleValue(input any) bool {
	switch reflect.ValueOf(input).Kind() {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}
