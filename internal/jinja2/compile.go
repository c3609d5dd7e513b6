package jinja2

import (
	"strconv"
)

// The compiler turns the syntax tree into closures over slots.
//
// Scoping follows jinja2/idtracking.py: a template's top level, a for
// loop's body, a with block, a block set's body, a filter block, a macro
// and a call block's body each are a scope; an if is not. A name a scope
// assigns anywhere is that scope's own variable, with a slot of its own in
// the frame of the function (template, macro, block) that holds the scope;
// on entering the scope (and at every iteration of a loop) it starts as
// the value the name had outside, so a read before the assignment sees the
// outer value, and nothing leaks out; except where Jinja2 starts it as
// missing, which a nested scope can read (symbols.go). A name no enclosing scope assigns is
// read from the template's context (render variables, the top-level
// assignments of the template, globals). A macro reads its enclosing
// function's slots through its frame's up pointer, so it sees their values
// at call time, as Python's closures do.

type evalFn func(f *frame) (Value, error)
type execFn func(f *frame) error

// fnScope is a function being compiled: the template's root, a macro, a
// call block's caller, a block.
type fnScope struct {
	parent *fnScope
	nslots int
	// free names read from the context, each with a slot set at entry.
	free      map[string]int
	freeNames []string
	freeSlots []int
	// freeElse is what each free name is when the context lacks it: the
	// Env's global of that name, else an Undefined (the Env does not
	// change once built, so this is read once, at compile time).
	freeElse []Value
	block    *Block // the block this function renders, if it is one
	// selfDecl and superDecl: the root's or the block's function declares
	// self (and a block's super) as Jinja2 does (undeclared)
	selfDecl, superDecl bool
	scoped              bool // a scoped block: it reads its caller's locals
	// qual is the __qualname__ of the Python function Jinja2 compiles
	// this one to (root, block_a, root.<locals>.macro): a macro's _func
	qual string
}

// declares reports whether name is the self or the super of Jinja2's
// frames that fs reads: the root's function or the block's that fs is or
// is defined in declares it when its body reads it before storing it
// (undeclared), a call block's or a macro's body too, and those read it
// from there as a closure.
func (fs *fnScope) declares(name string) bool {
	for ; fs != nil; fs = fs.parent {
		if fs.block != nil || fs.parent == nil {
			switch name {
			case "self":
				return fs.selfDecl
			case "super":
				return fs.superDecl
			}
			return false
		}
	}
	return false
}

func (fs *fnScope) newSlot() int {
	fs.nslots++
	return fs.nslots - 1
}

// scope is a scope being compiled.
type scope struct {
	fn     *fnScope
	parent *scope
	vars   map[string]int
	order  []string
	top    bool // the template's top level: assignments are exported
	// syms: Jinja2's symbol analysis of the frame this scope is
	// (symbols.go); nil where none was made
	syms *frameSyms
}

func (s *scope) declare(name string) int {
	if i, ok := s.vars[name]; ok {
		return i
	}
	i := s.fn.newSlot()
	s.vars[name] = i
	s.order = append(s.order, name)
	return i
}

