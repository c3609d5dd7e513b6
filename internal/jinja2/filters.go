package jinja2

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rolemark/rolemark/internal/pyjson"
)

// Jinja2 3.1's builtin filters (jinja2/filters.py).

// bind matches a filter's arguments to its parameters as Python does:
// positions first, then keywords; set[i] tells which were given. Both
// slices are b's memory.
//
// Its errors are Python's for the filter's function, name: the counts of
// positional arguments include the value and, for a filter that takes
// the environment or the eval context first, that one (filterCtxArg),
// and the parameters filterRequired names are required.
func (b *bound) bind(name string, args []Value, kw []Kwarg, params ...string) ([]Value, []bool, error) {
	out := b.args[:len(params)]
	set := b.set[:len(params)]
	// as CPython binds a call: the positional arguments, then the
	// keywords (their errors first), then the count of positions
	for i, a := range args[:min(len(args), len(params))] {
		out[i], set[i] = a, true
	}
	for _, k := range kw {
		for _, p := range filterLeadParams[name] {
			if k.Name == p {
				return nil, nil, typeErr("%s() got multiple values for argument '%s'", name, p)
			}
		}
		found := false
		for i, p := range params {
			if p == k.Name {
				if set[i] {
					return nil, nil, typeErr("%s() got multiple values for argument '%s'", name, p)
				}
				out[i], set[i], found = k.Value, true, true
			}
		}
		if !found {
			return nil, nil, typeErr("%s() got an unexpected keyword argument '%s'", name, k.Name)
		}
	}
	if len(args) > len(params) {
		lead := 1
		if filterCtxArg[name] {
			lead = 2
		}
		lo, hi := lead+filterRequired[name], lead+len(params)
		if lo == hi {
			return nil, nil, typeErr("%s() takes %d positional arguments but %d were given", name, hi, len(args)+lead)
		}
		return nil, nil, typeErr("%s() takes from %d to %d positional arguments but %d were given", name, lo, hi, len(args)+lead)
	}
	if err := missingArgs(name, set, params[:min(filterRequired[name], len(params))]); err != nil {
		return nil, nil, err
	}
	return out, set, nil
}

// filterCtxArg names the filter functions that take the environment, the
// eval context or the context before the value (pass_environment and the
// like), which Python counts among the positional arguments.
var filterCtxArg = map[string]bool{
	"sync_do_join": true, "do_replace": true, "do_sort": true, "sync_do_unique": true, "do_min": true,
	"do_max": true, "do_truncate": true, "sync_do_groupby": true, "sync_do_sum": true, "do_attr": true,
	"do_tojson": true, "do_xmlattr": true, "do_urlize": true, "do_wordwrap": true,
}

// filterRequired is how many of a filter function's first parameters
// after the value have no default.
var filterRequired = map[string]int{
	"do_replace": 2, "sync_do_slice": 1, "do_batch": 1, "sync_do_groupby": 1, "do_attr": 1,
	"test_in": 1, "test_divisibleby": 1, "test_sameas": 1,
}

// missingArgs is Python's TypeError for required parameters not given:
// "missing 2 required positional arguments: 'old' and 'new'".
func missingArgs(name string, set []bool, required []string) error {
	var miss []string
	for i, p := range required {
		if !set[i] {
			miss = append(miss, "'"+p+"'")
		}
	}
	switch len(miss) {
	case 0:
		return nil
	case 1:
		return typeErr("%s() missing 1 required positional argument: %s", name, miss[0])
	case 2:
		return typeErr("%s() missing 2 required positional arguments: %s and %s", name, miss[0], miss[1])
	}
	return typeErr("%s() missing %d required positional arguments: %s, and %s", name, len(miss), strings.Join(miss[:len(miss)-1], ", "), miss[len(miss)-1])
}

// bound is the memory of bind's answer, on the caller's stack (var bd
// bound): a filter call with arguments allocated both slices.
type bound struct {
	args [maxParams]Value
	set  [maxParams]bool
}

// maxParams is the most parameters a call bound by bind has (urlize).
const maxParams = 5

// onlyValue is a filter whose Python function takes the value alone:
// arguments are a TypeError of the call.
func onlyValue(name string, f Filter) Filter {
	return onlyValueAfter(name, 0, f)
}

// onlyValueAfter is onlyValue of a function that Jinja2 passes pass
// arguments before the value (the environment: sync_do_first(environment,
// seq)), which its messages count.
func onlyValueAfter(name string, pass int, f Filter) Filter {
	return func(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
		if len(kw) > 0 {
			return Value{}, leadKwOrUnexpected(name, kw[0].Name)
		}
		if len(args) > 0 {
			return Value{}, typeErr("%s() takes %d positional argument%s but %d were given", name, 1+pass, plural(1+pass), len(args)+1+pass)
		}
		return f(c, v, args, kw)
	}
}

// leadKwOrUnexpected is the TypeError of a keyword, k, a function of no
// other parameters than the ones the filter fills gets: one of those is
// given twice (markupsafe's escape and soft_str take theirs by position
// only), any other is unexpected.
func leadKwOrUnexpected(name, k string) error {
	for _, p := range filterLeadParams[name] {
		if k == p {
			if name == "escape" || name == "soft_str" {
				return typeErr("%s() got some positional-only arguments passed as keyword arguments: '%s'", name, k)
			}
			return typeErr("%s() got multiple values for argument '%s'", name, p)
		}
	}
	return typeErr("%s() got an unexpected keyword argument '%s'", name, k)
}

// checkArgs binds a call's arguments as bind does, and checks that the
// first required params are given: what calling a generator function
// (batch, slice, unique) checks before its body runs.
func checkArgs(name string, args []Value, kw []Kwarg, required int, params ...string) error {
	var bd bound
	_, _, err := bd.bindRequired(name, required, args, kw, params...)
	return err
}

// bindRequired is bind of a function whose first required params have no
// default: one not given is Python's TypeError for the first of them.
func (bd *bound) bindRequired(name string, required int, args []Value, kw []Kwarg, params ...string) ([]Value, []bool, error) {
	a, set, err := bd.bind(name, args, kw, params...)
	if err != nil {
		return nil, nil, err
	}
	for i := 0; i < required; i++ {
		if !set[i] {
			return nil, nil, typeErr("%s() missing 1 required positional argument: '%s'", name, params[i])
		}
	}
	return a, set, nil
}

func filterErr(format string, a ...any) error {
	return pyErr("FilterArgumentError", format, a...)
}

// softStr is markupsafe.soft_str: Markup stays Markup, anything else is
// its str.
func softStr(c *Ctx, v Value) (Value, error) {
	if v.kind == KindStr {
		return v, nil
	}
	s, err := ToStr(c, v)
	return StrV(s), err
}

// ignoreCase lowers a str (the sort key of case-insensitive filters).
func ignoreCase(v Value) Value {
	if v.kind == KindStr {
		return StrV(pyLower(v.s))
	}
	return v
}

// attrPartsErr splits an attribute path "a.0.b" into lookups, as
// _prepare_attribute_parts does: a part that str.isdigit
// accepts is int(part), any script's decimal digits; a digit that is no
// decimal (①, ²) is int()'s ValueError.
func attrPartsErr(attr Value) ([]Value, error) {
	if attr.kind == KindNone || (attr.kind == KindUndefined && attr.s == "") {
		return nil, nil
	}
	if attr.kind != KindStr {
		return []Value{attr}, nil
	}
	var parts []Value
	for _, p := range strings.Split(attr.s, ".") {
		if p != "" && allChars(p, pyIsDigit) {
			if !allChars(p, pyIsDecimal) {
				return nil, valueErr("invalid literal for int() with base 10: %s", reprStr(p))
			}
			ascii := make([]byte, 0, len(p))
			for _, r := range p {
				ascii = append(ascii, byte('0'+pyDecimalValue(r)))
			}
			if n, err := strconv.ParseInt(string(ascii), 10, 64); err == nil {
				parts = append(parts, IntV(n))
			} else {
				b, _ := new(big.Int).SetString(string(ascii), 10)
				parts = append(parts, BigIntV(b))
			}
			continue
		}
		part := StrV(p)
		if attr.IsSafe() {
			// Markup.split gives Markup parts, which an Undefined names
			// with their repr
			part = SafeV(p)
		}
		parts = append(parts, part)
	}
	return parts, nil
}

// attrGetter is make_attrgetter.
func attrGetter(c *Ctx, attr Value, lower bool, def *Value) func(Value) (Value, error) {
	parts, perr := attrPartsErr(attr)
	if perr != nil {
		return func(Value) (Value, error) { return Value{}, perr }
	}
	return func(item Value) (Value, error) {
		for _, p := range parts {
			var err error
			if item, err = GetItem(c, item, p); err != nil {
				return Value{}, err
			}
			if def != nil && item.kind == KindUndefined {
				item = *def
			}
		}
		if lower {
			item = ignoreCase(item)
		}
		return item, nil
	}
}

// multiAttrGetter is make_multi_attrgetter: "a,b" gives a list of keys.
func multiAttrGetter(c *Ctx, attr Value, lower bool) func(Value) (Value, error) {
	if attr.kind != KindStr || !strings.Contains(attr.s, ",") {
		g := attrGetter(c, attr, lower, nil)
		if attr.kind == KindStr || isIntLike(attr) {
			return func(item Value) (Value, error) {
				v, err := g(item)
				return ListV([]Value{v}), err
			}
		}
		return func(item Value) (Value, error) {
			v, err := g(item)
			return ListV([]Value{v}), err
		}
	}
	var gs []func(Value) (Value, error)
	for _, a := range strings.Split(attr.s, ",") {
		part := StrV(a)
		if attr.IsSafe() {
			part = SafeV(a)
		}
		gs = append(gs, attrGetter(c, part, lower, nil))
	}
	return func(item Value) (Value, error) {
		out := make([]Value, len(gs))
		for i, g := range gs {
			v, err := g(item)
			if err != nil {
				return Value{}, err
			}
			out[i] = v
		}
		return ListV(out), nil
	}
}

// generator is what Jinja2's generator filters give (map, select, reject,
// unique, batch, slice, items, reverse of a list): iterable once, always
// true, without a length.
type generator struct {
	items []Value
	used  bool
	typ   string // "generator", "list_reverseiterator", …
	fn    string // the generator function's name, for the repr
	err   error  // raised when iterated (a generator that fails at once)
	// produce, when set, computes the items when the generator is first
	// consumed: a generator filter's errors are raised there, as
	// Python's generators raise them.
	produce func() ([]Value, error)
	// step, when set, takes the next item: map, select and reject of the
	// loop variable, read one item at a time (stepper)
	step func() (Value, bool, error)
	pos  int // the items taken so far (next, a partial read)
	// src is an eachGen generator's source, which its step reads
	src eachSource
	// dict is the dict do_items yields the items of (items holds them as
	// they were): a loop whose body may change it steps it (dictStep)
	dict *Dict
}

