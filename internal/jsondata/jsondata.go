// Package jsondata decodes the JSON data a template is rendered with (the
// command line's --vars, --var and --data, the rows of a batch, the
// studio's form) as encoding/json decodes it into an any, except that a
// number written as an integer that fits an int is an int. Other numbers
// are float64, as before.
//
// encoding/json makes every number a float64, which Go prints as 1e+06
// for 1000000 and the jinja engine reads as Python's float (5.0 in
// {{ n ~ "" }}, tojson or a printed list), where Python's json.loads, the
// YAML of front matter and case files, Handlebars.js and Jinja2 all keep
// the integer. With this package a number prints as its data writes it in
// every engine, whichever file it comes from.
package jsondata

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// Unmarshal decodes b into v as json.Unmarshal does, with the numbers of
// every any in v (at the top, or in the maps and slices under it) as the
// package documentation says. Its errors are json.Unmarshal's.
func Unmarshal(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if dec.Decode(v) != nil || dec.InputOffset() != int64(len(bytes.TrimRight(b, " \t\r\n"))) {
		// json.Unmarshal's own error, as a caller of it would see
		return json.Unmarshal(b, v)
	}
	ok := true
	switch p := v.(type) {
	case *map[string]any:
		ok = Numbers(*p)
	case *[]any:
		ok = Numbers(*p)
	case *any:
		*p, ok = number(*p)
	}
	if !ok {
		// a number a float64 cannot hold: json.Unmarshal's error
		return json.Unmarshal(b, v)
	}
	return nil
}

// Numbers replaces every json.Number in x, a map[string]any or []any
// decoded with UseNumber, and in the maps and slices under it, by an int
// or a float64 as Unmarshal makes them; it reports false when a number
// fits neither.
func Numbers(x any) bool {
	_, ok := number(x)
	return ok
}

// number is x with its json.Numbers replaced (in place for a map or a
// slice), and whether each fit.
func number(x any) (any, bool) {
	ok := true
	switch x := x.(type) {
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") {
			if n, err := strconv.Atoi(s); err == nil {
				return n, true
			}
		}
		f, err := strconv.ParseFloat(s, 64)
		return f, err == nil
	case map[string]any:
		for k, e := range x {
			var fit bool
			x[k], fit = number(e)
			ok = ok && fit
		}
	case []any:
		for i, e := range x {
			var fit bool
			x[i], fit = number(e)
			ok = ok && fit
		}
	}
	return x, ok
}