type compiler struct {
	env    *Env
	src    *source
	sc     *scope
	soft   int // inside if or a conditional expression: unknown filters fail at run time
	loops  int // enclosing for loops of the current function
	blocks map[string]*blockCode
	// hasExtends: the template has an extends tag.
	hasExtends bool
	// rootBody: the template's own statements; knownExtends: one of them
	// was an extends compiled already (Jinja2's has_known_extends), after
	// which Jinja2 writes no code for an output node that the parent's
	// check would drop (skipped, the prints so left out)
	rootBody     []Stmt
	knownExtends bool
	skipped      map[*Print]bool
	// countItems: the template can fail the join of an output (a call or
	// filter block, a recursive loop), whose TypeError names the index of
	// the failing item: its output's items are counted (Ctx.items).
	countItems bool
	// frozenDicts: nothing in the template can change a dict literal
	// (dictsFrozen), which the sandbox then builds once.
	frozenDicts bool
	recursive   []*loopCode // enclosing recursive loops
	// runPrints are the prints compileStreamed wrote as runs of
	// constants and fields (streamRuns), for a loop whose body is one
	// of them (compileFor's runListRuns)
	runPrints map[*Print]*streamedPrint
	// itemSwitches are the if chains compileIf made a fieldSwitch of,
	// for a loop whose body is one of them (compileFor's runListSwitch)
	itemSwitches map[*If]*itemSwitch
	// bufDepth: how many set and filter blocks of the Python function
	// compiled now (the top level, a block) enclose the code compiled
	// now; an include without context there writes past their buffers
	// (deferredInclude)
	bufDepth int
	// noOutputCheck: inside a block set, whose output is captured, which
	// Jinja2 lets run at the top level of a template that extends another.
	noOutputCheck bool
	// constMode: compiling an expression as Jinja2 folds it
	// (compile_fold.go); foldSkip: the node whose folding was just tried;
	// foldMemo: foldMatters' answers; optimizing: inside the operands of
	// a node whose folding failed, which Jinja2's optimizer folds,
	// literals too.
	constMode  int
	foldSkip   Expr
	foldMemo   map[Expr]bool
	optimizing int
	// escOn is Jinja2's compile-time eval_ctx.autoescape: the Env's,
	// changed by an autoescape tag with a constant value; escVolatile,
	// inside an autoescape tag whose value is known at render time only
	// (eval_ctx.volatile), where filters and tests are not folded.
	escOn, escVolatile bool
	// placing: compiling the general path of an expression placeOf
	// reads in place (compile_place.go), which must not wrap it again
	placing Expr
	// selectSites: the select_or_reject filters with constant arguments
	// compiled so far, for a |list after one (selectList)
	selectSites map[*FilterExpr]*selectSite
	// arena: the names whose + chains join into the render's string
	// arena (compile_arena.go)
	arena map[string]bool
}

// outputCheck reports whether output here is dropped once the template
// has extended another (Jinja2's require_output_check).
func (c *compiler) outputCheck() bool {
	return c.hasExtends && !c.noOutputCheck && c.sc.fn.parent == nil && c.sc.fn.block == nil
}

func (c *compiler) errAt(n Node, kind, msg string) error {
	p := n.Position()
	return &Error{Kind: kind, Msg: msg, Name: c.src.name, Line: p.Line, Col: p.Col}
}

// newScope opens a scope in the current function that assigns names.
func (c *compiler) newScope(names []string) *scope {
	s := &scope{fn: c.sc.fn, parent: c.sc, vars: map[string]int{}}
	for _, n := range names {
		s.declare(n)
	}
	return s
}

// varLoc is where a name lives: hops up the frames, then a slot; or free.
type varLoc struct {
	hops, slot int
}

// resolveFrom finds name from scope s outward; ok is false when no scope
// assigns it. hops counts the function boundaries crossed from fn.
func resolveFrom(s *scope, fn *fnScope, name string) (varLoc, bool) {
	for ; s != nil; s = s.parent {
		if i, ok := s.vars[name]; ok {
			hops := 0
			for f := fn; f != s.fn; f = f.parent {
				hops++
			}
			return varLoc{hops, i}, true
		}
	}
	return varLoc{}, false
}

// loadName compiles a read of name in the current scope.
func (c *compiler) loadName(name string) evalFn {
	if loc, ok := resolveFrom(c.sc, c.sc.fn, name); ok {
		ld := loadLoc(loc)
		if readsMissing(c.sc, name) {
			// Jinja2 loads missing as undefined(name=…): what a read
			// gives, and stores, is an Undefined an include is given
			return func(f *frame) (Value, error) {
				v, err := ld(f)
				v.flags &^= flagMissing
				return v, err
			}
		}
		return ld
	}
	fn := c.sc.fn
	if ld := specialLoad(fn, name); ld != nil {
		return ld
	}
	return loadLoc(varLoc{hops: 0, slot: c.freeSlot(fn, name)})
}

// specialLoad is the read of super inside a block and of self, where the
// function fn reads declares them; nil for another name.
func specialLoad(fn *fnScope, name string) evalFn {
	if name == "super" && fn.declares(name) {
		return func(f *frame) (Value, error) { return f.superFunc(), nil }
	}
	if name == "self" && fn.declares(name) {
		return func(f *frame) (Value, error) { return ObjectV(&selfObj{tc: f.tc}), nil }
	}
	return nil
}

