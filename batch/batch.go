package batch

import (
	"context"
	"fmt"
	"iter"
	"runtime"
	"sync"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
)

// Row is one input of a batch: a template's variables and, optionally, the
// prior conversation that {{history}} inserts.
type Row struct {
	Vars map[string]any
	// JSON, when Vars is nil, is a JSON object holding the variables, which
	// Decode turns into Vars. JSONLines and JSONArray give rows this way so
	// that decoding runs in the workers, in parallel, rather than in the
	// one goroutine that reads the rows.
	JSON    []byte
	History []chat.Message
	// Err is a problem reading the row (a malformed line, say). The row is
	// not rendered; its Result carries the error.
	Err error
}

// Result is the outcome of one row, in input order.
type Result[T any] struct {
	// Index is the row's position in the input, from 0.
	Index int
	// Value is the row's output. It is the zero value when Err is set.
	Value T
	// Err is a *RowError when the row failed, or the context's error for
	// the first row left undone when the context was cancelled.
	Err error
}

// RowError is the failure of one row. Row is its 1-based number in the
// input.
type RowError struct {
	Row int
	Err error
}

func (e *RowError) Error() string { return fmt.Sprintf("row %d: %v", e.Row, e.Err) }

// Unwrap returns the row's underlying error.
func (e *RowError) Unwrap() error { return e.Err }

// Option configures a batch run.
type Option func(*settings)

type settings struct {
	workers   int
	window    int
	stopOnErr bool
	prepare   func(Row) Row
}

// Workers sets how many rows are rendered at once; n < 1 means
// runtime.NumCPU(), the default.
func Workers(n int) Option { return func(s *settings) { s.workers = n } }

// Window sets how many rows may be read ahead of the one the caller is
// waiting for; together with the workers it bounds the rows held in memory.
// The default, and the least, is four times the workers.
func Window(n int) Option { return func(s *settings) { s.window = n } }

// StopOnError ends the run at the first row that fails: its result is the
// last one yielded. By default a failed row is reported in its Result and
// the run goes on.
func StopOnError() Option { return func(s *settings) { s.stopOnErr = true } }

// Prepare runs fn on every row in the workers, after Decode and before
// rendering: to type values or to take a history out of a field
// (Row.HistoryFrom), say. A row whose Err fn sets fails.
func Prepare(fn func(Row) Row) Option { return func(s *settings) { s.prepare = fn } }

// Render renders tpl for every row of rows and yields the messages of each
// row in input order. See RenderFunc.
func Render(ctx context.Context, tpl *engine.Template, rows iter.Seq[Row], opts ...Option) iter.Seq[Result[[]chat.Message]] {
	return RenderFunc(ctx, tpl, rows, func(_ context.Context, _ int, _ Row, msgs []chat.Message) ([]chat.Message, error) {
		return msgs, nil
	}, opts...)
}

// Convert turns the messages of one row into the output the caller wants;
// it runs in the workers, beside the rendering. index is the row's position
// from 0.
type Convert[T any] func(ctx context.Context, index int, row Row, msgs []chat.Message) (T, error)

// RenderFunc renders tpl for every row of rows on a bounded number of
// workers, passes each row's messages through convert and yields the
// results in input order, as they become ready. At most the window's rows
// (see Window) are held at a time, so rows may come from a source far
// larger than memory. A row that fails (reading, rendering or converting)
// yields a Result whose Err is a *RowError naming the row, and the run goes
// on unless StopOnError is given. When ctx is cancelled, the sequence ends
// with a Result for the first row not yielded whose Err is ctx.Err().
// Breaking out of the loop stops the run; rows is then not advanced again.
func RenderFunc[T any](ctx context.Context, tpl *engine.Template, rows iter.Seq[Row], convert Convert[T], opts ...Option) iter.Seq[Result[T]] {
	s := settings{}
	for _, o := range opts {
		o(&s)
	}
	if s.workers < 1 {
		s.workers = runtime.NumCPU()
	}
	s.window = max(s.window, 4*s.workers)
	return func(yield func(Result[T]) bool) {
		run(ctx, tpl, rows, convert, s, yield)
	}
}

