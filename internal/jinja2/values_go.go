package jinja2

import (
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/rolemark/rolemark/internal/pyjson"
)

// FromGo converts a Go value (nil, bool, ints, floats, string, []any, maps
// with string keys, slices and structs through reflection, Value itself)
// to a Value. A map's keys are sorted (Go maps have no order); a struct is
// an object whose attributes are its exported fields, by name and by json
// tag; a json.Number is an int or a float as Python's json reads it; a
// pyjson.Value keeps its order; a json.RawMessage is the value its JSON
// text holds, read as Python's json.loads reads it (an object's key order
// kept, an integer of any size an int), or its text, a str, when it is not
// JSON. Maps, lists and pointers nested deeper than maxGoDepth are None
// (a Go value may hold itself); FromGoDepth reports them instead.
func FromGo(x any) Value {
	c := goConv{max: maxGoDepth}
	return c.from(x, 0)
}

// FromGoDepth converts x as FromGo does, if its maps, slices, arrays and
// pointers nest at most max deep; ok is false when they nest deeper (a
// value that holds itself, most likely).
func FromGoDepth(x any, max int) (v Value, ok bool) {
	return FromGoWith(x, max, nil)
}

// GoFunc converts a Go function (not nil) met below the top of a value
// FromGoWith converts, named by the key or field it is under.
type GoFunc func(name string, f any) Value

// FromGoWith converts x as FromGoDepth does, and each function (not nil)
// in a caller's own map or list type, in a []any or map[string]any inside
// one, or in a struct's field a template reads, with fn: FromGo makes
// such a function None.
func FromGoWith(x any, max int, fn GoFunc) (v Value, ok bool) {
	c := goConv{max: max, fn: fn}
	v = c.from(x, 0)
	if c.deep {
		return Value{}, false
	}
	return v, true
}

// FromGoNamed converts x as FromGoWith does, naming x itself name for
// fn (a function at the top, or in a list there, is named by it).
func FromGoNamed(x any, name string, max int, fn GoFunc) (v Value, ok bool) {
	c := goConv{max: max, fn: fn, name: name}
	v = c.from(x, 0)
	if c.deep {
		return Value{}, false
	}
	return v, true
}

// goConv is one conversion of a Go value: deep is set, and a value is
// None, where maps, slices, arrays and pointers nest deeper than max.
// fn, when set, converts a function, named by name: the key or field the
// conversion is under.
type goConv struct {
	max  int
	deep bool
	fn   GoFunc
	name string
}

// tooDeep reports whether a map, slice, array or pointer at depth is past
// the limit, and notes it.
func (c *goConv) tooDeep(depth int) bool {
	if depth >= c.max {
		c.deep = true
		return true
	}
	return false
}

