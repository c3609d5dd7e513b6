package batch

import (
	"context"
	"fmt"
	"iter"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/scratch"
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
	// ownJSON says that JSON is the row's own memory, which no one else
	// writes (JSONLines and JSONArray read each row into memory of its
	// own): Decode's strings then share it rather than a copy. Decode never
	// writes JSON, so a row decodes to the same values every time.
	ownJSON bool
	// line is the line of the input JSON begins on (1-based; 0 when not
	// known), for the place of a syntax error (JSONError).
	line int
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
	skip      int
}

// Workers sets how many rows are rendered at once; n < 1 means
// runtime.NumCPU(), the default.
func Workers(n int) Option { return func(s *settings) { s.workers = n } }

// Window sets how many rows may be read ahead of the one the caller is
// waiting for; together with the workers it bounds the rows held in memory.
// The default is 256 rows per worker, the least 4 per worker.
func Window(n int) Option { return func(s *settings) { s.window = n } }

// Skip passes over the first n rows of the input without rendering them:
// the run's first Result is row n's (Index n, numbered n+1 in a RowError),
// so that a run stopped at a row can be resumed from it with the numbers,
// and the custom_ids made from them, of the first run.
func Skip(n int) Option { return func(s *settings) { s.skip = max(n, 0) } }

// StopOnError ends the run at the first row that fails: its result is the
// last one yielded. By default a failed row is reported in its Result and
// the run goes on.
func StopOnError() Option { return func(s *settings) { s.stopOnErr = true } }

// Prepare runs fn on every row in the workers, after Decode and before
// rendering: to type values or to take a history out of a field
// (Row.HistoryFrom), say. A row whose Err fn sets fails.
func Prepare(fn func(Row) Row) Option { return func(s *settings) { s.prepare = fn } }

// Render renders tpl for every row of rows on a bounded number of workers
// and yields the messages of each row in input order, as they become
// ready; the messages are the caller's to keep. At most the window's rows
// (see Window) are held at a time, so rows may come from a source far
// larger than memory. A row that fails (reading or rendering) yields a
// Result whose Err is a *RowError naming the row, and the run goes on
// unless StopOnError is given. When ctx is cancelled, the sequence ends
// with a Result for the first row not yielded whose Err is ctx.Err().
// Breaking out of the loop stops the run; rows is then not advanced again.
func Render(ctx context.Context, tpl *engine.Template, rows iter.Seq[Row], opts ...Option) iter.Seq[Result[[]chat.Message]] {
	s := newSettings(opts)
	keep := func(_ context.Context, _ int, _ Row, msgs []chat.Message) ([]chat.Message, error) { return msgs, nil }
	return func(yield func(Result[[]chat.Message]) bool) {
		run(ctx, tpl, rows, func(*group[[]chat.Message]) rowFunc[[]chat.Message] { return keep }, s, yield)
	}
}

// rowFunc turns the messages of one row into a run's output; it runs in
// the workers, beside the rendering. index is the row's position from 0.
type rowFunc[T any] func(ctx context.Context, index int, row Row, msgs []chat.Message) (T, error)

// Append appends the output of one row, whose messages are msgs, to dst and
// returns the extended slice, as the built-in append does; it runs in the
// workers. index is the row's position from 0. When it fails, what it
// appended is dropped. Under RenderAppend, msgs and the strings in them are
// valid only until the Append returns: the run renders the next rows into
// the same memory (internal/scratch). An Append that keeps any of them must
// copy it (strings.Clone). The outputs of this package (OpenAI, OpenAIBatch,
// AnthropicBatch, Prompt, SFT, TemplateSFT, Output) are Appends; a caller
// may write its own.
type Append func(ctx context.Context, dst []byte, index int, row Row, msgs []chat.Message) ([]byte, error)

// maxKept is the capacity beyond which RenderAppend drops a group's buffer
// rather than keeping it for the next rows: a very long row does not hold
// its memory for the rest of the run.
const maxKept = 1 << 20

