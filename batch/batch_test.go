package batch_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/batch"
	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
)

func parse(t testing.TB, engineName, src string) *engine.Template {
	t.Helper()
	tpl, err := engine.NewSet(handlebars.New(), jinja.New(), gotmpl.New()).Parse(engineName, "t", src)
	require.NoError(t, err)
	return tpl
}

// numbered yields n rows {"n": i}; every row whose number is a multiple of
// failEvery (when > 0) lacks n.
func numbered(n, failEvery int, pulled *atomic.Int64) iter.Seq[batch.Row] {
	return func(yield func(batch.Row) bool) {
		for i := 0; n < 0 || i < n; i++ {
			if pulled != nil {
				pulled.Add(1)
			}
			vars := map[string]any{"n": i}
			if failEvery > 0 && (i+1)%failEvery == 0 {
				vars = map[string]any{}
			}
			if !yield(batch.Row{Vars: vars}) {
				return
			}
		}
	}
}

// jitter makes workers finish out of order.
func jitter(_ context.Context, b []byte, index int, _ batch.Row, msgs []chat.Message) ([]byte, error) {
	if index%5 == 0 {
		time.Sleep(time.Duration(index%7) * 100 * time.Microsecond)
	}
	return append(b, msgs[0].Text()...), nil
}

func TestOrderWithManyWorkers(t *testing.T) {
	tpl := parse(t, "handlebars", `{{role "user"}}row {{n}}`)
	for _, workers := range []int{1, 2, 7, 32} {
		t.Run(fmt.Sprint(workers), func(t *testing.T) {
			const n = 3000
			got := 0
			for res := range batch.RenderAppend(context.Background(), tpl, numbered(n, 11, nil), jitter, batch.Workers(workers)) {
				require.Equal(t, got, res.Index)
				if (got+1)%11 == 0 {
					var re *batch.RowError
					require.ErrorAs(t, res.Err, &re)
					assert.Equal(t, got+1, re.Row)
					assert.Equal(t, fmt.Sprintf(`row %d: t:1:22: variable "n" is not supplied`, got+1), res.Err.Error())
					var ee *engine.Error
					assert.ErrorAs(t, res.Err, &ee, "the engine's error is reachable")
				} else {
					require.NoError(t, res.Err)
					assert.Equal(t, fmt.Sprintf("row %d", got), string(res.Value))
				}
				got++
			}
			assert.Equal(t, n, got)
		})
	}
}

func TestStopOnError(t *testing.T) {
	tpl := parse(t, "handlebars", `{{role "user"}}row {{n}}`)
	var idx []int
	for res := range batch.Render(context.Background(), tpl, numbered(100, 10, nil), batch.Workers(4), batch.StopOnError()) {
		idx = append(idx, res.Index)
		if res.Index == 9 {
			assert.Error(t, res.Err)
		}
	}
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, idx)
}

func TestBoundedReadAhead(t *testing.T) {
	tpl := parse(t, "handlebars", `{{role "user"}}row {{n}}`)
	var pulled atomic.Int64
	before := runtime.NumGoroutine()
	seen := 0
	for res := range batch.Render(context.Background(), tpl, numbered(-1, 0, &pulled), batch.Workers(3), batch.Window(5)) {
		require.NoError(t, res.Err)
		seen++
		time.Sleep(time.Millisecond) // a slow consumer
		if seen == 50 {
			break
		}
	}
	// The window is at least 4 per worker (12): the source is never more
	// than the window, one row in the caller's hands and one in the
	// reader's ahead.
	assert.LessOrEqual(t, pulled.Load(), int64(50+12+2))
	// (a loop, not assert.Eventually, which counts as a goroutine itself)
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before, "no goroutine outlives the loop")
}

