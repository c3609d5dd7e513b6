package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain lets a test run this package's main, in a process of its own, to
// send it signals: ROLEMARK_RUN_MAIN=1 makes the test binary rolemark.
func TestMain(m *testing.M) {
	if os.Getenv("ROLEMARK_RUN_MAIN") == "1" {
		os.Args = append(os.Args[:1], strings.Fields(os.Getenv("ROLEMARK_ARGS"))...)
		main()
		return
	}
	os.Exit(m.Run())
}

// questions is n rows of JSON Lines; every row whose number (from 1) is a
// multiple of failEvery, when > 0, lacks its question and fails.
func questions(n, failEvery int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if failEvery > 0 && i%failEvery == 0 {
			fmt.Fprintf(&b, "{\"id\": \"r%d\"}\n", i)
			continue
		}
		fmt.Fprintf(&b, "{\"id\": \"r%d\", \"q\": \"question %d %s\"}\n", i, i, strings.Repeat("x", 100))
	}
	return b.String()
}

// cancelAfter is a reader that cancels a run, with cause, once it has
// handed out n bytes, and goes on reading.
type cancelAfter struct {
	r      io.Reader
	n      int
	cancel context.CancelCauseFunc
	cause  error
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	if c.n <= 0 {
		c.cancel(c.cause)
	} else if len(p) > c.n {
		p = p[:c.n]
	}
	n, err := c.r.Read(p)
	c.n -= n
	return n, err
}

var stoppedLine = regexp.MustCompile(`^rolemark batch: interrupted by (SIGINT|SIGTERM): stopped at row (\d+); rows before it are done \(this run wrote (\d+) lines to (.+), (\d+) rows failed\); resume with --skip (\d+)( --append)?\n$`)

// checkStopped checks a run that a signal stopped: the exit status, the
// summary, and that the output is whole lines, one for each row before the
// row it stopped at that did not fail. It returns that row's number.
func checkStopped(t *testing.T, code int, sig, errOut, out string, failEvery int) int {
	t.Helper()
	wantCode := map[string]int{"SIGINT": 130, "SIGTERM": 143}[sig]
	require.Equal(t, wantCode, code, errOut)
	lines := strings.Split(errOut, "\n")
	summary := lines[len(lines)-2] + "\n"
	m := stoppedLine.FindStringSubmatch(summary)
	require.NotNil(t, m, "the summary: %q", summary)
	assert.Equal(t, sig, m[1])
	at, _ := strconv.Atoi(m[2])
	written, _ := strconv.Atoi(m[3])
	failed, _ := strconv.Atoi(m[5])
	skip, _ := strconv.Atoi(m[6])
	assert.Equal(t, at-1, skip)
	assert.Equal(t, (at-1)/failEvery, failed, "rows that failed before row %d", at)
	assert.Equal(t, len(lines)-2, failed, "one line on standard error per failed row, then the summary")
	assert.Equal(t, at-1-failed, written)
	assert.True(t, out == "" || strings.HasSuffix(out, "\n"), "the output ends with a whole line")
	got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if out == "" {
		got = nil
	}
	require.Len(t, got, written)
	for i, l := range got {
		require.True(t, strings.HasSuffix(l, `}}`), "line %d is whole: %q", i+1, l)
	}
	return at
}

// TestBatchInterrupted stops a run the way SIGINT and SIGTERM do (main's
// context, cancelled with the signal as its cause), then resumes it with
// the --skip and --append the summary gives: the two runs write what one
// run writes.
func TestBatchInterrupted(t *testing.T) {
	const n, failEvery = 4000, 7
	in := questions(n, failEvery)
	dir := t.TempDir()
	args := func(out string, extra ...string) []string {
		return append([]string{"batch", "--in", "-", "--out", out, "--format", "openai-batch", "--id-field", "id", "--workers", "2"},
			append(extra, "testdata/batch/ask.hbs")...)
	}
	whole := filepath.Join(dir, "whole.jsonl")
	var errb bytes.Buffer
	require.Equal(t, 1, run(context.Background(), args(whole), strings.NewReader(in), io.Discard, &errb))
	want, err := os.ReadFile(whole)
	require.NoError(t, err)

	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(signalName(sig), func(t *testing.T) {
			out := filepath.Join(dir, signalName(sig)+".jsonl")
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			src := &cancelAfter{r: strings.NewReader(in), n: len(in) / 3, cancel: cancel, cause: interrupted{sig}}
			var errb bytes.Buffer
			code := run(ctx, args(out), src, io.Discard, &errb)
			got, err := os.ReadFile(out)
			require.NoError(t, err)
			at := checkStopped(t, code, signalName(sig), errb.String(), string(got), failEvery)
			assert.Less(t, at, n, "stopped before the end")

			errb.Reset()
			code = run(context.Background(), args(out, "--skip", strconv.Itoa(at-1), "--append"), strings.NewReader(in), io.Discard, &errb)
			assert.Equal(t, 1, code)
			assert.Contains(t, errb.String(), fmt.Sprintf("-:%d: ", (at/failEvery+1)*failEvery), "the first failure after the skipped rows keeps its number")
			got, err = os.ReadFile(out)
			require.NoError(t, err)
			assert.True(t, bytes.Equal(want, got), "the stopped run and its resumption write what one run writes")
		})
	}
}

// TestBatchSignal sends real signals to rolemark batch reading a pipe that
// stays open: the run stops at once, with whole lines and the summary.
func TestBatchSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the test binary as rolemark")
	}
	const failEvery = 7
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(signalName(sig), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.jsonl")
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), "ROLEMARK_RUN_MAIN=1",
				"ROLEMARK_ARGS=batch --in - --out "+out+" --format openai-batch --workers 2 testdata/batch/ask.hbs")
			stdin, err := cmd.StdinPipe()
			require.NoError(t, err)
			var errb bytes.Buffer
			cmd.Stderr = &errb
			require.NoError(t, cmd.Start())
			// More than a pipe holds: once written, rolemark is reading,
			// so its handler is in place.
			_, err = io.WriteString(stdin, questions(3000, failEvery))
			require.NoError(t, err)
			require.NoError(t, cmd.Process.Signal(sig))
			var once sync.Once
			defer once.Do(func() { stdin.Close() })
			err = cmd.Wait()
			once.Do(func() { stdin.Close() })
			code := cmd.ProcessState.ExitCode()
			require.Error(t, err)
			got, err := os.ReadFile(out)
			require.NoError(t, err)
			checkStopped(t, code, signalName(sig), errb.String(), string(got), failEvery)
		})
	}
}
