package gotmpl

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"text/template/parse"

	"github.com/rolemark/rolemark/engine/driver"
)

// calleeMark stands for the callee's name in the error of a call that
// cannot be made: text/template's call names the callee by the node the
// template wrote (.s.Get), which only the tree knows; execError puts it in
// (calleeText).
const calleeMark = "\x00rolemark-callee\x00"

// callPanic is the panic of a function that call called: execError names
// it by where the data holds it (driver.FuncNamed).
type callPanic struct {
	fn    any
	value any
}

func (e *callPanic) Error() string { return fmt.Sprint(e.value) }

// callFunc is rolemark's call, which replaces text/template's: the same
// checks and the same errors, but a panic of the function is a
// *driver.PanicError naming it (text/template's call recovers it as an
// error that names no function, before any code of rolemark's runs, so a
// function deeper in the data than fillNil wraps, such as a pointer's
// struct field, could not be named). The function is called once.
func callFunc(fn reflect.Value, args ...reflect.Value) (reflect.Value, error) {
	v, err := call(indirect(fn), args)
	if err != nil && strings.Contains(err.Error(), calleeMark) {
		return v, &callArgError{err: err, fnText: fn.String()}
	}
	return v, err
}

// callArgError is an error of a call that cannot be made, whose message
// has calleeMark for the callee's name; fnText is the text of the
// function's reflect.Value, the name of one from the pipeline.
type callArgError struct {
	err    error
	fnText string
}

func (e *callArgError) Error() string { return e.err.Error() }
func (e *callArgError) Unwrap() error { return e.err }

func call(fn reflect.Value, args []reflect.Value) (v reflect.Value, err error) {
	if !fn.IsValid() {
		return reflect.Value{}, errors.New("call of nil")
	}
	typ := fn.Type()
	if typ.Kind() != reflect.Func {
		return reflect.Value{}, fmt.Errorf("non-function %s of type %s", calleeMark, typ)
	}
	if fn.IsNil() {
		// text/template's call recovers reflect's panic: the data's
		// mistake, not the function's panic
		return reflect.Value{}, errors.New("reflect.Value.Call: call of nil function")
	}
	switch n := typ.NumOut(); {
	case n == 1, n == 2 && typ.Out(1) == errorType:
	case n == 2:
		return reflect.Value{}, fmt.Errorf("invalid function signature for %s: second return value should be error; is %s", calleeMark, typ.Out(1))
	default:
		return reflect.Value{}, fmt.Errorf("function %s has %d return values; should be 1 or 2", calleeMark, n)
	}
	numIn := typ.NumIn()
	var dddType reflect.Type
	if typ.IsVariadic() {
		if len(args) < numIn-1 {
			return reflect.Value{}, fmt.Errorf("wrong number of args for %s: got %d want at least %d", calleeMark, len(args), numIn-1)
		}
		dddType = typ.In(numIn - 1).Elem()
	} else if len(args) != numIn {
		return reflect.Value{}, fmt.Errorf("wrong number of args for %s: got %d want %d", calleeMark, len(args), numIn)
	}
	argv := make([]reflect.Value, len(args))
	for i, arg := range args {
		argType := dddType
		if !typ.IsVariadic() || i < numIn-1 {
			argType = typ.In(i)
		}
		if argv[i], err = prepareArg(indirect(arg), argType); err != nil {
			return reflect.Value{}, fmt.Errorf("arg %d: %w", i, err)
		}
	}
	defer func() {
		if p := recover(); p != nil {
			if pe, ok := p.(*driver.PanicError); ok {
				err = pe // a function fillNil wrapped (driver.Recovering) named it
				return
			}
			cp := &callPanic{value: p}
			if fn.CanInterface() {
				cp.fn = fn.Interface()
			}
			err = cp
		}
	}()
	ret := fn.Call(argv)
	if len(ret) == 2 && !ret[1].IsNil() {
		return ret[0], ret[1].Interface().(error)
	}
	return ret[0], nil
}

// indirect is text/template's indirectInterface: the value in an
// interface, an invalid Value for a nil one.
func indirect(v reflect.Value) reflect.Value {
	if v.Kind() != reflect.Interface {
		return v
	}
	if v.IsNil() {
		return reflect.Value{}
	}
	return v.Elem()
}

// prepareArg is text/template's: value made ready for a parameter of type
// argType, or the error text/template's call gives.
func prepareArg(value reflect.Value, argType reflect.Type) (reflect.Value, error) {
	if !value.IsValid() {
		switch argType.Kind() {
		case reflect.Chan, reflect.Func, reflect.Interface, reflect.Map, reflect.Pointer, reflect.Slice:
		default:
			if argType != reflect.TypeFor[reflect.Value]() {
				return reflect.Value{}, fmt.Errorf("value is nil; should be of type %s", argType)
			}
		}
		value = reflect.Zero(argType)
	}
	if value.Type().AssignableTo(argType) {
		return value, nil
	}
	if intLike(value.Kind()) && intLike(argType.Kind()) && value.Type().ConvertibleTo(argType) {
		return value.Convert(argType), nil
	}
	return reflect.Value{}, fmt.Errorf("value has type %s; should be %s", value.Type(), argType)
}

func intLike(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Uintptr
}

// calleeText returns what text/template's call names its callee by, for
// the call command that tree's error at loc ("NAME:LINE:COL", as
// ErrorContext writes it) is at: the node written after call, or, for
// one that takes its function from the pipeline (.F | call), that value's
// reflect.Value text, which fnText holds. ok is false when no call
// command is at loc.
func calleeText(tree *parse.Tree, loc, fnText string) (string, bool) {
	var found string
	var ok bool
	var walk func(n parse.Node)
	walk = func(n parse.Node) {
		if ok || n == nil {
			return
		}
		switch n := n.(type) {
		case *parse.ListNode:
			if n == nil {
				return
			}
			for _, x := range n.Nodes {
				walk(x)
			}
		case *parse.ActionNode:
			walk(n.Pipe)
		case *parse.IfNode:
			walk(&n.BranchNode)
		case *parse.RangeNode:
			walk(&n.BranchNode)
		case *parse.WithNode:
			walk(&n.BranchNode)
		case *parse.BranchNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.TemplateNode:
			walk(n.Pipe)
		case *parse.PipeNode:
			if n == nil {
				return
			}
			for _, c := range n.Cmds {
				walk(c)
			}
		case *parse.ChainNode:
			walk(n.Node)
		case *parse.CommandNode:
			if id, isID := n.Args[0].(*parse.IdentifierNode); isID && id.Ident == "call" {
				if l, _ := tree.ErrorContext(n); l == loc {
					found, ok = fnText, true
					if len(n.Args) > 1 {
						found = n.Args[1].String()
					}
					return
				}
			}
			for _, a := range n.Args {
				walk(a)
			}
		}
	}
	walk(tree.Root)
	return found, ok
}

// nameCallee puts the callee's name in msg, the message of an error of
// rolemark's call at line and col (1-based, in bytes) of the file a
// template was parsed from (name, which defines may share).
func (c *compiled) nameCallee(msg, name string, line, col int, fnText string) string {
	loc := fmt.Sprintf("%s:%d:%d", name, line, col-1)
	text := "call's function"
	for _, t := range c.t.Templates() {
		if t.Tree == nil || t.Tree.ParseName != name {
			continue
		}
		if s, ok := calleeText(t.Tree, loc, fnText); ok {
			text = s
			break
		}
	}
	return strings.ReplaceAll(msg, calleeMark, text)
}