func TestCancel(t *testing.T) {
	tpl := parse(t, "handlebars", `{{role "user"}}row {{n}}`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var last batch.Result[[]chat.Message]
	n := 0
	for res := range batch.Render(ctx, tpl, numbered(-1, 0, nil), batch.Workers(2)) {
		last = res
		n++
		if n == 20 {
			cancel()
		}
	}
	assert.True(t, errors.Is(last.Err, context.Canceled), "the last result carries the context's error: %v", last.Err)
	assert.Equal(t, 20, last.Index, "for the first row not yielded")
	assert.Equal(t, 21, n)
}

// TestSkip checks that a run resumed with Skip numbers its rows as the
// first run did, and that its cancellation names the row by that number.
func TestSkip(t *testing.T) {
	tpl := parse(t, "handlebars", `{{role "user"}}row {{n}}`)
	var idx []int
	var texts []string
	for res := range batch.Render(context.Background(), tpl, numbered(10, 4, nil), batch.Workers(2), batch.Skip(6)) {
		idx = append(idx, res.Index)
		if res.Err != nil {
			texts = append(texts, res.Err.Error())
			continue
		}
		texts = append(texts, res.Value[0].Text())
	}
	assert.Equal(t, []int{6, 7, 8, 9}, idx)
	assert.Equal(t, []string{"row 6", `row 8: t:1:22: variable "n" is not supplied`, "row 8", "row 9"}, texts)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var last batch.Result[[]chat.Message]
	for res := range batch.Render(ctx, tpl, numbered(-1, 0, nil), batch.Workers(2), batch.Skip(100)) {
		if last = res; res.Index == 104 {
			cancel()
		}
	}
	assert.True(t, errors.Is(last.Err, context.Canceled), "%v", last.Err)
	assert.Equal(t, 105, last.Index, "the first row not yielded, numbered as in the input")
}

func TestCancelledBeforeStart(t *testing.T) {
	tpl := parse(t, "handlebars", `{{role "user"}}row {{n}}`)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var got []error
	for res := range batch.Render(ctx, tpl, numbered(10, 0, nil)) {
		got = append(got, res.Err)
	}
	assert.Equal(t, []error{context.Canceled}, got)
}

func TestRowErrorsAndPanics(t *testing.T) {
	tpl := parse(t, "handlebars", `{{role "user"}}row {{n}}`)
	rows := func(yield func(batch.Row) bool) {
		_ = yield(batch.Row{Vars: map[string]any{"n": 1}}) &&
			yield(batch.Row{Err: errors.New("bad line")}) &&
			yield(batch.Row{Vars: map[string]any{"n": "boom"}}) &&
			yield(batch.Row{Vars: map[string]any{"n": 4}, History: []chat.Message{chat.Text(chat.RoleAssistant, "earlier")}})
	}
	convert := func(_ context.Context, b []byte, _ int, row batch.Row, msgs []chat.Message) ([]byte, error) {
		if row.Vars["n"] == "boom" {
			panic("kaboom")
		}
		for _, m := range msgs {
			b = append(b, string(m.Role)+":"+m.Text()+";"...)
		}
		return b, nil
	}
	var got []string
	for res := range batch.RenderAppend(context.Background(), tpl, rows, convert) {
		if res.Err != nil {
			got = append(got, res.Err.Error())
			continue
		}
		got = append(got, string(res.Value))
	}
	assert.Equal(t, []string{
		"user:row 1;",
		"row 2: bad line",
		"row 3: panic: kaboom",
		"assistant:earlier;user:row 4;",
	}, got)
}

func TestFromChannel(t *testing.T) {
	tpl := parse(t, "jinja", `{% user %}{{ n }}{% enduser %}`)
	ch := make(chan batch.Row)
	go func() {
		defer close(ch)
		for i := range 5 {
			ch <- batch.Row{Vars: map[string]any{"n": i}}
		}
	}()
	var got []string
	for res := range batch.Render(context.Background(), tpl, batch.FromChannel(ch), batch.Workers(3)) {
		require.NoError(t, res.Err)
		got = append(got, res.Value[0].Text())
	}
	assert.Equal(t, []string{"0", "1", "2", "3", "4"}, got)
}

func TestPrepareRunsAfterDecode(t *testing.T) {
	tpl := parse(t, "handlebars", `{{role "user"}}{{n}} {{extra}}`)
	rows := batch.JSONLines(strings.NewReader("{\"n\": 1}\n{\"n\": 2}\n{\"n\": 3}\n[]\n"))
	prep := batch.Prepare(func(r batch.Row) batch.Row {
		if r.Vars["n"] == 2 { // an int: the row writes an integer
			r.Err = errors.New("two is refused")
			return r
		}
		r.Vars["extra"] = "ok"
		return r
	})
	var got []string
	for res := range batch.Render(context.Background(), tpl, rows, prep, batch.Workers(2)) {
		if res.Err != nil {
			got = append(got, res.Err.Error())
			continue
		}
		got = append(got, res.Value[0].Text())
	}
	assert.Equal(t, []string{"1 ok", "row 2: two is refused", "3 ok", "row 4: a row must be a JSON object, not array"}, got)
}

// TestSourceWaitsForResults: a source that yields a few rows and then waits
// for the last one's result before it yields more (a client feeding rows
// through a channel, say) is served: no row waits for the next one while a
// worker is free.
func TestSourceWaitsForResults(t *testing.T) {
	tpl := parse(t, "handlebars", `{{role "user"}}row {{n}}`)
	for _, workers := range []int{1, 2, 5} {
		t.Run(fmt.Sprint(workers), func(t *testing.T) {
			const n, burst = 300, 3
			ch := make(chan batch.Row)
			ack := make(chan struct{})
			go func() {
				defer close(ch)
				for i := range n {
					ch <- batch.Row{Vars: map[string]any{"n": i}}
					if i%burst == burst-1 {
						<-ack
					}
				}
			}()
			done := make(chan int)
			go func() {
				got := 0
				for res := range batch.Render(context.Background(), tpl, batch.FromChannel(ch), batch.Workers(workers), batch.Window(64)) {
					if res.Err != nil || res.Index != got {
						break
					}
					got++
					if res.Index%burst == burst-1 {
						ack <- struct{}{}
					}
				}
				done <- got
			}()
			select {
			case got := <-done:
				assert.Equal(t, n, got)
			case <-time.After(20 * time.Second):
				t.Fatal("the run is stuck: a row is held back waiting for the next")
			}
		})
	}
}

// TestRenderAppendValuesLiveUntilTheNextRow holds each value while the
// workers go on appending other rows' outputs, and checks that it is not
// written over; under -race, a worker writing into a value in use is also
// a data race. Some rows fail after appending, and one row's output is long
// enough that its buffer is not kept.
func TestRenderAppendValuesLiveUntilTheNextRow(t *testing.T) {
	tpl := parse(t, "handlebars", `{{role "user"}}row {{n}}`)
	line := func(index int, text string) string {
		if index == 77 {
			text = strings.Repeat(text, 1<<18) // over 1 MB: its buffer is dropped
		}
		return fmt.Sprintf("%d:%s|", index, text)
	}
	out := func(_ context.Context, b []byte, index int, _ batch.Row, msgs []chat.Message) ([]byte, error) {
		if index%5 == 0 {
			time.Sleep(time.Duration(index%7) * 50 * time.Microsecond)
		}
		b = append(b, line(index, msgs[0].Text())...)
		if index%9 == 4 {
			return append(b, "garbage"...), errors.New("no")
		}
		return b, nil
	}
	const n = 3000
	i := 0
	for res := range batch.RenderAppend(context.Background(), tpl, numbered(n, 0, nil), out, batch.Workers(2), batch.Window(256)) {
		require.Equal(t, i, res.Index)
		if i%9 == 4 {
			require.EqualError(t, res.Err, fmt.Sprintf("row %d: no", i+1))
			require.Nil(t, res.Value)
			i++
			continue
		}
		require.NoError(t, res.Err)
		want := line(i, fmt.Sprintf("row %d", i))
		require.Equal(t, want, string(res.Value))
		require.Equal(t, len(res.Value), cap(res.Value))
		if i%10 == 0 {
			time.Sleep(200 * time.Microsecond) // the workers run ahead meanwhile
		} else {
			runtime.Gosched()
		}
		require.Equal(t, want, string(res.Value), "row %d written over while in use", i)
		i++
	}
	assert.Equal(t, n, i)
}

// TestRenderAppendMessagesInReusedMemory: under RenderAppend the rows'
// messages are rendered into memory the run reuses, so an Append sees each
// row's own messages; an error that holds a message's text keeps it after
// later rows are rendered (the failed row's memory is not reused).
func TestRenderAppendMessagesInReusedMemory(t *testing.T) {
	tpl := parse(t, "gotmpl", `{{role "system"}}Be brief.{{role "user"}}{{.q}}`)
	const n = 500
	rows := func(yield func(batch.Row) bool) {
		for i := range n {
			if !yield(batch.Row{Vars: map[string]any{"q": fmt.Sprintf("question %04d", i)}}) {
				return
			}
		}
	}
	out := func(_ context.Context, b []byte, index int, _ batch.Row, msgs []chat.Message) ([]byte, error) {
		if index%7 == 3 {
			return nil, errors.New(msgs[1].Text()) // shares the message's memory
		}
		return append(b, msgs[0].Text()+"|"+msgs[1].Text()+"\n"...), nil
	}
	var errs []error
	i := 0
	for res := range batch.RenderAppend(context.Background(), tpl, rows, out, batch.Workers(2), batch.Window(16)) {
		require.Equal(t, i, res.Index)
		if i%7 == 3 {
			require.Error(t, res.Err)
			errs = append(errs, res.Err)
		} else {
			require.NoError(t, res.Err)
			require.Equal(t, fmt.Sprintf("Be brief.|question %04d\n", i), string(res.Value))
		}
		i++
	}
	require.Equal(t, n, i)
	for k, err := range errs {
		require.EqualError(t, err, fmt.Sprintf("row %d: question %04d", 7*k+4, 7*k+3))
	}
}
