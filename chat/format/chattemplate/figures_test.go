package chattemplate_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpusFigures checks the corpus figures the package doc and the
// README state against testdata/hf: templates, renderings, how many Jinja2
// completes and raises on, and how many templates it renders at least once
// (what BenchmarkCorpusVsJinja2 times).
func TestCorpusFigures(t *testing.T) {
	dir := filepath.Join("testdata", "hf")
	files, err := filepath.Glob(filepath.Join(dir, "templates", "*.jinja"))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var results []struct {
		Template string  `json:"template"`
		Output   *string `json:"output"`
	}
	if err := json.Unmarshal(raw, &results); err != nil {
		t.Fatal(err)
	}
	ok, rendered := 0, map[string]bool{}
	for _, r := range results {
		if r.Output != nil {
			ok++
			rendered[r.Template] = true
		}
	}
	n := func(i int) string { // as the docs write numbers: 1,110
		s := fmt.Sprint(i)
		if len(s) > 3 {
			s = s[:len(s)-3] + "," + s[len(s)-3:]
		}
		return s
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	flat := func(b []byte) string {
		return strings.Join(strings.Fields(strings.ReplaceAll(string(b), "//", "")), " ")
	}
	for _, want := range []string{
		"holds " + n(len(files)) + " real templates",
		"of the " + n(len(results)) + " renderings Jinja2 completes " + n(ok) + " and raises on " + n(len(results)-ok),
		"renders " + n(len(rendered)) + " of the templates on at least one conversation",
		"times those " + n(len(rendered)),
	} {
		if !strings.Contains(flat(doc), want) {
			t.Errorf("doc.go does not say %q", want)
		}
	}
	want := "of " + n(len(results)) + " renderings of " + n(len(files)) + " real templates, all " + n(ok) +
		" that Jinja2 renders are byte-identical and the other " + n(len(results)-ok) + " raise in both"
	if !strings.Contains(flat(readme), want) {
		t.Errorf("README.md does not say %q", want)
	}
}
