package main

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rolemark/rolemark/internal/preview"
	modelrun "github.com/rolemark/rolemark/internal/run"
)

func TestRunTargetsFromTheEnvironment(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want []preview.Target
	}{
		{"nothing set", nil, nil},
		{"openai key", map[string]string{"OPENAI_API_KEY": "sk"},
			[]preview.Target{{Name: "openai", Endpoint: modelrun.Endpoint{Protocol: modelrun.OpenAI, APIKey: "sk"}}}},
		{"local server without key", map[string]string{"OPENAI_BASE_URL": "http://localhost:11434/v1"},
			[]preview.Target{{Name: "openai", Endpoint: modelrun.Endpoint{Protocol: modelrun.OpenAI, BaseURL: "http://localhost:11434/v1"}}}},
		{"anthropic base without key is not enough", map[string]string{"ANTHROPIC_BASE_URL": "http://x"}, nil},
		{"both", map[string]string{"OPENAI_API_KEY": "sk", "ANTHROPIC_API_KEY": "ak", "ANTHROPIC_BASE_URL": "http://127.0.0.1:9"},
			[]preview.Target{
				{Name: "openai", Endpoint: modelrun.Endpoint{Protocol: modelrun.OpenAI, APIKey: "sk"}},
				{Name: "anthropic", Endpoint: modelrun.Endpoint{Protocol: modelrun.Anthropic, BaseURL: "http://127.0.0.1:9", APIKey: "ak"}},
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, runTargets(func(k string) string { return tc.env[k] }))
		})
	}
}
