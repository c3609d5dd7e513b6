package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/rolemark/rolemark/engine/cases"
	"github.com/rolemark/rolemark/internal/preview"
	modelrun "github.com/rolemark/rolemark/internal/run"
	"github.com/rolemark/rolemark/tokens"
)

// runTargets returns the endpoints the page's Run button may use, from the
// operator's environment: OpenAI-compatible when OPENAI_API_KEY or
// OPENAI_BASE_URL is set (a local server such as Ollama takes no key),
// Anthropic when ANTHROPIC_API_KEY is set (ANTHROPIC_BASE_URL moves it).
// The page can choose among them but never name an address.
func runTargets(getenv func(string) string) []preview.Target {
	var out []preview.Target
	if key, base := getenv("OPENAI_API_KEY"), getenv("OPENAI_BASE_URL"); key != "" || base != "" {
		out = append(out, preview.Target{Name: "openai", Endpoint: modelrun.Endpoint{Protocol: modelrun.OpenAI, BaseURL: base, APIKey: key}})
	}
	if key := getenv("ANTHROPIC_API_KEY"); key != "" {
		out = append(out, preview.Target{Name: "anthropic", Endpoint: modelrun.Endpoint{Protocol: modelrun.Anthropic, BaseURL: getenv("ANTHROPIC_BASE_URL"), APIKey: key}})
	}
	return out
}

// cmdServe serves the preview page of a prompt directory until interrupted.
// It listens on 127.0.0.1 unless --addr names another host, and prints the
// page's address once it listens. It writes no file unless --write-cases
// lets the page save test cases.
func cmdServe(ctx context.Context, sio stdio, args []string) error {
	stdout := sio.out
	fl := newFlags("serve")
	addr := fl.String("addr", "127.0.0.1:7878", "listen on `HOST:PORT` (port 0 picks a free one)")
	format := fl.String("format", "chatml", "chat format `F` the prompt-string view starts with")
	writeCases := fl.Bool("write-cases", false, "offer Save as case on the page: it adds what a template renders, with the form's inputs, as a new case to its NAME.cases.yaml under DIR (without it the page writes no file; it needs a loopback --addr)")
	tools := toolsOfFrontMatter(fl)
	count := fl.String("count", "o200k_base", "show token counts made with tokenizer `T`, as render --count counts: o200k_base or cl100k_base (the messages with OpenAI's per-message overhead, and the prompt string), or a tokenizer.json file (the prompt string); \"\" shows none")
	operands, err := parseOperands(fl, args, 1, 1, "serve takes one directory")
	if err != nil {
		return err
	}
	dir := operands[0]
	if err := checkFormat(*format, false); err != nil {
		return err
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return usageErr("--addr %q: %v", *addr, err)
	}
	opts := []preview.Option{preview.DefaultFormat(*format), preview.CaseFormats(writeCaseFormat, checkCaseFormat)}
	if *count != "" {
		tk, err := loadTokenizer(*count, *format)
		if err != nil {
			return err
		}
		opts = append(opts, preview.Tokenizer(tk, slices.Contains(tokens.Encodings(), *count)))
	}
	if p, _, err := loadPromptFormat(*format); err == nil && p.tpl != nil {
		opts = append(opts, preview.ChatTemplate(*format, p.tpl))
	}
	loopback := host == "localhost"
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		loopback = true
	}
	if loopback {
		opts = append(opts, preview.LocalOnly())
	}
	if *writeCases {
		// The page's guards keep other sites' pages out, not other
		// machines: a server that writes files listens on this one only.
		if !loopback {
			return usageErr("--write-cases needs a loopback --addr (127.0.0.1, ::1 or localhost): the page writes files")
		}
		opts = append(opts, preview.WriteCases())
	}
	targets := runTargets(os.Getenv)
	runOff := ""
	if len(targets) > 0 && !loopback {
		// Run spends the operator's key, or reaches the operator's model
		// server, for whoever posts to /run; its guards keep other sites'
		// pages out, not other machines. Off where other machines listen.
		runOff = fmt.Sprintf("Run is off: --addr %s is not a loopback address, and a run sends the operator's key for whoever reaches the page (use 127.0.0.1, ::1 or localhost to run prompts)", *addr)
		targets = nil
		opts = append(opts, preview.RunOff(runOff))
		runOff = "rolemark serve: " + runOff + "\n"
	}
	opts = append(opts, preview.Targets(targets...))
	set := newSet()
	if err := tools(set); err != nil {
		return err
	}
	srv, err := preview.New(dir, set, opts...)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "rolemark serve: previewing %s at http://%s/\n", dir, ln.Addr())
	if *writeCases {
		fmt.Fprintf(stdout, "rolemark serve: Save as case writes test cases (NAME%s) under %s\n", cases.Ext, dir)
	}
	for _, t := range targets {
		fmt.Fprintf(stdout, "rolemark serve: Run sends to %s at %s\n", t.Name, t.Endpoint.URL())
	}
	fmt.Fprint(stdout, runOff)
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shut); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
