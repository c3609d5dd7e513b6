package jinja2

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"unicode/utf8"
)

// The operations the runtime performs on values, with Python's semantics.
// Owned by the values side; the runtime calls them and nothing else of a
// value's internals. Every error is an *Error (Kind as Python's exception,
// no position: the runtime adds the place).

// Truth is Python's bool(v) (Undefined is false).
func (v Value) Truth() bool {
	switch v.kind {
	case KindUndefined, KindNone:
		return false
	case KindBool:
		return v.n != 0
	case KindInt:
		return v.n != 0 || v.ref != nil
	case KindFloat:
		return v.f() != 0
	case KindStr:
		return v.s != ""
	case KindList, KindTuple:
		return len(v.list().Items) > 0
	case KindDict:
		return len(v.dict().keys) > 0
	case KindObject:
		if t, ok := v.ref.(interface{ Truth() bool }); ok {
			return t.Truth()
		}
		if l, ok := v.ref.(Lengther); ok {
			return l.Len() > 0
		}
	}
	return true
}

// BinOp applies a binary operator: + - * / // % ** and ~ (which joins the
// str of both).
func BinOp(c *Ctx, op string, a, b Value) (Value, error) {
	if op == "~" {
		return concat(c, a, b)
	}
	if a.kind == KindUndefined {
		return Value{}, a.undefErr()
	}
	if _, ok := setView(a); ok && op == "-" {
		// keys and items views are sets: a - b is a set
		return setDifference(c, a, b)
	}
	if _, ok := setView(b); ok && op == "-" {
		return setDifference(c, a, b)
	}
	if op == "*" && (a.IsSafe() || b.IsSafe()) {
		// Markup.__mul__ and __rmul__ call str.__mul__ themselves, so
		// the count is read as an index, whatever it is (an Undefined
		// on the left raised above)
		m, n := a, b
		if !a.IsSafe() {
			m, n = b, a
		}
		if !isIntLike(n) {
			return Value{}, typeErr("'%s' object cannot be interpreted as an integer", TypeName(n))
		}
		return repeat(c, m, n)
	}
	if b.kind == KindUndefined && !(op == "%" && (a.kind == KindStr || isBytes(a))) {
		// str % Undefined is str.__mod__'s (bytes % too); otherwise
		// Undefined's reflected operator raises
		return Value{}, b.undefErr()
	}
	if isNum(a) && isNum(b) {
		return numArith(c, op, a, b)
	}
	if a.kind == KindObject || b.kind == KindObject {
		if r, ok, err := complexArith(op, a, b); ok {
			return r, err
		}
	}
	if r, ok, err := bytesArith(c, op, a, b); ok {
		return r, err
	}
	switch op {
	case "+":
		switch {
		case a.kind == KindStr && b.kind == KindStr:
			if (a.flags|b.flags)&flagSafe != 0 {
				esc := escapeFn(c)
				x, y := a.s, b.s
				if a.flags&flagSafe == 0 {
					x = esc(x)
				}
				if b.flags&flagSafe == 0 {
					y = esc(y)
				}
				return catStr(c, x, y, flagSafe)
			}
			return catStr(c, a.s, b.s, 0)
		case a.kind == KindStr && a.flags&flagSafe == 0:
			return Value{}, typeErr("can only concatenate str (not \"%s\") to str", TypeName(b))
		case (a.kind == KindList || a.kind == KindTuple) && a.kind == b.kind:
			x, y := a.list().Items, b.list().Items
			if err := grow(c, len(x)+len(y)); err != nil {
				return Value{}, err
			}
			items := make([]Value, 0, len(x)+len(y))
			items = append(append(items, x...), y...)
			return Value{kind: a.kind, ref: &List{Items: items}}, nil
		case a.kind == KindList || a.kind == KindTuple:
			return Value{}, typeErr("can only concatenate %s (not \"%s\") to %s", TypeName(a), TypeName(b), TypeName(a))
		}
	case "*":
		switch {
		case isIntLike(b) && (a.kind == KindStr || a.kind == KindList || a.kind == KindTuple):
			return repeat(c, a, b)
		case isIntLike(a) && (b.kind == KindStr || b.kind == KindList || b.kind == KindTuple):
			return repeat(c, b, a)
		case a.kind == KindStr || a.kind == KindList || a.kind == KindTuple:
			return Value{}, typeErr("can't multiply sequence by non-int of type '%s'", TypeName(b))
		case b.kind == KindStr || b.kind == KindList || b.kind == KindTuple:
			return Value{}, typeErr("can't multiply sequence by non-int of type '%s'", TypeName(a))
		}
	case "%":
		if a.kind == KindStr {
			return percentFormat(c, a, b)
		}
	}
	if op == "**" {
		return Value{}, typeErr("unsupported operand type(s) for ** or pow(): '%s' and '%s'", TypeName(a), TypeName(b))
	}
	return Value{}, typeErr("unsupported operand type(s) for %s: '%s' and '%s'", op, TypeName(a), TypeName(b))
}

func catStr(c *Ctx, x, y string, flags uint8) (Value, error) {
	if len(x)+len(y) > 64 {
		if err := grow(c, len(x)+len(y)); err != nil {
			return Value{}, err
		}
	}
	return Value{kind: KindStr, s: x + y, flags: flags}, nil
}

