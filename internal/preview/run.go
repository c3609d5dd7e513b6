package preview

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/rolemark/rolemark/internal/run"
)

// Target is an endpoint the page's Run button can send a prompt to. The
// operator names it (rolemark serve builds them from OPENAI_BASE_URL,
// OPENAI_API_KEY, ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY); the page only
// chooses among them by name and never sees the address's key.
type Target struct {
	Name     string // shown on the page: "openai", "anthropic"
	Endpoint run.Endpoint
}

// Targets sets the endpoints the Run button sends to. Without any, the
// button is disabled and says what to set.
func Targets(ts ...Target) Option {
	return func(s *settings) { s.targets = append(s.targets, ts...) }
}

// RunOff turns Run off and has the button say why (reason), in place of
// what to set: the command turns it off where other machines reach the
// page, even with targets in its environment. Targets given too are not
// used.
func RunOff(reason string) Option { return func(s *settings) { s.runOff = reason } }

// hint is what the Run button says when it is off: why, or what to set.
func (c *settings) hint() string {
	if c.runOff != "" {
		return c.runOff
	}
	return runHint
}

// RunClient sets the HTTP client runs use (default: one without a
// timeout, since a run lasts as long as the model writes; the page's
// request ends it).
func RunClient(c *http.Client) Option { return func(s *settings) { s.client = c } }

// runHint is what the Run button says when no target is set.
const runHint = "To run prompts, restart rolemark serve with OPENAI_API_KEY (OpenAI), OPENAI_BASE_URL " +
	"(any OpenAI-compatible server: Ollama, vLLM, llama.cpp) or ANTHROPIC_API_KEY set."

// runView is what the page shows of the Run panel.
type runView struct {
	Targets []string
	Target  string // the one chosen first
	Hint    string // why the button is disabled
	Model   string // the front matter's model, the placeholder of the override
	Config  string // the front matter's config as JSON
}

func (s *Server) runView(model string, cfg map[string]any) runView {
	v := runView{Model: model}
	for _, t := range s.cfg.targets {
		v.Targets = append(v.Targets, t.Name)
	}
	if len(v.Targets) == 0 {
		v.Hint = s.cfg.hint()
	}
	v.Target = s.defaultTarget(model)
	if len(cfg) > 0 {
		b, _ := json.Marshal(cfg)
		v.Config = string(b)
	}
	return v
}

// defaultTarget picks the target a model most likely lives at: Anthropic's
// for a claude model, else the first.
func (s *Server) defaultTarget(model string) string {
	if len(s.cfg.targets) == 0 {
		return ""
	}
	m := strings.ToLower(model)
	if strings.HasPrefix(m, "claude") || strings.HasPrefix(m, "anthropic/") {
		for _, t := range s.cfg.targets {
			if t.Endpoint.Protocol == run.Anthropic {
				return t.Name
			}
		}
	}
	return s.cfg.targets[0].Name
}

// runRequest is what the page posts to /run/{path}.
type runRequest struct {
	// Form is the form of inputs, URL-encoded, as a render submits it.
	Form string `json:"form"`
	// Target names one of the operator's targets.
	Target string `json:"target"`
	// Model, when set, replaces the front matter's model for this run.
	Model string `json:"model"`
	// Config, when set, is a JSON object that replaces the front matter's
	// config for this run (the page starts it as the declared config).
	Config string `json:"config"`
}

