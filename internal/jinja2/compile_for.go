package jinja2

import "unicode/utf8"

// For loops and the loop variable (jinja2.runtime.LoopContext).

// loopCode is a compiled loop; a recursive loop calls run again.
type loopCode struct {
	run func(f *frame, iter Value, depth0 int) error
}

// forLoop is what compileFor decides about one {% for %}, step by step:
// what the loop iterates (forView, forSlice, forSelect), its scope, target,
// filter and body (forScope), and the shapes of body its runners
// specialise (forItemBodies). The runners and the closures compileFor
// returns read its fields once, when they are made.
type forLoop struct {
	n *For
	// iter is the iterable, where no other header decides
	iter evalFn
	// for … in x.items(), x.values(), x.keys(): the view of a dict is
	// walked in place (view names the method; obj and viewOn are the
	// call, for any other x)
	obj    evalFn
	viewOn func(f *frame, o Value) (Value, error)
	view   string
	// byFilter is set for x|items (the builtin filter): do_items steps
	// the dict's own items() without an attribute lookup, so the sandbox
	// has nothing to check
	byFilter bool
	// for x in xs[::-1] (constant bounds): slicedX is xs, sb and shas the
	// bounds, sliceOther the slice of what is not a list or a tuple
	isSliced   bool
	slicedX    evalFn
	sliceOther func(f *frame, o Value) (Value, error)
	sb         [3]int64
	shas       [3]bool
	// for … in x|selectattr(…) and the like, tested as the loop goes:
	// sel is the test; selX is x, or selObj x where the source is
	// x.keys() or x.values() (selView, selViewOn its call); selArgs the
	// arguments after the test's name that are not constants, from
	// selRest on, evaluated in selScratch when the test keeps none
	sel        *selectSpec
	selX       evalFn
	selObj     evalFn
	selViewOn  func(f *frame, o Value) (Value, error)
	selView    string
	selArgs    *compiledArgs
	selRest    int
	selAt      At
	selScratch bool

	// outerLoop reads the enclosing loop's loop for the filter; the
	// loop's scopes take the slots slotLo to slotHi
	outerLoop      evalFn
	slotLo, slotHi int
	// store assigns the target; targetSlot is its slot where the target
	// is a name (-1 otherwise); storeK and storeV store the key and value
	// of for k, v in d.items() without the pair
	store          func(f *frame, v Value) error
	targetSlot     int
	storeK, storeV func(f *frame, v Value) error
	filter         evalFn
	body, els      execFn
	init           func(f *frame) error
	loopSlot       int // the loop variable's slot, -1 where the body does not read loop
	lc             *loopCode
	name           string
	pos            Pos
	recursive      bool
	// runsBody, switchBody: the body is one print of runs, or one if
	// chain on a field of the target, after checks reads of the item
	runsBody   *streamedPrint
	switchBody *itemSwitch
	checks     int
}

// forRunners are the loops over each kind of iterable that a compiled
// for statement chooses from when it runs (forLoop.dispatch). The
// methods that make them and the other closures are go:noinline: a
// closure made in a method inlined into compileFor is compiled from the
// inlined copy, where the calls it makes (Ctx.tick) are not inlined.
type forRunners struct {
	items                      func(f *frame, items []Value, depth0 int, sized *Dict, outer func() (Value, bool, error), outerLen Value, live *List) error
	pulled                     func(f *frame, g *generator, step func() (Value, bool, error)) error
	list, listSwitch, listRuns func(f *frame, l *List) error
	str                        func(f *frame, s string) error
}

// compileFor compiles a for statement: what it iterates, then its scope
// and body, then the runner for each kind of iterable, and last the
// closure for its header's kind (a dict's view, a select, a constant
// slice, or any value).
func (c *compiler) compileFor(n *For) (execFn, error) {
	// {% set content = message['content'] %} at the body's start, read
	// where the body reads content (compile_alias.go)
	if body, ok := c.aliasedBody(n.Target, n.Body); ok {
		cp := *n
		cp.Body = body
		n = &cp
	}
	// Jinja2 compiles a loop's filter before its iterable, so an unknown
	// filter or test there is the one it names.
	if n.Filter != nil {
		if err := c.unknownIn(n.Filter); err != nil {
			return nil, err
		}
	}
	fl := &forLoop{n: n, lc: &loopCode{}, name: c.src.name, pos: n.P, recursive: n.Recursive}
	if err := c.forView(fl); err != nil {
		return nil, err
	}
	if err := c.forSlice(fl); err != nil {
		return nil, err
	}
	if err := c.forSelect(fl); err != nil {
		return nil, err
	}
	if err := c.forScope(fl); err != nil {
		return nil, err
	}
	c.forItemBodies(fl)
	var r forRunners
	r.items = fl.itemsRunner()
	r.pulled, r.list, r.str = fl.pulledRunner(), fl.listRunner(), fl.strRunner()
	r.listSwitch, r.listRuns = fl.listSwitchRunner(), fl.listRunsRunner()
	fl.lc.run = fl.dispatch(r)
	switch {
	case fl.obj != nil:
		return fl.viewLoop(r.items), nil
	case fl.sel != nil:
		return fl.selectLoop(), nil
	case fl.isSliced:
		return fl.slicedLoop(), nil
	case fl.recursive && includeYields(n.Body):
		return fl.yieldingLoop(), nil
	}
	return fl.anyLoop(), nil
}

// forView decides whether the loop walks a dict's view in place: for …
// in x|items (the builtin filter) or x.items(), x.values(), x.keys()
// without arguments, in a loop that is not recursive. It sets obj (x),
// viewOn (the view of anything that is not such a dict) and view.
func (c *compiler) forView(fl *forLoop) error {
	n := fl.n
	if fe, ok := n.Iter.(*FilterExpr); ok && !n.Recursive && fe.Name == "items" && fe.X != nil && noArgs(fe.Args) && c.constMode == 0 {
		if _, own := c.env.filters["items"]; !own {
			x, err := c.expr(fe.X, isLenientFilter(fe.Name))
			if err != nil {
				return err
			}
			fl.obj, fl.view, fl.byFilter = x, "items", true
			fl.viewOn = func(f *frame, o Value) (Value, error) {
				if o.kind == KindDict {
					// a loop whose body may change the dict (the others
					// step it in place): yield from value.items(), a step
					// at a time
					g := &generator{typ: "generator", fn: "do_items"}
					g.step = dictStep(o.dict(), "items", "", Pos{})
					return ObjectV(g), nil
				}
				return fItems(f.c, o, nil, nil)
			}
		}
	}
	if call, ok := n.Iter.(*CallExpr); ok && !n.Recursive && noArgs(call.Args) {
		if ax, ok := call.Fn.(*AttrExpr); ok && (ax.Name == "items" || ax.Name == "values" || ax.Name == "keys") {
			args, err := c.compileArgs(call.Args)
			if err != nil {
				return err
			}
			if fl.obj, fl.viewOn, err = c.compileMethodCall(call, ax, args); err != nil {
				return err
			}
			fl.view = ax.Name
		}
	}
	return nil
}

