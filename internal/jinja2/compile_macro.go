package jinja2

// Macros and call blocks (jinja2.runtime.Macro).

type macroCode struct {
	name       string
	params     []string
	paramSlots []int
	defaults   []evalFn // nil where a parameter has none
	// unset is what a parameter the call does not give holds while the
	// defaults run (Jinja2's missing: undefined(name=…)), so that a
	// default reading it, or a later parameter, reads an Undefined
	unset          []Value
	callerSlot     int    // -1 when the body does not read caller
	kwargsSlot     int    // -1 when the body does not read kwargs
	varargsSlot    int    // -1 when the body does not read varargs
	explicitCaller bool   // caller is a parameter
	readsCaller    bool   // the body reads caller (Macro.caller)
	anonymous      bool   // a call block's caller: Macro.name is None
	funcName       string // Func.Name: macro 'name'
	repr           string // <Macro 'name'>, <Macro anonymous>
	fn             *fnScope
	init           func(f *frame) error
	body           execFn
	// captures: the body defines a macro, a call block's caller, a
	// generation block or a recursive loop, which may keep the frame past
	// the call; otherwise the frame comes from the render's stack.
	captures bool
	// escOn and escVolatile: the autoescape the body is compiled with
	// (compiler.escOn, compiler.escVolatile where the macro is defined).
	escOn, escVolatile bool
	// yields is the __qualname__ of the Python function when Jinja2's code
	// makes it a generator (includeYields), "" otherwise
	yields string
}

// includeYields reports whether a macro's or a call block's body holds,
// in its own Python function (not in a nested macro, call block or
// recursive loop), an include without context: Jinja2 3.1.6 writes it as
// "yield from template._get_default_module()._body_stream" whatever the
// frame's buffer, which makes the function a generator. Calling the
// macro then gives the generator object, its body never run: printed,
// "<generator object root.<locals>.macro at 0x…>".
func includeYields(body []Stmt) bool {
	return anyNode(func(n Node) bool {
		inc, ok := n.(*Include)
		return ok && !inc.WithContext
	}, func(n Node) bool {
		// the statements Jinja2 writes into the same function
		switch n := n.(type) {
		case *If, *With, *SetBlock, *FilterBlock, *AutoescapeBlock:
			return true
		case *For:
			return !n.Recursive
		}
		return false
	}, body)
}

// yieldedGen is the value of a call of a macro whose function Jinja2 made
// a generator (macroCode.yields): the generator object, or, where the
// macro's eval context autoescapes, Markup of its repr (Macro._invoke's
// Markup(rv)). Iterating it runs the body for the included templates'
// output only, which the package does not model.
func (m *macroCode) yieldedGen(c *Ctx, safe bool) Value {
	g := lazyGen(m.yields, func() ([]Value, error) {
		return nil, &Error{Kind: "Unsupported", Msg: "iterating the generator Jinja2 makes of a macro whose body includes a template without context is not supported"}
	})
	if safe {
		return SafeV(reprOf(c, g))
	}
	return g
}

// capturesFrame reports whether the statements make a callable that
// closes over their frame.
func capturesFrame(body []Stmt) bool {
	return anyNode(func(n Node) bool {
		switch n := n.(type) {
		case *Macro, *CallBlock, *Generation:
			return true
		case *For:
			return n.Recursive
		}
		return false
	}, func(n Node) bool {
		switch n.(type) {
		case *For, *If, *With, *FilterBlock, *SetBlock, *AutoescapeBlock, *Block:
			return true
		}
		return false
	}, body)
}

