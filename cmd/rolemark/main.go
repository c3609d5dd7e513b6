// Command rolemark renders prompt templates to chat messages and prints them
// as a completion API or a local model reads them.
//
//	rolemark render [--engine E] [--vars FILE.json] [--var k=v]... [--history FILE.json] [--data FILE.json]
//	                [--schemas FILE.json] [--format F] [--model M] [--count T] [--max-tokens N] [--root DIR]
//	                [--tools FILE] [--variant V] [--template-var k=v]... [--content-parts]
//	                [--no-generation-prompt] [--continue-final] [--now TIME] [TEMPLATE|-]
//	rolemark parse  [--format F] [--loose] [--tools FILE] [--template-var k=v]... [--content-parts]
//	                [--no-generation-prompt] [--continue-final] [--now TIME] MARKUP|-
//	rolemark check  [--tools FILE] PATH...  every template under PATH; FILE:LINE:COL: message per problem
//	rolemark batch --in FILE [--format F] [--out FILE] [--workers N] [--fail-fast] ... TEMPLATE
//	                             TEMPLATE over every row of a JSON Lines, JSON, CSV or Parquet file
//	rolemark test [--update] [--tools FILE] DIR...
//	                             every test case under DIR (NAME.cases.yaml) against its recorded result
//	rolemark formats             the formats F can name; hf:FILE is a model's own chat template
//	rolemark engines             the engines and the file extensions they claim
//	rolemark react prompt --tools TOOLS.json [--variant V] QUESTION|-
//	rolemark react parse  [--tools TOOLS.json] REPLY|-
//	rolemark serve  [--addr HOST:PORT] [--format F] [--count T] [--write-cases] DIR
//	                             a live preview page of DIR; it saves test cases with --write-cases
//	rolemark lsp                 a Language Server on standard input and output
//	rolemark --version
//
// docs/cli.md lists every flag. Every subcommand prints its usage with -h
// or --help, and takes its flags before or after its operands ("--" ends
// the flags). Run with no template, render renders a built-in example.
// Errors go to standard error as FILE:LINE:COL: message; the exit status
// is 1 for a problem in the input and 2 for a usage error.
//
// The command is the one place that imports every package, so its size
// (about 3,300 lines) is its subcommands': each is a file or two of flags,
// input and output around the library calls that do the work.
package main

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/rolemark/rolemark/engine/driver"
)

//go:embed example
var exampleFS embed.FS

