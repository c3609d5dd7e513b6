package format

import (
	"math"
	"math/bits"
	"strings"
	"unicode/utf8"

	"github.com/rolemark/rolemark/internal/pyjson"
)

// What the compiled path knows of Python and Jinja2: operators, attribute
// and item access (the sandbox's getattr and getitem), the filters, tests,
// methods and functions chat templates use. Everything else is an error,
// which sends the call to the engine (see hfc_value.go).

const flRange uint8 = 10 // range(): iterable, not printable

// arith is a binary operator of Python.
func arith(op string, a, b value) (value, error) {
	if op == "~" {
		sa, err := str(a)
		if err != nil {
			return undef, err
		}
		sb, err := str(b)
		if err != nil {
			return undef, err
		}
		return strV(sa + sb), nil
	}
	if isNum(a) && isNum(b) {
		if a.k == vFloat || b.k == vFloat {
			x, y := numF(a), numF(b)
			if a.k != vFloat && (a.n > 1<<53 || a.n < -(1<<53)) || b.k != vFloat && (b.n > 1<<53 || b.n < -(1<<53)) {
				return undef, unmodelled("a large int with a float")
			}
			switch op {
			case "+":
				return floatV(x + y), nil
			case "-":
				return floatV(x - y), nil
			case "*":
				return floatV(x * y), nil
			case "/":
				if y == 0 {
					return undef, unmodelled("division by zero")
				}
				return floatV(x / y), nil
			}
			return undef, unmodelled("float " + op)
		}
		x, y := a.n, b.n
		switch op {
		case "+":
			s := x + y
			if (s > x) != (y > 0) {
				return undef, unmodelled("int overflow")
			}
			return intV(s), nil
		case "-":
			s := x - y
			if (s < x) != (y > 0) {
				return undef, unmodelled("int overflow")
			}
			return intV(s), nil
		case "*":
			hi, lo := bits.Mul64(uint64(abs64(x)), uint64(abs64(y)))
			if hi != 0 || lo > math.MaxInt64 || x == math.MinInt64 || y == math.MinInt64 {
				return undef, unmodelled("int overflow")
			}
			return intV(x * y), nil
		case "/":
			if y == 0 || x > 1<<53 || x < -(1<<53) || y > 1<<53 || y < -(1<<53) {
				return undef, unmodelled("this division")
			}
			return floatV(float64(x) / float64(y)), nil
		case "//", "%":
			if y == 0 || x == math.MinInt64 {
				return undef, unmodelled("this division")
			}
			q, r := x/y, x%y
			if r != 0 && (r < 0) != (y < 0) {
				q--
				r += y
			}
			if op == "//" {
				return intV(q), nil
			}
			return intV(r), nil
		case "**":
			if y < 0 || y > 64 {
				return undef, unmodelled("this power")
			}
			r := int64(1)
			for range y {
				hi, lo := bits.Mul64(uint64(abs64(r)), uint64(abs64(x)))
				if hi != 0 || lo > math.MaxInt64 {
					return undef, unmodelled("int overflow")
				}
				r *= x
			}
			return intV(r), nil
		}
		return undef, unmodelled("int " + op)
	}
	switch op {
	case "+":
		switch {
		case a.k == vStr && b.k == vStr:
			return strV(a.s + b.s), nil
		case a.k == vList && b.k == vList:
			la, lb := a.list(), b.list()
			if la.flavor != lb.flavor || (la.flavor != flList && la.flavor != flTuple) {
				return undef, unmodelled("adding these sequences")
			}
			items := make([]value, 0, len(la.items)+len(lb.items))
			items = append(append(items, la.items...), lb.items...)
			return listV(items, la.flavor), nil
		}
	case "*":
		if b.k == vStr || b.k == vList {
			a, b = b, a
		}
		if b.k != vInt {
			break
		}
		n := max(b.n, 0)
		switch {
		case a.k == vStr && int64(len(a.s))*n <= 1<<20:
			return strV(strings.Repeat(a.s, int(n))), nil
		case a.k == vList && (a.list().flavor == flList || a.list().flavor == flTuple) && int64(len(a.list().items))*n <= 1<<16:
			var items []value
			for range n {
				items = append(items, a.list().items...)
			}
			return listV(items, a.list().flavor), nil
		}
	}
	if op == "+" {
		if err := addTypeError(a, b); err != nil {
			return undef, err
		}
	}
	return undef, unmodelled("operator " + op + " on these values")
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// contains is Python's item in container.
func contains(container, item value) (bool, error) {
	switch container.k {
	case vStr:
		if item.k != vStr {
			return false, unmodelled("in a string, a value that is not a string")
		}
		return strings.Contains(container.s, item.s), nil
	case vList:
		l := container.list()
		if l.flavor == flGen {
			return false, unmodelled("in a generator")
		}
		for _, it := range l.items {
			eq, err := equal(it, item)
			if err != nil || eq {
				return eq, err
			}
		}
		return false, nil
	case vDict:
		switch item.k {
		case vStr:
			_, ok := container.dict().get(item.s)
			return ok, nil
		case vInt, vFloat, vBool, vNone:
			return false, nil
		}
	case vUndef:
		return false, nil
	}
	return false, unmodelled("in on this value")
}

// Attribute names of Python's types: the sandbox's getattr finds these
// before any item, so the compiled path does not model them unless it
// implements them.
var (
	strAttrs = setOf("capitalize casefold center count encode endswith expandtabs find format format_map index isalnum isalpha " +
		"isascii isdecimal isdigit isidentifier islower isnumeric isprintable isspace istitle isupper join ljust lower lstrip " +
		"maketrans partition removeprefix removesuffix replace rfind rindex rjust rpartition rsplit rstrip split splitlines " +
		"startswith strip swapcase title translate upper zfill")
	dictAttrs = setOf("clear copy fromkeys get items keys pop popitem setdefault update values")
	listAttrs = setOf("append clear copy count extend index insert pop remove reverse sort")
	numAttrs  = setOf("as_integer_ratio bit_count bit_length conjugate denominator from_bytes imag numerator real to_bytes " +
		"is_integer fromhex hex")
	strMethods  = setOf("strip lstrip rstrip split startswith endswith lower upper title capitalize replace")
	dictMethods = setOf("items keys values get")
)

func setOf(s string) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(s) {
		m[f] = true
	}
	return m
}

