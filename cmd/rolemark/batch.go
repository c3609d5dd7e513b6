package main

import (
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/rolemark/rolemark/batch"
	"github.com/rolemark/rolemark/batch/batchapi"
	"github.com/rolemark/rolemark/chat"
	chatformat "github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/internal/caserun"
)

const batchArgs = "--in FILE [--in-format jsonl|json|csv|parquet] [--null V] [--out FILE] [--format F] [--chat-format C] [--sft-last] [--sft-end] [--sft-tokenizer FILE] [--allow-special-tokens] [--workers N] [--fail-fast] [--dry-run] [--skip N] [--append] [--model M] [--id-field K] [--rewrite-ids] [--split] [--max-requests N] [--max-bytes N] [--no-file-limits] [--history-field K] [--count T] [--engine E] [--tools FILE] [--template-var k=v]... [--content-parts] [--no-generation-prompt] [--continue-final] [--now TIME] TEMPLATE"

const batchAbout = `Renders TEMPLATE once per row of --in (- for standard input) and writes one JSON line per row to
--out (default: standard output), in input order. Rows are JSON Lines (.jsonl, .ndjson), one JSON
array of objects (.json), CSV with a header (.csv) or Parquet (.parquet); --in-format overrides the
extension. In CSV, an empty cell is the empty string and a missing one (a short record, or a
cell that spells --null V) a missing variable: the input schema's default, or the row fails.
--format:
  openai           {"messages": [...], "tools": [...]}: OpenAI's fine-tuning line, with the front
                   matter's (or --tools') tools and parallel_tool_calls when they are set
  openai-batch     {"custom_id", "method", "url", "body"}: a request line of OpenAI's Batch API
  anthropic-batch  {"custom_id", "params"}: an item of Anthropic's Message Batches requests
  sft              {"text", "assistant_spans"}: the conversation in --chat-format C (a format or
                   hf:FILE) and the [start, end) character ranges of what the assistant writes in
                   it, tool calls included; with --sft-tokenizer FILE (a tokenizer.json, and
                   --chat-format hf:FILE a template with {% generation %} blocks)
                   {"input_ids", "assistant_masks"} as transformers' apply_chat_template(...,
                   tokenize=True, return_assistant_tokens_mask=True) gives them
  a chat format    {"prompt"}: the prompt string a local model reads (rolemark formats lists them;
                   hf:FILE is a model's own chat template, with --tools and --template-var)
The batch formats are checked as the APIs check a file: custom_ids unique (and, for Anthropic, 1-64
of [a-zA-Z0-9_-]; --rewrite-ids rewrites the others as docs/batch.md says), the model the API's,
at most 50,000 requests and 200 MB (OpenAI) or 100,000 and 256 MB (Anthropic) per file. A run
past them stops (--no-file-limits goes on, for servers without them) unless --split writes OUT-001.jsonl, OUT-002.jsonl ... each within them
(--max-requests, --max-bytes for smaller files) and OUT.manifest.json, which rows went where.
--dry-run checks every row and prints what a run would write, writing nothing.
--count T counts each row's tokens as render --count T does (o200k_base, cl100k_base: the messages
with OpenAI's per-message overhead; for sft and chat formats, or with a tokenizer.json, the line's
text, or its input_ids as they are) and ends with the sum and the least, median and most of a row
on standard error.
A row that fails is reported on standard error as FILE:ROW: message (ROW counts rows from 1; a row
of malformed JSON as FILE:LINE:COL: invalid JSON: …, where the error is in the file) and left
out of the output; the run goes on, and ends with exit status 1 and the count of failed rows.
--fail-fast stops at the first. SIGINT or SIGTERM stops the run after the last whole line, with a
summary naming the row it stopped at and exit status 130 or 143; --skip N --append resumes it
(--skip N passes over the first N rows, numbering the rest as before). A progress line is drawn on standard error when it is a terminal.
The garbage collector runs at GOGC=400 (Go's default is 100) unless the environment sets GOGC.
`

