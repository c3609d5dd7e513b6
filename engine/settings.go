package engine

import (
	"regexp"

	"github.com/rolemark/rolemark/chat"
)

// schemaNameRE is what OpenAI accepts as a json_schema's name.
var schemaNameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// Settings returns the request the front matter declares, for
// chat.OpenAIBody, chat.AnthropicBody and the connectors: model, config,
// tools, toolChoice, and output (format, and the schema compiled to JSON
// Schema). An output schema without a format asks for JSON, as Dotprompt
// reads it; the front matter's name names the schema when OpenAI accepts
// it as one. A nil front matter declares nothing.
func (fm *FrontMatter) Settings() chat.Settings {
	if fm == nil {
		return chat.Settings{}
	}
	s := chat.Settings{
		Model:      fm.Model,
		Tools:      fm.Tools,
		ToolChoice: chat.ToolChoice(fm.ToolChoice),
		Output:     chat.Output{Format: chat.OutputFormat(fm.OutputFormat), Schema: fm.OutputSchema},
	}
	if len(fm.Config) > 0 {
		s.Config = make(map[string]any, len(fm.Config))
		for k, v := range fm.Config {
			s.Config[k] = v
		}
	}
	if s.Output.Format == "" && len(s.Output.Schema) > 0 {
		s.Output.Format = chat.OutputJSON
	}
	if len(s.Output.Schema) > 0 && schemaNameRE.MatchString(fm.Name) {
		s.Output.Name = fm.Name
	}
	return s
}