func main() {
	ctx, stop := interruptible(context.Background())
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// interruptible returns a context that SIGINT or SIGTERM cancels with an
// interrupted error as its cause (context.Cause), so that a command can stop
// cleanly and say where; a second signal then ends the process as if no
// one were listening. stop releases the signals.
func interruptible(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			signal.Stop(ch)
			cancel(interrupted{sig})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// interrupted is the cause of a context cancelled by a signal. A command
// whose error wraps it exits with 128 plus the signal's number, as a shell
// reports a process the signal ended: 130 for SIGINT, 143 for SIGTERM.
type interrupted struct{ sig os.Signal }

func (e interrupted) Error() string { return "interrupted by " + signalName(e.sig) }

// status is the exit status of a command that the signal stopped.
func (e interrupted) status() int {
	if s, ok := e.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}

// signalName is SIGINT or SIGTERM, as a user sends them.
func signalName(sig os.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// stdio is a command's standard input and outputs.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// command is one subcommand of rolemark.
type command struct {
	// name is how the command line names it: "render", or "react prompt"
	// for a subcommand of a group.
	name string
	// args is the rest of its usage line.
	args string
	// about is what its -h prints after the usage line.
	about string
	// run runs it with the arguments after its name. It parses them with
	// parseArgs, so that -h and --help reach the dispatcher.
	run func(ctx context.Context, sio stdio, args []string) error
}

// commands is the table of rolemark's subcommands, in the order usage lists
// them.
func commands() []command {
	return []command{
		{name: "render", args: "[--engine E] [--vars FILE.json] [--var k=v]... [--history FILE.json] [--data FILE.json] [--schemas FILE.json] [--format F] [--model M] [--count T] [--max-tokens N] [--root DIR] [--tools FILE] [--variant V] [--template-var k=v]... [--content-parts] [--no-generation-prompt] [--continue-final] [--now TIME] [TEMPLATE|-]",
			about: "Renders TEMPLATE (- for standard input) to messages in format F. With no template it renders a built-in example. --count T prints only the number of tokens for tokenizer T (o200k_base, cl100k_base or a tokenizer.json).\n",
			run:   cmdRender},
		{name: "parse", args: "[--format F] [--loose] [--tools FILE] [--template-var k=v]... [--content-parts] [--no-generation-prompt] [--continue-final] [--now TIME] MARKUP|-",
			about: "Parses a markup file (- for standard input) and prints its messages in format F.\n",
			run:   cmdParse},
		{name: "check", args: "[--tools FILE] PATH...",
			about: "Parses every template under each PATH, checks it without data (variables its input schema does not declare, unknown functions, markup calls whose arguments do not fit in any branch, front matter mistakes (an unclosed ---, an undeclared input.default, an unknown output.format), text that looks like a misspelled markup tag, and a render with synthetic inputs for the markup it writes), and prints FILE:LINE:COL: message once for each problem, at its place in the template.\n",
			run:   cmdCheck},
		{name: "batch", args: batchArgs, about: batchAbout, run: cmdBatch},
		{name: "test", args: testArgs, about: testAbout, run: cmdTest},
		{name: "formats", about: "Lists the formats --format can name, and how to name a model's own chat template (hf:FILE).\n", run: cmdFormats},
		{name: "engines", about: "Lists the template engines and the file extensions they claim.\n", run: cmdEngines},
		{name: "serve", args: "[--addr HOST:PORT] [--format F] [--count T] [--tools FILE] [--write-cases] DIR",
			about: "Serves a live preview page of the templates in DIR on 127.0.0.1:7878 (--addr picks another address, port 0 a free one) and prints its address. The page reads only inside DIR and writes no file, unless --write-cases lets it save what a template renders as a new test case (NAME.cases.yaml, as rolemark test runs them).\n",
			run:   cmdServe},
		{name: "lsp", args: "[--tools FILE]", about: lspAbout, run: cmdLSP},
		{name: "react prompt", args: "--tools TOOLS.json [--variant V] QUESTION|-", about: reactAbout, run: reactPrompt},
		{name: "react parse", args: "[--tools TOOLS.json] REPLY|-", about: reactAbout, run: reactParse},
	}
}

// usage lists the commands whose name starts with prefix ("" for all).
func usage(cmds []command, prefix string) string {
	var b strings.Builder
	b.WriteString("usage:\n")
	for _, c := range cmds {
		if strings.HasPrefix(c.name+" ", prefix) {
			fmt.Fprintf(&b, "  rolemark %s\n", strings.TrimSpace(c.name+" "+c.args))
		}
	}
	if prefix == "" {
		b.WriteString("  rolemark --version\nRun 'rolemark COMMAND -h' for a command's flags; 'rolemark render' with no template renders a built-in example.\n")
	}
	return b.String()
}

// help is a command's usage line, its description and its flags.
func (c command) help(fl *flag.FlagSet) string {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: rolemark %s\n%s", strings.TrimSpace(c.name+" "+c.args), c.about)
	if fl != nil {
		var flags bytes.Buffer
		fl.SetOutput(&flags)
		fl.PrintDefaults()
		fl.SetOutput(io.Discard)
		if flags.Len() > 0 {
			b.WriteString("flags:\n")
			b.Write(flags.Bytes())
		}
	}
	return b.String()
}

func isHelp(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help" || arg == "help"
}

// run runs the command line and returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage(cmds, ""))
		return 2
	}
	switch {
	case args[0] == "--version" || args[0] == "-version":
		fmt.Fprintln(stdout, "rolemark", version(debug.ReadBuildInfo))
		return 0
	case isHelp(args[0]) && len(args) == 1:
		fmt.Fprint(stdout, usage(cmds, ""))
		return 0
	case isHelp(args[0]):
		args = append(args[1:], "-h") // rolemark help COMMAND
	}
	group := ""
	for _, c := range cmds {
		words := strings.Fields(c.name)
		if len(args) >= len(words) && strings.Join(args[:len(words)], " ") == c.name {
			return c.exec(ctx, stdio{stdin, stdout, stderr}, args[len(words):])
		}
		if len(words) > 1 && words[0] == args[0] {
			group = words[0]
		}
	}
	switch {
	case group == "":
		fmt.Fprintf(stderr, "rolemark: unknown command %q\n%s", args[0], usage(cmds, ""))
		return 2
	case len(args) > 1 && isHelp(args[1]):
		fmt.Fprint(stdout, usage(cmds, group+" "))
		return 0
	case len(args) == 1:
		fmt.Fprintf(stderr, "rolemark %s: missing subcommand\n%s", group, usage(cmds, group+" "))
	default:
		fmt.Fprintf(stderr, "rolemark %s: unknown subcommand %q\n%s", group, args[1], usage(cmds, group+" "))
	}
	return 2
}

// exec runs the command and returns the exit status.
func (c command) exec(ctx context.Context, sio stdio, args []string) int {
	err := c.run(ctx, sio, args)
	var h errHelp
	var u errUsage
	var in interrupted
	switch {
	case err == nil:
		return 0
	case errors.As(err, &h):
		fmt.Fprint(sio.out, c.help(h.fl))
		return 0
	case errors.As(err, new(errSilent)):
		return 1
	case errors.As(err, new(errUsageSilent)):
		return 2
	case errors.As(err, &in):
		fmt.Fprintln(sio.err, err)
		return in.status()
	case errors.As(err, &u):
		fmt.Fprintf(sio.err, "rolemark %s: %s\n%s", c.name, u.msg, c.help(nil))
		return 2
	}
	fmt.Fprintln(sio.err, err)
	return 1
}

// version returns the module version the binary was built from, as the
// build information read by read records it: a version such as v1.2.0 for
// go install …@version, "(devel)" for a build from a checkout.
func version(read func() (*debug.BuildInfo, bool)) string {
	if bi, ok := read(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// errUsage marks an error as a usage error (exit status 2).
type errUsage struct{ msg string }

func (e errUsage) Error() string { return e.msg }

func usageErr(format string, args ...any) error { return errUsage{fmt.Sprintf(format, args...)} }

// errHelp is -h or --help, asked of the command whose flags are fl.
type errHelp struct{ fl *flag.FlagSet }

func (errHelp) Error() string { return flag.ErrHelp.Error() }

// newFlags returns a flag set that reports errors instead of printing them
// and exiting.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseArgs parses a command's flags, which may come before or after its
// operands, and returns the operands. After "--" all are operands. -h and
// --help give an errHelp; a bad flag gives a usage error.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	operands := []string{}
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp{fs}
			}
			return nil, usageErr("%v", err)
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(operands, rest...), nil
		}
		if len(rest) == 0 {
			return operands, nil
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

// parseOperands is parseArgs, then a usage error saying want when the
// operands number fewer than least or more than most (most < 0: no limit).
func parseOperands(fs *flag.FlagSet, args []string, least, most int, want string) ([]string, error) {
	operands, err := parseArgs(fs, args)
	if err != nil {
		return nil, err
	}
	if len(operands) < least || most >= 0 && len(operands) > most {
		return nil, usageErr("%s", want)
	}
	return operands, nil
}

// readInput reads a named file, or standard input for "-".
func readInput(name string, stdin io.Reader) ([]byte, error) {
	var b []byte
	var err error
	if name == "-" {
		b, err = io.ReadAll(stdin)
	} else {
		b, err = os.ReadFile(name)
	}
	return dropBOM(b), err
}

// dropBOM drops the UTF-8 byte order mark a file saved by a Windows editor
// starts with: it is the file's encoding, not its text (RFC 8259 lets a
// JSON reader ignore it; templates are read without it too).
func dropBOM(b []byte) []byte {
	return bytes.TrimPrefix(b, []byte(driver.ByteOrderMark))
}