// concat is Jinja2's ~: str of both joined; where the code is compiled
// to autoescape, when either is Markup, the other is escaped and the
// result is Markup (markup_join). Code compiled under an autoescape tag
// whose value is known only at render time joins strs (Jinja2 tests the
// eval context's volatile flag there, which is false at render time).
func concat(c *Ctx, a, b Value) (Value, error) {
	if c != nil && c.autoescape && !c.escVolatile && (a.IsSafe() || b.IsSafe()) {
		x, err := escapeValue(c, a)
		if err != nil {
			return Value{}, err
		}
		y, err := escapeValue(c, b)
		if err != nil {
			return Value{}, err
		}
		return catStr(c, x, y, flagSafe)
	}
	x, err := ToStr(c, a)
	if err != nil {
		return Value{}, err
	}
	y, err := ToStr(c, b)
	if err != nil {
		return Value{}, err
	}
	return catStr(c, x, y, 0)
}

// escapeValue is markupsafe.escape(v) as text: Markup as it is, anything
// else its str escaped.
func escapeValue(c *Ctx, v Value) (string, error) {
	if v.IsSafe() {
		return v.s, nil
	}
	if hasHTML(v) {
		m := v.ref.(*moduleObj)
		return m.body, nil // TemplateModule.__html__
	}
	if err := classHTMLErr(v); err != nil {
		return "", err
	}
	s, err := ToStr(c, v)
	if err != nil {
		return "", err
	}
	return escapeFn(c)(s), nil
}

// repeat is seq * n.
func repeat(c *Ctx, seq, n Value) (Value, error) {
	if n.ref != nil {
		return Value{}, pyErr("OverflowError", "cannot fit 'int' into an index-sized integer")
	}
	k := n.n
	if k <= 0 {
		return emptyLike(seq), nil
	}
	if seq.kind == KindStr {
		if len(seq.s) == 0 {
			return seq, nil
		}
		if k > math.MaxInt64/int64(len(seq.s)) {
			return Value{}, pyErr("OverflowError", "repeated string is too long")
		}
		if k > maxAlloc/int64(len(seq.s)) {
			if err := grow(c, maxAlloc); err != nil {
				return Value{}, err
			}
			return Value{}, pyErr("MemoryError", "")
		}
		if err := grow(c, len(seq.s)*int(k)); err != nil {
			return Value{}, err
		}
		return Value{kind: KindStr, s: strings.Repeat(seq.s, int(k)), flags: seq.flags}, nil
	}
	items := seq.list().Items
	if len(items) == 0 {
		return emptyLike(seq), nil
	}
	if k > maxAlloc/int64(len(items)) {
		if err := grow(c, maxAlloc); err != nil {
			return Value{}, err
		}
		return Value{}, pyErr("MemoryError", "")
	}
	if err := grow(c, len(items)*int(k)); err != nil {
		return Value{}, err
	}
	out := make([]Value, 0, len(items)*int(k))
	for i := int64(0); i < k; i++ {
		out = append(out, items...)
	}
	return Value{kind: seq.kind, ref: &List{Items: out}}, nil
}

func emptyLike(seq Value) Value {
	switch seq.kind {
	case KindStr:
		return Value{kind: KindStr, flags: seq.flags}
	case KindTuple:
		return TupleV(nil)
	}
	return ListV(nil)
}

// UnaryOp applies - or + to a.
func UnaryOp(c *Ctx, op string, a Value) (Value, error) {
	if a.kind == KindUndefined {
		return Value{}, a.undefErr()
	}
	if isNum(a) {
		if op == "-" {
			return numNeg(a), nil
		}
		if a.kind == KindBool {
			return IntV(a.n), nil
		}
		return a, nil
	}
	if z, ok := a.ref.(*complexObj); ok && a.kind == KindObject {
		if op == "-" {
			return complexV(-z.re, -z.im), nil
		}
		return complexV(z.re, z.im), nil
	}
	return Value{}, typeErr("bad operand type for unary %s: '%s'", op, TypeName(a))
}

// Compare applies == != < <= > >= in and "not in".
func Compare(c *Ctx, op string, a, b Value) (bool, error) {
	switch op {
	case "==":
		return equalErr(a, b)
	case "!=":
		eq, err := equalErr(a, b)
		return !eq, err
	case "in":
		return Contains(c, b, a)
	case "not in":
		r, err := Contains(c, b, a)
		return !r, err
	}
	if a.kind == KindUndefined {
		return false, a.undefErr()
	}
	if b.kind == KindUndefined {
		return false, b.undefErr()
	}
	if x, ok := setView(a); ok {
		if y, ok := setView(b); ok {
			return viewOrder(x, y, op)
		}
	}
	r, ok, err := order(a, b, op)
	if err != nil {
		return false, err
	}
	if !ok {
		return false, nil
	}
	switch op {
	case "<":
		return r < 0, nil
	case "<=":
		return r <= 0, nil
	case ">":
		return r > 0, nil
	case ">=":
		return r >= 0, nil
	}
	return false, pyErr("TemplateRuntimeError", "unknown comparison %s", op)
}