// forSlice decides whether the loop runs over xs[a:b:c] with constant
// bounds whose loop variable does not outlive the loop: the slice of a
// list or tuple is then made in the Ctx's room (pushSlice), the loop's
// alone. Otherwise, where no view was found, it compiles the iterable.
func (c *compiler) forSlice(fl *forLoop) error {
	n := fl.n
	sliced, sb, shas, isSliced := constSliceOf(n.Iter)
	isSliced = isSliced && fl.obj == nil && !n.Recursive && c.constMode == 0 && pairsHidden(n.Body)
	fl.isSliced, fl.sb, fl.shas = isSliced, sb, shas
	if isSliced {
		var err error
		if fl.slicedX, err = c.compileExpr(sliced.X); err != nil {
			return err
		}
		bounds := [3]Value{NoneV(), NoneV(), NoneV()}
		for i := range bounds {
			if shas[i] {
				bounds[i] = IntV(sb[i])
			}
		}
		name, pos := c.src.name, sliced.P
		fl.sliceOther = func(f *frame, o Value) (Value, error) {
			v, err := Slice(f.c, o, bounds[0], bounds[1], bounds[2])
			if err != nil {
				return Value{}, place(err, name, pos)
			}
			return v, nil
		}
	} else if fl.obj == nil {
		var err error
		if fl.iter, err = c.compileExpr(n.Iter); err != nil {
			return err
		}
	}
	return nil
}

// forSelect decides whether the loop tests x|select(…), reject,
// selectattr or rejectattr's items as it reaches them, without the
// generator: the loop reads neither loop nor a filter of its own, and
// the arguments are constants, or (forSelectArgs) the ones after the
// test's name are evaluated once, where the filter's call would.
func (c *compiler) forSelect(fl *forLoop) error {
	n := fl.n
	if fe, ok := n.Iter.(*FilterExpr); ok && fl.obj == nil && fe.X != nil && !n.Recursive && n.Filter == nil && c.constMode == 0 && !readsName(n.Body, "loop") {
		if args, kw, ok := constCallArgs(fe.Args); ok {
			if fl.sel = c.newSelectSpec(fe.Name, args, kw); fl.sel != nil {
				return c.selSource(fl, fe.X)
			}
		}
	}
	return c.forSelectArgs(fl)
}

// selSource compiles the source x of a tested loop: x.keys() or
// x.values() is read in place, without the view (selObj is x).
func (c *compiler) selSource(fl *forLoop, x Expr) error {
	if call, ok := x.(*CallExpr); ok && noArgs(call.Args) {
		if ax, ok := call.Fn.(*AttrExpr); ok && (ax.Name == "keys" || ax.Name == "values") {
			args, err := c.compileArgs(call.Args)
			if err != nil {
				return err
			}
			fl.selObj, fl.selViewOn, err = c.compileMethodCall(call, ax, args)
			fl.selView = ax.Name
			return err
		}
	}
	var err error
	fl.selX, err = c.expr(x, false)
	return err
}

// forSelectArgs is forSelect where the arguments after the test's name
// are not constants (x|reject('in', names)): they are evaluated once,
// after x, and each item is tested with them. selScratch: the arguments
// are positional and the test a builtin, which keeps none of them, so
// they are evaluated into the Ctx's scratch (pushArgs), not a new slice.
func (c *compiler) forSelectArgs(fl *forLoop) error {
	n := fl.n
	if fe, ok := n.Iter.(*FilterExpr); ok && fl.sel == nil && fl.obj == nil && fe.X != nil && !n.Recursive && n.Filter == nil && c.constMode == 0 &&
		fe.Args.DynArgs == nil && fe.Args.DynKwargs == nil && !readsName(n.Body, "loop") {
		off := 0 // the test's name: after the attribute's of selectattr
		if fe.Name == "selectattr" || fe.Name == "rejectattr" {
			off = 1
		}
		if len(fe.Args.Args) > off {
			if pre, _, ok := constCallArgs(CallArgs{Args: fe.Args.Args[:off+1]}); ok {
				if spec := c.newSelectSpec(fe.Name, pre, nil); spec != nil && spec.hasTest {
					var err error
					if fl.selArgs, err = c.compileArgs(fe.Args); err != nil {
						return err
					}
					if err := c.selSource(fl, fe.X); err != nil {
						return err
					}
					fl.sel, fl.selRest, fl.selAt = spec, off+1, fe.At
					_, ownTest := c.env.tests[spec.name]
					fl.selScratch = !ownTest && len(fe.Args.Kwargs) == 0
				}
			}
		}
	}
	return nil
}

// forScope compiles what the loop's own scope holds: the target, the
// filter (forFilter) and the body (forBody), then the else block, a scope
// of its own as Jinja2's else_frame. outerLoop is set where the filter
// runs before the loop variable: its loop is the enclosing loop's.
func (c *compiler) forScope(fl *forLoop) error {
	n := fl.n
	names := targetNames(n.Target)
	if at := storesLoop(n); at != nil {
		return c.errAt(at, "TemplateAssertionError", "Can't assign to special loop variable in for-loop target")
	}
	usesLoop := readsName(n.Body, "loop")
	scopeNames := append([]string{}, names...)
	if usesLoop {
		scopeNames = append(scopeNames, "loop")
	}
	if usesLoop && n.Filter != nil {
		// the filter runs before the loop variable is set: its loop is
		// the enclosing loop's, read (under StrictNames, where none is
		// missing) only when the filter reads it
		lenient := !readsName([]Stmt{&Print{X: n.Filter}}, "loop")
		fl.outerLoop = c.compileName(&Name{At: At{P: n.P}, Name: "loop"}, lenient)
	}
	// the loop's scope and every scope nested in its filter and body
	// take the slots from slotLo on: a look ahead saves those alone
	fl.slotLo = c.sc.fn.nslots
	s := c.newScope(append(scopeNames, assigned(n.Body)...))
	s.syms = symsFor(n, usesLoop)
	outer := c.sc
	c.sc = s
	soft := c.soft
	c.soft = 0
	c.loops++
	err := c.forTarget(fl, s)
	if err == nil {
		err = c.forFilter(fl, s, outer, scopeNames)
	}
	if err == nil {
		err = c.forBody(fl, s, names, usesLoop)
	}
	c.sc, c.soft = outer, soft
	c.loops--
	if err != nil {
		return err
	}
	if n.Else != nil {
		// The else block is a scope of its own, as Jinja2's else_frame.
		if fl.els, err = c.compileScoped(n.Else, symsBody(n.Else)); err != nil {
			return err
		}
	}
	return nil
}

// forTarget compiles the target's store in the loop's scope s: a name is
// stored straight into its slot (targetSlot), and for k, v in d.items()
// stores each pair without its tuple (storeK, storeV).
func (c *compiler) forTarget(fl *forLoop, s *scope) error {
	n := fl.n
	var err error
	if fl.store, err = c.compileAssign(n.Target); err != nil {
		return err
	}
	fl.targetSlot = -1
	if t, ok := n.Target.(*Name); ok && !s.top {
		fl.targetSlot = s.vars[t.Name]
	}
	if t, ok := n.Target.(*TupleLit); ok && fl.view == "items" && len(t.Items) == 2 {
		_, k := t.Items[0].(*Name)
		_, v := t.Items[1].(*Name)
		if k && v {
			fl.storeK, _ = c.compileAssign(t.Items[0])
			fl.storeV, _ = c.compileAssign(t.Items[1])
		}
	}
	return nil
}

