package engine_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/internal/fixture"
	"github.com/rolemark/rolemark/jinja"
)

// TestCrossEngine renders every conversation in every engine and every role
// style, through ParseFS as a caller would, and requires byte-identical JSON.
func TestCrossEngine(t *testing.T) {
	set := engine.NewSet(handlebars.New(), jinja.New(), gotmpl.New())
	fsys := os.DirFS(fixture.Root())
	total := 0
	for _, c := range fixture.Load(t, "") {
		t.Run(c.Name, func(t *testing.T) {
			n := 0
			for _, ext := range []string{".hbs", ".j2", ".tmpl"} {
				for _, style := range []string{"literal", "marker", "block"} {
					name := c.Name + "/" + style + ext
					tpl, err := set.ParseFS(fsys, name)
					require.NoError(t, err, name)
					msgs, err := tpl.Messages(context.Background(), c.Vars, engine.History(c.History))
					require.NoError(t, err, name)
					got, err := fixture.JSON(msgs)
					require.NoError(t, err)
					assert.Equal(t, c.Expected, got, name)
					n++
				}
			}
			total += n
		})
	}
	assert.Equal(t, 9*9, total, "nine conversations, each in three engines and three styles")
}
