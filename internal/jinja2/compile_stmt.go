package jinja2

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/rolemark/rolemark/internal/pyjson"
)

// The statements' compilation.

// errBreak and errContinue carry {% break %} and {% continue %} to their loop.
var (
	errBreak    = errors.New("break")
	errContinue = errors.New("continue")
)

func (c *compiler) compileStmt(s Stmt) (execFn, error) {
	switch n := s.(type) {
	case *Text:
		return guardOutput(c.outputCheck(), c.compileText(n.Text)), nil
	case *Print:
		w, err := c.compilePrint(n)
		return guardOutput(c.outputCheck(), w), err
	case *If:
		return c.compileIf(n)
	case *For:
		return c.compileFor(n)
	case *Set:
		return c.compileSet(n)
	case *SetBlock:
		return c.compileSetBlock(n)
	case *Macro:
		return c.compileMacro(n)
	case *CallBlock:
		return c.compileCallBlock(n)
	case *FilterBlock:
		return c.compileFilterBlock(n)
	case *With:
		return c.compileWith(n)
	case *Break:
		if c.loops == 0 {
			return nil, c.errAt(n, "TemplateSyntaxError", "'break' outside loop")
		}
		return func(*frame) error { return errBreak }, nil
	case *Continue:
		if c.loops == 0 {
			return nil, c.errAt(n, "TemplateSyntaxError", "'continue' not properly in loop")
		}
		return func(*frame) error { return errContinue }, nil
	case *Do:
		return c.compileDo(n)
	case *Include:
		return c.compileInclude(n)
	case *Import:
		return c.compileImport(n)
	case *FromImport:
		return c.compileFromImport(n)
	case *Extends:
		return c.compileExtends(n)
	case *Block:
		return c.compileBlockRef(n)
	case *AutoescapeBlock:
		return c.compileAutoescape(n)
	case *Generation:
		return c.compileGeneration(n)
	}
	return c.unsupported(s, "this statement"), nil
}

// compileDo compiles {% do x %}: x evaluated, its value dropped. Not
// inlined, so that its closures are compiled as if written in
// compileStmt (see boolValue).
//
//go:noinline
func (c *compiler) compileDo(n *Do) (execFn, error) {
	x, err := c.compileExpr(n.X)
	if err != nil {
		return nil, err
	}
	if it, ok := n.X.(*ItemExpr); ok {
		// d['k'] of a dict raises nothing (a missing key is an
		// Undefined): what compile_alias.go leaves of a set
		if k, ok := it.Key.(*Const); ok && k.Value.kind == KindStr {
			if slot, ok := c.slotOf(it.X); ok {
				return func(f *frame) error {
					if f.slots[slot].kind == KindDict {
						return nil
					}
					_, err := x(f)
					return err
				}, nil
			}
		}
	}
	return func(f *frame) error { _, err := x(f); return err }, nil
}

// compileGeneration compiles {% generation %}: its body written where
// the block prints when no spans are recorded, else called and its
// value written as a generation span. Not inlined, so that its closure
// is compiled as if written in compileStmt (see boolValue).
//
//go:noinline
func (c *compiler) compileGeneration(n *Generation) (execFn, error) {
	m, err := c.compileMacroCode("caller", nil, n.Body)
	if err != nil {
		return nil, err
	}
	var inline execFn
	if generationInline(n.Body) && !c.countItems {
		// (a counted output counts the block as the one item its
		// call yields, not its body's)
		if inline, err = c.compileStmts(n.Body); err != nil {
			return nil, err
		}
	}
	return func(f *frame) error {
		if f.c.gen == nil && printsInto(f.c) {
			// no spans to record: the body writes where the block
			// prints, what writing its captured value would write
			if inline != nil {
				return inline(f)
			}
			return m.callInto(f.c, f, nil, nil)
		}
		v, err := m.call(f.c, f, nil, nil)
		if err != nil {
			return err
		}
		return f.c.writeGeneration(v)
	}, nil
}

// guardOutput returns w, or where guard is set (outputCheck's: output at
// the top level of a template that may extend another) a function that
// runs w only while the template has extended none, as Jinja2 writes
// nothing outside blocks once {% extends %} has run. The test wraps the
// statement once here, not inside each print's closure, which then runs
// no test of a guard where there is none (every usual render).
func guardOutput(guard bool, w execFn) execFn {
	if !guard || w == nil {
		return w
	}
	return func(f *frame) error {
		if f.tc.inh.parent != nil {
			return nil
		}
		return w(f)
	}
}

// compileText compiles template text.
func (c *compiler) compileText(txt string) execFn {
	if fin := c.env.ext.finalize; c.textFinalized() {
		// under an autoescape tag known only at render time, Jinja2
		// cannot fold template text, and compiles it as a print:
		// escape-or-str(finalize(Markup-or-str(text)))
		return func(f *frame) error {
			v := StrV(txt)
			if f.c.evalAuto {
				v = SafeV(txt)
			}
			w := fin(v)
			s, err := ToStr(f.c, w)
			if err != nil {
				return err
			}
			if f.c.evalAuto && !w.IsSafe() {
				s = f.c.env.escape(s)
			}
			return f.c.writeRaw(s)
		}
	}
	return func(f *frame) error { return f.c.writeOwn(txt) }
}

func (c *compiler) compilePrint(n *Print) (execFn, error) {
	if w := c.constStrPrint(n); w != nil {
		return w, nil
	}
	w, err := c.compilePrintValue(n)
	if err != nil || w == nil {
		return w, err
	}
	w = c.finalizedConst(n, w)
	if _, ok := n.X.(*Const); ok {
		// what a constant writes is the template's own text
		print := w
		w = func(f *frame) error {
			start := len(f.c.out)
			if err := print(f); err != nil {
				return err
			}
			f.c.ownSince(start)
			return nil
		}
	}
	return w, nil
}

// constStrPrint compiles {{ 'text' }}, a str constant printed with no
// finalize hook and an autoescape the compiler knows ({{ '<|assistant|>'
// }} under add_generation_prompt): the template's own text, escaped when
// the render escapes and the str is not Markup, as writeValue would
// write it. Nil for any other print.
func (c *compiler) constStrPrint(n *Print) execFn {
	k, ok := n.X.(*Const)
	if !ok || k.Value.kind != KindStr || c.constMode > 0 || c.env.ext.finalize != nil || c.escVolatile {
		return nil
	}
	s, safe := k.Value.s, k.Value.IsSafe()
	name, pos := c.src.name, n.P
	return func(f *frame) error {
		if f.c.autoescape && !safe {
			return place(f.c.writeOwn(f.c.env.escape(s)), name, pos)
		}
		return place(f.c.writeOwn(s), name, pos)
	}
}

// textFinalized reports whether template text is compiled as a print:
// under an autoescape tag whose value is known only at render time, with
// a finalize hook (Jinja2's TemplateData cannot fold there).
func (c *compiler) textFinalized() bool {
	return c.env.ext.finalize != nil && c.escVolatile && !c.env.ext.finalizeFirst && c.constMode == 0
}

// finalizedConst returns w, or, under a finalize hook, for a print of a
// constant, a function that writes the constant as Jinja2's compiler
// folds it (_output_child_to_const): escaped first when autoescape is on
// where the print is compiled, then finalized, and str of that written
// as it is. Where the fold raises, Jinja2 leaves the print to the render:
// w. Without a finalize hook this matters under an autoescape tag whose
// value is known only at render time: the constant is still escaped as
// the compiler's eval context says, not as the render's.
func (c *compiler) finalizedConst(n *Print, w execFn) execFn {
	fin := c.env.ext.finalize
	if fin == nil && c.escVolatile {
		fin = func(v Value) Value { return v }
	}
	if fin == nil || c.env.ext.finalizeFirst || c.constMode > 0 || !isConstExpr(n.X) ||
		c.escVolatile && hasFilterOrTest(n.X) {
		return w
	}
	v, ok := c.constValue(n.X)
	if !ok || v.kind == KindUndefined {
		return w
	}
	rc := newCtx(context.Background(), c.env)
	if c.escOn && !v.IsSafe() {
		s, err := ToStr(rc, v)
		if err != nil {
			return w
		}
		v = SafeV(c.env.escape(s))
	}
	s, err := ToStr(rc, fin(v))
	if err != nil {
		return w
	}
	return func(f *frame) error {
		return f.c.writeOwn(s)
	}
}

// autoescapeConst returns the value of an autoescape tag's expression
// when it is a constant, as Jinja2 folds it at compile time.
func (c *compiler) autoescapeConst(x Expr) (on, ok bool) {
	if !isConstExpr(x) {
		return false, false
	}
	v, ok := c.constValue(x)
	return v.Truth(), ok
}