// forFilter compiles the loop's filter. The filter is a frame of its own
// in Jinja2 (test_frame): it sees the targets (and the loop variable,
// which holds the enclosing loop's while it runs) and the enclosing
// scopes, not what the body assigns.
func (c *compiler) forFilter(fl *forLoop, s, outer *scope, scopeNames []string) error {
	if fl.n.Filter == nil {
		return nil
	}
	fsc := &scope{fn: s.fn, parent: outer, vars: map[string]int{}}
	for _, nm := range scopeNames {
		fsc.vars[nm] = s.vars[nm]
		fsc.order = append(fsc.order, nm)
	}
	c.sc = fsc
	var err error
	fl.filter, err = c.compileExpr(fl.n.Filter)
	c.sc = s
	return err
}

// forBody compiles the body in the loop's scope s (a Python function of
// its own when the loop is recursive), and decides what each iteration
// sets before it: the loop variable's slot, and init, which clears the
// scope's names but the targets, loop and the body's leading sets.
func (c *compiler) forBody(fl *forLoop, s *scope, names []string, usesLoop bool) error {
	n := fl.n
	bufDepth := c.bufDepth
	if n.Recursive {
		// the loop's body is a Python function of its own
		c.recursive = append(c.recursive, fl.lc)
		c.bufDepth = 0
	}
	body, err := c.compileStmts(n.Body)
	if n.Recursive {
		c.recursive = c.recursive[:len(c.recursive)-1]
		c.bufDepth = bufDepth
	}
	fl.body = body
	fl.loopSlot = -1
	if usesLoop {
		fl.loopSlot = s.vars["loop"]
	}
	skip := map[string]bool{"loop": true}
	for _, nm := range names {
		skip[nm] = true
	}
	for _, nm := range leadingSets(n.Body) {
		skip[nm] = true
	}
	fl.init = c.scopeInit(s, skip)
	fl.slotHi = s.fn.nslots
	return err
}

// forItemBodies decides the two body shapes a list's loop specialises
// (listRunsRunner, listSwitchRunner): a body that is one print of runs
// of constants and fields, read from each item where the list holds it
// (runsBody), and a body that is one if chain on a field of the target
// compared with constants (switchBody), after checks reads of the
// target's item that compile_alias.go leaves of a set alias.
func (c *compiler) forItemBodies(fl *forLoop) {
	n, targetSlot := fl.n, fl.targetSlot
	if p, ok := onlyPrint(n.Body); ok && targetSlot >= 0 && c.runPrints[p] != nil {
		fl.runsBody = c.runPrints[p].forItem(targetSlot)
	}
	if t, ok := n.Target.(*Name); ok && targetSlot >= 0 && len(n.Body) > 0 {
		checks := 0
		for checks < len(n.Body)-1 && isItemRead(n.Body[checks], t.Name) {
			checks++
		}
		if i, ok := n.Body[checks].(*If); ok && checks == len(n.Body)-1 && c.itemSwitches[i] != nil && c.itemSwitches[i].slot == targetSlot {
			fl.switchBody = c.itemSwitches[i].forItem(targetSlot)
		}
		fl.checks = checks
	}
}

// pulledRunner runs a loop without loop or a filter over the items step
// (or g's eachStep) takes, one at a time, keeping none.
//
//go:noinline
func (fl *forLoop) pulledRunner() func(f *frame, g *generator, step func() (Value, bool, error)) error {
	name, pos, init, targetSlot, store, body, els := fl.name, fl.pos, fl.init, fl.targetSlot, fl.store, fl.body, fl.els
	return func(f *frame, g *generator, step func() (Value, bool, error)) error {
		completed := false
		for {
			var it Value
			var ok bool
			var err error
			if g != nil {
				it, ok, err = g.eachStep() // no method value to make
			} else {
				it, ok, err = step()
			}
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			if err := f.c.tick(); err != nil {
				return place(err, name, pos)
			}
			if init != nil {
				_ = init(f)
			}
			if targetSlot >= 0 {
				f.slots[targetSlot].put(&it)
			} else if err := store(f, it); err != nil {
				return err
			}
			if err := body(f); err == nil {
				completed = true
			} else if err == errBreak {
				break
			} else if err != errContinue {
				return err
			}
		}
		if !completed && els != nil {
			return els(f)
		}
		return nil
	}
}

// listRunner runs a loop without loop, a filter or recursion whose
// target is a name over a list's or a tuple's items, each stored from
// where it lies; Python's list iterator reads the list as it is at each
// step (the body may append to it or pop from it).
//
//go:noinline
func (fl *forLoop) listRunner() func(f *frame, l *List) error {
	name, pos, init, targetSlot, body, els := fl.name, fl.pos, fl.init, fl.targetSlot, fl.body, fl.els
	return func(f *frame, l *List) error {
		completed := false
		for i := 0; i < len(l.Items); i++ {
			if err := f.c.tick(); err != nil {
				return place(err, name, pos)
			}
			if init != nil {
				_ = init(f)
			}
			f.slots[targetSlot].put(&l.Items[i])
			if err := body(f); err == nil {
				completed = true
			} else if err == errBreak {
				break
			} else if err != errContinue {
				return err
			}
		}
		if !completed && els != nil {
			return els(f)
		}
		return nil
	}
}

// strRunner runs a loop without loop, a filter or recursion over a
// str's characters, taking each where Iterate would (a template that
// expects a message's content as parts and loops over its text),
// without a list of them.
//
//go:noinline
func (fl *forLoop) strRunner() func(f *frame, s string) error {
	name, pos, init, targetSlot, store, body, els := fl.name, fl.pos, fl.init, fl.targetSlot, fl.store, fl.body, fl.els
	return func(f *frame, s string) error {
		completed := false
		for i := 0; i < len(s); {
			it, next, ok := strItemAt(s, i)
			i = next
			if !ok {
				continue
			}
			if err := f.c.tick(); err != nil {
				return place(err, name, pos)
			}
			if init != nil {
				_ = init(f)
			}
			if targetSlot >= 0 {
				f.slots[targetSlot].put(&it)
			} else if err := store(f, it); err != nil {
				return err
			}
			if err := body(f); err == nil {
				completed = true
			} else if err == errBreak {
				break
			} else if err != errContinue {
				return err
			}
		}
		if !completed && els != nil {
			return els(f)
		}
		return nil
	}
}

// listSwitchRunner is listRunner for a body that is one if chain on a
// field of the target compared with constants, each branch nothing or
// such a print ({% if message['role'] == 'user' %}{{ … }}{% elif … %}, a
// single test with == or !=, an else holding a chain on the same field;
// itemSwitch): the chain runs with each item where the list holds it
// (itemSwitch.runItem), stored only for a branch that is anything else.
// The chain may follow what compile_alias.go leaves of a set alias ({%
// set content = message['content'] %}: a read of the target's item,
// which raises nothing for a dict): for a dict item those pass, for
// anything else the body runs whole with the item stored.
//
//go:noinline
func (fl *forLoop) listSwitchRunner() func(f *frame, l *List) error {
	name, pos, init, targetSlot, body, els := fl.name, fl.pos, fl.init, fl.targetSlot, fl.body, fl.els
	checks, switchBody := fl.checks, fl.switchBody
	return func(f *frame, l *List) error {
		completed := false
		for i := 0; i < len(l.Items); i++ {
			if err := f.c.tick(); err != nil {
				return place(err, name, pos)
			}
			if init != nil {
				_ = init(f)
			}
			item := &l.Items[i]
			var err error
			if checks > 0 && item.kind != KindDict {
				f.slots[targetSlot].put(item)
				err = body(f)
			} else {
				err = switchBody.runItem(f, item)
			}
			if err == nil {
				completed = true
			} else if err == errBreak {
				break
			} else if err != errContinue {
				return err
			}
		}
		if !completed && els != nil {
			return els(f)
		}
		return nil
	}
}

