package engine_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
)

// BenchmarkDirLookupRender looks up and renders templates of a loaded
// directory of 500 prompts from many goroutines (16 per GOMAXPROCS, so many
// even on a small machine).
func BenchmarkDirLookupRender(b *testing.B) {
	const n = 500
	fsys := fstest.MapFS{}
	for team := 0; team < 20; team++ {
		fsys[fmt.Sprintf("prompts/team%02d/_rules.tmpl", team)] = &fstest.MapFile{Data: []byte(`Answer in {{.lang}}.`)}
	}
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("team%02d/prompt%03d", i%20, i)
		fsys["prompts/"+names[i]+".tmpl"] = &fstest.MapFile{Data: []byte(fmt.Sprintf(
			"---\ninput:\n  default: {lang: English}\n---\n{{role \"system\"}}You are assistant %d. {{template \"rules\" .}}\n{{role \"user\"}}{{.question}}", i))}
	}
	d, err := engine.NewSet(gotmpl.New()).LoadDir(fsys, "prompts")
	if err != nil {
		b.Fatal(err)
	}
	if got := len(d.Names()); got != n {
		b.Fatalf("loaded %d prompts, want %d", got, n)
	}
	vars := map[string]any{"question": "What's new?"}
	var next atomic.Uint64
	b.ReportAllocs()
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		ctx := context.Background()
		for pb.Next() {
			name := names[next.Add(1)%n]
			tpl, ok := d.Template(name)
			if !ok {
				b.Errorf("no template %s", name)
				return
			}
			if _, err := tpl.Messages(ctx, vars); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