// hasFilterOrTest reports whether x applies a filter or a test.
func hasFilterOrTest(x Expr) bool {
	return anyNode(func(n Node) bool {
		switch n.(type) {
		case *FilterExpr, *TestExpr:
			return true
		}
		return false
	}, nil, nil, x)
}

// compilePrintValue compiles a print as a value printed at render time.
func (c *compiler) compilePrintValue(n *Print) (execFn, error) {
	var x evalFn
	var err error
	if fn, ok := c.foldedPrint(n.X); ok {
		x = fn
	} else if c.foldMatters(n.X) {
		// an output node's child is folded whatever its value
		x, err = c.compileFolded(n.X, false, true)
	} else {
		if w := c.fastPrint(n); w != nil {
			return w, nil
		}
		if w := c.namePrint(n); w != nil {
			return w, nil
		}
		if w, err := c.compileStreamed(n); w != nil || err != nil {
			return w, err
		}
		if w, err := c.compileJSONPrint(n); w != nil || err != nil {
			return w, err
		}
		if w, err := c.compileAppendPrint(n); w != nil || err != nil {
			return w, err
		}
		if w, err := c.compileCasePrint(n); w != nil || err != nil {
			return w, err
		}
		if w, err := c.compileCallPrint(n); w != nil || err != nil {
			return w, err
		}
		if w, err := c.refPrint(n); w != nil || err != nil {
			return w, err
		}
		x, err = c.compileExpr(n.X)
	}
	if err != nil {
		return nil, err
	}
	name, pos := c.src.name, n.P
	return func(f *frame) error {
		v, err := x(f)
		if err != nil {
			return err
		}
		f.c.finalize(&v)
		return place(f.c.writeValue(v), name, pos)
	}, nil
}

// compileCallPrint compiles {{ f(…) }} for f a name: when f is a macro
// (and no finalize hook is set) its body writes straight into the output,
// without the str of its output that printing would copy; any other
// callee is called and its value printed. Nil when n is not such a print.
func (c *compiler) compileCallPrint(n *Print) (execFn, error) {
	call, ok := n.X.(*CallExpr)
	if !ok || c.constMode > 0 {
		return nil, nil
	}
	if _, ok := call.Fn.(*Name); !ok {
		return nil, nil
	}
	fn, args, err := c.compileCallee(call)
	if err != nil {
		return nil, err
	}
	name, at, callAt, fnAt := c.src.name, n.P, call.P, calleeAt(call)
	return func(f *frame) error {
		callee, err := fn(f)
		if err != nil {
			return err
		}
		fin := f.c.env.ext.finalize
		if callee.kind == KindFunc && fin == nil {
			if mf := callee.ref.(*Func); mf.mac != nil && printsInto(f.c) {
				var argBuf [4]Value
				var kwBuf [4]Kwarg
				as, kw, err := args.evalTo(f, nil, argBuf[:0], kwBuf[:0])
				if err != nil {
					return place(err, name, callAt)
				}
				return placeCall(mf.mac.callInto(f.c, mf.def, as, kw), name, callAt, fnAt)
			}
		}
		as, kw, err := args.eval(f, nil)
		if err != nil {
			return place(err, name, callAt)
		}
		v, err := f.c.Call(callee, as, kw)
		if err != nil {
			return placeCall(err, name, callAt, fnAt)
		}
		if fin != nil {
			v = fin(v)
		}
		return place(f.c.writeValue(v), name, at)
	}, nil
}

// compileJSONPrint compiles {{ x|tojson }}, the built-in tojson without
// arguments: the JSON of a str goes straight into the output, without the
// Markup string the filter returns (a long str's JSON would be built,
// copied and collected on every render). Any other value, or a render
// with a finalize hook, takes the filter. Nil when n is not such a print.
func (c *compiler) compileJSONPrint(n *Print) (execFn, error) {
	fe, ok := n.X.(*FilterExpr)
	if !ok || fe.Name != "tojson" || fe.X == nil || c.constMode > 0 ||
		len(fe.Args.Args)+len(fe.Args.Kwargs) > 0 || fe.Args.DynArgs != nil || fe.Args.DynKwargs != nil {
		return nil, nil
	}
	if _, own := c.env.filters[fe.Name]; own {
		return nil, nil
	}
	x, err := c.expr(fe.X, false)
	if err != nil {
		return nil, err
	}
	name, pos, fpos := c.src.name, n.P, fe.P
	return func(f *frame) error {
		v, err := x(f)
		if err != nil {
			return err
		}
		if v.kind == KindStr && f.c.env.ext.finalize == nil {
			f.c.out = pyjson.AppendHTMLSafeString(f.c.out, v.s)
			return place(f.c.checkOutput(), name, pos)
		}
		if v, err = fTojson(f.c, v, nil, nil); err != nil {
			return place(err, name, fpos)
		}
		f.c.finalize(&v)
		return place(f.c.writeValue(v), name, pos)
	}, nil
}

// compileCasePrint compiles {{ x|capitalize }}, {{ x|upper }} and
// {{ x|lower }} of the built-in filters, and {{ x.capitalize() }},
// {{ x.upper() }} and {{ x.lower() }}: outside autoescape and with no
// finalize hook, an ASCII str (Markup or not) is written into the output
// as the filter or method changes it, without the str it would make
// (distilabel's {{ message.role | capitalize }} at every message,
// OpenHands' {{ ciSystem.lower() }}); any other value goes through the
// filter or the call and is printed. Nil for any other print.
func (c *compiler) compileCasePrint(n *Print) (execFn, error) {
	if c.constMode > 0 {
		return nil, nil
	}
	var conv func(dst []byte, s string) []byte
	caseConv := func(name string) {
		switch name {
		case "capitalize":
			conv = appendASCIICapitalize
		case "upper":
			conv = appendASCIIUpper
		case "lower":
			conv = appendASCIILower
		}
	}
	var x evalFn
	var apply func(f *frame, v Value) (Value, error)
	switch e := n.X.(type) {
	case *FilterExpr:
		if e.X == nil || !noArgs(e.Args) {
			return nil, nil
		}
		if caseConv(e.Name); conv == nil {
			return nil, nil
		}
		if _, own := c.env.filters[e.Name]; own {
			return nil, nil
		}
		fl := c.env.filter(e.Name)
		var err error
		if x, err = c.expr(e.X, false); err != nil {
			return nil, err
		}
		name, fpos := c.src.name, e.P
		apply = func(f *frame, v Value) (Value, error) {
			v, err := fl(f.c, v, nil, nil)
			return v, place(err, name, fpos)
		}
	case *CallExpr:
		ax, ok := e.Fn.(*AttrExpr)
		if !ok || !noArgs(e.Args) {
			return nil, nil
		}
		if caseConv(ax.Name); conv == nil {
			return nil, nil
		}
		args, err := c.compileArgs(e.Args)
		if err != nil {
			return nil, err
		}
		if x, apply, err = c.compileMethodCall(e, ax, args); err != nil {
			return nil, err
		}
	default:
		return nil, nil
	}
	name, pos := c.src.name, n.P
	return func(f *frame) error {
		v, err := x(f)
		if err != nil {
			return err
		}
		// a str's method is the str method: the sandbox allows these
		if v.kind == KindStr && !f.c.autoescape && f.c.env.ext.finalize == nil && strASCII(v) {
			f.c.out = conv(f.c.out, v.s)
			return place(f.c.checkOutput(), name, pos)
		}
		if v, err = apply(f, v); err != nil {
			return err
		}
		f.c.finalize(&v)
		return place(f.c.writeValue(v), name, pos)
	}, nil
}

func (c *compiler) compileIf(n *If) (execFn, error) {
	c.soft++
	defer func() { c.soft-- }()
	tests := make([]condFn, len(n.Tests))
	bodies := make([]execFn, len(n.Tests))
	var sw *fieldSwitch
	more := len(n.Tests) >= 2 && c.constMode == 0
	for i := range n.Tests {
		var err error
		if more {
			// (each test compiled where the chain's own is, after the
			// bodies before it)
			if sw, more, err = c.switchTest(sw, n.Tests[i]); err != nil {
				return nil, err
			}
		}
		if tests[i], err = c.compileCond(n.Tests[i]); err != nil {
			return nil, err
		}
		if bodies[i], err = c.compileStmts(n.Bodies[i]); err != nil {
			return nil, err
		}
	}
	var els execFn
	if n.Else != nil {
		var err error
		if els, err = c.compileStmts(n.Else); err != nil {
			return nil, err
		}
	}
	if len(tests) == 1 {
		return c.ifOne(n, tests[0], bodies, els)
	}
	if sw != nil && len(sw.consts) >= 2 {
		return c.ifSwitch(n, sw, tests, bodies, els), nil
	}
	return ifChain(tests, bodies, els), nil
}

