package jinja2

// The syntax tree: jinja2/nodes.py's nodes, as check and a language
// server read them. Every node knows its place.

// Node is a node of the syntax tree.
type Node interface {
	Position() Pos
}

// Expr is an expression node.
type Expr interface {
	Node
	exprNode()
}

// Stmt is a statement node.
type Stmt interface {
	Node
	stmtNode()
}

// At is the place of a node; it implements Node.
type At struct{ P Pos }

// Position returns where the node starts.
func (a At) Position() Pos { return a.P }

// Expressions.
type (
	// Const is a literal: a str, int, float, bool or None.
	Const struct {
		At
		Value Value
	}
	// Name reads a variable.
	Name struct {
		At
		Name string
	}
	// NSRef is a namespace attribute as an assignment target: ns.attr.
	NSRef struct {
		At
		Name, Attr string
	}
	// TupleLit is a tuple: (a, b) or a, b.
	TupleLit struct {
		At
		Items []Expr
	}
	// ListLit is a list: [a, b].
	ListLit struct {
		At
		Items []Expr
	}
	// DictLit is a dict: {k: v}.
	DictLit struct {
		At
		Keys, Values []Expr
	}
	// CondExpr is a if b else c; Else is nil when omitted.
	CondExpr struct {
		At
		Test, Then, Else Expr
	}
	// BinExpr is a binary operator: + - * / // % ** and or.
	BinExpr struct {
		At
		Op          string
		Left, Right Expr
	}
	// UnaryExpr is -x, +x or not x.
	UnaryExpr struct {
		At
		Op string
		X  Expr
	}
	// CompareExpr is a chain of comparisons: a < b <= c, a in b, a not in b.
	CompareExpr struct {
		At
		Left   Expr
		Ops    []string // == != < <= > >= in notin
		Rights []Expr
	}
	// Concat is a ~ b ~ c.
	Concat struct {
		At
		Items []Expr
	}
	// FilterExpr is x|name(args); X is nil in a filter block or a block
	// set, where the filter applies to the body's output.
	FilterExpr struct {
		At
		X    Expr
		Name string
		Args CallArgs
	}
	// TestExpr is x is name(args) (x is not name is a UnaryExpr not).
	TestExpr struct {
		At
		X    Expr
		Name string
		Args CallArgs
	}
	// CallExpr is fn(args).
	CallExpr struct {
		At
		Fn   Expr
		Args CallArgs
	}
	// AttrExpr is x.name; At is the dot's place, NameP the name's.
	AttrExpr struct {
		At
		X     Expr
		Name  string
		NameP Pos
	}
	// ItemExpr is x[key]; Key may be a SliceExpr.
	ItemExpr struct {
		At
		X, Key Expr
	}
	// SliceExpr is start:stop:step inside a subscript; omitted parts are nil.
	SliceExpr struct {
		At
		Start, Stop, Step Expr
	}
)

// CallArgs are the arguments of a call, a filter or a test.
type CallArgs struct {
	Args      []Expr
	Kwargs    []KwargExpr
	DynArgs   Expr // *args
	DynKwargs Expr // **kwargs
}

// KwargExpr is name=value in a call.
type KwargExpr struct {
	Name  string
	Value Expr
}

func (*Const) exprNode()       {}
func (*Name) exprNode()        {}
func (*NSRef) exprNode()       {}
func (*TupleLit) exprNode()    {}
func (*ListLit) exprNode()     {}
func (*DictLit) exprNode()     {}
func (*CondExpr) exprNode()    {}
func (*BinExpr) exprNode()     {}
func (*UnaryExpr) exprNode()   {}
func (*CompareExpr) exprNode() {}
func (*Concat) exprNode()      {}
func (*FilterExpr) exprNode()  {}
func (*TestExpr) exprNode()    {}
func (*CallExpr) exprNode()    {}
func (*AttrExpr) exprNode()    {}
func (*ItemExpr) exprNode()    {}
func (*SliceExpr) exprNode()   {}