// getattr is the sandbox's getattr(obj, name) (obj.name).
func getattr(v value, name string) (value, error) {
	if strings.HasPrefix(name, "_") {
		return undef, unmodelled("private attribute")
	}
	switch v.k {
	case vDict:
		if dictAttrs[name] {
			if dictMethods[name] {
				return value{k: vMethod, ref: &vmethod{recv: v, name: name}}, nil
			}
			return undef, unmodelled("dict attribute " + name)
		}
		r, _ := v.dict().get(name)
		return r, nil
	case vNS:
		r, _ := v.dict().get(name)
		return r, nil
	case vLoop:
		return loopAttr(v.loop(), name)
	case vStr:
		if strAttrs[name] {
			if strMethods[name] {
				return value{k: vMethod, ref: &vmethod{recv: v, name: name}}, nil
			}
			return undef, unmodelled("str attribute " + name)
		}
		return undef, nil
	case vList:
		if listAttrs[name] {
			return undef, unmodelled("list attribute " + name)
		}
		if v.list().flavor != flList && v.list().flavor != flTuple {
			return undef, unmodelled("attribute of a generator")
		}
		return undef, nil
	case vNone, vBool, vInt, vFloat:
		if numAttrs[name] {
			return undef, unmodelled("number attribute " + name)
		}
		return undef, nil
	}
	return undef, unmodelled("attribute of this value")
}

// loopAttrFunc returns the reader of loop.name, or nil.
func loopAttrFunc(name string) func(*loopState) value {
	switch name {
	case "index":
		return func(l *loopState) value { return intV(int64(l.i + 1)) }
	case "index0":
		return func(l *loopState) value { return intV(int64(l.i)) }
	case "first":
		return func(l *loopState) value { return boolV(l.i == 0) }
	case "last":
		return func(l *loopState) value { return boolV(l.i == len(l.items)-1) }
	case "length":
		return func(l *loopState) value { return intV(int64(len(l.items))) }
	}
	return nil
}

func loopAttr(l *loopState, name string) (value, error) {
	n := len(l.items)
	switch name {
	case "index":
		return intV(int64(l.i + 1)), nil
	case "index0":
		return intV(int64(l.i)), nil
	case "first":
		return boolV(l.i == 0), nil
	case "last":
		return boolV(l.i == n-1), nil
	case "length":
		return intV(int64(n)), nil
	case "revindex":
		return intV(int64(n - l.i)), nil
	case "revindex0":
		return intV(int64(n - l.i - 1)), nil
	case "previtem":
		if l.i == 0 {
			return undef, nil
		}
		return l.items[l.i-1], nil
	case "nextitem":
		if l.i+1 >= n {
			return undef, nil
		}
		return l.items[l.i+1], nil
	case "depth":
		return intV(1), nil
	case "depth0":
		return intV(0), nil
	}
	return undef, unmodelled("loop." + name)
}

// getitem is the sandbox's getitem(obj, key) (obj[key]).
func getitem(v, key value) (value, error) {
	switch v.k {
	case vDict:
		if key.k == vStr {
			if r, ok := v.dict().get(key.s); ok {
				return r, nil
			}
			if dictAttrs[key.s] || strings.HasPrefix(key.s, "_") {
				return undef, unmodelled("dict attribute " + key.s)
			}
			return undef, nil
		}
		if key.k == vInt || key.k == vNone || key.k == vFloat {
			return undef, nil
		}
	case vList:
		l := v.list()
		if l.flavor != flList && l.flavor != flTuple && l.flavor != flRange {
			break
		}
		switch key.k {
		case vInt:
			i := key.n
			if i < 0 {
				i += int64(len(l.items))
			}
			if i < 0 || i >= int64(len(l.items)) {
				return undef, nil
			}
			return l.items[i], nil
		case vStr:
			if listAttrs[key.s] || strings.HasPrefix(key.s, "_") {
				return undef, unmodelled("list attribute " + key.s)
			}
			return undef, nil
		}
	case vStr:
		switch key.k {
		case vInt:
			n := int64(utf8.RuneCountInString(v.s))
			i := key.n
			if i < 0 {
				i += n
			}
			if i < 0 || i >= n {
				return undef, nil
			}
			if n == int64(len(v.s)) {
				return strV(v.s[i : i+1]), nil
			}
			for _, r := range v.s {
				if i == 0 {
					return strV(string(r)), nil
				}
				i--
			}
		case vStr:
			if strAttrs[key.s] || strings.HasPrefix(key.s, "_") {
				return undef, unmodelled("str attribute " + key.s)
			}
			return undef, nil
		}
	case vLoop:
		if key.k == vStr {
			return loopAttr(v.loop(), key.s)
		}
	}
	return undef, unmodelled("this subscript")
}

