package jinja2

// Chains of attributes, items, calls, filters, tests and binary operators
// (a.b.b.b…, x|f|f…, a + 1 + 1…) nest to the left without the parser
// recursing. Jinja2 writes each link as one more pair of parentheses of
// the Python code it compiles (environment.getattr(…, 'b')), and Python
// refuses 200 nested parentheses (SyntaxError: too many nested
// parentheses); from about 328 links Jinja2's compiler recurses past
// Python's limit first (RecursionError). Links Jinja2 folds into a
// constant write no parentheses, but its optimizer recurses through them:
// a chain of constants raises RecursionError from somewhere between 250
// and 400 links for filters, from 492 for +. Measured with Jinja2 3.1.6
// and Python 3.11; both limits depend on the frames of the process and
// on the code around the chain, so the package raises where Python
// surely does: at 200 links not folded (TemplateSyntaxError below 328
// links, RecursionError from it), and at 492 links in all. A chain of 198
// or 199 links not folded (fewer inside a call's or a filter's
// arguments, where Jinja2's code has more parentheses around it), or a
// constant chain of filters from 250 to 491 links, renders where Jinja2
// raises. The position is the link where the count crosses its limit.

// chainLimit and foldedChainLimit are those limits; chainRecursion is
// where Jinja2's compiler recursion comes first.
const (
	chainLimit       = 200
	chainRecursion   = 328
	foldedChainLimit = 492
)

// leftLink is the operand x nests to the left of (nil for none).
func leftLink(x Expr) Expr {
	switch n := x.(type) {
	case *AttrExpr:
		return n.X
	case *ItemExpr:
		return n.X
	case *CallExpr:
		return n.Fn
	case *FilterExpr:
		return n.X
	case *TestExpr:
		return n.X
	case *BinExpr:
		return n.Left
	}
	return nil
}

// checkChain raises where x's chain of links is too long for Jinja2
// (see above), at the link where it crosses the limit.
func (p *parser) checkChain(x Expr) error {
	n := 0
	for e := leftLink(x); e != nil; e = leftLink(e) {
		n++
	}
	if n < chainLimit {
		return nil
	}
	spine := make([]Expr, 0, n+1)
	for e := x; e != nil; e = leftLink(e) {
		spine = append(spine, e)
	}
	// from the innermost operand out: which links fold (isConstExpr of
	// each, its left operand read from the step before), the links above
	// the last one that folds, and where each count crosses its limit
	folded := isConstExpr(spine[len(spine)-1])
	notFolded, at, atAll := 0, -1, -1
	for i := len(spine) - 2; i >= 0; i-- {
		folded = folded && linkConst(spine[i])
		if !folded {
			notFolded++
		}
		if notFolded == chainLimit && at < 0 {
			at = i
		}
		if len(spine)-1-i == foldedChainLimit {
			atAll = i
		}
	}
	switch {
	case at >= 0 && n < chainRecursion:
		pos := spine[at].Position()
		return &Error{Kind: "TemplateSyntaxError", Msg: "too many nested parentheses: Jinja2's code for this expression nests deeper than Python compiles", Name: p.src.name, Line: pos.Line, Col: pos.Col}
	case at >= 0 || atAll >= 0:
		if at < 0 {
			at = atAll
		}
		pos := spine[at].Position()
		return &Error{Kind: "RecursionError", Msg: "maximum recursion depth exceeded: a chain of " + istr(n) + " attributes, items, calls, filters or operators", Name: p.src.name, Line: pos.Line, Col: pos.Col}
	}
	return nil
}

// linkConst is isConstExpr of the link x without its left operand (which
// the caller knows folds).
func linkConst(x Expr) bool {
	switch n := x.(type) {
	case *AttrExpr:
		return true
	case *ItemExpr:
		return isConstExpr(n.Key)
	case *FilterExpr:
		return !contextFilters[n.Name] && constArgs(n.Args)
	case *TestExpr:
		return constArgs(n.Args)
	case *BinExpr:
		return n.Op == "and" || n.Op == "or" || isConstExpr(n.Right)
	}
	return false // a call
}
