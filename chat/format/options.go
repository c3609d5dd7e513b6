package format

import (
	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format/internal/option"
)

// Option configures one rendering of a conversation: [Format.Render] and
// [Format.AppendRender], and the Render methods of chat/format/chattemplate
// and chat/format/opencompass, which take the same options.
type Option func(*settings)

// settings is what the options set (shared with the other two packages
// through an internal package).
type settings = option.Settings

// GenerationPrompt ends the prompt with the cue for the model's turn
// (transformers' add_generation_prompt).
func GenerationPrompt() Option { return func(s *settings) { s.AddGenerationPrompt = true } }

// ContinueFinal ends the prompt right after the final message's text,
// without the end of its turn, so that the model continues it (an assistant
// prefill; transformers' continue_final_message). It cannot be combined
// with GenerationPrompt (ErrContinueConflict).
func ContinueFinal() Option { return func(s *settings) { s.ContinueFinal = true } }

// Tools are the tool definitions offered to the model; each call adds to
// them. A Format without a ToolFormat refuses them (*PartError).
func Tools(tools ...chat.Tool) Option {
	return func(s *settings) {
		if s.Tools == nil {
			s.Tools = tools // read only: no copy for the common single call
			return
		}
		s.Tools = append(s.Tools[:len(s.Tools):len(s.Tools)], tools...)
	}
}

// Vars are extra variables for a chat template (transformers' **kwargs of
// apply_chat_template), such as "enable_thinking": false; any value
// encoding/json can write, and a json.RawMessage as Python's json.loads
// reads it (an object's key order kept); "documents" is transformers' documents
// argument (the sources a RAG template such as Command-R's lists, None when
// not given). Only chattemplate's Template reads them: a
// Format or a meta template given Vars returns an error.
func Vars(vars map[string]any) Option { return func(s *settings) { s.Vars = vars } }

// AllowSpecialTokens lets the data hold the model's special tokens. By
// default such data is refused (*SpecialTokenError): the tokenizer would
// read the text as the token, and a user could forge a turn.
func AllowSpecialTokens() Option { return func(s *settings) { s.AllowSpecialTokens = true } }