// order compares a and b for <, <=, >, >=: -1, 0 or 1; ok is false when a
// NaN makes every ordering false.
func order(a, b Value, op string) (int, bool, error) {
	switch {
	case isNum(a) && isNum(b):
		r, ok := numCmp(a, b)
		return r, ok, nil
	case a.kind == KindStr && b.kind == KindStr:
		return strings.Compare(a.s, b.s), true, nil
	case a.kind == KindObject && b.kind == KindObject:
		x, ok1 := a.ref.(*bytesObj)
		y, ok2 := b.ref.(*bytesObj)
		if ok1 && ok2 {
			return strings.Compare(x.b, y.b), true, nil
		}
	case (a.kind == KindList || a.kind == KindTuple) && a.kind == b.kind:
		x, y := a.list().Items, b.list().Items
		for i := 0; i < len(x) && i < len(y); i++ {
			if eq, err := equalErr(x[i], y[i]); err != nil {
				return 0, false, err
			} else if eq {
				continue
			}
			if x[i].kind == KindUndefined {
				return 0, false, x[i].undefErr()
			}
			if y[i].kind == KindUndefined {
				return 0, false, y[i].undefErr()
			}
			return order(x[i], y[i], op)
		}
		switch {
		case len(x) < len(y):
			return -1, true, nil
		case len(x) > len(y):
			return 1, true, nil
		}
		return 0, true, nil
	}
	return 0, false, typeErr("'%s' not supported between instances of '%s' and '%s'", op, TypeName(a), TypeName(b))
}

// Equal is Python's a == b. Lists and dicts nested deeper than Python's
// recursion limit (or holding themselves) compare unequal here, where
// Python raises RecursionError: equalErr says so.
func Equal(a, b Value) bool {
	eq, _ := equal(a, b, 0)
	return eq
}

// maxCompareDepth is how deep == goes into lists and dicts before Python's
// RecursionError (its recursion limit).
const maxCompareDepth = defaultMaxDepth

// equalErr is Equal, with Python's RecursionError for lists or dicts
// nested too deep to compare: two that hold themselves, such as a and b
// after a.append(a) and b.append(b).
func equalErr(a, b Value) (bool, error) {
	eq, deep := equal(a, b, 0)
	if deep {
		return false, pyErr("RecursionError", "maximum recursion depth exceeded in comparison")
	}
	return eq, nil
}

// equal is a == b at depth lists and dicts down; deep reports that it
// went deeper than maxCompareDepth (eq is then false).
func equal(a, b Value, depth int) (eq, deep bool) {
	if isNum(a) && isNum(b) {
		r, ok := numCmp(a, b)
		return ok && r == 0, false
	}
	if a.kind != b.kind {
		if z, ok := b.ref.(*complexObj); ok && b.kind == KindObject {
			return z.Equal(a), false
		}
		if z, ok := a.ref.(*complexObj); ok && a.kind == KindObject {
			return z.Equal(b), false
		}
		return false, false
	}
	switch a.kind {
	case KindUndefined, KindNone:
		return true, false
	case KindStr:
		return a.s == b.s, false
	case KindList, KindTuple:
		x, y := a.list(), b.list()
		if x == y {
			return true, false
		}
		if len(x.Items) != len(y.Items) {
			return false, false
		}
		if depth >= maxCompareDepth {
			return false, true
		}
		for i := range x.Items {
			if eq, deep := equal(x.Items[i], y.Items[i], depth+1); !eq {
				return false, deep
			}
		}
		return true, false
	case KindDict:
		x, y := a.dict(), b.dict()
		if x == y {
			return true, false
		}
		if len(x.keys) != len(y.keys) {
			return false, false
		}
		if depth >= maxCompareDepth {
			return false, true
		}
		for i, k := range x.keys {
			v, ok := y.Get(k)
			if !ok {
				return false, false
			}
			if eq, deep := equal(x.vals[i], v, depth+1); !eq {
				return false, deep
			}
		}
		return true, false
	case KindFunc:
		return a.ref == b.ref, false
	case KindObject:
		if e, ok := a.ref.(interface{ Equal(Value) bool }); ok {
			return e.Equal(b), false
		}
		return a.ref == b.ref, false
	}
	return false, false
}

// Contains is Python's item in container.
func Contains(c *Ctx, container, item Value) (bool, error) {
	switch container.kind {
	case KindStr:
		if item.kind != KindStr {
			return false, typeErr("'in <string>' requires string as left operand, not %s", TypeName(item))
		}
		return strings.Contains(container.s, item.s), nil
	case KindList, KindTuple:
		for _, it := range container.list().Items {
			if eq, err := equalErr(it, item); eq || err != nil {
				return eq, err
			}
		}
		return false, nil
	case KindDict:
		i, err := container.dict().find(item)
		return i >= 0, err
	case KindUndefined:
		// in iterates Undefined, which yields nothing (also the
		// sandbox's unsafe Undefined)
		return false, nil
	case KindObject:
		if _, class := container.ref.(*pyClass); class {
			break // a class subscripts, but does not contain
		}
		if b, ok := container.ref.(*bytesObj); ok {
			return b.contains(item)
		}
		if v, ok := container.ref.(*dictView); ok {
			return v.contains(item)
		}
		if s, ok := container.ref.(*pySet); ok {
			return s.contains(item)
		}
		if r, ok := container.ref.(*lazyRange); ok {
			return r.contains(item)
		}
		if r, ok := container.ref.(*rangeObj); ok {
			// membership, not an index: True in range(5, 1, -2) is False
			for _, it := range r.items {
				if Equal(it, item) {
					return true, nil
				}
			}
			return false, nil
		}
		if ix, ok := container.ref.(Indexable); ok {
			if _, found := ix.Item(item); found {
				return true, nil
			}
		}
		step, ok := stepper(container)
		if g, isGen := container.ref.(*generator); isGen {
			step, ok = g.next, true
		}
		if ok {
			// an iterator stops at the item it finds
			for {
				it, ok, err := step()
				if err != nil || !ok {
					return false, err
				}
				if Equal(it, item) {
					return true, nil
				}
			}
		}
		if _, ok := container.ref.(Iterable); ok {
			items, err := Iterate(c, container)
			if err != nil {
				return false, err
			}
			for _, it := range items {
				if Equal(it, item) {
					return true, nil
				}
			}
			return false, nil
		}
	}
	return false, typeErr("argument of type '%s' is not iterable", TypeName(container))
}