// listRunsRunner is listRunner for a body that is one print of runs of
// constants and fields (a chat template's {% for message in messages
// %}{{ '<|' + message['role'] + '|>' + message['content'] }}): the print
// reads each item where the list holds it, and the item is stored in
// the target's slot only where the print falls back to the general
// path, which reads it there. Nothing else reads the slot: the loop's
// scope is its own, and the body is the print.
//
//go:noinline
func (fl *forLoop) listRunsRunner() func(f *frame, l *List) error {
	name, pos, init, targetSlot, runsBody, els := fl.name, fl.pos, fl.init, fl.targetSlot, fl.runsBody, fl.els
	return func(f *frame, l *List) error {
		completed := false
		for i := 0; i < len(l.Items); i++ {
			if err := f.c.tick(); err != nil {
				return place(err, name, pos)
			}
			if init != nil {
				_ = init(f)
			}
			item := &l.Items[i]
			var err error
			if f.c.autoescape {
				f.slots[targetSlot].put(item)
				err = runsBody.evalAll(f)
			} else {
				err = runsBody.streamRunsItem(f, item)
			}
			if err != nil {
				return err
			}
			completed = true
		}
		if !completed && els != nil {
			return els(f)
		}
		return nil
	}
}

// dispatch is the loop's run (loopCode.run): it chooses the runner for
// the iterable's kind. A loop with loop, a filter or recursion whose body
// changes a dict or a list steps it as Python's iterator would.
func (fl *forLoop) dispatch(r forRunners) func(f *frame, itv Value, depth0 int) error {
	name, pos, targetSlot, loopSlot, filter, recursive := fl.name, fl.pos, fl.targetSlot, fl.loopSlot, fl.filter, fl.recursive
	runsBody, switchBody := fl.runsBody, fl.switchBody
	runItems, runPulled, runList, runStr, runListSwitch, runListRuns := r.items, r.pulled, r.list, r.str, r.listSwitch, r.listRuns
	changesDicts := dictChangesIn(fl.n.Body, fl.n.Filter)
	changesLists := filter != nil && listChangesIn(fl.n.Body, fl.n.Filter)
	return func(f *frame, itv Value, depth0 int) error {
		simple := loopSlot < 0 && filter == nil && !recursive
		if !simple && changesDicts {
			if d, what, ok := dictIterated(itv); ok {
				return runItems(f, nil, depth0, nil, dictStep(d, what, name, pos), itv, nil)
			}
			if g, ok := itv.ref.(*generator); ok && itv.kind == KindObject && g.dict != nil && !g.used {
				// d|items not yet read: yield from d.items(), a step at a time
				g.used, g.pos = true, len(g.items)
				return runItems(f, nil, depth0, nil, dictStep(g.dict, "items", name, pos), itv, nil)
			}
		}
		if changesLists && itv.kind == KindList {
			// the filter's generator steps the list the body changes
			return runItems(f, nil, depth0, nil, listStep(itv.list()), itv, nil)
		}
		if simple && targetSlot >= 0 && (itv.kind == KindList || itv.kind == KindTuple) {
			if runsBody != nil {
				return runListRuns(f, itv.list())
			}
			if switchBody != nil {
				return runListSwitch(f, itv.list())
			}
			return runList(f, itv.list())
		}
		if simple && itv.kind == KindStr {
			return runStr(f, itv.s)
		}
		if g, ok := itv.ref.(*generator); ok && simple && itv.kind == KindObject && g.step == nil && g.src.start != nil {
			return runPulled(f, g, nil)
		}
		if r, ok := itv.ref.(*lazyRange); ok && itv.kind == KindObject {
			// a range the package does not build: its items one at a time
			if simple {
				return runPulled(f, nil, r.stepFunc())
			}
			return runItems(f, nil, depth0, nil, r.stepFunc(), itv, nil)
		}
		if step, ok := stepper(itv); ok {
			// the loop variable of another loop (or map, select or
			// reject of it) is iterated a step at a time: it moves on as
			// this loop does
			if simple {
				return runPulled(f, nil, step)
			}
			return runItems(f, nil, depth0, nil, step, itv, nil)
		}
		items, err := Iterate(f.c, itv)
		if err != nil {
			return place(err, name, pos)
		}
		var live *List
		var sized *Dict
		switch {
		case itv.kind == KindList:
			// Python's list iterator reads the list as it is at each
			// step: the body may append to it (or pop from it)
			live = itv.list()
		case simple:
			// a dict's iterator (or its view's) raises at its next step
			// once the body changed the dict's size
			if d, _, ok := dictIterated(itv); ok {
				sized = d
			}
		}
		return runItems(f, items, depth0, sized, nil, Value{}, live)
	}
}

// itemsRunner runs the loop over items, with loop and a filter where the
// loop has them; sized, when not nil, is the dict whose keys or values
// items are, whose size the body must not change (Python's iterator
// raises at the next step). outer, when not nil, takes the items one at
// a time (a filter's look ahead takes them too); outerLen is what they
// come from, whose len() is the loop's length when it has one.
func (fl *forLoop) itemsRunner() func(f *frame, items []Value, depth0 int, sized *Dict, outer func() (Value, bool, error), outerLen Value, live *List) error {
	name, pos, init, store, targetSlot, body, els := fl.name, fl.pos, fl.init, fl.store, fl.targetSlot, fl.body, fl.els
	filter, loopSlot, outerLoop, slotLo, slotHi, recursive, lc := fl.filter, fl.loopSlot, fl.outerLoop, fl.slotLo, fl.slotHi, fl.recursive, fl.lc
	return func(f *frame, items []Value, depth0 int, sized *Dict, outer func() (Value, bool, error), outerLen Value, live *List) error {
		var err error
		var lo *loopObj
		// lf takes the next item the loop's filter keeps: Jinja2 filters
		// lazily, so an item is unpacked and tested when the loop reaches
		// it, or when the body looks ahead (loop.last, length). It lives
		// apart so that a loop without a filter has none, in the Ctx's
		// array of them, as loop states do (newLoopFilter).
		var lf *loopFilter
		if filter != nil || outer != nil {
			lf = f.c.newLoopFilter()
			lf.f, lf.src, lf.init, lf.store, lf.filter, lf.loopSlot = f, items, init, store, filter, loopSlot
			lf.outerLoop, lf.slotLo, lf.slotHi = outerLoop != nil, slotLo, slotHi
			lf.pull = outer
			if outerLoop != nil {
				if lf.outerLoopV, err = outerLoop(f); err != nil {
					return err
				}
			}
			if cap(lf.room) >= len(items) {
				lf.kept = lf.room[:0]
			} else {
				lf.kept = make([]Value, 0, len(items))
				if len(items) <= maxLoopRoom {
					lf.room = lf.kept
				}
			}
			items = nil
		}
		if loopSlot >= 0 {
			lo = f.c.newLoop()
			*lo = loopObj{items: items, depth0: depth0, f: f}
			if recursive {
				lo.rec = lc
			}
			if lf != nil {
				lo.items, lf.kept, lf.lo = lf.kept, nil, lo
				lo.more = lf
			}
			if ol, ok := outerLen.ref.(*loopObj); ok && outerLen.kind == KindObject && filter == nil {
				// len(iterable): the other loop's length, however many
				// of its items are left
				lo.sized, lo.size = true, ol.Len()
			}
			if d, _, ok := dictIterated(outerLen); ok && filter == nil {
				// len(iterable), the dict's when first read
				lo.lenDict = d
			}
			if r, ok := outerLen.ref.(*lazyRange); ok && outerLen.kind == KindObject && filter == nil {
				// len(range), which may overflow: lengthErr says so
				lo.sized, lo.size = true, r.Len()
				if _, err := r.length(); err != nil {
					lo.lengthErr = err
				}
			}
		}
		completed := false // an iteration ran its body to the end: no else
		var sizedKeys []Value
		if sized != nil {
			sizedKeys = sized.keys // the keys the loop started from (items may be the values)
		}
		if lf != nil {
			live = nil // (a filter reads its own copy)
		} else if lo != nil {
			lo.live, live = live, nil
		}
		for i := 0; ; i++ {
			if lo != nil {
				if lo.live != nil {
					lo.items = lo.live.Items
				}
				items = lo.items
			} else if live != nil {
				items = live.Items
			}
			var it Value
			if lo != nil && lo.peekAt == i && i > 0 && lo.live != nil {
				// the body read the item ahead: Python's iterator gave it
				if lo.peekEnd {
					break
				}
				it = lo.peekV
			} else {
				if i >= len(items) {
					if lf == nil {
						break
					}
					ok, err := lf.next()
					if err != nil {
						return err
					}
					if !ok {
						break
					}
					items = lf.items()
				}
				it = items[i]
			}
			if err := f.c.tick(); err != nil {
				return place(err, name, pos)
			}
			if init != nil {
				_ = init(f)
			}
			if lo != nil {
				lo.i = i
				if lo.live != nil {
					lo.prev.put(&lo.cur)
					lo.cur.put(&it)
				}
				lv := ObjectV(lo)
				f.slots[loopSlot].put(&lv)
			}
			if targetSlot >= 0 {
				f.slots[targetSlot].put(&it)
			} else if err := store(f, it); err != nil {
				return err
			}
			err := body(f)
			if lo != nil && lo.i > i {
				i = lo.i // the body iterated the loop variable: those items are done
			}
			if err == nil {
				completed = true
			} else if err == errBreak {
				break
			} else if err != errContinue {
				return err
			}
			if sized != nil && (len(sized.keys) != len(sizedKeys) || keysReplaced(sized, sizedKeys)) {
				return place(dictChanged(sized, sizedKeys), name, pos)
			}
		}
		if !completed && els != nil {
			return els(f)
		}
		return nil
	}
}

