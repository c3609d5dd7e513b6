package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/rolemark/rolemark/batch"
	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/tokens"
)

// tokenTally counts the tokens of each row `rolemark batch --count T`
// writes, as `render --count T` counts a prompt: the messages with OpenAI's
// per-message overhead (tokens.CountChat) for the formats that carry
// messages, the text of the line for the others (a chat format's prompt,
// sft's conversation). The workers count; the run's loop takes each count
// once the row's line is written, so that a row that fails counts nowhere.
type tokenTally struct {
	tk       *tokens.Tokenizer
	messages bool
	// ids says a line held input_ids, which were counted as they are.
	ids bool

	mu      sync.Mutex
	pending map[int]int // row index -> its count, until the loop takes it
	counts  []int       // the rows written, in input order
}

// batchMessageFormats are the batch formats whose lines hold messages
// (OpenAI's or Anthropic's form), counted as OpenAI counts messages.
var batchMessageFormats = []string{"openai", "openai-batch", "anthropic-batch"}

// newTokenTally loads the tokenizer of --count for --format format. A
// tokenizer.json counts text only, so it goes with a format that writes
// text, as in render.
func newTokenTally(name, format string) (*tokenTally, error) {
	messages := slices.Contains(batchMessageFormats, format)
	if messages && !slices.Contains(tokens.Encodings(), name) &&
		(strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".json.gz")) {
		return nil, usageErr("--count %s counts the text of a chat format: pass --format sft or a chat format (rolemark formats lists them); %s counts messages with %s", name, format, strings.Join(tokens.Encodings(), " or "))
	}
	tk, err := loadTokenizer(name, format)
	if err != nil {
		return nil, err
	}
	return &tokenTally{tk: tk, messages: messages, pending: map[int]int{}}, nil
}

// wrap returns a, counting the tokens of each row it writes.
func (t *tokenTally) wrap(a batch.Append) batch.Append {
	return func(ctx context.Context, dst []byte, index int, row batch.Row, msgs []chat.Message) ([]byte, error) {
		start := len(dst)
		b, err := a(ctx, dst, index, row, msgs)
		if err != nil {
			return b, err
		}
		var n int
		ids := false
		if t.messages {
			n = tokens.CountChat(t.tk, msgs)
		} else {
			// A chat format writes {"prompt"}, sft {"text", ...} or, with
			// its model's tokenizer, {"input_ids", ...}: those ids are the
			// row's tokens.
			var line struct {
				Prompt   *string           `json:"prompt"`
				Text     *string           `json:"text"`
				InputIDs []json.RawMessage `json:"input_ids"`
			}
			if err := json.Unmarshal(b[start:], &line); err != nil {
				return b, fmt.Errorf("--count: reading the line written: %w", err)
			}
			switch {
			case line.InputIDs != nil:
				n, ids = len(line.InputIDs), true
			case line.Prompt != nil:
				n = t.tk.Count(*line.Prompt)
			case line.Text != nil:
				n = t.tk.Count(*line.Text)
			default:
				return b, fmt.Errorf("--count: the line holds no prompt, text or input_ids to count")
			}
		}
		t.mu.Lock()
		t.pending[index] = n
		t.ids = t.ids || ids
		t.mu.Unlock()
		return b, nil
	}
}

// take adds the count of row index (from 0), whose line was written, to
// the totals; drop forgets the count of a row that failed after all.
func (t *tokenTally) take(index int) {
	t.mu.Lock()
	n, ok := t.pending[index]
	delete(t.pending, index)
	t.mu.Unlock()
	if ok {
		t.counts = append(t.counts, n)
	}
}

func (t *tokenTally) drop(index int) {
	t.mu.Lock()
	delete(t.pending, index)
	t.mu.Unlock()
}

// summary is the line the run ends with: the sum of the rows' tokens, and
// the least, the median (the mean of the middle two for an even number of
// rows) and the most a row has.
func (t *tokenTally) summary() string {
	what := "the messages as OpenAI counts them"
	switch {
	case t.ids:
		what = "the input_ids of each line"
	case !t.messages:
		what = "the text of each line"
	}
	if len(t.counts) == 0 {
		return fmt.Sprintf("rolemark batch: tokens (%s, %s): 0 in 0 rows", t.tk.Name(), what)
	}
	c := slices.Clone(t.counts)
	slices.Sort(c)
	sum := 0
	for _, n := range c {
		sum += n
	}
	mid := len(c) / 2
	median := float64(c[mid])
	if len(c)%2 == 0 {
		median = float64(c[mid-1]+c[mid]) / 2
	}
	return fmt.Sprintf("rolemark batch: tokens (%s, %s): %d in %d rows; per row min %d, median %s, max %d",
		t.tk.Name(), what, sum, len(c), c[0], strconv.FormatFloat(median, 'f', -1, 64), c[len(c)-1])
}
