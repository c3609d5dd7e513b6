package jinja2

// A mappingproxy (types.MappingProxyType, what a dict view's mapping
// attribute gives) is the dict's Value with flagProxy: a read-only view of
// the same dict, so that every filter and test that reads a mapping reads
// it as Python's do (it is a collections.abc.Mapping). What differs from
// the dict: its type name; its repr, mappingproxy({…}) (its str is the
// dict's); its methods, get, keys, values, items and copy (any other name
// is looked up as an item); tojson refuses it; urlencode iterates it (it
// is no dict); pprint writes its repr, or its dict's copy after the name;
// a set block cannot assign its keys; it is not the dict (sameas).

// proxyMethod reports whether a mappingproxy has the method name.
func proxyMethod(name string) bool {
	switch name {
	case "get", "keys", "values", "items", "copy":
		return true
	}
	return false
}

// IsMappingProxy reports whether v is a mappingproxy: a dict's Value
// (DictOf gives the dict) that is not the dict, which a host keeping
// something per dict must not answer for.
func (v Value) IsMappingProxy() bool { return v.kind == KindDict && v.flags&flagProxy != 0 }