// genCall calls a filter that Jinja2 writes as a generator function: the
// arguments are checked at once (as Python binds them, under the name fn),
// and items runs when the generator, named gen, is consumed.
func genCall(c *Ctx, v Value, args []Value, kw []Kwarg, fn, gen string, items Filter, required int, params ...string) (Value, error) {
	if err := checkArgs(fn, args, kw, required, params...); err != nil {
		return Value{}, err
	}
	return lazyGen(gen, func() ([]Value, error) {
		r, err := items(c, v, args, kw)
		return r.Items(), err
	}), nil
}

func fUnique(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	return genCall(c, v, args, kw, "sync_do_unique", "sync_do_unique", fUniqueItems, 0, "case_sensitive", "attribute")
}

func fSlice(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	return genCall(c, v, args, kw, "sync_do_slice", "sync_do_slice", fSliceItems, 1, "slices", "fill_with")
}

func fBatch(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	return genCall(c, v, args, kw, "do_batch", "do_batch", fBatchItems, 1, "linecount", "fill_with")
}

// lazyGen is a generator object of the function fn whose items produce
// computes when it is consumed.
func lazyGen(fn string, produce func() ([]Value, error)) Value {
	return ObjectV(&generator{typ: "generator", fn: fn, produce: produce})
}

// genV is a generator object of the function fn.
func genV(fn string, items []Value) Value {
	return ObjectV(&generator{items: items, typ: "generator", fn: fn})
}

// iterV is an iterator object of the type typ (list_reverseiterator).
func iterV(typ string, items []Value) Value { return ObjectV(&generator{items: items, typ: typ}) }

func (g *generator) TypeName() string               { return g.typ }
func (g *generator) Attr(name string) (Value, bool) { return Value{}, false }
func (g *generator) Truth() bool                    { return true }
func (g *generator) Repr() string {
	if g.fn != "" {
		return "<generator object " + g.fn + " at " + addr(g) + ">"
	}
	return "<" + g.typ + " object at " + addr(g) + ">"
}
func (g *generator) Iter(c *Ctx) ([]Value, error) {
	if g.step != nil || g.src.start != nil {
		var out []Value
		for {
			v, ok, err := g.take()
			if err != nil || !ok {
				return out, err
			}
			out = append(out, v)
		}
	}
	if !g.used {
		if err := g.start(); err != nil {
			return nil, err
		}
	}
	rest := g.items[g.pos:]
	g.pos = len(g.items)
	return rest, nil
}

// start makes the items when the generator is first read; an error ends
// it, as a Python generator that raised.
func (g *generator) start() error {
	g.used = true
	err := g.err
	if err == nil && g.produce != nil {
		g.items, err = g.produce()
	}
	if err != nil {
		g.items = nil
	}
	return err
}

// next is next(gen): it takes the generator's next item, so that what is
// read after it starts with the item after (first, x in gen).
func (g *generator) next() (Value, bool, error) {
	if g.step != nil || g.src.start != nil {
		return g.take()
	}
	if !g.used {
		if err := g.start(); err != nil {
			return Value{}, false, err
		}
	}
	if g.pos >= len(g.items) {
		return Value{}, false, nil
	}
	g.pos++
	return g.items[g.pos-1], true, nil
}

func iterOf(c *Ctx, v Value) ([]Value, error) { return Iterate(c, v) }

// stepper returns the function that takes v's next item when v is an
// iterator whose items show when they were taken: the loop variable, and
// map, select and reject of it (Python's generators, which take an item
// of their source as they give one).
func stepper(v Value) (func() (Value, bool, error), bool) {
	if v.kind != KindObject {
		return nil, false
	}
	switch o := v.ref.(type) {
	case *loopObj:
		return o.step, true
	case *generator:
		if o.step != nil {
			return o.step, true
		}
		if o.src.start != nil {
			return o.eachStep, true
		}
	}
	return nil, false
}

// stepGen is a generator of the function fn over the stepped source src:
// start, called when the generator is first read, returns what makes an
// item of each of src's (keep false to skip one).
func stepGen(name string, src func() (Value, bool, error), start func() (func(Value) (Value, bool, error), error)) Value {
	var each func(Value) (Value, bool, error)
	g := &generator{typ: "generator", fn: name}
	g.step = func() (Value, bool, error) {
		if each == nil {
			var err error
			if each, err = start(); err != nil {
				g.step = func() (Value, bool, error) { return Value{}, false, nil }
				return Value{}, false, err
			}
		}
		for {
			it, ok, err := src()
			if err != nil || !ok {
				return Value{}, false, err
			}
			r, keep, err := each(it)
			if err != nil || keep {
				return r, keep, err
			}
		}
	}
	return ObjectV(g)
}

// eachGen is a generator of the function name written as Jinja2's
// select_or_reject and sync_do_map are: when first read, it tests v's
// truth (a false v gives nothing), calls start for what makes an item of
// each of v's (keep false to skip one), and iterates v; then it takes
// v's items one at a time, as Python's generator does, so that a reader
// that stops early (break, first, in) never reaches the items after,
// nor their errors. A generator that raised is done.
func eachGen(name string, c *Ctx, v Value, start func() (func(Value) (Value, bool, error), error)) Value {
	g := &generator{typ: "generator", fn: name, src: eachSource{c: c, v: v, start: start}}
	return ObjectV(g)
}

// take is a stepped generator's step: its own, or eachStep.
func (g *generator) take() (Value, bool, error) {
	if g.step != nil {
		return g.step()
	}
	return g.eachStep()
}

// eachSource is what an eachGen generator reads: v, and what start
// gives once v proved true (each) and iterable (items, from pos on).
type eachSource struct {
	c     *Ctx
	v     Value
	start func() (func(Value) (Value, bool, error), error)
	each  func(Value) (Value, bool, error)
	items []Value
	pos   int
	done  bool
}

// eachStep is an eachGen generator's step.
func (g *generator) eachStep() (Value, bool, error) {
	s := &g.src
	if s.done {
		return Value{}, false, nil
	}
	if s.each == nil {
		if !s.v.Truth() {
			s.done = true
			return Value{}, false, nil
		}
		each, err := s.start()
		if err == nil {
			s.items, err = Iterate(s.c, s.v)
		}
		if err != nil {
			s.done = true
			return Value{}, false, err
		}
		s.each = each
	}
	for s.pos < len(s.items) {
		it := s.items[s.pos]
		s.pos++
		r, keep, err := s.each(it)
		if err != nil {
			s.done = true
			return Value{}, false, err
		}
		if keep {
			return r, true, nil
		}
	}
	s.done = true
	return Value{}, false, nil
}

// eachItem returns fn of each item of v that fn keeps, in order. The loop
// variable is an iterator in Jinja2, which a filter reads one item at a
// time: fn runs on each item before the next is taken, so what it sees of
// the loop (a pair's loop.index, its str) is the loop at that item.
func eachItem(c *Ctx, v Value, fn func(Value) (Value, bool, error)) ([]Value, error) {
	step, stepped := stepper(v)
	var items []Value
	if !stepped {
		var err error
		if items, err = Iterate(c, v); err != nil {
			return nil, err
		}
	}
	var out []Value
	for i := 0; ; i++ {
		var it Value
		if stepped {
			p, ok, err := step()
			if err != nil {
				return nil, err
			}
			if !ok {
				break
			}
			it = p
		} else {
			if i >= len(items) {
				break
			}
			it = items[i]
		}
		r, keep, err := fn(it)
		if err != nil {
			return nil, err
		}
		if keep {
			if out == nil {
				out = make([]Value, 0, max(len(items)-i, 1))
			}
			out = append(out, r)
		}
	}
	return out, nil
}

func sortKeyed(c *Ctx, items []Value, keys []Value, reverse bool) ([]Value, error) {
	idx := make([]Value, len(items))
	for i := range items {
		idx[i] = IntV(int64(i))
	}
	key := FuncV(&Func{Name: "key", Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
		return keys[args[0].n], nil
	}})
	if err := sortValues(c, idx, key, reverse); err != nil {
		return nil, err
	}
	out := make([]Value, len(items))
	for i, j := range idx {
		out[i] = items[j.n]
	}
	return out, nil
}

func fAbs(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	// the filter is Python's builtin abs, a METH_O function
	if len(kw) > 0 {
		return Value{}, typeErr("abs() takes no keyword arguments")
	}
	if len(args) > 0 {
		return Value{}, typeErr("abs() takes exactly one argument (%d given)", len(args)+1)
	}
	switch {
	case v.kind == KindFloat:
		return FloatV(math.Abs(v.f())), nil
	case isIntLike(v):
		if v.ref == nil && v.n >= 0 {
			return IntV(v.n), nil
		}
		return normBig(new(big.Int).Abs(bigOf(v))), nil
	}
	if z, ok := v.ref.(*complexObj); ok && v.kind == KindObject {
		return complexAbs(z)
	}
	return Value{}, typeErr("bad operand type for abs(): '%s'", TypeName(v))
}

func fDefault(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bind("do_default", args, kw, "default_value", "boolean")
	if err != nil {
		return Value{}, err
	}
	def := StrV("")
	if set[0] {
		def = a[0]
	}
	if v.kind == KindUndefined || set[1] && a[1].Truth() && !v.Truth() {
		return def, nil
	}
	return v, nil
}

func fJoin(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bind("sync_do_join", args, kw, "d", "attribute")
	if err != nil {
		return Value{}, err
	}
	d := StrV("")
	if set[0] {
		d = a[0]
	}
	g := func(it Value) (Value, error) { return it, nil }
	if set[1] && a[1].kind != KindNone {
		g = attrGetter(c, a[1], false, nil)
	}
	// str.join (and Markup.join) writes each item as it takes it; only
	// under autoescape with a plain delimiter does join list them first
	perItem := !autoescaping(c) || d.IsSafe()
	_, stepped := stepper(v)
	items, err := eachItem(c, v, func(it Value) (Value, bool, error) {
		x, err := g(it)
		if err != nil || !stepped || !perItem {
			return x, true, err
		}
		if autoescaping(c) {
			s, err := escapeValue(c, x)
			return SafeV(s), true, err
		}
		s, err := ToStr(c, x)
		return StrV(s), true, err
	})
	if err != nil {
		return Value{}, err
	}
	if perItem {
		if autoescaping(c) {
			parts := make([]string, len(items))
			for i, it := range items {
				if parts[i], err = escapeValue(c, it); err != nil {
					return Value{}, err
				}
			}
			ds, _ := softStr(c, d)
			return SafeV(strings.Join(parts, ds.s)), nil
		}
		ds, err := ToStr(c, d)
		if err != nil {
			return Value{}, err
		}
		parts := make([]string, len(items))
		size := 0
		for i, it := range items {
			if parts[i], err = ToStr(c, it); err != nil {
				return Value{}, err
			}
			size += len(parts[i]) + len(ds)
		}
		if size > 1<<16 {
			if err := grow(c, size); err != nil {
				return Value{}, err
			}
		}
		return StrV(strings.Join(parts, ds)), nil
	}
	anySafe := false
	for _, it := range items {
		// hasattr(item, "__html__"): Markup, a module, the class Markup
		if it.IsSafe() || hasHTML(it) || classHTMLErr(it) != nil {
			anySafe = true
		}
	}
	parts := make([]string, len(items))
	for i, it := range items {
		if anySafe {
			parts[i], err = escapeValue(c, it)
		} else {
			parts[i], err = ToStr(c, it)
		}
		if err != nil {
			return Value{}, err
		}
	}
	if anySafe {
		ds, err := escapeValue(c, d)
		if err != nil {
			return Value{}, err
		}
		return SafeV(strings.Join(parts, ds)), nil
	}
	ds, err := ToStr(c, d)
	if err != nil {
		return Value{}, err
	}
	return StrV(strings.Join(parts, ds)), nil
}