// undefinedDunders are the dunder attributes of a jinja2.Undefined
// (dir(Undefined()) in Jinja2 3.1).
var undefinedDunders = map[string]bool{
	"__add__": true, "__aiter__": true, "__bool__": true, "__call__": true, "__class__": true,
	"__complex__": true, "__delattr__": true, "__dir__": true, "__div__": true, "__doc__": true,
	"__eq__": true, "__float__": true, "__floordiv__": true, "__format__": true, "__ge__": true,
	"__getattr__": true, "__getattribute__": true, "__getitem__": true, "__getstate__": true,
	"__gt__": true, "__hash__": true, "__init__": true, "__init_subclass__": true, "__int__": true,
	"__iter__": true, "__le__": true, "__len__": true, "__lt__": true, "__mod__": true,
	"__module__": true, "__mul__": true, "__ne__": true, "__neg__": true, "__new__": true,
	"__pos__": true, "__pow__": true, "__radd__": true, "__rdiv__": true, "__reduce__": true,
	"__reduce_ex__": true, "__repr__": true, "__rfloordiv__": true, "__rmod__": true,
	"__rmul__": true, "__rpow__": true, "__rsub__": true, "__rtruediv__": true, "__setattr__": true,
	"__sizeof__": true, "__slots__": true, "__str__": true, "__sub__": true, "__subclasshook__": true,
	"__truediv__": true,
}

// GetAttr is Jinja2's environment.getattr (v.name): the attribute (a
// method of str, list, dict bound to v), else the item; Undefined when
// there is neither; under the sandbox, an unsafe attribute gives an
// Undefined that raises SecurityError when used.
//
// For a dict, x.name is the item name unless name is a dict method or
// private (dictAttrIsItem): the compiled x.name reads the item directly
// then, so a change to these rules must change dictAttrIsItem too.
func GetAttr(c *Ctx, v Value, name string) (Value, error) {
	if v.kind == KindUndefined {
		if sandboxed(c) && undefinedDunders[name] {
			// Undefined's own dunder methods exist, and the sandbox
			// refuses them; another dunder is looked up as an item,
			// which the Undefined refuses
			return unsafeUndef("access to attribute " + reprStr(name) + " of 'Undefined' object is unsafe."), nil
		}
		if name == "__class__" && !sandboxed(c) {
			return ObjectV(classUndefined), nil
		}
		if undefinedDunders[name] && !sandboxed(c) {
			// Undefined's own methods (nothere.__len__() is 0)
			if r, ok := undefinedDunder(v, name); ok {
				return r, nil
			}
			return Value{}, &Error{Kind: "Unsupported", Msg: "the attribute " + name + " of 'Undefined' objects is not supported"}
		}
		return Value{}, v.undefErr()
	}
	if sandboxed(c) {
		if u, unsafe := unsafeAttr(v, name); unsafe {
			return u, nil
		}
	}
	if l, ok := v.ref.(*loopObj); ok && v.kind == KindObject {
		// the look ahead of a filtered loop tests items, which may raise
		if err := l.lookAhead(name); err != nil {
			return Value{}, err
		}
	}
	if r, ok, err := pyGetattr(c, v, name); ok || err != nil {
		return r, err
	}
	if r, ok, err := item(v, StrV(name)); ok || err != nil {
		return r, err
	}
	return undefAttr(v, name), nil
}

// pyGetattr is Python's getattr(v, name) as Jinja2's getattr and getitem
// read it: the attributes templates use, and outside the sandbox a dunder
// method v has (an error naming one the package lacks) and a private
// attribute the package refuses by name; false when v has no such
// attribute.
func pyGetattr(c *Ctx, v Value, name string) (Value, bool, error) {
	if w, ok := v.ref.(*dictView); ok && v.kind == KindObject && name == "mapping" {
		// a mappingproxy of the dict: the dict, read-only (values_proxy.go)
		return Value{kind: KindDict, ref: w.d, flags: flagProxy}, true, nil
	}
	if cy, ok := v.ref.(*cycler); ok && v.kind == KindObject && cy.dict != nil && name == "current" {
		// the property reads the __dict__ the template may have changed
		r, err := cy.dictCurrent()
		return r, err == nil, err
	}
	if r, ok := attribute(c, v, name); ok {
		return r, true, nil
	}
	if sandboxed(c) {
		return Value{}, false, nil
	}
	if isDunder(name) && pyHasDunder(v, name) {
		if r, ok := dunderMethod(v, name); ok {
			return r, true, nil
		}
		if name == "__module__" {
			if r, ok := moduleAttr(v); ok {
				return r, true, nil
			}
		}
		return Value{}, false, &Error{Kind: "Unsupported", Msg: "the attribute " + name + " of " + pyQuote(TypeName(v)) + " objects is not supported"}
	}
	return Value{}, false, privateUnsupported(v, name)
}

// dictAttrIsItem reports whether GetAttr of a dict's attribute name, with
// or without the sandbox, gives the item name when the dict has one: when
// name is neither a dict method nor private.
func dictAttrIsItem(name string) bool {
	return dictMethod(name) == nil && !strings.HasPrefix(name, "_")
}

