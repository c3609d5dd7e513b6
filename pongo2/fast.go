package pongo2

import (
	"bytes"
	"context"

	p2 "github.com/flosch/pongo2/v6"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/roleparse"
)

// The fast path renders a template that is template text and plain
// variables ({{ name }}) straight to messages, without pongo2 and without
// parsing markup: the text between the variables is fixed, so
// roleparse.CompileSkeleton parses it once, at compile time, and a render puts each
// value, unescaped, into the text of the message it prints in. It is what
// Execute and roleparse.Parse give, because:
//
//   - the rewriter saw only text, comments, role markers it expanded into
//     tags, fixed-role blocks without arguments ({% user %}…{% enduser %})
//     and {{ name }} of a name that is no function, none with whitespace
//     control (source.plain);
//   - the text between the values is taken from pongo2's own render of the
//     template with a placeholder for each variable, and must hold the
//     placeholders in the order of the prints;
//   - at render time a value is used only when it is a string, a bool, a
//     number or nil, which the print tag formats as roleparse.FormatValue
//     does and escapes, and which roleparse decodes back; anything else, and
//     a missing variable, takes the general path (which reports it).

// fastProgram returns the template's fast path, or nil when it has none.
func (c *compiled) fastProgram(s *source, funcs p2.Context, opts []roleparse.Option) *driver.VarSkeleton {
	if !s.plain {
		return nil
	}
	for _, name := range s.prints {
		if _, fn := funcs[name]; fn || name == stateKey || !identifier(name) {
			return nil
		}
	}
	return driver.RenderVarSkeleton(s.prints, func(vars map[string]any) (string, error) {
		var buf bytes.Buffer
		err := c.Execute(context.Background(), &buf, &driver.Request{Vars: vars})
		return buf.String(), err
	}, opts)
}

// value returns the text the print tag writes, before escaping, for x, a
// value other than a string (which driver.SkeletonVarMessages prints as it
// is), when the fast path can take it: nil as nothing, as FormatValue
// prints it.
func value(x any) (string, bool) {
	switch x.(type) {
	case nil:
		return "", true
	case bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		return roleparse.FormatValue(x), true
	}
	return "", false
}

// ExecuteMessages renders the request straight to messages when the
// template has a fast path and the request's values suit it; ok is false
// otherwise.
func (c *compiled) ExecuteMessages(ctx context.Context, r *driver.Request) ([]chat.Message, bool, error) {
	return c.fast.Messages(ctx, r, value)
}
