package jinja2

// A fast path for what chat templates compare at every message: the
// equality of two strs (message.role == "user"). It gives what Compare
// gives, without its dispatch.

// strEqual is Compare(c, op, a, b) for op "==" or "!=" when a and b are
// strs (Markup or not: Markup is a str).
func strEqual(op string, a, b Value) (r, ok bool) {
	if a.kind != KindStr || b.kind != KindStr || op != "==" && op != "!=" {
		return false, false
	}
	return (a.s == b.s) == (op == "=="), true
}