func (c *goConv) from(x any, depth int) Value {
	switch x := x.(type) {
	case nil:
		return NoneV()
	case Value:
		return x
	case *Value:
		if x == nil {
			return NoneV()
		}
		return *x
	case bool:
		return BoolV(x)
	case int:
		return IntV(int64(x))
	case int64:
		return IntV(x)
	case int32:
		return IntV(int64(x))
	case float64:
		return FloatV(x)
	case string:
		return strVScan(x)
	case []any:
		if c.tooDeep(depth) {
			return NoneV()
		}
		items := make([]Value, len(x))
		name := c.name
		for i, it := range x {
			if c.fn != nil {
				c.name = name // the list's, not an earlier item's key
			}
			items[i] = c.from(it, depth+1)
		}
		return ListV(items)
	case []string:
		items := make([]Value, len(x))
		for i, it := range x {
			items[i] = strVScan(it)
		}
		return ListV(items)
	case []Value:
		return ListV(x)
	case map[string]any:
		if c.tooDeep(depth) {
			return NoneV()
		}
		d := NewDict(len(x))
		for _, k := range sortedKeys(x) {
			if c.fn != nil {
				c.name = k
			}
			d.keys = append(d.keys, StrV(k))
			d.vals = append(d.vals, c.from(x[k], depth+1))
		}
		return DictV(d)
	case map[string]Value:
		d := NewDict(len(x))
		for _, k := range sortedKeys(x) {
			d.keys = append(d.keys, StrV(k))
			d.vals = append(d.vals, x[k])
		}
		return DictV(d)
	case map[string]string:
		d := NewDict(len(x))
		for _, k := range sortedKeys(x) {
			d.keys = append(d.keys, StrV(k))
			d.vals = append(d.vals, strVScan(x[k]))
		}
		return DictV(d)
	case *big.Int:
		if x == nil {
			return NoneV()
		}
		return BigIntV(new(big.Int).Set(x))
	case json.Number:
		return numberFromText(string(x))
	case json.RawMessage:
		return fromRawJSON(x)
	case pyjson.Value:
		return fromPyJSON(&x)
	case *pyjson.Value:
		if x == nil {
			return NoneV()
		}
		return fromPyJSON(x)
	case *Dict:
		if x == nil {
			return NoneV()
		}
		return DictV(x)
	case *Func:
		if x == nil {
			return NoneV()
		}
		return FuncV(x)
	case Object:
		return ObjectV(x)
	}
	return c.reflect(reflect.ValueOf(x), depth)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// numberFromText reads a JSON number as Python's json.loads does.
func numberFromText(s string) Value {
	if !strings.ContainsAny(s, ".eE") {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return IntV(n)
		}
		if b, ok := new(big.Int).SetString(s, 10); ok {
			return BigIntV(b)
		}
	}
	f, _ := strconv.ParseFloat(s, 64)
	return FloatV(f)
}

// fromRawJSON converts JSON text as json.loads reads it, or the text
// itself when it is not JSON (nil: None).
func fromRawJSON(raw json.RawMessage) Value {
	if raw == nil {
		return NoneV()
	}
	pv, err := pyjson.Parse(raw)
	if err != nil {
		return strVScan(string(raw))
	}
	return fromPyJSON(&pv)
}

// fromPyJSON converts a value json.loads gave.
func fromPyJSON(v *pyjson.Value) Value {
	switch v.Kind {
	case pyjson.Null:
		return NoneV()
	case pyjson.Bool:
		return BoolV(v.Bool)
	case pyjson.Int:
		return numberFromText(v.Int)
	case pyjson.Float:
		return FloatV(v.Float)
	case pyjson.String:
		return strVScan(v.Str)
	case pyjson.Array:
		items := make([]Value, len(v.Items))
		for i := range v.Items {
			items[i] = fromPyJSON(&v.Items[i])
		}
		return ListV(items)
	case pyjson.Object:
		d := NewDict(len(v.Keys))
		for i, k := range v.Keys {
			d.Set(StrV(k), fromPyJSON(&v.Items[i]))
		}
		return DictV(d)
	}
	return NoneV()
}

// maxGoDepth bounds the nesting FromGo follows (a Go value may point to
// itself): Python's Jinja2 goes no deeper either, its recursion limit is
// 1000.
const maxGoDepth = 1000

