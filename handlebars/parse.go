package handlebars

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aymerick/raymond/ast"
	"github.com/aymerick/raymond/lexer"
)

// This file is a recogniser for raymond's grammar that follows
// github.com/aymerick/raymond/parser rule for rule, but reads a token slice
// that was collected by draining raymond's lexer to its end.
//
// Why: raymond.Parse runs its lexer in a goroutine that sends tokens on an
// unbuffered channel; when the parser stops early on a syntax error, that
// goroutine blocks forever, so every failed raymond.Parse leaks one goroutine
// (and the source it holds). lexer.Collect reads tokens until EOF or the
// first lexer error, after which the lexer goroutine returns, so collecting
// never leaks. A template reaches raymond.Parse only after this recogniser
// accepted it, and raymond's parser then accepts it too (the grammars are the
// same), so its lexer runs to EOF and exits.
//
// The tree built here has the same shape and positions as raymond's (minus
// whitespace-control stripping, which only changes content text); the checks
// in check.go walk it.

// syntaxError is a template syntax error at a byte offset of the source.
type syntaxError struct {
	pos  int
	line int
	msg  string
}

func (e *syntaxError) Error() string { return e.msg }

// isOpenAmp reports whether an opening token is that of {{&x}}, the second
// raw form (raymond's parser matches ^\{\{~?&).
func isOpenAmp(open string) bool {
	s := strings.TrimPrefix(open, "{{")
	s = strings.TrimPrefix(s, "~")
	return len(s) < len(open) && strings.HasPrefix(s, "&")
}

// maxDepth bounds the nesting of blocks and subexpressions. Both parsers
// and raymond's evaluator recurse once per level; a bound keeps a hostile
// or generated template from growing the stack without limit.
const maxDepth = 256

type tokParser struct {
	src   string
	toks  []lexer.Token
	i     int
	depth int
	ends  map[*ast.MustacheStatement]int
	spans map[*ast.BlockStatement]blockSpan
}

// blockSpan locates a block's open and close tags in the source, recorded
// for blocks whose tags use no whitespace control (~).
type blockSpan struct{ openStart, openEnd, closeStart, closeEnd int }

func (p *tokParser) enter(t *lexer.Token) {
	p.depth++
	if p.depth > maxDepth {
		p.fail(t, "blocks and subexpressions are nested more than %d deep", maxDepth)
	}
}

func (p *tokParser) leave() { p.depth-- }

// parseTemplate parses src into raymond's AST without leaking a goroutine.
func parseTemplate(src string) (prog *ast.Program, ends map[*ast.MustacheStatement]int, spans map[*ast.BlockStatement]blockSpan, err error) {
	toks := lexer.Collect(src)
	p := &tokParser{src: src, toks: toks, ends: map[*ast.MustacheStatement]int{}, spans: map[*ast.BlockStatement]blockSpan{}}
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(*syntaxError)
			if !ok {
				panic(r)
			}
			prog, ends, spans, err = nil, nil, nil, se
		}
	}()
	prog = p.program()
	if t := p.shift(); t.Kind != lexer.TokenEOF {
		p.fail(t, "syntax error: unexpected %s", describe(t))
	}
	return prog, p.ends, p.spans, nil
}

func describe(t *lexer.Token) string {
	switch t.Kind {
	case lexer.TokenEOF:
		return "end of template"
	case lexer.TokenContent:
		return "text"
	}
	return strconv.Quote(t.Val)
}

func (p *tokParser) fail(t *lexer.Token, format string, args ...any) {
	panic(&syntaxError{pos: t.Pos, line: t.Line, msg: fmt.Sprintf(format, args...)})
}

// peekAt returns the token n places ahead, or nil past the end.
func (p *tokParser) peekAt(n int) *lexer.Token {
	if p.i+n < len(p.toks) {
		return &p.toks[p.i+n]
	}
	return nil
}

