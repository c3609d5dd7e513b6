package chattemplate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// Load reads a model's chat template from fsys: a
// tokenizer_config.json (its chat_template, a string or a list of named
// templates, and its special tokens), a processor's chat_template.json
// ({"chat_template": …}), or a Jinja file such as chat_template.jinja. A
// tokenizer_config.json without chat_template takes the template from
// chat_template.jinja beside it; a Jinja or chat_template.json file takes
// its special tokens from a tokenizer_config.json beside it, when there is
// one, and otherwise from its own text (Template.TextTokens). Options given
// here override what the files say.
func Load(fsys fs.FS, name string, opts ...Option) (*Template, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	dir := path.Dir(name)
	sibling := func(base string) ([]byte, bool) {
		b, err := fs.ReadFile(fsys, path.Join(dir, base))
		return b, err == nil
	}
	opts = append([]Option{Name(name)}, opts...)
	if !strings.HasSuffix(strings.ToLower(name), ".json") {
		if cfg, ok := sibling("tokenizer_config.json"); ok {
			tc, err := readTokenizerConfig(cfg)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path.Join(dir, "tokenizer_config.json"), err)
			}
			opts = append(tc.options(), opts...)
		}
		return New(string(data), opts...)
	}
	tc, err := readTokenizerConfig(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(tc.templates) == 0 {
		src, ok := sibling("chat_template.jinja")
		if !ok {
			return nil, fmt.Errorf("%s: no chat_template, and no chat_template.jinja beside it", name)
		}
		tc.templates = map[string]string{"default": string(src)}
	}
	if path.Base(name) != "tokenizer_config.json" {
		if cfg, ok := sibling("tokenizer_config.json"); ok {
			if stc, err := readTokenizerConfig(cfg); err == nil {
				tc.tokens, tc.special = stc.tokens, stc.special
			}
		}
	}
	return newTemplate(tc.templates, append(tc.options(), opts...))
}

// ParseTokenizerConfig reads a tokenizer_config.json (or a processor's
// chat_template.json): its chat_template and its special tokens
// (bos_token, eos_token, unk_token, sep_token, pad_token, cls_token,
// mask_token, each a string or an AddedToken object, and the
// added_tokens_decoder entries marked special).
func ParseTokenizerConfig(data []byte, opts ...Option) (*Template, error) {
	tc, err := readTokenizerConfig(data)
	if err != nil {
		return nil, err
	}
	if len(tc.templates) == 0 {
		return nil, errors.New("format: the config has no chat_template")
	}
	return newTemplate(tc.templates, append(tc.options(), opts...))
}

type tokenizerConfig struct {
	templates map[string]string
	tokens    map[string]string
	special   []string
}

func (tc *tokenizerConfig) options() []Option {
	opts := []Option{SpecialTokens(tc.special...), func(s *templateSettings) { s.known = true }}
	for k, v := range tc.tokens {
		opts = append(opts, Token(k, v))
	}
	return opts
}

var tokenVariables = []string{"bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token"}

func readTokenizerConfig(data []byte) (*tokenizerConfig, error) {
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("format: reading the config: %w", err)
	}
	tc := &tokenizerConfig{templates: map[string]string{}, tokens: map[string]string{}}
	if ct, ok := raw["chat_template"]; ok && string(ct) != "null" {
		var one string
		var named []struct {
			Name     string `json:"name"`
			Template string `json:"template"`
		}
		switch {
		case json.Unmarshal(ct, &one) == nil:
			tc.templates["default"] = one
		case json.Unmarshal(ct, &named) == nil:
			for _, n := range named {
				tc.templates[n.Name] = n.Template
			}
		default:
			return nil, errors.New("format: chat_template is neither a string nor a list of named templates")
		}
	}
	for _, k := range tokenVariables {
		if v, ok := raw[k]; ok {
			if s, ok := tokenText(v); ok {
				tc.tokens[k] = s
			}
		}
	}
	if v, ok := raw["additional_special_tokens"]; ok {
		var list []json.RawMessage
		if json.Unmarshal(v, &list) == nil {
			for _, item := range list {
				if s, ok := tokenText(item); ok {
					tc.special = append(tc.special, s)
				}
			}
		}
	}
	if v, ok := raw["added_tokens_decoder"]; ok {
		var dec map[string]struct {
			Content string `json:"content"`
			Special bool   `json:"special"`
		}
		if err := json.Unmarshal(v, &dec); err != nil {
			return nil, fmt.Errorf("format: added_tokens_decoder: %w", err)
		}
		for _, t := range dec {
			if t.Special {
				tc.special = append(tc.special, t.Content)
			}
		}
	}
	return tc, nil
}

// tokenText reads a token given as a string or as an AddedToken object.
func tokenText(raw json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, s != ""
	}
	var at struct {
		Content string `json:"content"`
	}
	if json.Unmarshal(raw, &at) == nil && at.Content != "" {
		return at.Content, true
	}
	return "", false
}
