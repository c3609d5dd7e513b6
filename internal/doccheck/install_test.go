package doccheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoInstallFromTheModuleProxy: README.md says rolemark is not on the Go
// module proxy yet, so a document that tells the reader to go install or go
// run the command @latest (or any version) sends a new user to a command
// that fails ("module github.com/rolemark/rolemark: … not found"). The
// documents install it from a clone, as the README does.
func TestNoInstallFromTheModuleProxy(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "not published to the Go module proxy") {
		t.Skip("README.md no longer says rolemark is unpublished")
	}
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	docs = append(docs, filepath.Join(root, "README.md"))
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, doc)
		for i, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, "github.com/rolemark/rolemark/cmd/rolemark@") {
				t.Errorf("%s:%d: installs from the module proxy, where rolemark is not: %s", rel, i+1, strings.TrimSpace(line))
			}
		}
	}
}