func (p *tokParser) peek() *lexer.Token {
	t := p.peekAt(0)
	if t == nil {
		// Collect always ends with EOF or an error token, and the grammar
		// never reads past either; this is a defensive stop.
		last := p.toks[len(p.toks)-1]
		panic(&syntaxError{pos: last.Pos, line: last.Line, msg: "unexpected end of template"})
	}
	if t.Kind == lexer.TokenError {
		switch {
		case t.Val == "Unterminated string" && t.Pos > 0:
			// raymond's lexer has skipped the opening quote (one byte)
			// when it finds no closing one: the string starts there.
			e := *t
			e.Pos--
			t = &e
		case t.Val == "Unclosed expression" || t.Val == "Unclosed raw block":
			// found at the end of the text: the mustache that is never
			// closed opens at the last {{ before it, as an unclosed
			// comment is placed
			if open := strings.LastIndex(p.src[:min(t.Pos, len(p.src))], "{{"); open >= 0 {
				e := *t
				e.Pos = open
				if t.Val == "Unclosed raw block" {
					e.Pos = strings.LastIndex(p.src[:open+2], "{{{{")
				}
				t = &e
			}
		}
		p.fail(t, "%s", lowerFirst(t.Val))
	}
	return t
}

func (p *tokParser) is(kind lexer.TokenKind) bool {
	t := p.peekAt(0)
	return t != nil && t.Kind == kind
}

func (p *tokParser) shift() *lexer.Token {
	t := p.peek()
	p.i++
	return t
}

func (p *tokParser) expect(kind lexer.TokenKind, what string) *lexer.Token {
	t := p.shift()
	if t.Kind != kind {
		p.fail(t, "expected %s, found %s", what, describe(t))
	}
	return t
}

func lowerFirst(s string) string {
	if s != "" && s[0] >= 'A' && s[0] <= 'Z' {
		return string(s[0]+'a'-'A') + s[1:]
	}
	return s
}

func (p *tokParser) isStatement() bool {
	t := p.peekAt(0)
	if t == nil {
		return false
	}
	switch t.Kind {
	case lexer.TokenOpen, lexer.TokenOpenUnescaped, lexer.TokenOpenBlock,
		lexer.TokenOpenInverse, lexer.TokenOpenRawBlock, lexer.TokenOpenPartial,
		lexer.TokenContent, lexer.TokenComment, lexer.TokenError:
		// An error token is reported by the statement that reads it.
		return true
	}
	return false
}

func (p *tokParser) program() *ast.Program {
	t := p.peek()
	p.enter(t)
	defer p.leave()
	prog := ast.NewProgram(t.Pos, t.Line)
	for p.isStatement() {
		prog.AddStatement(p.statement())
	}
	return prog
}

func (p *tokParser) statement() ast.Node {
	t := p.peek()
	switch t.Kind {
	case lexer.TokenOpen, lexer.TokenOpenUnescaped:
		return p.mustache()
	case lexer.TokenOpenBlock:
		return p.block()
	case lexer.TokenOpenInverse:
		return p.inverse()
	case lexer.TokenOpenRawBlock:
		return p.rawBlock()
	case lexer.TokenOpenPartial:
		return p.partial()
	case lexer.TokenContent:
		p.shift()
		return ast.NewContentStatement(t.Pos, t.Line, t.Val)
	default: // lexer.TokenComment
		p.shift()
		return ast.NewCommentStatement(t.Pos, t.Line, t.Val)
	}
}

// expression: helperName param* hash?
func (p *tokParser) expression(t *lexer.Token) *ast.Expression {
	e := ast.NewExpression(t.Pos, t.Line)
	e.Path = p.helperName()
	e.Params, e.Hash = p.paramsHash()
	return e
}

func (p *tokParser) paramsHash() ([]ast.Node, *ast.Hash) {
	var params []ast.Node
	for p.isParam() {
		params = append(params, p.param())
	}
	var hash *ast.Hash
	if p.isHashSegment() {
		var pairs []*ast.HashPair
		for p.isHashSegment() {
			key := p.shift()
			p.shift() // =
			pair := ast.NewHashPair(key.Pos, key.Line)
			pair.Key = key.Val
			pair.Val = p.param()
			pairs = append(pairs, pair)
		}
		hash = ast.NewHash(pairs[0].Pos, pairs[0].Line)
		hash.Pairs = pairs
	}
	return params, hash
}

