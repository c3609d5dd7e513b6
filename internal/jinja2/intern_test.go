package jinja2

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// TestInternSharesConstants requires the parser to give a template's
// constant keys and roles (message['role'], message.content, 'user') the
// bytes of the program's constants, which the chat data's keys and roles
// share, so that comparing them stops at the pointers; other strings keep
// their own.
func TestInternSharesConstants(t *testing.T) {
	tree, err := parseTree(newSource("t", "{{ m['role'] == 'user' }}{{ m.content }}{{ 'other' }}"), New())
	require.NoError(t, err)
	var consts, attrs []string
	Walk(tree.Body, func(n Node) bool {
		switch n := n.(type) {
		case *Const:
			if n.Value.kind == KindStr {
				consts = append(consts, n.Value.s)
			}
		case *AttrExpr:
			attrs = append(attrs, n.Name)
		}
		return true
	})
	require.Equal(t, []string{"role", "user", "other"}, consts)
	require.Equal(t, []string{"content"}, attrs)
	same := func(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }
	require.True(t, same(consts[0], "role"))
	require.True(t, same(consts[1], "user"))
	require.True(t, same(attrs[0], "content"))
	require.True(t, same(Intern(string([]byte("assistant"))), "assistant"))
	other := string([]byte("other"))
	require.True(t, same(Intern(other), other))
}
