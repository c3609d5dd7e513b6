// Package batch renders one prompt template over a stream of rows — a
// dataset for evaluation, a batch API or fine-tuning — on a bounded number
// of workers, and gives the results back in input order.
//
//	rows := batch.JSONLines(file)
//	for res := range batch.Render(ctx, tpl, rows, batch.Workers(8)) {
//		if res.Err != nil { … } // a *RowError naming the row; the run goes on
//		use(res.Value)          // the row's []chat.Message
//	}
//
// Rows are read as they are needed: at most a window of rows (Window, 256
// per worker by default) is held at a time, whatever the size of the input.
// Rows come from any iter.Seq[Row] (JSONLines, JSONArray and CSV read the
// common formats; FromChannel takes a channel).
//
// There is one entry point per job: Render gives each row's messages,
// RenderAppend writes each row through an output (an Append) on the
// workers, and RenderOne renders one row through an output, for a caller
// that runs rows one at a time. The outputs are the lines APIs and
// trainers read, each made by a function named for it (OpenAI,
// OpenAIBatch, AnthropicBatch, Prompt, SFT, TemplateSFT) or by its name
// (Output): what an output needs is an argument, the rest is an
// OutputOption, and an output given an option it does not take returns an
// error. RenderAppend appends the lines into buffers it reuses: a row's
// line is valid until the loop body that receives it returns, which is all
// a writer needs, and rows cost no allocation for their output. It also
// renders each row's messages into memory it reuses (internal/scratch), so
// the messages an Append receives are valid only until it returns.
// What a batch API accepts in one file of such lines (how many requests
// and bytes, which custom_ids) is package batchapi's: rolemark batch
// --split starts a new file where a batchapi.File is full.
//
//	out, err := batch.Output("openai-batch", tpl.FrontMatter(), batch.IDKey("id"))
//	…
//	for res := range batch.RenderAppend(ctx, tpl, rows, out, batch.Workers(8)) {
//		if res.Err != nil { … }
//		w.Write(res.Value) // the row's line
//	}
//
// A run's live memory is small (a window of rows) and each row leaves a
// couple of KB of garbage, so at Go's default GOGC=100 the garbage
// collector runs every thousand rows or so and takes a good share of the
// CPU. A program whose main job is a run can trade memory for speed with
// debug.SetGCPercent(400), as rolemark batch does: the collector then runs
// about a quarter as often, for a peak of about 30 MB on the benchmark
// prompt (docs/PERFORMANCE.md in the repository compares the command with
// the library at the default).
//
// Spans gives the character ranges of a chat format's text that the
// assistant messages occupy, for supervised fine-tuning. A tokenizer maps
// them to tokens through its offsets: with a HuggingFace fast tokenizer,
// tokenize the text with return_offsets_mapping=True and put in the loss
// every token whose (start, end) range overlaps a span, which is what
// transformers' return_assistant_tokens_mask does with char_to_token. The
// offsets count Unicode code points, as Python indexes a str; a byte-level
// tokenizer in another language must convert them to its own units.
// Spans, TemplateSpans and AssistantTokens (with its AssistantMask) are
// what the SFT outputs write on every line, and take the same
// OutputOptions (Tools, LastOnly, TurnEnds, AllowSpecialTokens, Vars);
// they stay here rather than in a package that would declare those
// options again.
//
// The package sits beside engine rather than in it: it needs only what a
// caller of engine uses (Template.Messages, History, FrontMatter), and it
// writes chat formats, which engine does not import.
package batch

import "iter"

// FromChannel returns the rows received from ch, until ch is closed.
func FromChannel(ch <-chan Row) iter.Seq[Row] {
	return func(yield func(Row) bool) {
		for r := range ch {
			if !yield(r) {
				return
			}
		}
	}
}
