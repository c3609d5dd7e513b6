package driver

import "fmt"

// MaxDepth is how deep the maps and lists of a render's data
// (map[string]any and []any, as JSON decodes) may nest. An engine refuses
// deeper data with a *DepthError (see CheckDepth): it is almost always a map
// or list that holds itself, which an engine would follow until the Go
// runtime ends the process (a stack overflow is not a panic that recover
// catches). Python's Jinja2 goes no deeper either: its recursion limit is
// 1000. Package engine calls it engine.MaxDepth.
const MaxDepth = 1000

// DepthError is a variable whose maps and lists nest deeper than MaxDepth.
// Package engine calls it engine.DepthError.
type DepthError struct {
	// Name is the variable, "@name" for an @-variable (Request.Data), or
	// empty when the engine found the value as it printed it.
	Name string
}

func (e *DepthError) Error() string {
	if e.Name == "" {
		return fmt.Sprintf("a value nests more than %d maps and lists deep (a map or list that holds itself?)", MaxDepth)
	}
	return fmt.Sprintf("variable %q nests more than %d maps and lists deep (a map or list that holds itself?)", e.Name, MaxDepth)
}

// CheckDepth returns a *DepthError naming the variable when v's maps and
// lists nest deeper than MaxDepth. It descends only into map[string]any
// and []any; a value that holds itself is found on the first path that
// comes back to it, after MaxDepth steps.
func CheckDepth(name string, v any) error {
	if tooDeep(v, 0) {
		return &DepthError{Name: name}
	}
	return nil
}

func tooDeep(v any, depth int) bool {
	switch v := v.(type) {
	case map[string]any:
		if depth == MaxDepth {
			return true
		}
		for _, x := range v {
			if tooDeep(x, depth+1) {
				return true
			}
		}
	case []any:
		if depth == MaxDepth {
			return true
		}
		for _, x := range v {
			if tooDeep(x, depth+1) {
				return true
			}
		}
	}
	return false
}