// unsafeAttr is the sandbox's check of v.name: private attributes, and
// the methods that mutate a list or dict (ImmutableSandboxedEnvironment).
func unsafeAttr(v Value, name string) (Value, bool) {
	// Jinja2's sandbox refuses a private attribute the value has; one it
	// lacks is looked up as an item, an Undefined when there is none.
	unsafe := false
	if strings.HasPrefix(name, "_") {
		if isDunder(name) {
			unsafe = pyHasDunder(v, name)
		} else {
			unsafe = pyHasPrivate(v, name)
		}
	}
	if !unsafe {
		switch v.kind {
		case KindList:
			switch name {
			case "append", "clear", "pop", "reverse", "insert", "sort", "extend", "remove":
				unsafe = true
			}
		case KindDict:
			switch name {
			case "clear", "pop", "popitem", "setdefault", "update":
				// a mappingproxy has none of them: its item, or Undefined
				unsafe = v.flags&flagProxy == 0
			}
		case KindObject:
			// a class's mro is internal (sandbox.is_internal_attribute)
			_, class := v.ref.(*pyClass)
			_, set := v.ref.(*pySet)
			unsafe = class && name == "mro" || set && containsWord(setMutators, name)
		}
	}
	if !unsafe {
		return Value{}, false
	}
	return unsafeUndef("access to attribute " + reprStr(name) + " of " + reprStr(TypeName(v)) + " object is unsafe."), true
}

// attribute is Python's getattr(v, name) for the attributes templates
// use: the methods of str, list, dict, int and float, and an Object's.
func attribute(c *Ctx, v Value, name string) (Value, bool) {
	if name == "__class__" {
		return classOf(v), true
	}
	switch v.kind {
	case KindObject:
		return v.ref.(Object).Attr(name)
	case KindFunc:
		if m := v.ref.(*Func).mac; m != nil {
			return m.attr(name)
		}
	case KindInt, KindBool, KindFloat:
		switch name {
		case "real":
			if v.kind == KindBool {
				return IntV(v.n), true
			}
			return v, true
		case "imag":
			if v.kind == KindFloat {
				return FloatV(0), true
			}
			return IntV(0), true
		case "numerator":
			if v.kind == KindBool {
				return IntV(v.n), true
			}
			if v.kind != KindFloat {
				return v, true
			}
		case "denominator":
			if v.kind != KindFloat {
				return IntV(1), true
			}
		}
	}
	if hasMethod(v, name) {
		f := boundMethod(v, name)
		if v.kind == KindStr && (name == "format" || name == "format_map") && sandboxed(c) {
			// the sandbox hands out its own wrapper of str.format, a
			// function named as the method it wraps
			fn := f.ref.(*Func)
			owner := "str."
			if v.IsSafe() {
				owner = "Markup."
			}
			fn.Repr, fn.builtinOf = "<function "+owner+name+" at "+addr(fn)+">", false
		}
		return f, true
	}
	return Value{}, false
}

// strLacks reports whether no str (nor Markup) has the attribute name,
// so that GetItem(s, name) is undefAttr(s, name) for every str s: a str
// key is no index, a name without a leading _ is none the sandbox
// refuses, and name is no method. Compilers ask it once of a constant
// key, for x['type'] of a str x (a loop over a message's text where a
// template expects a list of parts).
func strLacks(name string) bool {
	return !strings.HasPrefix(name, "_") && !hasMethod(StrV(""), name) && !hasMethod(SafeV(""), name)
}

// dictLacks reports whether key, a str, names no attribute of a dict: no
// method, nothing private the sandbox would refuse, no __class__, and not
// Markup (whose Undefined names it with its repr). A dict's item under a
// key it does not hold is then undefAttr's Undefined (GetItem's first
// step), which a reader of a constant key decides when it is compiled.
func dictLacks(key Value) bool {
	return !key.IsSafe() && !strings.HasPrefix(key.s, "_") && dictMethod(key.s) == nil
}

// GetItem is Jinja2's environment.getitem (v[key]): the item, else the
// attribute named key when key is a str; Undefined when there is neither.
func GetItem(c *Ctx, v Value, key Value) (Value, error) {
	if v.kind == KindUndefined {
		return Value{}, v.undefErr()
	}
	if v.kind == KindDict && key.kind == KindStr {
		// a dict's str key (m['tools'], m.metadata of a message that
		// has none): its item, or, for a name no dict has as an
		// attribute (no method, no _ the sandbox would refuse or
		// __class__), the Undefined the steps below would come to
		d := v.dict()
		if i := d.findStr(key.s); i >= 0 {
			return d.vals[i], nil
		}
		if dictLacks(key) {
			return undefAttr(v, key.s), nil
		}
	}
	if r, ok, err := item(v, key); ok || err != nil {
		return r, err
	}
	if key.kind == KindStr {
		if sandboxed(c) {
			if u, unsafe := unsafeAttr(v, key.s); unsafe {
				return u, nil
			}
		}
		if r, ok, err := pyGetattr(c, v, key.s); ok || err != nil {
			return r, err
		}
		if key.IsSafe() {
			// Undefined names a Markup with its repr (an attribute
			// path of Markup parts)
			return Undef(reprStr(objectTypeRepr(v)) + " has no attribute " + Repr(key)), nil
		}
		return undefAttr(v, key.s), nil
	}
	return undefItem(v, key), nil
}