// viewLoop is the loop over a dict's view (forView): where nothing can
// see the view, the dict's own keys, values or pairs are read in place
// (runItems, runPairs), else the view is made and run as any value.
func (fl *forLoop) viewLoop(runItems func(f *frame, items []Value, depth0 int, sized *Dict, outer func() (Value, bool, error), outerLen Value, live *List) error) execFn {
	name, pos, init, body, els, lc := fl.name, fl.pos, fl.init, fl.body, fl.els, fl.lc
	obj, viewOn, view, byFilter, filter, loopSlot := fl.obj, fl.viewOn, fl.view, fl.byFilter, fl.filter, fl.loopSlot
	storeK, storeV := fl.storeK, fl.storeV
	changesDicts := dictChangesIn(fl.n.Body, fl.n.Filter)
	plain := filter == nil && loopSlot < 0 // Python steps the dict's own iterator
	pairs := storeK != nil && plain
	// with a filter or loop, the pairs are tuples (the filter's look
	// ahead keeps them), made in the Ctx's room when no one sees one
	hidden := storeK != nil && !plain && pairsHidden(fl.n.Body)
	return func(f *frame) error {
		o, err := obj(f)
		if err != nil {
			return err
		}
		if (plain || !changesDicts) && (byFilter && o.kind == KindDict || !byFilter && dictViewInPlace(f.c, o, view)) {
			// the dict's own keys and values: the loop only reads them
			d := o.dict()
			keys, vals := d.keys[:len(d.keys):len(d.keys)], d.vals[:len(d.vals):len(d.vals)]
			var sized *Dict
			if plain {
				sized = d
			}
			switch {
			case view == "keys":
				return runItems(f, keys, 0, sized, nil, Value{}, nil)
			case view == "values":
				return runItems(f, vals, 0, sized, nil, Value{}, nil)
			case pairs:
				return runPairs(f, d, keys, vals, init, storeK, storeV, body, els, name, pos)
			case hidden:
				// the tuples d.items() gives, as its view's Iter
				// makes them, which runItems unpacks
				err := runItems(f, f.c.pushPairs(keys, vals), 0, nil, nil, Value{}, nil)
				f.c.popPairs(len(keys))
				return err
			}
		}
		v, err := viewOn(f, o)
		if err != nil {
			return err
		}
		return lc.run(f, v, 0)
	}
}

// selectLoop is the loop over x|select(…) and the like (forSelect): each
// of x's items (a str's characters, a dict's keys or the view's items
// read in place) is tested when the loop reaches it. A value that steps
// (another loop's variable) goes through the filter's generator.
func (fl *forLoop) selectLoop() execFn {
	name, pos, init, store, targetSlot, body, els, lc := fl.name, fl.pos, fl.init, fl.store, fl.targetSlot, fl.body, fl.els, fl.lc
	sel, selX, selObj, selView, selViewOn := fl.sel, fl.selX, fl.selObj, fl.selView, fl.selViewOn
	selArgs, selRest, selAt, selScratch := fl.selArgs, fl.selRest, fl.selAt, fl.selScratch
	return func(f *frame) error {
		var v Value
		var items, sizedKeys []Value
		var sized *Dict
		inPlace := false
		if selObj != nil {
			o, err := selObj(f)
			if err != nil {
				return err
			}
			if dictViewInPlace(f.c, o, selView) {
				// the items the view's iterator gives, whose next
				// step raises once the body changed the dict's size
				sized = o.dict()
				items, sizedKeys, inPlace = sized.keys, sized.keys, true
				if selView == "values" {
					items = sized.vals
				}
			} else if v, err = selViewOn(f, o); err != nil {
				return err
			}
		} else {
			var err error
			if v, err = selX(f); err != nil {
				return err
			}
		}
		sp := sel
		var withArgs selectSpec
		if selArgs != nil {
			var as []Value
			var kw []Kwarg
			var err error
			if _, stepped := stepper(v); selScratch && (inPlace || !stepped) {
				n := len(selArgs.args)
				as, kw, err = selArgs.evalTo(f, nil, f.c.pushArgs(n), nil)
				defer f.c.popArgs(n)
			} else {
				as, kw, err = selArgs.eval(f, nil)
			}
			if err != nil {
				return place(err, name, selAt.P)
			}
			withArgs = *sel
			withArgs.rest, withArgs.kw = as[selRest:], kw
			sp = &withArgs
		}
		if _, stepped := stepper(v); stepped && !inPlace {
			if selArgs != nil {
				kept := withArgs // the generator keeps it
				return lc.run(f, kept.filter(f.c, v), 0)
			}
			return lc.run(f, sel.filter(f.c, v), 0)
		}
		completed := false
		if !inPlace && v.kind != KindStr && v.Truth() {
			var err error
			if items, err = Iterate(f.c, v); err != nil {
				return place(err, name, pos)
			}
			if v.kind == KindDict {
				// a dict's iterator too
				sized = v.dict()
				sizedKeys = sized.keys
			}
		}
		for i := 0; ; i++ {
			var it Value
			if v.kind == KindStr {
				// a str's characters, as Iterate gives them, one at a time
				if i >= len(v.s) {
					break
				}
				r, size := utf8.DecodeRuneInString(v.s[i:])
				if r == utf8.RuneError && size == 1 {
					it = StrV(string(utf8.RuneError))
				} else {
					it = StrV(v.s[i : i+size])
				}
				i += size - 1
			} else {
				if i >= len(items) {
					break
				}
				it = items[i]
			}
			keep, err := sp.keep(f.c, it)
			if err != nil {
				return place(err, name, pos)
			}
			if !keep {
				continue
			}
			if err := f.c.tick(); err != nil {
				return place(err, name, pos)
			}
			if init != nil {
				_ = init(f)
			}
			if targetSlot >= 0 {
				f.slots[targetSlot].put(&it)
			} else if err := store(f, it); err != nil {
				return err
			}
			if err := body(f); err == nil {
				completed = true
			} else if err == errBreak {
				break
			} else if err != errContinue {
				return err
			}
			if sized != nil && (len(sized.keys) != len(sizedKeys) || keysReplaced(sized, sizedKeys)) {
				return place(dictChanged(sized, sizedKeys), name, pos)
			}
		}
		if !completed && els != nil {
			return els(f)
		}
		return nil
	}
}

