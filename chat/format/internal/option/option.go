// Package option holds what chat/format's rendering options set. The
// options are chat/format's (format.Option, a func over Settings); this
// package lets chat/format/chattemplate and chat/format/opencompass read
// them without an exported settings type.
package option

import "github.com/rolemark/rolemark/chat"

// Settings is one rendering's options, as format.Option sets them.
type Settings struct {
	AddGenerationPrompt bool
	ContinueFinal       bool
	Tools               []chat.Tool
	Vars                map[string]any
	AllowSpecialTokens  bool
}

// Apply returns the settings opts make, in order.
func Apply[O ~func(*Settings)](opts []O) Settings {
	var s Settings
	for _, o := range opts {
		if o != nil {
			o(&s)
		}
	}
	return s
}