// item is Python's v[key], false when it raises a LookupError or a
// TypeError (which Jinja2's getitem turns into an attribute lookup or an
// Undefined).
func item(v Value, key Value) (Value, bool, error) {
	switch v.kind {
	case KindDict:
		d := v.dict()
		if key.kind == KindUndefined {
			// Undefined hashes, and equals only Undefined
			i, _ := d.find(key)
			if i >= 0 {
				return d.vals[i], true, nil
			}
			return Value{}, false, nil
		}
		i, err := d.find(key)
		if err != nil || i < 0 {
			return Value{}, false, nil
		}
		return d.vals[i], true, nil
	case KindList, KindTuple:
		if !isIntLike(key) {
			return Value{}, false, nil
		}
		items := v.list().Items
		i, ok := index(key, len(items))
		if !ok {
			return Value{}, false, nil
		}
		return items[i], true, nil
	case KindStr:
		if !isIntLike(key) {
			return Value{}, false, nil
		}
		if strASCII(v) {
			i, ok := index(key, len(v.s))
			if !ok {
				return Value{}, false, nil
			}
			r := markupOr(v, v.s[i:i+1])
			r.flags |= flagASCII
			return r, true, nil
		}
		rs := runesW(v.s)
		i, ok := index(key, len(rs))
		if !ok {
			return Value{}, false, nil
		}
		return markupOr(v, runeStrW(rs[i])), true, nil
	case KindObject:
		if ix, ok := v.ref.(Indexable); ok {
			r, found := ix.Item(key)
			return r, found, nil
		}
	}
	return Value{}, false, nil
}

// index resolves a Python index (negative from the end) into [0, n).
func index(key Value, n int) (int, bool) {
	if key.ref != nil {
		return 0, false
	}
	i := key.n
	if i < 0 {
		i += int64(n)
	}
	if i < 0 || i >= int64(n) {
		return 0, false
	}
	return int(i), true
}

func isASCII(s string) bool { return asciiPrefix(s) == len(s) }

// asciiPrefix is the length of the longest prefix of s that is ASCII,
// read 32 bytes at a time. Each block is resliced first so that the
// compiler drops the bounds checks and merges the byte loads into words
// (indexing s[i+k] directly reads a byte at a time: 1.4 GB/s against
// 10-17 GB/s on a 17 KB str).
func asciiPrefix(s string) int {
	i := 0
	for ; i+32 <= len(s); i += 32 {
		t := s[i : i+32]
		if (word(t[0:8])|word(t[8:16])|word(t[16:24])|word(t[24:32]))&0x8080808080808080 != 0 {
			break
		}
	}
	for ; i+8 <= len(s); i += 8 {
		if word(s[i:i+8])&0x8080808080808080 != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return i
		}
	}
	return i
}

// word is the first eight bytes of t as a little-endian word.
func word(t string) uint64 {
	_ = t[7]
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
}

// mulAdd is a + b*c, and whether it fits an int64.
func mulAdd(a, b, c int64) (int64, bool) {
	p := b * c
	if b != 0 && (p/b != c || b == -1 && c == math.MinInt64) {
		return 0, false
	}
	r := a + p
	if (p > 0 && r < a) || (p < 0 && r > a) {
		return 0, false
	}
	return r, true
}

// Slice is v[start:stop:step]; an omitted bound is a zero Value.
func Slice(c *Ctx, v Value, start, stop, step Value) (Value, error) {
	if v.kind == KindUndefined {
		return Value{}, v.undefErr()
	}
	if nt, ok := v.ref.(*namedTuple); ok && v.kind == KindObject {
		// groupby's _GroupTuple is a tuple: its slice is a plain tuple
		v = TupleV(nt.items)
	}
	switch v.kind {
	case KindStr:
		return sliceStr(v, start, stop, step)
	case KindObject:
		return sliceObject(c, v, start, stop, step)
	case KindList, KindTuple:
	default:
		return notSubscriptable(v)
	}
	items := v.list().Items
	from, _, cnt, st, err := sliceIndices(len(items), start, stop, step)
	if err != nil {
		return Value{}, err
	}
	if st == 1 && (v.kind == KindTuple || sandboxed(c)) {
		// nothing changes a tuple, nor a list under the sandbox (its
		// mutating methods are refused): the slice shares the items
		// (loop_messages = messages[1:], in most chat templates), its
		// capacity cut so that nothing appended to it could reach them
		return Value{kind: v.kind, ref: &List{Items: items[from : from+int64(cnt) : from+int64(cnt)]}}, nil
	}
	out := make([]Value, cnt)
	for j, i := 0, from; j < cnt; j, i = j+1, i+st {
		out[j] = items[i]
	}
	return Value{kind: v.kind, ref: &List{Items: out}}, nil
}

// notSubscriptable is the TypeError of a slice of what takes none.
// Jinja2 compiles a slice to Python's own subscript, not to
// environment.getitem: errors are Python's.
func notSubscriptable(v Value) (Value, error) {
	if v.kind == KindDict {
		return Value{}, typeErr("unhashable type: 'slice'")
	}
	return Value{}, typeErr("'%s' object is not subscriptable", TypeName(v))
}

// sliceBound reads one of a slice's start, stop and step: its value,
// whether it is given (not None), and whether it is an int or None.
func sliceBound(b Value) (int64, bool, bool) {
	switch {
	case b.kind == KindUndefined && b.s == "" && b.flags == 0 || b.kind == KindNone:
		return 0, false, true
	case isIntLike(b):
		if b.ref != nil {
			if b.big().Sign() < 0 {
				return math.MinInt64 / 2, true, true
			}
			return math.MaxInt64 / 2, true, true
		}
		return b.n, true, true
	}
	return 0, false, false
}