func (p *tokParser) rawBlock() ast.Node {
	t := p.shift()
	b := ast.NewBlockStatement(t.Pos, t.Line)
	b.Expression = p.expression(t)
	open := b.Expression.Canonical()
	closeTok := p.expect(lexer.TokenCloseRawBlock, "}}}}")
	c := p.expect(lexer.TokenContent, "the content of a raw block")
	prog := ast.NewProgram(closeTok.Pos, closeTok.Line)
	prog.AddStatement(ast.NewContentStatement(c.Pos, c.Line, c.Val))
	b.Program = prog
	p.expect(lexer.TokenOpenEndRawBlock, "{{{{/")
	p.closeName(open)
	p.expect(lexer.TokenCloseRawBlock, "}}}}")
	return b
}

func (p *tokParser) closeName(open string) {
	end := p.helperName()
	name, ok := ast.HelperNameStr(end)
	if !ok {
		p.failNode(end, "erroneous closing expression")
	}
	if name != open {
		p.failNode(end, "{{/%s}} does not close {{#%s}}", name, open)
	}
}

func (p *tokParser) failNode(n ast.Node, format string, args ...any) {
	loc := n.Location()
	panic(&syntaxError{pos: loc.Pos, line: loc.Line, msg: fmt.Sprintf(format, args...)})
}

// block: openBlock program inverseChain? closeBlock
func (p *tokParser) block() ast.Node {
	open := p.peek()
	b, params := p.openBlock()
	openClose := p.toks[p.i-1]
	prog := p.program()
	prog.BlockParams = params
	b.Program = prog
	if p.is(lexer.TokenOpenInverseChain) || p.is(lexer.TokenInverse) {
		b.Inverse = p.inverseChain()
	}
	endOpen := p.peek()
	p.closeBlock(b)
	end := p.toks[p.i-1]
	if !strings.Contains(open.Val+openClose.Val+endOpen.Val+end.Val, "~") {
		p.spans[b] = blockSpan{open.Pos, openClose.Pos + len(openClose.Val), endOpen.Pos, end.Pos + len(end.Val)}
	}
	return b
}

// block: openInverse program inverseAndProgram? closeBlock
func (p *tokParser) inverse() ast.Node {
	b, params := p.openBlock()
	prog := p.program()
	prog.BlockParams = params
	b.Inverse = prog
	if p.is(lexer.TokenInverse) {
		p.shift()
		b.Program = p.program()
	}
	p.closeBlock(b)
	return b
}

func (p *tokParser) inverseChain() *ast.Program {
	if p.is(lexer.TokenInverse) {
		p.shift()
		return p.program()
	}
	t := p.peek()
	res := ast.NewProgram(t.Pos, t.Line)
	b, params := p.openBlock()
	prog := p.program()
	prog.BlockParams = params
	b.Program = prog
	if p.is(lexer.TokenOpenInverseChain) || p.is(lexer.TokenInverse) {
		b.Inverse = p.inverseChain()
	}
	res.Chained = true
	res.AddStatement(b)
	return res
}

func (p *tokParser) openBlock() (*ast.BlockStatement, []string) {
	t := p.shift()
	b := ast.NewBlockStatement(t.Pos, t.Line)
	b.Expression = p.expression(t)
	var params []string
	if p.is(lexer.TokenOpenBlockParams) {
		p.shift()
		for p.is(lexer.TokenID) {
			params = append(params, p.shift().Val)
		}
		if len(params) == 0 {
			p.fail(p.peek(), "expected a block parameter name, found %s", describe(p.peek()))
		}
		p.expect(lexer.TokenCloseBlockParams, "|")
	}
	p.expect(lexer.TokenClose, "}}")
	return b, params
}

func (p *tokParser) closeBlock(b *ast.BlockStatement) {
	t := p.shift()
	if t.Kind != lexer.TokenOpenEndBlock {
		if t.Kind == lexer.TokenEOF {
			p.failNode(b, "{{#%s}} is not closed: expected {{/%s}} before the end of the template", b.Expression.Canonical(), b.Expression.Canonical())
		}
		p.fail(t, "expected {{/%s}}, found %s", b.Expression.Canonical(), describe(t))
	}
	p.closeName(b.Expression.Canonical())
	p.expect(lexer.TokenClose, "}}")
}

