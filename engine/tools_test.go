package engine_test

import (
	"encoding/json"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
)

var (
	weatherTool = chat.Tool{Name: "get_weather", Description: "Weather in a city",
		Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)}
	timeTool = chat.Tool{Name: "get_time", Description: "Time in a city"}
)

func TestToolsByName(t *testing.T) {
	tests := []struct {
		name  string
		front string
		want  []string
	}{
		{"names", "tools: [get_time, get_weather]", []string{"get_time", "get_weather"}},
		{"a name and a definition, as written", "tools:\n  - get_weather\n  - name: inline\n    description: d", []string{"get_weather", "inline"}},
		// Dotprompt lists toolDefs before the tools it resolves by name.
		{"toolDefs first", "tools: [get_weather]\ntoolDefs:\n  - name: lookup\n    inputSchema: {type: object}", []string{"lookup", "get_weather"}},
		{"toolDefs alone", "toolDefs:\n  - name: lookup\n    description: Look it up\n    inputSchema: {type: object}", []string{"lookup"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			set := engine.NewSet(gotmpl.New()).Option(engine.Tools(weatherTool), engine.Tools(timeTool))
			tpl, err := set.Parse("gotmpl", "t", "---\n"+tc.front+"\n---\nhi")
			require.NoError(t, err)
			var names []string
			for _, tool := range tpl.FrontMatter().Settings().Tools {
				names = append(names, tool.Name)
			}
			assert.Equal(t, tc.want, names)
			assert.NotContains(t, tpl.FrontMatter().Ext, "toolDefs")
		})
	}

	t.Run("the registered definition", func(t *testing.T) {
		set := engine.NewSet(gotmpl.New()).Option(engine.Tools(weatherTool))
		tpl, err := set.Parse("gotmpl", "t", "---\ntools: [get_weather]\n---\nhi")
		require.NoError(t, err)
		assert.Equal(t, []chat.Tool{weatherTool}, tpl.FrontMatter().Tools)
	})
	t.Run("toolDefs inputSchema is the parameters", func(t *testing.T) {
		tpl, err := engine.NewSet(gotmpl.New()).Parse("gotmpl", "t", "---\ntoolDefs:\n  - name: lookup\n    description: Look it up\n    inputSchema: {type: object, properties: {q: {type: string}}}\n---\nhi")
		require.NoError(t, err)
		assert.Equal(t, []chat.Tool{{Name: "lookup", Description: "Look it up",
			Parameters: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)}}, tpl.FrontMatter().Tools)
	})
}

func TestToolsByNameUnknown(t *testing.T) {
	fsys := fstest.MapFS{"p/weather.prompt": {Data: []byte("---\nmodel: m\ntools:\n  - get_weather\n  - getWeather\n---\nhi")}}
	set := engine.NewSet(handlebars.New()).Option(engine.Tools(weatherTool, timeTool))
	_, err := set.ParseFS(fsys, "p/weather.prompt")
	require.Error(t, err)
	assert.Equal(t, `p/weather.prompt:5:5: front matter: unknown tool "getWeather"; registered: get_time, get_weather`, err.Error())
	var ee *engine.Error
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, []int{5, 5}, []int{ee.Line, ee.Col})

	_, err = set.LoadDir(fsys, "p")
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, "p/weather.prompt", ee.Template)
}
