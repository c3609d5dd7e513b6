// Package yamljson turns YAML that front matter and test-case files hold
// into JSON: values decoded by go.yaml.in/yaml/v3 into what encoding/json
// accepts (Value), and node trees into JSON text with every mapping's keys
// in the order written (Ordered), as a JSON Schema's author means them, and
// the line a YAML error names (ErrorLine), a repeated key (DuplicateKey).
// Packages engine, engine/schema and engine/cases share it.
package yamljson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Ordered writes a YAML value as compact JSON, without HTML escaping, with
// the keys of every mapping in the order they are written (Qwen's ReAct
// instruction prints a tool's parameters as they come). ok is false for a
// value it does not handle (a merge key), which the caller then takes from
// the decoded, unordered value.
func Ordered(n *yaml.Node) (json.RawMessage, bool) {
	var b bytes.Buffer
	if !writeOrdered(&b, n) {
		return nil, false
	}
	return b.Bytes(), true
}

func writeOrdered(b *bytes.Buffer, n *yaml.Node) bool {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	switch n.Kind {
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Tag == "!!merge" {
				return false
			}
			var key any
			if err := k.Decode(&key); err != nil {
				return false
			}
			if i > 0 {
				b.WriteByte(',')
			}
			if !writeValue(b, fmt.Sprint(key)) {
				return false
			}
			b.WriteByte(':')
			if !writeOrdered(b, n.Content[i+1]) {
				return false
			}
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, e := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			if !writeOrdered(b, e) {
				return false
			}
		}
		b.WriteByte(']')
	default:
		var v any
		if err := n.Decode(&v); err != nil {
			return false
		}
		return writeValue(b, Value(v))
	}
	return true
}

// writeValue writes v as compact JSON without HTML escaping.
func writeValue(b *bytes.Buffer, v any) bool {
	var e bytes.Buffer
	enc := json.NewEncoder(&e)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return false
	}
	b.Write(bytes.TrimSuffix(e.Bytes(), []byte("\n")))
	return true
}

// Value converts a YAML-decoded value to what encoding/json accepts: maps
// with keys of any type become map[string]any, in place where they can.
func Value(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = Value(x)
		}
		return v
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[fmt.Sprint(k)] = Value(x)
		}
		return m
	case []any:
		for i, x := range v {
			v[i] = Value(x)
		}
	}
	return v
}

var lineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// ErrorLine splits an error of go.yaml.in/yaml/v3 into the line it names
// (0 when it names none) and its message without the "yaml: " prefix.
func ErrorLine(err error) (line int, msg string) {
	text := err.Error()
	if m := lineRE.FindStringSubmatch(text); m != nil {
		line, _ = strconv.Atoi(m[1])
		return line, m[2]
	}
	return 0, strings.TrimPrefix(text, "yaml: ")
}

// MappingValue returns the value of key in a mapping node, following
// aliases, or nil.
func MappingValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			v := m.Content[i+1]
			for v.Kind == yaml.AliasNode {
				v = v.Alias
			}
			return v
		}
	}
	return nil
}

// DuplicateKey returns the first key of a mapping in n that repeats an
// earlier key of the same mapping, and that earlier key, or nils. The YAML
// library refuses such a mapping only when it decodes it (not when it reads
// it into nodes, which front matter and cases files keep), in a message
// whose lines count from the decoded node's first line and that names no
// column.
func DuplicateKey(n *yaml.Node) (dup, first *yaml.Node) {
	if n.Kind == yaml.MappingNode {
		seen := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.Value == "<<" {
				continue
			}
			id := k.Tag + "\x00" + k.Value
			if f := seen[id]; f != nil {
				return k, f
			}
			seen[id] = k
		}
	}
	for _, c := range n.Content {
		if dup, first = DuplicateKey(c); dup != nil {
			return dup, first
		}
	}
	return nil, nil
}
