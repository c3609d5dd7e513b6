package jinja2

// Extensions an embedding engine declares on an Env: block tags that are
// not Jinja2's, names whose call is always a given function, and a
// finalize function for printed values. Python's Jinja2 has the same
// hooks (Extension.tags parsed into a CallBlock, Environment.finalize);
// chat templates use none of them.

// extensions are an Env's declared extensions; the zero value has none.
type extensions struct {
	blockTags map[string]*Func // {% name args %}body{% endname %}
	callNames map[string]*Func // name(args): this function, whatever the data holds
	finalize  func(Value) Value
	// finalizeFirst: a constant {{ }} is finalized before it is escaped,
	// as a value computed at render time is (FinalizeBeforeEscape)
	finalizeFirst bool
}

// WithBlockTag declares the block tag {% name args %}body{% endname %}.
// It compiles to Jinja2's call block {% call fn(args) %}body{% endcall %}:
// fn is called with the tag's arguments and the keyword argument caller,
// a macro that renders the body. The arguments are written as in a call
// without the parentheses, separated by commas or spaces:
// {% message "user" name=who %}. A tag named like one of Jinja2's is
// ignored.
func WithBlockTag(name string, fn *Func) Option {
	return func(e *Env) {
		if statementKeywords[name] || fn == nil {
			return
		}
		switch name {
		case "call", "filter", "break", "continue", "do", "raw", "endraw":
			return
		}
		if e.ext.blockTags == nil {
			e.ext.blockTags = map[string]*Func{}
		}
		e.ext.blockTags[name] = fn
	}
}

// WithCallName makes a call of the bare name, name(args), call fn, whatever
// the data, the template's assignments or the globals hold under that
// name; the name read without a call, {{ name }}, stays an ordinary
// variable. The jinja engine uses it for its markup functions, so that
// {{ role("user") }} is the marker and {{ role }} a variable of the data.
func WithCallName(name string, fn *Func) Option {
	return func(e *Env) {
		if fn == nil {
			return
		}
		if e.ext.callNames == nil {
			e.ext.callNames = map[string]*Func{}
		}
		e.ext.callNames[name] = fn
	}
}

// WithFinalize sets Jinja2's finalize: every value a {{ }} prints goes
// through fn first (a macro's or a block tag's output too, when printed by
// {{ }}), and is then escaped under autoescape. A constant expression,
// which Jinja2 evaluates at compile time ({{ none }}, {{ 1 }},
// {{ 'a'|upper }}), is escaped first under autoescape and then finalized,
// as Jinja2's compiler does: fn sees Markup('None') for {{ none }}, and
// what it returns is written unescaped.
func WithFinalize(fn func(Value) Value) Option {
	return func(e *Env) { e.ext.finalize = fn }
}

// FinalizeBeforeEscape makes a constant {{ }} go through the finalize
// function before it is escaped, as every other printed value does,
// instead of after as Jinja2's compiler folds it. For an embedding whose
// finalize must see the value ({{ none }} printing as nothing).
func FinalizeBeforeEscape() Option {
	return func(e *Env) { e.ext.finalizeFirst = true }
}

// calledName returns the node of a call's callee: a Const holding the
// declared function when x is a bare name declared with WithCallName.
func (p *parser) calledName(x Expr) Expr {
	if n, ok := x.(*Name); ok && p.ext != nil {
		if fn := p.ext.callNames[n.Name]; fn != nil {
			return &Const{At: n.At, Value: FuncV(fn)}
		}
	}
	return x
}

// parseBlockTag parses a tag declared with WithBlockTag, at its name, into
// a CallBlock; ok is false when the current tag is not one.
func (p *parser) parseBlockTag() (s Stmt, ok bool, err error) {
	t := p.cur()
	if p.ext == nil || t.kind != tName {
		return nil, false, nil
	}
	fn := p.ext.blockTags[t.val]
	if fn == nil {
		return nil, false, nil
	}
	p.tagStack = append(p.tagStack, t.val)
	defer func() { p.tagStack = p.tagStack[:len(p.tagStack)-1] }()
	p.next()
	var args CallArgs
	for p.cur().kind != tBlockEnd && p.cur().kind != tEOF {
		if len(args.Args)+len(args.Kwargs) > 0 {
			p.skipOp(",")
		}
		if p.cur().kind == tName && p.look().kind == tOp && p.look().val == "=" {
			key := p.next().val
			p.next()
			v, err := p.parseExpression(true)
			if err != nil {
				return nil, true, err
			}
			args.Kwargs = append(args.Kwargs, KwargExpr{Name: key, Value: v})
			continue
		}
		if len(args.Kwargs) > 0 {
			return nil, true, p.fail("positional argument follows keyword argument")
		}
		v, err := p.parseExpression(true)
		if err != nil {
			return nil, true, err
		}
		args.Args = append(args.Args, v)
	}
	at := p.at(t)
	body, err := p.parseStatements([]string{"end" + t.val}, true)
	if err != nil {
		return nil, true, err
	}
	return &CallBlock{At: at, Call: &CallExpr{At: at, Fn: &Const{At: at, Value: FuncV(fn)}, Args: args}, Body: body}, true, nil
}

// Load returns the template the Env's loader gives for name, compiled, as
// include, import and extends load it: once, then from the Env's cache.
// An embedding engine calls it to read the partials a template names
// before any render.
func (e *Env) Load(name string) (*Template, error) { return e.load(name) }

// BuiltinFilter returns Jinja2's own filter called name, or nil: for an
// Env that replaces a filter with WithFilter and calls the original.
func BuiltinFilter(name string) Filter { return builtinFilters()[name] }

// StrDict returns the dict whose str keys are kv[:n] and whose values
// are kv[n:], n = len(kv)/2, in that order, using kv as its memory: for an
// engine that converts its callers' data at every render. The keys must
// be distinct strs; the dict appends past kv only when it grows.
func StrDict(kv []Value) *Dict {
	n := len(kv) / 2
	return &Dict{keys: kv[:n:n], vals: kv[n : 2*n : 2*n]}
}