// ifOne is compileIf of a single test (and an else): in a loop, a test
// of an item's field with == or != alone is also an itemSwitch.
func (c *compiler) ifOne(n *If, test condFn, bodies []execFn, els execFn) (execFn, error) {
	body := bodies[0]
	run := func(f *frame) error {
		ok, err := test(f)
		if err != nil {
			return err
		}
		if ok {
			return body(f)
		}
		if els != nil {
			return els(f)
		}
		return nil
	}
	if c.loops > 0 && c.constMode == 0 {
		// {% if m['role'] == 'system' %} or != alone, in a loop
		if ft, ok := c.fieldTest(n.Tests[0]); ok && (ft.op == "==" || ft.op == "!=") {
			rest := []*itemRest{nil}
			if ft.rest != nil {
				cond, err := c.compileCond(ft.rest)
				if err != nil {
					return nil, err
				}
				rest[0] = &itemRest{cond: cond, next: els, x: ft.rest}
			}
			c.newItemSwitch(n, ft.slot, ft.key, []string{ft.k}, bodies, els, rest, ft.op == "!=", true, run)
		}
	}
	return run, nil
}

// ifSwitch is compileIf of a chain on one field compared with constants,
// {% if m['role'] == 'system' %}…{% elif m['role'] == 'user' %}:
// the field is read once and compared with each constant
// (reading a dict's item again changes nothing in between);
// chains[k] runs the chain from its k-th test
func (c *compiler) ifSwitch(n *If, sw *fieldSwitch, tests []condFn, bodies []execFn, els execFn) execFn {
	chains := make([]execFn, len(sw.consts)+1)
	for k := range chains {
		chains[k] = ifChain(tests[k:], bodies[k:], els)
	}
	run := func(f *frame) error {
		if o := &f.slots[sw.slot]; o.kind == KindDict {
			d := o.dict()
			if i := d.findStr(sw.key); i >= 0 {
				if w := &d.vals[i]; w.kind == KindStr {
					for j := range sw.consts {
						if !eqStr(w.s, sw.consts[j]) {
							continue
						}
						if r := sw.rest[j]; r != nil {
							ok, err := r(f)
							if err != nil {
								return err
							}
							if !ok {
								// the tests after it from the
								// start: r may have changed the dict
								return chains[j+1](f)
							}
						}
						return bodies[j](f)
					}
					return chains[len(sw.consts)](f)
				}
			}
		}
		return chains[0](f)
	}
	rest := make([]*itemRest, len(sw.rest))
	for j, r := range sw.rest {
		if r != nil {
			rest[j] = &itemRest{cond: r, next: chains[j+1], x: sw.restX[j]}
		}
	}
	c.newItemSwitch(n, sw.slot, sw.key, sw.consts, bodies, els, rest, false, len(tests) == len(sw.consts), run)
	return run
}

// itemSwitch is an if chain on a field of a local compared with str
// constants: a fieldSwitch, or one test x.name == 'a' or x.name != 'a'
// (either followed by "and …"), or such a chain whose else is one if
// chain on the same field (an else holding an if). What a loop over
// the local's items runs with each item where its list holds it
// (compileFor's runListSwitch): the branch a str field selects, when
// it is nothing or one print of runs of constants and fields
// (streamRuns), runs in place; a branch of other statements runs with
// the item stored in the local's slot, and where no one branch is known
// (a field that is not a str, tests of another kind after the
// constants) the whole chain runs (run).
type itemSwitch struct {
	slot   int
	key    string
	hint   int32 // where key was found last (Dict.hinted)
	consts []string
	// branches[j] is what runs when the field is consts[j] (the first
	// that is), none what runs when it is none of them
	branches []itemBranch
	none     itemBranch
	run      execFn // the whole chain, reading the local's slot
}

// itemBranch is a branch an itemSwitch runs in place: nothing (empty)
// or a print; when it is neither, the whole chain runs.
type itemBranch struct {
	print *streamedPrint
	empty bool
	// body is the branch's statements, run with the item stored when
	// they are neither (nil where what runs is not one branch: the
	// chain then runs whole)
	body execFn
	rest *itemRest
}

// itemRest is the "and …" after a branch's comparison: cond, read with
// the item stored in the local's slot; when it holds, the branch runs
// (its print reading the slot, nothing when empty, or the branch's
// body), else next, the chain from the test after it (nil: nothing).
// A branch with a rest keeps its print and empty here, so that runItem
// looks at a rest only past the branches without one.
type itemRest struct {
	cond  condFn
	next  execFn
	print *streamedPrint
	empty bool
	x     Expr     // what cond compiles
	test  itemCond // cond read from the item in place, or nil
	// fail is where test goes when it does not hold: the branch of that
	// index, -1 none, -2 next with the item stored
	fail int
	// steps are the branch's statements when they are text, prints of
	// the item's fields and constants, and ifs on tests of the item
	// (itemCond): what writeSteps writes in place. A branch of steps
	// keeps them here, with no cond where it has no rest, so that its
	// itemBranch stays as runItem indexes it
	steps *[]itemStep
	// sw is the switch whose copy runs in place (forItem), where the
	// rest's test or the branch's steps are read in place (runInPlace)
	sw *itemSwitch
	// failRun runs the branch fail names for the item (failsTo)
	failRun func(*frame, *Value) error
}

// withRest returns b with the rest r (nil: b).
func (b itemBranch) withRest(r *itemRest) itemBranch {
	if r != nil {
		r.print, r.empty = b.print, b.empty
		if b.rest != nil {
			r.steps = b.rest.steps
		}
		b.print, b.empty, b.rest = nil, false, r
	}
	return b
}

// itemBranchOf is the itemBranch of a branch's body, whose local in
// slot is the switch's.
func (c *compiler) itemBranchOf(body []Stmt, slot int) itemBranch {
	if len(body) == 0 {
		return itemBranch{empty: true}
	}
	if p, ok := onlyPrint(body); ok {
		return itemBranch{print: c.runPrints[p]}
	}
	if steps, ok := c.itemStepsOf(body, slot); ok {
		return itemBranch{rest: &itemRest{steps: &steps}}
	}
	return itemBranch{}
}

// newItemSwitch records n, whose tests compare slot's field key with
// consts (a test that is followed by "and …" where rest[j] is not nil),
// as an itemSwitch for a loop (c.itemSwitches). neg is a single test
// with !=, whose body runs for any str but consts[0]. Only when all of n's
// tests are such comparisons (allSwitch) does what follows the
// constants reduce to n's else; an else that is one if chain on the
// same field continues the switch with that chain's constants.
func (c *compiler) newItemSwitch(n *If, slot int, key string, consts []string, bodies []execFn, els execFn, rest []*itemRest, neg, allSwitch bool, run execFn) {
	is := &itemSwitch{slot: slot, key: key, consts: slices.Clone(consts), branches: make([]itemBranch, len(consts)), run: run}
	switch {
	case neg:
		// the field is consts[0]: the test is false, rest unread
		is.branches[0] = c.itemBranchOf(n.Else, slot)
		is.branches[0].body = els
		is.none = c.itemBranchOf(n.Bodies[0], slot)
		is.none.body = bodies[0]
		is.none = is.none.withRest(rest[0])
	default:
		for j := range consts {
			is.branches[j] = c.itemBranchOf(n.Bodies[j], slot)
			is.branches[j].body = bodies[j]
			is.branches[j] = is.branches[j].withRest(rest[j])
		}
		if !allSwitch {
			break
		}
		is.none = c.itemBranchOf(n.Else, slot)
		is.none.body = els
		if len(n.Else) != 1 {
			break
		}
		// {% else %}{% if m['role'] == 'user' %}: the same field, read
		// again unchanged (a dict's item), decides the inner chain
		if in, ok := n.Else[0].(*If); ok {
			if inner := c.itemSwitches[in]; inner != nil && inner.slot == slot && inner.key == key {
				is.consts = append(is.consts, inner.consts...)
				is.branches = append(is.branches, inner.branches...)
				is.none = inner.none
			}
		}
	}
	c.restsInPlace(is, slot)
	if c.itemSwitches == nil {
		c.itemSwitches = map[*If]*itemSwitch{}
	}
	c.itemSwitches[n] = is
}