// batchGCPercent is the batch command's GOGC: a run's live memory is a
// window of rows (a few MB) and each row leaves about 2 KB of garbage, so at
// Go's default the collector's goal sits at its 4 MB floor; at 400 the floor
// is 16 MB and a cycle comes about four times less often, for a flat peak
// of about 30 MB (docs/decisions.md, docs/PERFORMANCE.md).
const batchGCPercent = 400

func cmdBatch(ctx context.Context, sio stdio, args []string) error {
	fl := newFlags("batch")
	f := newBatchFlags(fl)
	operands, err := parseArgs(fl, args)
	if os.Getenv("GOGC") == "" { // the runtime reads an empty GOGC as unset
		defer debug.SetGCPercent(debug.SetGCPercent(batchGCPercent))
	}
	if err != nil {
		return err
	}
	if len(operands) != 1 {
		return usageErr("batch takes one template, not %d", len(operands))
	}
	if err := f.check(); err != nil {
		return err
	}
	kind, err := inputKind(*f.in, *f.inFormat)
	if err != nil {
		return err
	}
	name := operands[0]
	fsys, rel := templateFS(name)
	renamed := func(err error) error { return caserun.RenameTemplate(err, rel, filepath.ToSlash(name)) }
	set := newSet()
	if err := knownEngine(set, *f.engineName); err != nil {
		return err
	}
	// The tools of --tools are the ones front matter may name, as in render.
	fileTools, err := f.po.tools(nil)
	if err != nil {
		return err
	}
	set.Option(engine.Tools(fileTools...))
	tpl, err := set.ParseFS(fsys, rel, engine.UseEngine(*f.engineName))
	if err != nil {
		return renamed(engineHint(set, rel, *f.engineName, err))
	}
	output, sk, tally, err := f.outputs(tpl, sio)
	if err != nil {
		return inSettings(name, tpl.FrontMatter(), *f.model, err)
	}

	rows, size, counted, closeIn, err := f.input(kind, sio)
	if err != nil {
		return err
	}
	defer closeIn()

	if err := sk.open(); err != nil {
		return err
	}
	prog := newProgress(sio.err, size, counted)
	rep := &rowReport{w: sio.err, in: *f.in, renamed: renamed, prog: prog}
	failed, done, stoppedAt, werr := writeRows(ctx, batch.RenderAppend(ctx, tpl, rows, output, f.rowOptions(tpl, kind)...), sk, tally, rep, *f.failFast)
	prog.finish(done)
	if err := sk.finish(*f.format); err != nil && werr == nil {
		werr = err
	}
	if *f.dryRun || *f.split {
		fmt.Fprintln(sio.err, sk.summary(done, failed))
	}
	if tally != nil {
		fmt.Fprintln(sio.err, tally.summary())
	}
	if stoppedAt > 0 {
		return stopped(context.Cause(ctx), stoppedAt, done-failed, failed, *f.out, *f.split)
	}
	if werr != nil {
		return werr
	}
	return f.failedRows(failed, done)
}

// input opens --in and reads its rows as kind: the rows, the input's
// size (-1 for standard input) and a reader counting what is read, for
// the progress line, and the function that closes the input.
func (f *batchFlags) input(kind string, sio stdio) (iter.Seq[batch.Row], int64, *countingReader, func(), error) {
	src, size, closeIn, err := openInput(*f.in, sio.in)
	if err != nil {
		return nil, 0, nil, nil, err
	}
	counted := &countingReader{r: src}
	var csvOpts []batch.CSVOption
	if f.null.set {
		csvOpts = append(csvOpts, batch.CSVNull(f.null.v))
	}
	rows, err := readRows(kind, counted, *f.in, csvOpts...)
	if err != nil {
		closeIn()
		return nil, 0, nil, nil, err
	}
	return rows, size, counted, closeIn, nil
}

// knownEngine checks that --engine, when given, names an engine of set.
func knownEngine(set *engine.Set, name string) error {
	if name == "" {
		return nil
	}
	if _, ok := set.Engine(name); !ok {
		return usageErr("unknown engine %q; known: %s", name, strings.Join(engineNames(set), ", "))
	}
	return nil
}