func (c *compiler) freeSlot(fn *fnScope, name string) int {
	if fn.free == nil {
		fn.free = map[string]int{}
	}
	i, ok := fn.free[name]
	if !ok {
		i = fn.newSlot()
		fn.free[name] = i
		fn.freeNames = append(fn.freeNames, name)
		fn.freeSlots = append(fn.freeSlots, i)
		v, ok := c.env.global(name)
		if !ok {
			v = Undef(pyQuote(name) + " is undefined")
		}
		fn.freeElse = append(fn.freeElse, v)
	}
	return i
}

func loadLoc(loc varLoc) evalFn {
	slot := loc.slot
	switch loc.hops {
	case 0:
		return func(f *frame) (Value, error) { return f.slots[slot], nil }
	case 1:
		return func(f *frame) (Value, error) { return f.up.slots[slot], nil }
	}
	hops := loc.hops
	return func(f *frame) (Value, error) {
		for i := 0; i < hops; i++ {
			f = f.up
		}
		return f.slots[slot], nil
	}
}

// outerLoc is where scope s's variable name starts from: its place in
// the scopes outside s, or the context's slot of the function.
func (c *compiler) outerLoc(s *scope, name string) varLoc {
	if loc, ok := resolveFrom(s.parent, s.fn, name); ok {
		return loc
	}
	return varLoc{hops: 0, slot: c.freeSlot(s.fn, name)}
}

// scopeInit compiles the start of scope s: every variable but those in
// skip takes its outer value. A value in the same frame (a loop's body
// starts from the enclosing scope's or the context's) is copied from its
// slot, without a call.
func (c *compiler) scopeInit(s *scope, skip map[string]bool) func(f *frame) error {
	type init struct {
		slot, src int // src: the slot in the same frame, -1: from, -2: val
		from      evalFn
		val       Value
	}
	var inits []init
	for _, n := range s.order {
		if skip[n] {
			continue
		}
		if startsMissing(s, n) {
			v := Undef(pyQuote(n) + " is undefined")
			v.flags |= flagMissing
			inits = append(inits, init{slot: s.vars[n], src: -2, val: v})
			continue
		}
		if _, ok := resolveFrom(s.parent, s.fn, n); !ok {
			if ld := specialLoad(s.fn, n); ld != nil {
				// an inner scope's self or super starts as the block's
				inits = append(inits, init{slot: s.vars[n], src: -1, from: ld})
				continue
			}
		}
		loc := c.outerLoc(s, n)
		if loc.hops == 0 {
			inits = append(inits, init{slot: s.vars[n], src: loc.slot})
		} else {
			inits = append(inits, init{slot: s.vars[n], src: -1, from: loadLoc(loc)})
		}
	}
	if len(inits) == 0 {
		return nil
	}
	return func(f *frame) error {
		for i := range inits {
			in := &inits[i]
			if in.src >= 0 {
				f.slots[in.slot].put(&f.slots[in.src])
				continue
			}
			if in.src == -2 {
				f.slots[in.slot].put(&in.val)
				continue
			}
			v, _ := in.from(f)
			f.slots[in.slot].put(&v)
		}
		return nil
	}
}

// storeName compiles an assignment to name in the current scope.
func (c *compiler) storeName(name string) func(f *frame, v Value) {
	s := c.sc
	slot, ok := s.vars[name]
	if !ok {
		slot = s.declare(name)
	}
	if s.top {
		return func(f *frame, v Value) {
			f.slots[slot] = v
			if f.tc.exporting {
				f.tc.export(name, v)
			}
		}
	}
	return func(f *frame, v Value) { f.slots[slot] = v }
}

// assigned returns the names the statements assign in their own scope
// (not inside nested scopes), in order.
func assigned(body []Stmt) []string {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	Walk(body, func(n Node) bool {
		switch n := n.(type) {
		case *Set:
			forTargets(n.Target, func(t *Name) { add(t.Name) })
		case *SetBlock:
			forTargets(n.Target, func(t *Name) { add(t.Name) })
		case *Macro:
			add(n.Name)
		case *Import:
			add(n.Target)
		case *FromImport:
			for _, in := range n.Names {
				add(in.Alias)
			}
		case *If, *AutoescapeBlock:
			return true
		}
		return false
	})
	return names
}

