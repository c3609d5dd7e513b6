// Command rolemark renders prompt templates to chat messages and prints them
// as a completion API or a local model reads them.
//
//	rolemark render [--engine E] [--vars FILE.json] [--var k=v]... [--history FILE.json] [--format F] [--model M] [--root DIR] [TEMPLATE|-]
//	rolemark parse  [--format F] MARKUP|-
//	rolemark check  PATH...      every template under PATH; FILE:LINE:COL: message per problem
//	rolemark formats             the formats F can name
//	rolemark react prompt --tools TOOLS.json [--variant V] QUESTION
//	rolemark react parse  [--tools TOOLS.json] REPLY|-
//	rolemark engines
//
// Run with no template, render renders a built-in example. Errors go to
// standard error as FILE:LINE:COL: message; the exit status is 1 for a
// problem in the input and 2 for a usage error.
package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

//go:embed example
var exampleFS embed.FS

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage:
  rolemark render [--engine E] [--vars FILE.json] [--var k=v]... [--history FILE.json] [--format F] [--model M] [--root DIR] [TEMPLATE|-]
  rolemark parse  [--format F] MARKUP|-
  rolemark check  PATH...
  rolemark formats
  rolemark react prompt --tools TOOLS.json [--variant V] QUESTION
  rolemark react parse  [--tools TOOLS.json] REPLY|-
  rolemark engines
Run 'rolemark render' with no template to render a built-in example.
`

// errUsage marks an error as a usage error (exit status 2).
type errUsage struct{ msg string }

func (e errUsage) Error() string { return e.msg }

func usageErr(format string, args ...any) error { return errUsage{fmt.Sprintf(format, args...)} }

// run runs the command line and returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "react":
		return runReact(args[1:], stdin, stdout, stderr)
	case "render":
		err = cmdRender(ctx, args[1:], stdin, stdout)
	case "parse":
		err = cmdParse(args[1:], stdin, stdout)
	case "check":
		err = cmdCheck(ctx, args[1:], stdout)
	case "engines":
		err = cmdEngines(args[1:], stdout)
	case "formats":
		err = cmdFormats(args[1:], stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "rolemark: unknown command %q\n%s", args[0], usage)
		return 2
	}
	if err == nil {
		return 0
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if errors.As(err, new(errSilent)) {
		return 1
	}
	var u errUsage
	if errors.As(err, &u) {
		fmt.Fprintf(stderr, "rolemark %s: %s\n%s", args[0], u.msg, usage)
		return 2
	}
	fmt.Fprintln(stderr, err)
	return 1
}

// newFlags returns a flag set that reports errors instead of exiting.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses args, turning flag errors into usage errors.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageErr("%v", err)
	}
	return nil
}

// readInput reads a named file, or standard input for "-".
func readInput(name string, stdin io.Reader) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(stdin)
	}
	return os.ReadFile(name)
}