// slice is obj[start:stop:step] on a list, a tuple or a str.
func slice(v value, start, stop, step *int64) (value, error) {
	var n int64
	var runes []rune
	switch {
	case v.k == vList && (v.list().flavor == flList || v.list().flavor == flTuple):
		n = int64(len(v.list().items))
	case v.k == vStr:
		runes = []rune(v.s)
		n = int64(len(runes))
	default:
		return undef, unmodelled("slicing this value")
	}
	st := int64(1)
	if step != nil {
		st = *step
	}
	if st == 0 {
		return undef, unmodelled("slice step 0")
	}
	lower, upper := int64(0), n
	if st < 0 {
		lower, upper = -1, n-1
	}
	adjust := func(p *int64, def int64) int64 {
		if p == nil {
			return def
		}
		i := *p
		if i < 0 {
			i += n
			if i < lower {
				i = lower
			}
		} else if i > upper {
			i = upper
		}
		return i
	}
	var b, e int64
	if st > 0 {
		b, e = adjust(start, lower), adjust(stop, upper)
	} else {
		b, e = adjust(start, upper), adjust(stop, lower)
	}
	var idx []int64
	for i := b; (st > 0 && i < e) || (st < 0 && i > e); i += st {
		idx = append(idx, i)
	}
	if v.k == vStr {
		if st == 1 {
			if len(idx) == 0 {
				return emptyStr, nil
			}
			return strV(string(runes[idx[0] : idx[len(idx)-1]+1])), nil
		}
		out := make([]rune, len(idx))
		for k, i := range idx {
			out[k] = runes[i]
		}
		return strV(string(out)), nil
	}
	items := make([]value, len(idx))
	for k, i := range idx {
		items[k] = v.list().items[i]
	}
	return listV(items, v.list().flavor), nil
}

func getattrX(x cx, name string) cx {
	plain := !dictAttrs[name] && name[0] != '_' // a dict's item, not its method
	if x.isVar {
		s := x.slot
		var at func(*rstate) *value
		if plain {
			at = func(st *rstate) *value {
				if v := &st.slots[s]; v.k == vDict {
					return v.ref.(*vdict).at(name)
				}
				return nil
			}
		}
		if la := loopAttrFunc(name); la != nil {
			// loop.index, loop.first, …: a loop's attribute (a dict's item
			// on a dict).
			var num func(*rstate) (int64, bool)
			if name == "index0" || name == "index" {
				off := int64(0)
				if name == "index" {
					off = 1 // loop.index counts from 1
				}
				num = func(st *rstate) (int64, bool) {
					if v := &st.slots[s]; v.k == vLoop {
						return int64(v.ref.(*loopState).i) + off, true
					}
					return 0, false
				}
			}
			return cx{fn: func(st *rstate) (value, error) {
				v := st.slots[s]
				if v.k == vLoop {
					return la(v.ref.(*loopState)), nil
				}
				if v.k == vDict && plain {
					r, _ := v.ref.(*vdict).get(name)
					return r, nil
				}
				return getattr(v, name)
			}, test: func(st *rstate) (bool, error) {
				if v := &st.slots[s]; v.k == vLoop {
					return la(v.ref.(*loopState)).n != 0, nil // an int or a bool
				}
				return truthOf(getattr(st.slots[s], name))
			}, at: at, num: num, pure: true}
		}
		attr := ""
		if plain {
			attr = name
		}
		return cx{fn: func(st *rstate) (value, error) {
			v := st.slots[s]
			if v.k == vDict && plain {
				r, _ := v.ref.(*vdict).get(name)
				return r, nil
			}
			return getattr(v, name)
		}, slot: s, attr: attr, test: func(st *rstate) (bool, error) {
			if v := &st.slots[s]; v.k == vDict && plain {
				if r := v.ref.(*vdict).at(name); r != nil {
					return truth(*r)
				}
				return false, nil
			}
			return truthOf(getattr(st.slots[s], name))
		}, at: at, pure: true}
	}
	obj := x.fn
	fn := func(st *rstate) (value, error) {
		v, err := obj(st)
		if err != nil {
			return undef, err
		}
		if v.k == vDict && plain {
			r, _ := v.ref.(*vdict).get(name)
			return r, nil
		}
		return getattr(v, name)
	}
	xa := x.at
	if xa == nil || !plain {
		return cx{fn: fn, pure: x.pure}
	}
	// The item read in place.
	at := func(st *rstate) *value {
		if p := xa(st); p != nil && p.k == vDict {
			return p.ref.(*vdict).at(name)
		}
		return nil
	}
	return cx{fn: func(st *rstate) (value, error) {
		if p := at(st); p != nil {
			return *p, nil
		}
		return fn(st)
	}, at: at, pure: x.pure}
}

// indexAt returns where a list or a tuple holds its n-th item, when n is
// in range, or nil.
func indexAt(v *value, n int64) *value {
	if v.k == vList {
		if l := v.ref.(*vlist); l.flavor == flList || l.flavor == flTuple {
			if n < 0 {
				n += int64(len(l.items))
			}
			if n >= 0 && n < int64(len(l.items)) {
				return &l.items[n]
			}
		}
	}
	return nil
}

