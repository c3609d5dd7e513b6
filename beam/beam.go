package beam

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"

	abeam "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/rolemark/rolemark/batch"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
)

func init() {
	register.DoFn4x1[context.Context, string, func(string), func(string), error](&renderFn{})
	register.Emitter1[string]()
}

// Config says which template to render and what to write for each row.
// Its fields are exported because Beam serialises it to the workers.
type Config struct {
	// Name is the template's file name; its extension chooses the engine
	// unless Engine or the front matter names one.
	Name string `json:"name"`
	// Source is the template's text, front matter included.
	Source string `json:"source"`
	// Engine names the engine: handlebars, jinja or gotmpl.
	Engine string `json:"engine,omitempty"`
	// Format is the output: openai (the default), openai-batch,
	// anthropic-batch, sft, or a chat format name (see batch.Output).
	Format string `json:"format,omitempty"`
	// ChatFormat, SFTLast and SFTEnd configure the sft output.
	ChatFormat string `json:"chat_format,omitempty"`
	SFTLast    bool   `json:"sft_last,omitempty"`
	SFTEnd     bool   `json:"sft_end,omitempty"`
	// Model overrides the front matter's model in the batch requests.
	Model string `json:"model,omitempty"`
	// IDField names the row variable that identifies a row: the batch
	// requests' custom_id, and the ID of a failure. The batch request
	// outputs need it.
	IDField string `json:"id_field,omitempty"`
	// HistoryField names the row variable holding prior messages (see
	// batch.Row.HistoryFrom).
	HistoryField string `json:"history_field,omitempty"`
}

// Render adds the rendering of every row of rows (a PCollection<string> of
// JSON objects) to the pipeline and returns the output lines and the
// failures, both PCollection<string>. It checks the configuration first: a
// template that does not compile or an unknown output is an error here,
// not on the workers.
func Render(s abeam.Scope, cfg Config, rows abeam.PCollection) (lines, failures abeam.PCollection, err error) {
	if cfg.Format == "" {
		cfg.Format = "openai"
	}
	if (cfg.Format == "openai-batch" || cfg.Format == "anthropic-batch") && cfg.IDField == "" {
		return lines, failures, fmt.Errorf("the %s output needs an IDField: a runner gives rows no order, so row-N ids would not tie results back to rows", cfg.Format)
	}
	fn := &renderFn{Config: cfg}
	if err := fn.setup(); err != nil {
		return lines, failures, err
	}
	s = s.Scope("rolemark.Render")
	lines, failures = abeam.ParDo2(s, fn, rows)
	return lines, failures, nil
}

type renderFn struct {
	Config Config `json:"config"`

	tpl    *engine.Template
	output batch.Append
	// buf is the memory of the last row's output, reused for the next:
	// emit copies the output, and Beam calls an instance's ProcessElement
	// for one element at a time.
	buf []byte
}

// Setup compiles the template once per DoFn instance.
func (f *renderFn) Setup() error { return f.setup() }

func (f *renderFn) setup() error {
	c := f.Config
	set := engine.NewSet(handlebars.New(), jinja.New(), gotmpl.New())
	tpl, err := set.Parse(c.Engine, c.Name, c.Source)
	if errors.Is(err, engine.ErrNoEngine) {
		e, eerr := set.EngineFor(path.Base(c.Name))
		if eerr != nil {
			return eerr
		}
		tpl, err = set.Parse(e.Name(), c.Name, c.Source)
	}
	if err != nil {
		return err
	}
	var opts []batch.OutputOption
	if c.ChatFormat != "" {
		opts = append(opts, batch.ChatFormat(c.ChatFormat))
	}
	if c.SFTLast {
		opts = append(opts, batch.LastOnly())
	}
	if c.SFTEnd {
		opts = append(opts, batch.TurnEnds())
	}
	if c.Format == "openai-batch" || c.Format == "anthropic-batch" {
		if c.Model != "" {
			opts = append(opts, batch.Model(c.Model))
		}
		if c.IDField != "" {
			opts = append(opts, batch.IDKey(c.IDField))
		}
	}
	conv, err := batch.Output(c.Format, tpl.FrontMatter(), opts...)
	if err != nil {
		return err
	}
	f.tpl, f.output = tpl, conv
	return nil
}

// ProcessElement renders one row. A failing row goes to the failures; only
// a broken configuration fails the bundle.
func (f *renderFn) ProcessElement(ctx context.Context, line string, emit, fail func(string)) error {
	row := batch.JSONLines(strings.NewReader(line))
	var out []byte
	var rowErr error
	for r := range row {
		r = r.Decode()
		if f.Config.HistoryField != "" {
			r = r.HistoryFrom(f.Config.HistoryField)
		}
		out, rowErr = renderRow(ctx, f.tpl, f.buf[:0], f.output, r)
		if rowErr != nil {
			fail(rowID(f.Config.IDField, r, line) + ": " + rowErr.Error())
			return nil
		}
		f.buf = out[:0]
		emit(strings.TrimSuffix(string(out), "\n"))
	}
	return nil
}

// renderRow renders one row through output, appending to dst.
func renderRow(ctx context.Context, tpl *engine.Template, dst []byte, output batch.Append, r batch.Row) ([]byte, error) {
	out, err := batch.RenderOne(ctx, tpl, dst, 0, r, output)
	var re *batch.RowError
	if errors.As(err, &re) {
		return nil, re.Err
	}
	return out, err
}

func rowID(field string, r batch.Row, line string) string {
	if field != "" {
		if v, ok := r.Vars[field]; ok && v != nil {
			if s, ok := v.(string); ok {
				return s
			}
			b, _ := json.Marshal(v)
			return string(b)
		}
	}
	line = strings.TrimSpace(line)
	if rs := []rune(line); len(rs) > 60 {
		line = string(rs[:60]) + "…"
	}
	return line
}