// serveRun renders the template with the posted form and streams the
// model's reply back as JSON lines: each a run.Event, then one of type
// "done" (with latency_ms, first_byte_ms and the token counts) or "error"
// (msg).
func (s *Server) serveRun(w http.ResponseWriter, r *http.Request) {
	var req runRequest
	name, ok := s.posted(w, r, &req, "a run", "starts")
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson; charset=utf-8")
	flusher, _ := w.(http.Flusher)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	send := func(v any) {
		_ = enc.Encode(v)
		if flusher != nil {
			flusher.Flush()
		}
	}
	fail := func(format string, args ...any) {
		send(map[string]string{"type": "error", "msg": fmt.Sprintf(format, args...)})
	}

	var target *Target
	for i := range s.cfg.targets {
		if s.cfg.targets[i].Name == req.Target {
			target = &s.cfg.targets[i]
		}
	}
	if target == nil {
		if len(s.cfg.targets) == 0 {
			fail("%s", s.cfg.hint())
		} else {
			fail("no target named %q", req.Target)
		}
		return
	}
	if _, err := fs.Stat(s.fsys, name); err != nil {
		fail("%s: no such template", name)
		return
	}
	rend, err := s.renderForm(r.Context(), name, req.Form)
	if err != nil {
		fail("%v", err)
		return
	}
	settings := rend.tpl.FrontMatter().Settings()
	if m := strings.TrimSpace(req.Model); m != "" {
		settings.Model = m
	}
	if c := strings.TrimSpace(req.Config); c != "" {
		var cfg map[string]any
		if err := json.Unmarshal([]byte(c), &cfg); err != nil || cfg == nil {
			fail("config: %s is not a JSON object", c)
			return
		}
		settings.Config = cfg
	}
	if settings.Model == "" {
		fail("no model: the front matter declares none (model:); name one for this run")
		return
	}
	send(map[string]string{"type": "start", "target": target.Name, "model": settings.Model})
	ctx, cancel := context.WithTimeout(r.Context(), runDeadline)
	defer cancel()
	res, err := run.Stream(ctx, s.cfg.client, target.Endpoint, rend.msgs, settings, func(ev run.Event) { send(ev) })
	if err != nil {
		fail("%v", err)
		return
	}
	send(map[string]any{
		"type":          "done",
		"latency_ms":    res.Latency.Milliseconds(),
		"first_byte_ms": res.FirstByte.Milliseconds(),
		"input_tokens":  res.InputTokens,
		"output_tokens": res.OutputTokens,
		"stop_reason":   res.StopReason,
	})
}

// renderForm renders the template name with a form posted as the page
// submits it (URL-encoded), as the page renders it. Its error says what is
// wrong with the form, or why the template does not render.
func (s *Server) renderForm(ctx context.Context, name, rawForm string) (rendering, error) {
	form, err := url.ParseQuery(rawForm)
	if err != nil {
		return rendering{}, fmt.Errorf("the form: %v", err)
	}
	p := page{Current: name, Vars: form.Get("vars"), History: form.Get("history")}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.renderTimeout)
	defer cancel()
	rend, ok := s.messages(ctx, &p, true, form.Get)
	if !ok {
		var msgs []string
		for _, e := range p.Errors {
			msgs = append(msgs, e.Msg)
		}
		if p.Waiting != "" {
			msgs = append(msgs, p.Waiting)
		}
		return rend, fmt.Errorf("the template does not render: %s", strings.Join(msgs, "; "))
	}
	return rend, nil
}

// maxPost bounds the body of a POST to /run or /case.
const maxPost = 16 << 20

// posted reads a POST of the page to a template's route: the template's
// name (404 when the path names none) and the JSON body into v, as
// fromPage reads it; false when it answered a refusal.
func (s *Server) posted(w http.ResponseWriter, r *http.Request, v any, what, verb string) (string, bool) {
	name := r.PathValue("path")
	if !fs.ValidPath(name) || !s.set.IsTemplate(name) {
		http.NotFound(w, r)
		return "", false
	}
	return name, fromPage(w, r, v, what, verb)
}

// fromPage decodes the JSON body of a POST that only the page itself may
// send (what: "a run", "a case"; verb: what it does, "starts") into v, or
// answers the refusal and returns false. A form on another site cannot
// send JSON, and a script there sends its Origin; a body is at most
// maxPost bytes.
func fromPage(w http.ResponseWriter, r *http.Request, v any, what, verb string) bool {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		http.Error(w, what+" is posted as application/json", http.StatusUnsupportedMediaType)
		return false
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
		http.Error(w, what+" "+verb+" from the page only", http.StatusForbidden)
		return false
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxPost)).Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, fmt.Sprintf("%s is at most %d bytes", what, maxPost), http.StatusRequestEntityTooLarge)
			return false
		}
		http.Error(w, "bad request for "+what+": "+err.Error(), http.StatusBadRequest)
		return false
	}
	return true
}

// runDeadline bounds one run.
const runDeadline = 5 * time.Minute