func fLength(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	if len(kw) > 0 {
		return Value{}, typeErr("len() takes no keyword arguments")
	}
	if len(args) > 0 {
		return Value{}, typeErr("len() takes exactly one argument (%d given)", len(args)+1)
	}
	n, err := Len(v)
	return IntV(int64(n)), err
}

func fList(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	items, err := iterOf(c, v)
	if err != nil {
		return Value{}, err
	}
	return ListV(append([]Value(nil), items...)), nil
}

func fFirst(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	step, ok := stepper(v)
	if g, isGen := v.ref.(*generator); isGen && v.kind == KindObject {
		step, ok = g.next, true
	}
	if ok {
		// next(iter(x)) of an iterator: it moves on by one item
		p, ok, err := step()
		if err != nil || ok {
			return p, err
		}
		return Undef("No first item, sequence was empty."), nil
	}
	if r, ok := v.ref.(*lazyRange); ok && v.kind == KindObject {
		if it, ok := r.Item(IntV(0)); ok {
			return it, nil
		}
		return Undef("No first item, sequence was empty."), nil
	}
	items, err := iterOf(c, v)
	if err != nil {
		return Value{}, err
	}
	if len(items) == 0 {
		return Undef("No first item, sequence was empty."), nil
	}
	return items[0], nil
}

func fLast(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	if v.kind == KindStr && v.s != "" {
		// reversed(s) reads s[i], so the last of a Markup is a Markup
		return GetItem(c, v, IntV(-1))
	}
	switch v.kind {
	case KindStr, KindList, KindTuple, KindDict, KindUndefined:
	default:
		switch v.ref.(type) {
		case *dictView, *rangeObj, *namedTuple, *bytesObj:
		case *lazyRange:
			// reversed(range) is lazy: its first item is r[-1]
			if it, ok := v.ref.(*lazyRange).Item(IntV(-1)); ok {
				return it, nil
			}
			return Undef("No last item, sequence was empty."), nil
		default:
			return Value{}, typeErr("'%s' object is not reversible", TypeName(v))
		}
	}
	items, err := iterOf(c, v)
	if err != nil {
		return Value{}, err
	}
	if len(items) == 0 {
		return Undef("No last item, sequence was empty."), nil
	}
	return items[len(items)-1], nil
}

func strFilter(f func(string) string) Filter {
	return func(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
		s, err := softStr(c, v)
		if err != nil {
			return Value{}, err
		}
		return markupOr(s, f(s.s)), nil
	}
}

// filterTitle is do_title, which joins the pieces of re.split: a str,
// also for Markup.
func filterTitle(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	s, err := softStr(c, v)
	if err != nil {
		return Value{}, err
	}
	return StrV(fTitle(s.s)), nil
}

func fTitle(s string) string {
	// re.split('([-\s({\[<]+)', s), each piece's first character upper
	var b strings.Builder
	start := 0
	isSep := func(r rune) bool {
		return r == '-' || r == '(' || r == '{' || r == '[' || r == '<' || pyIsSpace(r)
	}
	flush := func(piece string) {
		if piece == "" {
			return
		}
		r, n := utf8.DecodeRuneInString(piece)
		b.WriteString(pyUpper(string(r)))
		b.WriteString(pyLower(piece[n:]))
	}
	inSep := false
	for i, r := range s {
		if isSep(r) != inSep {
			flush(s[start:i])
			start = i
			inSep = !inSep
		}
	}
	flush(s[start:])
	return b.String()
}

func fTrim(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	if len(args) == 0 && len(kw) == 0 {
		// x|trim, the usual call, binds nothing
		s, err := softStr(c, v)
		if err != nil {
			return Value{}, err
		}
		return markupOr(s, pyStrip(s.s, nil, true, true)), nil
	}
	var bd bound
	a, set, err := bd.bind("do_trim", args, kw, "chars")
	if err != nil {
		return Value{}, err
	}
	s, err := softStr(c, v)
	if err != nil {
		return Value{}, err
	}
	if set[0] && a[0].kind != KindNone {
		return CallMethod(c, s, "strip", []Value{a[0]}, nil)
	}
	// s.strip(), without looking the method up
	return markupOr(s, pyStrip(s.s, nil, true, true)), nil
}

func fReplace(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bind("do_replace", args, kw, "old", "new", "count")
	if err != nil {
		return Value{}, err
	}
	count := IntV(-1)
	if set[2] && a[2].kind != KindNone {
		count = a[2]
	}
	if !autoescaping(c) {
		s, err := ToStr(c, v)
		if err != nil {
			return Value{}, err
		}
		o, err := ToStr(c, a[0])
		if err != nil {
			return Value{}, err
		}
		n, err := ToStr(c, a[1])
		if err != nil {
			return Value{}, err
		}
		return CallMethod(c, StrV(s), "replace", []Value{StrV(o), StrV(n), count}, nil)
	}
	var s Value
	if a[0].IsSafe() || a[1].IsSafe() && !v.IsSafe() {
		e, err := escapeValue(c, v)
		if err != nil {
			return Value{}, err
		}
		s = SafeV(e)
	} else if s, err = softStr(c, v); err != nil {
		return Value{}, err
	}
	o, err := softStr(c, a[0])
	if err != nil {
		return Value{}, err
	}
	n, err := softStr(c, a[1])
	if err != nil {
		return Value{}, err
	}
	return CallMethod(c, s, "replace", []Value{o, n, count}, nil)
}

func fItems(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	if v.kind == KindUndefined {
		return genV("do_items", nil), nil
	}
	if v.kind != KindDict {
		// raised when the generator is consumed, as Jinja2's do_items
		return ObjectV(&generator{typ: "generator", fn: "do_items", err: typeErr("Can only get item pairs from a mapping.")}), nil
	}
	d := v.dict()
	return ObjectV(&generator{items: (&dictView{d: d, what: "items"}).items(), typ: "generator", fn: "do_items", dict: d}), nil
}

func fDictsort(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bind("do_dictsort", args, kw, "case_sensitive", "by", "reverse")
	if err != nil {
		return Value{}, err
	}
	pos := 0
	if set[1] {
		switch {
		case a[1].kind == KindStr && a[1].s == "key":
		case a[1].kind == KindStr && a[1].s == "value":
			pos = 1
		default:
			return Value{}, filterErr("You can only sort by either \"key\" or \"value\"")
		}
	}
	if v.kind == KindUndefined {
		return Value{}, v.undefErr()
	}
	if v.kind != KindDict {
		return Value{}, notDictItems(c, v)
	}
	if set[2] {
		// sorted(value.items(), ..., reverse=r) takes r as a C int
		if _, err := cIntArg(a[2]); err != nil {
			return Value{}, err
		}
	}
	items := (&dictView{d: v.dict(), what: "items"}).items()
	keys := make([]Value, len(items))
	for i, it := range items {
		k := it.list().Items[pos]
		if !(set[0] && a[0].Truth()) {
			k = ignoreCase(k)
		}
		keys[i] = k
	}
	out, err := sortKeyed(c, items, keys, set[2] && a[2].Truth())
	return ListV(out), err
}

func fSort(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bind("do_sort", args, kw, "reverse", "case_sensitive", "attribute")
	if err != nil {
		return Value{}, err
	}
	items, err := iterOf(c, v)
	if err != nil {
		return Value{}, err
	}
	if set[0] {
		// sorted(..., reverse=r) takes r as a C int, before any key
		if _, err := cIntArg(a[0]); err != nil {
			return Value{}, err
		}
	}
	g := multiAttrGetter(c, a[2], !(set[1] && a[1].Truth()))
	keys := make([]Value, len(items))
	for i, it := range items {
		if keys[i], err = g(it); err != nil {
			return Value{}, err
		}
	}
	out, err := sortKeyed(c, items, keys, set[0] && a[0].Truth())
	return ListV(out), err
}

func fUniqueItems(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bind("sync_do_unique", args, kw, "case_sensitive", "attribute")
	if err != nil {
		return Value{}, err
	}
	items, err := iterOf(c, v)
	if err != nil {
		return Value{}, err
	}
	g := attrGetter(c, a[1], !(set[0] && a[0].Truth()), nil)
	seen := NewDict(len(items))
	var out []Value
	for _, it := range items {
		k, err := g(it)
		if err != nil {
			return Value{}, err
		}
		i, err := seen.find(k)
		if err != nil {
			return Value{}, err
		}
		if i < 0 {
			seen.Set(k, NoneV())
			out = append(out, it)
		}
	}
	return ListV(out), nil
}

func minMax(max bool) Filter {
	fn := "do_min"
	if max {
		fn = "do_max"
	}
	return func(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
		var bd bound
		a, set, err := bd.bind(fn, args, kw, "case_sensitive", "attribute")
		if err != nil {
			return Value{}, err
		}
		items, err := iterOf(c, v)
		if err != nil {
			return Value{}, err
		}
		if len(items) == 0 {
			return Undef("No aggregated item, sequence was empty."), nil
		}
		g := attrGetter(c, a[1], !(set[0] && a[0].Truth()), nil)
		best, bestKey := items[0], Value{}
		if bestKey, err = g(best); err != nil {
			return Value{}, err
		}
		for _, it := range items[1:] {
			k, err := g(it)
			if err != nil {
				return Value{}, err
			}
			var better bool
			if max {
				better, err = Compare(c, ">", k, bestKey)
			} else {
				better, err = Compare(c, "<", k, bestKey)
			}
			if err != nil {
				return Value{}, err
			}
			if better {
				best, bestKey = it, k
			}
		}
		return best, nil
	}
}

func fCenter(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bind("do_center", args, kw, "width")
	if err != nil {
		return Value{}, err
	}
	w := IntV(80)
	if set[0] {
		w = a[0]
	}
	s, err := softStr(c, v)
	if err != nil {
		return Value{}, err
	}
	return CallMethod(c, s, "center", []Value{w}, nil)
}

func fFilesize(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bind("do_filesizeformat", args, kw, "binary")
	if err != nil {
		return Value{}, err
	}
	fv, err := pyFloat(v)
	if err != nil {
		return Value{}, err
	}
	bytes := fv
	binary := set[0] && a[0].Truth()
	base := 1000.0
	prefixes := []string{"kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"}
	if binary {
		base = 1024
		prefixes = []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"}
	}
	if bytes == 1 {
		return StrV("1 Byte"), nil
	}
	if bytes < base {
		if math.IsInf(bytes, -1) {
			// int(bytes)
			return Value{}, pyErr("OverflowError", "cannot convert float infinity to integer")
		}
		n, err := ToStr(c, bigFloatInt(bytes))
		return StrV(n + " Bytes"), err
	}
	var unit float64
	var prefix string
	for i, p := range prefixes {
		unit = math.Pow(base, float64(i+2))
		prefix = p
		if bytes < unit {
			break
		}
	}
	s, err := formatFloat(base*bytes/unit, ".1f")
	return StrV(s + " " + prefix), err
}