// RenderAppend is Render for an output that appends bytes (an Append, such
// as the JSON lines of Output): each row's messages go through a on the
// workers, and its output is appended to buffers that the run reuses,
// without an allocation per row. A Result's Value is valid only until the
// body of the loop that receives it returns (until the sequence's yield
// returns); after that the run may write other rows' output over it. Copy
// it (bytes.Clone, or write it out) to keep it. Its capacity is its length,
// so appending to it copies rather than overwriting the next row.
func RenderAppend(ctx context.Context, tpl *engine.Template, rows iter.Seq[Row], a Append, opts ...Option) iter.Seq[Result[[]byte]] {
	s := newSettings(opts)
	return func(yield func(Result[[]byte]) bool) {
		run(ctx, tpl, rows, func(g *group[[]byte]) rowFunc[[]byte] {
			g.reuse = &memory{}
			return func(ctx context.Context, index int, row Row, msgs []chat.Message) ([]byte, error) {
				start := len(g.buf)
				b, err := a(ctx, g.buf, index, row, msgs)
				if err != nil {
					return nil, err
				}
				g.buf = b
				return b[start:len(b):len(b)], nil
			}
		}, s, yield)
	}
}

func newSettings(opts []Option) settings {
	s := settings{}
	for _, o := range opts {
		o(&s)
	}
	if s.workers < 1 {
		s.workers = runtime.NumCPU()
	}
	if s.window == 0 {
		s.window = 256 * s.workers
	}
	s.window = max(s.window, 4*s.workers)
	return s
}

// group is rows handed to a worker at once, with their results. Rows go in
// groups so that a row costs the goroutines a small share of one hand-off.
type group[T any] struct {
	index   int // of the first row
	rows    []Row
	results []Result[T]
	done    chan struct{} // receives when results are complete
	// convert is the run's rowFunc for this group's rows; RenderAppend's
	// appends to buf, which holds the outputs of the group's rows.
	convert rowFunc[T]
	buf     []byte
	// reuse, for RenderAppend, is the memory the group's rows are
	// rendered in, one after the other (see Append).
	reuse *memory
	// text holds the text of the group's rows that Decode writes.
	text arena
}

// memory is memory that renders reuse (internal/scratch), with the
// context that carries it, made for the context of the run.
type memory struct {
	mem         driver.Memory
	ctx, parent context.Context
}

// run is Render and RenderAppend: convertFor gives each group its
// rowFunc, once, when the group is made (groups are reused). One goroutine
// reads the rows into groups (pipeline.read), s.workers render them
// (pipeline.work), and the caller's goroutine yields the results in input
// order (pipeline.deliver).
func run[T any](parent context.Context, tpl *engine.Template, rows iter.Seq[Row], convertFor func(*group[T]) rowFunc[T], s settings, yield func(Result[T]) bool) {
	ctx, cancel := context.WithCancel(parent)
	// A group holds up to size rows; with the default window, 64, so that
	// each worker has four groups to go at.
	size := max(1, s.window/(4*s.workers))
	p := &pipeline[T]{
		ctx: ctx, parent: parent, tpl: tpl, s: s, convertFor: convertFor, size: size,
		room:    make(chan struct{}, 1),
		window:  int64(s.window),
		pending: make(chan *group[T], s.window),
		jobs:    make(chan *group[T], s.window+1),
		free:    make(chan *group[T], s.window/size+s.workers+2),
	}
	go p.read(rows)
	var wg sync.WaitGroup
	for range s.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.work()
		}()
	}
	// On the way out, stop the workers and wait for them; the reader is not
	// waited for, since it may be blocked in the source: it returns at the
	// next row the source yields.
	defer wg.Wait()
	defer cancel()
	p.deliver(yield)
}

