package react

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/rolemark/rolemark/chat"
)

// Model returns a model's reply to a ReAct request: the text it generates,
// which Run cuts at the first stop word whether or not the model stopped
// there.
type Model func(ctx context.Context, req Request) (string, error)

// Request is what Run asks a model to complete.
type Request struct {
	// Messages is the conversation as Convert writes it: a system message,
	// then user and assistant messages.
	Messages []chat.Message
	// Continue reports that Messages ends with an assistant message whose
	// text the model continues (the prompt leaves it open and the reply is
	// its continuation), rather than with a user message it answers.
	Continue bool
	// Stop are the stop words to generate with.
	Stop []string
}

// Executor runs a tool call and returns the tool's result as text. An error
// is shown to the model as the observation "Error: " + err.Error().
type Executor func(ctx context.Context, call chat.ToolCall) (string, error)

// DefaultMaxSteps is the number of model calls Run makes when
// Options.MaxSteps is zero.
const DefaultMaxSteps = 10

// Options adjust Run. The zero value asks for the defaults.
type Options struct {
	// Variant is the text of the instruction (DefaultVariant when empty).
	Variant Variant
	// MaxSteps bounds the number of model calls (DefaultMaxSteps when 0).
	MaxSteps int
	// Timeout bounds the whole run (no bound when 0).
	Timeout time.Duration
	// Stop are the stop words (StopWords() when nil).
	Stop []string
	// History is the conversation before the question, in OpenAI's form; it
	// may start with a system message.
	History []chat.Message
	// PlainAnswer takes a reply that is neither an action nor a final answer
	// as the final answer, as Qwen's bridge does, instead of ending the run
	// with a *FormatError.
	PlainAnswer bool
}

// A LimitError reports that Run made its last allowed model call without
// getting a final answer.
type LimitError struct {
	// Steps is the number of model calls made.
	Steps int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("react: no final answer after %d steps", e.Steps)
}

// Run answers a question with a ReAct loop. At each step it converts the
// conversation so far with Convert, asks the model, and reads the reply
// with ParseReply. A final answer ends the run. An action is executed with
// exec and its result appended as the observation; a tool error, an unknown
// tool or arguments that are not valid JSON become the observation instead,
// for the model to correct.
//
// Run returns the whole conversation in OpenAI's form: History, the
// question as a user message, then for each action an assistant message
// with the thought and one tool call (IDs "call_1", "call_2", … by step)
// followed by a tool message with the observation, and last an assistant
// message with the final answer. It ends early with an error, returning the
// conversation so far, when the model fails, when a reply is neither an
// action nor a final answer (*FormatError, unless Options.PlainAnswer), after
// Options.MaxSteps model calls (*LimitError), or when ctx is done or the
// timeout passes (the context's error).
func Run(ctx context.Context, model Model, exec Executor, tools []Tool, question string, opts Options) ([]chat.Message, error) {
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	maxSteps := opts.MaxSteps
	if maxSteps <= 0 {
		maxSteps = DefaultMaxSteps
	}
	stop := opts.Stop
	if stop == nil {
		stop = StopWords()
	}
	transcript := append(slices.Clone(opts.History), chat.Text(chat.RoleUser, question))

	for step := 1; step <= maxSteps; step++ {
		if err := ctx.Err(); err != nil {
			return transcript, err
		}
		msgs, err := Convert(opts.Variant, tools, transcript)
		if err != nil {
			return transcript, err
		}
		text, err := model(ctx, Request{
			Messages: msgs,
			Continue: msgs[len(msgs)-1].Role == chat.RoleAssistant,
			Stop:     slices.Clone(stop),
		})
		if err != nil {
			if cerr := ctx.Err(); cerr != nil && errors.Is(err, cerr) {
				return transcript, err
			}
			return transcript, fmt.Errorf("react: step %d: model: %w", step, err)
		}
		text = Cut(text, stop)
		reply, err := ParseReply(text, tools)
		if reply.ToolCall == nil {
			var fe *FormatError
			if errors.As(err, &fe) && !opts.PlainAnswer {
				return append(transcript, chat.Text(chat.RoleAssistant, text)), err
			}
			return append(transcript, reply.Message()), nil
		}

		call := *reply.ToolCall
		call.ID = fmt.Sprintf("call_%d", step)
		m := reply.Message()
		m.ToolCalls = []chat.ToolCall{call}
		transcript = append(transcript, m)

		observation := ""
		if err != nil {
			observation = err.Error()
		} else {
			out, err := execute(ctx, exec, call)
			if err != nil {
				if cerr := ctx.Err(); cerr != nil {
					return transcript, cerr
				}
				out = "Error: " + err.Error()
			}
			observation = out
		}
		obs := chat.Text(chat.RoleTool, observation)
		obs.ToolCallID = call.ID
		transcript = append(transcript, obs)
	}
	return transcript, &LimitError{Steps: maxSteps}
}

// execute runs the executor, turning a panic into an error.
func execute(ctx context.Context, exec Executor, call chat.ToolCall) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = "", fmt.Errorf("tool %s panicked: %v", call.Name, r)
		}
	}()
	return exec(ctx, call)
}