// pyFloat is Python's float(v).
func pyFloat(v Value) (float64, error) {
	if b, ok := v.ref.(*bytesObj); ok && v.kind == KindObject {
		// float(bytes) reads the bytes as ASCII text
		f, err := pyFloat(bytesAsText(b))
		if err != nil {
			return 0, valueErr("could not convert string to float: %s", b.Repr())
		}
		return f, nil
	}
	switch {
	case isNum(v):
		return toFloat(v)
	case v.kind == KindStr:
		s := strings.TrimFunc(pyNumText(v.s), numSpace)
		low := strings.ToLower(s)
		if low != "" && (low[0] == '+' || low[0] == '-') {
			low = low[1:]
		}
		switch low {
		case "inf", "infinity", "nan":
			f, _ := strconv.ParseFloat(strings.Replace(s, "inity", "", 1), 64)
			if low == "nan" {
				f = math.NaN()
			}
			return f, nil
		}
		clean := strings.ReplaceAll(s, "_", "")
		if !digitUnderscores(s, 0, 10) || strings.ContainsAny(strings.ToLower(clean), "xpi") {
			return 0, valueErr("could not convert string to float: %s", Repr(v))
		}
		f, err := strconv.ParseFloat(clean, 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				return f, nil
			}
			return 0, valueErr("could not convert string to float: %s", Repr(v))
		}
		return f, nil
	case v.kind == KindUndefined:
		return 0, v.undefErr()
	}
	return 0, typeErr("float() argument must be a string or a real number, not '%s'", TypeName(v))
}

// pyNumText is the text int() and float() parse in a str, as CPython's
// _PyUnicode_TransformDecimalAndSpaceToASCII makes it: a str of ASCII as
// it is; otherwise each white space character beyond ASCII is a space,
// each decimal digit (Nd: '٣', '３') its ASCII digit, and the text ends
// with a "?" at the first other character beyond ASCII, which no number
// holds.
func pyNumText(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		switch {
		case r < 0x7f:
			b = append(b, byte(r))
		case pyIsSpace(r):
			b = append(b, ' ')
		case pyIsDecimal(r):
			b = append(b, byte('0'+pyDecimalValue(r)))
		default:
			return string(append(b, '?'))
		}
	}
	return string(b)
}

// pyDecimalValue is the value of a decimal digit (Nd): Unicode keeps each
// script's digits 0 to 9 together, in runs of ten one after the other.
func pyDecimalValue(r rune) int {
	start := r
	for start > 0 && unicode.Is(unicode.Nd, start-1) {
		start--
	}
	return int(r-start) % 10
}

// numSpace is the white space int() and float() strip from a str:
// str.isspace but for \x1c to \x1f, which CPython's parser, reading
// ASCII as C does, keeps.
func numSpace(r rune) bool { return pyIsSpace(r) && (r < 0x1c || r > 0x1f) }

// bytesAsText is the text int() and float() read in bytes: CPython
// parses the bytes themselves, so only ASCII counts and only C's white
// space is stripped (numSpace, in ASCII); anything else is a str that
// cannot parse.
func bytesAsText(b *bytesObj) Value {
	for i := 0; i < len(b.b); i++ {
		if b.b[i] >= 0x80 {
			return StrV("\x00")
		}
	}
	return StrV(b.b)
}

// digitUnderscores reports whether each underscore of s[from:] stands
// between two digits (of base 10, or letters too for a base up to 36),
// as Python's int() and float() of a str allow them.
func digitUnderscores(s string, from, base int) bool {
	digit := func(c byte) bool {
		return c >= '0' && c <= '9' || base > 10 && (c|0x20 >= 'a' && c|0x20 <= 'z')
	}
	for i := from; i < len(s); i++ {
		if s[i] == '_' && (i == from || i+1 == len(s) || !digit(s[i-1]) || !digit(s[i+1])) {
			return false
		}
	}
	return true
}

// intLiteralRepr is how int()'s ValueError writes the str v: its repr,
// Markup('…') for a Markup (markupsafe's %d calls int() of one).
func intLiteralRepr(v Value) string {
	if v.IsSafe() {
		return Repr(v)
	}
	return reprStr(v.s)
}

// pyInt is Python's int(v) or int(v, base) for a str.
func pyInt(v Value, base int) (Value, error) {
	if b, ok := v.ref.(*bytesObj); ok && v.kind == KindObject {
		r, err := pyInt(bytesAsText(b), base)
		if err != nil {
			return Value{}, valueErr("invalid literal for int() with base %d: %s", base, b.Repr())
		}
		return r, nil
	}
	switch {
	case isIntLike(v):
		if v.kind == KindBool {
			return IntV(v.n), nil
		}
		return v, nil
	case v.kind == KindFloat:
		f := v.f()
		if math.IsNaN(f) {
			return Value{}, valueErr("cannot convert float NaN to integer")
		}
		if math.IsInf(f, 0) {
			return Value{}, pyErr("OverflowError", "cannot convert float infinity to integer")
		}
		return bigFloatInt(f), nil
	case v.kind == KindStr:
		s := strings.TrimFunc(pyNumText(v.s), numSpace)
		neg := false
		if s != "" && (s[0] == '+' || s[0] == '-') {
			neg = s[0] == '-'
			s = s[1:]
		}
		b := base
		low := strings.ToLower(s)
		prefixed := false
		if len(low) > 1 && low[0] == '0' && (b == 0 || b == 16 && low[1] == 'x' || b == 8 && low[1] == 'o' || b == 2 && low[1] == 'b') {
			switch low[1] {
			case 'x':
				b, s, prefixed = 16, s[2:], true
			case 'o':
				b, s, prefixed = 8, s[2:], true
			case 'b':
				b, s, prefixed = 2, s[2:], true
			}
			if prefixed && strings.HasPrefix(s, "_") {
				// one underscore may follow the prefix: int('0x_1f', 16)
				s = s[1:]
			}
		}
		if b == 0 {
			b = 10
			if len(s) > 1 && s[0] == '0' && strings.Trim(s, "0_") != "" {
				return Value{}, valueErr("invalid literal for int() with base %d: %s", base, intLiteralRepr(v))
			}
		}
		clean := strings.ReplaceAll(s, "_", "")
		n, ok := new(big.Int).SetString(clean, b)
		if !ok || clean == "" || !digitUnderscores(s, 0, 36) || strings.ContainsAny(clean, "+-") {
			return Value{}, valueErr("invalid literal for int() with base %d: %s", base, intLiteralRepr(v))
		}
		if neg {
			n.Neg(n)
		}
		return normBig(n), nil
	case v.kind == KindUndefined:
		return Value{}, v.undefErr()
	}
	return Value{}, typeErr("int() argument must be a string, a bytes-like object or a real number, not '%s'", TypeName(v))
}

func fInt(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bind("do_int", args, kw, "default", "base")
	if err != nil {
		return Value{}, err
	}
	def := IntV(0)
	if set[0] {
		def = a[0]
	}
	base := int64(10)
	badBase := false
	if set[1] {
		// int(value, base) raises TypeError or ValueError for a bad
		// base, which do_int catches
		var berr error
		base, berr = intArg(a[1])
		badBase = berr != nil || base != 0 && (base < 2 || base > 36)
	}
	if v.kind == KindStr {
		// with a bad base int(value, base) raises before reading the
		// str, so the str is read through float: a huge int loses digits
		if !badBase {
			if r, err := pyInt(v, int(base)); err == nil {
				return r, nil
			}
		}
	} else if r, err := pyInt(v, 10); err == nil {
		return r, nil
	} else if e, ok := err.(*Error); ok && e.Kind != "TypeError" && e.Kind != "ValueError" {
		return Value{}, err
	}
	f, err := pyFloat(v)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return def, nil
	}
	return bigFloatInt(f), nil
}

func fFloat(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bind("do_float", args, kw, "default")
	if err != nil {
		return Value{}, err
	}
	def := FloatV(0)
	if set[0] {
		def = a[0]
	}
	f, err := pyFloat(v)
	if err != nil {
		if e, ok := err.(*Error); ok && (e.Kind == "TypeError" || e.Kind == "ValueError") {
			return def, nil
		}
		return Value{}, err
	}
	return FloatV(f), nil
}

func fFormat(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	if err := leadKwErr("do_format", kw, "value"); err != nil {
		return Value{}, err
	}
	if len(args) > 0 && len(kw) > 0 {
		return Value{}, filterErr("can't handle positional and keyword arguments at the same time")
	}
	s, err := softStr(c, v)
	if err != nil {
		return Value{}, err
	}
	if len(kw) > 0 {
		d := NewDict(len(kw))
		for _, k := range kw {
			d.SetStr(k.Name, k.Value)
		}
		return percentFormat(c, s, DictV(d))
	}
	return percentFormat(c, s, TupleV(args))
}

// pyStrAdd is a + b of two strs, either of which may be Markup: Markup
// escapes the other.
func pyStrAdd(c *Ctx, a, b Value) Value {
	if a.IsSafe() || b.IsSafe() {
		x, _ := escapeValue(c, a)
		y, _ := escapeValue(c, b)
		return SafeV(x + y)
	}
	return StrV(a.s + b.s)
}

// pyStrJoin is sep.join(items) of strs: Markup's join escapes the items
// and gives Markup, str's gives a str whatever the items are.
func pyStrJoin(c *Ctx, sep Value, items []Value) Value {
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteString(sep.s)
		}
		if sep.IsSafe() {
			s, _ := escapeValue(c, it)
			b.WriteString(s)
		} else {
			b.WriteString(it.s)
		}
	}
	if sep.IsSafe() {
		return SafeV(b.String())
	}
	return StrV(b.String())
}

