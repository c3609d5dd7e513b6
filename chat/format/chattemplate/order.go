package chattemplate

import (
	"github.com/rolemark/rolemark/internal/jinja2"
)

// The order of a template's writes (write order) narrows what the
// guard's join analysis takes for pieces that may stand anywhere: a
// literal the template writes whole, as a write of its own (a text, a
// printed constant, a constant operand of a printed + or ~ chain), is
// next to data only where a write that may hold data comes right before
// or right after it in the prompt. A token made with data joins the
// literal's end to data written right after it, or the literal's start
// to data written right before it; where every write that can come
// right after a literal (through writes that may be empty) is template
// text, no data byte can stand right after it, and the guard is told
// so (special.Piece.RightClosed), likewise before it.
//
// What data may stand next to is read conservatively: a write that is
// not a constant or a tojson (a variable, a call, a macro's output,
// a filter of anything) may begin and end with data, and may be empty;
// a macro's, a call block's and a set block's body may be written
// after and before anything; a template that includes, imports,
// extends, defines blocks or loops recursively is not read at all
// (every literal may stand next to data, as before).

// edges says whether data may stand right before a piece of the
// template's text (left) and right after it (right).
type edges struct{ left, right bool }

// open is a piece that data may stand next to on both sides.
var open = edges{true, true}

// writeOrder is what the order of a template's writes tells.
type writeOrder struct {
	// lits holds the edges of each literal written whole as a write of
	// its own; a literal absent from it, or written some other way too
	// (inside an expression, as a filter's argument, …), is open.
	lits map[string]edges
	// jsonRight is set when the text of a prefix cut of tojson's output
	// ({{ out[:-1] }}, which may end with a bracket of the JSON) may be
	// followed by data.
	jsonRight bool
	// jsonCuts are those prefix cuts, as items read (reprCuts does not
	// count them).
	jsonCuts map[*jinja2.ItemExpr]bool
}

// merge adds what o tells of another variant of the template.
func (w *writeOrder) merge(o *writeOrder) {
	for lit, e := range o.lits {
		if f, ok := w.lits[lit]; ok {
			e = edges{e.left || f.left, e.right || f.right}
		}
		w.lits[lit] = e
	}
	w.jsonRight = w.jsonRight || o.jsonRight
}

// edgesOf returns the edges of lit, a literal of the template.
func (w *writeOrder) edgesOf(lit string) edges {
	if w == nil {
		return open
	}
	if e, ok := w.lits[lit]; ok {
		return e
	}
	return open
}

// flow is the state of the analysis between two writes: the writes
// whose right edge the next non-empty write follows (pend: literals'
// ids, and jsonCut for a prefix cut of tojson's output), and whether
// the last byte written may be data.
type flow struct {
	pend map[int]bool
	data bool
}

const jsonCut = -1

func (f flow) clone() flow {
	n := flow{pend: make(map[int]bool, len(f.pend)), data: f.data}
	for k := range f.pend {
		n.pend[k] = true
	}
	return n
}

// join adds o's possibilities to f's.
func (f *flow) join(o flow) {
	for k := range o.pend {
		f.pend[k] = true
	}
	f.data = f.data || o.data
}

func (f flow) same(o flow) bool {
	if f.data != o.data || len(f.pend) != len(o.pend) {
		return false
	}
	for k := range f.pend {
		if !o.pend[k] {
			return false
		}
	}
	return true
}

// orderReader reads a tree's writes in order.
type orderReader struct {
	w *writeOrder
	// occ are the literals written, by id; left and right their edges;
	// ids the id of each node that writes one.
	occ         []string
	left, right []bool
	ids         map[jinja2.Node]int
	// direct are the constants written as writes of their own.
	direct map[*jinja2.Const]bool
	// loops holds, for the loops being read, the states at break and
	// continue.
	loops []*loopStates
	// bad is set when the template does what this analysis does not
	// follow.
	bad bool
	// assigned are the names the template assigns.
	assigned map[string]bool
}

type loopStates struct{ brk, cont flow }