// Statements.
type (
	// Text is template data, printed as it is.
	Text struct {
		At
		Text string
	}
	// Print is {{ x }} or {% print x %}.
	Print struct {
		At
		X Expr
	}
	// If is if/elif/else: Tests[i] guards Bodies[i]; Else runs when none holds.
	If struct {
		At
		Tests  []Expr
		Bodies [][]Stmt
		Else   []Stmt
	}
	// For is a for loop.
	For struct {
		At
		Target    Expr // Name or TupleLit of Names
		Iter      Expr
		Filter    Expr // the if clause, or nil
		Recursive bool
		Body      []Stmt
		Else      []Stmt
	}
	// Set is {% set target = value %}.
	Set struct {
		At
		Target Expr // Name, NSRef or TupleLit
		Value  Expr
	}
	// SetBlock is {% set target | filters %}body{% endset %}.
	SetBlock struct {
		At
		Target Expr
		Filter Expr // a FilterExpr chain whose innermost X is nil, or nil
		Body   []Stmt
	}
	// Macro defines a macro.
	Macro struct {
		At
		Name   string
		Params []Param
		Body   []Stmt
	}
	// CallBlock is {% call(params) fn(args) %}body{% endcall %}.
	CallBlock struct {
		At
		Params []Param
		Call   *CallExpr
		Body   []Stmt
	}
	// FilterBlock is {% filter f %}body{% endfilter %}.
	FilterBlock struct {
		At
		Filter Expr // a FilterExpr chain whose innermost X is nil
		Body   []Stmt
	}
	// With is {% with a = 1 %}body{% endwith %}.
	With struct {
		At
		Targets []Expr
		Values  []Expr
		Body    []Stmt
	}
	// Include is {% include name %}.
	Include struct {
		At
		Template      Expr
		IgnoreMissing bool
		WithContext   bool
	}
	// Import is {% import name as target %}.
	Import struct {
		At
		Template    Expr
		Target      string
		WithContext bool
	}
	// FromImport is {% from name import a, b as c %}.
	FromImport struct {
		At
		Template    Expr
		Names       []ImportName
		WithContext bool
	}
	// Extends is {% extends name %}.
	Extends struct {
		At
		Template Expr
	}
	// Block is {% block name %}body{% endblock %}.
	Block struct {
		At
		Name             string
		Scoped, Required bool
		Body             []Stmt
	}
	// Break is {% break %}.
	Break struct{ At }
	// Continue is {% continue %}.
	Continue struct{ At }
	// Do is {% do expr %}.
	Do struct {
		At
		X Expr
	}
	// Generation is transformers' {% generation %}body{% endgeneration %}.
	Generation struct {
		At
		Body []Stmt
	}
	// AutoescapeBlock is {% autoescape expr %}body{% endautoescape %}.
	AutoescapeBlock struct {
		At
		X    Expr
		Body []Stmt
	}
)

// Param is a parameter of a macro or a call block.
type Param struct {
	At
	Name    string
	Default Expr // nil when it has none
}

// ImportName is one name of a from-import.
type ImportName struct {
	At
	Name, Alias string // Alias is Name when there is no as
}

func (*Text) stmtNode()            {}
func (*Print) stmtNode()           {}
func (*If) stmtNode()              {}
func (*For) stmtNode()             {}
func (*Set) stmtNode()             {}
func (*SetBlock) stmtNode()        {}
func (*Macro) stmtNode()           {}
func (*CallBlock) stmtNode()       {}
func (*FilterBlock) stmtNode()     {}
func (*With) stmtNode()            {}
func (*Include) stmtNode()         {}
func (*Import) stmtNode()          {}
func (*FromImport) stmtNode()      {}
func (*Extends) stmtNode()         {}
func (*Block) stmtNode()           {}
func (*Break) stmtNode()           {}
func (*Continue) stmtNode()        {}
func (*Do) stmtNode()              {}
func (*Generation) stmtNode()      {}
func (*AutoescapeBlock) stmtNode() {}

// Tree is a parsed template.
type Tree struct {
	Name string
	Body []Stmt
	// dupParams: a macro or call block names a parameter twice
	dupParams bool
}