func fIndent(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bind("do_indent", args, kw, "width", "first", "blank")
	if err != nil {
		return Value{}, err
	}
	indention := StrV("    ")
	if set[0] {
		if a[0].kind == KindStr {
			indention = a[0]
		} else if a[0].kind == KindUndefined {
			return Value{}, a[0].undefErr() // " " * width
		} else if isIntLike(a[0]) && a[0].isBig() {
			return Value{}, pyErr("OverflowError", "cannot fit 'int' into an index-sized integer")
		} else {
			n, err := intArg(a[0])
			if err != nil {
				return Value{}, typeErr("can't multiply sequence by non-int of type '%s'", TypeName(a[0]))
			}
			if n > 0 {
				if err := growLimited(c, int(min(n, math.MaxInt))); err != nil {
					return Value{}, err
				}
				indention = StrV(strings.Repeat(" ", int(n)))
			} else {
				indention = StrV("")
			}
		}
	}
	switch v.kind {
	case KindStr:
	case KindUndefined:
		return Value{}, v.undefErr()
	case KindList:
		// s += "\n" extends a list; the list has no splitlines
		return Value{}, pyErr("AttributeError", "'list' object has no attribute 'splitlines'")
	case KindTuple:
		return Value{}, typeErr("can only concatenate tuple (not \"str\") to tuple")
	default:
		if _, ok := v.ref.(*bytesObj); ok && v.kind == KindObject {
			return Value{}, typeErr("can't concat str to bytes")
		}
		return Value{}, typeErr("unsupported operand type(s) for +=: '%s' and 'str'", TypeName(v))
	}
	// Python's + and join of str and Markup, as do_indent does them: the
	// newline and the indention are marked Markup when s is, and a Markup
	// operand escapes the other
	newline := markupOr(v, "\n")
	if v.IsSafe() {
		if e := envOf(c); e != nil && e.escapeFilterBlocks && !indention.IsSafe() {
			// where escaping is a security boundary, a str width is data
			indention.s = escapeFn(c)(indention.s)
		}
		indention = SafeV(indention.s)
	}
	lines := pySplitLines(v.s+"\n", false)
	line := func(i int) Value { return markupOr(v, lines[i]) }
	var rv Value
	if set[2] && a[2].Truth() {
		items := make([]Value, len(lines))
		for i := range lines {
			items[i] = line(i)
		}
		rv = pyStrJoin(c, pyStrAdd(c, newline, indention), items)
	} else {
		rv = line(0)
		if len(lines) > 1 {
			rest := make([]Value, len(lines)-1)
			for i := range rest {
				l := line(i + 1)
				if l.s != "" {
					l = pyStrAdd(c, indention, l)
				}
				rest[i] = l
			}
			rv = pyStrAdd(c, rv, pyStrAdd(c, newline, pyStrJoin(c, newline, rest)))
		}
	}
	if set[1] && a[1].Truth() {
		rv = pyStrAdd(c, indention, rv)
	}
	return rv, nil
}

func fTruncate(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bind("do_truncate", args, kw, "length", "killwords", "end", "leeway")
	if err != nil {
		return Value{}, err
	}
	length, leeway := int64(255), int64(5)
	// end is any sized value: len(end) in the assert, + end at the end
	// (a list end fails only when the text is cut)
	endV := StrV("...")
	var endUndef *Error // len(Undefined) is 0; adding it raises
	var endLen int64
	if set[2] {
		endV = a[2]
	}
	switch {
	case endV.kind == KindUndefined:
		endUndef = endV.undefErr()
	case endV.kind == KindStr:
		endLen = int64(runeCountW(endV.s))
	default:
		n, err := Len(endV)
		if err != nil {
			return Value{}, err
		}
		endLen = int64(n)
	}
	join := func(head Value) (Value, error) {
		if endUndef != nil {
			return Value{}, endUndef
		}
		if head.kind == KindStr && endV.kind == KindStr && !head.IsSafe() && !endV.IsSafe() {
			return StrV(head.s + endV.s), nil
		}
		return BinOp(c, "+", head, endV)
	}
	// the asserts compare length and leeway as Python does, whatever
	// their type; only then are they used as ints
	lengthV, leewayV := IntV(length), IntV(leeway)
	if set[0] {
		lengthV = a[0]
	}
	if set[3] && a[3].kind != KindNone {
		leewayV = a[3]
	}
	if ok, err := Compare(c, ">=", lengthV, IntV(endLen)); err != nil {
		return Value{}, err
	} else if !ok {
		return Value{}, pyErr("AssertionError", "expected length >= %d, got %s", endLen, Repr(lengthV))
	}
	if ok, err := Compare(c, ">=", leewayV, IntV(0)); err != nil {
		return Value{}, err
	} else if !ok {
		return Value{}, pyErr("AssertionError", "expected leeway >= 0, got %s", Repr(leewayV))
	}
	if lengthV.isBig() && isIntLike(lengthV) || leewayV.isBig() && isIntLike(leewayV) {
		if _, err := Len(v); err != nil {
			return Value{}, err
		}
		return v, nil // len(s) <= length + leeway
	}
	if !isIntLike(lengthV) || !isIntLike(leewayV) {
		// a float: len(s) <= length + leeway, else s[:length - len(end)]
		n, err := Len(v)
		if err != nil {
			return Value{}, err
		}
		limit, err := BinOp(c, "+", lengthV, leewayV)
		if err != nil {
			return Value{}, err
		}
		if ok, err := Compare(c, "<=", IntV(int64(n)), limit); err != nil || ok {
			return v, err
		}
		if !isIntLike(lengthV) || lengthV.isBig() {
			return Value{}, typeErr("slice indices must be integers or None or have an __index__ method")
		}
		// an int length and a float leeway: the text is cut at
		// length - len(end), as with an int leeway
		leewayV = IntV(-1 << 62)
	}
	length, leeway = lengthV.n, leewayV.n
	if v.kind != KindStr {
		n, err := Len(v)
		if err != nil {
			return Value{}, err
		}
		if int64(n)-length <= leeway {
			return v, nil
		}
		if set[1] && a[1].Truth() {
			head, err := Slice(c, v, Value{}, IntV(length-endLen), Value{})
			if err != nil {
				return Value{}, err
			}
			return join(head)
		}
		return Value{}, pyErr("AttributeError", "'%s' object has no attribute 'rsplit'", TypeName(v))
	}
	rs := []rune(v.s)
	if int64(len(rs))-length <= leeway { // length+leeway may overflow
		return v, nil
	}
	head := string(rs[:length-endLen])
	if !(set[1] && a[1].Truth()) {
		if i := strings.LastIndex(head, " "); i >= 0 {
			head = head[:i]
		}
	}
	return join(markupOr(v, head))
}

// fWordcount is do_wordcount: the matches of re's \w+, whose \w is a
// character str.isalnum accepts (Python 3.11's Unicode 14) or "_"; a
// combining mark is not one, so it splits a word.
func fWordcount(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	s, err := softStr(c, v)
	if err != nil {
		return Value{}, err
	}
	n, in := 0, false
	for _, r := range s.s {
		w := r == '_' || pyIsAlnum(r)
		if w && !in {
			n++
		}
		in = w
	}
	return IntV(int64(n)), nil
}

func fStriptags(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	s, err := ToStr(c, v)
	if err != nil {
		return Value{}, err
	}
	return StrV(stripTags(s)), nil
}

func fSliceItems(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bindRequired("sync_do_slice", 1, args, kw, "slices", "fill_with")
	if err != nil {
		return Value{}, err
	}
	// list(value) comes before length // slices reads the count
	seq, err := iterOf(c, v)
	if err != nil {
		return Value{}, err
	}
	if a[0].kind == KindUndefined {
		return Value{}, a[0].undefErr() // length // slices
	}
	if !isIntLike(a[0]) {
		// length // slices and length % slices run before
		// range(slices) refuses a float: 3 // 0.0 is ZeroDivisionError
		for _, op := range []string{"//", "%"} {
			if _, err := BinOp(c, op, IntV(int64(len(seq))), a[0]); err != nil {
				return Value{}, err
			}
		}
	}
	if isIntLike(a[0]) && a[0].ref != nil && a[0].big().Sign() < 0 {
		// range(slices) of a negative int of any size is empty
		return ListV(nil), nil
	}
	slices, err := intArg(a[0])
	if err != nil {
		return Value{}, err
	}
	if slices == 0 {
		return Value{}, pyErr("ZeroDivisionError", "integer division or modulo by zero")
	}
	length := int64(len(seq))
	per, extra := length/slices, length%slices
	if per < 0 || extra < 0 {
		return ListV(nil), nil
	}
	if slices > 1<<16 {
		// a list of that many lists: Python's MemoryError, not a
		// process out of memory
		if err := growLimited(c, int(min(slices, math.MaxInt))); err != nil {
			return Value{}, err
		}
	}
	offset := int64(0)
	var out []Value
	fill := set[1] && a[1].kind != KindNone
	for n := int64(0); n < slices; n++ {
		start := offset + n*per
		if n < extra {
			offset++
		}
		end := offset + (n+1)*per
		tmp := append([]Value(nil), seq[start:end]...)
		if fill && n >= extra {
			tmp = append(tmp, a[1])
		}
		out = append(out, ListV(tmp))
	}
	return ListV(out), nil
}

func fBatchItems(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bindRequired("do_batch", 1, args, kw, "linecount", "fill_with")
	if err != nil {
		return Value{}, err
	}
	items, err := iterOf(c, v)
	if err != nil {
		return Value{}, err
	}
	if !isIntLike(a[0]) || a[0].ref != nil {
		// do_batch compares len(tmp) == linecount, so a linecount of any
		// other type is no error: 2.0 counts as 2, anything else (an int
		// beyond 64 bits too) never matches and the items are one batch
		var out []Value
		var tmp []Value
		for _, it := range items {
			ok, err := Compare(c, "==", IntV(int64(len(tmp))), a[0])
			if err != nil {
				return Value{}, err
			}
			if ok {
				out = append(out, ListV(tmp))
				tmp = nil
			}
			tmp = append(tmp, it)
		}
		if len(tmp) > 0 {
			if set[1] && a[1].kind != KindNone {
				less, err := Compare(c, "<", IntV(int64(len(tmp))), a[0])
				if err != nil {
					return Value{}, err
				}
				if less {
					// [fill_with] * (linecount - len(tmp))
					d, err := BinOp(c, "-", a[0], IntV(int64(len(tmp))))
					if err != nil {
						return Value{}, err
					}
					fill, err := BinOp(c, "*", ListV([]Value{a[1]}), d)
					if err != nil {
						return Value{}, err
					}
					tmp = append(tmp, fill.list().Items...)
				}
			}
			out = append(out, ListV(tmp))
		}
		return ListV(out), nil
	}
	n, err := intArg(a[0])
	if err != nil {
		return Value{}, err
	}
	var out []Value
	var tmp []Value
	for _, it := range items {
		if int64(len(tmp)) == n {
			out = append(out, ListV(tmp))
			tmp = nil
		}
		tmp = append(tmp, it)
	}
	if len(tmp) > 0 {
		if set[1] && a[1].kind != KindNone {
			if n-int64(len(tmp)) > 1<<16 {
				// [fill_with] * (linecount - len(tmp))
				if err := growLimited(c, int(min(n, math.MaxInt))); err != nil {
					return Value{}, err
				}
			}
			for int64(len(tmp)) < n {
				tmp = append(tmp, a[1])
			}
		}
		out = append(out, ListV(tmp))
	}
	return ListV(out), nil
}

