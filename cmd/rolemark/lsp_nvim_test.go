package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLSPInNeovim drives rolemark lsp with a real client: Neovim's built-in
// LSP client, headless, runs testdata/lsp/nvim.lua, which opens a prompt
// with a mistake in each engine (testdata/lsp/prompts; non-ASCII text comes
// before every mistake), waits for their diagnostics, asks for a hover,
// completions and a definition, stops the server and writes what it got.
// Neovim's diagnostics are in bytes of the line, converted by the client
// from the server's UTF-16 characters, so a wrong conversion shows here.
// Without nvim the test is skipped, unless ROLEMARK_NVIM=required (as CI
// sets it).
func TestLSPInNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		if os.Getenv("ROLEMARK_NVIM") == "required" {
			t.Fatal("ROLEMARK_NVIM=required but nvim is not on PATH (Debian: apt-get install neovim)")
		}
		t.Skip("nvim is not on PATH (Debian: apt-get install neovim); set ROLEMARK_NVIM=required to fail instead")
	}
	goTool, err := exec.LookPath("go")
	require.NoError(t, err, "the test builds rolemark with the go command")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "rolemark")
	build := exec.CommandContext(ctx, goTool, "build", "-o", bin, ".")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)

	root, err := filepath.Abs("testdata/lsp/prompts")
	require.NoError(t, err)
	script, err := filepath.Abs("testdata/lsp/nvim.lua")
	require.NoError(t, err)
	result := filepath.Join(tmp, "result.json")
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile "+script)
	cmd.Env = append(os.Environ(),
		"ROLEMARK_LSP_BIN="+bin, "ROLEMARK_LSP_ROOT="+root, "ROLEMARK_LSP_OUT="+result,
		"ROLEMARK_LSP_FILES=greet.hbs greet.j2 greet.tmpl greet.pongo2 greet.prompt",
		// Neovim's state, cache (the LSP log) and configuration stay in
		// the test's directory.
		"XDG_CONFIG_HOME="+tmp, "XDG_DATA_HOME="+tmp, "XDG_STATE_HOME="+tmp, "XDG_CACHE_HOME="+tmp)
	cmd.WaitDelay = 5 * time.Second
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, "nvim: %s", out)

	got, err := os.ReadFile(result)
	require.NoError(t, err, "nvim wrote no result: %s", out)
	var v any
	require.NoError(t, json.Unmarshal(got, &v))
	pretty, err := json.MarshalIndent(v, "", "  ")
	require.NoError(t, err)
	const golden = "testdata/lsp/nvim.golden.json"
	if *update {
		require.NoError(t, os.WriteFile(golden, append(pretty, '\n'), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(got))
}