// runItem runs the chain for item, the value of the switch's local,
// which the loop has not stored: a branch that is nothing or one print
// reads it in place, one with a rest goes through runRest (in place too
// where the rest's sw says so: runInPlace); anything else stores it and
// runs the branch or the chain.
func (is *itemSwitch) runItem(f *frame, item *Value) error {
	if item.kind == KindDict && !f.c.autoescape {
		d := item.dict()
		i := d.hinted(is.key, &is.hint)
		if i < 0 {
			i = d.findStrKeep(is.key, &is.hint)
		}
		if i >= 0 {
			if w := &d.vals[i]; w.kind == KindStr {
				b := &is.none
				for j, k := range is.consts {
					if eqStr(w.s, k) {
						b = &is.branches[j]
						break
					}
				}
				if b.print != nil {
					return b.print.streamRunsItem(f, item)
				}
				if b.empty {
					return nil
				}
				if b.rest != nil {
					return b.runRest(f, is.slot, item)
				}
				if b.body != nil {
					f.slots[is.slot].put(item)
					return b.body(f)
				}
			}
		}
	}
	f.slots[is.slot].put(item)
	return is.run(f)
}

// forItem returns a copy of is whose prints read slot, a loop's target,
// from the item runItem is given.
func (is *itemSwitch) forItem(slot int) *itemSwitch {
	cp := *is
	cp.branches = slices.Clone(is.branches)
	for j := range cp.branches {
		if p := cp.branches[j].print; p != nil {
			cp.branches[j].print = p.forItem(slot)
		}
		cp.branches[j].rest = cp.branches[j].rest.forItem(slot)
		cp.branches[j].inPlace(&cp)
	}
	if p := cp.none.print; p != nil {
		cp.none.print = p.forItem(slot)
	}
	cp.none.rest = cp.none.rest.forItem(slot)
	cp.none.inPlace(&cp)
	for j := range cp.branches {
		cp.failsTo(cp.branches[j].rest)
	}
	cp.failsTo(cp.none.rest)
	return &cp
}

// inPlace makes b, a branch of is, which runItem reads in place, run
// in place what it can beyond a print: its rest when it is an itemCond,
// its steps when it has no other rest. Both go through the rest
// (runItem's path for what is not a print), whose sw says it is read in
// place (runInPlace).
func (b *itemBranch) inPlace(is *itemSwitch) {
	if b.rest != nil && (b.rest.test != nil || b.rest.cond == nil) {
		r := *b.rest
		r.sw = is
		b.rest = &r
	}
}

// forItem returns a copy of r (nil: nil) whose print and steps read
// slot from the item runInPlace is given.
func (r *itemRest) forItem(slot int) *itemRest {
	if r == nil || r.print == nil && r.steps == nil {
		return r
	}
	cp := *r
	if r.print != nil {
		cp.print = r.print.forItem(slot)
	}
	cp.steps = stepsForItem(r.steps, slot)
	return &cp
}

// runRest runs b, a branch with a rest, for item: the item is stored
// (the rest reads the local), and the print reads it from the slot,
// which the rest cannot change, where the list's item may have moved.
func (b *itemBranch) runRest(f *frame, slot int, item *Value) error {
	if b.rest.sw != nil {
		return b.rest.sw.runInPlace(f, b, item)
	}
	return b.runRestStored(f, slot, item)
}

// runRestStored is runRest with the item stored and the rest read from
// the local (b.rest.cond).
func (b *itemBranch) runRestStored(f *frame, slot int, item *Value) error {
	f.slots[slot].put(item)
	ok, err := b.rest.cond(f)
	switch {
	case err != nil:
		return err
	case !ok:
		if b.rest.next == nil {
			return nil
		}
		return b.rest.next(f)
	case b.rest.print != nil:
		return b.rest.print.streamRunsItem(f, nil)
	case b.rest.empty:
		return nil
	}
	return b.body(f)
}

// ifChain runs the body of the first of tests that holds, else els. Not
// inlined, so that its closure is compiled as if written in compileIf
// (see boolValue).
//
//go:noinline
func ifChain(tests []condFn, bodies []execFn, els execFn) execFn {
	return func(f *frame) error {
		for i, t := range tests {
			ok, err := t(f)
			if err != nil {
				return err
			}
			if ok {
				return bodies[i](f)
			}
		}
		if els != nil {
			return els(f)
		}
		return nil
	}
}

// fieldSwitch is the leading tests of an if/elif chain (two or more)
// that compare one field of a local with str constants: x.name == 'a',
// or x['name'] == 'a' and y, the same field in each.
type fieldSwitch struct {
	slot   int
	key    string
	consts []string
	rest   []condFn // the condition after "and", or nil
	restX  []Expr   // the conditions rest compiles
}

// switchTest adds the test t to sw, the switch the tests before it
// began, and says whether the next test may add to it too.
func (c *compiler) switchTest(sw *fieldSwitch, t Expr) (*fieldSwitch, bool, error) {
	ft, ok := c.fieldTest(t)
	if !ok || ft.op != "==" || sw != nil && (ft.slot != sw.slot || ft.key != sw.key) {
		return sw, false, nil
	}
	slot, key, rest := ft.slot, ft.key, ft.rest
	var r condFn
	if rest != nil {
		var err error
		if r, err = c.compileCond(rest); err != nil {
			return nil, false, err
		}
	}
	if sw == nil {
		sw = &fieldSwitch{slot: slot, key: key}
	}
	sw.consts = append(sw.consts, ft.k)
	sw.rest = append(sw.rest, r)
	sw.restX = append(sw.restX, rest)
	return sw, true, nil
}

// fieldTest is a test x.name OP 'k' or x['name'] OP 'k' of a local x,
// OP a single comparison, followed by "and …" when rest is not nil (a
// and b and c is (a and b) and c: when a holds, its truth is that of b
// and c, rest).
type fieldTest struct {
	slot   int
	key, k string
	op     string
	rest   Expr
}

func (c *compiler) fieldTest(t Expr) (fieldTest, bool) {
	t, rest := splitAnd(t)
	cmp, ok := t.(*CompareExpr)
	if !ok || len(cmp.Ops) != 1 {
		return fieldTest{}, false
	}
	k, ok := cmp.Rights[0].(*Const)
	if !ok || k.Value.kind != KindStr {
		return fieldTest{}, false
	}
	slot, key, _, ok := c.fieldOf(cmp.Left)
	if !ok {
		return fieldTest{}, false
	}
	return fieldTest{slot: slot, key: key, k: k.Value.s, op: cmp.Ops[0], rest: rest}, true
}

// splitAnd splits t into the leftmost operand of its chain of "and"
// and the chain of the operands after it (nil when t is not an and).
func splitAnd(t Expr) (first, rest Expr) {
	b, ok := t.(*BinExpr)
	if !ok || b.Op != "and" {
		return t, nil
	}
	first, r := splitAnd(b.Left)
	if r == nil {
		return first, b.Right
	}
	cp := *b
	cp.Left = r
	return first, &cp
}

// compileAssign compiles the store of a value into a target (a name, a
// tuple of names, a namespace attribute).
func (c *compiler) compileAssign(target Expr) (func(f *frame, v Value) error, error) {
	name, pos := c.src.name, target.Position()
	switch t := target.(type) {
	case *Name:
		st := c.storeName(t.Name)
		return func(f *frame, v Value) error { st(f, v); return nil }, nil
	case *NSRef:
		ns := c.loadName(t.Name)
		attr := t.Attr
		if slot, ok := c.nsSlot(t.Name); ok {
			// the namespace is read where its slot holds it
			return func(f *frame, v Value) error {
				o := &f.slots[slot]
				if o.kind == KindObject {
					if n, ok := o.ref.(*namespace); ok {
						if i := n.d.findStr(attr); i >= 0 {
							n.d.vals[i] = v
							return nil
						}
					}
				}
				if err := setNamespaceAttr(*o, attr, v); err != nil {
					return place(err, name, pos)
				}
				return nil
			}, nil
		}
		return func(f *frame, v Value) error {
			o, _ := ns(f)
			if o.kind == KindObject {
				if n, ok := o.ref.(*namespace); ok {
					// an attribute the namespace has is set in place
					// (SetAttr's SetKey would find it the same way)
					if i := n.d.findStr(attr); i >= 0 {
						n.d.vals[i] = v
						return nil
					}
				}
			}
			if err := setNamespaceAttr(o, attr, v); err != nil {
				return place(err, name, pos)
			}
			return nil
		}, nil
	case *TupleLit:
		subs := make([]func(*frame, Value) error, len(t.Items))
		for i, it := range t.Items {
			var err error
			if subs[i], err = c.compileAssign(it); err != nil {
				return nil, err
			}
		}
		return func(f *frame, v Value) error {
			items, err := unpack(f.c, v, len(subs))
			if err != nil {
				return place(err, name, pos)
			}
			for i, s := range subs {
				if err := s(f, items[i]); err != nil {
					return err
				}
			}
			return nil
		}, nil
	}
	return nil, c.errAt(target, "TemplateSyntaxError", "can't assign to "+pyQuote("expr"))
}