// forTargets calls fn for each name an assignment target x stores, in
// order: x itself, or the names of a tuple, nested tuples included.
func forTargets(x Expr, fn func(*Name)) {
	switch t := x.(type) {
	case *Name:
		fn(t)
	case *TupleLit:
		for _, it := range t.Items {
			forTargets(it, fn)
		}
	}
}

// readsName reports whether the statements read name anywhere, blocks
// excepted (Jinja2's find_undeclared).
func readsName(body []Stmt, name string) bool {
	found := false
	var visit func(Node) bool
	visit = func(n Node) bool {
		switch n := n.(type) {
		case *Name:
			found = found || n.Name == name
		case *NSRef:
			found = found || n.Name == name
		case *For: // the target stores
			walkExprs(visit, n.Iter, n.Filter)
			Walk(n.Body, visit)
			Walk(n.Else, visit)
			return false
		case *SetBlock:
			walkExprs(visit, n.Filter)
			Walk(n.Body, visit)
			return false
		case *With:
			walkExprs(visit, n.Values...)
			Walk(n.Body, visit)
			return false
		case *Block:
			return !found && n.Scoped
		}
		return !found
	}
	Walk(body, visit)
	return found
}

func targetNames(x Expr) []string {
	var out []string
	forTargets(x, func(t *Name) { out = append(out, t.Name) })
	return out
}

// compileStmts compiles a list of statements into one.
func (c *compiler) compileStmts(body []Stmt) (execFn, error) {
	b := stmtsBuilder{c: c, textStart: -1}
	root := len(body) > 0 && len(c.rootBody) > 0 && &body[0] == &c.rootBody[0]
	for _, s := range body {
		if err := c.stmtOptimizerError(s); err != nil {
			return nil, err
		}
		if c.knownExtends && c.outputCheck() {
			// no code: its expression is not even compiled (an unknown
			// filter, a keyword repeated in it raise nothing)
			switch s := s.(type) {
			case *Text:
				continue
			case *Print:
				if c.skipped == nil {
					c.skipped = map[*Print]bool{}
				}
				c.skipped[s] = true
				continue
			}
		}
		if c.countItems {
			var n int
			n, b.prevConst = c.stmtItems(s, b.prevConst)
			b.queued += n
		}
		if b.segmented(s) {
			continue
		}
		b.flush()
		fn, err := c.compileStmt(s)
		if err != nil {
			return nil, err
		}
		if fn != nil {
			b.add(fn)
		}
		if _, ok := s.(*Extends); ok && root {
			c.knownExtends = true
		}
	}
	b.flush()
	if c.countItems {
		if b.queued > 0 {
			b.add(func(*frame) error { return nil })
		}
		return countedStmts(b.fns, b.items), nil
	}
	return stmtSeq(b.fns), nil
}

// stmtsBuilder is compileStmts' list of the statements' functions as it
// makes them: fns, and items[i], the items Jinja2's code yields for the
// statements fns[i] runs, counted before it runs (countItems); queued
// counts those of statements whose fn is not made yet. A run of text,
// {{ name }} and {{ x.name }} prints is one segment (seg), its text
// gathered in text from textStart (-1: none).
type stmtsBuilder struct {
	c         *compiler
	fns       []execFn
	items     []int
	queued    int
	prevConst bool
	text      []byte
	textStart int
	seg       []segOp
}

// add appends a statement's function.
func (b *stmtsBuilder) add(fn execFn) {
	b.fns = append(b.fns, fn)
	b.items = append(b.items, b.queued)
	b.queued = 0
}

// segmented takes s into the segment when it is text or a print of a
// name or a field, and reports whether it did.
func (b *stmtsBuilder) segmented(s Stmt) bool {
	c := b.c
	if t, ok := s.(*Text); ok && !c.hasExtends && !c.textFinalized() {
		if b.textStart < 0 {
			b.textStart = 0
		}
		b.text = append(b.text, t.Text...)
		return true
	}
	p, ok := s.(*Print)
	if !ok {
		return false
	}
	if slot, undef, ok := c.printedSlot(p); ok {
		b.seg = append(b.seg, segOp{text: b.pending(), name: true, slot: slot, undef: undef, pos: p.P})
		return true
	}
	if slot, key, miss, ok := c.printedField(p); ok {
		b.seg = append(b.seg, segOp{text: b.pending(), slot: slot, key: key, miss: miss, lacks: fieldLacks(p.X), pos: p.P})
		return true
	}
	return false
}

