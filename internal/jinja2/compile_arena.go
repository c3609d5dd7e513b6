package jinja2

import (
	"reflect"
	"unsafe"
)

// The render's string arena. Chat templates build strings they only
// print or join into other such strings: {% set content = '<|im_start|>'
// + message['role'] + … %}{{ content }}, a default system message joined
// with the date and printed only when the conversation has none. Each
// such str was an allocation of its own, and what a render allocates is
// what the collector's cycles cost it (the output string aside, they were
// half of the bytes of the slowest chat templates). Where the compiler can
// see every use of a name, and every use copies the str's bytes (a print
// writes them into the output, a + chain into another str) or hands the
// str to another such name, the + chains assigned to that name join their
// operands into Ctx.strs, which the next render on the same Ctx writes
// over: no str of the arena outlives the render that made it.

// arenaNames returns the names whose values a {% set name = a + b … %}
// (or a ~ b …) may join into the render's string arena (nil for none): every read of
// the name anywhere in body is a print of it ({{ x }}, {{ … + x + … }},
// {{ … ~ x ~ … }}, of a slice of it or of an if-else giving it) or an operand of a + or ~ chain, or all of the value, of a
// {% set y = … %} whose y is such a name too. A template that includes,
// imports, extends or has blocks shares its variables with code the
// compiler does not see: none of its names qualifies. Names are matched
// by identifier, whatever scope reads them, which only ever counts more
// reads than there are.
func arenaNames(env *Env, body []Stmt) map[string]bool {
	if env.ext.finalize != nil || env.escape != nil &&
		reflect.ValueOf(env.escape).Pointer() != reflect.ValueOf(htmlEscape).Pointer() {
		// a finalize hook or an escape function of the host's would
		// be handed the str, and could keep it
		return nil
	}
	w := arenaWalk{env: env, total: map[string]int{}, seen: map[string]int{},
		flows: map[string][]string{}, cands: map[string]bool{}}
	Walk(body, w.visit)
	if w.shared || len(w.cands) == 0 {
		return nil
	}
	bad := w.kept()
	var names map[string]bool
	for name := range w.cands {
		if !bad[name] {
			if names == nil {
				names = map[string]bool{}
			}
			names[name] = true
		}
	}
	return names
}

// arenaWalk is arenaNames' count of a template's names: the occurrences
// of each (total), those that are targets or copying reads (seen), the
// names each name's str flows into by a set (flows), the names set to a
// joined str (cands), and whether the template shares its variables.
type arenaWalk struct {
	env    *Env
	total  map[string]int
	seen   map[string]int
	flows  map[string][]string
	cands  map[string]bool
	shared bool
}

// visit counts what node n holds.
func (w *arenaWalk) visit(n Node) bool {
	switch n := n.(type) {
	case *Include, *Import, *FromImport, *Extends, *Block:
		w.shared = true
	case *Name:
		w.total[n.Name]++
	case *Print:
		for _, x := range printedOperands(n.X) {
			printedNames(x, func(r *Name) { w.seen[r.Name]++ })
		}
	case *Set:
		w.targets(n.Target)
		if t, ok := n.Target.(*Name); ok {
			w.set(t, n.Value)
		}
	case *SetBlock:
		w.targets(n.Target)
	case *For:
		w.targets(n.Target)
	case *With:
		w.targets(n.Targets...)
	}
	return true
}

// targets counts the names xs assign.
func (w *arenaWalk) targets(xs ...Expr) {
	for _, x := range xs {
		forTargets(x, func(t *Name) { w.seen[t.Name]++ })
	}
}

// set counts {% set t = v %}: t is a candidate where v is a + or ~ chain
// or a filter with an append form, and the names among the operands flow
// into it.
func (w *arenaWalk) set(t *Name, v Expr) {
	operands := []Expr{v}
	if parts, _ := plusChain(v); len(parts) >= 2 {
		w.cands[t.Name] = true
		operands = parts
	} else if cc, ok := v.(*Concat); ok {
		w.cands[t.Name] = true
		operands = cc.Items
	} else if fe, ok := v.(*FilterExpr); ok && w.env.appendFilters[fe.Name] != nil {
		// a filter's str written by its append form
		w.cands[t.Name] = true
	}
	for _, x := range operands {
		if r, ok := x.(*Name); ok {
			w.seen[r.Name]++
			w.flows[r.Name] = append(w.flows[r.Name], t.Name)
		}
	}
}