func fRound(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bind("do_round", args, kw, "precision", "method")
	if err != nil {
		return Value{}, err
	}
	// do_round checks the method before it uses the precision
	method := "common"
	if set[1] {
		method = a[1].s
		if a[1].kind != KindStr || (method != "common" && method != "ceil" && method != "floor") {
			// `method in {"common", "ceil", "floor"}` hashes it first
			if err := checkHashable(a[1]); err != nil {
				return Value{}, err
			}
			return Value{}, filterErr("method must be common, ceil or floor")
		}
	}
	if method == "common" {
		// round(value, precision): the value's __round__ first, then
		// the precision's __index__
		if !isNum(v) {
			return Value{}, typeErr("type %s doesn't define __round__ method", TypeName(v))
		}
		if !set[0] {
			return pyRound(v, 0)
		}
		if a[0].kind == KindNone {
			// round(value, None) is round(value): an int
			return pyRoundInt(v)
		}
		if !isIntLike(a[0]) {
			return Value{}, typeErr("'%s' object cannot be interpreted as an integer", TypeName(a[0]))
		}
		if a[0].isBig() {
			// beyond 64 bits: as far as either side of every float's and
			// int's digits
			if a[0].big().Sign() > 0 {
				return pyRound(v, math.MaxInt64)
			}
			return pyRound(v, math.MinInt64)
		}
		return pyRound(v, a[0].n)
	}
	// func(value * (10**precision)) / (10**precision), with Python's
	// operators, so a float or huge precision fails as Python's does
	prec := IntV(0)
	if set[0] {
		prec = a[0]
	}
	scale, err := BinOp(c, "**", IntV(10), prec)
	if err != nil {
		return Value{}, err
	}
	x, err := BinOp(c, "*", v, scale)
	if err != nil {
		return Value{}, err
	}
	r, err := mathFloorCeil(x, method == "ceil")
	if err != nil {
		return Value{}, err
	}
	return BinOp(c, "/", r, scale)
}

// mathFloorCeil is Python's math.floor (or math.ceil) of v: an int for
// an int, a bool or a finite float.
func mathFloorCeil(v Value, ceil bool) (Value, error) {
	switch v.kind {
	case KindInt:
		return v, nil
	case KindBool:
		return IntV(v.n), nil
	case KindFloat:
		f := v.f()
		switch {
		case math.IsInf(f, 0):
			return Value{}, pyErr("OverflowError", "cannot convert float infinity to integer")
		case math.IsNaN(f):
			return Value{}, valueErr("cannot convert float NaN to integer")
		case ceil:
			return bigFloatInt(math.Ceil(f)), nil
		}
		return bigFloatInt(math.Floor(f)), nil
	}
	return Value{}, typeErr("must be real number, not %s", TypeName(v))
}

// pyRoundInt is Python's round(v) of a number: an int, half to even.
func pyRoundInt(v Value) (Value, error) {
	r, err := pyRound(v, 0)
	if err != nil || r.kind != KindFloat {
		return r, err
	}
	return mathFloorCeil(r, false)
}

// pyRound is Python's round(v, ndigits): an int stays an int, a float is
// rounded half to even on its exact decimal value.
func pyRound(v Value, prec int64) (Value, error) {
	if isIntLike(v) {
		if prec >= 0 {
			if v.kind == KindBool {
				return IntV(v.n), nil
			}
			return v, nil
		}
		if digits := int64(len(bigOf(v).Text(10))); prec < -digits-1 {
			// 10 ** -prec is over twice |v|: Python computes the power
			// (for minutes, when prec is huge), the result is 0
			return IntV(0), nil
		}
		// round to a power of ten, half to even
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(-prec), nil)
		x := bigOf(v)
		q, m := new(big.Int).DivMod(x, p, new(big.Int))
		twice := new(big.Int).Mul(m, big.NewInt(2))
		if c := twice.Cmp(p); c > 0 || c == 0 && q.Bit(0) == 1 {
			q.Add(q, big.NewInt(1))
		}
		return normBig(q.Mul(q, p)), nil
	}
	f := v.f()
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return v, nil
	}
	if prec > 400 {
		return v, nil
	}
	if prec < -400 {
		return FloatV(math.Copysign(0, f)), nil
	}
	// the shortest repr rounded exactly: format with prec digits from the
	// exact binary value, half to even, as CPython's dtoa does
	s := new(big.Float).SetFloat64(f).Text('f', 1100)
	r := roundDecimalString(s, int(prec))
	out, err := strconv.ParseFloat(r, 64)
	if err != nil {
		return FloatV(math.Inf(1)), pyErr("OverflowError", "rounded value too large to represent")
	}
	if out == 0 {
		out = math.Copysign(0, f)
	}
	return FloatV(out), nil
}

// roundDecimalString rounds the exact decimal s (with a '.') to prec
// fractional digits (negative: tens, hundreds…), half to even.
func roundDecimalString(s string, prec int) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	dot := strings.IndexByte(s, '.')
	digits := s[:dot] + s[dot+1:]
	point := dot // digits before the point
	keep := point + prec
	if keep < 0 {
		return "0"
	}
	if keep >= len(digits) {
		return map[bool]string{true: "-", false: ""}[neg] + s
	}
	head := []byte(digits[:keep])
	rest := digits[keep:]
	up := false
	switch {
	case rest[0] > '5':
		up = true
	case rest[0] == '5':
		if strings.Trim(rest[1:], "0") != "" {
			up = true
		} else {
			up = keep > 0 && (head[keep-1]-'0')%2 == 1
		}
	}
	if up {
		i := len(head) - 1
		for i >= 0 && head[i] == '9' {
			head[i] = '0'
			i--
		}
		if i < 0 {
			head = append([]byte{'1'}, head...)
			point++
		} else {
			head[i]++
		}
	}
	for len(head) < point {
		head = append(head, '0')
	}
	out := string(head[:point])
	if out == "" {
		out = "0"
	}
	if len(head) > point {
		out += "." + string(head[point:])
	}
	if neg {
		out = "-" + out
	}
	return out
}

func fGroupby(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bindRequired("sync_do_groupby", 1, args, kw, "attribute", "default", "case_sensitive")
	if err != nil {
		return Value{}, err
	}
	var def *Value
	if set[1] && a[1].kind != KindNone {
		def = &a[1]
	}
	lower := !(set[2] && a[2].Truth())
	items, err := iterOf(c, v)
	if err != nil {
		return Value{}, err
	}
	g := attrGetter(c, a[0], lower, def)
	keys := make([]Value, len(items))
	for i, it := range items {
		if keys[i], err = g(it); err != nil {
			return Value{}, err
		}
	}
	sorted, err := sortKeyed(c, items, keys, false)
	if err != nil {
		return Value{}, err
	}
	out := []Value{}
	var cur []Value
	var curKey Value
	flush := func() error {
		if cur == nil {
			return nil
		}
		k := curKey
		if lower {
			var err error
			if k, err = attrGetter(c, a[0], false, def)(cur[0]); err != nil {
				return err
			}
		}
		out = append(out, TupleV([]Value{k, ListV(cur)}))
		return nil
	}
	for _, it := range sorted {
		k, err := g(it)
		if err != nil {
			return Value{}, err
		}
		if cur != nil && Equal(k, curKey) {
			cur = append(cur, it)
			continue
		}
		if err := flush(); err != nil {
			return Value{}, err
		}
		cur, curKey = []Value{it}, k
	}
	if err := flush(); err != nil {
		return Value{}, err
	}
	for i, t := range out {
		it := t.list().Items
		out[i] = ObjectV(&namedTuple{items: it, names: []string{"grouper", "list"}})
	}
	return ListV(out), nil
}

// namedTuple is a tuple whose items are attributes too (_GroupTuple).
type namedTuple struct {
	items []Value
	names []string
}

func (n *namedTuple) TypeName() string { return "_GroupTuple" }
func (n *namedTuple) Attr(name string) (Value, bool) {
	for i, nm := range n.names {
		if nm == name {
			return n.items[i], true
		}
	}
	switch name {
	case "_fields":
		// namedtuple's class attributes
		return strTuple(n.names), true
	case "_field_defaults":
		return DictV(NewDict(0)), true
	}
	if m := tupleMethod(name); m != nil {
		f := boundMethod(TupleV(n.items), name)
		f.ref.(*Func).Repr = n.TypeName() // the repr names the namedtuple's type
		return f, true
	}
	return Value{}, false
}
func (n *namedTuple) Item(key Value) (Value, bool) {
	r, ok, _ := item(TupleV(n.items), key)
	return r, ok
}
func (n *namedTuple) Iter(c *Ctx) ([]Value, error) { return n.items, nil }
func (n *namedTuple) Len() int                     { return len(n.items) }
func (n *namedTuple) Repr() string                 { return Repr(TupleV(n.items)) }
func (n *namedTuple) Equal(o Value) bool {
	if w, ok := o.ref.(*namedTuple); ok && o.kind == KindObject {
		return Equal(TupleV(n.items), TupleV(w.items))
	}
	return Equal(TupleV(n.items), o)
}

func fSum(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bind("sync_do_sum", args, kw, "attribute", "start")
	if err != nil {
		return Value{}, err
	}
	rv := IntV(0)
	if set[1] {
		rv = a[1]
	}
	if rv.kind == KindStr {
		// sum() takes the iterator first, then refuses the start
		if _, err := iterOf(c, v); err != nil {
			return Value{}, err
		}
		return Value{}, typeErr("sum() can't sum strings [use ''.join(seq) instead]")
	}
	g := attrGetter(c, a[0], false, nil)
	_, err = eachItem(c, v, func(it Value) (Value, bool, error) {
		var err error
		if set[0] && a[0].kind != KindNone {
			if it, err = g(it); err != nil {
				return Value{}, false, err
			}
		}
		rv, err = BinOp(c, "+", rv, it)
		return Value{}, false, err
	})
	if err != nil {
		return Value{}, err
	}
	return rv, nil
}

func fReverse(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	if v.kind == KindStr {
		return Slice(c, v, Value{}, Value{}, IntV(-1))
	}
	if v.kind == KindUndefined {
		// reversed() takes Undefined (it has __len__ and __getitem__)
		return iterV("reversed", nil), nil
	}
	if r, ok := v.ref.(*lazyRange); ok && v.kind == KindObject {
		items, err := r.Iter(c)
		if err != nil {
			return Value{}, err
		}
		out := make([]Value, len(items))
		for i, it := range items {
			out[len(items)-1-i] = it
		}
		if r.start.IsInt64() && r.stop.IsInt64() && r.step.IsInt64() {
			return iterV("range_iterator", out), nil
		}
		return iterV("longrange_iterator", out), nil
	}
	items, err := iterOf(c, v)
	if err != nil {
		return Value{}, filterErr("argument must be iterable")
	}
	out := make([]Value, len(items))
	for i, it := range items {
		out[len(items)-1-i] = it
	}
	switch v.kind {
	case KindList:
		return iterV("list_reverseiterator", out), nil
	case KindTuple:
		return iterV("reversed", out), nil
	case KindDict:
		return iterV("dict_reversekeyiterator", out), nil
	case KindObject:
		switch o := v.ref.(type) {
		case *rangeObj:
			return iterV("range_iterator", out), nil
		case *bytesObj:
			return iterV("reversed", out), nil
		case *dictView:
			return iterV("dict_reverse"+strings.TrimSuffix(o.what, "s")+"iterator", out), nil
		}
	}
	return ListV(out), nil
}

