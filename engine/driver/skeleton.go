package driver

import (
	"context"
	"strings"
	"unsafe"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/roleparse"
)

// CompileSkeleton is roleparse.CompileSkeleton for the texts of an
// engine's template (those around the values it prints, in the markup
// Execute writes): it also reports false when a text holds HistoryMarker,
// which the markup's reader replaces and a skeleton would keep as text.
// An engine that has a skeleton for a template implements
// MessagesExecuter with it (and Memory.Messages).
func CompileSkeleton(texts []string, opts []roleparse.Option) (*roleparse.Skeleton, bool) {
	for _, t := range texts {
		if strings.Contains(t, HistoryMarker) {
			return nil, false
		}
	}
	return roleparse.CompileSkeleton(texts, opts...)
}

// ASCIIWord reports whether s is one or more ASCII letters, digits and
// underscores: a variable's name an engine's fast path can take as it is.
func ASCIIWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// HoleVars returns the variables of an engine's placeholder render of a
// template whose i-th value prints the variable names[i]: each distinct
// name holds roleparse.Hole(k), k counting the distinct names in the order
// they first print, and holes[i] is the k of names[i], as
// SkeletonFromRender takes it.
func HoleVars(names []string) (vars map[string]any, holes []int) {
	index := make(map[string]int, len(names))
	vars = make(map[string]any, len(names))
	holes = make([]int, len(names))
	for i, name := range names {
		k, ok := index[name]
		if !ok {
			k = len(index)
			index[name] = k
			vars[name] = roleparse.Hole(k)
		}
		holes[i] = k
	}
	return vars, holes
}

// SkeletonFromRender returns the skeleton of a template from rendered,
// the engine's render of it with roleparse.Hole(k) for its k-th distinct
// variable, where holes[i] is the variable the i-th value prints
// (roleparse.SplitHoles, then CompileSkeleton). It reports false when the
// holes do not stand in rendered as holes says or the texts have no
// skeleton.
func SkeletonFromRender(rendered string, holes []int, opts []roleparse.Option) (*roleparse.Skeleton, bool) {
	texts, ok := roleparse.SplitHoles(rendered, holes)
	if !ok {
		return nil, false
	}
	return CompileSkeleton(texts, opts)
}

// VarSkeleton is the skeleton of a template whose i-th printed value is
// the variable Names[i] of the request: the fast path of the jinja,
// pongo2 and text/template engines. A nil *VarSkeleton is a template
// without one.
type VarSkeleton struct {
	Skeleton *roleparse.Skeleton
	Names    []string
}

// RenderVarSkeleton returns the VarSkeleton of a template whose i-th value
// prints the variable names[i], from render, the engine's render of the
// template with HoleVars' variables (SkeletonFromRender); nil when render
// fails or its text has no skeleton.
func RenderVarSkeleton(names []string, render func(vars map[string]any) (string, error), opts []roleparse.Option) *VarSkeleton {
	vars, holes := HoleVars(names)
	out, err := render(vars)
	if err != nil {
		return nil
	}
	sk, ok := SkeletonFromRender(out, holes, opts)
	if !ok {
		return nil
	}
	return &VarSkeleton{Skeleton: sk, Names: names}
}

// Messages is SkeletonVarMessages of v's skeleton and names: the
// MessagesExecuter of an engine with a VarSkeleton. ok is false when v is
// nil.
func (v *VarSkeleton) Messages(ctx context.Context, r *Request, value func(any) (string, bool)) ([]chat.Message, bool, error) {
	if v == nil {
		return nil, false, nil
	}
	return SkeletonVarMessages(ctx, r, v.Skeleton, v.Names, value)
}

// SkeletonVarMessages is SkeletonMessages for a skeleton whose i-th hole
// prints the variable names[i] of r.Vars: a string as it is (as every
// engine prints it), any other value, nil too, as value returns the text
// the engine prints for it, or false for a kind it cannot take.
// A missing variable, a refused value or a nil r gives ok false.
func SkeletonVarMessages(ctx context.Context, r *Request, sk *roleparse.Skeleton, names []string, value func(any) (string, bool)) ([]chat.Message, bool, error) {
	if r == nil {
		return nil, false, nil
	}
	return SkeletonMessages(ctx, r, sk, len(names), func(i int) (string, bool) {
		x, ok := r.Vars[names[i]]
		if !ok {
			return "", false
		}
		if s, ok := x.(string); ok {
			return s, true
		}
		return value(x)
	})
}

// SkeletonMessages renders r straight to the messages of sk, whose n holes
// take value(0) … value(n-1): the MessagesExecuter of an engine with a
// skeleton. ok is false when value refuses one (a variable missing, or of a
// kind the skeleton cannot print as the engine would), and the engine
// renders r the general way; err is the context's error or the skeleton's.
func SkeletonMessages(ctx context.Context, r *Request, sk *roleparse.Skeleton, n int, value func(i int) (string, bool)) (msgs []chat.Message, ok bool, err error) {
	if err := ctx.Err(); err != nil {
		return nil, true, err
	}
	var vbuf [16]string
	values := vbuf[:0]
	if n > len(vbuf) {
		values = make([]string, 0, n)
	}
	for i := range n {
		v, ok := value(i)
		if !ok {
			return nil, false, nil
		}
		values = append(values, v)
	}
	msgs, err = r.Memory.Messages(sk, values)
	return msgs, true, err
}

// maxKept is the capacity beyond which a Memory's text is not kept for the
// next render: one very long render does not hold its memory for the rest.
const maxKept = 1 << 20

// Messages returns the messages of sk with values in its holes
// (Skeleton.Messages). With a nil m they are new; otherwise they, their
// text parts and their text are in m, valid until the next render with m
// writes over them (see Memory).
func (m *Memory) Messages(sk *roleparse.Skeleton, values []string) ([]chat.Message, error) {
	if m == nil {
		return sk.Messages(values)
	}
	text, err := sk.AppendText(m.Text[:0], values)
	if err != nil {
		return nil, err
	}
	if cap(text) <= maxKept {
		m.Text = text
	}
	n := sk.Len()
	if len(m.Msgs) < n {
		m.Msgs = make([]chat.Message, n)
	}
	if len(m.Parts) < n {
		m.Parts = make([]chat.Part, n)
	}
	msgs, parts := m.Msgs[:n:n], m.Parts[:n:n]
	// The messages' strings lie over m.Text, which the next render with m
	// writes over: Memory's contract, which only rolemark's batch package
	// asks for (internal/scratch), and which keeps a row's text from
	// being allocated (docs/decisions.md, "unsafe").
	if err := sk.Fill(msgs, parts, unsafe.String(unsafe.SliceData(text), len(text)), values); err != nil {
		return nil, err
	}
	return msgs, nil
}