// sliceIndices is PySlice_Unpack and PySlice_AdjustIndices for a
// sequence of n items: the first index, the end, how many and the step.
// It reads the step first: its TypeError or its zero comes before a bad
// start or stop.
func sliceIndices(n int, start, stop, step Value) (from, to int64, cnt int, st int64, err error) {
	st, hasSt, ok := sliceBound(step)
	if !ok {
		return 0, 0, 0, 0, typeErr("slice indices must be integers or None or have an __index__ method")
	}
	if !hasSt {
		st = 1
	}
	if st == 0 {
		return 0, 0, 0, 0, valueErr("slice step cannot be zero")
	}
	lo, hasLo, ok1 := sliceBound(start)
	hi, hasHi, ok2 := sliceBound(stop)
	if !ok1 || !ok2 {
		return 0, 0, 0, 0, typeErr("slice indices must be integers or None or have an __index__ method")
	}
	if st == math.MinInt64 {
		st = -math.MaxInt64 // PySlice_Unpack: so that -step does not overflow
	}
	from, to = sliceBounds(n, lo, hasLo, hi, hasHi, st)
	return from, to, sliceLen(from, to, st), st, nil
}

// sliceStr is Slice of a str: ASCII by bytes, valid UTF-8 with a step
// of 1 by runes counted in place, anything else by its runes (each
// invalid byte read as U+FFFD, as Python's str of such bytes holds it).
func sliceStr(v Value, start, stop, step Value) (Value, error) {
	var n int
	var runes []rune // a str's runes, when it is neither ASCII nor a step-1 slice of valid UTF-8
	utf := false     // v.s is valid UTF-8 with non-ASCII runes; n counts runes
	switch {
	case strASCII(v):
		n = len(v.s)
	case utf8.ValidString(v.s):
		utf = true
		n = utf8.RuneCountInString(v.s)
	default:
		runes = runesW(v.s)
		n = len(runes)
	}
	from, _, cnt, st, err := sliceIndices(n, start, stop, step)
	if err != nil {
		return Value{}, err
	}
	switch {
	case st == 1 && runes == nil && !utf:
		r := markupOr(v, v.s[from:from+int64(cnt)])
		r.flags |= flagASCII
		return r, nil
	case st == 1 && utf:
		i := runesAfter(v.s, 0, int(from))
		return markupOr(v, v.s[i:runesAfter(v.s, i, cnt)]), nil
	case runes == nil && !utf:
		b := make([]byte, cnt)
		for j, i := 0, from; j < cnt; j, i = j+1, i+st {
			b[j] = v.s[i]
		}
		return markupOr(v, string(b)), nil
	}
	if runes == nil {
		runes = runesW(v.s)
	}
	var b []byte
	for j, i := 0, from; j < cnt; j, i = j+1, i+st {
		b = appendRuneW(b, runes[i])
	}
	return markupOr(v, string(b)), nil
}

// sliceObject is Slice of an object: bytes, a range (one of ints past
// int64 by rangeSlice), a generic class's alias.
func sliceObject(c *Ctx, v Value, start, stop, step Value) (Value, error) {
	if bs, ok := v.ref.(*bytesObj); ok {
		from, _, cnt, st, err := sliceIndices(len(bs.b), start, stop, step)
		if err != nil {
			return Value{}, err
		}
		if st == 1 {
			return ObjectV(&bytesObj{b: bs.b[from : from+int64(cnt)]}), nil
		}
		b := make([]byte, cnt)
		for j, i := 0, from; j < cnt; j, i = j+1, i+st {
			b[j] = bs.b[i]
		}
		return ObjectV(&bytesObj{b: string(b)}), nil
	}
	if g, alias := v.ref.(*genericAlias); alias {
		return Value{}, typeErr("%s is not a generic class", g.Repr())
	}
	if l, lazy := v.ref.(*lazyRange); lazy {
		return rangeSlice(c, l, start, stop, step)
	}
	rng, ok := v.ref.(*rangeObj)
	if ok && (start.isBig() || stop.isBig() || step.isBig()) {
		p, _ := rangeParts(v)
		return rangeSlice(c, p, start, stop, step)
	}
	if !ok {
		if k, class := v.ref.(*pyClass); class {
			if k.generic {
				return ObjectV(&genericAlias{origin: k, args: sliceValue(start, stop, step)}), nil
			}
			return Value{}, typeErr("type '%s' is not subscriptable", k.name)
		}
		return notSubscriptable(v)
	}
	from, to, cnt, st, err := sliceIndices(len(rng.items), start, stop, step)
	if err != nil {
		return Value{}, err
	}
	nStart, ok1 := mulAdd(rng.start, from, rng.step)
	nStop, ok2 := mulAdd(rng.start, to, rng.step)
	nStep, ok3 := mulAdd(0, rng.step, st)
	if !ok1 || !ok2 || !ok3 {
		// Python's range holds ints of any size
		p, _ := rangeParts(v)
		return rangeSlice(c, p, start, stop, step)
	}
	items := make([]Value, cnt)
	for j, i := 0, from; j < cnt; j, i = j+1, i+st {
		items[j] = rng.items[i]
	}
	return ObjectV(&rangeObj{items: items, start: nStart, stop: nStop, step: nStep}), nil
}

// sliceLen is how many indexes a slice from start to stop by st selects
// (slice.indices(n) walked, counted).
func sliceLen(start, stop, st int64) int {
	// CPython's PySlice_AdjustIndices, which cannot overflow for a step
	// near the int64 bounds
	switch {
	case st > 0 && stop > start:
		return int((stop-start-1)/st + 1)
	case st < 0 && start > stop:
		return int((start-stop-1)/-st + 1)
	}
	return 0
}