// undeclared is Jinja2's find_undeclared, which decides whether a macro
// takes caller, kwargs and varargs: the names of names that body reads
// before anything in it stores them. Jinja2 visits each node's fields in
// their declared order, and a store or a parameter of a name (a set, for
// or with target, a nested macro's or call block's parameter) ends the
// search for that name in the rest of the body, whatever the scope; it
// does not look into blocks. So a macro that sets caller before reading
// it takes no caller: its caller attribute is false and a call block
// calling it gets no second caller.
func undeclared(body []Stmt, names ...string) map[string]bool {
	open := map[string]bool{}
	for _, n := range names {
		open[n] = true
	}
	found := map[string]bool{}
	load := func(xs ...Expr) {
		walkExprs(func(n Node) bool {
			if n, ok := n.(*Name); ok && open[n.Name] {
				found[n.Name] = true
			}
			return true
		}, xs...)
	}
	var store func(x Expr)
	store = func(x Expr) {
		switch t := x.(type) {
		case *Name:
			delete(open, t.Name)
		case *TupleLit:
			for _, it := range t.Items {
				store(it)
			}
		}
	}
	params := func(ps []Param) {
		for _, p := range ps {
			delete(open, p.Name)
		}
		for _, p := range ps {
			load(p.Default)
		}
	}
	var stmts func([]Stmt)
	stmts = func(ss []Stmt) {
		for _, s := range ss {
			switch n := s.(type) {
			case *Print:
				load(n.X)
			case *If:
				for i := range n.Tests {
					load(n.Tests[i])
					stmts(n.Bodies[i])
				}
				stmts(n.Else)
			case *For: // target, iter, body, else_, test
				store(n.Target)
				load(n.Iter)
				stmts(n.Body)
				stmts(n.Else)
				load(n.Filter)
			case *Set:
				store(n.Target)
				load(n.Value)
			case *SetBlock:
				store(n.Target)
				load(n.Filter)
				stmts(n.Body)
			case *Macro:
				params(n.Params)
				stmts(n.Body)
			case *CallBlock: // call, args, defaults, body
				if n.Call != nil {
					load(n.Call)
				}
				params(n.Params)
				stmts(n.Body)
			case *FilterBlock: // body, filter
				stmts(n.Body)
				load(n.Filter)
			case *With:
				for _, t := range n.Targets {
					store(t)
				}
				load(n.Values...)
				stmts(n.Body)
			case *Include:
				load(n.Template)
			case *Import:
				load(n.Template)
			case *FromImport:
				load(n.Template)
			case *Extends:
				load(n.Template)
			case *Do:
				load(n.X)
			case *Generation:
				stmts(n.Body)
			case *AutoescapeBlock:
				load(n.X)
				stmts(n.Body)
			}
		}
	}
	stmts(body)
	return found
}

func (c *compiler) compileMacroCode(name string, params []Param, body []Stmt) (*macroCode, error) {
	fs := &fnScope{parent: c.sc.fn, qual: macroQual(c.sc.fn.qual, len(c.recursive))}
	s := &scope{fn: fs, parent: c.sc, vars: map[string]int{}}
	// the body is a Python function of its own, buffered as a whole
	bufDepth := c.bufDepth
	c.bufDepth = 0
	defer func() { c.bufDepth = bufDepth }()
	m := &macroCode{name: name, callerSlot: -1, kwargsSlot: -1, varargsSlot: -1, fn: fs, captures: capturesFrame(body),
		funcName: "macro " + pyQuote(name), repr: "<Macro " + pyQuote(name) + ">", escOn: c.escOn, escVolatile: c.escVolatile}
	skip := map[string]bool{}
	reads := undeclared(body, "caller", "kwargs", "varargs")
	for _, p := range params {
		if p.Name == "caller" && p.Default == nil && reads["caller"] {
			return nil, c.errAt(p, "TemplateAssertionError", `When defining macros or call blocks the special "caller" argument must be omitted or be given a default.`)
		}
		m.params = append(m.params, p.Name)
		m.paramSlots = append(m.paramSlots, s.declare(p.Name))
		m.unset = append(m.unset, Undef(pyQuote(p.Name)+" is undefined"))
		skip[p.Name] = true
		if p.Name == "caller" {
			m.explicitCaller = true
		}
	}
	m.readsCaller = reads["caller"]
	for _, special := range []string{"caller", "kwargs", "varargs"} {
		if skip[special] || !reads[special] {
			continue
		}
		slot := s.declare(special)
		skip[special] = true
		switch special {
		case "caller":
			m.callerSlot = slot
		case "kwargs":
			m.kwargsSlot = slot
		case "varargs":
			m.varargsSlot = slot
		}
	}
	var specials []string
	for _, special := range []string{"caller", "kwargs", "varargs"} {
		if reads[special] {
			specials = append(specials, special)
		}
	}
	s.syms = symsMacro(params, specials, body)
	for _, n := range assigned(body) {
		s.declare(n)
	}
	saved := *c
	c.sc, c.soft, c.loops, c.recursive = s, 0, 0, nil
	defer func() {
		c.sc, c.soft, c.loops, c.recursive = saved.sc, saved.soft, saved.loops, saved.recursive
	}()
	m.defaults = make([]evalFn, len(params))
	for i, p := range params {
		if p.Default != nil {
			d, err := c.compileExpr(p.Default)
			if err != nil {
				return nil, err
			}
			m.defaults[i] = d
		}
	}
	b, err := c.compileStmts(body)
	if err != nil {
		return nil, err
	}
	m.body = b
	m.init = c.scopeInit(s, skip)
	return m, nil
}