// pending takes the text before a print, which the print's step writes
// first.
func (b *stmtsBuilder) pending() string {
	if b.textStart < 0 {
		return ""
	}
	t := string(b.text)
	b.text = b.text[:0]
	b.textStart = -1
	return t
}

// flush ends the segment: text alone is written as it is, anything else
// by segment.
func (b *stmtsBuilder) flush() {
	if b.textStart >= 0 {
		b.seg = append(b.seg, segOp{text: b.pending()})
	}
	switch {
	case len(b.seg) == 1 && !b.seg[0].name && b.seg[0].miss == nil:
		b.add(ownText(b.seg[0].text))
	case len(b.seg) > 0:
		b.add(b.c.segment(b.seg))
	}
	b.seg = nil
}

// ownText writes the template's text s. Not inlined, so that its
// closure is compiled as if written in compileStmts (see boolValue).
//
//go:noinline
func ownText(s string) execFn {
	return func(f *frame) error { return f.c.writeOwn(s) }
}

// stmtSeq runs fns in turn, up to the first error. Not inlined, so that
// its closures are compiled as if written in compileStmts (see
// boolValue).
//
//go:noinline
func stmtSeq(fns []execFn) execFn {
	switch len(fns) {
	case 0:
		return func(*frame) error { return nil }
	case 1:
		return fns[0]
	case 2:
		a, b := fns[0], fns[1]
		return func(f *frame) error {
			if err := a(f); err != nil {
				return err
			}
			return b(f)
		}
	}
	return func(f *frame) error {
		for _, fn := range fns {
			if err := fn(f); err != nil {
				return err
			}
		}
		return nil
	}
}

// countedStmts runs fns in order, adding to the Ctx's count of items the
// ones each yields before it runs.
func countedStmts(fns []execFn, items []int) execFn {
	if len(fns) == 1 {
		fn, n := fns[0], items[0]
		return func(f *frame) error {
			f.c.items += n
			return fn(f)
		}
	}
	return func(f *frame) error {
		for i, fn := range fns {
			f.c.items += items[i]
			if err := fn(f); err != nil {
				return err
			}
		}
		return nil
	}
}

// stmtItems is how many items Jinja2's code for s yields into its
// output by itself, prevConst telling whether s follows a constant child
// of the same output node: the children of an output node that fold to
// constants (template text, a print whose as_const succeeds) are joined
// into one item; each other print is an item, as is a call block's,
// a filter block's and a recursive loop's value. The bodies of other
// statements count their own. It returns whether s is such a constant.
func (c *compiler) stmtItems(s Stmt, prevConst bool) (int, bool) {
	isConst := false
	switch n := s.(type) {
	case *Text:
		// template text does not fold in a volatile eval context
		isConst = !c.escVolatile
	case *Print:
		if isConstExpr(n.X) {
			_, isConst = c.constValue(n.X)
		}
	case *CallBlock, *FilterBlock, *Generation:
		return 1, false
	case *For:
		if n.Recursive {
			return 1, false
		}
		return 0, false
	default:
		return 0, false
	}
	if isConst && prevConst {
		return 0, true
	}
	return 1, isConst
}

// canFailJoin reports whether the statements hold a call block, a filter
// block or a recursive loop: a value that may fail its output's join.
func canFailJoin(body []Stmt) bool {
	return anyNode(func(n Node) bool {
		switch n := n.(type) {
		case *CallBlock, *FilterBlock:
			return true
		case *For:
			return n.Recursive
		}
		return false
	}, nil, body)
}

// joinItemErr is the TypeError of an output's join at the item a call or
// filter block, or a recursive loop, yielded: its index is the items
// counted before it, when every one was (countItems).
func joinItemErr(c *Ctx, typ string) error {
	if i := c.items - 1; i >= 0 {
		return typeErr("sequence item %d: expected str instance, %s found", i, typ)
	}
	return typeErr("sequence item: expected str instance, %s found", typ)
}

// unsupported is an error raised when a render reaches a construct the
// implementation does not have.
func (c *compiler) unsupported(n Node, what string) execFn {
	err := c.errAt(n, "Unsupported", what+" is not supported")
	return func(*frame) error { return err }
}

func istr(n int) string { return strconv.Itoa(n) }