// unpack is Python's a, b = v.
func unpack(c *Ctx, v Value, n int) ([]Value, error) {
	if v.Kind() == KindUndefined {
		return checkUnpack(nil, n) // Undefined iterates as empty
	}
	if v.Kind() == KindList || v.Kind() == KindTuple || v.Kind() == KindStr || v.Kind() == KindDict {
		items, err := Iterate(c, v)
		if err != nil {
			return nil, err
		}
		return checkUnpack(items, n)
	}
	if v.Kind() == KindObject {
		items, err := Iterate(c, v)
		if err == nil {
			return checkUnpack(items, n)
		}
		if _, iterable := v.ref.(Iterable); iterable {
			// iterating it failed (self[0] is a KeyError)
			return nil, err
		}
	}
	return nil, &Error{Kind: "TypeError", Msg: "cannot unpack non-iterable " + TypeName(v) + " object"}
}

func checkUnpack(items []Value, n int) ([]Value, error) {
	if len(items) < n {
		return nil, &Error{Kind: "ValueError", Msg: "not enough values to unpack (expected " + istr(n) + ", got " + istr(len(items)) + ")"}
	}
	if len(items) > n {
		return nil, &Error{Kind: "ValueError", Msg: "too many values to unpack (expected " + istr(n) + ")"}
	}
	return items, nil
}

func (c *compiler) compileSet(n *Set) (execFn, error) {
	if t, ok := n.Target.(*Name); ok && c.arena[t.Name] {
		x, err := c.arenaChain(n.Value)
		if err != nil {
			return nil, err
		}
		if x != nil {
			st := c.storeName(t.Name)
			return func(f *frame) error {
				v, err := x(f)
				if err != nil {
					return err
				}
				st(f, v)
				return nil
			}, nil
		}
	}
	if t, ok := n.Target.(*Name); ok {
		// a name is written straight into its slot, as storeName's
		// would store it; in the top scope, then exported as storeName
		// exports it
		x, err := c.compileInto(n.Value)
		if err != nil {
			return nil, err
		}
		slot, ok := c.sc.vars[t.Name]
		if !ok {
			slot = c.sc.declare(t.Name)
		}
		if c.sc.top {
			name := t.Name
			return func(f *frame) error {
				if err := x(f, &f.slots[slot]); err != nil {
					return err
				}
				if f.tc.exporting {
					f.tc.export(name, f.slots[slot])
				}
				return nil
			}, nil
		}
		return func(f *frame) error { return x(f, &f.slots[slot]) }, nil
	}
	x, err := c.compileExpr(n.Value)
	if err != nil {
		return nil, err
	}
	st, err := c.compileAssign(n.Target)
	if err != nil {
		return nil, err
	}
	if check := c.namespaceCheck(n.Target); check != nil {
		// Jinja2 checks every ns of ns.attr targets before it evaluates
		// the value
		return func(f *frame) error {
			if err := check(f); err != nil {
				return err
			}
			v, err := x(f)
			if err != nil {
				return err
			}
			return st(f, v)
		}, nil
	}
	return func(f *frame) error {
		v, err := x(f)
		if err != nil {
			return err
		}
		return st(f, v)
	}, nil
}

// namespaceCheck compiles what Jinja2's visit_Assign emits before an
// assignment with ns.attr targets: each name (once, in document order)
// must hold a Namespace; nil when the target has none.
func (c *compiler) namespaceCheck(target Expr) func(f *frame) error {
	var loads []evalFn
	var slots []int
	seen := map[string]bool{}
	walkExprs(func(x Node) bool {
		if r, ok := x.(*NSRef); ok && !seen[r.Name] {
			seen[r.Name] = true
			if slot, ok := c.nsSlot(r.Name); ok {
				slots = append(slots, slot)
			}
			loads = append(loads, c.loadName(r.Name))
		}
		return true
	}, target)
	if len(loads) == 0 {
		return nil
	}
	name, pos := c.src.name, target.Position()
	if len(slots) == 1 && len(loads) == 1 {
		// {% set ns.x = … %} in a loop: the namespace is checked where
		// its slot holds it, not copied out by loadName (a missing name
		// is an Undefined there too)
		slot := slots[0]
		return func(f *frame) error {
			if o := &f.slots[slot]; o.kind == KindObject {
				if _, ok := o.ref.(Setter); ok {
					return nil
				}
			}
			return place(errNotNamespace(), name, pos)
		}
	}
	return func(f *frame) error {
		for _, ld := range loads {
			o, _ := ld(f)
			if o.kind != KindObject {
				return place(errNotNamespace(), name, pos)
			}
			if _, ok := o.ref.(Setter); !ok { // a Namespace, or a host's object that takes attributes
				return place(errNotNamespace(), name, pos)
			}
		}
		return nil
	}
}

// compileScoped compiles statements in a scope of their own, the frame
// syms analyses.
func (c *compiler) compileScoped(body []Stmt, syms *frameSyms) (execFn, error) {
	s := c.newScope(assigned(body))
	s.syms = syms
	outer := c.sc
	c.sc = s
	b, err := c.compileStmts(body)
	c.sc = outer
	if err != nil {
		return nil, err
	}
	init := c.scopeInit(s, nil)
	if init == nil {
		return b, nil
	}
	return func(f *frame) error {
		_ = init(f)
		return b(f)
	}, nil
}

// compileCaptured compiles statements in a scope of their own whose output
// is captured: run returns it as a str (Markup under autoescape); syms
// analyses its frame. filter, when not nil, is the block's filter chain,
// which Jinja2 compiles in the block's frame: it sees what the body
// assigned.
func (c *compiler) compileCaptured(body []Stmt, syms *frameSyms, filter Expr) (run func(f *frame) (Value, error), filt func(f *frame, v Value) (Value, error), err error) {
	s := c.newScope(assigned(body))
	s.syms = syms
	outer := c.sc
	c.sc = s
	soft := c.soft
	c.soft = 0
	b, err := c.compileStmts(body)
	if err == nil && filter != nil {
		// Jinja2 compiles the block's body, then its filter
		if err = c.exprOptimizerError(filter); err == nil {
			filt, err = c.compileHardFilterChain(filter)
		}
	}
	c.soft = soft
	c.sc = outer
	if err != nil {
		return nil, nil, err
	}
	init := c.scopeInit(s, nil)
	return func(f *frame) (Value, error) {
		if init != nil {
			_ = init(f)
		}
		start := len(f.c.out)
		outer := f.c.captureEnter(start)
		return f.c.captured(start, outer, b(f))
	}, filt, nil
}

func (c *compiler) compileSetBlock(n *SetBlock) (w execFn, _ error) {
	saved := c.noOutputCheck
	c.noOutputCheck = true
	c.bufDepth++
	body, filter, err := c.compileCaptured(n.Body, symsBody(n.Body), n.Filter)
	c.bufDepth--
	c.noOutputCheck = saved
	if err != nil {
		return nil, err
	}
	if c.bufDepth == 0 && includeYields(n.Body) {
		defer func() { w = deferredFlush(w) }()
	}
	st, err := c.compileAssign(n.Target)
	if err != nil {
		return nil, err
	}
	if r, ok := n.Target.(*NSRef); ok {
		st = c.itemStore(r)
	}
	return func(f *frame) error {
		v, err := body(f)
		if err != nil {
			return err
		}
		// (Markup if context.eval_ctx.autoescape else identity)(x): the
		// eval context at render time decides, not how the body was
		// compiled; x is concat(buffer), a str, or the filter of the
		// buffer as a filter block's body is (Markup as compiled)
		if filter == nil {
			v = StrV(v.s)
		} else if v, err = filter(f, v); err != nil {
			return err
		}
		if f.c.Autoescape() && !v.IsSafe() {
			// Markup of a str marks it, of anything else marks its str
			s, err := ToStr(f.c, v)
			if err != nil {
				return err
			}
			v = SafeV(s)
		}
		return st(f, v)
	}, nil
}

