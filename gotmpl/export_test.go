package gotmpl

// NewUnexpanded returns an engine that expands no markup function call at
// compile time, so that tests run every template through the function
// path as well as through the expanded one.
func NewUnexpanded() *Engine { return &Engine{noExpand: true} }
