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

// DefaultMaxSteps is the number of model calls Run makes at most unless
// MaxSteps says otherwise.
const DefaultMaxSteps = 10

// An Option adjusts Run.
type Option func(*config)

type config struct {
	variant     Variant
	maxSteps    int
	timeout     time.Duration
	stop        []string
	history     []chat.Message
	plainAnswer bool
}

// UseVariant sets the text of the instruction (DefaultVariant by default).
func UseVariant(v Variant) Option { return func(c *config) { c.variant = v } }

// MaxSteps bounds the number of model calls (DefaultMaxSteps by
// default; n <= 0 restores the default).
func MaxSteps(n int) Option { return func(c *config) { c.maxSteps = n } }

// Timeout bounds the whole run (no bound by default; d <= 0 removes
// it).
func Timeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// Stop sets the stop words (StopWords() by default).
func Stop(words ...string) Option {
	return func(c *config) { c.stop = slices.Clone(words) }
}

// History sets the conversation before the question, in OpenAI's form;
// it may start with a system message.
func History(msgs ...chat.Message) Option {
	return func(c *config) { c.history = msgs }
}

// PlainAnswer takes a reply that is neither an action nor a final answer
// as the final answer, as Qwen's bridge does, instead of ending the run with
// a *FormatError.
func PlainAnswer() Option { return func(c *config) { c.plainAnswer = true } }

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
// Run returns the whole conversation in OpenAI's form: the history (see
// History), the question as a user message, then for each action an assistant message
// with the thought and one tool call (IDs "call_1", "call_2", … by step)
// followed by a tool message with the observation, and last an assistant
// message with the final answer. It ends early with an error, returning the
// conversation so far, when the model fails, when a reply is neither an
// action nor a final answer (*FormatError, unless PlainAnswer), after
// the step limit (*LimitError), or when ctx is done or the timeout passes
// (the context's error).
func Run(ctx context.Context, model Model, exec Executor, tools []Tool, question string, opts ...Option) ([]chat.Message, error) {
	var c config
	for _, o := range opts {
		o(&c)
	}
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	maxSteps := c.maxSteps
	if maxSteps <= 0 {
		maxSteps = DefaultMaxSteps
	}
	stop := c.stop
	if stop == nil {
		stop = StopWords()
	}
	transcript := append(slices.Clone(c.history), chat.Text(chat.RoleUser, question))

	for step := 1; step <= maxSteps; step++ {
		if err := ctx.Err(); err != nil {
			return transcript, err
		}
		msgs, err := Convert(c.variant, tools, transcript)
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
			if errors.As(err, &fe) && !c.plainAnswer {
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