// itemStore compiles the store of {% set ns.attr %}…{% endset %}: Jinja2
// checks for a Namespace only before {% set ns.attr = … %}, so a set
// block writes ns[attr] = value into whatever ns is: a Namespace's
// attribute, a dict's key, or a TypeError as Python gives it.
func (c *compiler) itemStore(r *NSRef) func(f *frame, v Value) error {
	ld := c.loadName(r.Name)
	missing := pyQuote(r.Name) + " is undefined"
	name, pos, attr := c.src.name, r.Position(), r.Attr
	return func(f *frame, v Value) error {
		o, _ := ld(f)
		var err error
		switch o.kind {
		case KindDict:
			if o.flags&flagProxy != 0 {
				err = notItemAssignable("mappingproxy")
				break
			}
			err = o.dict().SetKey(StrV(attr), v)
		case KindList:
			err = &Error{Kind: "TypeError", Msg: "list indices must be integers or slices, not str"}
		case KindObject:
			if s, ok := o.ref.(Setter); ok {
				err = s.SetAttr(attr, v)
				break
			}
			err = notItemAssignable(TypeName(o))
		case KindUndefined:
			// a name the context does not hold is Jinja2's missing
			if o.s == missing && o.flags&flagLazyAttr == 0 {
				err = notItemAssignable("_MissingType")
			} else {
				err = notItemAssignable("Undefined")
			}
		default:
			err = notItemAssignable(TypeName(o))
		}
		return place(err, name, pos)
	}
}

func notItemAssignable(typ string) error {
	return &Error{Kind: "TypeError", Msg: pyQuote(typ) + " object does not support item assignment"}
}

// compileHardFilterChain compiles the filter of a set or filter block,
// which Jinja2 compiles in the block's own frame, never a conditional
// one: an unknown filter there fails the template, even in a branch not
// taken.
func (c *compiler) compileHardFilterChain(x Expr) (func(f *frame, v Value) (Value, error), error) {
	soft := c.soft
	c.soft = 0
	defer func() { c.soft = soft }()
	return c.compileFilterChain(x)
}

func (c *compiler) compileFilterBlock(n *FilterBlock) (w execFn, _ error) {
	c.bufDepth++
	body, filter, err := c.compileCaptured(n.Body, symsFilterBlock(n), n.Filter)
	c.bufDepth--
	if err != nil {
		return nil, err
	}
	if c.bufDepth == 0 && includeYields(n.Body) {
		defer func() { w = deferredFlush(w) }()
	}
	name, pos := c.src.name, n.P
	return func(f *frame) error {
		v, err := body(f)
		if err != nil {
			return err
		}
		if v, err = filter(f, v); err != nil {
			return err
		}
		// Jinja2 yields the filter's value as it is: a str (Markup or
		// not) is written unescaped, anything else fails the join of the
		// output, once the rest of it has rendered (Ctx.joinErr)
		if v.kind != KindStr {
			if f.c.joinErr == nil {
				f.c.joinErr = place(joinItemErr(f.c, TypeName(v)), name, pos)
			}
			return nil
		}
		if f.c.env.escapeFilterBlocks {
			return place(f.c.writeValue(v), name, pos)
		}
		return place(f.c.writeRaw(v.s), name, pos)
	}, nil
}

func (c *compiler) compileWith(n *With) (execFn, error) {
	vals := make([]evalFn, len(n.Values))
	for i, v := range n.Values {
		var err error
		if vals[i], err = c.compileExpr(v); err != nil {
			return nil, err
		}
	}
	var names []string
	for _, t := range n.Targets {
		names = append(names, targetNames(t)...)
	}
	s := c.newScope(append(names, assigned(n.Body)...))
	s.syms = symsWith(n)
	outer := c.sc
	c.sc = s
	soft := c.soft
	c.soft = 0
	defer func() { c.sc, c.soft = outer, soft }()
	stores := make([]func(*frame, Value) error, len(n.Targets))
	for i, t := range n.Targets {
		var err error
		if stores[i], err = c.compileAssign(t); err != nil {
			return nil, err
		}
	}
	body, err := c.compileStmts(n.Body)
	if err != nil {
		return nil, err
	}
	skip := map[string]bool{}
	for _, nm := range names {
		skip[nm] = true
	}
	init := c.scopeInit(s, skip)
	return func(f *frame) error {
		// The values are computed outside the scope, then assigned.
		var buf [4]Value
		vs := buf[:0]
		for _, v := range vals {
			x, err := v(f)
			if err != nil {
				return err
			}
			vs = append(vs, x)
		}
		if init != nil {
			_ = init(f)
		}
		for i, st := range stores {
			if err := st(f, vs[i]); err != nil {
				return err
			}
		}
		return body(f)
	}, nil
}

func (c *compiler) compileAutoescape(n *AutoescapeBlock) (execFn, error) {
	// Jinja2's parser wraps the tag in a Scope, whose frame is a hard one
	// even inside an if: an unknown filter or test in its value or body
	// fails the template, in a branch not taken too
	soft := c.soft
	c.soft = 0
	defer func() { c.soft = soft }()
	if c.env.autoescapeStaysOn {
		if on, ok := c.autoescapeConst(n.X); !on || !ok {
			return nil, c.errAt(n, "SecurityError", "{% autoescape %} may only turn escaping on here: a value prints as markup only with |safe")
		}
	}
	x, err := c.compileExpr(n.X)
	if err != nil {
		return nil, err
	}
	savedOn, savedVolatile := c.escOn, c.escVolatile
	if v, ok := c.autoescapeConst(n.X); ok {
		c.escOn = v
	} else {
		c.escVolatile = true
	}
	on, volatile := c.escOn, c.escVolatile
	// Jinja2's parser wraps the tag in a Scope: what it assigns stays in it
	body, err := c.compileScoped(n.Body, symsAutoescape(n))
	c.escOn, c.escVolatile = savedOn, savedVolatile
	if err != nil {
		return nil, err
	}
	return func(f *frame) error {
		v, err := x(f)
		if err != nil {
			return err
		}
		// context.eval_ctx.autoescape = v at render time, whether or not
		// the compiler knew it; the body escapes as compiled
		saved := f.c.evalAuto
		f.c.evalAuto = v.Truth()
		savedCode := f.c.enterCode(on, volatile, nil)
		err = body(f)
		f.c.leaveCode(savedCode)
		f.c.evalAuto = saved
		return err
	}, nil
}

// plusChain returns the operands of a + b + c (left-associative) and the
// place of each +, or nil when x is no such chain.
func plusChain(x Expr) ([]Expr, []Pos) {
	b, ok := x.(*BinExpr)
	if !ok || b.Op != "+" {
		return nil, nil
	}
	ops, pos := plusChain(b.Left)
	if ops == nil {
		ops = []Expr{b.Left}
	}
	return append(ops, b.Right), append(pos, b.P)
}

// compileStreamed compiles {{ a + b + c }} and {{ a ~ b ~ c }} so that,
// while the operands are plain strs (and, for ~, small ints and floats),
// each is written into the output as it is evaluated instead of building
// the joined string first: a constant str is copied, x.name and
// x['name'] of a local dict read the item in place. Jinja2 evaluates the
// whole expression before writing any of it, so at the first error the
// operands written so far are taken back, and at the first operand that
// is not such a value they become one str (the sum so far) from which
// the chain goes on as Python computes it, in Python's order. Under
// autoescape it evaluates every operand first (the joined value is
// escaped or not as a whole). It returns nil for other prints, and under
// a finalize hook, which takes the joined value.
func (c *compiler) compileStreamed(n *Print) (execFn, error) {
	if c.env.ext.finalize != nil {
		return nil, nil
	}
	var parts []Expr
	var pos []Pos
	concat := false
	switch x := n.X.(type) {
	case *BinExpr:
		parts, pos = plusChain(x)
	case *Concat:
		parts, concat = x.Items, true
	}
	if len(parts) < 2 {
		return nil, nil
	}
	ps, err := c.chainParts(parts)
	if err != nil {
		return nil, err
	}
	s := &streamedPrint{parts: ps, pos: pos, concat: concat, name: c.src.name, at: n.P, catPos: n.X.Position()}
	guard := c.outputCheck()
	if runs, tail, ok := fieldRunsOf(ps); ok && !guard {
		// constants and fields of locals alone: a chat template's
		// '<|im_start|>' + message['role'] + '\n' + message['content']
		s.runs, s.tail, s.tpad = runs, tail, padOf(tail)
		if c.runPrints == nil {
			c.runPrints = map[*Print]*streamedPrint{}
		}
		c.runPrints[n] = s
		return func(f *frame) error {
			if f.c.autoescape {
				return s.evalAll(f)
			}
			return s.streamRuns(f)
		}, nil
	}
	return func(f *frame) error {
		if f.c.autoescape {
			return s.evalAll(f)
		}
		return s.stream(f)
	}, nil
}

// fieldRun is a run of a printed chain's constants, then a field of a
// local (x.name, x['name']) or a local, or the builtin |trim of one.
type fieldRun struct {
	lit   string // the constants' text before the field
	pad   padded // lit, padded (appendPadded)
	slot  int
	key   string
	local bool  // the slot's own value, not its key
	trim  bool  // written as |trim gives it
	item  bool  // the slot is a loop's target, read from its item (streamRunsItem)
	hint  int32 // where the key was found last (Dict.hinted)
}