// slicedLoop is the loop over xs[a:b:c] with constant bounds
// (forSlice): a list's or a tuple's slice is made in the Ctx's room and
// given back after the loop.
//
//go:noinline
func (fl *forLoop) slicedLoop() execFn {
	slicedX, sliceOther, sb, shas, lc := fl.slicedX, fl.sliceOther, fl.sb, fl.shas, fl.lc
	return func(f *frame) error {
		o, err := slicedX(f)
		if err != nil {
			return err
		}
		if o.kind != KindList && o.kind != KindTuple {
			v, err := sliceOther(f, o)
			if err != nil {
				return err
			}
			return lc.run(f, v, 0)
		}
		v := f.c.pushSlice(o.list().Items, sb, shas, o.kind == KindTuple)
		n := len(v.list().Items)
		err = lc.run(f, v, 0)
		f.c.popSlice(n)
		return err
	}
}

// yieldingLoop is a recursive loop whose body includes a template
// without context: Jinja2 3.1.6 writes that include as "yield from …",
// which makes the loop's function a generator: the loop writes the
// generator object into the output, whose join fails once the rest has
// rendered (as a filter block's value that is no str).
//
//go:noinline
func (fl *forLoop) yieldingLoop() execFn {
	iter, name, pos := fl.iter, fl.name, fl.pos
	return func(f *frame) error {
		if _, err := iter(f); err != nil {
			return err
		}
		if f.c.joinErr == nil {
			f.c.joinErr = place(joinItemErr(f.c, "generator"), name, pos)
		}
		return nil
	}
}

// anyLoop is the loop over any value: the iterable is evaluated and run
// (loopCode.run); a recursive loop renders into a buffer.
//
//go:noinline
func (fl *forLoop) anyLoop() execFn {
	iter, recursive, lc := fl.iter, fl.recursive, fl.lc
	return func(f *frame) error {
		v, err := iter(f)
		if err != nil {
			return err
		}
		if recursive {
			// Jinja2 renders a recursive loop into a buffer, the outermost
			// call too (RenderGeneration's spans, Ctx.joinErr)
			outer := f.c.captureEnter(len(f.c.out))
			return f.c.captureLeave(outer, lc.run(f, v, 0))
		}
		return lc.run(f, v, 0)
	}
}

// runPairs runs a loop over the items of d (keys and vals) without the
// loop variable or a filter, storing each key and value without building
// the pair.
func runPairs(f *frame, d *Dict, keys, vals []Value, init func(*frame) error, storeK, storeV func(*frame, Value) error, body, els execFn, name string, pos Pos) error {
	completed := false
	for i := range keys {
		if err := f.c.tick(); err != nil {
			return place(err, name, pos)
		}
		if init != nil {
			_ = init(f)
		}
		if err := storeK(f, keys[i]); err != nil {
			return err
		}
		if err := storeV(f, vals[i]); err != nil {
			return err
		}
		if err := body(f); err == nil {
			completed = true
		} else if err == errBreak {
			break
		} else if err != errContinue {
			return err
		}
		if len(d.keys) != len(keys) || keysReplaced(d, keys) {
			return place(dictChanged(d, keys), name, pos)
		}
	}
	if !completed && els != nil {
		return els(f)
	}
	return nil
}

// errDictChanged is what Python's dict iterator raises at the step after
// the dict changed its size.
func errDictChanged() error {
	return &Error{Kind: "RuntimeError", Msg: "dictionary changed size during iteration"}
}

// keysReplaced reports whether d, whose keys a loop iterates as keys (the
// same n items, or d's own slice), holds them no more at the same size:
// the body removed a key and added another (Dict.delete makes a new
// slice; an addition alone changes the size, a value set in place
// neither). items is d.keys as the loop started, or a copy of it.
func keysReplaced(d *Dict, keys []Value) bool {
	if len(d.keys) == 0 || len(d.keys) != len(keys) {
		return false
	}
	if &d.keys[0] == &keys[0] {
		return false
	}
	for i := range keys {
		if !sameValue(d.keys[i], keys[i]) {
			return true
		}
	}
	return false
}

// dictChanged is the error of a loop over d whose body changed d: Python's
// RuntimeError when the size changed. When keys were replaced at the same
// size, Python's iterator walks its hash table's entries, deleted ones
// skipped and added ones at the end, and compacts them when an insertion
// finds the table full: it raises "dictionary keys changed during
// iteration", or yields the added key, or skips one, depending on the
// table's size, which depends on how the dict was built. The package does
// not model that table: Unsupported.
func dictChanged(d *Dict, keys []Value) error {
	if len(d.keys) != len(keys) {
		return errDictChanged()
	}
	return &Error{Kind: "Unsupported", Msg: "a dict whose keys the loop's body replaced (one removed, another added) is not supported: Python's next step depends on its hash table"}
}

// dictViewInPlace reports whether o.name() is a dict's own view method
// (directMethod's answer, without making the method).
func dictViewInPlace(c *Ctx, o Value, name string) bool {
	if o.kind != KindDict {
		return false
	}
	if sandboxed(c) {
		if _, unsafe := unsafeAttr(o, name); unsafe {
			return false
		}
	}
	return true
}

// noArgs reports whether a call passes no arguments.
func noArgs(a CallArgs) bool {
	return len(a.Args) == 0 && len(a.Kwargs) == 0 && a.DynArgs == nil && a.DynKwargs == nil
}

// loopObj is the loop variable.
type loopObj struct {
	items       []Value
	i           int
	depth0      int
	f           *frame
	rec         *loopCode
	lastChanged []Value
	changedSet  bool
	more        *loopFilter // takes the next item a filter keeps (lookAhead); nil when items is complete
	// sized: the length is size, len() of what the loop iterates (another
	// loop variable), not the count of its items
	sized bool
	size  int
	// lengthErr: len() of what the loop iterates raises (a range longer
	// than a Py_ssize_t)
	lengthErr error
	// live is the list the loop iterates, read again at each step (the
	// body may append to it); its length is taken once, when first read
	live *List
	// lenRead: the length was taken (LoopContext._length is set)
	lenRead bool
	// lenDict: the loop steps this dict's iterator (dictStep); its
	// length is the dict's when first read
	lenDict *Dict
	// Over a live list, LoopContext's own state (loop_live.go): the
	// item the iteration peekAt-1 read ahead (peekV, or peekEnd when the
	// list iterator was done), and the current and previous items, which
	// the body may have moved in the list since
	peekAt    int
	peekEnd   bool
	peekV     Value
	cur, prev Value
}

