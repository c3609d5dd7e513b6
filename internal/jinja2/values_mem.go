package jinja2

// Values in memory the caller provides: for an embedding that converts its
// callers' data at every render and takes the memory of many dicts and
// lists from one slab (chat templates' messages), instead of one
// allocation per dict and per list.

// InitStrDict makes d the dict whose str keys are kv[:n] and whose values
// are kv[n:], n = len(kv)/2, in that order, using kv as its memory, as
// StrDict does for a new *Dict. The keys must be distinct strs.
func (d *Dict) InitStrDict(kv []Value) {
	n := len(kv) / 2
	*d = Dict{keys: kv[:n:n], vals: kv[n : 2*n : 2*n]}
}

// InitStrDictKeys makes d the dict whose str keys are keys and whose
// values are vals, in that order, using both as its memory; keys may be
// shared by many dicts (the dict never writes to them: one that grows
// or shrinks copies them first). The keys must be distinct strs, as many
// as vals.
func (d *Dict) InitStrDictKeys(keys, vals []Value) {
	n := len(keys)
	*d = Dict{keys: keys[:n:n], vals: vals[:n:n]}
}

// ListRefV is the list l as a Value, l not copied: l may live in a slab
// of Lists the caller reuses once the render is done.
func ListRefV(l *List) Value { return Value{kind: KindList, ref: l} }