// fieldRunsOf returns the chain ps as runs of constants each followed by
// a field or a local, and the constants after the last, when it is
// nothing else.
func fieldRunsOf(ps []chainPart) ([]fieldRun, string, bool) {
	var runs []fieldRun
	lit := ""
	for k := 0; k < len(ps); k++ {
		p := &ps[k]
		switch {
		case p.lit:
			lit += p.run
			k += p.runN - 1
		case p.field:
			runs = append(runs, fieldRun{lit: lit, slot: p.slot, key: p.key})
			lit = ""
		case p.local:
			runs = append(runs, fieldRun{lit: lit, slot: p.slot, local: true})
			lit = ""
		case p.trimOK:
			r := p.trimRun
			r.lit = lit
			runs = append(runs, r)
			lit = ""
		default:
			return nil, "", false
		}
	}
	for i := range runs {
		runs[i].pad = padOf(runs[i].lit)
	}
	return runs, lit, true
}

// streamRuns is stream for a chain of runs: each field that is a plain
// str (or for ~, any str) is written as it is; at anything else it
// takes the written text back and lets stream write the chain. Where
// the template's own text is tracked (Renderer.TrackOwn) it records
// the spans stream records: the constants, and a local that is the
// template's own str.
func (s *streamedPrint) streamRuns(f *frame) error { return s.streamRunsItem(f, nil) }

// streamRunsItem is streamRuns with item as the value of the runs whose
// slot is marked item (a loop's target, which the loop has not stored:
// compileFor's runListRuns); at anything else it stores item in the
// target's slot (target) before stream or evalAll read it there.
func (s *streamedPrint) streamRunsItem(f *frame, item *Value) error {
	c := f.c
	if s.inItem && item != nil && item.kind == KindDict && c.own == nil && s.writeItemRuns(c, item.dict()) {
		if l := c.env.limits.Output; l > 0 && len(c.out)-c.outBase > l {
			return place(c.checkOutput(), s.name, s.at)
		}
		return nil
	}
	own := c.own
	out := c.out
	start := len(out)
	for i := range s.runs {
		r := &s.runs[i]
		if own != nil {
			own.add(len(out)-c.outBase, len(r.lit))
		}
		out = appendPadded(out, r.lit, &r.pad)
		var w *Value
		if r.item && item != nil {
			w = item
		} else {
			w = &f.slots[r.slot]
		}
		if !r.local {
			if w.kind != KindDict {
				goto slow
			}
			d := w.dict()
			j := d.hinted(r.key, &r.hint)
			if j < 0 {
				if j = d.findStrKeep(r.key, &r.hint); j < 0 {
					goto slow
				}
			}
			w = &d.vals[j]
		}
		if w.kind != KindStr || !s.concat && w.flags&flagSafe != 0 {
			goto slow
		}
		if r.trim {
			out = append(out, pyStripSpace(w.s)...)
			continue
		}
		if own != nil && r.local && w.flags&flagOwn != 0 {
			own.add(len(out)-c.outBase, len(w.s))
		}
		out = append(out, w.s...)
	}
	if own != nil {
		own.add(len(out)-c.outBase, len(s.tail))
	}
	out = appendPadded(out, s.tail, &s.tpad)
	c.setOut(out)
	if l := c.env.limits.Output; l > 0 && len(out)-c.outBase > l {
		return place(c.checkOutput(), s.name, s.at)
	}
	return nil
slow:
	c.out = out[:start]
	if own != nil {
		own.cut(start - c.outBase)
	}
	if item != nil {
		f.slots[s.target].put(item)
	}
	return s.stream(f)
}

// forItem returns a copy of s whose runs read slot, a loop's target,
// from the item streamRunsItem is given.
func (s *streamedPrint) forItem(slot int) *streamedPrint {
	cp := *s
	cp.runs = slices.Clone(s.runs)
	cp.inItem = true
	for i := range cp.runs {
		r := &cp.runs[i]
		r.item = r.slot == slot
		cp.inItem = cp.inItem && r.item && !r.local && !r.trim
	}
	cp.target = slot
	return &cp
}

// chainPart is one operand of a printed chain.
type chainPart struct {
	streamPart
	lit   bool   // a constant plain str
	run   string // for a lit: its text and that of the lits after it
	runN  int    // for a lit: how many parts run covers
	field bool   // x.name or x['name'] of a local x: slot, key, miss
	local bool   // a name read from slot with no check (slotOf's)
	ref   refFn  // an operand nativeRef reads in place
	trim  refFn  // for x|trim (the builtin, no arguments): x read in place
	// for x|trim of an x that is a field of a local or a local: as
	// field, slot, key and local are for the operand itself
	trimRun fieldRun
	trimOK  bool
	num     intFn // an int intOf reads (for ~)
	// for x.upper() and the other str methods appendStrMethod writes:
	// x read in place, and what writes the method's str
	strRecv refFn
	strFn   func(dst []byte, s string) ([]byte, bool)
	// for x|name(args) of a filter with an append form: what appends
	// its str
	app  *appendFilterSite
	slot int
	key  string
	miss func(f *frame, o *Value) (Value, error)
}

// chainParts compiles the operands of a printed chain.
func (c *compiler) chainParts(xs []Expr) ([]chainPart, error) {
	sp, err := c.streamParts(xs)
	if err != nil {
		return nil, err
	}
	out := make([]chainPart, len(xs))
	for i := range xs {
		out[i].streamPart = sp[i]
		if sp[i].fn == nil {
			out[i].lit = sp[i].k.kind == KindStr && sp[i].k.flags&flagSafe == 0
			continue
		}
		if slot, key, miss, ok := c.fieldOf(xs[i]); ok {
			out[i].field, out[i].slot, out[i].key, out[i].miss = true, slot, key, miss
		} else if slot, ok := c.slotOf(xs[i]); ok {
			out[i].local, out[i].slot = true, slot
		} else if out[i].num = c.intOf(xs[i]); out[i].num != nil {
		} else if x := c.bareTrimOf(xs[i]); x != nil {
			if out[i].trim, err = c.nativeRef(x); err != nil {
				return nil, err
			}
			if slot, key, _, ok := c.fieldOf(x); ok {
				out[i].trimRun, out[i].trimOK = fieldRun{slot: slot, key: key, trim: true}, true
			} else if slot, ok := c.slotOf(x); ok {
				out[i].trimRun, out[i].trimOK = fieldRun{slot: slot, local: true, trim: true}, true
			}
		} else if x, fn := c.strMethodCallOf(xs[i]); fn != nil {
			if out[i].strRecv, err = c.nativeRef(x); err != nil {
				return nil, err
			}
			if out[i].strRecv != nil {
				out[i].strFn = fn
			}
		} else if out[i].app, err = c.appendFilterOf(xs[i]); err != nil {
			return nil, err
		} else if out[i].app == nil {
			if out[i].ref, err = c.nativeRef(xs[i]); err != nil {
				return nil, err
			}
		}
	}
	// a run of constant strs is written at once
	for i := len(out) - 1; i >= 0; i-- {
		if p := &out[i]; p.lit {
			p.run, p.runN = p.k.s, 1
			if i+1 < len(out) && out[i+1].lit {
				p.run, p.runN = p.run+out[i+1].run, 1+out[i+1].runN
			}
		}
	}
	return out, nil
}

// streamedPrint is a compiled {{ a + b + … }} or {{ a ~ b ~ … }}.
type streamedPrint struct {
	parts  []chainPart
	runs   []fieldRun // the chain as fieldRunsOf gives it, or nil
	target int        // the slot of runs marked item (forItem)
	tpad   padded     // tail, padded (appendPadded)
	inItem bool       // every run is a field of target's item (writeItemRuns)
	tail   string
	pos    []Pos // the place of each + (nil for ~)
	concat bool
	name   string
	at     Pos // the print's
	catPos Pos // the ~ chain's
}