type job[T any] struct {
	index int
	row   Row
	out   chan Result[T]
}

func run[T any](parent context.Context, tpl *engine.Template, rows iter.Seq[Row], convert Convert[T], s settings, yield func(Result[T]) bool) {
	ctx, cancel := context.WithCancel(parent)
	// pending holds each row's result channel in input order; its capacity
	// is the window, so the reader waits when the caller falls behind. A job
	// is queued only after its channel, and the caller holds at most one
	// channel taken out of pending, so jobs never holds more than window+1.
	pending := make(chan chan Result[T], s.window)
	jobs := make(chan job[T], s.window+1)
	free := make(chan chan Result[T], s.window+s.workers+1)

	go func() { // the reader: the only goroutine that advances rows
		defer close(pending)
		i := 0
		for row := range rows {
			var out chan Result[T]
			select {
			case out = <-free:
			default:
				out = make(chan Result[T], 1)
			}
			if ctx.Err() != nil {
				return
			}
			select {
			case pending <- out:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- job[T]{index: i, row: row, out: out}:
			case <-ctx.Done():
				return
			}
			i++
		}
	}()

	var wg sync.WaitGroup
	for range s.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case j := <-jobs:
					j.out <- do(ctx, tpl, convert, s.prepare, j)
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	// On the way out, stop the workers and wait for them; the reader is not
	// waited for, since it may be blocked in the source: it returns at the
	// next row the source yields.
	defer wg.Wait()
	defer cancel()

	for next := 0; ; next++ {
		var out chan Result[T]
		var more bool
		select {
		case out, more = <-pending:
		case <-parent.Done():
		}
		if parent.Err() != nil {
			yield(Result[T]{Index: next, Err: parent.Err()})
			return
		}
		if !more {
			return
		}
		var r Result[T]
		select {
		case r = <-out:
		case <-parent.Done():
		}
		if parent.Err() != nil {
			yield(Result[T]{Index: next, Err: parent.Err()})
			return
		}
		select {
		case free <- out:
		default:
		}
		if !yield(r) || (r.Err != nil && s.stopOnErr) {
			return
		}
	}
}

// do renders and converts one row for a worker.
func do[T any](ctx context.Context, tpl *engine.Template, convert Convert[T], prepare func(Row) Row, j job[T]) Result[T] {
	if err := ctx.Err(); err != nil {
		return Result[T]{Index: j.index, Err: err}
	}
	row := j.row.Decode()
	if prepare != nil && row.Err == nil {
		row = prepare(row)
	}
	v, err := RenderOne(ctx, tpl, j.index, row, convert)
	if err != nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return Result[T]{Index: j.index, Value: v, Err: err}
}

// RenderOne renders one row and converts its messages, as the workers of
// RenderFunc do, for a caller that runs rows one at a time (a Beam DoFn, say);
// index is the row's position from 0. The row is decoded first (Decode). An
// error is a *RowError; a panic in convert comes back as one.
func RenderOne[T any](ctx context.Context, tpl *engine.Template, index int, row Row, convert Convert[T]) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = *new(T), &RowError{Row: index + 1, Err: fmt.Errorf("panic: %v", p)}
		}
	}()
	row = row.Decode()
	if row.Err != nil {
		return v, &RowError{Row: index + 1, Err: row.Err}
	}
	var opts []engine.RenderOption
	if row.History != nil {
		opts = append(opts, engine.History(row.History))
	}
	msgs, err := tpl.Messages(ctx, row.Vars, opts...)
	if err != nil {
		return v, &RowError{Row: index + 1, Err: err}
	}
	if v, err = convert(ctx, index, row, msgs); err != nil {
		return *new(T), &RowError{Row: index + 1, Err: err}
	}
	return v, nil
}
