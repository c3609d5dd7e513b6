package engine_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
)

// TestPromptDir loads the good part of testdata/promptdir and renders each
// prompt with defaults, partials and required inputs.
func TestPromptDir(t *testing.T) {
	set := engine.NewSet(handlebars.New(), jinja.New(), gotmpl.New())
	fsys := os.DirFS("../testdata/promptdir")
	d, err := set.LoadDir(fsys, "support")
	require.NoError(t, err)
	assert.Equal(t, []string{"refund"}, d.Names())
	refund, _ := d.Template("refund")
	assert.Equal(t, "gpt-4o-mini", refund.FrontMatter().Model)
	msgs, err := refund.Messages(context.Background(), map[string]any{"customer": "Zoë <z@x>"})
	require.NoError(t, err)
	assert.Equal(t, []chat.Message{
		chat.Text(chat.RoleSystem, `You handle refunds for Acme. Sign every answer as "Acme Support".`),
		chat.Text(chat.RoleUser, "I am Zoë <z@x>. Please refund order 0."),
	}, msgs)
	_, err = refund.Messages(context.Background(), nil)
	assert.EqualError(t, err, `support/refund.hbs:9:5: input "customer" is required but not supplied`)

	d, err = set.LoadDir(fsys, "ops")
	require.NoError(t, err)
	report, _ := d.Template("report")
	msgs, err = report.Messages(context.Background(), map[string]any{"service": "api", "incidents": []string{"500s", "slow <p99>"}})
	require.NoError(t, err)
	assert.Equal(t, []chat.Message{
		chat.Text(chat.RoleSystem, "You write short incident reports."),
		chat.Text(chat.RoleUser, "Summarise the incidents of api:\n- 500s\n- slow <p99>"),
	}, msgs)
	_, err = report.Messages(context.Background(), map[string]any{"service": "api", "incidents": "none"})
	assert.EqualError(t, err, `ops/report.tmpl:5:5: input "incidents" must be an array, not string`)

	d, err = set.LoadDir(fsys, "sales")
	require.NoError(t, err)
	offer, _ := d.Template("offer")
	msgs, err = offer.Messages(context.Background(), map[string]any{"discount": 10})
	require.NoError(t, err)
	assert.Equal(t, []chat.Message{
		chat.Text(chat.RoleSystem, "You write short, honest offers. Never promise what the product cannot do."),
		chat.Text(chat.RoleUser, "Write an offer for the Pro plan with 10% off."),
	}, msgs)

	// Partials at the top of the loaded directory serve its subdirectories;
	// a nearer one shadows them.
	d, err = set.LoadDir(fsys, "hr")
	require.NoError(t, err)
	assert.Equal(t, []string{"leave/policy", "leave/request", "payroll/summary"}, d.Names())
	for _, tc := range []struct {
		name string
		vars map[string]any
		want []chat.Message
	}{
		{"leave/request", map[string]any{"days": 3, "lang": "Français"}, []chat.Message{
			chat.Text(chat.RoleSystem, "You are the HR assistant of Acme. Answer in Français."),
			chat.Text(chat.RoleUser, "I would like 3 days of leave."),
		}},
		{"leave/policy", nil, []chat.Message{
			chat.Text(chat.RoleSystem, "You are the HR assistant of Acme. Answer in English."),
			chat.Text(chat.RoleUser, "What is the leave policy?"),
		}},
		{"payroll/summary", map[string]any{"month": "May"}, []chat.Message{
			chat.Text(chat.RoleSystem, "You are the payroll assistant of Acme. Never disclose salaries."),
			chat.Text(chat.RoleUser, "Summarise the payroll of May."),
		}},
	} {
		tpl, ok := d.Template(tc.name)
		require.True(t, ok, tc.name)
		msgs, err := tpl.Messages(context.Background(), tc.vars)
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, msgs, tc.name)
	}
}