// kept returns the names whose str may be kept: read in a way that is
// not a copying read, or flowing into such a name.
func (w *arenaWalk) kept() map[string]bool {
	bad := map[string]bool{}
	for name, n := range w.total {
		if w.seen[name] != n {
			bad[name] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for x, ys := range w.flows {
			if bad[x] {
				continue
			}
			for _, y := range ys {
				if bad[y] {
					bad[x], changed = true, true
					break
				}
			}
		}
	}
	return bad
}

// printedNames calls fn with each name whose str printing x, a printed
// operand, copies: x itself, a slice of it (slicedName), or either
// branch of an if-else whose value that is ((prefix if loop.first else
// "") in a chain); the if-else's test is not printed.
func printedNames(x Expr, fn func(*Name)) {
	switch n := x.(type) {
	case *Name:
		fn(n)
	case *CondExpr:
		printedNames(n.Then, fn)
		if n.Else != nil {
			printedNames(n.Else, fn)
		}
	default:
		if r := slicedName(x); r != nil {
			fn(r)
		}
	}
}

// slicedName returns x's name when x is name[start:stop:step], a slice
// of a name: printed, it copies the sliced str's bytes.
func slicedName(x Expr) *Name {
	it, ok := x.(*ItemExpr)
	if !ok {
		return nil
	}
	if _, ok := it.Key.(*SliceExpr); !ok {
		return nil
	}
	r, _ := it.X.(*Name)
	return r
}

// printedOperands returns what a print writes: x itself, or the operands
// of the + or ~ chain x is.
func printedOperands(x Expr) []Expr {
	if parts, _ := plusChain(x); parts != nil {
		return parts
	}
	if c, ok := x.(*Concat); ok {
		return c.Items
	}
	return []Expr{x}
}

// arenaChain compiles the value of {% set name = a + b … %} (or a ~ b …)
// for a name of arenaNames: fastPlusChain's (concatOf's), with the joined str written into the
// render's string arena; for {% set name = v|f(args) %} of a filter with
// an append form, its str appended to the arena. nil when x is no such
// value, or one the compiler folds.
func (c *compiler) arenaChain(x Expr) (evalFn, error) {
	if fe, ok := x.(*FilterExpr); ok {
		if c.constMode > 0 || isConstExpr(fe) || c.foldMatters(fe) {
			return nil, nil
		}
		s, err := c.appendFilterOf(fe)
		if s == nil || err != nil {
			return nil, err
		}
		return s.arenaValue, nil
	}
	if cc, ok := x.(*Concat); ok {
		// a ~ b …: str_join's, into the arena
		if c.constMode > 0 || isConstExpr(cc) || c.foldMatters(cc) {
			return nil, nil
		}
		items, err := c.exprs(cc.Items)
		if err != nil {
			return nil, err
		}
		return c.concatOf(items, cc.P, true), nil
	}
	n, ok := x.(*BinExpr)
	if !ok || n.Op != "+" || c.constMode > 0 || isConstExpr(n) || c.foldMatters(n) {
		return nil, nil
	}
	parts, pos := plusChain(n)
	if len(parts) < 2 {
		return nil, nil
	}
	return c.plusChainOf(parts, pos, true)
}

// arenaJoin joins strs, whose lengths add up to size, in the render's
// string arena. A str it returns is valid until the Ctx is reset: only
// code that arenaNames allows may hold one.
func (c *Ctx) arenaJoin(strs []string, size int) string {
	if size == 0 {
		return ""
	}
	if len(c.strs)+size > cap(c.strs) {
		// the strs made so far keep the old array
		c.strs = make([]byte, 0, max(2*cap(c.strs), size, 1024))
	}
	start := len(c.strs)
	for _, s := range strs {
		c.strs = append(c.strs, s...)
	}
	return unsafe.String(&c.strs[start], size)
}

// maxPooledArena is the largest string arena a finished render keeps for
// the next one.
const maxPooledArena = 1 << 16

// resetArena readies the arena for the next render: every str in it is
// dead once the render has returned.
func (c *Ctx) resetArena() {
	if cap(c.strs) > maxPooledArena {
		c.strs = nil
		return
	}
	c.strs = c.strs[:0]
}