// readWriteOrder reads tree's writes in order, or returns nil when the
// template does what the analysis does not follow.
func readWriteOrder(tree *jinja2.Tree) *writeOrder {
	r := &orderReader{w: &writeOrder{lits: map[string]edges{}, jsonCuts: map[*jinja2.ItemExpr]bool{}},
		direct: map[*jinja2.Const]bool{}, ids: map[jinja2.Node]int{}, assigned: map[string]bool{}}
	as, _ := assignments(tree)
	for _, a := range as {
		r.assigned[a.name] = true
	}
	start := flow{pend: map[int]bool{}} // the prompt's start: nothing before
	r.stmts(tree.Body, start, nil)      // the prompt's end: nothing after
	if r.bad {
		return nil
	}
	for i, lit := range r.occ {
		e := r.w.lits[lit]
		r.w.lits[lit] = edges{e.left || r.left[i], e.right || r.right[i]}
	}
	// A literal also written some other way may stand anywhere.
	jinja2.Walk(tree.Body, func(n jinja2.Node) bool {
		if c, ok := n.(*jinja2.Const); ok && !r.direct[c] {
			constLiterals(c.Value, func(s string) bool {
				r.w.lits[s] = open
				return true
			})
		}
		if c, ok := n.(*jinja2.CallExpr); ok {
			for _, kw := range c.Args.Kwargs {
				r.w.lits[kw.Name] = open
			}
		}
		return true
	})
	return r.w
}

// dataNext marks f's pending writes as followed by data.
func (r *orderReader) dataNext(f flow) {
	for k := range f.pend {
		if k == jsonCut {
			r.w.jsonRight = true
		} else {
			r.right[k] = true
		}
	}
}

// openState is the state at the start of a body written where the
// analysis does not follow (a macro's, a call block's, a set block's):
// data may come before.
func openState() flow { return flow{pend: map[int]bool{}, data: true} }

// bindings are the names known, where a statement is read, to hold
// tojson's output: set so in a statement before it in the same list,
// and assigned nothing since.
type bindings map[string]bool

func (r *orderReader) stmts(body []jinja2.Stmt, in flow, b bindings) flow {
	b2 := bindings{}
	for k := range b {
		b2[k] = true
	}
	f := in
	for _, s := range body {
		for name := range b2 {
			if assigns(s, name) {
				delete(b2, name)
			}
		}
		f = r.stmt(s, f, b2)
		if set, ok := s.(*jinja2.Set); ok {
			if n, ok := set.Target.(*jinja2.Name); ok && isToJSON(set.Value) {
				b2[n.Name] = true
			}
		}
	}
	return f
}

// isToJSON reports whether x is tojson's output (through |safe).
func isToJSON(x jinja2.Expr) bool {
	fx, ok := x.(*jinja2.FilterExpr)
	for ok && fx.X != nil && fx.Name == "safe" {
		fx, ok = fx.X.(*jinja2.FilterExpr)
	}
	return ok && fx.X != nil && fx.Name == "tojson"
}

// assigns reports whether s assigns name anywhere in it.
func assigns(s jinja2.Stmt, name string) bool {
	found := false
	jinja2.Walk([]jinja2.Stmt{s}, func(n jinja2.Node) bool {
		switch x := n.(type) {
		case *jinja2.Set:
			found = found || targetNames(x.Target, name)
		case *jinja2.SetBlock:
			found = found || targetNames(x.Target, name)
		case *jinja2.For:
			found = found || targetNames(x.Target, name)
		case *jinja2.With:
			for _, t := range x.Targets {
				found = found || targetNames(t, name)
			}
		case *jinja2.Macro:
			found = found || x.Name == name
		case *jinja2.Import:
			found = found || x.Target == name
		case *jinja2.FromImport:
			for _, in := range x.Names {
				found = found || in.Alias == name
			}
		}
		return !found
	})
	return found
}

func targetNames(t jinja2.Expr, name string) bool {
	switch x := t.(type) {
	case *jinja2.Name:
		return x.Name == name
	case *jinja2.TupleLit:
		for _, it := range x.Items {
			if targetNames(it, name) {
				return true
			}
		}
	}
	return false
}

