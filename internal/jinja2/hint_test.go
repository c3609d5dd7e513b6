package jinja2

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A loop's switch on a field and its printed runs find the key where
// they found it last (Dict.hinted): dicts of other shapes in turn, keys
// of the same text in other memory and a dict without the key read as
// findStr reads them, on goroutines sharing the template.
func TestHintedKeys(t *testing.T) {
	env := New(Sandbox())
	tmpl, err := env.Parse("t", "{% for m in ms %}{% if m.role == 'user' %}<{{ m.role + '|' + m.content }}>"+
		"{% elif m.role == 'tool' %}[{{ m.content }}]{% else %}({{ m }}){% endif %}{% endfor %}")
	require.NoError(t, err)
	str := StrV
	other := func(s string) Value { return StrV(strings.Clone(s)) }
	// each shape, and what the template writes of it
	shapes := []struct {
		kv  []Value
		out string
	}{
		{[]Value{str("role"), str("content"), str("user"), str("a")}, "<user|a>"},
		{[]Value{str("content"), str("role"), str("b"), str("user")}, "<user|b>"},
		{[]Value{str("x"), str("content"), str("role"), str("1"), str("c"), str("tool")}, "[c]"},
		{[]Value{other("role"), other("content"), str("user"), str("d")}, "<user|d>"},
		{[]Value{str("content"), str("e")}, "({'content': 'e'})"},
		{[]Value{str("role"), str("assistant")}, "({'role': 'assistant'})"},
	}
	ms := func(order []int) (Value, string) {
		items := make([]Value, len(order))
		var w strings.Builder
		for i, k := range order {
			items[i] = DictV(StrDict(shapes[k].kv))
			w.WriteString(shapes[k].out)
		}
		return ListV(items), w.String()
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range 50 {
				order := []int{(g + n) % 6, (g + 2*n + 1) % 6, (n + 3) % 6, g % 6, (5 * n) % 6}
				v, w := ms(order)
				out, err := tmpl.Render(context.Background(), map[string]Value{"ms": v})
				assert.NoError(t, err)
				assert.Equal(t, w, out, "order %v", order)
			}
		}()
	}
	wg.Wait()
}