// pipeline is the state a run's reader, workers and caller share.
type pipeline[T any] struct {
	ctx, parent context.Context // ctx is cancelled when the run ends
	tpl         *engine.Template
	s           settings
	convertFor  func(*group[T]) rowFunc[T]
	size        int // the rows of a full group
	// held counts the rows read and not yet yielded: the reader waits, for
	// a signal on room, while it is a window, so it never gets more than a
	// window ahead of the caller. The caller signals room when it takes
	// held below a window. pending holds the groups in input order, each
	// of at least one row, so it and jobs never hold more groups than the
	// window has rows. free holds groups to reuse.
	held                atomic.Int64
	room                chan struct{}
	window              int64
	pending, jobs, free chan *group[T]
	// partial is the group the reader is filling. It goes to the workers
	// when it is full, when a worker is idle, or when the rows end; a
	// worker that runs out of work takes it as it is. So a row never waits
	// for the next one while a worker could render it, and a source that
	// waits for a row's result before it yields the next is served.
	mu      sync.Mutex
	partial *group[T]
	idle    int // workers waiting for a group
}

// read is the reader: the only goroutine that advances rows.
func (p *pipeline[T]) read(rows iter.Seq[Row]) {
	defer close(p.pending)
	i := 0
	for row := range rows {
		if p.ctx.Err() != nil {
			return
		}
		if i < p.s.skip {
			i++
			continue
		}
		if !p.waitRoom() {
			return
		}
		p.held.Add(1)
		p.mu.Lock()
		if p.partial == nil {
			p.mu.Unlock()
			g, ok := p.newGroup(i)
			if !ok {
				return
			}
			p.mu.Lock()
			p.partial = g
		}
		g := p.partial
		g.rows = append(g.rows, row)
		i++
		if len(g.rows) < p.size && (p.idle == 0 || len(p.jobs) > 0) {
			p.mu.Unlock()
			continue
		}
		p.partial = nil
		p.mu.Unlock()
		p.jobs <- g // never blocks: see held
	}
	p.mu.Lock()
	g := p.partial
	p.partial = nil
	p.mu.Unlock()
	if g != nil {
		p.jobs <- g
	}
}

// waitRoom waits while the reader is a window ahead of the caller; false
// when the run ends first.
func (p *pipeline[T]) waitRoom() bool {
	for p.held.Load() >= p.window {
		select {
		case <-p.room: // held fell below a window; look again
		case <-p.ctx.Done():
			return false
		}
	}
	return true
}

// newGroup returns an empty group, reused or made, for the rows from
// index on, queued in pending; false when the run ends first.
func (p *pipeline[T]) newGroup(index int) (*group[T], bool) {
	var g *group[T]
	select {
	case g = <-p.free:
	default:
		g = &group[T]{rows: make([]Row, 0, p.size), results: make([]Result[T], 0, p.size), done: make(chan struct{}, 1)}
		g.convert = p.convertFor(g)
	}
	g.index = index
	select {
	case p.pending <- g:
		return g, true
	case <-p.ctx.Done():
		return nil, false
	}
}

// work is a worker: it renders groups until the run ends.
func (p *pipeline[T]) work() {
	for {
		g := p.take()
		if g == nil {
			return
		}
		for k, row := range g.rows {
			g.results = append(g.results, do(p.ctx, p.tpl, g.convert, g.reuse, &g.text, p.s.prepare, g.index+k, row))
		}
		g.done <- struct{}{}
	}
}

// take returns the next group for a worker: a queued one, else the one the
// reader is filling, else the next one queued; nil when the run ends.
func (p *pipeline[T]) take() *group[T] {
	select {
	case g := <-p.jobs:
		return g
	default:
	}
	p.mu.Lock()
	g := p.partial
	p.partial = nil
	if g == nil {
		p.idle++
	}
	p.mu.Unlock()
	if g != nil {
		return g
	}
	select {
	case g = <-p.jobs:
	case <-p.ctx.Done():
	}
	p.mu.Lock()
	p.idle--
	p.mu.Unlock()
	return g
}