func fAttr(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, _, err := bd.bindRequired("do_attr", 1, args, kw, "name")
	if err != nil {
		return Value{}, err
	}
	if a[0].kind != KindStr {
		// getattr_static looks the name up in the instance's __dict__
		// first (unhashable), then hasattr refuses it
		if err := checkHashable(a[0]); err != nil {
			return Value{}, err
		}
		return Value{}, typeErr("attribute name must be string, not '%s'", TypeName(a[0]))
	}
	if v.kind == KindUndefined {
		// Undefined's __getattr__ raises; a dunder is its class's own
		// attribute (__class__, __str__) or an AttributeError (a new
		// Undefined), as getattr reads it
		name := a[0].s
		if len(name) < 4 || !strings.HasPrefix(name, "__") || !strings.HasSuffix(name, "__") {
			return Value{}, v.undefErr()
		}
		if !sandboxed(c) {
			r, err := GetAttr(c, v, name)
			var e *Error
			if errors.As(err, &e) && e.Kind == "UndefinedError" {
				// getattr's AttributeError: do_attr's own Undefined
				return undefAttr(v, name), nil
			}
			return r, err
		}
	}
	if sandboxed(c) {
		if u, unsafe := unsafeAttr(v, a[0].s); unsafe {
			return u, nil
		}
	}
	if r, ok := attribute(c, v, a[0].s); ok {
		return r, nil
	}
	return undefAttr(v, a[0].s), nil
}

// leadKwErr is Python's error for a keyword naming one of the parameters
// a filter function's value (and context) fill: do_format(value, *args,
// **kwargs) called with value=1. Nil when no keyword does.
func leadKwErr(fname string, kw []Kwarg, lead ...string) error {
	for _, k := range kw {
		for _, p := range lead {
			if k.Name == p {
				return typeErr("%s() got multiple values for argument '%s'", fname, p)
			}
		}
	}
	return nil
}

func fMap(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	if err := leadKwErr("sync_do_map", kw, "context", "value"); err != nil {
		return Value{}, err
	}
	// the mapping is set up when the generator starts, as Jinja2's is
	setup := func() (func(Value) (Value, bool, error), error) {
		fn, err := mapFunc(c, args, kw)
		if err != nil {
			return nil, err
		}
		return func(it Value) (Value, bool, error) {
			r, err := fn(it)
			return r, true, err
		}, nil
	}
	if src, ok := stepper(v); ok {
		return stepGen("sync_do_map", src, setup), nil
	}
	return eachGen("sync_do_map", c, v, setup), nil
}

// mapFunc is what map applies to each item: an attribute or a filter.
func mapFunc(c *Ctx, args []Value, kw []Kwarg) (func(Value) (Value, error), error) {
	var fn func(Value) (Value, error)
	if len(args) == 0 && hasKw(kw, "attribute") {
		var attr Value
		var def *Value
		for _, k := range kw {
			switch k.Name {
			case "attribute":
				attr = k.Value
			case "default":
				d := k.Value
				if d.kind != KindNone {
					def = &d
				}
			default:
				return nil, filterErr("Unexpected keyword argument %s", reprStr(k.Name))
			}
		}
		fn = attrGetter(c, attr, false, def)
	} else {
		if len(args) == 0 {
			return nil, filterErr("map requires a filter argument")
		}
		name, rest := args[0], args[1:]
		fn = func(it Value) (Value, error) {
			n, err := lookupName("filter", name)
			if err != nil {
				return Value{}, err
			}
			if c == nil {
				return Value{}, pyErr("TemplateRuntimeError", "No filter named %s.", reprStr(n))
			}
			return c.Filter(n, it, rest, kw)
		}
	}
	return fn, nil
}

// lookupName is the name of the filter or test that map, select or
// reject call per item: Jinja2 looks it up in a dict, so a name that is
// no str is unhashable (TypeError) or not found.
func lookupName(kind string, name Value) (string, error) {
	if name.kind == KindStr {
		return name.s, nil
	}
	if err := checkHashable(name); err != nil {
		return "", err
	}
	msg := "No " + kind + " named " + Repr(name) + "."
	if name.kind == KindUndefined {
		msg += " (" + name.undefErr().Msg + "; did you forget to quote the callable name?)"
	}
	return "", pyErr("TemplateRuntimeError", "%s", msg)
}

func hasKw(kw []Kwarg, name string) bool {
	for _, k := range kw {
		if k.Name == name {
			return true
		}
	}
	return false
}

func selectReject(reject, lookupAttr bool) Filter {
	fname := "sync_do_select"
	if reject {
		fname = "sync_do_reject"
	}
	if lookupAttr {
		fname += "attr"
	}
	return func(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
		if err := leadKwErr(fname, kw, "context", "value"); err != nil {
			return Value{}, err
		}
		if src, ok := stepper(v); ok {
			return stepGen("select_or_reject", src, func() (func(Value) (Value, bool, error), error) {
				return selectFunc(c, args, kw, reject, lookupAttr)
			}), nil
		}
		return eachGen("select_or_reject", c, v, func() (func(Value) (Value, bool, error), error) {
			return selectFunc(c, args, kw, reject, lookupAttr)
		}), nil
	}
}

// selectFunc is what select, reject, selectattr and rejectattr ask of
// each item: whether they keep it.
func selectFunc(c *Ctx, args []Value, kw []Kwarg, reject, lookupAttr bool) (func(Value) (Value, bool, error), error) {
	trans := func(x Value) (Value, error) { return x, nil }
	off := 0
	if lookupAttr {
		if len(args) == 0 {
			return nil, filterErr("Missing parameter for attribute name")
		}
		trans = attrGetter(c, args[0], false, nil)
		off = 1
	}
	test := func(x Value) (bool, error) { return x.Truth(), nil }
	if len(args) > off {
		name, rest := args[off], args[off+1:]
		test = func(x Value) (bool, error) {
			n, err := lookupName("test", name)
			if err != nil {
				return false, err
			}
			if c == nil {
				return false, pyErr("TemplateRuntimeError", "No test named %s.", reprStr(n))
			}
			return c.Test(n, x, rest, kw)
		}
	}
	return func(it Value) (Value, bool, error) {
		x, err := trans(it)
		if err != nil {
			return Value{}, false, err
		}
		ok, err := test(x)
		return it, ok != reject, err
	}, nil
}

// tojson is Jinja2's htmlsafe_json_dumps: json.dumps(sort_keys=True) with
// < > & ' written as \u escapes, as Markup.
func fTojson(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bind("do_tojson", args, kw, "indent")
	if err != nil {
		return Value{}, err
	}
	opts := []pyjson.Option{pyjson.SortKeys(true)}
	if set[0] && a[0].kind != KindNone && v.kind != KindStr {
		// JSONEncoder.encode writes a str alone, before the indent is
		// read; the encoder of anything else makes it ' ' * indent
		if a[0].kind == KindStr {
			opts = append(opts, pyjson.IndentString(a[0].s))
		} else {
			if !isIntLike(a[0]) || a[0].isBig() {
				if _, err := BinOp(c, "*", StrV(" "), a[0]); err != nil {
					return Value{}, err
				}
			}
			n, err := intArg(a[0])
			if err != nil {
				return Value{}, err
			}
			opts = append(opts, pyjson.Indent(int(n)))
		}
	}
	var scratch []byte
	if c != nil {
		scratch = c.scratch[:0]
	}
	var s string
	if v.kind == KindStr {
		// A str is its literal alone, whatever the indent.
		scratch = pyjson.AppendHTMLSafeString(scratch, v.s)
		s = string(scratch)
	} else {
		w := pyjson.NewWriter(append(opts, pyjson.EnsureASCII(true))...)
		if scratch, err = AppendJSON(scratch, v, &w); err != nil {
			return Value{}, err
		}
		s = htmlSafeJSON(scratch)
	}
	if c != nil && cap(scratch) <= maxPooledOutput {
		c.scratch = scratch
	}
	return SafeV(s), nil
}

// htmlSafeJSON is the string of json.dumps's output b with <, >, & and '
// written as \u003c, \u003e, \u0026 and \u0027 (htmlsafe_json_dumps).
func htmlSafeJSON(b []byte) string {
	n := 0
	for _, ch := range b {
		if htmlJSONByte[ch] {
			n++
		}
	}
	if n == 0 {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b) + 5*n)
	start := 0
	for i, ch := range b {
		if !htmlJSONByte[ch] {
			continue
		}
		sb.Write(b[start:i])
		sb.WriteString(`\u00`)
		sb.WriteByte("0123456789abcdef"[ch>>4])
		sb.WriteByte("0123456789abcdef"[ch&0xf])
		start = i + 1
	}
	sb.Write(b[start:])
	return sb.String()
}

// htmlJSONByte marks the bytes htmlSafeJSON escapes.
var htmlJSONByte = [256]bool{'<': true, '>': true, '&': true, '\'': true}

// maxJSONDepth is how deep json.dumps goes into lists and dicts before
// Python's RecursionError: tojson of a list nested 986 deep prints, 987
// deep raises, at the top of a render (transformers' tojson one level
// later; a call around it raises earlier).
const maxJSONDepth = 986

// ToPyJSON converts v to the JSON value json.dumps writes, or the
// TypeError json.dumps raises ("Object of type Undefined is not JSON
// serializable"). A dict keeps its keys in order, each written as
// json.dumps writes it: {1: 'a', '1': 'b'} has the key "1" twice.
func ToPyJSON(v Value) (pyjson.Value, error) { return toPyJSON(v, make([]any, 0, 16), false) }

// toPyJSON converts v; with sorted, each dict's keys are in the order
// json.dumps(sort_keys=True) writes them: sorted as Python sorts the
// dict's items, by the keys' values (2 before 10, False before 1.5), a
// TypeError for keys Python cannot order ('<' between a str and an int,
// or None and anything). outer holds the lists and dicts v lies in
// (json.dumps's markers): a non-empty one met again inside itself is
// json.dumps's ValueError, before its keys are sorted. Its spare capacity
// serves the nested calls.
func toPyJSON(v Value, outer []any, sorted bool) (pyjson.Value, error) {
	depth := len(outer)
	if depth > maxJSONDepth {
		return pyjson.Value{}, pyErr("RecursionError", "maximum recursion depth exceeded while encoding a JSON object")
	}
	switch v.kind {
	case KindNone:
		return pyjson.Value{Kind: pyjson.Null}, nil
	case KindBool:
		return pyjson.Value{Kind: pyjson.Bool, Bool: v.n != 0}, nil
	case KindInt:
		s, err := intDigits(v)
		return pyjson.Value{Kind: pyjson.Int, Int: s}, err
	case KindFloat:
		return pyjson.Value{Kind: pyjson.Float, Float: v.f()}, nil
	case KindStr:
		return pyjson.Value{Kind: pyjson.String, Str: v.s}, nil
	case KindList, KindTuple:
		l := v.list()
		items := l.Items
		out := pyjson.Value{Kind: pyjson.Array, Items: make([]pyjson.Value, len(items))}
		if len(items) > 0 {
			if slices.Contains(outer, any(l)) {
				return pyjson.Value{}, pyErr("ValueError", "Circular reference detected")
			}
			outer = append(outer, l)
		}
		for i, it := range items {
			var err error
			if out.Items[i], err = toPyJSON(it, outer, sorted); err != nil {
				return pyjson.Value{}, err
			}
		}
		return out, nil
	case KindDict:
		if v.flags&flagProxy != 0 {
			return pyjson.Value{}, typeErr("Object of type mappingproxy is not JSON serializable")
		}
		d := v.dict()
		out := pyjson.Value{Kind: pyjson.Object, Keys: make([]string, 0, len(d.keys)), Items: make([]pyjson.Value, 0, len(d.keys))}
		if len(d.keys) > 0 {
			if slices.Contains(outer, any(d)) {
				return pyjson.Value{}, pyErr("ValueError", "Circular reference detected")
			}
			outer = append(outer, d)
		}
		order, err := jsonKeyOrder(d, sorted)
		if err != nil {
			return pyjson.Value{}, err
		}
		for _, i := range order {
			k := d.keys[i]
			var ks string
			switch k.kind {
			case KindStr:
				ks = k.s
			case KindInt, KindBool, KindFloat, KindNone:
				j, _ := toPyJSON(k, nil, false)
				switch j.Kind {
				case pyjson.Null:
					ks = "null"
				case pyjson.Bool:
					ks = map[bool]string{true: "true", false: "false"}[j.Bool]
				case pyjson.Int:
					ks = j.Int
				default:
					ks = pyjson.FormatFloat(j.Float)
				}
			default:
				return pyjson.Value{}, typeErr("keys must be str, int, float, bool or None, not %s", TypeName(k))
			}
			jv, err := toPyJSON(d.vals[i], outer, sorted)
			if err != nil {
				return pyjson.Value{}, err
			}
			// two keys may write alike (1 and '1'): json.dumps writes both
			out.Keys = append(out.Keys, ks)
			out.Items = append(out.Items, jv)
		}
		return out, nil
	case KindObject:
		if g, ok := v.ref.(*namedTuple); ok {
			return toPyJSON(TupleV(g.items), outer, sorted)
		}
	}
	return pyjson.Value{}, typeErr("Object of type %s is not JSON serializable", TypeName(v))
}