func (p *tokParser) mustache() ast.Node {
	t := p.shift()
	closeKind, closeStr := lexer.TokenClose, "}}"
	unescaped := t.Kind == lexer.TokenOpenUnescaped || isOpenAmp(t.Val)
	if t.Kind == lexer.TokenOpenUnescaped {
		closeKind, closeStr = lexer.TokenCloseUnescaped, "}}}"
	}
	m := ast.NewMustacheStatement(t.Pos, t.Line, unescaped)
	m.Expression = p.expression(t)
	c := p.expect(closeKind, closeStr)
	if !strings.Contains(t.Val, "~") && !strings.Contains(c.Val, "~") {
		p.ends[m] = c.Pos + len(c.Val)
	}
	return m
}

func (p *tokParser) partial() ast.Node {
	t := p.shift()
	ps := ast.NewPartialStatement(t.Pos, t.Line)
	if p.is(lexer.TokenOpenSexpr) {
		ps.Name = p.sexpr()
	} else {
		ps.Name = p.helperName()
	}
	ps.Params, ps.Hash = p.paramsHash()
	p.expect(lexer.TokenClose, "}}")
	return ps
}

func (p *tokParser) param() ast.Node {
	if p.is(lexer.TokenOpenSexpr) {
		return p.sexpr()
	}
	return p.helperName()
}

func (p *tokParser) isParam() bool {
	return (p.is(lexer.TokenOpenSexpr) || p.isHelperName()) && !p.isHashSegment()
}

func (p *tokParser) isHashSegment() bool {
	a, b := p.peekAt(0), p.peekAt(1)
	return a != nil && b != nil && a.Kind == lexer.TokenID && b.Kind == lexer.TokenEquals
}

func (p *tokParser) isHelperName() bool {
	t := p.peekAt(0)
	if t == nil {
		return false
	}
	switch t.Kind {
	case lexer.TokenBoolean, lexer.TokenNumber, lexer.TokenString, lexer.TokenData, lexer.TokenID:
		return true
	}
	return false
}

func (p *tokParser) sexpr() ast.Node {
	t := p.shift()
	p.enter(t)
	defer p.leave()
	s := ast.NewSubExpression(t.Pos, t.Line)
	s.Expression = p.expression(t)
	p.expect(lexer.TokenCloseSexpr, ")")
	return s
}

func (p *tokParser) helperName() ast.Node {
	t := p.peek()
	switch t.Kind {
	case lexer.TokenBoolean:
		p.shift()
		return ast.NewBooleanLiteral(t.Pos, t.Line, t.Val == "true", t.Val)
	case lexer.TokenNumber:
		p.shift()
		if n, err := strconv.Atoi(t.Val); err == nil {
			return ast.NewNumberLiteral(t.Pos, t.Line, float64(n), true, t.Val)
		}
		f, err := strconv.ParseFloat(t.Val, 64)
		if err != nil {
			p.fail(t, "bad number %s", t.Val)
		}
		return ast.NewNumberLiteral(t.Pos, t.Line, f, false, t.Val)
	case lexer.TokenString:
		p.shift()
		return ast.NewStringLiteral(t.Pos, t.Line, t.Val)
	case lexer.TokenData:
		p.shift()
		return p.path(true)
	}
	return p.path(false)
}

func (p *tokParser) path(data bool) *ast.PathExpression {
	t := p.shift()
	if t.Kind != lexer.TokenID {
		p.fail(t, "expected a name, found %s", describe(t))
	}
	pe := ast.NewPathExpression(t.Pos, t.Line, data)
	pe.Part(t.Val)
	for p.is(lexer.TokenSep) {
		pe.Sep(p.shift().Val)
		t = p.shift()
		if t.Kind != lexer.TokenID {
			p.fail(t, "expected a name after the path separator, found %s", describe(t))
		}
		pe.Part(t.Val)
		if len(pe.Parts) > 0 {
			switch t.Val {
			case "..", ".", "this":
				p.fail(t, "invalid path %s", pe.Original)
			}
		}
	}
	return pe
}