// stream writes the chain's operands into the output as they come
// (outside autoescape).
func (s *streamedPrint) stream(f *frame) error {
	c := f.c
	start := len(c.out)
	out := c.out // c.out while no operand is evaluated by a call
	for k := 0; k < len(s.parts); k++ {
		p := &s.parts[k]
		var v Value
		var err error
		switch {
		case p.lit:
			if c.own != nil {
				c.own.add(len(out)-c.outBase, len(p.run))
			}
			out = append(out, p.run...)
			k += p.runN - 1
			continue
		case p.field:
			o := &f.slots[p.slot]
			if o.kind == KindDict {
				d := o.dict()
				if i := d.findStr(p.key); i >= 0 {
					if w := &d.vals[i]; w.kind == KindStr && (s.concat || w.flags&flagSafe == 0) {
						out = append(out, w.s...)
						continue
					}
				}
			}
			c.setOut(out)
			v, err = p.miss(f, o)
		case p.local:
			// the str is written from the slot, not returned by p.fn:
			// a Value returned is copied through a stack temporary the
			// CPU stalls on (see compileSet)
			if w := &f.slots[p.slot]; w.kind == KindStr && (s.concat || w.flags&flagSafe == 0) {
				if c.own != nil && w.flags&flagOwn != 0 {
					c.own.add(len(out)-c.outBase, len(w.s))
				}
				out = append(out, w.s...)
				continue
			}
			c.setOut(out)
			v, err = p.eval(f)
		case p.ref != nil:
			// read where it lies: what p.eval would return
			w, err := p.ref(f)
			if err != nil {
				c.setOut(out)
				c.cutOut(start)
				return err
			}
			if w.kind == KindStr && (s.concat || w.flags&flagSafe == 0) {
				out = append(out, w.s...)
				continue
			}
			c.out, v = out, *w
		case p.trim != nil:
			// x|trim of an x read in place: its stripped str, written
			// without a Value (a Markup stays one, as fTrim's)
			if w, err := p.trim(f); err == nil && w.kind == KindStr && (s.concat || w.flags&flagSafe == 0) {
				out = append(out, pyStripSpace(w.s)...)
				continue
			}
			c.setOut(out)
			v, err = p.eval(f)
		case p.strFn != nil:
			// x.upper() of a plain str x read in place: the method's str
			// written without making it (Markup, a str that is not ASCII
			// or anything else calls the method)
			if w, err := p.strRecv(f); err == nil && w.kind == KindStr && w.flags&flagSafe == 0 {
				if o, ok := p.strFn(out, w.s); ok {
					out = o
					continue
				}
			}
			c.setOut(out)
			v, err = p.eval(f)
		case p.app != nil:
			// x|name(args) of a filter with an append form: its str
			// appended to the output, or its value
			c.setOut(out)
			var ok bool
			if ok, v, err = p.app.appendTo(f); ok && err == nil {
				out = c.out
				continue
			}
		case p.num != nil && s.concat:
			if n, ok := p.num(f); ok {
				out = strconv.AppendInt(out, n, 10)
				continue
			}
			c.setOut(out)
			v, err = p.eval(f)
		default:
			c.setOut(out)
			v, err = p.eval(f)
		}
		out = c.out
		if err != nil {
			c.cutOut(start)
			return err
		}
		switch {
		case v.kind == KindStr && (s.concat || v.flags&flagSafe == 0):
			out = append(out, v.s...)
			continue
		case s.concat && v.kind == KindInt && v.ref == nil:
			out = strconv.AppendInt(out, v.n, 10)
			continue
		case s.concat && v.kind == KindFloat:
			// str() of a float cannot fail
			out, _ = appendRepr(nil, out, v, nil)
			continue
		}
		c.setOut(out)
		return s.finish(f, start, k, v)
	}
	c.setOut(out)
	return place(c.checkOutput(), s.name, s.at)
}

// finish goes on with the chain from its operand k, v, the first that
// stream does not write as it is: what was written from start on is the
// str of the operands before it.
func (s *streamedPrint) finish(f *frame, start, k int, v Value) error {
	c := f.c
	var vals [8]Value
	head := vals[:0]
	if k > 0 {
		head = append(head, StrV(string(c.out[start:])))
	}
	c.cutOut(start)
	if s.concat {
		head = append(head, v)
		for j := k + 1; j < len(s.parts); j++ {
			w, err := s.parts[j].eval(f)
			if err != nil {
				return err
			}
			head = append(head, w)
		}
		return s.writeConcat(f, head, false)
	}
	acc := v
	if k > 0 {
		var err error
		if acc, err = BinOp(c, "+", head[0], v); err != nil {
			return place(err, s.name, s.pos[k-1])
		}
	}
	for j := k + 1; j < len(s.parts); j++ {
		w, err := s.parts[j].eval(f)
		if err != nil {
			return err
		}
		if acc, err = BinOp(c, "+", acc, w); err != nil {
			return place(err, s.name, s.pos[j-1])
		}
	}
	return place(c.writeValue(acc), s.name, s.at)
}

// evalAll evaluates every operand, then writes the chain's value.
func (s *streamedPrint) evalAll(f *frame) error {
	var buf [8]Value
	vals := buf[:0]
	safe := false
	for k := range s.parts {
		v, err := s.parts[k].eval(f)
		if err != nil {
			return err
		}
		if !s.concat && (v.kind != KindStr || v.IsSafe()) {
			return s.finishPlus(f, vals, k, v)
		}
		safe = safe || v.IsSafe()
		vals = append(vals, v)
	}
	if !s.concat {
		// strs all: the joined str, escaped as one
		for _, v := range vals {
			if err := f.c.writeValue(v); err != nil {
				return place(err, s.name, s.at)
			}
		}
		return nil
	}
	return s.writeConcat(f, vals, safe)
}

// finishPlus goes on with a + chain from its operand k, v, the first
// that is not a plain str; strs are the operands before it.
func (s *streamedPrint) finishPlus(f *frame, strs []Value, k int, v Value) error {
	acc := v
	if k > 0 {
		var b strings.Builder
		for _, v := range strs {
			b.WriteString(v.s)
		}
		var err error
		if acc, err = BinOp(f.c, "+", StrV(b.String()), v); err != nil {
			return place(err, s.name, s.pos[k-1])
		}
	}
	for j := k + 1; j < len(s.parts); j++ {
		w, err := s.parts[j].eval(f)
		if err != nil {
			return err
		}
		if acc, err = BinOp(f.c, "+", acc, w); err != nil {
			return place(err, s.name, s.pos[j-1])
		}
	}
	return place(f.c.writeValue(acc), s.name, s.at)
}

// writeConcat writes the operands of a ~ chain, all evaluated: str() of
// each, or under autoescape with a Markup among them, the Markup their
// concatenation makes.
func (s *streamedPrint) writeConcat(f *frame, vals []Value, safe bool) error {
	if safe && f.c.autoescape {
		acc := StrV("")
		var err error
		for _, v := range vals {
			if acc, err = BinOp(f.c, "~", acc, v); err != nil {
				return place(err, s.name, s.catPos)
			}
		}
		return place(f.c.writeValue(acc), s.name, s.at)
	}
	for _, v := range vals {
		if v.kind == KindFloat || v.kind == KindInt && v.ref == nil {
			// str() of these cannot fail: writeValue writes it
			// without a string
			if err := f.c.writeValue(v); err != nil {
				return place(err, s.name, s.at)
			}
			continue
		}
		if v.kind != KindStr {
			str, err := ToStr(f.c, v)
			if err != nil {
				return place(err, s.name, s.catPos)
			}
			v = StrV(str)
		}
		if err := f.c.writeValue(v); err != nil {
			return place(err, s.name, s.at)
		}
	}
	return nil
}

// generationInline reports whether a {% generation %} block's body, which
// Jinja2 runs as a call block's caller() (a macro with no arguments),
// may run in the block's own frame when no spans are recorded: it
// assigns nothing in the caller's frame and reads none of the names a
// macro's frame has of its own (caller, varargs, kwargs), so every name
// it reads is the enclosing frame's, which the closure reads too. Text,
// prints, ifs of those and loops whose bodies hold those or sets (the
// loop's own frame's) qualify; a loop control outside a loop of the
// body, an assignment, a macro, a block, an include or import, a do,
// and any other statement do not.
func generationInline(body []Stmt) bool {
	ok := true
	var stmts func(ss []Stmt, inLoop bool)
	stmts = func(ss []Stmt, inLoop bool) {
		for _, s := range ss {
			switch n := s.(type) {
			case *Text, *Print:
			case *If:
				for _, b := range n.Bodies {
					stmts(b, inLoop)
				}
				stmts(n.Else, inLoop)
			case *For:
				if n.Recursive {
					ok = false
				}
				stmts(n.Body, true)
				stmts(n.Else, false)
			case *Set:
				if !inLoop {
					ok = false
				}
			case *Break, *Continue:
				if !inLoop {
					ok = false
				}
			default:
				ok = false
			}
		}
	}
	stmts(body, false)
	if !ok {
		return false
	}
	return !anyNode(func(x Node) bool {
		n, ok := x.(*Name)
		return ok && (n.Name == "caller" || n.Name == "varargs" || n.Name == "kwargs")
	}, nil, body)
}
