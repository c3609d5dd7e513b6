package jinja

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/jinja2"
	"github.com/rolemark/rolemark/roleparse"
)

// markupOptions declares rolemark's markup functions and block tags on a
// Jinja2 Env. role, history and media are call names: a call of the bare
// name is the markup function, whatever the data holds under that name.
// message, user, system and assistant are block tags.
func markupOptions() []jinja2.Option {
	return []jinja2.Option{
		jinja2.WithCallName("role", &jinja2.Func{Name: "role", Call: roleFunc}),
		jinja2.WithCallName("history", &jinja2.Func{Name: "history", Call: historyFunc}),
		jinja2.WithCallName("media", &jinja2.Func{Name: "media", Call: mediaFunc}),
		jinja2.WithBlockTag("message", &jinja2.Func{Name: "message", Call: messageBlock("")}),
		jinja2.WithBlockTag("system", &jinja2.Func{Name: "system", Call: messageBlock("system")}),
		jinja2.WithBlockTag("user", &jinja2.Func{Name: "user", Call: messageBlock("user")}),
		jinja2.WithBlockTag("assistant", &jinja2.Func{Name: "assistant", Call: messageBlock("assistant")}),
	}
}

func typeErr(format string, args ...any) error {
	return &jinja2.Error{Kind: "TypeError", Msg: fmt.Sprintf(format, args...)}
}

// bindArgs binds a call's arguments to params, Python's way: positional
// first, then keywords; the first required ones must be given. None binds
// as absent.
func bindArgs(fn string, params []string, required int, args []jinja2.Value, kw []jinja2.Kwarg) ([]jinja2.Value, error) {
	if len(args) > len(params) {
		if required == len(params) {
			return nil, typeErr("%s() takes %d positional arguments but %d were given", fn, len(params), len(args))
		}
		return nil, typeErr("%s() takes from %d to %d positional arguments but %d were given", fn, required, len(params), len(args))
	}
	out := make([]jinja2.Value, len(params))
	set := make([]bool, len(params))
	for i, a := range args {
		out[i], set[i] = a, true
	}
kwargs:
	for _, k := range kw {
		for i, p := range params {
			if p == k.Name {
				if set[i] {
					return nil, typeErr("%s() got multiple values for argument '%s'", fn, p)
				}
				out[i], set[i] = k.Value, true
				continue kwargs
			}
		}
		return nil, typeErr("%s() got an unexpected keyword argument '%s'", fn, k.Name)
	}
	for i := 0; i < required; i++ {
		if !set[i] {
			return nil, typeErr("%s() missing required argument: '%s'", fn, params[i])
		}
	}
	return out, nil
}

// text is a value as an attribute of the markup: as Jinja2 prints it,
// with None and Undefined as "" (a strict Undefined fails).
func text(c *jinja2.Ctx, v jinja2.Value) (string, error) {
	switch v.Kind() {
	case jinja2.KindNone:
		return "", nil
	case jinja2.KindUndefined:
		if _, err := jinja2.ToStr(c, v); err != nil {
			return "", err
		}
		return "", nil
	}
	return jinja2.ToStr(c, v)
}

// attrs returns the name and tool_call_id attributes of vals, left out
// when empty.
func attrs(c *jinja2.Ctx, keys []string, vals []jinja2.Value) ([]roleparse.Attr, error) {
	var out []roleparse.Attr
	for i, k := range keys {
		s, err := text(c, vals[i])
		if err != nil {
			return nil, err
		}
		if s != "" {
			out = append(out, roleparse.Attr{Key: k, Value: s})
		}
	}
	return out, nil
}

// roleTag returns the opening tag of a message of role.
func roleTag(c *jinja2.Ctx, fn string, role jinja2.Value, rest []jinja2.Value) (string, error) {
	r, err := text(c, role)
	if err != nil {
		return "", err
	}
	r = strings.TrimSpace(r)
	if r == "" {
		return "", &jinja2.Error{Kind: "ValueError", Msg: fn + "(): the role is empty"}
	}
	as, err := attrs(c, []string{"name", "tool_call_id"}, rest)
	if err != nil {
		return "", err
	}
	return string(roleparse.MessageTag(r, as...)), nil
}

// roleFunc is {{ role("user") }}, {{ role("user", name=who) }} and
// {{ role("tool", tool_call_id=id) }} (or positionally, role("tool", "",
// id)): the opening tag of a message that runs until the next one.
func roleFunc(c *jinja2.Ctx, args []jinja2.Value, kw []jinja2.Kwarg) (jinja2.Value, error) {
	a, err := bindArgs("role", roleSig.params, roleSig.required, args, kw)
	if err != nil {
		return jinja2.Value{}, err
	}
	tag, err := roleTag(c, "role", a[0], a[1:])
	if err != nil {
		return jinja2.Value{}, err
	}
	return jinja2.SafeV(tag), nil
}