// runesAfter is the byte offset in s of the rune k runes after byte
// offset i.
func runesAfter(s string, i, k int) int {
	for ; k > 0 && i < len(s); k-- {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return i
}

// sliceBounds is slice.indices(n)'s start and stop.
func sliceBounds(n int, lo int64, hasLo bool, hi int64, hasHi bool, st int64) (int64, int64) {
	ln := int64(n)
	adjust := func(x int64, lower, upper int64) int64 {
		if x < 0 {
			x += ln
			if x < 0 {
				return lower
			}
			return x
		}
		if x > upper {
			return upper
		}
		return x
	}
	if st > 0 {
		start, stop := int64(0), ln
		if hasLo {
			start = adjust(lo, 0, ln)
		}
		if hasHi {
			stop = adjust(hi, 0, ln)
		}
		return start, stop
	}
	start, stop := ln-1, int64(-1)
	if hasLo {
		start = adjust(lo, -1, ln-1)
	}
	if hasHi {
		stop = adjust(hi, -1, ln-1)
	}
	return start, stop
}

// strItemAt is the character a loop over s sees at its byte i, and where
// the next one starts; ok is false at the second and third bytes of a
// surrogate (WTF-8), which the surrogate at the first byte covers. A
// byte that is not UTF-8 is U+FFFD; any other character is s's own bytes.
func strItemAt(s string, i int) (it Value, next int, ok bool) {
	r, size := utf8.DecodeRuneInString(s[i:])
	next = i + size
	switch {
	case r < utf8.RuneSelf:
		return StrV(s[i : i+1]), next, true
	case r == utf8.RuneError && isSurrogateAt(s, i):
		return StrV(s[i : i+3]), next, true
	case r == utf8.RuneError && i > 0 && (isSurrogateAt(s, i-1) || i > 1 && isSurrogateAt(s, i-2)):
		return Value{}, next, false // the rest of a surrogate's bytes
	case r == utf8.RuneError && size == 1:
		return StrV(string(utf8.RuneError)), next, true
	}
	return StrV(s[i:next]), next, true
}

// Iterate returns the items a for loop over v sees (a dict's keys, a str's
// characters; Undefined gives none), or a TypeError.
func Iterate(c *Ctx, v Value) ([]Value, error) {
	switch v.kind {
	case KindList, KindTuple:
		return v.list().Items, nil
	case KindDict:
		return v.dict().keys, nil
	case KindStr:
		out := make([]Value, 0, len(v.s))
		for i := 0; i < len(v.s); {
			it, next, ok := strItemAt(v.s, i)
			if ok {
				out = append(out, it)
			}
			i = next
		}
		return out, nil
	case KindUndefined:
		// Undefined.__iter__ yields nothing, the sandbox's unsafe one too
		return nil, nil
	case KindObject:
		if it, ok := v.ref.(Iterable); ok {
			return it.Iter(c)
		}
	}
	return nil, typeErr("'%s' object is not iterable", TypeName(v))
}

// Len is Python's len(v).
func Len(v Value) (int, error) {
	switch v.kind {
	case KindStr:
		if v.flags&flagASCII != 0 {
			return len(v.s), nil
		}
		n := asciiPrefix(v.s)
		rest := v.s[n:]
		return n + utf8.RuneCountInString(rest) - 2*surrogatesIn(rest), nil
	case KindList, KindTuple:
		return len(v.list().Items), nil
	case KindDict:
		return len(v.dict().keys), nil
	case KindUndefined:
		return 0, nil
	case KindObject:
		if r, ok := v.ref.(*lazyRange); ok {
			return r.length()
		}
		if l, ok := v.ref.(Lengther); ok {
			return l.Len(), nil
		}
	}
	return 0, typeErr("object of type '%s' has no len()", TypeName(v))
}

// Len is len(d).
func (d *Dict) Len() int { return len(d.keys) }

func ptrKey(p any) string { return fmt.Sprintf("%T%p", p, p) }

// htmlEscapeStr is markupsafe.escape: & < > " ' become &amp; &lt; &gt;
// &#34; &#39;.
func htmlEscapeStr(s string) string {
	if !strings.ContainsAny(s, `&<>"'`) {
		return s
	}
	return htmlReplacer.Replace(s)
}

var htmlReplacer = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;")

// bigFloatInt is int(f) for a finite float.
func bigFloatInt(f float64) Value {
	if f >= -(1<<63) && f < 1<<63 {
		return IntV(int64(f))
	}
	b, _ := new(big.Float).SetFloat64(math.Trunc(f)).Int(nil)
	return normBig(b)
}

func isDunder(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}

// SliceItem is environment.getitem(v, slice(start, stop, step)): what a
// slice gives when Jinja2's optimizer folds it at compile time (every
// operand a constant), where a TypeError becomes an Undefined ("int object
// has no element slice(1, None, None)") instead of the error Slice, the
// Python subscript compiled code uses, raises.
func SliceItem(c *Ctx, v Value, start, stop, step Value) (Value, error) {
	r, err := Slice(c, v, start, stop, step)
	if e, ok := err.(*Error); ok && e.Kind == "TypeError" {
		b := func(x Value) string {
			if x.kind == KindUndefined && x.s == "" && x.flags == 0 {
				return "None"
			}
			return Repr(x)
		}
		return Undef(objectTypeRepr(v) + " has no element slice(" + b(start) + ", " + b(stop) + ", " + b(step) + ")"), nil
	}
	return r, err
}