// itemAt returns where v holds key's value (an item of a dict, or of a
// list or a tuple), when it does, or nil.
func itemAt(v *value, key value) *value {
	switch {
	case v.k == vDict && key.k == vStr:
		return v.ref.(*vdict).at(key.s)
	case key.k == vInt:
		return indexAt(v, key.n)
	}
	return nil
}

func getitemX(x, k cx) cx {
	obj, key := x.fn, k.fn
	fn := func(st *rstate) (value, error) {
		v, err := obj(st)
		if err != nil {
			return undef, err
		}
		k, err := key(st)
		if err != nil {
			return undef, err
		}
		if p := itemAt(&v, k); p != nil {
			return *p, nil
		}
		return getitem(v, k)
	}
	r := cx{fn: fn, pure: x.pure && k.pure}
	if xa := x.at; xa != nil && k.pure {
		// The item read in place.
		if k.konst != nil {
			kv := *k.konst
			r.at = func(st *rstate) *value {
				if p := xa(st); p != nil {
					return itemAt(p, kv)
				}
				return nil
			}
		} else {
			kn := k.num
			r.at = func(st *rstate) *value {
				p := xa(st)
				if p == nil {
					return nil
				}
				if kn != nil {
					if n, ok := kn(st); ok {
						return indexAt(p, n)
					}
				}
				if k, err := key(st); err == nil {
					return itemAt(p, k)
				}
				return nil
			}
		}
		at := r.at
		r.fn = func(st *rstate) (value, error) {
			if p := at(st); p != nil {
				return *p, nil
			}
			return fn(st)
		}
	}
	return r
}

func methodCall(obj expr, name string, args []expr, kw []cxArg) cx {
	return cx{fn: func(st *rstate) (value, error) {
		v, err := obj(st)
		if err != nil {
			return undef, err
		}
		m, err := getattr(v, name)
		if err != nil {
			return undef, err
		}
		a, k, err := evalArgs(st, args, kw)
		if err != nil {
			return undef, err
		}
		return callV(st, m, a, k)
	}}
}

func callValue(fn expr, args []expr, kw []cxArg) cx {
	return cx{fn: func(st *rstate) (value, error) {
		f, err := fn(st)
		if err != nil {
			return undef, err
		}
		a, k, err := evalArgs(st, args, kw)
		if err != nil {
			return undef, err
		}
		return callV(st, f, a, k)
	}}
}

func callV(st *rstate, f value, args []value, kw []kwarg) (value, error) {
	switch f.k {
	case vMacro:
		return f.ref.(*macro).call(st, args, kw)
	case vMethod:
		m := f.ref.(*vmethod)
		return callMethod(m.recv, m.name, args, kw)
	}
	return undef, unmodelled("calling this value")
}

func callMethod(recv value, name string, args []value, kw []kwarg) (value, error) {
	if len(kw) > 0 {
		return undef, unmodelled("keyword arguments to a method")
	}
	switch recv.k {
	case vStr:
		return strMethod(recv.s, name, args)
	case vDict:
		d := recv.dict()
		switch name {
		case "items", "keys", "values":
			if len(args) > 0 {
				break
			}
			items := make([]value, len(d.keys))
			for i, k := range d.keys {
				switch name {
				case "items":
					items[i] = listV([]value{strV(k), d.vals[i]}, flTuple)
				case "keys":
					items[i] = strV(k)
				default:
					items[i] = d.vals[i]
				}
			}
			return listV(items, flView), nil
		case "get":
			if len(args) < 1 || len(args) > 2 {
				break
			}
			def := none
			if len(args) == 2 {
				def = args[1]
			}
			switch args[0].k {
			case vStr:
				if v, ok := d.get(args[0].s); ok {
					return v, nil
				}
				return def, nil
			case vInt, vNone, vFloat, vBool:
				return def, nil
			}
		}
	}
	return undef, unmodelled("method " + name)
}