// deliver yields the results in input order, as the groups complete,
// until the rows end, yield returns false, an error stops the run
// (StopOnError) or the caller's context ends it (a last result with its
// error).
func (p *pipeline[T]) deliver(yield func(Result[T]) bool) {
	next := p.s.skip
	stop := func() bool { // reports the cancellation of parent, if any
		if p.parent.Err() == nil {
			return false
		}
		yield(Result[T]{Index: next, Err: p.parent.Err()})
		return true
	}
	for {
		var g *group[T]
		var more bool
		select {
		case g, more = <-p.pending:
		case <-p.parent.Done():
		}
		if stop() || !more {
			return
		}
		select {
		case <-g.done:
		case <-p.parent.Done():
			// A worker may still be appending to g.results: leave them.
			stop()
			return
		}
		for _, r := range g.results {
			if stop() {
				return
			}
			next++
			if !yield(r) || (r.Err != nil && p.s.stopOnErr) {
				return
			}
			if p.held.Add(-1) == p.window-1 {
				select {
				case p.room <- struct{}{}:
				default: // a signal is waiting already
				}
			}
		}
		p.recycle(g)
	}
}

// recycle empties a group whose results are yielded and keeps it for the
// reader to reuse, when there is room.
func (p *pipeline[T]) recycle(g *group[T]) {
	clear(g.rows)
	clear(g.results)
	g.rows, g.results = g.rows[:0], g.results[:0]
	if g.buf = g.buf[:0]; cap(g.buf) > maxKept {
		g.buf = nil
	}
	select {
	case p.free <- g:
	default:
	}
}

// do renders and converts one row for a worker.
func do[T any](ctx context.Context, tpl *engine.Template, convert rowFunc[T], reuse *memory, text *arena, prepare func(Row) Row, index int, row Row) Result[T] {
	if err := ctx.Err(); err != nil {
		return Result[T]{Index: index, Err: err}
	}
	row = row.decode(text)
	if prepare != nil && row.Err == nil {
		row = prepare(row)
	}
	v, err := renderOne(ctx, tpl, index, row, convert, reuse)
	if err != nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return Result[T]{Index: index, Value: v, Err: err}
}

// RenderOne renders one row and appends its output, as a writes it, to
// dst, as the workers of RenderAppend do, for a caller that runs rows one
// at a time (a Beam DoFn, say); index is the row's position from 0. The
// row is decoded first (Decode). An error is a *RowError (a panic in a
// comes back as one), with a nil slice.
func RenderOne(ctx context.Context, tpl *engine.Template, dst []byte, index int, row Row, a Append) ([]byte, error) {
	return renderOne(ctx, tpl, index, row, func(ctx context.Context, index int, row Row, msgs []chat.Message) ([]byte, error) {
		return a(ctx, dst, index, row, msgs)
	}, nil)
}

// renderOne is RenderOne, rendering in reuse's memory when it is not nil.
// When the row fails, that memory is left to the error, which may share
// it, and reuse starts afresh.
func renderOne[T any](ctx context.Context, tpl *engine.Template, index int, row Row, convert rowFunc[T], reuse *memory) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = *new(T), &RowError{Row: index + 1, Err: fmt.Errorf("panic: %v", p)}
		}
		if err != nil && reuse != nil {
			reuse.mem = driver.Memory{}
		}
	}()
	row = row.Decode()
	if row.Err != nil {
		return v, &RowError{Row: index + 1, Err: row.Err}
	}
	var obuf [1]engine.RenderOption
	opts := obuf[:0]
	if row.History != nil {
		opts = append(opts, engine.History(row.History))
	}
	rctx := ctx // convert gets ctx, which carries no memory to render into
	if reuse != nil {
		if reuse.parent != ctx {
			reuse.ctx, reuse.parent = scratch.With(ctx, &reuse.mem), ctx
		}
		rctx = reuse.ctx
	}
	msgs, err := tpl.Messages(rctx, row.Vars, opts...)
	if err != nil {
		return v, &RowError{Row: index + 1, Err: err}
	}
	if v, err = convert(ctx, index, row, msgs); err != nil {
		return *new(T), &RowError{Row: index + 1, Err: err}
	}
	return v, nil
}