// outputs makes what batch writes for each row of tpl's renders
// (--format, with --count's tally around it, nil without) and the sink
// it writes into, which checks a provider's batch file against its
// limits.
func (f *batchFlags) outputs(tpl *engine.Template, sio stdio) (batch.Append, *sink, *tokenTally, error) {
	bo := batchOptions{format: *f.format, chatFormat: *f.chatFormat, model: *f.model, idField: *f.idField, rewriteIDs: *f.rewriteIDs,
		sftLast: *f.sftLast, sftEnd: *f.sftEnd, sftTokenizer: *f.sftTokenizer, allowSpecial: *f.allowSpecial}
	output, api, err := batchOutput(tpl.FrontMatter(), bo, &f.po)
	if err != nil {
		return nil, nil, nil, err
	}
	var tally *tokenTally
	if *f.count != "" {
		if tally, err = newTokenTally(*f.count, *f.format); err != nil {
			return nil, nil, nil, err
		}
		output = tally.wrap(output)
	}
	sk := &sink{out: *f.out, stdout: sio.out, split: *f.split, dry: *f.dryRun, append: *f.appendOut}
	if api != nil {
		sk.api = *api
		var ids []batchapi.FileOption
		if *f.idField != "" {
			ids = append(ids, batchapi.UniqueIDs())
		}
		sk.check, err = batchapi.NewFile(*api, batchapi.Limits{Requests: *f.maxRequests, Bytes: *f.maxBytes}, ids...)
		if err != nil {
			return nil, nil, nil, usageErr("%v", err)
		}
		sk.noLimits = *f.noLimits
	} else if *f.split || *f.maxRequests != 0 || *f.maxBytes != 0 {
		return nil, nil, nil, usageErr("--split, --max-requests and --max-bytes go with --format openai-batch and anthropic-batch")
	}
	return output, sk, tally, nil
}

// rowOptions are the options of batch's render of the rows: --workers,
// --skip, the preparation of a row the front matter or the input asks
// for (prepareRow) and --fail-fast.
func (f *batchFlags) rowOptions(tpl *engine.Template, kind string) []batch.Option {
	opts := []batch.Option{batch.Workers(*f.workers), batch.Skip(*f.skip)}
	if prep := prepareRow(tpl.FrontMatter(), kind, *f.historyField); prep != nil {
		opts = append(opts, batch.Prepare(prep))
	}
	if *f.failFast {
		opts = append(opts, batch.StopOnError())
	}
	return opts
}

// failedRows is batch's error for the rows that failed, nil for none.
func (f *batchFlags) failedRows(failed, done int) error {
	if failed == 0 {
		return nil
	}
	if *f.failFast {
		return fmt.Errorf("rolemark batch: stopped at the first failed row (--fail-fast), after %d rows", done)
	}
	return fmt.Errorf("rolemark batch: %d of %d rows failed", failed, done)
}

// batchFlags are batch's flags.
type batchFlags struct {
	in           *string
	inFormat     *string
	out          *string
	format       *string
	chatFormat   *string
	sftLast      *bool
	sftEnd       *bool
	sftTokenizer *string
	allowSpecial *bool
	dryRun       *bool
	split        *bool
	maxRequests  *int
	maxBytes     *int64
	noLimits     *bool
	rewriteIDs   *bool
	workers      *int
	failFast     *bool
	skip         *int
	appendOut    *bool
	model        *string
	idField      *string
	historyField *string
	engineName   *string
	count        *string
	null         optionalString
	po           promptOptions
}