func strArg(args []value, i int) (string, bool, error) {
	if i >= len(args) || args[i].k == vNone {
		return "", false, nil
	}
	if args[i].k != vStr {
		return "", false, unmodelled("a string argument that is not a string")
	}
	return args[i].s, true, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func strMethod(s, name string, args []value) (value, error) {
	switch name {
	case "strip", "lstrip", "rstrip":
		if len(args) > 1 {
			break
		}
		chars, ok, err := strArg(args, 0)
		if err != nil {
			return undef, err
		}
		return strV(pyStripStr(s, name, chars, ok)), nil
	case "split":
		if len(args) > 2 {
			break
		}
		sep, hasSep, err := strArg(args, 0)
		if err != nil {
			return undef, err
		}
		maxsplit := int64(-1)
		if len(args) == 2 {
			if args[1].k != vInt {
				break
			}
			maxsplit = args[1].n
		}
		var parts []string
		switch {
		case hasSep && sep == "":
			return undef, unmodelled("empty separator")
		case hasSep && maxsplit < 0:
			parts = strings.Split(s, sep)
		case hasSep:
			parts = strings.SplitN(s, sep, int(min(maxsplit, 1<<20))+1)
		default:
			parts = pySplitSpace(s, maxsplit)
		}
		items := make([]value, len(parts))
		for i, p := range parts {
			items[i] = strV(p)
		}
		return listV(items, flList), nil
	case "startswith", "endswith":
		if len(args) != 1 {
			break
		}
		var prefixes []string
		switch a := args[0]; {
		case a.k == vStr:
			prefixes = []string{a.s}
		case a.k == vList && a.list().flavor == flTuple:
			for _, it := range a.list().items {
				if it.k != vStr {
					return undef, unmodelled("startswith of a non-string")
				}
				prefixes = append(prefixes, it.s)
			}
		default:
			return undef, unmodelled("startswith of a non-string")
		}
		for _, p := range prefixes {
			if name == "startswith" && strings.HasPrefix(s, p) || name == "endswith" && strings.HasSuffix(s, p) {
				return vTrue, nil
			}
		}
		return vFalse, nil
	case "lower", "upper", "title", "capitalize":
		if len(args) > 0 || !isASCII(s) {
			break
		}
		return strV(asciiCase(s, name)), nil
	case "replace":
		if len(args) < 2 || len(args) > 3 || args[0].k != vStr || args[1].k != vStr {
			break
		}
		n := -1
		if len(args) == 3 {
			if args[2].k != vInt {
				break
			}
			n = int(max(min(args[2].n, 1<<30), -1))
		}
		return strV(strings.Replace(s, args[0].s, args[1].s, n)), nil
	}
	return undef, unmodelled("str." + name + " with these arguments")
}

// asciiCase is str.lower, upper, title or capitalize of an ASCII string.
func asciiCase(s, how string) string {
	b := []byte(s)
	prevCased := false
	for i, c := range b {
		isUp, isLow := c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z'
		up := false
		switch how {
		case "lower":
		case "upper":
			up = true
		case "title":
			up = !prevCased
		case "capitalize":
			up = i == 0
		}
		switch {
		case up && isLow:
			b[i] = c - 32
		case !up && isUp:
			b[i] = c + 32
		}
		prevCased = isUp || isLow
	}
	return string(b)
}

func pyStripStr(s, how, chars string, hasChars bool) string {
	f := pyIsSpace
	if hasChars {
		f = func(r rune) bool { return strings.ContainsRune(chars, r) }
	}
	switch how {
	case "lstrip":
		return strings.TrimLeftFunc(s, f)
	case "rstrip":
		return strings.TrimRightFunc(s, f)
	}
	return strings.TrimFunc(s, f)
}

// pySplitSpace is str.split(None, maxsplit).
func pySplitSpace(s string, maxsplit int64) []string {
	var out []string
	i := 0
	for {
		for i < len(s) {
			r, n := utf8.DecodeRuneInString(s[i:])
			if !pyIsSpace(r) {
				break
			}
			i += n
		}
		if i >= len(s) {
			return out
		}
		if maxsplit >= 0 && int64(len(out)) == maxsplit {
			return append(out, strings.TrimRightFunc(s[i:], pyIsSpace))
		}
		j := i
		for j < len(s) {
			r, n := utf8.DecodeRuneInString(s[j:])
			if pyIsSpace(r) {
				break
			}
			j += n
		}
		out = append(out, s[i:j])
		i = j
	}
}

// ---------------------------------------------------------------- functions

var builtinFuncs = map[string]func(args []expr, kw []cxArg) (cx, error){
	"raise_exception": func(args []expr, kw []cxArg) (cx, error) {
		return cx{fn: func(st *rstate) (value, error) {
			return undef, unmodelled("raise_exception (the engine raises it)")
		}}, nil
	},
	"range": func(args []expr, kw []cxArg) (cx, error) {
		if len(kw) > 0 || len(args) < 1 || len(args) > 3 {
			return cx{}, errUnmodelled
		}
		return cx{fn: func(st *rstate) (value, error) {
			a, _, err := evalArgs(st, args, nil)
			if err != nil {
				return undef, err
			}
			var n [3]int64
			for i, v := range a {
				if v.k != vInt {
					return undef, unmodelled("range of a non-int")
				}
				n[i] = v.n
			}
			start, stop, step := int64(0), n[0], int64(1)
			if len(a) > 1 {
				start, stop = n[0], n[1]
			}
			if len(a) > 2 {
				step = n[2]
			}
			if step == 0 {
				return undef, unmodelled("range step 0")
			}
			var count int64
			if step > 0 && stop > start {
				count = (stop - start + step - 1) / step
			} else if step < 0 && stop < start {
				count = (start - stop - step - 1) / -step
			}
			if count > maxRange {
				return undef, unmodelled("range too big")
			}
			if err := st.ctx.Err(); err != nil {
				return undef, err
			}
			items := make([]value, count)
			for i := range items {
				items[i] = intV(start + int64(i)*step)
			}
			return listV(items, flRange), nil
		}}, nil
	},
	"namespace": func(args []expr, kw []cxArg) (cx, error) {
		if len(args) > 0 {
			return cx{}, errUnmodelled
		}
		return cx{fn: func(st *rstate) (value, error) {
			_, k, err := evalArgs(st, nil, kw)
			if err != nil {
				return undef, err
			}
			d := &vdict{}
			for _, a := range k {
				d.set(a.name, a.val)
			}
			return value{k: vNS, ref: d}, nil
		}}, nil
	},
	"strftime_now": func(args []expr, kw []cxArg) (cx, error) {
		if len(args) != 1 || len(kw) > 0 {
			return cx{}, errUnmodelled
		}
		return cx{fn: func(st *rstate) (value, error) {
			f, err := args[0](st)
			if err != nil {
				return undef, err
			}
			if f.k != vStr {
				return undef, unmodelled("strftime_now of a non-string")
			}
			s, err := strftime(st.now(), f.s)
			if err != nil {
				return undef, unmodelled(err.Error())
			}
			return strV(s), nil
		}}, nil
	},
}

// ---------------------------------------------------------------- filters

func makeFilter(name string, x cx, args []expr, kw []cxArg) (cx, error) {
	obj := x.fn
	simple := func(f func(value) (value, error)) (cx, error) {
		if len(args) > 0 || len(kw) > 0 {
			return cx{}, errUnmodelled
		}
		return cx{fn: func(st *rstate) (value, error) {
			v, err := obj(st)
			if err != nil {
				return undef, err
			}
			return f(v)
		}}, nil
	}
	general := func(f func(st *rstate, v value, a []value, k []kwarg) (value, error)) (cx, error) {
		return cx{fn: func(st *rstate) (value, error) {
			v, err := obj(st)
			if err != nil {
				return undef, err
			}
			a, k, err := evalArgs(st, args, kw)
			if err != nil {
				return undef, err
			}
			return f(st, v, a, k)
		}}, nil
	}
	switch name {
	case "tojson":
		if len(args) > 0 {
			return cx{}, errUnmodelled // positional arguments: see tojson in hfjinja.go
		}
		if len(kw) == 0 {
			return cx{fn: func(st *rstate) (value, error) {
				v, err := obj(st)
				if err != nil {
					return undef, err
				}
				if v.k == vDict && v.dict().js != "" {
					return strV(v.dict().js), nil
				}
				b, err := appendJSON(nil, v, 0)
				return strV(string(b)), err
			}, write: func(st *rstate) error {
				v, err := obj(st)
				if err != nil {
					return err
				}
				st.out, err = appendJSON(st.out, v, 0)
				return err
			}}, nil
		}
		return general(func(_ *rstate, v value, _ []value, k []kwarg) (value, error) { return tojsonOpts(v, k) })
	case "trim":
		return general(func(_ *rstate, v value, a []value, k []kwarg) (value, error) {
			if len(k) == 1 && k[0].name == "chars" && len(a) == 0 {
				a = []value{k[0].val}
			} else if len(k) > 0 || len(a) > 1 {
				return undef, unmodelled("trim arguments")
			}
			s, err := str(v)
			if err != nil {
				return undef, err
			}
			chars, ok, err := strArg(a, 0)
			if err != nil {
				return undef, err
			}
			return strV(pyStripStr(s, "strip", chars, ok)), nil
		})
	case "length", "count":
		return simple(func(v value) (value, error) {
			n, err := pyLen(v)
			return intV(int64(n)), err
		})
	case "string":
		return simple(func(v value) (value, error) {
			if v.k == vStr {
				return v, nil
			}
			s, err := str(v)
			return strV(s), err
		})
	case "lower", "upper", "capitalize":
		return simple(func(v value) (value, error) {
			s, err := str(v)
			if err != nil {
				return undef, err
			}
			if !isASCII(s) {
				return undef, unmodelled(name + " of non-ASCII text")
			}
			return strV(asciiCase(s, name)), nil
		})
	case "first":
		return simple(func(v value) (value, error) {
			if v.k == vList && v.list().flavor == flGen {
				l := v.list()
				if l.used {
					return undef, unmodelled("a generator used twice")
				}
				l.used = true
				if len(l.items) == 0 {
					return undef, nil
				}
				return l.items[0], nil
			}
			items, err := iterate(v)
			if err != nil || len(items) == 0 {
				return undef, err
			}
			return items[0], nil
		})
	case "last":
		return simple(func(v value) (value, error) {
			if v.k == vList && v.list().flavor != flList && v.list().flavor != flTuple || v.k != vList && v.k != vStr {
				return undef, unmodelled("last of this value")
			}
			items, err := iterate(v)
			if err != nil || len(items) == 0 {
				return undef, err
			}
			return items[len(items)-1], nil
		})
	case "list":
		return simple(func(v value) (value, error) {
			items, err := iterate(v)
			if err != nil {
				return undef, err
			}
			return listV(append([]value(nil), items...), flList), nil
		})
	case "items":
		return simple(func(v value) (value, error) {
			switch v.k {
			case vUndef:
				return listV(nil, flGen), nil
			case vDict:
				d := v.dict()
				items := make([]value, len(d.keys))
				for i, k := range d.keys {
					items[i] = listV([]value{strV(k), d.vals[i]}, flTuple)
				}
				return listV(items, flGen), nil
			}
			return undef, unmodelled("items of this value")
		})
	case "join":
		return general(func(_ *rstate, v value, a []value, k []kwarg) (value, error) {
			if len(k) > 0 || len(a) > 1 {
				return undef, unmodelled("join arguments")
			}
			sep := ""
			if len(a) == 1 {
				s, err := str(a[0])
				if err != nil {
					return undef, err
				}
				sep = s
			}
			items, err := iterate(v)
			if err != nil {
				return undef, err
			}
			var b []byte
			for i, it := range items {
				if i > 0 {
					b = append(b, sep...)
				}
				if b, err = appendStr(b, it); err != nil {
					return undef, err
				}
			}
			return strV(string(b)), nil
		})
	case "default", "d":
		return general(func(_ *rstate, v value, a []value, k []kwarg) (value, error) {
			def, boolean := emptyStr, false
			if len(a) > 0 {
				def = a[0]
			}
			if len(a) > 1 {
				t, err := truth(a[1])
				if err != nil {
					return undef, err
				}
				boolean = t
			}
			for _, kv := range k {
				switch kv.name {
				case "default_value":
					def = kv.val
				case "boolean":
					t, err := truth(kv.val)
					if err != nil {
						return undef, err
					}
					boolean = t
				default:
					return undef, unmodelled("default argument " + kv.name)
				}
			}
			if len(a) > 2 {
				return undef, unmodelled("default arguments")
			}
			if v.k == vUndef {
				return def, nil
			}
			if boolean {
				t, err := truth(v)
				if err != nil {
					return undef, err
				}
				if !t {
					return def, nil
				}
			}
			return v, nil
		})
	case "replace":
		return general(func(_ *rstate, v value, a []value, k []kwarg) (value, error) {
			if len(k) > 0 || len(a) < 2 || len(a) > 3 {
				return undef, unmodelled("replace arguments")
			}
			s, err := str(v)
			if err != nil {
				return undef, err
			}
			old, err := str(a[0])
			if err != nil {
				return undef, err
			}
			nw, err := str(a[1])
			if err != nil {
				return undef, err
			}
			n := -1
			if len(a) == 3 {
				if a[2].k != vInt {
					return undef, unmodelled("replace count")
				}
				n = int(max(min(a[2].n, 1<<30), -1))
			}
			return strV(strings.Replace(s, old, nw, n)), nil
		})
	case "select", "reject", "selectattr", "rejectattr":
		return general(func(st *rstate, v value, a []value, k []kwarg) (value, error) {
			return selectFilter(name, v, a, k)
		})
	case "map":
		return general(func(_ *rstate, v value, a []value, k []kwarg) (value, error) {
			if len(a) > 0 || len(k) != 1 || k[0].name != "attribute" || k[0].val.k != vStr {
				return undef, unmodelled("map arguments")
			}
			items, err := iterate(v)
			if err != nil {
				return undef, err
			}
			out := make([]value, len(items))
			for i, it := range items {
				if out[i], err = attrPath(it, k[0].val.s); err != nil {
					return undef, err
				}
			}
			return listV(out, flGen), nil
		})
	}
	return cx{}, unmodelled("filter " + name)
}

// attrPath is Jinja2's make_attrgetter: a dotted path of items.
func attrPath(v value, path string) (value, error) {
	for _, part := range strings.Split(path, ".") {
		key := strV(part)
		if part != "" && part[0] >= '0' && part[0] <= '9' {
			return undef, unmodelled("a numeric attribute path")
		}
		var err error
		if v, err = getitem(v, key); err != nil {
			return undef, err
		}
	}
	return v, nil
}

func selectFilter(name string, v value, a []value, k []kwarg) (value, error) {
	if len(k) > 0 {
		return undef, unmodelled(name + " keyword arguments")
	}
	attr := ""
	if name == "selectattr" || name == "rejectattr" {
		if len(a) == 0 || a[0].k != vStr {
			return undef, unmodelled(name + " arguments")
		}
		attr, a = a[0].s, a[1:]
	}
	var test func(value) (bool, error)
	if len(a) == 0 {
		test = truth
	} else {
		if a[0].k != vStr {
			return undef, unmodelled("a test name that is not a string")
		}
		tf, ok := tests[a[0].s]
		if !ok {
			return undef, unmodelled("test " + a[0].s)
		}
		targs := a[1:]
		test = func(x value) (bool, error) { return tf(x, targs) }
	}
	items, err := iterate(v)
	if err != nil {
		return undef, err
	}
	keep := name == "select" || name == "selectattr"
	var out []value
	for _, it := range items {
		x := it
		if attr != "" {
			if x, err = attrPath(it, attr); err != nil {
				return undef, err
			}
		}
		t, err := test(x)
		if err != nil {
			return undef, err
		}
		if t == keep {
			out = append(out, it)
		}
	}
	return listV(out, flGen), nil
}

func tojsonOpts(v value, kw []kwarg) (value, error) {
	var opts []pyjson.Option
	for _, k := range kw {
		switch k.name {
		case "ensure_ascii":
			t, err := truth(k.val)
			if err != nil {
				return undef, err
			}
			if t {
				opts = append(opts, pyjson.EnsureASCII(true))
			}
		case "indent":
			switch k.val.k {
			case vNone:
			case vInt:
				opts = append(opts, pyjson.Indent(int(k.val.n)))
			case vStr:
				opts = append(opts, pyjson.IndentString(k.val.s))
			default:
				return undef, unmodelled("tojson indent")
			}
		case "separators":
			s := k.val
			if s.k == vNone {
				continue
			}
			if s.k != vList || (s.list().flavor != flList && s.list().flavor != flTuple) || len(s.list().items) != 2 ||
				s.list().items[0].k != vStr || s.list().items[1].k != vStr {
				return undef, unmodelled("tojson separators")
			}
			opts = append(opts, pyjson.Separators(s.list().items[0].s, s.list().items[1].s))
		case "sort_keys":
			t, err := truth(k.val)
			if err != nil {
				return undef, err
			}
			if t {
				opts = append(opts, pyjson.SortKeys(true))
			}
		default:
			return undef, unmodelled("tojson argument " + k.name)
		}
	}
	pv, err := toPy(v, 0)
	if err != nil {
		return undef, err
	}
	return strV(pyjson.Dumps(pv, opts...)), nil
}

// ---------------------------------------------------------------- tests

var tests = testTable()

func testTable() map[string]func(v value, args []value) (bool, error) {
	noArgs := func(f func(v value) bool) func(value, []value) (bool, error) {
		return func(v value, args []value) (bool, error) {
			if len(args) > 0 {
				return false, unmodelled("test arguments")
			}
			return f(v), nil
		}
	}
	cmp := func(op string) func(value, []value) (bool, error) {
		return func(v value, args []value) (bool, error) {
			if len(args) != 1 {
				return false, unmodelled("test arguments")
			}
			return compareOp(op, v, args[0])
		}
	}
	t := map[string]func(value, []value) (bool, error){
		"defined":   noArgs(func(v value) bool { return v.k != vUndef }),
		"undefined": noArgs(func(v value) bool { return v.k == vUndef }),
		"none":      noArgs(func(v value) bool { return v.k == vNone }),
		"string":    noArgs(func(v value) bool { return v.k == vStr }),
		"mapping":   noArgs(func(v value) bool { return v.k == vDict }),
		"number":    noArgs(isNum),
		"integer":   noArgs(func(v value) bool { return v.k == vInt }),
		"float":     noArgs(func(v value) bool { return v.k == vFloat }),
		"boolean":   noArgs(func(v value) bool { return v.k == vBool }),
		"true":      noArgs(func(v value) bool { return v.k == vBool && v.n == 1 }),
		"false":     noArgs(func(v value) bool { return v.k == vBool && v.n == 0 }),
		"iterable": func(v value, args []value) (bool, error) {
			if len(args) > 0 {
				return false, unmodelled("test arguments")
			}
			switch v.k {
			case vStr, vList, vDict, vUndef, vLoop:
				return true, nil
			case vNone, vBool, vInt, vFloat, vNS:
				return false, nil
			}
			return false, unmodelled("iterable test of this value")
		},
		"sequence": func(v value, args []value) (bool, error) {
			if len(args) > 0 {
				return false, unmodelled("test arguments")
			}
			switch v.k {
			case vStr, vDict, vUndef:
				return true, nil
			case vList:
				f := v.list().flavor
				return f == flList || f == flTuple || f == flRange, nil
			case vNone, vBool, vInt, vFloat, vNS:
				return false, nil
			}
			return false, unmodelled("sequence test of this value")
		},
		"equalto": cmp("=="), "eq": cmp("=="), "==": cmp("=="),
		"ne": cmp("!="), "!=": cmp("!="),
		"lt": cmp("<"), "<": cmp("<"), "lessthan": cmp("<"),
		"gt": cmp(">"), ">": cmp(">"), "greaterthan": cmp(">"),
		"le": cmp("<="), "<=": cmp("<="),
		"ge": cmp(">="), ">=": cmp(">="),
		"in": cmp("in"),
		"sameas": func(v value, args []value) (bool, error) {
			if len(args) != 1 {
				return false, unmodelled("test arguments")
			}
			o := args[0]
			switch {
			case v.k == vNone || o.k == vNone:
				return v.k == o.k, nil
			case v.k == vBool && o.k == vBool:
				return v.n == o.n, nil
			case v.k == vBool || o.k == vBool:
				return false, nil
			}
			return false, unmodelled("sameas of these values")
		},
		"odd": func(v value, args []value) (bool, error) {
			if len(args) > 0 || v.k != vInt {
				return false, unmodelled("odd test")
			}
			return v.n%2 != 0, nil
		},
		"even": func(v value, args []value) (bool, error) {
			if len(args) > 0 || v.k != vInt {
				return false, unmodelled("even test")
			}
			return v.n%2 == 0, nil
		},
		"divisibleby": func(v value, args []value) (bool, error) {
			if len(args) != 1 || v.k != vInt || args[0].k != vInt || args[0].n == 0 {
				return false, unmodelled("divisibleby test")
			}
			return v.n%args[0].n == 0, nil
		},
	}
	return t
}

func makeTest(name string, neg bool, x cx, args []expr, kw []cxArg) (cx, error) {
	tf, ok := tests[name]
	if !ok || len(kw) > 0 {
		return cx{}, unmodelled("test " + name)
	}
	obj := x.fn
	if (name == "defined" || name == "undefined") && len(args) == 0 {
		// x is defined: whether x is Undefined.
		neg = neg != (name == "undefined")
		return boolCx(func(st *rstate) (bool, error) {
			v, err := obj(st)
			return (v.k != vUndef) != neg, err
		}), nil
	}
	if len(args) == 0 {
		return boolCx(func(st *rstate) (bool, error) {
			v, err := obj(st)
			if err != nil {
				return false, err
			}
			r, err := tf(v, nil)
			return r != neg, err
		}), nil
	}
	return boolCx(func(st *rstate) (bool, error) {
		v, err := obj(st)
		if err != nil {
			return false, err
		}
		a, _, err := evalArgs(st, args, nil)
		if err != nil {
			return false, err
		}
		r, err := tf(v, a)
		return r != neg, err
	}), nil
}