// jsonKeyOrder returns the indexes of d's keys in the order json.dumps
// writes them: as they are, or sorted as Python's sorted(d.items()) sorts
// them (pySort), so the first comparison that fails is the one Python
// makes.
func jsonKeyOrder(d *Dict, sorted bool) ([]int, error) {
	idx := make([]int, len(d.keys))
	for i := range idx {
		idx[i] = i
	}
	if !sorted || len(idx) < 2 {
		return idx, nil
	}
	var first error
	pySort(idx, func(a, b int) bool {
		if first != nil {
			return false
		}
		// sorted(dct.items()): an Undefined key's __lt__ or __gt__ raises
		for _, k := range [2]Value{d.keys[a], d.keys[b]} {
			if k.kind == KindUndefined {
				first = k.undefErr()
				return false
			}
		}
		r, ok, err := order(d.keys[a], d.keys[b], "<")
		first = err
		return ok && r < 0
	})
	return idx, first
}

func fUrlencode(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	quote := func(x Value, forQS bool) (string, error) {
		s, err := ToStr(c, x)
		if err != nil {
			return "", err
		}
		if err := surrogateEncodeErr(s); err != nil {
			return "", err // url_quote encodes to UTF-8
		}
		safe := "/"
		if forQS {
			safe = ""
		}
		q := urlQuote(s, safe)
		if forQS {
			q = strings.ReplaceAll(q, "%20", "+")
		}
		return q, nil
	}
	if v.kind == KindStr || v.kind == KindInt || v.kind == KindFloat || v.kind == KindNone || v.kind == KindBool || !isIterable(v) {
		// a str or anything not iterable is url_quote(str(value))
		s, err := quote(v, false)
		return StrV(s), err
	}
	var pairs []Value
	if v.kind == KindDict && v.flags&flagProxy == 0 {
		// a dict's items; any other iterable (a mappingproxy's keys too)
		// gives pairs
		pairs = (&dictView{d: v.dict(), what: "items"}).items()
	} else {
		var err error
		if pairs, err = iterOf(c, v); err != nil {
			return Value{}, err
		}
	}
	parts := make([]string, 0, len(pairs))
	for _, p := range pairs {
		kv, err := unpack(c, p, 2)
		if err != nil {
			return Value{}, err
		}
		k, err := quote(kv[0], true)
		if err != nil {
			return Value{}, err
		}
		val, err := quote(kv[1], true)
		if err != nil {
			return Value{}, err
		}
		parts = append(parts, k+"="+val)
	}
	return StrV(strings.Join(parts, "&")), nil
}

// urlQuote is urllib.parse.quote(s, safe): letters, digits, _.-~ and
// safe kept, every other UTF-8 byte %XX.
func urlQuote(s, safe string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || strings.IndexByte("_.-~", ch) >= 0 || strings.IndexByte(safe, ch) >= 0 {
			b.WriteByte(ch)
			continue
		}
		b.WriteByte('%')
		b.WriteByte("0123456789ABCDEF"[ch>>4])
		b.WriteByte("0123456789ABCDEF"[ch&15])
	}
	return b.String()
}

var _ = url.QueryEscape

// attrKeyRe is Jinja2's _attr_key_re, r"[\s/>=]" with re.ASCII, whose \s
// holds \v (Go's does not).
var attrKeyRe = regexp.MustCompile(`[\t\n\v\f\r />=]`)

func fXmlattr(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bind("do_xmlattr", args, kw, "autospace")
	if err != nil {
		return Value{}, err
	}
	if v.kind == KindUndefined {
		return Value{}, v.undefErr()
	}
	if v.kind != KindDict {
		return Value{}, notDictItems(c, v)
	}
	d := v.dict()
	var items []string
	for i, k := range d.keys {
		val := d.vals[i]
		if val.kind == KindNone || val.kind == KindUndefined {
			continue
		}
		if k.kind != KindStr {
			// _attr_key_re.search(key)
			return Value{}, typeErr("expected string or bytes-like object, got '%s'", TypeName(k))
		}
		if attrKeyRe.MatchString(k.s) {
			return Value{}, valueErr("Invalid character in attribute name: %s", Repr(k))
		}
		ek, err := escapeValue(c, k)
		if err != nil {
			return Value{}, err
		}
		ev, err := escapeValue(c, val)
		if err != nil {
			return Value{}, err
		}
		items = append(items, ek+`="`+ev+`"`)
	}
	rv := strings.Join(items, " ")
	if (!set[0] || a[0].Truth()) && rv != "" {
		rv = " " + rv
	}
	if autoescaping(c) {
		return SafeV(rv), nil
	}
	return StrV(rv), nil
}

func fEscape(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	s, err := escapeValue(c, v)
	return SafeV(s), err
}

func fForceescape(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	if err := classHTMLErr(v); err != nil {
		return Value{}, err
	}
	s, err := ToStr(c, v)
	return SafeV(escapeFn(c)(s)), err
}

func fSafe(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	s, err := ToStr(c, v)
	return SafeV(s), err
}

func fString(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) { return softStr(c, v) }

func fPprint(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	if err := pprintCheck(v, map[any]bool{}, 0); err != nil {
		return Value{}, err
	}
	s := pformat(v)
	c.variesIfAddr(s)
	if strings.Contains(s, idMark) {
		c.Varies() // a recursive container's id
	}
	return StrV(s), nil
}

func fRandom(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	// do_random(context, seq): an argument is a TypeError of the call
	if len(kw) > 0 {
		return Value{}, leadKwOrUnexpected("do_random", kw[0].Name)
	}
	if len(args) > 0 {
		return Value{}, typeErr("do_random() takes 2 positional arguments but %d were given", len(args)+2)
	}
	// random.choice(seq): seq[randbelow(len(seq))], Python's own len and
	// subscription (a dict's item of an int key, a set's TypeError)
	n, err := Len(v)
	if err != nil {
		return Value{}, err
	}
	if n == 0 {
		return Undef("No random item, sequence was empty."), nil
	}
	c.Varies()
	return pySubscript(v, IntV(int64(rand.IntN(n))))
}

// builtinFilters, builtinTests and builtinGlobals are Jinja2 3.1's.
func builtinFilters() map[string]Filter {
	return map[string]Filter{
		"abs":            fAbs,
		"attr":           fAttr,
		"batch":          fBatch,
		"capitalize":     onlyValue("do_capitalize", strFilter(pyCapitalize)),
		"center":         fCenter,
		"count":          fLength,
		"d":              fDefault,
		"default":        fDefault,
		"dictsort":       fDictsort,
		"e":              onlyValue("escape", fEscape),
		"escape":         onlyValue("escape", fEscape),
		"filesizeformat": fFilesize,
		"first":          onlyValueAfter("sync_do_first", 1, fFirst),
		"float":          fFloat,
		"forceescape":    onlyValue("do_forceescape", fForceescape),
		"format":         fFormat,
		"groupby":        fGroupby,
		"indent":         fIndent,
		"int":            fInt,
		"items":          onlyValue("do_items", fItems),
		"join":           fJoin,
		"last":           onlyValueAfter("do_last", 1, fLast),
		"length":         fLength,
		"list":           onlyValue("sync_do_list", fList),
		"lower":          onlyValue("do_lower", strFilter(pyLower)),
		"map":            fMap,
		"max":            minMax(true),
		"min":            minMax(false),
		"pprint":         onlyValue("do_pprint", fPprint),
		"random":         fRandom,
		"reject":         selectReject(true, false),
		"rejectattr":     selectReject(true, true),
		"replace":        fReplace,
		"reverse":        onlyValue("do_reverse", fReverse),
		"round":          fRound,
		"safe":           onlyValue("do_mark_safe", fSafe),
		"select":         selectReject(false, false),
		"selectattr":     selectReject(false, true),
		"slice":          fSlice,
		"sort":           fSort,
		"string":         onlyValue("soft_str", fString),
		"striptags":      onlyValue("do_striptags", fStriptags),
		"sum":            fSum,
		"title":          onlyValue("do_title", filterTitle),
		"tojson":         fTojson,
		"trim":           fTrim,
		"truncate":       fTruncate,
		"unique":         fUnique,
		"upper":          onlyValue("do_upper", strFilter(pyUpper)),
		"urlencode":      onlyValue("do_urlencode", fUrlencode),
		"urlize":         fUrlize,
		"wordcount":      onlyValue("do_wordcount", fWordcount),
		"wordwrap":       fWordwrap,
		"xmlattr":        fXmlattr,
	}
}

// notDictItems is the error of value.items() for a value that is not a
// dict: AttributeError, or the error of calling its items (the class dict
// has an unbound items).
func notDictItems(c *Ctx, v Value) error {
	if v.kind == KindObject {
		if m, ok := v.ref.(Object).Attr("items"); ok {
			if _, err := c.Call(m, nil, nil); err != nil {
				return err
			}
			return &Error{Kind: "Unsupported", Msg: "items() of a " + TypeName(v) + " object is not supported here"}
		}
	}
	return noAttrErr(v, "items")
}

// noAttrErr is Python's AttributeError of v.name: a Namespace's
// __getattribute__ raises it with the name alone.
func noAttrErr(v Value, name string) error {
	if _, ok := v.ref.(*namespace); ok && v.kind == KindObject {
		return pyErr("AttributeError", "%s", name)
	}
	return pyErr("AttributeError", "'%s' object has no attribute '%s'", TypeName(v), name)
}