// TypeName is Jinja2's class name.
func (l *loopObj) TypeName() string { return "LoopContext" }

// Repr is LoopContext's: <LoopContext index/length>.
func (l *loopObj) Repr() string {
	_ = l.lookAhead("length")
	l.lenRead = true
	return "<LoopContext " + istr(l.i+1) + "/" + istr(l.length()) + ">"
}

// length is LoopContext.length, once lookAhead has taken what it needs.
func (l *loopObj) length() int {
	if l.sized {
		return l.size
	}
	return len(l.items)
}

// fixedLength is the length of a loop over a list the body may change,
// LoopContext.length: len(iterable) when first read, kept after.
func (l *loopObj) fixedLength() int {
	if l.live != nil && !l.sized {
		l.sized, l.size = true, len(l.live.Items)
	}
	return l.length()
}

// Len is len(loop): its length.
func (l *loopObj) Len() int {
	_ = l.lookAhead("length")
	l.lenRead = true
	return l.length()
}

// step is LoopContext.__next__, iterating the loop variable: the loop
// moves on to its next item, and (item, loop) is what it gives; ok is
// false when no item is left.
func (l *loopObj) step() (v Value, ok bool, err error) {
	if l.live != nil {
		return l.liveStep()
	}
	if err := l.fill(l.i + 1); err != nil {
		return Value{}, false, err
	}
	if l.i+1 >= len(l.items) {
		return Value{}, false, nil
	}
	l.i++
	return TupleV([]Value{l.items[l.i], ObjectV(l)}), true, nil
}

// loopFilter takes the items of a filtered loop one at a time, into kept,
// or into the loop object's items when the body reads loop.
type loopFilter struct {
	f          *frame
	src        []Value
	pos        int
	kept       []Value
	lo         *loopObj
	init       func(f *frame) error
	store      func(f *frame, v Value) error
	filter     evalFn
	loopSlot   int
	pull       func() (Value, bool, error) // takes the next item, in place of src
	outerLoop  bool                        // the filter reads the enclosing loop's loop
	outerLoopV Value                       // which it sees in place of this one's
	// slotLo, slotHi: the slots of the loop's scope and of the scopes nested in
	// it, which taking an item writes; saved holds them for a look ahead
	// (its room kept from render to render: newLoopFilter)
	slotLo, slotHi int
	saved          []Value
	// room is the array kept takes (the loop's items while it runs),
	// kept from render to render as saved is, up to maxLoopRoom items:
	// the loop filter is this render's alone (newLoopFilter), and
	// nothing that holds the items outlives the render (newLoop)
	room []Value
}

// maxLoopRoom is the most items a loop filter's room keeps.
const maxLoopRoom = 256

// next takes the next item the filter keeps, and reports false when there
// is none.
func (lf *loopFilter) next() (bool, error) {
	f := lf.f
	for {
		var it Value
		if lf.pull != nil {
			v, ok, err := lf.pull()
			if err != nil || !ok {
				return false, err
			}
			if lf.filter == nil {
				lf.keep(v)
				return true, nil
			}
			it = v
		} else {
			if lf.pos >= len(lf.src) {
				return false, nil
			}
			it = lf.src[lf.pos]
			lf.pos++
		}
		if lf.init != nil {
			_ = lf.init(f)
		}
		if err := lf.store(f, it); err != nil {
			return false, err
		}
		if lf.outerLoop {
			f.slots[lf.loopSlot] = lf.outerLoopV
		}
		v, err := lf.filter(f)
		if err != nil {
			return false, err
		}
		if v.Truth() {
			lf.keep(it)
			return true, nil
		}
	}
}

// keep adds an item the loop runs over.
func (lf *loopFilter) keep(it Value) {
	if lf.lo != nil {
		lf.lo.items = append(lf.lo.items, it)
	} else {
		lf.kept = append(lf.kept, it)
	}
}

// items returns the items kept so far.
func (lf *loopFilter) items() []Value {
	if lf.lo != nil {
		return lf.lo.items
	}
	return lf.kept
}

// lookAhead is next for a look ahead from the body, which keeps the
// body's variables.
func (lf *loopFilter) lookAhead() (bool, error) {
	slots := lf.f.slots[lf.slotLo:lf.slotHi]
	lf.saved = append(lf.saved[:0], slots...)
	ok, err := lf.next()
	copy(slots, lf.saved)
	return ok, err
}

// fill takes items from a filtered loop until it holds more than k, or
// all of them.
func (l *loopObj) fill(k int) error {
	for l.more != nil && len(l.items) <= k {
		ok, err := l.more.lookAhead()
		if err != nil {
			return err
		}
		if !ok {
			l.more = nil
		}
	}
	return nil
}

// lookAhead takes the items attribute name needs to see, as Jinja2's
// LoopContext does: the next one for last and nextitem, all of them for
// length and revindex.
func (l *loopObj) lookAhead(name string) error {
	if l.lenDict != nil && !l.sized && (name == "length" || name == "revindex" || name == "revindex0") {
		l.sized, l.size = true, len(l.lenDict.keys)
	}
	if l.live != nil {
		l.items = l.live.Items
		if name == "length" || name == "revindex" || name == "revindex0" {
			l.fixedLength()
		}
	}
	switch name {
	case "last", "nextitem":
		return l.fill(l.i + 1)
	case "length", "revindex", "revindex0":
		l.lenRead = true
		if l.sized {
			return l.lengthErr
		}
		return l.fill(int(^uint(0) >> 1))
	}
	return nil
}

// Iter is iterating the loop variable itself, which Jinja2 allows: it
// takes the loop's remaining items, as (item, loop) pairs, and the for
// loop ends after the current iteration.
func (l *loopObj) Iter(*Ctx) ([]Value, error) {
	if err := l.fill(int(^uint(0) >> 1)); err != nil {
		return nil, err
	}
	var out []Value
	for {
		p, ok, _ := l.step()
		if !ok {
			return out, nil
		}
		out = append(out, p)
	}
}

