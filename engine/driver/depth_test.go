package driver

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// BenchmarkCheckDepth checks a conversation's worth of JSON-decoded data:
// 50 messages, each a map with a list of two parts.
func BenchmarkCheckDepth(b *testing.B) {
	msgs := make([]any, 50)
	for i := range msgs {
		msgs[i] = map[string]any{
			"role":    "user",
			"content": []any{map[string]any{"type": "text", "text": "hello"}, map[string]any{"type": "text", "text": "again"}},
		}
	}
	v := map[string]any{"messages": msgs, "n": 3}
	for b.Loop() {
		if err := CheckDepth("data", v); err != nil {
			b.Fatal(err)
		}
	}
}

func TestWithFirstResult(t *testing.T) {
	type upper string
	conv := func(r reflect.Value) reflect.Value { return reflect.ValueOf(strings.ToUpper(r.String())) }
	join := WithFirstResult(func(sep string, parts ...string) (upper, error) {
		if len(parts) == 0 {
			return "", errors.New("no parts")
		}
		return upper(strings.Join(parts, sep)), nil
	}, reflect.TypeFor[string](), conv).(func(string, ...string) (string, error))
	if got, err := join("-", "a", "b"); got != "A-B" || err != nil {
		t.Errorf("join = %q, %v; want \"A-B\", nil", got, err)
	}
	if _, err := join("-"); err == nil || err.Error() != "no parts" {
		t.Errorf("join's error = %v; want no parts", err)
	}
	one := WithFirstResult(func(s upper) upper { return s + "!" }, reflect.TypeFor[string](), conv).(func(upper) string)
	if got := one("hi"); got != "HI!" {
		t.Errorf("one = %q; want \"HI!\"", got)
	}
}