// reflect converts rv, at depth: a map, slice, array or pointer (but to a
// struct, which is an object read when the template reads it) is one step
// deeper.
func (c *goConv) reflect(rv reflect.Value, depth int) Value {
	if !rv.IsValid() {
		return NoneV()
	}
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return NoneV()
		}
		if rv.Kind() == reflect.Pointer {
			if rv.Elem().Kind() == reflect.Struct {
				return ObjectV(&goStruct{rv: rv.Elem(), fn: c.fn})
			}
			if c.tooDeep(depth) {
				return NoneV()
			}
			return c.reflect(rv.Elem(), depth+1)
		}
		if rv.CanInterface() {
			if _, ok := rv.Interface().(reflect.Value); !ok {
				return c.goDepth(rv.Interface(), depth)
			}
		}
		return c.reflect(rv.Elem(), depth)
	case reflect.Bool:
		return BoolV(rv.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return IntV(rv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		if u > 1<<63-1 {
			return BigIntV(new(big.Int).SetUint64(u))
		}
		return IntV(int64(u))
	case reflect.Float32, reflect.Float64:
		return FloatV(rv.Float())
	case reflect.String:
		return strVScan(rv.String())
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return NoneV()
		}
		if rv.Type() == reflect.TypeFor[json.RawMessage]() {
			return fromRawJSON(json.RawMessage(rv.Bytes()))
		}
		if c.tooDeep(depth) {
			return NoneV()
		}
		items := make([]Value, rv.Len())
		name := c.name
		for i := range items {
			if c.fn != nil {
				c.name = name // the list's, not an earlier item's key
			}
			items[i] = c.reflect(rv.Index(i), depth+1)
		}
		return ListV(items)
	case reflect.Map:
		if rv.IsNil() || c.tooDeep(depth) {
			return NoneV()
		}
		type kv struct {
			k Value
			s string
			v reflect.Value
		}
		entries := make([]kv, 0, rv.Len())
		it := rv.MapRange()
		for it.Next() {
			k := c.reflect(it.Key(), depth+1)
			entries = append(entries, kv{k: k, s: goKeyText(k, it.Key()), v: it.Value()})
		}
		sort.Slice(entries, func(i, j int) bool {
			if r, ok, err := order(entries[i].k, entries[j].k, "<"); err == nil && ok {
				return r < 0
			}
			return entries[i].s < entries[j].s
		})
		d := NewDict(len(entries))
		for _, e := range entries {
			if c.fn != nil && e.k.kind == KindStr {
				c.name = e.k.s
			}
			d.Set(e.k, c.reflect(e.v, depth+1))
		}
		return DictV(d)
	case reflect.Struct:
		return ObjectV(&goStruct{rv: rv, fn: c.fn})
	case reflect.Func:
		if c.fn != nil && !rv.IsNil() && rv.CanInterface() {
			return c.fn(c.name, rv.Interface())
		}
	}
	return NoneV()
}

// goDepth converts x, held by an interface or a pointer at depth.
func (c *goConv) goDepth(x any, depth int) Value {
	switch x.(type) {
	case Value, *Value, bool, int, int64, int32, float64, string, *big.Int, json.Number,
		json.RawMessage, pyjson.Value, *pyjson.Value, *Dict, *Func, Object:
		return c.from(x, depth)
	}
	return c.reflect(reflect.ValueOf(x), depth)
}

// goKeyText is the text a Go map's key k (rk, converted) sorts by when
// order cannot compare it: its repr, but for a struct (or a pointer to
// one) its Go value printed, then the pointer. Its repr holds the address
// of the object made for it at each conversion: the keys would come in
// the map's random order, another at each conversion of the same map.
func goKeyText(k Value, rk reflect.Value) string {
	if _, ok := k.ref.(*goStruct); !ok || k.kind != KindObject || !rk.CanInterface() {
		return Repr(k)
	}
	s := fmt.Sprintf("%v", rk.Interface())
	if rk.Kind() == reflect.Pointer {
		s += fmt.Sprintf(" %p", rk.Interface())
	}
	return s
}

// goStruct is a Go struct seen from a template: its exported fields are
// attributes, by Go name and by json tag; fn converts a function in them.
type goStruct struct {
	rv reflect.Value
	fn GoFunc
}

func (g *goStruct) TypeName() string {
	if n := g.rv.Type().Name(); n != "" {
		return n
	}
	return "struct"
}

func (g *goStruct) Attr(name string) (Value, bool) {
	t := g.rv.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "-" {
			continue
		}
		if f.Name == name || tag == name {
			c := goConv{max: maxGoDepth, fn: g.fn, name: name}
			return c.reflect(g.rv.Field(i), 0), true
		}
	}
	return Value{}, false
}

func (g *goStruct) Item(key Value) (Value, bool) {
	if key.kind != KindStr {
		return Value{}, false
	}
	return g.Attr(key.s)
}