// Attr returns the loop's attributes.
func (l *loopObj) Attr(name string) (Value, bool) {
	_ = l.lookAhead(name) // GetAttr reports its error first
	n := l.length()
	switch name {
	case "index":
		return IntV(int64(l.i + 1)), true
	case "index0":
		return IntV(int64(l.i)), true
	case "revindex":
		return IntV(int64(n - l.i)), true
	case "revindex0":
		return IntV(int64(n - l.i - 1)), true
	case "first":
		return BoolV(l.i == 0), true
	case "last":
		if l.live != nil {
			return BoolV(l.peek()), true
		}
		return BoolV(l.i == len(l.items)-1), true
	case "length":
		return IntV(int64(n)), true
	case "depth":
		return IntV(int64(l.depth0 + 1)), true
	case "depth0":
		return IntV(int64(l.depth0)), true
	case "previtem":
		if l.i == 0 {
			return Undef("there is no previous item"), true
		}
		if l.live != nil {
			return l.prev, true
		}
		return l.items[l.i-1], true
	case "nextitem":
		if l.live != nil {
			if l.peek() {
				return Undef("there is no next item"), true
			}
			return l.peekV, true
		}
		if l.i+1 >= len(l.items) {
			return Undef("there is no next item"), true
		}
		return l.items[l.i+1], true
	case "cycle":
		i := l.i
		return FuncV(&Func{Name: "LoopContext.cycle", bound: l, Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
			if len(kw) > 0 {
				return Value{}, typeErr("LoopContext.cycle() got an unexpected keyword argument '%s'", kw[0].Name)
			}
			if len(args) == 0 {
				return Value{}, &Error{Kind: "TypeError", Msg: "no items for cycling given"}
			}
			return args[i%len(args)], nil
		}}), true
	case "changed":
		return FuncV(&Func{Name: "LoopContext.changed", bound: l, Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
			if len(kw) > 0 {
				return Value{}, &Error{Kind: "TypeError", Msg: "LoopContext.changed() got an unexpected keyword argument " + pyQuote(kw[0].Name)}
			}
			if l.changedSet && len(args) == len(l.lastChanged) {
				same := true
				for k := range args {
					eq, err := Compare(c, "==", args[k], l.lastChanged[k])
					if err != nil {
						return Value{}, err
					}
					if !eq {
						same = false
						break
					}
				}
				if same {
					return BoolV(false), nil
				}
			}
			l.lastChanged = append([]Value(nil), args...)
			l.changedSet = true
			return BoolV(true), nil
		}}), true
	}
	switch name {
	case "__len__":
		return selfMethod("LoopContext.__len__", l, func() Value { return IntV(int64(l.Len())) }), true
	case "__call__":
		return FuncV(&Func{Name: "LoopContext.__call__", bound: l, Call: l.CallValue}), true
	case "__weakref__":
		return NoneV(), true
	}
	return l.private(name)
}

// CallValue is loop(items) in a recursive loop: the body rendered over
// items one level deeper.
func (l *loopObj) CallValue(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
	// LoopContext.__call__(self, iterable): Python binds the arguments
	// before the body checks the loop is recursive
	switch {
	case len(args) > 1:
		return Value{}, typeErr("LoopContext.__call__() takes 2 positional arguments but %d were given", len(args)+1)
	case len(kw) > 0 && kw[0].Name != "iterable":
		return Value{}, typeErr("LoopContext.__call__() got an unexpected keyword argument '%s'", kw[0].Name)
	case len(kw) > 1:
		return Value{}, typeErr("LoopContext.__call__() got an unexpected keyword argument '%s'", kw[1].Name)
	case len(kw) == 1 && len(args) == 1:
		return Value{}, typeErr("LoopContext.__call__() got multiple values for argument 'iterable'")
	case len(kw) == 1:
		args = []Value{kw[0].Value}
	case len(args) == 0:
		return Value{}, typeErr("LoopContext.__call__() missing 1 required positional argument: 'iterable'")
	}
	if l.rec == nil {
		return Value{}, typeErr("The loop must have the 'recursive' marker to be called recursively.")
	}
	if err := c.enter(); err != nil {
		return Value{}, err
	}
	defer c.leave()
	f := l.f
	// The recursive call reuses the frame; the enclosing iteration's
	// variables are restored after it.
	saved := append([]Value(nil), f.slots...)
	start := len(c.out)
	outer := c.captureEnter(start)
	v, err := c.captured(start, outer, l.rec.run(f, args[0], l.depth0+1))
	copy(f.slots, saved)
	return v, err
}

// storesLoop returns the first target named loop that the for loop n
// assigns anywhere, nested statements included, or nil: Jinja2 refuses
// them all (CodeGenerator.visit_For), not only the loop's own target.
func storesLoop(n *For) Node {
	var found Node
	target := func(x Expr) {
		forTargets(x, func(t *Name) {
			if t.Name == "loop" && found == nil {
				found = t
			}
		})
	}
	Walk([]Stmt{n}, func(n Node) bool {
		switch st := n.(type) {
		case *For:
			target(st.Target)
		case *Set:
			target(st.Target)
			return false
		case *SetBlock:
			target(st.Target)
		case *With:
			for _, t := range st.Targets {
				target(t)
			}
		case *If, *Macro, *CallBlock, *FilterBlock, *Block, *AutoescapeBlock, *Generation:
			// their bodies may assign
		default:
			return false
		}
		return found == nil
	})
	return found
}

// peek is LoopContext._peek_next over a live list: the first read ahead
// of an iteration takes the list's next item as it is then (Python's
// list iterator), and the iteration keeps it; true when there was none,
// which ends Python's list iterator for good.
func (l *loopObj) peek() bool {
	if l.peekAt != l.i+1 {
		l.peekAt = l.i + 1
		l.peekEnd = l.i+1 >= len(l.live.Items)
		if !l.peekEnd {
			l.peekV.put(&l.live.Items[l.i+1])
		}
	}
	return l.peekEnd
}

// liveStep is step over a live list: the item read ahead when there is
// one, else the list's next item as it is now.
func (l *loopObj) liveStep() (Value, bool, error) {
	var it Value
	switch {
	case l.peekAt == l.i+1 && l.peekEnd:
		return Value{}, false, nil
	case l.peekAt == l.i+1:
		it = l.peekV
	case l.i+1 >= len(l.live.Items):
		return Value{}, false, nil
	default:
		it = l.live.Items[l.i+1]
	}
	l.i++
	l.items = l.live.Items
	l.prev, l.cur = l.cur, it
	return TupleV([]Value{it, ObjectV(l)}), true, nil
}

// leadingSets returns the names a loop body assigns with its first
// statements, {% set name = x %} each, before anything else but text
// runs, where x reads none of those names not yet assigned: every
// iteration writes them before any read of theirs, so the value the
// iteration would start them with (the outer one, or missing) is never
// seen and the body's scope need not set it (chat templates' {% set
// content = message['content'] %}).
func leadingSets(body []Stmt) []string {
	var names []string
	pending := map[string]bool{}
	for _, st := range body {
		if _, ok := st.(*Text); ok {
			continue
		}
		set, ok := st.(*Set)
		if !ok {
			break
		}
		t, ok := set.Target.(*Name)
		if !ok {
			break
		}
		pending[t.Name] = true
		names = append(names, t.Name)
	}
	if len(names) == 0 {
		return nil
	}
	// A name counts only if no expression from the body's start up to
	// and including its own set reads it.
	i := 0
	for _, st := range body {
		set, ok := st.(*Set)
		if !ok {
			continue
		}
		if i == len(names) {
			break
		}
		reads := false
		walkExprs(func(n Node) bool {
			switch n := n.(type) {
			case *Name:
				reads = reads || pending[n.Name]
			case *NSRef:
				reads = reads || pending[n.Name]
			}
			return !reads
		}, set.Value)
		if reads {
			return names[:i]
		}
		delete(pending, names[i])
		i++
	}
	return names
}

// onlyPrint returns the print that body is, when it is one print and
// nothing else.
func onlyPrint(body []Stmt) (*Print, bool) {
	if len(body) != 1 {
		return nil, false
	}
	p, ok := body[0].(*Print)
	return p, ok
}

// isItemRead reports whether st is what compile_alias.go leaves of a
// set alias of target's item: {% do target['key'] %}.
func isItemRead(st Stmt, target string) bool {
	d, ok := st.(*Do)
	if !ok {
		return false
	}
	it, ok := d.X.(*ItemExpr)
	if !ok {
		return false
	}
	x, ok := it.X.(*Name)
	k, isConst := it.Key.(*Const)
	return ok && x.Name == target && isConst && k.Value.kind == KindStr
}
