package handlebars

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aymerick/raymond/parser"
)

// parseSeeds are templates that exercise every rule of the grammar, valid
// and not.
var parseSeeds = []string{
	"", "text", "{{x}}", "{{{x}}}", "{{&x}}", "{{~x~}}", "{{!c}}", "{{!-- c --}}", `\{{x}}`, `\\{{x}}`,
	"{{#if x}}a{{else}}b{{/if}}", "{{#if x}}a{{else if y}}b{{else}}c{{/if}}", "{{^x}}a{{/x}}", "{{^x}}a{{else}}b{{/x}}",
	"{{#each xs as |x i|}}{{x}}{{/each}}", "{{#each xs as ||}}{{/each}}", "{{#each xs as |x}}{{/each}}",
	"{{{{raw}}}}{{x}}{{{{/raw}}}}", "{{{{raw}}}}x{{{{/other}}}}", "{{{{raw}}}}{{{{/raw}}}}",
	`{{> p}}`, `{{> p x}}`, `{{> p a=1 b="s"}}`, `{{> (f)}}`, `{{> "name with space"}}`, "{{> p.q}}", "{{> ../p}}",
	`{{f (g 1 "s" true) k=(h x)}}`, "{{a.b.[c d]}}", "{{a/b}}", "{{../a}}", "{{./a}}", "{{this.a}}", "{{a.this}}", "{{a.[0]}}",
	"{{@index}}", "{{@root.a}}", "{{@../index}}", "{{1}}", "{{1.5}}", "{{-1}}", "{{true}}", "{{null}}", "{{undefined}}",
	"{{#user}}hi{{/usr}}", "{{#if x}}a", "{{/if}}", "{{else}}", "{{#message role=}}x{{/message}}", "{{x", "{{x}", "{{x}}}",
	"{{#> layout}}x{{/layout}}", "{{#*inline \"p\"}}x{{/inline}}", "{{a.b.[c}}", "{{{x}}", "{{msgs.0.role}}", "{{a..b}}",
	"{{a=1}}", "{{f a=}}", "{{f =1}}", "{{( x }}", "{{f (g}}", "{{#}}", "{{#if}}{{/if}}", "{{/}}", "{{>}}", "{{!", "{{!--",
	"{{#x}}{{else}}{{else}}{{/x}}", "{{#x as |a|}}{{/x}}", "{{x as |a|}}", "{{'single'}}", `{{"a\"b"}}`, "{{x\n}}\n{{y", "{{[x}}",
}

// FuzzParse checks that the recogniser in parse.go accepts exactly what
// raymond's parser accepts: a template it accepts must parse in raymond too
// (or raymond's lexer goroutine would leak), and one it rejects must be
// rejected by raymond as well.
func FuzzParse(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add(s)
	}
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "conversations", "*", "*.hbs"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		_, _, _, ours := parseTemplate(src)
		if ours != nil && strings.Contains(ours.Error(), "nested more than") {
			return // rolemark's own limit, which raymond does not have
		}
		theirs := raymondParse(src)
		if (ours == nil) != (theirs == nil) {
			t.Fatalf("%q: rolemark: %v; raymond: %v", src, ours, theirs)
		}
	})
}

func raymondParse(src string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errPanicked
		}
	}()
	_, err = parser.Parse(src)
	return err
}

type panicked struct{}

func (panicked) Error() string { return "raymond's parser panicked" }

var errPanicked error = panicked{}