// newBatchFlags registers batch's flags in fl.
func newBatchFlags(fl *flag.FlagSet) *batchFlags {
	f := &batchFlags{}
	f.in = fl.String("in", "", "rows from `FILE` (- for standard input)")
	f.inFormat = fl.String("in-format", "", "format `F` of --in: jsonl, json, csv or parquet (default: by extension; jsonl for standard input)")
	f.out = fl.String("out", "-", "write the lines to `FILE` (- for standard output)")
	f.format = fl.String("format", "openai", "output format `F`")
	f.chatFormat = fl.String("chat-format", "", "chat format `C` of --format sft")
	f.sftLast = fl.Bool("sft-last", false, "sft: span the last assistant message only")
	f.sftEnd = fl.Bool("sft-end", false, "sft: spans include the end of the assistant's turn (its end token)")
	f.sftTokenizer = fl.String("sft-tokenizer", "", "sft: write token ids and the assistant mask, encoded with the tokenizer.json `FILE`")
	f.allowSpecial = fl.Bool("allow-special-tokens", false, "let row data hold the chat format's special tokens (for data you trust; sft and chat formats)")
	fl.Var(&f.null, "null", "CSV: a cell whose text is `V` is missing (\"\" for every empty cell)")
	f.dryRun = fl.Bool("dry-run", false, "check every row against the template and the target, and write nothing")
	f.split = fl.Bool("split", false, "write numbered files within the batch API's limits, and a manifest (needs --out)")
	f.maxRequests = fl.Int("max-requests", 0, "at most `N` requests per file, at most the API's (its limit by default)")
	f.maxBytes = fl.Int64("max-bytes", 0, "at most `N` bytes per file, at most the API's (its limit by default)")
	f.noLimits = fl.Bool("no-file-limits", false, "write one file past the API's per-file limits, for servers that have none (vLLM's batch runner)")
	f.rewriteIDs = fl.Bool("rewrite-ids", false, "rewrite a custom_id the API refuses (docs/batch.md) rather than fail the row")
	f.workers = fl.Int("workers", runtime.NumCPU(), "render `N` rows at once")
	f.failFast = fl.Bool("fail-fast", false, "stop at the first row that fails")
	f.skip = fl.Int("skip", 0, "pass over the first `N` rows (to resume a stopped run; rows keep their numbers)")
	f.appendOut = fl.Bool("append", false, "append to --out rather than replace it (to resume a stopped run)")
	f.model = fl.String("model", "", "model `M` of the batch formats (default: the front matter's)")
	f.idField = fl.String("id-field", "", "the row field `K` whose value is the custom_id (default: row-N)")
	f.historyField = fl.String("history-field", "", "the row field `K` holding prior messages (OpenAI form, or its JSON text) for {{history}}")
	f.engineName = fl.String("engine", "", "engine `E` (default: by file extension)")
	f.count = fl.String("count", "", "count each row's tokens with tokenizer `T` as render --count does, and print the sum, least, median and most")
	addPromptFlags(fl, &f.po)
	return f
}

// check refuses flags that are out of range or do not go together.
func (f *batchFlags) check() error {
	if *f.in == "" {
		return usageErr("batch needs --in FILE")
	}
	if *f.workers < 1 {
		return usageErr("--workers must be at least 1, not %d", *f.workers)
	}
	if *f.skip < 0 {
		return usageErr("--skip must be 0 or more, not %d", *f.skip)
	}
	if *f.appendOut && *f.out == "-" {
		return usageErr("--append needs --out FILE")
	}
	if *f.split && *f.out == "-" {
		return usageErr("--split needs --out FILE: the files are named after it")
	}
	if *f.noLimits && (*f.split || *f.maxRequests != 0 || *f.maxBytes != 0) {
		return usageErr("--no-file-limits and --split, --max-requests or --max-bytes do not go together")
	}
	if *f.split && *f.appendOut {
		return usageErr("--split and --append do not go together: resume a split run with --skip N and another --out")
	}
	if f.null.set && kindOf(*f.in, *f.inFormat) != "csv" {
		return usageErr("--null goes with CSV input")
	}
	if *f.count != "" && *f.sftTokenizer != "" {
		return usageErr("--count does not go with --sft-tokenizer: each line holds its ids")
	}
	return nil
}

// rowReport reports a failed row on w as IN:ROW: error, clearing the
// progress line first.
type rowReport struct {
	w       io.Writer
	in      string
	renamed func(error) error // the template's name as the command line gave it
	prog    *progress
}

