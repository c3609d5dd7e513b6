package doccheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// aboutLines finds the size a package doc gives: "about 4,300 lines".
var aboutLines = regexp.MustCompile(`about ([0-9][0-9,]*) lines`)

// TestLargePackagesSayWhy checks issue 25's rule on the core module: a
// package of more than about 3,000 lines of non-test Go (3,300) says why in
// its package doc, and the size it gives there ("about N lines") is within
// a tenth of the size it has.
func TestLargePackagesSayWhy(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]int{}   // non-test lines by package directory
	docs := map[string]string{} // package doc text by directory
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p == root {
				return nil
			}
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir // a module of its own
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dir, _ := filepath.Rel(root, filepath.Dir(p))
		lines[dir] += strings.Count(string(b), "\n")
		docs[dir] += " " + packageDoc(string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	large := 0
	for dir, n := range lines {
		if n <= 3300 {
			continue
		}
		large++
		m := aboutLines.FindStringSubmatch(docs[dir])
		if m == nil {
			t.Errorf("%s: %d lines of non-test code, and its package doc does not say why (\"about N lines\" and the reason)", dir, n)
			continue
		}
		said, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
		if d := said - n; d*10 > n || -d*10 > n {
			t.Errorf("%s: its package doc says about %s lines; it has %d", dir, m[1], n)
		}
	}
	if large == 0 {
		t.Fatal("no package over 3,300 lines found: is the walk reading the module?")
	}
}

// packageDoc returns the comment above a file's package clause, as one line
// of text.
func packageDoc(src string) string {
	var doc []string
	for _, line := range strings.Split(src, "\n") {
		switch {
		case strings.HasPrefix(line, "package "):
			return strings.Join(strings.Fields(strings.Join(doc, " ")), " ")
		case strings.HasPrefix(line, "//"):
			doc = append(doc, strings.TrimPrefix(line, "//"))
		default:
			doc = doc[:0] // a comment not above the clause
		}
	}
	return ""
}
