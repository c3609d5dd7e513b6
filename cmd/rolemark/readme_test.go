package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readmeCommands returns the shell commands of README.md: its lines
// indented by four spaces outside fenced blocks (a line ending in \ goes
// on with the next), and the lines of fenced blocks marked sh, shell or
// bash.
func readmeCommands(t *testing.T, readme string) []string {
	t.Helper()
	var cmds []string
	fence, shell := false, false
	var cont string
	for _, line := range strings.Split(readme, "\n") {
		if strings.HasPrefix(line, "```") {
			if !fence {
				lang := strings.TrimSpace(strings.TrimPrefix(line, "```"))
				shell = lang == "sh" || lang == "shell" || lang == "bash"
			}
			fence = !fence
			continue
		}
		var cmd string
		switch {
		case fence && shell:
			cmd = strings.TrimSpace(line)
		case !fence && strings.HasPrefix(line, "    "):
			cmd = strings.TrimSpace(line)
		default:
			if cont != "" {
				t.Fatalf("README.md: a command ends in \\ with no line after it: %s", cont)
			}
			continue
		}
		if cmd == "" {
			continue
		}
		if c, ok := strings.CutSuffix(cmd, `\`); ok {
			cont += c
			continue
		}
		cmds = append(cmds, cont+cmd)
		cont = ""
	}
	return cmds
}

// TestREADMECommands runs every shell command of README.md from the
// repository root, as written, and checks that it exits 0, so that the
// README and the program cannot drift apart. Three things are not run as
// written: `go run ./cmd/rolemark` runs a binary built once from this
// package (the same program, built once instead of once per command); `go
// test` and scripts/test-all lines are left to .ci/run, which runs them
// itself; `go install ./cmd/rolemark` installs into a temporary GOBIN. A `serve` command runs until it
// prints its address and is then stopped with SIGINT, after which it must
// exit 0.
func TestREADMECommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs the README's commands")
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	cmds := readmeCommands(t, string(readme))
	require.GreaterOrEqual(t, len(cmds), 10, "README.md lost its commands: %q", cmds)

	tmp := t.TempDir()
	bin := filepath.Join(tmp, "rolemark")
	build := exec.Command("go", "build", "-o", bin, ".")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)

	ran := 0
	for _, c := range cmds {
		if strings.HasPrefix(c, "go test ") || strings.HasPrefix(c, "./scripts/test-all") {
			continue
		}
		ran++
		t.Run(c, func(t *testing.T) {
			shell := strings.ReplaceAll(c, "go run ./cmd/rolemark", bin)
			if shell == "go install ./cmd/rolemark" {
				shell = "GOBIN=" + tmp + "/gobin go install ./cmd/rolemark && " + tmp + "/gobin/rolemark --version"
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "bash", "-o", "pipefail", "-c", shell)
			cmd.Dir = root
			if strings.Contains(shell, " serve ") {
				runServe(t, cmd)
				return
			}
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "README command failed: %s\n%s", c, out)
			assert.NotEmpty(t, out, "README command printed nothing: %s", c)
		})
	}
	assert.Greater(t, ran, 0)
}

// runServe starts a serve command, waits for it to print its address, stops
// it with SIGINT and checks that it exits 0.
func runServe(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err, "serve printed no address: %s", stderr.String())
	assert.Contains(t, line, "previewing")
	// The command runs under bash: signal the process group.
	require.NoError(t, syscall.Kill(-cmd.Process.Pid, syscall.SIGINT))
	require.NoError(t, cmd.Wait(), "serve did not exit 0 on SIGINT: %s", stderr.String())
}

func TestReadmeCommandsParse(t *testing.T) {
	md := "intro\n\n    go run ./cmd/rolemark a \\\n        --b c\n\n```go\n    x := 1\n```\n\n```sh\necho hi\n```\n\n    echo done\n"
	assert.Equal(t, []string{"go run ./cmd/rolemark a --b c", "echo hi", "echo done"}, readmeCommands(t, md))
}