func (r *orderReader) stmt(s jinja2.Stmt, f flow, b bindings) flow {
	switch x := s.(type) {
	case *jinja2.Text:
		return r.lit(x, x.Text, f)
	case *jinja2.Print:
		return r.print(x.X, f, b)
	case *jinja2.If:
		out := flow{pend: map[int]bool{}}
		for _, body := range x.Bodies {
			out.join(r.stmts(body, f.clone(), b))
		}
		if x.Else != nil {
			out.join(r.stmts(x.Else, f.clone(), b))
		} else {
			out.join(f)
		}
		return out
	case *jinja2.For:
		if x.Recursive {
			r.bad = true
			return f
		}
		ls := &loopStates{brk: flow{pend: map[int]bool{}}, cont: flow{pend: map[int]bool{}}}
		r.loops = append(r.loops, ls)
		head := f.clone()
		for {
			end := r.stmts(x.Body, head.clone(), b)
			next := head.clone()
			next.join(end)
			next.join(ls.cont)
			if next.same(head) {
				break
			}
			head = next
		}
		r.loops = r.loops[:len(r.loops)-1]
		out := head
		out.join(ls.brk)
		if x.Else != nil {
			out.join(r.stmts(x.Else, f.clone(), b))
		}
		return out
	case *jinja2.Break:
		if n := len(r.loops); n > 0 {
			r.loops[n-1].brk.join(f)
		}
		return f
	case *jinja2.Continue:
		if n := len(r.loops); n > 0 {
			r.loops[n-1].cont.join(f)
		}
		return f
	case *jinja2.Set, *jinja2.Do:
		return f
	case *jinja2.SetBlock:
		r.dataNext(r.stmts(x.Body, openState(), nil))
		return f
	case *jinja2.Macro:
		r.dataNext(r.stmts(x.Body, openState(), nil))
		return f
	case *jinja2.CallBlock:
		r.dataNext(r.stmts(x.Body, openState(), nil))
		return r.gen(f)
	case *jinja2.FilterBlock:
		r.dataNext(r.stmts(x.Body, openState(), nil))
		return r.gen(f)
	case *jinja2.With:
		return r.stmts(x.Body, f, b)
	case *jinja2.Generation:
		return r.stmts(x.Body, f, b)
	case *jinja2.AutoescapeBlock:
		return r.stmts(x.Body, f, b)
	}
	// include, import, extends, block, and anything not listed
	r.bad = true
	return f
}

// lit is the write of s, a literal, by the node n.
func (r *orderReader) lit(n jinja2.Node, s string, f flow) flow {
	if s == "" {
		return f
	}
	id, ok := r.ids[n]
	if !ok {
		id = len(r.occ)
		r.ids[n] = id
		r.occ = append(r.occ, s)
		r.left = append(r.left, false)
		r.right = append(r.right, false)
	}
	r.left[id] = r.left[id] || f.data
	return flow{pend: map[int]bool{id: true}}
}

// gen is a write that may begin and end with data, or be empty.
func (r *orderReader) gen(f flow) flow {
	r.dataNext(f)
	out := f.clone()
	out.data = true
	return out
}

// print is the writes of {{ x }}.
func (r *orderReader) print(x jinja2.Expr, f flow, b bindings) flow {
	switch x := x.(type) {
	case *jinja2.Const:
		if x.Value.Kind() == jinja2.KindStr {
			r.direct[x] = true
			return r.lit(x, x.Value.Str(), f)
		}
	case *jinja2.Concat:
		for _, it := range x.Items {
			f = r.print(it, f, b)
		}
		return f
	case *jinja2.BinExpr:
		if x.Op == "+" {
			// strs joined, or numbers, or lists (whose repr is one
			// write that may hold data)
			return r.print(x.Right, r.print(x.Left, f, b), b)
		}
	case *jinja2.FilterExpr:
		switch {
		case x.X != nil && (x.Name == "safe" || x.Name == "string") && noArgs(&x.Args):
			return r.print(x.X, f, b)
		case x.X != nil && x.Name == "tojson":
			// JSON text: it begins and ends with its own punctuation, a
			// digit or a letter of true, false, null, NaN, Infinity
			return flow{pend: map[int]bool{}}
		}
	case *jinja2.CallExpr:
		if f, ok := x.Fn.(*jinja2.Name); ok && f.Name == "raise_exception" && !r.assigned[f.Name] {
			// the rendering ends with an error: nothing follows
			return flow{pend: map[int]bool{}}
		}
	case *jinja2.ItemExpr:
		if n, ok := x.X.(*jinja2.Name); ok && b[n.Name] && prefixSlice(x.Key) {
			// tojson's output cut at its end: it begins with the JSON's
			// first byte, may be empty, and ends with any byte of it
			r.w.jsonCuts[x] = true
			out := f.clone()
			out.pend[jsonCut] = true
			out.data = true
			return out
		}
	}
	return r.gen(f)
}

// prefixSlice reports whether k is a slice [:stop] or [0:stop].
func prefixSlice(k jinja2.Expr) bool {
	s, ok := k.(*jinja2.SliceExpr)
	if !ok || s.Step != nil {
		return false
	}
	if s.Start == nil {
		return true
	}
	c, ok := s.Start.(*jinja2.Const)
	if !ok || c.Value.Kind() != jinja2.KindInt {
		return false
	}
	n, isInt := c.Value.Int64()
	return isInt && n == 0
}

func noArgs(a *jinja2.CallArgs) bool {
	return len(a.Args) == 0 && len(a.Kwargs) == 0 && a.DynArgs == nil && a.DynKwargs == nil
}