func (r *rowReport) fail(row int, err error) {
	r.prog.clear()
	var je *batch.JSONError
	if errors.As(err, &je) {
		// malformed JSON: where it is in the file, as an editor reads it
		fmt.Fprintf(r.w, "%s:%d:%d: %v\n", r.in, je.Line, je.Col, je)
		return
	}
	var ce *csv.ParseError
	if errors.As(err, &ce) {
		// malformed CSV: the line it is on, which a quoted field over
		// lines moves from the row's (encoding/csv counts its column
		// in bytes, so none is given)
		fmt.Fprintf(r.w, "%s:%d: %v\n", r.in, ce.Line, ce.Err)
		return
	}
	fmt.Fprintf(r.w, "%s:%d: %v\n", r.in, row, err)
}

// writeRows writes each rendered row to sk and counts it in tally (when
// not nil): done and failed rows, the row an interruption stopped at
// (from 1; 0 when none did), and the error that ended the run early.
func writeRows(ctx context.Context, results iter.Seq[batch.Result[[]byte]], sk *sink, tally *tokenTally, rep *rowReport, failFast bool) (failed, done, stoppedAt int, werr error) {
	for res := range results {
		if res.Err != nil {
			var re *batch.RowError
			if !errors.As(res.Err, &re) {
				werr = res.Err // the context's
				if ctx.Err() != nil {
					stoppedAt = res.Index + 1
				}
				break
			}
			failed++
			done++
			rep.fail(re.Row, rep.renamed(re.Err))
			continue
		}
		rowErr, err := sk.write(res.Index+1, res.Value)
		if err != nil {
			werr = err
			break
		}
		done++
		if tally != nil {
			if rowErr != nil {
				tally.drop(res.Index)
			} else {
				tally.take(res.Index)
			}
		}
		if rowErr != nil {
			failed++
			rep.fail(res.Index+1, rowErr)
			if failFast {
				break
			}
			continue
		}
		rep.prog.update(done)
	}
	return failed, done, stoppedAt, werr
}

// stopped is the error of a run that cause stopped before row at (from 1),
// having written written rows and failed failed in this run: it says how to
// resume, and wraps cause (an interrupted sets the exit status).
func stopped(cause error, at, written, failed int, out string, split bool) error {
	where := "standard output"
	resume := fmt.Sprintf("--skip %d", at-1)
	switch {
	case split:
		where = "the files of " + manifestName(out)
		resume += " and another --out"
	case out != "-":
		where = out
		resume += " --append"
	}
	return fmt.Errorf("rolemark batch: %w: stopped at row %d; rows before it are done (this run wrote %d lines to %s, %d rows failed); resume with %s",
		cause, at, written, where, failed, resume)
}

// createOutput creates the file of --out, or opens it for appending. A
// file to append to must end with a whole line, as a run stopped by a
// signal leaves it: appending to a line cut short would join two rows.
func createOutput(name string, appendTo bool) (*os.File, error) {
	if !appendTo {
		return os.Create(name)
	}
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o666)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, st.Size()-1); err != nil || last[0] != '\n' {
			f.Close()
			return nil, fmt.Errorf("%s does not end with a whole line; --append would join a row to it", name)
		}
	}
	return f, nil
}

// inputKind chooses the input format from the flag or the file extension.
func inputKind(name, flagValue string) (string, error) {
	if flagValue != "" {
		switch flagValue {
		case "jsonl", "json", "csv", "parquet":
			return flagValue, nil
		}
		return "", usageErr("unknown --in-format %q; known: jsonl, json, csv, parquet", flagValue)
	}
	if name == "-" {
		return "jsonl", nil
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".jsonl", ".ndjson":
		return "jsonl", nil
	case ".json":
		return "json", nil
	case ".csv":
		return "csv", nil
	case ".parquet":
		return "parquet", nil
	}
	return "", usageErr("cannot tell the format of %s from its extension; pass --in-format jsonl, json, csv or parquet", name)
}

// openInput opens the rows' file, or standard input for "-"; size is the
// file's size, or -1 when unknown.
func openInput(name string, stdin io.Reader) (io.Reader, int64, func(), error) {
	if name == "-" {
		return stdin, -1, func() {}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, 0, nil, err
	}
	size := int64(-1)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	return f, size, func() { f.Close() }, nil
}

