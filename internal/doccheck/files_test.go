package doccheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// cited matches what a document may cite as a file of the repository: a
// code span or a link target.
var cited = regexp.MustCompile("`([^`\\s]+)`|\\]\\(([^)\\s]+)\\)")

// TestDocsNameFilesThatExist checks that every file or directory of the
// repository that README.md and docs/*.md name exists (issue 11, defect 9):
// a name that starts with one of the repository's top-level directories,
// or a .md or .go file name, must be found from the repository's root, the
// document's directory, or (a bare file name) somewhere in the repository.
func TestDocsNameFilesThatExist(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	top := map[string]bool{}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		top[e.Name()] = true
	}
	base := map[string]bool{} // every file name in the repository
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != root {
			return filepath.SkipDir
		}
		base[d.Name()] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	docs = append(docs, filepath.Join(root, "README.md"))
	checked := 0
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, doc)
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range cited.FindAllStringSubmatch(line, -1) {
				name := m[1] + m[2]
				name, _, _ = strings.Cut(name, "#")
				name = strings.TrimSuffix(strings.TrimPrefix(name, "./"), ":")
				if name == "" || strings.Contains(name, "://") || strings.ContainsAny(name, "{}<>*…|$=") {
					continue
				}
				first, _, _ := strings.Cut(name, "/")
				isFile := strings.HasSuffix(name, ".md") || strings.HasSuffix(name, ".go")
				if !(strings.Contains(name, "/") && top[first]) && !isFile {
					continue
				}
				checked++
				if exists(filepath.Join(root, name)) || exists(filepath.Join(filepath.Dir(doc), name)) ||
					(!strings.Contains(name, "/") && base[name]) {
					continue
				}
				t.Errorf("%s:%d: names %s, which is not in the repository", rel, i+1, name)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("checked %d names; the pattern missed the documents", checked)
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
