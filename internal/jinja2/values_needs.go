package jinja2

// What the values side needs of the runtime's files (api.go), said here
// as the brief asks:
//
//   - htmlEscape in api.go (the Env's default escape, which Markup
//     operations, |e and |forceescape use) should return
//     htmlEscapeStr(s), markupsafe's table; it still returns s.
//   - Undefined values made by the runtime for the sandbox may carry an
//     *Error in ref (runtime_needs.go's unsafeUndefined); undefErr honours
//     it, and unsafeUndef (value.go) is the values side's form of it.
//   - A slice Jinja2's optimizer folds (its object and bounds constant:
//     {{ 3[1:] }}, {{ {}[:2] }}, {{ (x is true)[::-1] }} with literal x)
//     goes through environment.getitem and gives an Undefined where the
//     compiled subscript raises TypeError; the runtime should call
//     SliceItem for those and Slice for the rest (values/0042, 0949, 1261
//     of the oracle's values cases).