func readRows(kind string, r io.Reader, name string, csvOpts ...batch.CSVOption) (iter.Seq[batch.Row], error) {
	switch kind {
	case "json":
		return batch.JSONArray(r), nil
	case "csv":
		return batch.CSV(r, csvOpts...), nil
	case "parquet":
		return parquetRows(r, name)
	}
	return batch.JSONLines(r), nil
}

// prepareRow returns what the workers do to each row before rendering:
// type CSV values by the template's declared inputs (as render does for
// --var) and take the row's history out of its fields; nil when there is
// nothing to do.
func prepareRow(fm *engine.FrontMatter, kind, historyField string) func(batch.Row) batch.Row {
	if kind != "csv" && historyField == "" {
		return nil
	}
	return func(row batch.Row) batch.Row {
		if kind == "csv" {
			typeVars(fm, row.Vars, row.Vars)
		}
		if historyField != "" {
			row = row.HistoryFrom(historyField)
		}
		return row
	}
}

// batchOptions are the flags batchOutput reads.
type batchOptions struct {
	format, chatFormat, model, idField string
	rewriteIDs, allowSpecial           bool
	sftLast, sftEnd                    bool
	sftTokenizer                       string // a tokenizer.json: input_ids and assistant_masks
}

// batchOutput returns the output of --format, and for the batch formats
// the API whose rules their files follow.
func batchOutput(fm *engine.FrontMatter, o batchOptions, po *promptOptions) (batch.Append, *batchapi.API, error) {
	// A line carries the tools the front matter declares (or names); for a
	// template that has none, those of --tools, as render's formats show.
	var tools []chat.Tool
	if fm != nil {
		tools = fm.Tools
	}
	if len(tools) == 0 {
		var err error
		if tools, err = po.tools(nil); err != nil {
			return nil, nil, err
		}
	}
	if o.format != "sft" && (o.chatFormat != "" || o.sftLast || o.sftEnd || o.sftTokenizer != "") {
		return nil, nil, usageErr("--chat-format, --sft-last, --sft-end and --sft-tokenizer go with --format sft")
	}
	if (o.idField != "" || o.rewriteIDs) && o.format != "openai-batch" && o.format != "anthropic-batch" {
		return nil, nil, usageErr("--id-field and --rewrite-ids go with --format openai-batch and anthropic-batch")
	}
	chatFormat := o.format
	if o.format == "sft" {
		chatFormat = o.chatFormat
	}
	if err := po.check(chatFormat); err != nil {
		return nil, nil, err
	}
	switch o.format {
	case "openai":
		a, err := batch.Output(o.format, fm, batch.Tools(tools))
		return a, nil, err
	case "openai-batch", "anthropic-batch":
		return batchFileOutput(fm, o)
	case "sft":
		a, err := sftOutput(o, tools, po)
		return a, nil, err
	}
	a, err := promptOutput(o, tools, po)
	return a, nil, err
}

// batchFileOutput is batchOutput for a provider's batch file
// (openai-batch, anthropic-batch): its requests, with --model, --id-field
// and --rewrite-ids, and the API whose rules the file follows.
func batchFileOutput(fm *engine.FrontMatter, o batchOptions) (batch.Append, *batchapi.API, error) {
	var ro []batch.OutputOption
	if o.model != "" {
		ro = append(ro, batch.Model(o.model))
	}
	if o.idField != "" {
		ro = append(ro, batch.IDKey(o.idField))
	}
	if o.rewriteIDs {
		ro = append(ro, batch.RewriteIDs())
	}
	a, err := batch.Output(o.format, fm, ro...)
	api, _ := batchapi.ByName(o.format)
	return a, &api, err
}