func (c *compiler) compileMacro(n *Macro) (execFn, error) {
	m, err := c.compileMacroCode(n.Name, n.Params, n.Body)
	if err != nil {
		return nil, err
	}
	if includeYields(n.Body) {
		m.yields = m.fn.qual
	}
	st := c.storeName(n.Name)
	return func(f *frame) error {
		st(f, m.value(f))
		return nil
	}, nil
}

// value is the macro as a callable closed over its defining frame.
func (m *macroCode) value(def *frame) Value {
	return FuncV(&Func{Name: m.funcName, Repr: m.repr, mac: m, def: def})
}

// attr is the attributes of jinja2.runtime.Macro: name, arguments,
// catch_kwargs, catch_varargs and caller.
func (m *macroCode) attr(name string) (Value, bool) {
	switch name {
	case "name":
		if m.anonymous {
			return NoneV(), true
		}
		return StrV(m.name), true
	case "arguments":
		return strTuple(m.params), true
	case "catch_kwargs":
		return BoolV(m.kwargsSlot >= 0), true
	case "catch_varargs":
		return BoolV(m.varargsSlot >= 0), true
	case "caller":
		return BoolV(m.readsCaller), true
	}
	return m.private(name)
}

func (m *macroCode) typeErr(msg string) error {
	if m.anonymous {
		// a call block's caller: its Macro's name is None
		return &Error{Kind: "TypeError", Msg: "macro None " + msg}
	}
	return &Error{Kind: "TypeError", Msg: "macro " + pyQuote(m.name) + " " + msg}
}

// call is Macro.__call__ and the macro's body: its output (a str, as
// Jinja2 compiles a macro's body), Markup when the calling eval context
// autoescapes.
func (m *macroCode) call(c *Ctx, def *frame, args []Value, kw []Kwarg) (Value, error) {
	safe := c.Autoescape()
	start := len(c.out)
	if err := m.callInto(c, def, args, kw); err != nil {
		c.cutOut(start)
		return Value{}, err
	}
	if m.yields != "" {
		c.cutOut(start)
		return m.yieldedGen(c, safe), nil
	}
	out := string(c.out[start:])
	c.cutOut(start)
	if safe {
		return SafeV(out), nil
	}
	return StrV(out), nil
}

// printsInto reports whether printing a call of a macro here may write
// its output as it is (callInto): the call's value is Markup, or printing
// here does not escape.
func printsInto(c *Ctx) bool { return !c.autoescape || c.Autoescape() }

// callInto is call writing the macro's output at the end of the render's
// output, which is what printing call's value writes where printsInto
// says so. It keeps neither args nor kw.
//
// It restores the render's state without defer: Go's defers here were
// not open-coded (too many returns), and a call paid for each; a panic
// leaves the state to the next render's reset of the pooled Ctx.
func (m *macroCode) callInto(c *Ctx, def *frame, args []Value, kw []Kwarg) error {
	if err := c.enter(); err != nil {
		return err
	}
	var inh *inheritance
	if def != nil && def.tc != nil {
		inh = def.tc.inh
	}
	saved := c.enterCode(m.escOn, m.escVolatile, inh)
	var err error
	if m.captures {
		err = m.run(c, &frame{c: c, tc: def.tc, up: def, slots: make([]Value, m.fn.nslots)}, args, kw)
	} else {
		mark := c.stackTop
		err = m.run(c, c.pushFrame(def, m.fn.nslots), args, kw)
		c.release(mark)
	}
	c.leaveCode(saved)
	c.leave()
	if err == nil && m.yields != "" {
		// printed where callInto writes: str of the generator, or its
		// Markup
		return c.writeOwn(reprOf(c, m.yieldedGen(c, false)))
	}
	return err
}