// historyFunc is {{ history() }}: the marker that engine.Template replaces
// with the render's history.
func historyFunc(c *jinja2.Ctx, args []jinja2.Value, kw []jinja2.Kwarg) (jinja2.Value, error) {
	if _, err := bindArgs("history", historySig.params, historySig.required, args, kw); err != nil {
		return jinja2.Value{}, err
	}
	return jinja2.SafeV(driver.HistoryMarker), nil
}

// mediaFunc is {{ media(url) }} and {{ media(url, mimetype) }}.
func mediaFunc(c *jinja2.Ctx, args []jinja2.Value, kw []jinja2.Kwarg) (jinja2.Value, error) {
	a, err := bindArgs("media", mediaSig.params, mediaSig.required, args, kw)
	if err != nil {
		return jinja2.Value{}, err
	}
	url, err := text(c, a[0])
	if err != nil {
		return jinja2.Value{}, err
	}
	if url == "" {
		return jinja2.Value{}, &jinja2.Error{Kind: "ValueError", Msg: "media(): the URL is empty"}
	}
	mt, err := text(c, a[1])
	if err != nil {
		return jinja2.Value{}, err
	}
	return jinja2.SafeV(string(roleparse.MediaTag(url, mt))), nil
}

// messageBlock is the call behind the block tags: {% message "user"
// name=who %}…{% endmessage %} when role is "", {% user name=who %}…{%
// enduser %} for a fixed role. Its output is the message: the opening
// tag, the body (the caller macro's output, already escaped), the end tag.
func messageBlock(role string) func(c *jinja2.Ctx, args []jinja2.Value, kw []jinja2.Kwarg) (jinja2.Value, error) {
	fn := role
	if role == "" {
		fn = "message"
	}
	params, required := markupSigs[fn].params, markupSigs[fn].required
	var fixed string
	if role != "" {
		fixed = string(roleparse.MessageTag(role))
	}
	return func(c *jinja2.Ctx, args []jinja2.Value, kw []jinja2.Kwarg) (jinja2.Value, error) {
		var caller jinja2.Value
		rest := kw[:0:0]
		for _, k := range kw {
			if k.Name == "caller" {
				caller = k.Value
			} else {
				rest = append(rest, k)
			}
		}
		a, err := bindArgs(fn, params, required, args, rest)
		if err != nil {
			return jinja2.Value{}, err
		}
		tag := fixed
		if role == "" || len(args)+len(rest) > 0 {
			r := jinja2.StrV(role)
			vals := a
			if role == "" {
				r, vals = a[0], a[1:]
			}
			if tag, err = roleTag(c, fn, r, vals); err != nil {
				return jinja2.Value{}, err
			}
		}
		body, err := c.Call(caller, nil, nil)
		if err != nil {
			return jinja2.Value{}, err
		}
		return jinja2.SafeV(tag + body.Str() + string(roleparse.EndTag)), nil
	}
}

var (
	markupType = reflect.TypeOf(roleparse.Markup(""))
	errorType  = reflect.TypeOf((*error)(nil)).Elem()
	valueType  = reflect.TypeOf(jinja2.Value{})
)

// goFunc wraps a Go function given to Funcs as a Jinja2 callable.
func goFunc(name string, f any) (jinja2.Value, error) {
	return callable(name, f, true)
}

// callable wraps a Go function as a Jinja2 callable. Only a trusted one
// (from Funcs) writes markup, when its result type is roleparse.Markup; a
// function in the data returns data, escaped whatever its type.
func callable(name string, f any, trusted bool) (jinja2.Value, error) {
	fv := reflect.ValueOf(f)
	if fv.Kind() != reflect.Func || fv.IsNil() {
		return jinja2.Value{}, fmt.Errorf("Funcs: %q is a %T, not a function", name, f)
	}
	ft := fv.Type()
	switch {
	case ft.NumOut() == 1:
	case ft.NumOut() == 2 && ft.Out(1) == errorType:
	case ft.NumOut() == 0 && !trusted:
		// A function of the data that returns nothing is a Python
		// function that returns None.
	default:
		return jinja2.Value{}, fmt.Errorf("Funcs: %q must return one value, or a value and an error", name)
	}
	markup := trusted && ft.Out(0) == markupType
	call := func(c *jinja2.Ctx, args []jinja2.Value, kw []jinja2.Kwarg) (_ jinja2.Value, err error) {
		defer func() {
			// A panic of the function is an error of the call, which
			// the render places at the call.
			if p := recover(); p != nil {
				pe := driver.CallPanic(name, p)
				err = &jinja2.Error{Kind: "TemplateRuntimeError", Msg: pe.Error(), Err: pe}
			}
		}()
		if len(kw) > 0 {
			return jinja2.Value{}, typeErr("%s() got an unexpected keyword argument '%s'", name, kw[0].Name)
		}
		n := ft.NumIn()
		if ft.IsVariadic() {
			if len(args) < n-1 {
				return jinja2.Value{}, typeErr("%s() takes at least %d arguments (%d given)", name, n-1, len(args))
			}
		} else if len(args) != n {
			return jinja2.Value{}, typeErr("%s() takes %d arguments (%d given)", name, n, len(args))
		}
		in := make([]reflect.Value, len(args))
		for i, a := range args {
			t := ft.In(min(i, n-1))
			if ft.IsVariadic() && i >= n-1 {
				t = t.Elem()
			}
			v, err := goArg(c, a, t)
			if err != nil {
				return jinja2.Value{}, typeErr("%s() argument %d: %v", name, i+1, err)
			}
			in[i] = v
		}
		out := fv.Call(in)
		if len(out) == 0 {
			return jinja2.NoneV(), nil
		}
		if len(out) == 2 && !out[1].IsNil() {
			err := out[1].Interface().(error)
			return jinja2.Value{}, &jinja2.Error{Kind: "TemplateRuntimeError", Msg: name + "(): " + err.Error(), Err: err}
		}
		if markup {
			return jinja2.SafeV(out[0].String()), nil
		}
		v, err := toValue(out[0].Interface())
		if err != nil {
			return jinja2.Value{}, &jinja2.Error{Kind: "TemplateRuntimeError", Msg: name + "(): " + err.Error(), Err: err}
		}
		return v, nil
	}
	fn := &jinja2.Func{Name: name, Call: call}
	if !trusted {
		// Printed without a call, a function of the data shows no
		// address, which would change from one render to the next.
		fn.Repr = "<function>"
	}
	return jinja2.FuncV(fn), nil
}

