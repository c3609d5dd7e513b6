package jinja_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/jinja"
)

// TestOptions: trim_blocks, lstrip_blocks, the do statement and loop
// controls are off by default, as in Jinja2, and each option turns one on.
func TestOptions(t *testing.T) {
	const src = "{% user %}<ul>\n  {% for x in xs %}\n  <li>{{ x }}</li>\n  {% endfor %}\n</ul>{% enduser %}"
	for _, tc := range []struct {
		name string
		opts []jinja.Option
		want string
	}{
		// the texts Python's Jinja2 renders for the body
		{"default", nil, "<ul>\n  \n  <li>1</li>\n  \n  <li>2</li>\n  \n</ul>"},
		{"trim", []jinja.Option{jinja.TrimBlocks()}, "<ul>\n    <li>1</li>\n    <li>2</li>\n  </ul>"},
		{"lstrip", []jinja.Option{jinja.LStripBlocks()}, "<ul>\n\n  <li>1</li>\n\n  <li>2</li>\n\n</ul>"},
		{"both", []jinja.Option{jinja.TrimBlocks(), jinja.LStripBlocks()}, "<ul>\n  <li>1</li>\n  <li>2</li>\n</ul>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := engine.NewSet(jinja.New(tc.opts...)).Parse("jinja", "t.j2", src)
			require.NoError(t, err)
			msgs, err := tpl.Messages(context.Background(), map[string]any{"xs": []int{1, 2}})
			require.NoError(t, err)
			assert.Equal(t, []chat.Message{chat.Text(chat.RoleUser, tc.want)}, msgs)
		})
	}

	const do = "{% set l = [] %}{% do l.append(1) %}{% user %}{{ l }}{% enduser %}"
	_, err := engine.NewSet(jinja.New()).Parse("jinja", "t.j2", do)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Encountered unknown tag 'do'.")

	tpl, err := engine.NewSet(jinja.New(jinja.DoStatement())).Parse("jinja", "t.j2", do)
	require.NoError(t, err)
	msgs, err := tpl.Messages(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, []chat.Message{chat.Text(chat.RoleUser, "[1]")}, msgs)

	// Jinja2's message without jinja2.ext.loopcontrols
	const loop = "{% user %}{% for x in 'abc' %}{% if x == 'c' %}{% break %}{% endif %}{{ x }}{% endfor %}{% enduser %}"
	_, err = engine.NewSet(jinja.New()).Parse("jinja", "t.j2", loop)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Encountered unknown tag 'break'. Jinja was looking for the following tags: 'elif' or 'else' or 'endif'.")

	tpl, err = engine.NewSet(jinja.New(jinja.LoopControls())).Parse("jinja", "t.j2", loop)
	require.NoError(t, err)
	msgs, err = tpl.Messages(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, []chat.Message{chat.Text(chat.RoleUser, "ab")}, msgs)
}

// TestLimit: an untrusted template that would write, loop or build without
// bound fails with an error naming the limit, well within a second, and
// renders as usual without Limit.
func TestLimit(t *testing.T) {
	tests := []struct {
		name, src string
		limits    jinja.Limits
		want      string
	}{
		{"output", "{% user %}{% for i in range(1000) %}xxxxxxxxxx{% endfor %}{% enduser %}", jinja.Limits{Output: 1000}, "LimitError"},
		{"iterations", "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", jinja.Limits{Iterations: 1_000_000}, "LimitError"},
		{"size", "{% set ns = namespace(s='ab') %}{% for i in range(64) %}{% set ns.s = ns.s + ns.s %}{% endfor %}{{ ns.s | length }}", jinja.Limits{Size: 1 << 20}, "LimitError"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := engine.NewSet(jinja.New(jinja.Limit(tc.limits))).Parse("jinja", "t.j2", tc.src)
			require.NoError(t, err)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			_, err = tpl.Messages(ctx, nil)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotErrorIs(t, err, context.DeadlineExceeded)
		})
	}
	tpl, err := engine.NewSet(jinja.New()).Parse("jinja", "t.j2", tests[0].src)
	require.NoError(t, err)
	msgs, err := tpl.Messages(context.Background(), nil)
	require.NoError(t, err, "no limit by default")
	assert.Len(t, msgs[0].Content[0].Text, 10000)
}