// sftOutput is batchOutput for --format sft: whole conversations in
// --chat-format, as text or, with --sft-tokenizer, as token ids.
func sftOutput(o batchOptions, tools []chat.Tool, po *promptOptions) (batch.Append, error) {
	if o.chatFormat == "" {
		return nil, usageErr("--format sft needs --chat-format C, the model's chat format (rolemark formats lists them) or hf:FILE")
	}
	if po.noGen || po.cont {
		return nil, usageErr("--no-generation-prompt and --continue-final do not apply to --format sft, which writes whole conversations")
	}
	p, ok, err := loadPromptFormat(o.chatFormat, po.templateOptions()...)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, usageErr("unknown chat format %q; known: %s, hf:FILE", o.chatFormat, strings.Join(chatformat.Names(), ", "))
	}
	if o.sftTokenizer != "" {
		return sftTokens(p, o, tools, po)
	}
	so := []batch.OutputOption{batch.Tools(tools)}
	if o.sftLast {
		so = append(so, batch.LastOnly())
	}
	if o.sftEnd {
		so = append(so, batch.TurnEnds())
	}
	if o.allowSpecial {
		so = append(so, batch.AllowSpecialTokens())
	}
	if p.preset != nil && len(po.vars) > 0 {
		return nil, errPresetVars()
	}
	if p.tpl != nil {
		return batch.TemplateSFT(p.tpl, append(so, batch.Vars(po.vars))...)
	}
	return batch.SFT(p.preset, so...)
}

// promptOutput is batchOutput for a model's prompt (--format a chat
// format or hf:FILE): each row's prompt text.
func promptOutput(o batchOptions, tools []chat.Tool, po *promptOptions) (batch.Append, error) {
	p, ok, err := loadPromptFormat(o.format, po.templateOptions()...)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, usageErr("unknown format %q; known: openai, openai-batch, anthropic-batch, sft, %s, hf:FILE", o.format, strings.Join(chatformat.Names(), ", "))
	}
	if p.preset != nil && len(po.vars) > 0 {
		return nil, errPresetVars()
	}
	if p.preset != nil && !po.noGen && !po.cont {
		po := []batch.OutputOption{batch.Tools(tools)}
		if o.allowSpecial {
			po = append(po, batch.AllowSpecialTokens())
		}
		return batch.Prompt(p.preset, po...)
	}
	return hfPrompt(p, tools, po, o.allowSpecial), nil
}

// optionalString is a string flag that knows whether it was given, for
// flags whose empty value means something.
type optionalString struct {
	v   string
	set bool
}

func (o *optionalString) String() string { return o.v }

func (o *optionalString) Set(s string) error {
	o.v, o.set = s, true
	return nil
}

// kindOf is inputKind without its error, for checking flags.
func kindOf(name, flagValue string) string {
	k, _ := inputKind(name, flagValue)
	return k
}

// countingReader counts the bytes read through it, for the progress line.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// progress draws one line on a terminal: rows done, rows per second and,
// when the input's size is known, the estimated time left (from the bytes
// read so far). It draws nothing when standard error is not a terminal.
type progress struct {
	w     io.Writer
	on    bool
	size  int64
	in    *countingReader
	start time.Time
	last  time.Time
	drawn bool
}

func newProgress(w io.Writer, size int64, in *countingReader) *progress {
	p := &progress{w: w, size: size, in: in, start: time.Now()}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.on = true
		}
	}
	return p
}

func (p *progress) update(done int) {
	if !p.on {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last = now
	fmt.Fprintf(p.w, "\r\x1b[K%s", progressLine(done, now.Sub(p.start), p.in.n, p.size))
	p.drawn = true
}

func (p *progress) clear() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

func (p *progress) finish(done int) {
	if !p.on {
		return
	}
	p.clear()
	fmt.Fprintf(p.w, "%s\n", progressLine(done, time.Since(p.start), p.size, p.size))
}

// progressLine is the text of the progress line: rows, rows per second,
// and the time left when the input's size is known.
func progressLine(done int, elapsed time.Duration, read, size int64) string {
	rate := 0.0
	if s := elapsed.Seconds(); s > 0 {
		rate = float64(done) / s
	}
	line := fmt.Sprintf("%d rows  %.0f rows/s", done, rate)
	if size > 0 && read > 0 {
		pct := min(100*float64(read)/float64(size), 100)
		left := time.Duration(float64(elapsed) * float64(size-read) / float64(read)).Round(time.Second)
		line += fmt.Sprintf("  %3.0f%%  ETA %s", pct, left)
	}
	return line
}
