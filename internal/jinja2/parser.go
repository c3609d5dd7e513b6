package jinja2

import (
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// The parser: jinja2/parser.py's Parser over the lexer's tokens, with its
// grammar and its error messages, building the syntax tree.

// maxNesting bounds how deep expressions and statements nest; Python's
// Jinja2 fails with a RecursionError well before it (about 70 nested
// parentheses, 100 nested ifs).
const maxNesting = 256

var statementKeywords = map[string]bool{
	"for": true, "if": true, "block": true, "extends": true, "print": true, "macro": true,
	"include": true, "from": true, "import": true, "set": true, "with": true, "autoescape": true,
}

type parser struct {
	src      *source
	toks     []token
	i        int
	depth    int
	tagStack []string
	// generation: {% generation %} is a tag (GenerationTag).
	generation bool
	// doStatement: {% do %} is a tag (DoStatement).
	doStatement bool
	// loopControls: {% break %} and {% continue %} are tags (LoopControls).
	loopControls bool
	endStack     [][]string
	ext          *extensions // the Env's block tags and call names (ext.go)
	// lexEnd is the index of the tEOF that stands where the source stopped
	// lexing (-1 when it lexed); lexHit is set once the parser advances or
	// looks ahead to it, where Jinja2's token stream raises the lexer's error.
	lexEnd int
	lexHit bool
	// dupParams: a macro or call block names a parameter twice, which
	// Python's compiler refuses once Jinja2 has generated the code
	// (pyCompileErr)
	dupParams bool
}

// parseTree lexes and parses a normalized source with env's settings.
func parseTree(src *source, env *Env) (*Tree, error) {
	toks, lexErr := tokenize(src, env.trimBlocks, env.lstripBlocks)
	p := &parser{src: src, toks: toks, generation: env.generation, doStatement: env.doStatement, loopControls: env.loopControls, ext: &env.ext, lexEnd: -1}
	if lexErr != nil {
		p.lexEnd = len(toks) - 1
		p.lexHit = p.lexEnd == 0
	}
	body, err := p.subparse(nil)
	if lexErr != nil && (err == nil || p.lexHit) {
		return nil, lexErr
	}
	if err != nil {
		return nil, err
	}
	return &Tree{Name: src.name, Body: body, dupParams: p.dupParams}, nil
}

func (p *parser) cur() token { return p.toks[p.i] }

func (p *parser) look() token {
	if p.i+1 == p.lexEnd {
		p.lexHit = true
	}
	if p.i+1 < len(p.toks) {
		return p.toks[p.i+1]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
		if p.i == p.lexEnd {
			p.lexHit = true
		}
	}
	return t
}

func (p *parser) posOf(t token) Pos { return p.src.pos(t.off) }

func (p *parser) at(t token) At { return At{P: p.posOf(t)} }

func (p *parser) failAt(t token, msg string) error {
	pos := p.posOf(t)
	return &Error{Kind: "TemplateSyntaxError", Msg: msg, Name: p.src.name, Line: pos.Line, Col: pos.Col}
}

func (p *parser) fail(msg string) error { return p.failAt(p.cur(), msg) }

// isName reports whether the current token is the name n.
func (p *parser) isName(n string) bool {
	t := p.cur()
	return t.kind == tName && t.val == n
}

func (p *parser) isOp(op string) bool {
	t := p.cur()
	return t.kind == tOp && t.val == op
}

func (p *parser) skipName(n string) bool {
	if p.isName(n) {
		p.next()
		return true
	}
	return false
}

func (p *parser) skipOp(op string) bool {
	if p.isOp(op) {
		p.next()
		return true
	}
	return false
}

func describeToken(t token) string {
	switch t.kind {
	case tName, tOp:
		return t.val
	case tString:
		return "string"
	case tInt:
		return "integer"
	case tFloat:
		return "float"
	case tData:
		return "template data / text"
	case tBlockBegin:
		return "begin of statement block"
	case tBlockEnd:
		return "end of statement block"
	case tVarBegin:
		return "begin of print statement"
	case tVarEnd:
		return "end of print statement"
	}
	return "end of template"
}

// expectFail is TokenStream.expect's error; what describes the expected token.
func (p *parser) expectFail(what string) error {
	t := p.cur()
	if t.kind == tEOF {
		return p.failAt(t, "unexpected end of template, expected "+pyQuote(what)+".")
	}
	return p.failAt(t, "expected token "+pyQuote(what)+", got "+pyQuote(describeToken(t)))
}

func (p *parser) expectOp(op string) (token, error) {
	if !p.isOp(op) {
		return token{}, p.expectFail(op)
	}
	return p.next(), nil
}

func (p *parser) expectKind(k tokKind, what string) (token, error) {
	if p.cur().kind != k {
		return token{}, p.expectFail(what)
	}
	return p.next(), nil
}

func (p *parser) expectName(n string) error {
	if !p.isName(n) {
		return p.expectFail(n)
	}
	p.next()
	return nil
}

func (p *parser) expectBlockEnd() error {
	_, err := p.expectKind(tBlockEnd, "end of statement block")
	return err
}

// pyQuote is Python's repr of a str made of printable characters.
func pyQuote(s string) string {
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(s, "'", `\'`) + "'"
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxNesting {
		return p.nestingError()
	}
	return nil
}

func (p *parser) nestingError() error {
	pos := p.posOf(p.cur())
	return &Error{Kind: "RecursionError", Msg: "maximum recursion depth exceeded: the template nests deeper than " + strconv.Itoa(maxNesting) + " levels", Name: p.src.name, Line: pos.Line, Col: pos.Col}
}

// subparse parses statements and data up to one of the end tags (whose
// name is left as the current token) or the end of the template.
func (p *parser) subparse(ends []string) ([]Stmt, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	if ends != nil {
		p.endStack = append(p.endStack, ends)
		defer func() { p.endStack = p.endStack[:len(p.endStack)-1] }()
	}
	var body []Stmt
	for {
		t := p.cur()
		switch t.kind {
		case tEOF:
			return body, nil
		case tData:
			body = append(body, &Text{At: p.at(t), Text: t.val})
			p.next()
		case tVarBegin:
			p.next()
			x, err := p.parseTuple(tupleOpts{condexpr: true})
			if err != nil {
				return nil, err
			}
			if _, err := p.expectKind(tVarEnd, "end of print statement"); err != nil {
				return nil, err
			}
			body = append(body, &Print{At: p.at(t), X: x})
		case tBlockBegin:
			p.next()
			if ends != nil && p.cur().kind == tName {
				for _, e := range ends {
					if p.cur().val == e {
						return body, nil
					}
				}
			}
			s, err := p.parseStatement()
			if err != nil {
				return nil, err
			}
			if s != nil {
				body = append(body, s)
			}
			if err := p.expectBlockEnd(); err != nil {
				return nil, err
			}
		default:
			return nil, p.failAt(t, "internal parsing error")
		}
	}
}

// parseStatements is Parser.parse_statements: an optional colon, the end
// of the tag, then the body up to one of ends; with drop, the end tag's
// name is consumed.
func (p *parser) parseStatements(ends []string, drop bool) ([]Stmt, error) {
	p.skipOp(":")
	if err := p.expectBlockEnd(); err != nil {
		return nil, err
	}
	body, err := p.subparse(ends)
	if err != nil {
		return nil, err
	}
	if p.cur().kind == tEOF {
		return nil, p.failEOF(ends)
	}
	if drop {
		p.next()
	}
	return body, nil
}

func (p *parser) failEOF(ends []string) error {
	stack := append([][]string{}, p.endStack...)
	if ends != nil {
		stack = append(stack, ends)
	}
	return p.failUnknown("", stack, p.cur())
}

// failUnknown is Parser._fail_ut_eof.
func (p *parser) failUnknown(name string, stack [][]string, at token) error {
	expected := map[string]bool{}
	for _, ends := range stack {
		for _, e := range ends {
			expected[e] = true
		}
	}
	var looking string
	if len(stack) > 0 {
		var q []string
		for _, e := range stack[len(stack)-1] {
			q = append(q, pyQuote(e))
		}
		looking = strings.Join(q, " or ")
	}
	var msg []string
	if name == "" {
		msg = append(msg, "Unexpected end of template.")
	} else {
		msg = append(msg, "Encountered unknown tag "+pyQuote(name)+".")
	}
	if looking != "" {
		if name != "" && expected[name] {
			msg = append(msg, "You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for "+looking+".")
		} else {
			msg = append(msg, "Jinja was looking for the following tags: "+looking+".")
		}
	}
	if len(p.tagStack) > 0 {
		msg = append(msg, "The innermost block that needs to be closed is "+pyQuote(p.tagStack[len(p.tagStack)-1])+".")
	}
	return p.failAt(at, strings.Join(msg, " "))
}

func (p *parser) parseStatement() (Stmt, error) {
	t := p.cur()
	if t.kind != tName {
		return nil, p.failAt(t, "tag name expected")
	}
	known := statementKeywords[t.val] || t.val == "call" || t.val == "filter" || ((t.val == "break" || t.val == "continue") && p.loopControls) || (t.val == "do" && p.doStatement) || (t.val == "generation" && p.generation)
	if s, ok, err := p.parseBlockTag(); !known && ok {
		return s, err
	}
	if !known {
		return nil, p.failUnknown(t.val, p.endStack, t)
	}
	p.tagStack = append(p.tagStack, t.val)
	defer func() { p.tagStack = p.tagStack[:len(p.tagStack)-1] }()
	switch t.val {
	case "for":
		return p.parseFor()
	case "if":
		return p.parseIf()
	case "block":
		return p.parseBlock()
	case "extends":
		p.next()
		x, err := p.parseExpression(true)
		return &Extends{At: p.at(t), Template: x}, err
	case "print":
		return p.parsePrint()
	case "macro":
		return p.parseMacro()
	case "include":
		return p.parseInclude()
	case "from":
		return p.parseFrom()
	case "import":
		return p.parseImport()
	case "set":
		return p.parseSet()
	case "with":
		return p.parseWith()
	case "autoescape":
		p.next()
		x, err := p.parseExpression(true)
		if err != nil {
			return nil, err
		}
		body, err := p.parseStatements([]string{"endautoescape"}, true)
		return &AutoescapeBlock{At: p.at(t), X: x, Body: body}, err
	case "call":
		return p.parseCallBlock()
	case "filter":
		p.next()
		f, err := p.parseFilter(nil, true)
		if err != nil {
			return nil, err
		}
		body, err := p.parseStatements([]string{"endfilter"}, true)
		return &FilterBlock{At: p.at(t), Filter: f, Body: body}, err
	case "break":
		p.next()
		return &Break{At: p.at(t)}, nil
	case "continue":
		p.next()
		return &Continue{At: p.at(t)}, nil
	case "generation":
		p.next()
		body, err := p.parseStatements([]string{"endgeneration"}, true)
		return &Generation{At: p.at(t), Body: body}, err
	case "do":
		p.next()
		x, err := p.parseTuple(tupleOpts{condexpr: true})
		return &Do{At: p.at(t), X: x}, err
	}
	return nil, p.failUnknown(t.val, p.endStack, t)
}

func (p *parser) parseSet() (Stmt, error) {
	t := p.next()
	target, err := p.parseAssignTarget(targetOpts{tuple: true, namespace: true})
	if err != nil {
		return nil, err
	}
	if p.skipOp("=") {
		x, err := p.parseTuple(tupleOpts{condexpr: true})
		if err != nil {
			return nil, err
		}
		return &Set{At: p.at(t), Target: target, Value: x}, nil
	}
	f, err := p.parseFilter(nil, false)
	if err != nil {
		return nil, err
	}
	body, err := p.parseStatements([]string{"endset"}, true)
	if err != nil {
		return nil, err
	}
	return &SetBlock{At: p.at(t), Target: target, Filter: f, Body: body}, nil
}

func (p *parser) parseFor() (Stmt, error) {
	t := p.next()
	target, err := p.parseAssignTarget(targetOpts{tuple: true, extraEnd: []string{"in"}})
	if err != nil {
		return nil, err
	}
	if err := p.expectName("in"); err != nil {
		return nil, err
	}
	iter, err := p.parseTuple(tupleOpts{extraEnd: []string{"recursive"}})
	if err != nil {
		return nil, err
	}
	n := &For{At: p.at(t), Target: target, Iter: iter}
	if p.skipName("if") {
		if n.Filter, err = p.parseExpression(true); err != nil {
			return nil, err
		}
	}
	n.Recursive = p.skipName("recursive")
	if n.Body, err = p.parseStatements([]string{"endfor", "else"}, false); err != nil {
		return nil, err
	}
	if p.next().val != "endfor" {
		if n.Else, err = p.parseStatements([]string{"endfor"}, true); err != nil {
			return nil, err
		}
	}
	return n, nil
}

func (p *parser) parseIf() (Stmt, error) {
	t := p.next()
	n := &If{At: p.at(t)}
	for {
		test, err := p.parseTuple(tupleOpts{})
		if err != nil {
			return nil, err
		}
		body, err := p.parseStatements([]string{"elif", "else", "endif"}, false)
		if err != nil {
			return nil, err
		}
		n.Tests = append(n.Tests, test)
		n.Bodies = append(n.Bodies, body)
		end := p.next()
		if end.val == "elif" {
			continue
		}
		if end.val == "else" {
			if n.Else, err = p.parseStatements([]string{"endif"}, true); err != nil {
				return nil, err
			}
		}
		return n, nil
	}
}

func (p *parser) parseWith() (Stmt, error) {
	t := p.next()
	n := &With{At: p.at(t)}
	for p.cur().kind != tBlockEnd {
		if len(n.Targets) > 0 {
			if _, err := p.expectOp(","); err != nil {
				return nil, err
			}
		}
		target, err := p.parseAssignTarget(targetOpts{tuple: true})
		if err != nil {
			return nil, err
		}
		if _, err := p.expectOp("="); err != nil {
			return nil, err
		}
		v, err := p.parseExpression(true)
		if err != nil {
			return nil, err
		}
		n.Targets = append(n.Targets, target)
		n.Values = append(n.Values, v)
	}
	var err error
	n.Body, err = p.parseStatements([]string{"endwith"}, true)
	return n, err
}

func (p *parser) parseBlock() (Stmt, error) {
	t := p.next()
	name, err := p.expectKind(tName, "name")
	if err != nil {
		return nil, err
	}
	n := &Block{At: p.at(t), Name: name.val}
	n.Scoped = p.skipName("scoped")
	n.Required = p.skipName("required")
	if p.isOp("-") {
		return nil, p.fail("Block names in Jinja have to be valid Python identifiers and may not contain hyphens, use an underscore instead.")
	}
	if n.Body, err = p.parseStatements([]string{"endblock"}, true); err != nil {
		return nil, err
	}
	if n.Required {
		for _, s := range n.Body {
			if tx, ok := s.(*Text); !ok || strings.TrimFunc(tx.Text, isPySpace) != "" {
				return nil, p.fail("Required blocks can only contain comments or whitespace")
			}
		}
	}
	p.skipName(n.Name)
	return n, nil
}

// parseContext parses an optional "with context" / "without context".
func (p *parser) parseContext(def bool) bool {
	if (p.isName("with") || p.isName("without")) && p.look().kind == tName && p.look().val == "context" {
		with := p.next().val == "with"
		p.next()
		return with
	}
	return def
}

func (p *parser) parseInclude() (Stmt, error) {
	t := p.next()
	x, err := p.parseExpression(true)
	if err != nil {
		return nil, err
	}
	n := &Include{At: p.at(t), Template: x}
	if p.isName("ignore") && p.look().kind == tName && p.look().val == "missing" {
		n.IgnoreMissing = true
		p.next()
		p.next()
	}
	n.WithContext = p.parseContext(true)
	return n, nil
}

func (p *parser) parseImport() (Stmt, error) {
	t := p.next()
	x, err := p.parseExpression(true)
	if err != nil {
		return nil, err
	}
	if err := p.expectName("as"); err != nil {
		return nil, err
	}
	name, err := p.expectKind(tName, "name")
	if err != nil {
		return nil, err
	}
	n := &Import{At: p.at(t), Template: x, Target: name.val}
	n.WithContext = p.parseContext(false)
	return n, nil
}

func (p *parser) parseFrom() (Stmt, error) {
	t := p.next()
	x, err := p.parseExpression(true)
	if err != nil {
		return nil, err
	}
	if err := p.expectName("import"); err != nil {
		return nil, err
	}
	n := &FromImport{At: p.at(t), Template: x}
	ctxSet := false
	parseCtx := func() bool {
		if (p.isName("with") || p.isName("without")) && p.look().kind == tName && p.look().val == "context" {
			n.WithContext = p.next().val == "with"
			p.next()
			ctxSet = true
			return true
		}
		return false
	}
	for {
		if len(n.Names) > 0 {
			if _, err := p.expectOp(","); err != nil {
				return nil, err
			}
		}
		if p.cur().kind != tName {
			if _, err := p.expectKind(tName, "name"); err != nil {
				return nil, err
			}
		}
		if parseCtx() {
			break
		}
		nt := p.next()
		if strings.HasPrefix(nt.val, "_") {
			pos := p.posOf(nt)
			return nil, &Error{Kind: "TemplateAssertionError", Msg: "names starting with an underline can not be imported", Name: p.src.name, Line: pos.Line, Col: pos.Col}
		}
		in := ImportName{At: p.at(nt), Name: nt.val, Alias: nt.val}
		if p.skipName("as") {
			a, err := p.expectKind(tName, "name")
			if err != nil {
				return nil, err
			}
			in.Alias = a.val
		}
		n.Names = append(n.Names, in)
		if parseCtx() || !p.isOp(",") {
			break
		}
	}
	_ = ctxSet
	return n, nil
}

func (p *parser) parseSignature() ([]Param, error) {
	if _, err := p.expectOp("("); err != nil {
		return nil, err
	}
	var params []Param
	hasDefault := false
	for !p.isOp(")") {
		if len(params) > 0 {
			if _, err := p.expectOp(","); err != nil {
				return nil, err
			}
		}
		nt, err := p.expectKind(tName, "name")
		if err != nil {
			return nil, err
		}
		pm := Param{At: p.at(nt), Name: nt.val}
		for _, q := range params {
			p.dupParams = p.dupParams || q.Name == pm.Name
		}
		if p.skipOp("=") {
			if pm.Default, err = p.parseExpression(true); err != nil {
				return nil, err
			}
			hasDefault = true
		} else if hasDefault {
			return nil, p.fail("non-default argument follows default argument")
		}
		params = append(params, pm)
	}
	p.next()
	return params, nil
}

func (p *parser) parseMacro() (Stmt, error) {
	t := p.next()
	name, err := p.expectKind(tName, "name")
	if err != nil {
		return nil, err
	}
	n := &Macro{At: p.at(t), Name: name.val}
	if n.Params, err = p.parseSignature(); err != nil {
		return nil, err
	}
	n.Body, err = p.parseStatements([]string{"endmacro"}, true)
	return n, err
}

func (p *parser) parseCallBlock() (Stmt, error) {
	t := p.next()
	n := &CallBlock{At: p.at(t)}
	var err error
	if p.isOp("(") {
		if n.Params, err = p.parseSignature(); err != nil {
			return nil, err
		}
	}
	x, err := p.parseExpression(true)
	if err != nil {
		return nil, err
	}
	call, ok := x.(*CallExpr)
	if !ok {
		return nil, p.failAt(t, "expected call")
	}
	n.Call = call
	n.Body, err = p.parseStatements([]string{"endcall"}, true)
	return n, err
}

func (p *parser) parsePrint() (Stmt, error) {
	t := p.next()
	var items []Expr
	for p.cur().kind != tBlockEnd {
		if len(items) > 0 {
			if _, err := p.expectOp(","); err != nil {
				return nil, err
			}
		}
		x, err := p.parseExpression(true)
		if err != nil {
			return nil, err
		}
		items = append(items, x)
	}
	if len(items) == 1 {
		return &Print{At: p.at(t), X: items[0]}, nil
	}
	// {% print a, b %} prints each in turn.
	return &Print{At: p.at(t), X: &Concat{At: p.at(t), Items: items}}, nil
}

type targetOpts struct {
	tuple, nameOnly, namespace bool
	extraEnd                   []string
}

func (p *parser) parseAssignTarget(o targetOpts) (Expr, error) {
	var target Expr
	var err error
	start := p.cur()
	if o.nameOnly {
		t, err := p.expectKind(tName, "name")
		if err != nil {
			return nil, err
		}
		return &Name{At: p.at(t), Name: t.val}, nil
	}
	if o.tuple {
		target, err = p.parseTuple(tupleOpts{simplified: true, extraEnd: o.extraEnd, namespace: o.namespace})
	} else {
		target, err = p.parsePrimary(o.namespace)
	}
	if err != nil {
		return nil, err
	}
	if what := cannotAssign(target); what != "" {
		return nil, p.failAt(start, "can't assign to "+pyQuote(what))
	}
	return target, nil
}

// cannotAssign names the node type of a target that cannot be assigned.
func cannotAssign(x Expr) string {
	switch n := x.(type) {
	case *Name:
		switch n.Name {
		case "true", "false", "none", "True", "False", "None":
			return "name"
		}
		return ""
	case *NSRef:
		return ""
	case *TupleLit:
		for _, it := range n.Items {
			if w := cannotAssign(it); w != "" {
				return "tuple"
			}
		}
		return ""
	case *Const:
		return "const"
	case *ListLit:
		return "list"
	case *DictLit:
		return "dict"
	}
	return "expr"
}

type tupleOpts struct {
	simplified, condexpr, explicitParens, namespace bool
	extraEnd                                        []string
}

func (p *parser) isTupleEnd(extra []string) bool {
	t := p.cur()
	if t.kind == tVarEnd || t.kind == tBlockEnd || (t.kind == tOp && t.val == ")") {
		return true
	}
	if t.kind == tName {
		for _, e := range extra {
			if t.val == e {
				return true
			}
		}
	}
	return false
}

func (p *parser) parseTuple(o tupleOpts) (Expr, error) {
	start := p.cur()
	var items []Expr
	isTuple := false
	for {
		if len(items) > 0 {
			if _, err := p.expectOp(","); err != nil {
				return nil, err
			}
		}
		if p.isTupleEnd(o.extraEnd) {
			break
		}
		var x Expr
		var err error
		if o.simplified {
			x, err = p.parsePrimary(o.namespace)
		} else {
			x, err = p.parseExpression(o.condexpr)
		}
		if err != nil {
			return nil, err
		}
		items = append(items, x)
		if p.isOp(",") {
			isTuple = true
		} else {
			break
		}
	}
	if !isTuple {
		if len(items) > 0 {
			return items[0], nil
		}
		if !o.explicitParens {
			return nil, p.fail("Expected an expression, got " + pyQuote(describeToken(p.cur())))
		}
	}
	return &TupleLit{At: p.at(start), Items: items}, nil
}

func (p *parser) parseExpression(condexpr bool) (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	var x Expr
	var err error
	if condexpr {
		x, err = p.parseCondExpr()
	} else {
		x, err = p.parseOr()
	}
	if err == nil {
		err = p.checkChain(x)
	}
	return x, err
}

func (p *parser) parseCondExpr() (Expr, error) {
	start := p.cur()
	x, err := p.parseOr()
	if err != nil {
		return nil, err
	}
	for p.skipName("if") {
		test, err := p.parseOr()
		if err != nil {
			return nil, err
		}
		var els Expr
		if p.skipName("else") {
			if err := p.enter(); err != nil {
				return nil, err
			}
			els, err = p.parseCondExpr()
			p.depth--
			if err != nil {
				return nil, err
			}
		}
		x = &CondExpr{At: p.at(start), Test: test, Then: x, Else: els}
		start = p.cur()
	}
	return x, nil
}

func (p *parser) parseOr() (Expr, error) { return p.parseLeftAssoc(p.parseAnd, tName, "or") }

func (p *parser) parseAnd() (Expr, error) { return p.parseLeftAssoc(p.parseNot, tName, "and") }

func (p *parser) parseNot() (Expr, error) {
	if p.isName("not") {
		t := p.next()
		if err := p.enter(); err != nil {
			return nil, err
		}
		x, err := p.parseNot()
		p.depth--
		if err != nil {
			return nil, err
		}
		return &UnaryExpr{At: p.at(t), Op: "not", X: x}, nil
	}
	return p.parseCompare()
}

var compareOps = map[string]bool{"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true}

func (p *parser) parseCompare() (Expr, error) {
	start := p.cur()
	x, err := p.parseMath1()
	if err != nil {
		return nil, err
	}
	var ops []string
	var rights []Expr
	for {
		t := p.cur()
		var op string
		switch {
		case t.kind == tOp && compareOps[t.val]:
			p.next()
			op = t.val
		case p.isName("in"):
			p.next()
			op = "in"
		case p.isName("not") && p.look().kind == tName && p.look().val == "in":
			p.next()
			p.next()
			op = "notin"
		}
		if op == "" {
			break
		}
		y, err := p.parseMath1()
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
		rights = append(rights, y)
	}
	if len(ops) == 0 {
		return x, nil
	}
	return &CompareExpr{At: p.at(start), Left: x, Ops: ops, Rights: rights}, nil
}

func (p *parser) parseMath1() (Expr, error) {
	return p.parseLeftAssoc(p.parseConcat, tOp, "+", "-")
}

func (p *parser) parseConcat() (Expr, error) {
	start := p.cur()
	x, err := p.parseMath2()
	if err != nil {
		return nil, err
	}
	if !p.isOp("~") {
		return x, nil
	}
	items := []Expr{x}
	for p.skipOp("~") {
		y, err := p.parseMath2()
		if err != nil {
			return nil, err
		}
		items = append(items, y)
	}
	return &Concat{At: p.at(start), Items: items}, nil
}

func (p *parser) parseMath2() (Expr, error) {
	return p.parseLeftAssoc(p.parsePow, tOp, "*", "/", "//", "%")
}

func (p *parser) parsePow() (Expr, error) {
	return p.parseLeftAssoc(func() (Expr, error) { return p.parseUnary(true) }, tOp, "**")
}

// parseLeftAssoc parses operand (op operand)…, op one of ops (names when
// kind is tName, operators when tOp), into left-associative BinExprs: the
// loop of Jinja2's parse_or, parse_and, parse_math1, parse_math2 and
// parse_pow.
func (p *parser) parseLeftAssoc(operand func() (Expr, error), kind tokKind, ops ...string) (Expr, error) {
	start := p.cur()
	x, err := operand()
	if err != nil {
		return nil, err
	}
	for {
		t := p.cur()
		if t.kind != kind || !slices.Contains(ops, t.val) {
			return x, nil
		}
		p.next()
		y, err := operand()
		if err != nil {
			return nil, err
		}
		x = &BinExpr{At: p.at(start), Op: t.val, Left: x, Right: y}
		start = p.cur()
	}
}

func (p *parser) parseUnary(withFilter bool) (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	t := p.cur()
	var x Expr
	var err error
	if p.isOp("-") || p.isOp("+") {
		p.next()
		y, err := p.parseUnary(false)
		if err != nil {
			return nil, err
		}
		x = &UnaryExpr{At: p.at(t), Op: t.val, X: y}
	} else if x, err = p.parsePrimary(false); err != nil {
		return nil, err
	}
	if x, err = p.parsePostfix(x, false); err != nil {
		return nil, err
	}
	if withFilter {
		return p.parsePostfix(x, true)
	}
	return x, nil
}

func (p *parser) parsePrimary(namespace bool) (Expr, error) {
	t := p.cur()
	switch t.kind {
	case tName:
		p.next()
		switch t.val {
		case "true", "True":
			return &Const{At: p.at(t), Value: BoolV(true)}, nil
		case "false", "False":
			return &Const{At: p.at(t), Value: BoolV(false)}, nil
		case "none", "None":
			return &Const{At: p.at(t), Value: NoneV()}, nil
		}
		if namespace && p.isOp(".") {
			p.next()
			attr, err := p.expectKind(tName, "name")
			if err != nil {
				return nil, err
			}
			return &NSRef{At: p.at(t), Name: t.val, Attr: attr.val}, nil
		}
		return &Name{At: p.at(t), Name: t.val}, nil
	case tString:
		p.next()
		s := t.val
		if p.cur().kind == tString {
			var b strings.Builder
			b.WriteString(s)
			for p.cur().kind == tString {
				b.WriteString(p.next().val)
			}
			s = b.String()
		}
		return &Const{At: p.at(t), Value: StrV(Intern(s))}, nil
	case tInt:
		p.next()
		return &Const{At: p.at(t), Value: parseIntLit(t.val)}, nil
	case tFloat:
		p.next()
		f, _ := strconv.ParseFloat(t.val, 64) // out of range is ±inf, as literal_eval
		return &Const{At: p.at(t), Value: FloatV(f)}, nil
	case tOp:
		switch t.val {
		case "(":
			p.next()
			x, err := p.parseTuple(tupleOpts{condexpr: true, explicitParens: true})
			if err != nil {
				return nil, err
			}
			if _, err := p.expectOp(")"); err != nil {
				return nil, err
			}
			return x, nil
		case "[":
			return p.parseList()
		case "{":
			return p.parseDict()
		}
	}
	return nil, p.failAt(t, "unexpected "+pyQuote(describeToken(t)))
}

// parseIntLit converts an integer literal (underscores removed).
func parseIntLit(s string) Value {
	base := 10
	if len(s) > 2 && s[0] == '0' {
		switch s[1] | 0x20 {
		case 'b':
			base = 2
		case 'o':
			base = 8
		case 'x':
			base = 16
		}
		if base != 10 {
			s = s[2:]
		}
	}
	if n, err := strconv.ParseInt(s, base, 64); err == nil {
		return IntV(n)
	}
	b, _ := new(big.Int).SetString(s, base)
	return BigIntV(b)
}

func (p *parser) parseList() (Expr, error) {
	n := &ListLit{At: p.at(p.next())}
	err := p.parseCommaSeq("]", func() error {
		x, err := p.parseExpression(true)
		n.Items = append(n.Items, x)
		return err
	})
	if err != nil {
		return nil, err
	}
	return n, nil
}

func (p *parser) parseDict() (Expr, error) {
	n := &DictLit{At: p.at(p.next())}
	err := p.parseCommaSeq("}", func() error {
		k, err := p.parseExpression(true)
		if err != nil {
			return err
		}
		if _, err := p.expectOp(":"); err != nil {
			return err
		}
		v, err := p.parseExpression(true)
		n.Keys = append(n.Keys, k)
		n.Values = append(n.Values, v)
		return err
	})
	if err != nil {
		return nil, err
	}
	return n, nil
}

// parseCommaSeq parses the items of a list or dict literal up to the
// operator end, which it consumes: item parses one, and items stand
// between commas, with a comma allowed after the last.
func (p *parser) parseCommaSeq(end string, item func() error) error {
	for i := 0; !p.isOp(end); i++ {
		if i > 0 {
			if _, err := p.expectOp(","); err != nil {
				return err
			}
			if p.isOp(end) {
				break
			}
		}
		if err := item(); err != nil {
			return err
		}
	}
	p.next()
	return nil
}

// parsePostfix parses the operators after x, as Jinja2's parse_postfix
// does (subscripts and calls) or, with filters, as its parse_filter_expr
// does (filters, tests and calls), until the next token is none of them.
func (p *parser) parsePostfix(x Expr, filters bool) (Expr, error) {
	for {
		var err error
		switch {
		case !filters && (p.isOp(".") || p.isOp("[")):
			x, err = p.parseSubscript(x)
		case filters && p.isOp("|"):
			x, err = p.parseFilter(x, false)
		case filters && p.isName("is"):
			x, err = p.parseTest(x)
		case p.isOp("("):
			x, err = p.parseCall(x)
		default:
			return x, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func (p *parser) parseSubscript(x Expr) (Expr, error) {
	t := p.next()
	if t.val == "." {
		at := p.cur()
		p.next()
		if at.kind == tName {
			return &AttrExpr{At: p.at(t), X: x, Name: Intern(at.val), NameP: p.posOf(at)}, nil
		}
		if at.kind != tInt {
			return nil, p.failAt(at, "expected name or number")
		}
		return &ItemExpr{At: p.at(t), X: x, Key: &Const{At: p.at(at), Value: parseIntLit(at.val)}}, nil
	}
	var args []Expr
	for !p.isOp("]") {
		if len(args) > 0 {
			if _, err := p.expectOp(","); err != nil {
				return nil, err
			}
		}
		a, err := p.parseSubscribed()
		if err != nil {
			return nil, err
		}
		args = append(args, a)
	}
	p.next()
	if len(args) == 1 {
		return &ItemExpr{At: p.at(t), X: x, Key: args[0]}, nil
	}
	return &ItemExpr{At: p.at(t), X: x, Key: &TupleLit{At: p.at(t), Items: args}}, nil
}

func (p *parser) parseSubscribed() (Expr, error) {
	start := p.cur()
	var parts [3]Expr
	if p.isOp(":") {
		p.next()
	} else {
		x, err := p.parseExpression(true)
		if err != nil {
			return nil, err
		}
		if !p.isOp(":") {
			return x, nil
		}
		p.next()
		parts[0] = x
	}
	var err error
	if !p.isOp(":") && !p.isOp("]") && !p.isOp(",") {
		if parts[1], err = p.parseExpression(true); err != nil {
			return nil, err
		}
	}
	if p.skipOp(":") {
		if !p.isOp("]") && !p.isOp(",") {
			if parts[2], err = p.parseExpression(true); err != nil {
				return nil, err
			}
		}
	}
	return &SliceExpr{At: p.at(start), Start: parts[0], Stop: parts[1], Step: parts[2]}, nil
}

func (p *parser) parseCallArgs() (CallArgs, error) {
	var a CallArgs
	lp, err := p.expectOp("(")
	if err != nil {
		return a, err
	}
	bad := func() error { return p.failAt(lp, "invalid syntax for function call expression") }
	requireComma := false
	for !p.isOp(")") {
		if requireComma {
			if _, err := p.expectOp(","); err != nil {
				return a, err
			}
			if p.isOp(")") {
				break
			}
		}
		switch {
		case p.isOp("*"):
			if a.DynArgs != nil || a.DynKwargs != nil {
				return a, bad()
			}
			p.next()
			if a.DynArgs, err = p.parseExpression(true); err != nil {
				return a, err
			}
		case p.isOp("**"):
			if a.DynKwargs != nil {
				return a, bad()
			}
			p.next()
			if a.DynKwargs, err = p.parseExpression(true); err != nil {
				return a, err
			}
		case p.cur().kind == tName && p.look().kind == tOp && p.look().val == "=":
			if a.DynKwargs != nil {
				return a, bad()
			}
			key := p.next().val
			p.next()
			v, err := p.parseExpression(true)
			if err != nil {
				return a, err
			}
			a.Kwargs = append(a.Kwargs, KwargExpr{Name: key, Value: v})
		default:
			if a.DynArgs != nil || a.DynKwargs != nil || len(a.Kwargs) > 0 {
				return a, bad()
			}
			v, err := p.parseExpression(true)
			if err != nil {
				return a, err
			}
			a.Args = append(a.Args, v)
		}
		requireComma = true
	}
	p.next()
	return a, nil
}

func (p *parser) parseCall(x Expr) (Expr, error) {
	t := p.cur()
	args, err := p.parseCallArgs()
	if err != nil {
		return nil, err
	}
	return &CallExpr{At: p.at(t), Fn: p.calledName(x), Args: args}, nil
}

// parseFilter parses |f(args)|g… after x; with inline, the first filter
// has no pipe (a filter block).
func (p *parser) parseFilter(x Expr, inline bool) (Expr, error) {
	for p.isOp("|") || inline {
		if !inline {
			p.next()
		}
		inline = false
		t := p.cur()
		name, err := p.parseDottedName()
		if err != nil {
			return nil, err
		}
		var args CallArgs
		if p.isOp("(") {
			if args, err = p.parseCallArgs(); err != nil {
				return nil, err
			}
		}
		x = &FilterExpr{At: p.at(t), X: x, Name: name, Args: args}
	}
	return x, nil
}

// parseDottedName parses a filter's or a test's name: name(.name)….
func (p *parser) parseDottedName() (string, error) {
	t, err := p.expectKind(tName, "name")
	if err != nil {
		return "", err
	}
	name := t.val
	for p.skipOp(".") {
		n, err := p.expectKind(tName, "name")
		if err != nil {
			return "", err
		}
		name += "." + n.val
	}
	return name, nil
}

func (p *parser) parseTest(x Expr) (Expr, error) {
	t := p.next()
	negated := p.skipName("not")
	name, err := p.parseDottedName()
	if err != nil {
		return nil, err
	}
	var args CallArgs
	c := p.cur()
	switch {
	case p.isOp("("):
		if args, err = p.parseCallArgs(); err != nil {
			return nil, err
		}
	case (c.kind == tName || c.kind == tString || c.kind == tInt || c.kind == tFloat ||
		(c.kind == tOp && (c.val == "(" || c.val == "[" || c.val == "{"))) &&
		!p.isName("else") && !p.isName("or") && !p.isName("and"):
		if p.isName("is") {
			return nil, p.fail("You cannot chain multiple tests with is")
		}
		a, err := p.parsePrimary(false)
		if err != nil {
			return nil, err
		}
		if a, err = p.parsePostfix(a, false); err != nil {
			return nil, err
		}
		args.Args = []Expr{a}
	}
	var n Expr = &TestExpr{At: p.at(t), X: x, Name: name, Args: args}
	if negated {
		n = &UnaryExpr{At: p.at(t), Op: "not", X: n}
	}
	return n, nil
}
