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
