package jinja2

import "strings"

// A loop over a dict (or a view of one) that reads loop, filters or
// recurses steps Python's dict iterator one item at a time when its body
// may change the dict: the iterator yields the key, value or pair the
// dict holds when it is taken (loop.nextitem and a filter take it ahead
// of the body), raises at the step after the dict changed its size, and
// raises no more once it was exhausted (loop.last read on the last item
// took the end). A body that cannot change a dict keeps the items as the
// loop started (the same, as no step would see a change).

// dictChangers are the method names a call may change a dict with (the
// dunders and other _ names too: dictChangesIn).
var dictChangers = map[string]bool{
	"update": true, "pop": true, "popitem": true, "clear": true, "setdefault": true,
	// a cycler's and a joiner's state is a dict (__dict__) their calls change
	"next": true, "reset": true,
}

// listChangers are the method names a call may change a list with (the
// dunders and other _ names too: listChangesIn).
var listChangers = map[string]bool{
	"append": true, "extend": true, "insert": true, "pop": true, "remove": true, "clear": true, "sort": true, "reverse": true,
}

// pureCalls are the globals whose call changes no dict or list of the
// context (transformers' raise_exception and strftime_now too: a chat
// template's loop over a tool's parameters that may raise keeps the
// in-place path).
var pureCalls = map[string]bool{"range": true, "dict": true, "lipsum": true, "cycler": true, "joiner": true, "namespace": true,
	"raise_exception": true, "strftime_now": true}

// dictChangesIn reports whether running stmts may change a dict: a call of
// one of dictChangers' methods, a _ name, anything but an attribute or a
// pure global (a macro, caller, a bound method kept in a name), a set
// block on an attribute (which assigns a dict's key), or code of another
// template.
func dictChangesIn(stmts []Stmt, xs ...Expr) bool {
	return changesIn(dictChangers, stmts, xs...)
}

// listChangesIn is dictChangesIn for a list (listChangers).
func listChangesIn(stmts []Stmt, xs ...Expr) bool {
	return changesIn(listChangers, stmts, xs...)
}

// changesIn is dictChangesIn with the method names changers.
func changesIn(changers map[string]bool, stmts []Stmt, xs ...Expr) bool {
	may := false
	visit := func(n Node) bool {
		switch n := n.(type) {
		case *CallExpr:
			switch fn := n.Fn.(type) {
			case *AttrExpr:
				may = may || changers[fn.Name] || strings.HasPrefix(fn.Name, "_")
			case *Name:
				may = may || !pureCalls[fn.Name]
			default:
				may = true
			}
		case *SetBlock:
			_, ns := n.Target.(*NSRef)
			may = may || ns
		case *Include, *Import, *FromImport, *Extends, *Block, *CallBlock:
			may = true
		}
		return !may
	}
	Walk(stmts, visit)
	if !may {
		walkExprs(visit, xs...)
	}
	return may
}

// dictIterated is the dict a loop over v steps, and what of it: v's keys
// for a dict, a view's keys, values or items.
func dictIterated(v Value) (*Dict, string, bool) {
	if v.kind == KindDict {
		return v.dict(), "keys", true
	}
	if dv, ok := v.ref.(*dictView); ok && v.kind == KindObject {
		return dv.d, dv.what, true
	}
	return nil, "", false
}

// dictStep is Python's iterator over d's keys, values or items (what),
// taking one at a time from the dict as it is at the first step: at each
// step it raises once d changed its size (or refuses a dict whose keys
// were replaced, dictChanged), and after the last it gives nothing more,
// the dict unread. name and pos place the error (none for a generator's).
func dictStep(d *Dict, what, name string, pos Pos) func() (Value, bool, error) {
	var keys []Value
	i, started, done := 0, false, false
	return func() (Value, bool, error) {
		if done {
			return Value{}, false, nil
		}
		if !started {
			keys, started = d.keys, true
		}
		if len(d.keys) != len(keys) || keysReplaced(d, keys) {
			err := dictChanged(d, keys)
			if name != "" {
				err = place(err, name, pos)
			}
			return Value{}, false, err
		}
		if i >= len(d.keys) {
			done = true
			return Value{}, false, nil
		}
		k := i
		i++
		switch what {
		case "values":
			return d.vals[k], true, nil
		case "items":
			return TupleV([]Value{d.keys[k], d.vals[k]}), true, nil
		}
		return d.keys[k], true, nil
	}
}

// listStep is Python's iterator over the list l, taking one item at a
// time from the list as it is then (the body may append, insert or pop);
// once past the end it gives nothing more, however the list grows.
func listStep(l *List) func() (Value, bool, error) {
	i, done := 0, false
	return func() (Value, bool, error) {
		if done || i >= len(l.Items) {
			done = true
			return Value{}, false, nil
		}
		i++
		return l.Items[i-1], true, nil
	}
}
