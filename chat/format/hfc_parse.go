package format

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The compiled path's compiler: Jinja2's grammar (jinja2/parser.py's
// precedence: condexpr, or, and, not, comparisons, + -, ~, * / // %, **,
// unary, then postfix, filters and tests) over the tokens the source
// reader produced (srcEvent), turned directly into closures. Variables
// live in slots resolved at compile time; Jinja2's scopes (a for loop's
// body, restarted on each iteration; a macro's body; a {% generation %}
// block) are kept by saving and restoring the slots they assign.

type expr func(*rstate) (value, error)
type stmt func(*rstate) error

// rstate is one rendering's state.
type rstate struct {
	out    []byte
	slots  []value
	ctx    context.Context
	now    func() time.Time
	stack  []value // saved slots (saveSlots)
	depth  int     // macro call depth
	msgs   msgBuf
	budget int // loop iterations left before the context is checked again
	// loops holds the loop variables' states; nloops of them are in use.
	loops  []loopState
	nloops int
}

// newLoop returns a loop variable's state, unused in this rendering.
func (st *rstate) newLoop(items []value) *loopState {
	if st.nloops == len(st.loops) {
		// The states in use stay where they are: a new array.
		st.loops = make([]loopState, max(4, 2*len(st.loops)))
		st.nloops = 0
	}
	ls := &st.loops[st.nloops]
	st.nloops++
	*ls = loopState{items: items}
	return ls
}

// fastTemplate is a template compiled to closures.
type fastTemplate struct {
	body  stmt
	names []string // slot names
	slot  map[string]int
	// Slots of the variables the caller supplies.
	messages, tools, documents, agp int
	sizeHint                        int
	// pool keeps renderings' state (rstate) for reuse.
	pool sync.Pool
}

// compileFast compiles the events of a template, or says why it cannot.
func compileFast(events []srcEvent) (*fastTemplate, error) {
	c := &compiler{evs: events, slot: map[string]int{}, assigned: map[string]bool{}, macroFree: map[string]bool{}, nested: map[string]bool{}}
	c.prescan()
	body, end, err := c.block()
	if err != nil {
		return nil, err
	}
	if end != "" {
		return nil, fmt.Errorf("unexpected %s", end)
	}
	for name := range c.macroFree {
		if c.nested[name] {
			return nil, fmt.Errorf("a macro reads %s, which a loop or block assigns", name)
		}
	}
	ft := &fastTemplate{body: body, names: c.names, slot: c.slot, messages: -1, tools: -1, documents: -1, agp: -1}
	for name, p := range map[string]*int{"messages": &ft.messages, "tools": &ft.tools, "documents": &ft.documents, "add_generation_prompt": &ft.agp} {
		if i, ok := c.slot[name]; ok {
			*p = i
		}
	}
	for _, e := range events {
		ft.sizeHint += len(e.text)
	}
	return ft, nil
}

type compiler struct {
	evs   []srcEvent
	pos   int
	slot  map[string]int
	names []string
	// assigned: names the template assigns anywhere (set, for, macro).
	assigned map[string]bool
	// scopes: the slots each enclosing scope assigns, innermost last.
	scopes []map[int]bool
	// macro: compiling a macro's body; params are its parameters.
	macro     bool
	params    map[string]bool
	macroFree map[string]bool // names macro bodies read from the template
	nested    map[string]bool // names assigned inside a loop, macro or block
	loopDepth int             // enclosing for loops (break and continue)
}

func (c *compiler) slotOf(name string) int {
	if i, ok := c.slot[name]; ok {
		return i
	}
	c.slot[name] = len(c.names)
	c.names = append(c.names, name)
	return len(c.names) - 1
}

// assign records that the current scopes assign name.
func (c *compiler) assign(name string) int {
	i := c.slotOf(name)
	for _, s := range c.scopes {
		s[i] = true
	}
	if len(c.scopes) > 0 {
		c.nested[name] = true
	}
	return i
}

// prescan finds the names the template assigns, so that a call of an
// unassigned name is a call of a built-in function.
func (c *compiler) prescan() {
	for _, e := range c.evs {
		if !e.isTag || !e.block || len(e.toks) < 2 {
			continue
		}
		switch e.toks[0].text {
		case "set", "macro":
			c.assigned[e.toks[1].text] = true
		case "for":
			for _, t := range e.toks[1:] {
				if t.kind == tokName && t.text == "in" {
					break
				}
				c.assigned[t.text] = true
			}
		}
	}
}

// block compiles statements up to one of the end keywords, which it
// returns (with the tag's tokens left in c.pos-1's event).
func (c *compiler) block(ends ...string) (stmt, string, error) {
	var stmts []stmt
	var text strings.Builder
	flushText := func() {
		if text.Len() > 0 {
			s := text.String()
			stmts = append(stmts, func(st *rstate) error { st.out = append(st.out, s...); return nil })
			text.Reset()
		}
	}
	for c.pos < len(c.evs) {
		e := c.evs[c.pos]
		c.pos++
		if !e.isTag {
			text.WriteString(e.text)
			continue
		}
		if !e.block {
			p := &ep{c: c, toks: e.toks}
			x, err := p.tuple(false)
			if err != nil {
				return nil, "", err
			}
			if p.i != len(p.toks) {
				return nil, "", fmt.Errorf("unexpected %q in an expression", p.toks[p.i].text)
			}
			if cs, ok := x.constStr(); ok {
				text.WriteString(cs)
				continue
			}
			flushText()
			if x.write != nil {
				stmts = append(stmts, x.write)
				continue
			}
			stmts = append(stmts, outputStmt(x))
			continue
		}
		if len(e.toks) == 0 || e.toks[0].kind != tokName {
			return nil, "", fmt.Errorf("empty or malformed tag")
		}
		kw := e.toks[0].text
		for _, end := range ends {
			if kw == end {
				flushText()
				return seq(stmts), kw, nil
			}
		}
		flushText()
		s, err := c.statement(kw, e.toks)
		if err != nil {
			return nil, "", err
		}
		if s != nil {
			stmts = append(stmts, s)
		}
	}
	flushText()
	if len(ends) > 0 {
		return nil, "", fmt.Errorf("missing %s", ends[len(ends)-1])
	}
	return seq(stmts), "", nil
}

func seq(stmts []stmt) stmt {
	switch len(stmts) {
	case 0:
		return func(*rstate) error { return nil }
	case 1:
		return stmts[0]
	}
	return func(st *rstate) error {
		for _, s := range stmts {
			if err := s(st); err != nil {
				return err
			}
		}
		return nil
	}
}

func outputStmt(x cx) stmt {
	fn, at := x.fn, x.at
	if at != nil {
		return func(st *rstate) error {
			if p := at(st); p != nil && p.k == vStr {
				st.out = append(st.out, p.s...)
				return nil
			}
			v, err := fn(st)
			if err != nil {
				return err
			}
			st.out, err = appendStr(st.out, v)
			return err
		}
	}
	return func(st *rstate) error {
		v, err := fn(st)
		if err != nil {
			return err
		}
		if v.k == vStr {
			st.out = append(st.out, v.s...)
			return nil
		}
		st.out, err = appendStr(st.out, v)
		return err
	}
}

func (c *compiler) statement(kw string, toks []token) (stmt, error) {
	p := &ep{c: c, toks: toks, i: 1}
	end := func() error {
		if p.i != len(p.toks) {
			return fmt.Errorf("unexpected %q in %s", p.toks[p.i].text, kw)
		}
		return nil
	}
	switch kw {
	case "if":
		return c.ifStmt(p)
	case "for":
		return c.forStmt(p)
	case "set":
		return c.setStmt(p)
	case "macro":
		return c.macroStmt(p)
	case "break", "continue":
		if err := end(); err != nil {
			return nil, err
		}
		if !c.inLoop() {
			return nil, fmt.Errorf("%s outside a loop", kw)
		}
		e := errBreak
		if kw == "continue" {
			e = errContinue
		}
		return func(*rstate) error { return e }, nil
	case "generation":
		if err := end(); err != nil {
			return nil, err
		}
		scope := map[int]bool{}
		c.scopes = append(c.scopes, scope)
		saveLoop := c.loopDepth
		c.loopDepth = 0 // the body is a macro (caller): no break out of it
		body, _, err := c.block("endgeneration")
		c.loopDepth = saveLoop
		c.scopes = c.scopes[:len(c.scopes)-1]
		if err != nil {
			return nil, err
		}
		slots := sortedSlots(scope)
		return func(st *rstate) error {
			saved := saveSlots(st, slots)
			err := body(st)
			restoreSlots(st, slots, saved)
			popSlots(st, saved)
			return err
		}, nil
	}
	return nil, fmt.Errorf("unsupported tag %s", kw)
}

func (c *compiler) inLoop() bool { return c.loopDepth > 0 }

func (c *compiler) ifStmt(p *ep) (stmt, error) {
	type branch struct {
		cond func(*rstate) (bool, error)
		body stmt
	}
	var branches []branch
	var elseBody stmt
	for {
		cond, err := p.tuple(true)
		if err != nil {
			return nil, err
		}
		if p.i != len(p.toks) {
			return nil, fmt.Errorf("unexpected %q in if", p.toks[p.i].text)
		}
		body, end, err := c.block("elif", "else", "endif")
		if err != nil {
			return nil, err
		}
		branches = append(branches, branch{cond.cond(), body})
		if end == "elif" {
			p = &ep{c: c, toks: c.evs[c.pos-1].toks, i: 1}
			continue
		}
		if end == "else" {
			if len(c.evs[c.pos-1].toks) != 1 {
				return nil, fmt.Errorf("else takes nothing")
			}
			elseBody, _, err = c.block("endif")
			if err != nil {
				return nil, err
			}
		}
		if len(c.evs[c.pos-1].toks) != 1 {
			return nil, fmt.Errorf("endif takes nothing")
		}
		break
	}
	return func(st *rstate) error {
		for _, b := range branches {
			t, err := b.cond(st)
			if err != nil {
				return err
			}
			if t {
				return b.body(st)
			}
		}
		if elseBody != nil {
			return elseBody(st)
		}
		return nil
	}, nil
}

// targets parses assignment targets: name or name, name, … (optionally
// parenthesised).
func (p *ep) targets() ([]string, error) {
	paren := p.acceptOp("(")
	var names []string
	for {
		t := p.peek()
		if t.kind != tokName || isReserved(t.text) {
			return nil, fmt.Errorf("bad assignment target %q", t.text)
		}
		names = append(names, t.text)
		p.i++
		if !p.acceptOp(",") {
			break
		}
		if pk := p.peek(); pk.kind != tokName || pk.text == "in" {
			break
		}
	}
	if paren && !p.acceptOp(")") {
		return nil, fmt.Errorf("missing )")
	}
	return names, nil
}

func isReserved(s string) bool {
	switch s {
	case "true", "false", "none", "True", "False", "None", "in", "is", "and", "or", "not", "if", "else", "loop":
		return true
	}
	return false
}

func (c *compiler) forStmt(p *ep) (stmt, error) {
	names, err := p.targets()
	if err != nil {
		return nil, err
	}
	if !p.acceptName("in") {
		return nil, fmt.Errorf("for without in")
	}
	iter, err := p.tuple(true)
	if err != nil {
		return nil, err
	}
	scope := map[int]bool{}
	c.scopes = append(c.scopes, scope)
	defer func() { c.scopes = c.scopes[:len(c.scopes)-1] }()
	targets := make([]int, len(names))
	for i, n := range names {
		targets[i] = c.assign(n)
	}
	var cond expr
	if p.acceptName("if") {
		// The filter reads the outer loop variable, so it is compiled
		// before this loop's loop is assigned.
		x, err := p.tuple(true)
		if err != nil {
			return nil, err
		}
		cond = x.fn
	}
	if p.acceptName("recursive") {
		return nil, fmt.Errorf("recursive loops are not modelled")
	}
	if p.i != len(p.toks) {
		return nil, fmt.Errorf("unexpected %q in for", p.toks[p.i].text)
	}
	loopSlot := c.assign("loop")
	c.loopDepth++
	body, end, err := c.block("else", "endfor")
	c.loopDepth--
	if err != nil {
		return nil, err
	}
	var elseBody stmt
	if end == "else" {
		elseBody, _, err = c.block("endfor")
		if err != nil {
			return nil, err
		}
	}
	slots := sortedSlots(scope)
	iterFn := iter.fn
	var reset []int
	for k, s := range slots {
		if s != loopSlot && !slices.Contains(targets, s) {
			reset = append(reset, k)
		}
	}
	run := (&forLoop{slots: slots, targets: targets, reset: reset, cond: cond, body: body, elseBody: elseBody, loopSlot: loopSlot}).run
	return func(st *rstate) error {
		if err := st.ctx.Err(); err != nil {
			return err
		}
		v, err := iterFn(st)
		if err != nil {
			return err
		}
		items, err := iterate(v)
		if err != nil {
			return err
		}
		saved := saveSlots(st, slots)
		err = run(st, items, saved)
		restoreSlots(st, slots, saved)
		popSlots(st, saved)
		return err
	}, nil
}

// run runs a for loop's iterations over items, the slots of its scope
// saved in saved.
func (l *forLoop) run(st *rstate, items []value, saved []value) error {
	slots, targets, cond, body, elseBody, loopSlot := l.slots, l.targets, l.cond, l.body, l.elseBody, l.loopSlot
	if cond != nil {
		var kept []value
		for _, it := range items {
			if err := bindTargets(st, targets, it); err != nil {
				return err
			}
			t, err := truthOf(cond(st))
			if err != nil {
				return err
			}
			if t {
				kept = append(kept, it)
			}
		}
		items = kept
		restoreSlots(st, slots, saved) // the else block sees no target
	}
	ls := st.newLoop(items)
	if len(items) > 0 {
		// The body cannot assign loop, and a loop inside it restores it.
		st.slots[loopSlot] = value{k: vLoop, ref: ls}
	}
	for i, it := range items {
		if st.budget--; st.budget <= 0 {
			if err := st.ctx.Err(); err != nil {
				return err
			}
			st.budget = 1000
		}
		if i > 0 {
			for _, k := range l.reset {
				st.slots[slots[k]] = saved[k]
			}
		}
		ls.i = i
		if err := bindTargets(st, targets, it); err != nil {
			return err
		}
		if err := body(st); err != nil {
			if err == errBreak {
				break
			}
			if err == errContinue {
				continue
			}
			return err
		}
	}
	if len(items) == 0 && elseBody != nil {
		return elseBody(st)
	}
	return nil
}

// forLoop is a compiled for loop.
type forLoop struct {
	slots, targets []int // the slots its scope assigns; its targets
	// reset are the indexes in slots of those each iteration restores
	// (all but the targets and loop, which it assigns).
	reset          []int
	cond           expr // the filter (for x in y if cond), or nil
	body, elseBody stmt
	loopSlot       int
}

type loopState struct {
	items []value
	i     int
}

func bindTargets(st *rstate, targets []int, it value) error {
	if len(targets) == 1 {
		st.slots[targets[0]] = it
		return nil
	}
	if it.k != vList || (it.list().flavor != flList && it.list().flavor != flTuple) || len(it.list().items) != len(targets) {
		return unmodelled("unpacking this value")
	}
	for i, s := range targets {
		st.slots[s] = it.list().items[i]
	}
	return nil
}

func sortedSlots(scope map[int]bool) []int {
	out := make([]int, 0, len(scope))
	for i := range len(scope) + 1000 {
		if len(out) == len(scope) {
			break
		}
		if scope[i] {
			out = append(out, i)
		}
	}
	return out
}

// saveSlots pushes the slots' values on the rendering's stack and
// returns them; popSlots takes them off.
func saveSlots(st *rstate, slots []int) []value {
	base := len(st.stack)
	for _, s := range slots {
		st.stack = append(st.stack, st.slots[s])
	}
	return st.stack[base:len(st.stack):len(st.stack)]
}

func popSlots(st *rstate, saved []value) {
	st.stack = st.stack[:len(st.stack)-len(saved)]
}

func restoreSlots(st *rstate, slots []int, saved []value) {
	for i, s := range slots {
		st.slots[s] = saved[i]
	}
}

func (c *compiler) setStmt(p *ep) (stmt, error) {
	t := p.peek()
	if t.kind != tokName || isReserved(t.text) {
		return nil, fmt.Errorf("bad set target")
	}
	// set ns.attr = value
	if p.peekAt(1).text == "." && p.peekAt(1).kind == tokOther {
		nsSlot := c.read(t.text)
		attr := p.peekAt(2)
		if attr.kind != tokName {
			return nil, fmt.Errorf("bad set target")
		}
		p.i += 3
		if !p.acceptOp("=") {
			return nil, fmt.Errorf("set without =")
		}
		x, err := p.tuple(false)
		if err != nil {
			return nil, err
		}
		if p.i != len(p.toks) {
			return nil, fmt.Errorf("unexpected %q in set", p.toks[p.i].text)
		}
		name, fn := attr.text, x.fn
		return func(st *rstate) error {
			ns, err := nsSlot(st)
			if err != nil {
				return err
			}
			if ns.k != vNS {
				return unmodelled("assigning an attribute of a non-namespace")
			}
			v, err := fn(st)
			if err != nil {
				return err
			}
			ns.dict().set(name, v)
			return nil
		}, nil
	}
	names, err := p.targets()
	if err != nil {
		return nil, err
	}
	if p.i == len(p.toks) {
		// {% set x %}…{% endset %}
		if len(names) != 1 {
			return nil, fmt.Errorf("block set of several names")
		}
		body, _, err := c.block("endset")
		if err != nil {
			return nil, err
		}
		if len(c.evs[c.pos-1].toks) != 1 {
			return nil, fmt.Errorf("endset takes nothing")
		}
		s := c.assign(names[0])
		return func(st *rstate) error {
			start := len(st.out)
			if err := body(st); err != nil {
				return err
			}
			v := strV(string(st.out[start:]))
			st.out = st.out[:start]
			st.slots[s] = v
			return nil
		}, nil
	}
	if !p.acceptOp("=") {
		return nil, fmt.Errorf("set without =")
	}
	x, err := p.tuple(false)
	if err != nil {
		return nil, err
	}
	if p.i != len(p.toks) {
		return nil, fmt.Errorf("unexpected %q in set", p.toks[p.i].text)
	}
	targets := make([]int, len(names))
	for i, n := range names {
		targets[i] = c.assign(n)
	}
	fn := x.fn
	if len(targets) == 1 {
		s := targets[0]
		return func(st *rstate) error {
			v, err := fn(st)
			if err != nil {
				return err
			}
			st.slots[s] = v
			return nil
		}, nil
	}
	return func(st *rstate) error {
		v, err := fn(st)
		if err != nil {
			return err
		}
		return bindTargets(st, targets, v)
	}, nil
}

// macro is a compiled {% macro %}.
type macro struct {
	params   []int
	defaults []expr // nil where none
	names    []string
	body     stmt
	slots    []int // the slots the body assigns (params included)
}

func (c *compiler) macroStmt(p *ep) (stmt, error) {
	if len(c.scopes) > 0 || c.macro {
		return nil, fmt.Errorf("a macro inside a block is not modelled")
	}
	name := p.peek()
	if name.kind != tokName || isReserved(name.text) {
		return nil, fmt.Errorf("bad macro name")
	}
	p.i++
	if !p.acceptOp("(") {
		return nil, fmt.Errorf("macro without (")
	}
	scope := map[int]bool{}
	c.scopes = append(c.scopes, scope)
	defer func() { c.scopes = c.scopes[:len(c.scopes)-1] }()
	m := &macro{}
	c.macro, c.params = true, map[string]bool{}
	defer func() { c.macro, c.params = false, nil }()
	for !p.acceptOp(")") {
		t := p.peek()
		if t.kind != tokName || isReserved(t.text) || t.text == "varargs" || t.text == "kwargs" || t.text == "caller" {
			return nil, fmt.Errorf("bad macro parameter")
		}
		p.i++
		var def expr
		if p.acceptOp("=") {
			x, err := p.expression(false)
			if err != nil {
				return nil, err
			}
			def = x.fn
		}
		m.params = append(m.params, c.assign(t.text))
		m.names = append(m.names, t.text)
		m.defaults = append(m.defaults, def)
		c.params[t.text] = true
		if !p.acceptOp(",") {
			if !p.acceptOp(")") {
				return nil, fmt.Errorf("bad macro parameters")
			}
			break
		}
	}
	if p.i != len(p.toks) {
		return nil, fmt.Errorf("unexpected %q in macro", p.toks[p.i].text)
	}
	saveLoop := c.loopDepth
	c.loopDepth = 0
	body, _, err := c.block("endmacro")
	c.loopDepth = saveLoop
	if err != nil {
		return nil, err
	}
	m.body = body
	m.slots = sortedSlots(scope)
	c.scopes = c.scopes[:len(c.scopes)-1]
	s := c.assign(name.text)
	c.scopes = append(c.scopes, scope)
	mv := value{k: vMacro, ref: m}
	return func(st *rstate) error {
		st.slots[s] = mv
		return nil
	}, nil
}

// call calls a macro with its arguments.
func (m *macro) call(st *rstate, args []value, kw []kwarg) (value, error) {
	if len(args) > len(m.params) {
		return undef, unmodelled("extra macro arguments")
	}
	if st.depth++; st.depth > 100 {
		return undef, unmodelled("deep macro recursion")
	}
	defer func() { st.depth-- }()
	vals := make([]value, len(m.params))
	set := make([]bool, len(m.params))
	copy(vals, args)
	for i := range args {
		set[i] = true
	}
	for _, k := range kw {
		found := false
		for i, n := range m.names {
			if n == k.name {
				if set[i] {
					return undef, unmodelled("macro argument given twice")
				}
				vals[i], set[i], found = k.val, true, true
			}
		}
		if !found {
			return undef, unmodelled("unknown macro keyword argument")
		}
	}
	saved := saveSlots(st, m.slots)
	defer func() {
		restoreSlots(st, m.slots, saved)
		popSlots(st, saved)
	}()
	for i, s := range m.params {
		st.slots[s] = undef
		if set[i] {
			st.slots[s] = vals[i]
		}
	}
	for i, s := range m.params {
		if !set[i] && m.defaults[i] != nil {
			v, err := m.defaults[i](st)
			if err != nil {
				return undef, err
			}
			st.slots[s] = v
		}
	}
	start := len(st.out)
	if err := m.body(st); err != nil {
		st.out = st.out[:start]
		return undef, err
	}
	out := strV(string(st.out[start:]))
	st.out = st.out[:start]
	return out, nil
}

// read returns an expression reading a variable.
func (c *compiler) read(name string) expr { return c.readVar(name).fn }

func (c *compiler) readVar(name string) cx {
	if c.macro && !c.params[name] {
		c.macroFree[name] = true
	}
	s := c.slotOf(name)
	return cx{fn: func(st *rstate) (value, error) { return st.slots[s], nil },
		at: func(st *rstate) *value { return &st.slots[s] }, isVar: true, slot: s, pure: true}
}

// ---------------------------------------------------------------- expressions

// ep parses one tag's expression tokens.
type ep struct {
	c    *compiler
	toks []token
	i    int
}

// cx is a compiled expression, with its value when it is a constant.
type cx struct {
	fn    expr
	konst *value
	// write, when set, writes the value to the output without building it.
	write stmt
	// test, when set, evaluates the expression's truth directly.
	test func(*rstate) (bool, error)
	// at, when set, returns where the value is stored (a variable, or
	// an item of a dict in one), or nil when fn must compute it.
	at func(*rstate) *value
	// isVar: the expression reads the variable in slot; attr, when set,
	// says it reads that attribute of the variable in slot instead (a
	// dict's item when it is a dict).
	isVar bool
	slot  int
	attr  string
	// num, when set, returns the value when it is an int (ok false when
	// it is not: fn then gives it).
	num func(*rstate) (int64, bool)
	// pure: evaluating the expression has no effect (it reads variables,
	// constants, their items and attributes, and adds ints), so that it
	// may be evaluated twice.
	pure bool
}

func (x cx) constStr() (string, bool) {
	if x.konst != nil && x.konst.k == vStr {
		return x.konst.s, true
	}
	return "", false
}

func konst(v value) cx {
	return cx{fn: func(*rstate) (value, error) { return v, nil }, konst: &v, pure: true}
}

func (p *ep) peek() token { return tokAt(p.toks, p.i) }
func (p *ep) peekAt(n int) token {
	return tokAt(p.toks, p.i+n)
}

func (p *ep) isOp(s string) bool {
	t := p.peek()
	return t.kind == tokOther && t.text == s
}

func (p *ep) acceptOp(s string) bool {
	if p.isOp(s) {
		p.i++
		return true
	}
	return false
}

func (p *ep) isName(s string) bool {
	t := p.peek()
	return t.kind == tokName && t.text == s
}

func (p *ep) acceptName(s string) bool {
	if p.isName(s) {
		p.i++
		return true
	}
	return false
}

// tuple is Jinja2's parse_tuple: an expression, or several separated by
// commas (a tuple). noCond leaves out the conditional expression (if and
// for tags).
func (p *ep) tuple(noCond bool) (cx, error) {
	var items []cx
	for {
		if len(items) > 0 && p.tupleEnd() {
			break
		}
		x, err := p.expressionNC(noCond)
		if err != nil {
			return cx{}, err
		}
		items = append(items, x)
		if !p.acceptOp(",") {
			if len(items) == 1 {
				return x, nil
			}
			break
		}
	}
	return makeList(items, flTuple), nil
}

func (p *ep) tupleEnd() bool {
	t := p.peek()
	if p.i >= len(p.toks) {
		return true
	}
	return t.kind == tokOther && (t.text == ")" || t.text == "]" || t.text == "}") ||
		t.kind == tokName && (t.text == "in" || t.text == "if")
}

func makeList(items []cx, flavor uint8) cx {
	fns := make([]expr, len(items))
	allConst := true
	for i, it := range items {
		fns[i] = it.fn
		if it.konst == nil {
			allConst = false
		}
	}
	if allConst && flavor == flTuple {
		vals := make([]value, len(items))
		for i, it := range items {
			vals[i] = *it.konst
		}
		return cx{fn: func(*rstate) (value, error) { return listV(vals, flavor), nil }}
	}
	return cx{fn: func(st *rstate) (value, error) {
		vals := make([]value, len(fns))
		for i, f := range fns {
			v, err := f(st)
			if err != nil {
				return undef, err
			}
			vals[i] = v
		}
		return listV(vals, flavor), nil
	}}
}

func (p *ep) expression(noCond bool) (cx, error) { return p.expressionNC(noCond) }

func (p *ep) expressionNC(noCond bool) (cx, error) {
	if noCond {
		return p.or()
	}
	return p.condexpr()
}

func (p *ep) condexpr() (cx, error) {
	x, err := p.or()
	if err != nil {
		return cx{}, err
	}
	for p.acceptName("if") {
		cond, err := p.or()
		if err != nil {
			return cx{}, err
		}
		var other expr
		if p.acceptName("else") {
			o, err := p.condexpr()
			if err != nil {
				return cx{}, err
			}
			other = o.fn
		}
		then, test := x.fn, cond.fn
		x = cx{fn: func(st *rstate) (value, error) {
			c, err := test(st)
			if err != nil {
				return undef, err
			}
			t, err := truth(c)
			if err != nil {
				return undef, err
			}
			if t {
				return then(st)
			}
			if other == nil {
				return undef, nil
			}
			return other(st)
		}}
	}
	return x, nil
}

func (p *ep) or() (cx, error) { return p.logical("or", p.and, true) }

func (p *ep) and() (cx, error) { return p.logical("and", p.not, false) }

// logical parses operands of next joined by the keyword op ("or", "and"):
// Python's short circuit, which yields the first operand whose truth is
// stop (true for or, false for and), or else the last one.
func (p *ep) logical(op string, next func() (cx, error), stop bool) (cx, error) {
	x, err := next()
	if err != nil {
		return cx{}, err
	}
	for p.acceptName(op) {
		y, err := next()
		if err != nil {
			return cx{}, err
		}
		a, b := x.fn, y.fn
		ta, tb := x.cond(), y.cond()
		x = cx{fn: func(st *rstate) (value, error) {
			v, err := a(st)
			if err != nil {
				return undef, err
			}
			t, err := truth(v)
			if err != nil || t == stop {
				return v, err
			}
			return b(st)
		}, test: func(st *rstate) (bool, error) {
			// bool(a or b) is bool(a) or bool(b); the same for and.
			t, err := ta(st)
			if err != nil || t == stop {
				return t, err
			}
			return tb(st)
		}}
	}
	return x, nil
}

func (p *ep) not() (cx, error) {
	if p.acceptName("not") {
		x, err := p.not()
		if err != nil {
			return cx{}, err
		}
		t := x.cond()
		return boolCx(func(st *rstate) (bool, error) {
			b, err := t(st)
			return !b, err
		}), nil
	}
	return p.compare()
}

// boolCx is an expression whose value is a bool.
func boolCx(test func(*rstate) (bool, error)) cx {
	return cx{fn: func(st *rstate) (value, error) {
		b, err := test(st)
		return boolV(b), err
	}, test: test}
}

// cond returns the expression as a test of its truth.
func (x cx) cond() func(*rstate) (bool, error) {
	if x.test != nil {
		return x.test
	}
	fn := x.fn
	if at := x.at; at != nil {
		return func(st *rstate) (bool, error) {
			if p := at(st); p != nil {
				return truth(*p)
			}
			v, err := fn(st)
			if err != nil {
				return false, err
			}
			return truth(v)
		}
	}
	return func(st *rstate) (bool, error) {
		v, err := fn(st)
		if err != nil {
			return false, err
		}
		return truth(v)
	}
}

func (p *ep) compare() (cx, error) {
	x, err := p.math1()
	if err != nil {
		return cx{}, err
	}
	type cmp struct {
		op    string
		fn    expr
		konst *value
	}
	var ops []cmp
	for {
		t := p.peek()
		op := ""
		switch {
		case t.kind == tokOther && (t.text == "==" || t.text == "!=" || t.text == "<" || t.text == ">" || t.text == "<=" || t.text == ">="):
			op = t.text
			p.i++
		case t.kind == tokName && t.text == "in":
			op = "in"
			p.i++
		case t.kind == tokName && t.text == "not" && p.peekAt(1).kind == tokName && p.peekAt(1).text == "in":
			op = "notin"
			p.i += 2
		}
		if op == "" {
			break
		}
		y, err := p.math1()
		if err != nil {
			return cx{}, err
		}
		ops = append(ops, cmp{op, y.fn, y.konst})
	}
	if len(ops) == 0 {
		return x, nil
	}
	first := x.fn
	if len(ops) == 1 && (ops[0].op == "==" || ops[0].op == "!=") && ops[0].konst != nil && ops[0].konst.k == vStr {
		// x == 'literal': the commonest test of chat templates.
		want, neg := ops[0].konst.s, ops[0].op == "!="
		computed := func(st *rstate) (bool, error) {
			a, err := first(st)
			if err != nil {
				return false, err
			}
			return eqStr(&a, want, neg)
		}
		if x.attr != "" {
			// message.role == 'user': the item read in place.
			s, name := x.slot, x.attr
			return boolCx(func(st *rstate) (bool, error) {
				if v := &st.slots[s]; v.k == vDict {
					for i, k := range v.ref.(*vdict).keys {
						if k == name {
							return eqStr(&v.ref.(*vdict).vals[i], want, neg)
						}
					}
					return neg, nil // undefined == 'x' is false
				}
				return computed(st)
			}), nil
		}
		if at := x.at; at != nil {
			return boolCx(func(st *rstate) (bool, error) {
				if a := at(st); a != nil {
					return eqStr(a, want, neg)
				}
				return computed(st)
			}), nil
		}
		return boolCx(computed), nil
	}
	if len(ops) == 1 && (ops[0].op == "==" || ops[0].op == "!=") && ops[0].konst != nil {
		// x == constant (loop.index0 == 0, …).
		want, neg := *ops[0].konst, ops[0].op == "!="
		computed := func(st *rstate) (bool, error) {
			a, err := first(st)
			if err != nil {
				return false, err
			}
			if a.k == vInt && want.k == vInt {
				return (a.n == want.n) != neg, nil
			}
			r, err := equal(a, want)
			return r != neg, err
		}
		if num := x.num; num != nil && want.k == vInt {
			return boolCx(func(st *rstate) (bool, error) {
				if n, ok := num(st); ok {
					return (n == want.n) != neg, nil
				}
				return computed(st)
			}), nil
		}
		return boolCx(computed), nil
	}
	if len(ops) == 1 {
		op, second := ops[0].op, ops[0].fn
		return boolCx(func(st *rstate) (bool, error) {
			a, err := first(st)
			if err != nil {
				return false, err
			}
			b, err := second(st)
			if err != nil {
				return false, err
			}
			return compareOp(op, a, b)
		}), nil
	}
	return boolCx(func(st *rstate) (bool, error) {
		a, err := first(st)
		if err != nil {
			return false, err
		}
		for _, o := range ops {
			b, err := o.fn(st)
			if err != nil {
				return false, err
			}
			r, err := compareOp(o.op, a, b)
			if err != nil || !r {
				return false, err
			}
			a = b
		}
		return true, nil
	}), nil
}

// eqStr is (v == want) != neg, for a string want.
func eqStr(v *value, want string, neg bool) (bool, error) {
	if v.k == vStr {
		return (v.s == want) != neg, nil
	}
	r, err := equal(*v, strV(want))
	return r != neg, err
}

func compareOp(op string, a, b value) (bool, error) {
	switch op {
	case "==":
		return equal(a, b)
	case "!=":
		eq, err := equal(a, b)
		return !eq, err
	case "<":
		return less(a, b)
	case ">":
		return less(b, a)
	case "<=":
		r, err := less(b, a)
		return !r && err == nil, err
	case ">=":
		r, err := less(a, b)
		return !r && err == nil, err
	case "in":
		return contains(b, a)
	case "notin":
		r, err := contains(b, a)
		return !r, err
	}
	return false, unmodelled("operator " + op)
}

func (p *ep) binary(next func() (cx, error), ops ...string) (cx, error) {
	x, err := next()
	if err != nil {
		return cx{}, err
	}
	// A run of + (or ~) from the left is compiled as one chain, so that
	// strings are joined once (or written straight to the output).
	var chain []cx
	chainOp := ""
	flush := func() {
		switch {
		case len(chain) == 2 && chainOp == "+" && chain[1].konst != nil && chain[1].konst.k == vInt:
			x = addInt(chain[0], *chain[1].konst, false)
		case len(chain) > 1:
			x = joinChain(chainOp, chain)
		}
		chain, chainOp = nil, ""
	}
	for {
		t := p.peek()
		op := ""
		for _, o := range ops {
			if t.kind == tokOther && t.text == o {
				op = o
			}
		}
		if op == "" {
			flush()
			return x, nil
		}
		p.i++
		y, err := next()
		if err != nil {
			return cx{}, err
		}
		if len(chain) == 0 && x.konst != nil && y.konst != nil {
			if v, err := arith(op, *x.konst, *y.konst); err == nil {
				x = konst(v)
				continue
			}
		}
		if op == "+" || op == "~" {
			if chainOp != op {
				flush()
				chain, chainOp = []cx{x}, op
			}
			chain = append(chain, y)
			continue
		}
		flush()
		if op == "-" && y.konst != nil {
			x = addInt(x, *y.konst, true)
			continue
		}
		a, b := x.fn, y.fn
		x = cx{fn: func(st *rstate) (value, error) {
			l, err := a(st)
			if err != nil {
				return undef, err
			}
			r, err := b(st)
			if err != nil {
				return undef, err
			}
			return arith(op, l, r)
		}}
	}
}

// addInt compiles x + n (x - n when sub) for a constant n (loop.index0 +
// 1, …), with ints added in place.
func addInt(xc cx, n value, sub bool) cx {
	x, op, d := xc.fn, "+", n.n
	if sub {
		op, d = "-", -n.n
	}
	slow := func(st *rstate) (value, error) {
		v, err := x(st)
		if err != nil {
			return undef, err
		}
		if r := v.n + d; v.k == vInt && (r > v.n) == (d > 0) {
			return intV(r), nil
		}
		return arith(op, v, n)
	}
	if n.k != vInt || d == math.MinInt64 {
		return cx{fn: func(st *rstate) (value, error) {
			v, err := x(st)
			if err != nil {
				return undef, err
			}
			return arith(op, v, n)
		}, pure: xc.pure}
	}
	xn := xc.num
	if xn == nil {
		return cx{fn: slow, pure: xc.pure}
	}
	num := func(st *rstate) (int64, bool) {
		if v, ok := xn(st); ok {
			if r := v + d; (r > v) == (d > 0) {
				return r, true
			}
		}
		return 0, false
	}
	return cx{fn: func(st *rstate) (value, error) {
		if r, ok := num(st); ok {
			return intV(r), nil
		}
		return slow(st)
	}, num: num, pure: xc.pure}
}

// joinChain compiles a + b + c … (or a ~ b ~ c …), left-associative as in
// Python. When the operands are all strings (always, for ~) the result is
// their concatenation, written straight to the output (or built there);
// otherwise the operators are applied one by one from the first operand
// that is not a string. Adjacent string constants are joined at compile
// time: a string before them makes that the same string, anything else
// fails either way. (Python would stop at the first failing operator
// before evaluating the rest; a failure sends the call to the engine
// anyway, and operands have no effects.)
func joinChain(op string, chain []cx) cx {
	var fns []expr
	var ats []func(*rstate) *value
	var konsts []string // konsts[i] is the i-th operand when isKonst[i]
	var isKonst []bool
	for _, c := range chain {
		cs, ok := c.constStr()
		if n := len(fns); ok && n > 0 && isKonst[n-1] {
			konsts[n-1] += cs
			continue
		}
		fns, ats = append(fns, c.fn), append(ats, c.at)
		konsts, isKonst = append(konsts, cs), append(isKonst, ok)
	}
	// run appends the operands to st.out while they are strings. At the
	// first that is not (for +), it takes back what it appended and
	// returns the chain's value, with isStr false.
	run := func(st *rstate) (v value, isStr bool, err error) {
		start := len(st.out)
		for i, f := range fns {
			if isKonst[i] {
				st.out = append(st.out, konsts[i]...)
				continue
			}
			if at := ats[i]; at != nil {
				if p := at(st); p != nil && p.k == vStr {
					st.out = append(st.out, p.s...)
					continue
				}
			}
			if v, err = f(st); err != nil {
				st.out = st.out[:start]
				return undef, false, err
			}
			if v.k == vStr {
				st.out = append(st.out, v.s...)
				continue
			}
			if op == "~" {
				if st.out, err = appendStr(st.out, v); err != nil {
					st.out = st.out[:start]
					return undef, false, err
				}
				continue
			}
			if i > 0 {
				v, err = arith(op, strV(string(st.out[start:])), v)
			}
			st.out = st.out[:start]
			for _, g := range fns[i+1:] {
				if err != nil {
					break
				}
				var w value
				if w, err = g(st); err == nil {
					v, err = arith(op, v, w)
				}
			}
			return v, false, err
		}
		return undef, true, nil
	}
	return cx{
		fn: func(st *rstate) (value, error) {
			start := len(st.out)
			v, isStr, err := run(st)
			if err != nil || !isStr {
				return v, err
			}
			v = strV(string(st.out[start:]))
			st.out = st.out[:start]
			return v, nil
		},
		write: func(st *rstate) error {
			v, isStr, err := run(st)
			if err != nil || isStr {
				return err
			}
			st.out, err = appendStr(st.out, v)
			return err
		},
	}
}

func (p *ep) math1() (cx, error)  { return p.binary(p.concat, "+", "-") }
func (p *ep) concat() (cx, error) { return p.binary(p.math2, "~") }
func (p *ep) math2() (cx, error)  { return p.binary(p.pow, "*", "/", "//", "%") }
func (p *ep) pow() (cx, error)    { return p.binary(p.unaryF, "**") }
func (p *ep) unaryF() (cx, error) { return p.unary(true) }

func (p *ep) unary(withFilter bool) (cx, error) {
	var x cx
	var err error
	switch {
	case p.isOp("-"), p.isOp("+"):
		op := p.peek().text
		p.i++
		y, err := p.unary(false)
		if err != nil {
			return cx{}, err
		}
		a := y.fn
		x = cx{fn: func(st *rstate) (value, error) {
			v, err := a(st)
			if err != nil {
				return undef, err
			}
			return unaryOp(op, v)
		}}
		if y.konst != nil {
			if v, err := unaryOp(op, *y.konst); err == nil {
				x = konst(v)
			}
		}
	default:
		x, err = p.primary()
		if err != nil {
			return cx{}, err
		}
	}
	x, err = p.postfix(x)
	if err != nil {
		return cx{}, err
	}
	if withFilter {
		return p.filterExpr(x)
	}
	return x, nil
}

func unaryOp(op string, v value) (value, error) {
	switch {
	case v.k == vInt && op == "-" && v.n != -1<<63:
		return intV(-v.n), nil
	case v.k == vInt:
		return v, nil
	case v.k == vFloat && op == "-":
		return floatV(-v.f()), nil
	case v.k == vFloat:
		return v, nil
	}
	return undef, unmodelled("unary " + op + " of this value")
}

func (p *ep) primary() (cx, error) {
	t := p.peek()
	switch t.kind {
	case tokName:
		p.i++
		switch t.text {
		case "true", "True":
			return konst(vTrue), nil
		case "false", "False":
			return konst(vFalse), nil
		case "none", "None":
			return konst(none), nil
		}
		if isReserved(t.text) && t.text != "loop" {
			return cx{}, fmt.Errorf("unexpected %s", t.text)
		}
		// A call of a built-in function the template does not assign.
		if p.isOp("(") && !p.c.assigned[t.text] {
			if b, ok := builtinFuncs[t.text]; ok {
				p.i++
				args, kw, err := p.callArgs()
				if err != nil {
					return cx{}, err
				}
				return b(args, kw)
			}
		}
		if !p.c.assigned[t.text] {
			if _, ok := builtinFuncs[t.text]; ok {
				return cx{}, fmt.Errorf("the function %s used as a value", t.text)
			}
		}
		return p.c.readVar(t.text), nil
	case tokStr:
		var b strings.Builder
		for p.peek().kind == tokStr && p.i < len(p.toks) {
			b.WriteString(p.peek().text)
			p.i++
		}
		return konst(strV(intern(b.String()))), nil
	}
	switch {
	case t.text != "" && t.text[0] >= '0' && t.text[0] <= '9':
		p.i++
		return number(t.text)
	case t.text == "(":
		p.i++
		if p.acceptOp(")") {
			return konst(listV(nil, flTuple)), nil
		}
		x, err := p.expression(false)
		if err != nil {
			return cx{}, err
		}
		if p.acceptOp(")") {
			return x, nil
		}
		if !p.acceptOp(",") {
			return cx{}, fmt.Errorf("missing )")
		}
		items := []cx{x}
		for !p.acceptOp(")") {
			y, err := p.expression(false)
			if err != nil {
				return cx{}, err
			}
			items = append(items, y)
			if !p.acceptOp(",") {
				if !p.acceptOp(")") {
					return cx{}, fmt.Errorf("missing )")
				}
				break
			}
		}
		return makeList(items, flTuple), nil
	case t.text == "[":
		p.i++
		var items []cx
		for !p.acceptOp("]") {
			y, err := p.expression(false)
			if err != nil {
				return cx{}, err
			}
			items = append(items, y)
			if !p.acceptOp(",") {
				if !p.acceptOp("]") {
					return cx{}, fmt.Errorf("missing ]")
				}
				break
			}
		}
		return makeList(items, flList), nil
	case t.text == "{":
		p.i++
		var keys, vals []expr
		for !p.acceptOp("}") {
			k, err := p.expression(false)
			if err != nil {
				return cx{}, err
			}
			if !p.acceptOp(":") {
				return cx{}, fmt.Errorf("missing : in a dict")
			}
			v, err := p.expression(false)
			if err != nil {
				return cx{}, err
			}
			keys, vals = append(keys, k.fn), append(vals, v.fn)
			if !p.acceptOp(",") {
				if !p.acceptOp("}") {
					return cx{}, fmt.Errorf("missing }")
				}
				break
			}
		}
		return cx{fn: func(st *rstate) (value, error) {
			d := &vdict{}
			for i := range keys {
				k, err := keys[i](st)
				if err != nil {
					return undef, err
				}
				if k.k != vStr {
					return undef, unmodelled("a dict key that is not a string")
				}
				v, err := vals[i](st)
				if err != nil {
					return undef, err
				}
				d.set(k.s, v)
			}
			return dictV(d), nil
		}}, nil
	}
	return cx{}, fmt.Errorf("unexpected %q", t.text)
}

func number(s string) (cx, error) {
	clean := strings.ReplaceAll(s, "_", "")
	if n, err := strconv.ParseInt(clean, 10, 64); err == nil && !strings.ContainsAny(s, ".eE") {
		if len(clean) > 1 && clean[0] == '0' {
			return cx{}, fmt.Errorf("number %s", s)
		}
		return konst(intV(n)), nil
	}
	if strings.ContainsAny(s, "eE") || strings.Count(s, ".") != 1 || strings.HasSuffix(s, ".") {
		return cx{}, fmt.Errorf("number %s not modelled", s)
	}
	f, err := strconv.ParseFloat(clean, 64)
	if err != nil {
		return cx{}, fmt.Errorf("number %s", s)
	}
	return konst(floatV(f)), nil
}

func (p *ep) postfix(x cx) (cx, error) {
	for {
		switch {
		case p.isOp("."):
			t := p.peekAt(1)
			p.i += 2
			if t.kind == tokName {
				if p.isOp("(") {
					p.i++
					args, kw, err := p.callArgs()
					if err != nil {
						return cx{}, err
					}
					x = methodCall(x.fn, t.text, args, kw)
					continue
				}
				x = getattrX(x, intern(t.text))
				continue
			}
			if t.kind == tokOther && t.text != "" && t.text[0] >= '0' && t.text[0] <= '9' && !strings.ContainsAny(t.text, "._eE") {
				n, err := strconv.ParseInt(t.text, 10, 64)
				if err != nil {
					return cx{}, err
				}
				x = getitemX(x, konst(intV(n)))
				continue
			}
			return cx{}, fmt.Errorf("bad attribute")
		case p.isOp("["):
			p.i++
			var err error
			x, err = p.subscript(x)
			if err != nil {
				return cx{}, err
			}
		case p.isOp("("):
			p.i++
			args, kw, err := p.callArgs()
			if err != nil {
				return cx{}, err
			}
			x = callValue(x.fn, args, kw)
		default:
			return x, nil
		}
	}
}

func (p *ep) subscript(x cx) (cx, error) {
	var parts [3]expr
	var parts0 cx
	isSlice := false
	idx := 0
	for {
		if p.acceptOp("]") {
			break
		}
		if p.acceptOp(":") {
			isSlice = true
			idx++
			if idx > 2 {
				return cx{}, fmt.Errorf("bad slice")
			}
			continue
		}
		if p.isOp(",") {
			return cx{}, fmt.Errorf("tuple subscripts are not modelled")
		}
		y, err := p.expression(false)
		if err != nil {
			return cx{}, err
		}
		if parts[idx] != nil {
			return cx{}, fmt.Errorf("bad subscript")
		}
		parts[idx] = y.fn
		if idx == 0 {
			parts0 = y
		}
	}
	if !isSlice {
		if parts[0] == nil {
			return cx{}, fmt.Errorf("empty subscript")
		}
		return getitemX(x, parts0), nil
	}
	obj := x.fn
	return cx{fn: func(st *rstate) (value, error) {
		v, err := obj(st)
		if err != nil {
			return undef, err
		}
		var idx [3]*int64
		for i, f := range parts {
			if f == nil {
				continue
			}
			iv, err := f(st)
			if err != nil {
				return undef, err
			}
			switch iv.k {
			case vNone:
			case vInt:
				n := iv.n
				idx[i] = &n
			default:
				return undef, unmodelled("a slice index that is not an int")
			}
		}
		return slice(v, idx[0], idx[1], idx[2])
	}}, nil
}

type kwarg struct {
	name string
	val  value
}

type cxArg struct {
	name string // keyword, or "" for a positional argument
	fn   expr
}

func (p *ep) callArgs() ([]expr, []cxArg, error) {
	var args []expr
	var kw []cxArg
	for !p.acceptOp(")") {
		if p.isOp("*") || p.isOp("**") {
			return nil, nil, fmt.Errorf("*args are not modelled")
		}
		if t := p.peek(); t.kind == tokName && p.peekAt(1).kind == tokOther && p.peekAt(1).text == "=" {
			p.i += 2
			y, err := p.expression(false)
			if err != nil {
				return nil, nil, err
			}
			kw = append(kw, cxArg{t.text, y.fn})
		} else {
			if len(kw) > 0 {
				return nil, nil, fmt.Errorf("positional argument after keyword")
			}
			y, err := p.expression(false)
			if err != nil {
				return nil, nil, err
			}
			args = append(args, y.fn)
		}
		if !p.acceptOp(",") {
			if !p.acceptOp(")") {
				return nil, nil, fmt.Errorf("missing ) in a call")
			}
			break
		}
	}
	return args, kw, nil
}

func evalArgs(st *rstate, args []expr, kw []cxArg) ([]value, []kwarg, error) {
	var vals []value
	if len(args) > 0 {
		vals = make([]value, len(args))
		for i, a := range args {
			v, err := a(st)
			if err != nil {
				return nil, nil, err
			}
			vals[i] = v
		}
	}
	var kws []kwarg
	if len(kw) > 0 {
		kws = make([]kwarg, len(kw))
		for i, k := range kw {
			v, err := k.fn(st)
			if err != nil {
				return nil, nil, err
			}
			kws[i] = kwarg{k.name, v}
		}
	}
	return vals, kws, nil
}

func (p *ep) filterExpr(x cx) (cx, error) {
	for {
		switch {
		case p.acceptOp("|"):
			name, err := p.dottedName()
			if err != nil {
				return cx{}, err
			}
			var args []expr
			var kw []cxArg
			if p.acceptOp("(") {
				args, kw, err = p.callArgs()
				if err != nil {
					return cx{}, err
				}
			}
			x, err = makeFilter(name, x, args, kw)
			if err != nil {
				return cx{}, err
			}
		case p.isName("is"):
			p.i++
			neg := p.acceptName("not")
			name, err := p.dottedName()
			if err != nil {
				return cx{}, err
			}
			var args []expr
			var kw []cxArg
			t := p.peek()
			switch {
			case p.acceptOp("("):
				args, kw, err = p.callArgs()
				if err != nil {
					return cx{}, err
				}
			case p.i < len(p.toks) && (t.kind == tokName && t.text != "else" && t.text != "or" && t.text != "and" ||
				t.kind == tokStr || t.kind == tokOther && (t.text[0] >= '0' && t.text[0] <= '9' || t.text == "(" || t.text == "[" || t.text == "{")):
				if t.kind == tokName && t.text == "is" {
					return cx{}, fmt.Errorf("bad test")
				}
				y, err := p.primary()
				if err != nil {
					return cx{}, err
				}
				y, err = p.postfix(y)
				if err != nil {
					return cx{}, err
				}
				args = []expr{y.fn}
			}
			x, err = makeTest(name, neg, x, args, kw)
			if err != nil {
				return cx{}, err
			}
		case p.isOp("("):
			p.i++
			args, kw, err := p.callArgs()
			if err != nil {
				return cx{}, err
			}
			x = callValue(x.fn, args, kw)
		default:
			return x, nil
		}
	}
}

func (p *ep) dottedName() (string, error) {
	t := p.peek()
	if t.kind != tokName {
		return "", fmt.Errorf("expected a name")
	}
	p.i++
	name := t.text
	for p.isOp(".") && p.peekAt(1).kind == tokName {
		name += "." + p.peekAt(1).text
		p.i += 2
	}
	return name, nil
}
