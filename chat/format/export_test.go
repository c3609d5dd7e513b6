package format

import (
	"context"

	"github.com/rolemark/rolemark/chat"
)

// Compiled reports whether the compiled path renders t (its default
// template).
func Compiled(t *Template) bool {
	c := t.variants["default"]
	return c != nil && c.fast != nil
}

// RenderCompiled renders with the compiled path only; ok is false when
// it does not model the call (Render then uses the engine), err is an
// operation it knows Python refuses.
func RenderCompiled(ctx context.Context, t *Template, msgs []chat.Message, opts Options) (string, bool, error) {
	c := t.variants["default"]
	if len(opts.Tools) > 0 && t.variants["tool_use"] != nil {
		c = t.variants["tool_use"]
	}
	if c == nil || c.fast == nil {
		return "", false, nil
	}
	return t.renderFast(ctx, c, msgs, opts)
}

// EngineOnly returns a copy of t that renders with the engine only.
func EngineOnly(t *Template) *Template {
	e := &Template{name: t.name, variants: t.variants, tokens: t.tokens, special: t.special, inferred: t.inferred,
		guard: t.guard, joins: t.joins, clock: t.clock, engineOnly: true}
	return e
}

// Joins reports whether the template's own text could make a special
// token with data next to it (the neutral rendering is then always
// compared).
func Joins(t *Template) bool { return t.joins }

// FormatJoins is Joins for a Format.
func FormatJoins(f *Format) bool {
	o := newOwnText(f)
	return o.g != nil && o.joinsData(f, nil, &Options{})
}