// goArg converts a template value to an argument of type t.
func goArg(c *jinja2.Ctx, v jinja2.Value, t reflect.Type) (reflect.Value, error) {
	if t == valueType {
		return reflect.ValueOf(v), nil
	}
	switch t.Kind() {
	case reflect.String:
		s, err := text(c, v)
		if err != nil {
			return reflect.Value{}, err
		}
		return reflect.ValueOf(s).Convert(t), nil
	case reflect.Bool:
		return reflect.ValueOf(v.Truth()).Convert(t), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := v.Int64()
		if !ok {
			return reflect.Value{}, fmt.Errorf("want an integer, not %s", jinja2.TypeName(v))
		}
		r := reflect.New(t).Elem()
		if r.OverflowInt(n) {
			return reflect.Value{}, errors.New(strconv.FormatInt(n, 10) + " does not fit")
		}
		r.SetInt(n)
		return r, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := v.Int64()
		if !ok || n < 0 {
			return reflect.Value{}, fmt.Errorf("want a non-negative integer, not %s", jinja2.Repr(v))
		}
		r := reflect.New(t).Elem()
		if r.OverflowUint(uint64(n)) {
			return reflect.Value{}, errors.New(strconv.FormatInt(n, 10) + " does not fit")
		}
		r.SetUint(uint64(n))
		return r, nil
	case reflect.Float32, reflect.Float64:
		switch v.Kind() {
		case jinja2.KindFloat:
			return reflect.ValueOf(v.Float()).Convert(t), nil
		case jinja2.KindInt, jinja2.KindBool:
			if n, ok := v.Int64(); ok {
				return reflect.ValueOf(float64(n)).Convert(t), nil
			}
		}
		return reflect.Value{}, fmt.Errorf("want a number, not %s", jinja2.TypeName(v))
	}
	g := toGo(v)
	if g == nil {
		return reflect.Zero(t), nil
	}
	gv := reflect.ValueOf(g)
	if gv.Type().AssignableTo(t) {
		r := reflect.New(t).Elem()
		r.Set(gv)
		return r, nil
	}
	if gv.Type().ConvertibleTo(t) {
		return gv.Convert(t), nil
	}
	return reflect.Value{}, fmt.Errorf("cannot use %s as %s", jinja2.TypeName(v), t)
}

// toGo converts a template value to Go: nil, bool, int64 (or the text of
// a larger int), float64, string, []any, map[string]any (keys as Python
// prints them), or the Value itself for anything else.
func toGo(v jinja2.Value) any {
	switch v.Kind() {
	case jinja2.KindUndefined, jinja2.KindNone:
		return nil
	case jinja2.KindBool:
		return v.Truth()
	case jinja2.KindInt:
		if n, ok := v.Int64(); ok {
			return n
		}
		return jinja2.Repr(v)
	case jinja2.KindFloat:
		return v.Float()
	case jinja2.KindStr:
		return v.Str()
	case jinja2.KindList, jinja2.KindTuple:
		items := v.Items()
		out := make([]any, len(items))
		for i, it := range items {
			out[i] = toGo(it)
		}
		return out
	case jinja2.KindDict:
		d := v.DictOf()
		out := make(map[string]any, d.Len())
		for i, k := range d.Keys() {
			ks := k.Str()
			if k.Kind() != jinja2.KindStr {
				ks = jinja2.Repr(k)
			}
			out[ks] = toGo(d.Values()[i])
		}
		return out
	}
	return v
}