// run binds the arguments of a call in f, the call's frame, and runs the
// body.
func (m *macroCode) run(c *Ctx, f *frame, args []Value, kw []Kwarg) error {
	f.initFree(m.fn)
	if m.init != nil {
		_ = m.init(f)
	}
	n := len(m.params)
	var missBuf, usedBuf [8]bool
	var missing, used []bool
	if n <= len(missBuf) {
		missing = missBuf[:n]
	} else {
		missing = make([]bool, n)
	}
	if len(kw) <= len(usedBuf) {
		used = usedBuf[:len(kw)]
	} else {
		used = make([]bool, len(kw))
	}
	foundCaller := false
	for i := 0; i < n; i++ {
		if i < len(args) {
			f.slots[m.paramSlots[i]] = args[i]
			continue
		}
		found := false
		for k := range kw {
			if !used[k] && kw[k].Name == m.params[i] {
				f.slots[m.paramSlots[i]] = kw[k].Value
				used[k] = true
				found = true
				break
			}
		}
		if m.params[i] == "caller" {
			foundCaller = true
		}
		missing[i] = !found
		if !found {
			f.slots[m.paramSlots[i]] = m.unset[i]
		}
	}
	if len(args) >= n {
		foundCaller = m.explicitCaller
	}
	if m.callerSlot >= 0 && !foundCaller {
		// Macro.__call__ pops caller from the keywords, and None is
		// no caller: caller=none is Undefined too
		v := Undef("No caller defined")
		for k := range kw {
			if !used[k] && kw[k].Name == "caller" {
				if kw[k].Value.kind != KindNone {
					v = kw[k].Value
				}
				used[k] = true
				break
			}
		}
		f.slots[m.callerSlot] = v
	}
	if m.kwargsSlot >= 0 {
		d := NewDict(0)
		for k := range kw {
			if !used[k] {
				d.Set(StrV(kw[k].Name), kw[k].Value)
			}
		}
		f.slots[m.kwargsSlot] = DictV(d)
	} else {
		for k := range kw {
			if !used[k] {
				if kw[k].Name == "caller" {
					return m.typeErr("was invoked with two values for the special caller argument. This is most likely a bug.")
				}
				return m.typeErr("takes no keyword argument " + pyQuote(kw[k].Name))
			}
		}
	}
	if m.varargsSlot >= 0 {
		var rest []Value
		if len(args) > n {
			rest = append(rest, args[n:]...)
		}
		if rest == nil {
			rest = []Value{}
		}
		f.slots[m.varargsSlot] = TupleV(rest)
	} else if len(args) > n {
		return m.typeErr("takes not more than " + istr(n) + " argument(s)")
	}
	if m.yields != "" {
		// the arguments are bound by Macro.__call__; the defaults and the
		// body are the generator's, which is not run
		return nil
	}
	for i := 0; i < n; i++ {
		if !missing[i] {
			continue
		}
		if d := m.defaults[i]; d != nil {
			v, err := d(f)
			if err != nil {
				return err
			}
			f.slots[m.paramSlots[i]] = v
		} else {
			f.slots[m.paramSlots[i]] = Undef("parameter " + pyQuote(m.params[i]) + " was not provided")
		}
	}
	outer := c.captureEnter(len(c.out))
	return c.captureLeave(outer, m.body(f))
}

