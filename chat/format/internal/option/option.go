// Package option holds what chat/format's rendering options set. The
// options are chat/format's (format.Option, a func over Settings); this
// package lets chat/format/chattemplate and chat/format/opencompass read
// them without an exported settings type.
package option

import (
	"sync"

	"github.com/rolemark/rolemark/chat"
)

// Settings is one rendering's options, as format.Option sets them.
type Settings struct {
	AddGenerationPrompt bool
	ContinueFinal       bool
	Tools               []chat.Tool
	Vars                map[string]any
	AllowSpecialTokens  bool
}

// scratch holds the Settings that options are applied to. An option is a
// function the compiler cannot see into, so the Settings it is given a
// pointer to must live on the heap; taking it from a pool spares every
// rendering that allocation.
var scratch = sync.Pool{New: func() any { return new(Settings) }}

// Apply returns the settings opts make, in order.
func Apply[O ~func(*Settings)](opts []O) Settings {
	if len(opts) == 0 {
		return Settings{}
	}
	p := scratch.Get().(*Settings)
	ApplyTo(p, opts)
	s := *p
	*p = Settings{} // hold no caller's tools or vars while pooled
	scratch.Put(p)
	return s
}

// ApplyTo applies opts, in order, to s: Apply for a caller whose Settings
// already live on the heap (in a pooled state of its own), without the
// pool. s starts as the caller leaves it, zero for Apply's settings.
func ApplyTo[O ~func(*Settings)](s *Settings, opts []O) {
	for _, o := range opts {
		if o != nil {
			o(s)
		}
	}
}
