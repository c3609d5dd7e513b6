package roleparse

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// grammarCopyExempt are the files outside roleparse that may write several
// entities, each with its reason.
var grammarCopyExempt = map[string]string{
	// Jinja2's own HTML escaping (markupsafe's escape and urlize), which
	// is Jinja's language, not rolemark's markup.
	"internal/jinja2/ops.go":            "markupsafe.escape",
	"internal/jinja2/filters_urlize.go": "Jinja2's urlize",
}

// TestNoGrammarOutsideRoleparse fails when a Go file of the repository
// outside roleparse (tests aside) holds a copy of the markup's grammar: two
// or more of the part tags as tags ("<text", "</tool_call"…), or three or
// more of the entities Parse decodes ("&lt;", "&amp;"…), as string
// literals. The parser's knowledge is the parser's; a fast path uses the
// skeleton compiler (CompileSkeleton) instead of a list of its own.
func TestNoGrammarOutsideRoleparse(t *testing.T) {
	var tags []string
	for _, name := range innerTags {
		if name != "message" {
			tags = append(tags, regexp.QuoteMeta(name))
		}
	}
	tagRE := regexp.MustCompile(`"</?(` + strings.Join(tags, "|") + `)\b`)
	var ents []string
	for _, e := range entities {
		ents = append(ents, regexp.QuoteMeta(e))
	}
	entRE := regexp.MustCompile(`"(` + strings.Join(ents, "|") + `)"`)
	root := ".."
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "roleparse" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		src := string(b)
		if found := distinct(tagRE.FindAllStringSubmatch(src, -1)); len(found) >= 2 {
			t.Errorf("%s lists markup tags %q: the grammar is roleparse's", rel, found)
		}
		if _, ok := grammarCopyExempt[rel]; ok {
			return nil
		}
		if found := distinct(entRE.FindAllStringSubmatch(src, -1)); len(found) >= 3 {
			t.Errorf("%s lists entities %q: the grammar is roleparse's", rel, found)
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, checked, 100, "the walk found too few files to mean anything")
}

// distinct returns the first groups of matches, each once, sorted.
func distinct(matches [][]string) []string {
	var out []string
	for _, m := range matches {
		if !slices.Contains(out, strings.ToLower(m[1])) {
			out = append(out, strings.ToLower(m[1]))
		}
	}
	slices.Sort(out)
	return out
}