func (c *compiler) compileCallBlock(n *CallBlock) (execFn, error) {
	m, err := c.compileMacroCode("caller", n.Params, n.Body)
	if err != nil {
		return nil, err
	}
	m.anonymous, m.repr = true, "<Macro anonymous>"
	if includeYields(n.Body) {
		m.yields = m.fn.qual
	}
	call := n.Call
	// Jinja2 compiles the caller's defaults and body, then the call
	if err := c.exprOptimizerError(call); err != nil {
		return nil, err
	}
	fn, args, err := c.compileCallee(call)
	if err != nil {
		return nil, err
	}
	name, pos, fnAt := c.src.name, n.P, calleeAt(call)
	return func(f *frame) error {
		callee, err := fn(f)
		if err != nil {
			return err
		}
		if callee.kind == KindFunc && f.c.env.ext.finalize == nil {
			if mf := callee.ref.(*Func); mf.mac != nil {
				// a macro writes its output where the call block prints it
				// (Jinja2 yields the call's value: it is not escaped)
				var argBuf [4]Value
				var kwBuf [4]Kwarg
				as, kw, err := args.evalTo(f, nil, argBuf[:0], kwBuf[:0])
				if err != nil {
					return place(err, name, pos)
				}
				kw = append(kw, Kwarg{Name: "caller", Value: m.value(f)})
				if mf.mac.yields != "" && !f.c.Autoescape() {
					// the call's value is the generator object
					// (yieldedGen), which the output's join refuses
					if _, err := mf.mac.call(f.c, mf.def, as, kw); err != nil {
						return placeCall(err, name, pos, fnAt)
					}
					return callBlockJoinErr(f, "generator", name, pos)
				}
				return placeCall(mf.mac.callInto(f.c, mf.def, as, kw), name, pos, fnAt)
			}
		}
		as, kw, err := args.eval(f, nil)
		if err != nil {
			return place(err, name, pos)
		}
		kw = append(kw, Kwarg{Name: "caller", Value: m.value(f)})
		v, err := f.c.Call(callee, as, kw)
		if err != nil {
			return placeCall(err, name, pos, fnAt)
		}
		if v.kind != KindStr {
			// Jinja2 yields the call's value as it is: the output's join
			// refuses anything but a str (a dict from dict())
			return callBlockJoinErr(f, TypeName(v), name, pos)
		}
		if !f.c.env.escapeFilterBlocks {
			// yielded as it is, never escaped (unless escaping is a
			// security boundary: EscapeFilterBlocks)
			return place(f.c.writeRaw(v.s), name, pos)
		}
		return place(f.c.writeValue(v), name, pos)
	}, nil
}

// callBlockJoinErr is a call block whose call gave no str: the join of
// the output fails once the rest has rendered, as a filter block's value
// that is no str does (Ctx.joinErr).
func callBlockJoinErr(f *frame, typ, name string, pos Pos) error {
	if f.c.joinErr == nil {
		f.c.joinErr = place(joinItemErr(f.c, typ), name, pos)
	}
	return nil
}

// deferredInclude is an include without context inside a set or filter
// block of the top level or a block: Jinja2 3.1.6 writes it as "yield
// from …", past the blocks' buffers, so its output goes to the render's
// output before the outermost block's own (deferredFlush), not into the
// buffer. Where the render records spans of the template's own text
// (the generation tag), it writes in place.
func deferredInclude(run execFn) execFn {
	return func(f *frame) error {
		c := f.c
		if c.own != nil || c.gen != nil {
			return run(f)
		}
		start := len(c.out)
		err := run(f)
		c.deferred = append(c.deferred, c.out[start:]...)
		c.cutOut(start)
		return err
	}
}

// deferredFlush runs the outermost set or filter block w holding a
// deferredInclude, then writes what the includes wrote before what the
// block wrote.
func deferredFlush(w execFn) execFn {
	return func(f *frame) error {
		c := f.c
		start := len(c.out)
		err := w(f)
		if len(c.deferred) > 0 {
			c.out = append(c.out, c.deferred...)
			// rotate: the includes' text first
			n := len(c.deferred)
			tail := c.out[start : len(c.out)-n]
			moved := append([]byte(nil), tail...)
			copy(c.out[start:], c.out[len(c.out)-n:])
			copy(c.out[start+n:], moved)
			c.deferred = c.deferred[:0]
		}
		if err != nil {
			return err
		}
		return c.checkOutput()
	}
}
