package jinja2

// percentFormat is Python's str % args.
func percentFormat(c *Ctx, f, args Value) (Value, error) {
	return Value{}, &Error{Kind: "Unsupported", Msg: "% formatting is not implemented yet"}
}
