package opencompass

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/internal/option"
	"github.com/rolemark/rolemark/chat/format/internal/strictjson"
)

// MetaTemplate is an OpenCompass meta template: how a model wants each
// round of a dialogue written. It loads from the JSON or YAML form of the
// Python dict (round, reserved_roles, begin, end, eos_token_id), round
// entries being role objects or plain strings.
//
// A meta template is rendered by its own rules: OpenCompass walks the
// template's round for every dialogue round, so a role absent from the
// dialogue still writes its begin, default prompt and end, and strings in
// the round are written once per round. A Format writes the messages it is
// given, no more; ToFormat converts a template to a Format that agrees with
// it on conversations of whole rounds.
type MetaTemplate struct {
	// Begin and End surround the whole prompt. End is left out when the
	// prompt is cut for generation.
	Begin string `json:"begin,omitempty" yaml:"begin,omitempty"`
	End   string `json:"end,omitempty" yaml:"end,omitempty"`
	// Round is one round of the dialogue, in order: roles, and plain
	// strings written as they are.
	Round []MetaRole `json:"round" yaml:"round"`
	// ReservedRoles are roles that do not take part in rounds but may be
	// used in the begin and end sections of a prompt, such as SYSTEM.
	ReservedRoles []MetaRole `json:"reserved_roles,omitempty" yaml:"reserved_roles,omitempty"`
	// EOSTokenID is the model's stop token ID. Informational.
	EOSTokenID int `json:"eos_token_id,omitempty" yaml:"eos_token_id,omitempty"`
	// ChatRoles names the template role each chat role is written as by
	// Render and APIMessages. Unset roles default to HUMAN (user),
	// BOT (assistant) and SYSTEM (system and developer); a role the
	// template does not have falls back to the user's.
	ChatRoles map[chat.Role]string `json:"chat_roles,omitempty" yaml:"chat_roles,omitempty"`
}

// MetaRole is one entry of a meta template's round or reserved roles.
type MetaRole struct {
	Role  string `json:"role,omitempty" yaml:"role,omitempty"`
	Begin string `json:"begin,omitempty" yaml:"begin,omitempty"`
	End   string `json:"end,omitempty" yaml:"end,omitempty"`
	// Prompt is the role's default text, used when a round lacks the role.
	Prompt string `json:"prompt,omitempty" yaml:"prompt,omitempty"`
	// Generate marks the role the model plays: generation prompts end
	// right after its Begin in the last round.
	Generate bool `json:"generate,omitempty" yaml:"generate,omitempty"`
	// APIRole is HUMAN, BOT or SYSTEM: the role in API mode.
	APIRole string `json:"api_role,omitempty" yaml:"api_role,omitempty"`
	// Text is a plain string entry of a round (an entry with no Role). It
	// is a JSON string in the template's JSON form.
	Text string `json:"-" yaml:"-"`
}

// UnmarshalJSON reads a role object or a plain string.
func (r *MetaRole) UnmarshalJSON(data []byte) error {
	return r.decode(len(data) > 0 && data[0] == '"', func(v any) error { return json.Unmarshal(data, v) })
}

// decode reads r with JSON's or YAML's unmarshal: a plain string entry
// when str, else a role object, which must name its role.
func (r *MetaRole) decode(str bool, unmarshal func(any) error) error {
	if str {
		*r = MetaRole{}
		return unmarshal(&r.Text)
	}
	type plain MetaRole
	var p plain
	if err := unmarshal(&p); err != nil {
		return err
	}
	if p.Role == "" {
		return errors.New("opencompass: a meta template role needs a role name")
	}
	*r = MetaRole(p)
	return nil
}

// MarshalJSON writes a plain string entry as a JSON string.
func (r MetaRole) MarshalJSON() ([]byte, error) {
	if r.Role == "" {
		return json.Marshal(r.Text)
	}
	type plain MetaRole
	return json.Marshal(plain(r))
}

// UnmarshalYAML reads a role mapping or a plain string, as UnmarshalJSON
// does. (The signature is the one go.yaml.in/yaml/v3 and gopkg.in/yaml
// accept without an import.)
func (r *MetaRole) UnmarshalYAML(unmarshal func(any) error) error {
	var s string
	return r.decode(unmarshal(&s) == nil, unmarshal)
}

// MarshalYAML writes a plain string entry as a YAML string.
func (r MetaRole) MarshalYAML() (any, error) {
	if r.Role == "" {
		return r.Text, nil
	}
	type plain MetaRole
	return plain(r), nil
}

// PromptItem is one element of an OpenCompass PromptList: a plain string
// (Text), a role item (Role, Prompt), or a section marker (Section, Pos).
type PromptItem struct {
	Text string `json:"-" yaml:"-"`

	Role         string `json:"role,omitempty" yaml:"role,omitempty"`
	Prompt       string `json:"prompt,omitempty" yaml:"prompt,omitempty"`
	FallbackRole string `json:"fallback_role,omitempty" yaml:"fallback_role,omitempty"`
	// Begin, End and Generate, when set, override the meta template's for
	// this occurrence.
	Begin    *string `json:"begin,omitempty" yaml:"begin,omitempty"`
	End      *string `json:"end,omitempty" yaml:"end,omitempty"`
	Generate *bool   `json:"generate,omitempty" yaml:"generate,omitempty"`

	// Section is begin, ice, round or end; Pos is begin or end.
	Section string `json:"section,omitempty" yaml:"section,omitempty"`
	Pos     string `json:"pos,omitempty" yaml:"pos,omitempty"`
}

// UnmarshalJSON reads an item object or a plain string.
func (p *PromptItem) UnmarshalJSON(data []byte) error {
	return p.decode(len(data) > 0 && data[0] == '"', func(v any) error { return json.Unmarshal(data, v) })
}

// decode reads p with JSON's or YAML's unmarshal: a plain string item
// when str, else an item object.
func (p *PromptItem) decode(str bool, unmarshal func(any) error) error {
	if str {
		*p = PromptItem{}
		return unmarshal(&p.Text)
	}
	type plain PromptItem
	var v plain
	if err := unmarshal(&v); err != nil {
		return err
	}
	*p = PromptItem(v)
	return nil
}

// MarshalJSON writes a plain string item as a JSON string.
func (p PromptItem) MarshalJSON() ([]byte, error) {
	if p.Role == "" && p.Section == "" {
		return json.Marshal(p.Text)
	}
	type plain PromptItem
	return json.Marshal(plain(p))
}

// UnmarshalYAML reads an item mapping or a plain string.
func (p *PromptItem) UnmarshalYAML(unmarshal func(any) error) error {
	var s string
	return p.decode(unmarshal(&s) == nil, unmarshal)
}

// MarshalYAML writes a plain string item as a YAML string.
func (p PromptItem) MarshalYAML() (any, error) {
	if p.Role == "" && p.Section == "" {
		return p.Text, nil
	}
	type plain PromptItem
	return plain(p), nil
}

// APIMessage is one message of the API-mode rendering: an api_role and the
// role's begin, prompt and end joined.
type APIMessage struct {
	Role   string `json:"role" yaml:"role"`
	Prompt string `json:"prompt" yaml:"prompt"`
}

// Validate reports the errors OpenCompass raises when it loads the template.
func (t *MetaTemplate) Validate() error {
	if len(t.Round) == 0 {
		return errors.New("opencompass: round is required in meta template")
	}
	seen := map[string]bool{}
	for _, list := range [][]MetaRole{t.Round, t.ReservedRoles} {
		for _, r := range list {
			if r.Role == "" {
				continue
			}
			if seen[r.Role] {
				return errors.New("opencompass: role in meta prompt must be unique: " + r.Role)
			}
			seen[r.Role] = true
		}
	}
	return nil
}

func (t *MetaTemplate) roles() map[string]MetaRole {
	m := make(map[string]MetaRole, len(t.Round)+len(t.ReservedRoles))
	for _, list := range [][]MetaRole{t.Round, t.ReservedRoles} {
		for _, r := range list {
			if r.Role != "" {
				m[r.Role] = r
			}
		}
	}
	return m
}

// RenderPromptList writes a PromptList as the prompt string of a local model, as
// OpenCompass's LMTemplateParser does in "gen" mode (gen true: the last
// round of the round section ends after the generate role's begin, and End
// is left out) or "ppl" mode (gen false). A template with no Round joins the
// strings and prompts with newlines, as OpenCompass does without a meta
// template.
func (t *MetaTemplate) RenderPromptList(items []PromptItem, gen bool) (string, error) {
	if t == nil || len(t.Round) == 0 {
		return joinPlain(items), nil
	}
	if err := t.Validate(); err != nil {
		return "", err
	}
	var b strings.Builder
	generate, err := t.walkPromptList(items, gen, promptListVisitor{
		round: func(rd map[string]MetaRole, forGen bool) (bool, error) { return t.writeRound(&b, rd, forGen), nil },
		text:  func(s string) { b.WriteString(s) },
		role:  func(r MetaRole) error { b.WriteString(r.Begin + r.Prompt + r.End); return nil },
	})
	if err != nil {
		return "", err
	}
	out := t.Begin + b.String()
	if generate {
		out += t.End
	}
	return out, nil
}

// APIPromptList writes a PromptList as the message list of an API model, as
// OpenCompass's APITemplateParser does: each role becomes its api_role with
// begin, prompt and end joined; plain strings are left out; in gen mode the
// generate role of the last round and everything after it is dropped; and
// consecutive messages of the same api_role are merged with a newline. A
// list that yields no message (plain strings only, or nothing) is an error,
// as in OpenCompass (IndexError).
func (t *MetaTemplate) APIPromptList(items []PromptItem, gen bool) ([]APIMessage, error) {
	if t == nil || len(t.Round) == 0 {
		return nil, errors.New("opencompass: API mode needs a meta template with a round")
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	for _, r := range t.Round {
		if r.Role == "" {
			return nil, errors.New("opencompass: mixing str without explicit role is not allowed in API models")
		}
	}
	var out []APIMessage
	add := func(r MetaRole) error {
		if r.APIRole == "" {
			return errors.New("opencompass: role " + r.Role + " has no api_role")
		}
		out = append(out, APIMessage{Role: r.APIRole, Prompt: r.Begin + r.Prompt + r.End})
		return nil
	}
	_, err := t.walkPromptList(items, gen, promptListVisitor{
		round: func(rd map[string]MetaRole, forGen bool) (bool, error) {
			for _, mr := range t.Round {
				r := rd[mr.Role]
				if forGen && r.Generate {
					return false, nil
				}
				if err := add(r); err != nil {
					return false, err
				}
			}
			return true, nil
		},
		text: func(string) {}, // API models leave plain strings out
		role: add,
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		// OpenCompass merges from prompt[0] and raises IndexError.
		return nil, errors.New("opencompass: the prompt list gives an API model no message (only plain strings or nothing)")
	}
	merged := out[:0:0]
	for _, m := range out {
		if n := len(merged); n > 0 && merged[n-1].Role == m.Role {
			merged[n-1].Prompt += "\n" + m.Prompt
			continue
		}
		merged = append(merged, m)
	}
	return merged, nil
}

// promptListVisitor is what walkPromptList calls: round for each round of
// a round or ice section, with forGen for the last round of the round
// section in gen mode (false stops the walk: the generate role is
// reached); text for a plain string; role for a role item of the begin or
// end section.
type promptListVisitor struct {
	round func(rd map[string]MetaRole, forGen bool) (bool, error)
	text  func(s string)
	role  func(r MetaRole) error
}

// walkPromptList walks a PromptList's sections as OpenCompass's template
// parsers do, calling v; done is false when a round stopped it.
func (t *MetaTemplate) walkPromptList(items []PromptItem, gen bool, v promptListVisitor) (done bool, err error) {
	roles := t.roles()
	items = t.sectioned(items)
	var stack []openSection
	for i, it := range items {
		switch {
		case it.Section != "":
			if it.Pos == "begin" {
				stack = append(stack, openSection{it.Section, i + 1})
				continue
			}
			sec, err := popSection(&stack, it)
			if err != nil {
				return false, err
			}
			if sec.name != "round" && sec.name != "ice" {
				continue
			}
			dialogue := items[sec.start:i]
			cuts, err := t.splitRounds(dialogue)
			if err != nil {
				return false, err
			}
			for k := 0; k+1 < len(cuts); k++ {
				rd, err := roleDict(roles, dialogue[cuts[k]:cuts[k+1]])
				if err != nil {
					return false, err
				}
				forGen := gen && k == len(cuts)-2 && sec.name == "round"
				if more, err := v.round(rd, forGen); err != nil || !more {
					return false, err
				}
			}
		case it.Role == "":
			v.text(it.Text)
		default:
			if len(stack) == 0 {
				return false, errors.New("opencompass: role item " + it.Role + " outside a section")
			}
			if top := stack[len(stack)-1].name; top != "begin" && top != "end" {
				continue // written when its round section closes
			}
			rd, err := roleDict(roles, []PromptItem{it})
			if err != nil {
				return false, err
			}
			if err := v.role(rd[resolvedRole(roles, it)]); err != nil {
				return false, err
			}
		}
	}
	return true, nil
}

// Render writes a conversation with the meta template, as a Format's
// Render does: leading system messages form the begin section and the rest
// the round section, each message as the template role ChatRoles names
// (with the user's role as fallback). format.GenerationPrompt selects gen
// mode. A message whose text holds one of the template's markers (see
// Markers) is refused with a *format.SpecialTokenError, as a Format
// refuses a special token, unless format.AllowSpecialTokens. The other
// options of package format are refused (a meta template has no tools,
// continuation or variables).
func (t *MetaTemplate) Render(msgs []chat.Message, opts ...format.Option) (string, error) {
	s, err := settings(opts)
	if err != nil {
		return "", err
	}
	if !s.AllowSpecialTokens {
		if err := t.checkMarkers(msgs); err != nil {
			return "", err
		}
	}
	return t.RenderPromptList(t.PromptList(msgs), s.AddGenerationPrompt)
}

// Markers are the markers of the template's turns that content may not
// hold: the begin and end strings of its roles (and its own begin and
// end), without the whitespace at their ends, that hold one of < > [ ] |
// as a model's turn tokens do ("<eoh>", "<|im_end|>", "[INST]"). Prose
// markers ("USER:", "### Response:") are not among them: refusing them
// would refuse real content, as the presets of package format decide.
func (t *MetaTemplate) Markers() []string {
	if t == nil {
		return nil
	}
	var out []string
	add := func(s string) {
		s = strings.TrimSpace(s)
		if strings.ContainsAny(s, "<>[]|") && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	add(t.Begin)
	add(t.End)
	for _, rs := range [][]MetaRole{t.Round, t.ReservedRoles} {
		for _, r := range rs {
			add(r.Begin)
			add(r.End)
		}
	}
	return out
}

// checkMarkers refuses a message whose text holds one of the markers.
func (t *MetaTemplate) checkMarkers(msgs []chat.Message) error {
	marks := t.Markers()
	if len(marks) == 0 {
		return nil
	}
	for i, m := range msgs {
		text := m.Text()
		for _, mk := range marks {
			if strings.Contains(text, mk) {
				return &format.SpecialTokenError{Format: "opencompass", Index: i, Token: mk, Where: "content"}
			}
		}
	}
	return nil
}

// APIMessages renders a conversation in API mode (see APIPromptList) and maps
// the api_roles back to chat roles: HUMAN to user, BOT to assistant, SYSTEM
// to system.
func (t *MetaTemplate) APIMessages(msgs []chat.Message, opts ...format.Option) ([]chat.Message, error) {
	s, err := settings(opts)
	if err != nil {
		return nil, err
	}
	if s.AllowSpecialTokens {
		return nil, errors.New("opencompass: AllowSpecialTokens has no use: API mode writes messages, not a prompt string")
	}
	api, err := t.APIPromptList(t.PromptList(msgs), s.AddGenerationPrompt)
	if err != nil {
		return nil, err
	}
	out := make([]chat.Message, 0, len(api))
	for _, m := range api {
		role, err := chatRole(m.Role)
		if err != nil {
			return nil, err
		}
		out = append(out, chat.Text(role, m.Prompt))
	}
	return out, nil
}

// chatRole maps an api_role to a chat role as OpenCompass's model wrappers
// do.
func chatRole(apiRole string) (chat.Role, error) {
	switch apiRole {
	case "HUMAN":
		return chat.RoleUser, nil
	case "BOT":
		return chat.RoleAssistant, nil
	case "SYSTEM":
		return chat.RoleSystem, nil
	}
	return "", fmt.Errorf("opencompass: api_role %q is not HUMAN, BOT or SYSTEM", apiRole)
}

// ChatTemplateMessages converts API-mode messages (APIPromptList's) to the
// messages OpenCompass's HuggingFacewithChatTemplate gives a model's chat
// template (_convert_chat_messages with merge_role and skip_empty_prompt):
// HUMAN, BOT and SYSTEM become user, assistant and system (any other
// api_role is an error, OpenCompass's KeyError), a message whose prompt is
// empty is left out, and then consecutive messages of one role are joined
// with "\n". Render the result with the model's template (package
// chattemplate) and a generation prompt, as OpenCompass does. A plain
// string prompt is, there, one user message.
func ChatTemplateMessages(api []APIMessage) ([]chat.Message, error) {
	out := make([]chat.Message, 0, len(api))
	for _, m := range api {
		role, err := chatRole(m.Role)
		if err != nil {
			return nil, err
		}
		if m.Prompt == "" {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			out[n-1] = chat.Text(role, out[n-1].Text()+"\n"+m.Prompt)
			continue
		}
		out = append(out, chat.Text(role, m.Prompt))
	}
	return out, nil
}

// settings applies opts, refusing those a meta template has no use for:
// only GenerationPrompt is.
func settings(opts []format.Option) (option.Settings, error) {
	s := option.Apply(opts)
	switch {
	case s.ContinueFinal:
		return s, errors.New("opencompass: ContinueFinal is not supported")
	case len(s.Tools) > 0:
		return s, errors.New("opencompass: Tools are not supported")
	case s.Vars != nil:
		return s, format.ErrVars
	}
	return s, nil
}

// PromptList is the PromptList Render renders for msgs.
func (t *MetaTemplate) PromptList(msgs []chat.Message) []PromptItem {
	names := t.chatNames()
	item := func(m chat.Message) PromptItem {
		name := names[m.Role]
		if name == "" {
			name = strings.ToUpper(string(m.Role))
		}
		it := PromptItem{Role: name, Prompt: m.Text()}
		if m.Role != chat.RoleUser {
			it.FallbackRole = names[chat.RoleUser]
		}
		return it
	}
	items := make([]PromptItem, 0, len(msgs)+4)
	items = append(items, PromptItem{Section: "begin", Pos: "begin"})
	i := 0
	for ; i < len(msgs) && msgs[i].Role == chat.RoleSystem; i++ {
		items = append(items, item(msgs[i]))
	}
	items = append(items, PromptItem{Section: "begin", Pos: "end"}, PromptItem{Section: "round", Pos: "begin"})
	for ; i < len(msgs); i++ {
		items = append(items, item(msgs[i]))
	}
	return append(items, PromptItem{Section: "round", Pos: "end"})
}

type openSection struct {
	name  string
	start int
}

func popSection(stack *[]openSection, it PromptItem) (openSection, error) {
	if it.Pos != "end" {
		return openSection{}, errors.New("opencompass: invalid pos " + it.Pos)
	}
	s := *stack
	if len(s) == 0 || s[len(s)-1].name != it.Section {
		return openSection{}, errors.New("opencompass: section " + it.Section + " ends without beginning")
	}
	top := s[len(s)-1]
	*stack = s[:len(s)-1]
	return top, nil
}

// sectioned gives a PromptList without section markers the sections the
// OpenCompass documentation implies for such lists: leading items whose
// role is not a round role (SYSTEM, say) form the begin section, the rest
// the round section. (OpenCompass itself fails on such a list.) A list of
// strings only needs no section: OpenCompass writes it between the
// template's begin and end, with no round.
func (t *MetaTemplate) sectioned(items []PromptItem) []PromptItem {
	roles := false
	for _, it := range items {
		if it.Section != "" {
			return items
		}
		roles = roles || it.Role != ""
	}
	if !roles {
		return items
	}
	inRound := map[string]bool{}
	for _, r := range t.Round {
		if r.Role != "" {
			inRound[r.Role] = true
		}
	}
	n := 0
	for n < len(items) && (items[n].Role == "" || !inRound[items[n].Role]) {
		n++
	}
	out := make([]PromptItem, 0, len(items)+4)
	if n > 0 {
		out = append(out, PromptItem{Section: "begin", Pos: "begin"})
		out = append(out, items[:n]...)
		out = append(out, PromptItem{Section: "begin", Pos: "end"})
	}
	out = append(out, PromptItem{Section: "round", Pos: "begin"})
	out = append(out, items[n:]...)
	return append(out, PromptItem{Section: "round", Pos: "end"})
}

// splitRounds returns the cut points of the dialogue's rounds: a round
// starts whenever a role does not come later in the template's round than
// the one before it.
func (t *MetaTemplate) splitRounds(dialogue []PromptItem) ([]int, error) {
	idx := map[string]int{}
	for i, r := range t.Round {
		if r.Role != "" {
			idx[r.Role] = i
		}
	}
	cuts := []int{0}
	last := -1
	for i, it := range dialogue {
		if it.Role == "" {
			continue
		}
		k, ok := idx[it.Role]
		if !ok {
			k, ok = idx[it.FallbackRole]
		}
		if !ok {
			return nil, noRole(it)
		}
		if k <= last {
			cuts = append(cuts, i)
		}
		last = k
	}
	return append(cuts, len(dialogue)), nil
}

// roleDict is the template's roles updated with the dialogue's items.
func roleDict(roles map[string]MetaRole, round []PromptItem) (map[string]MetaRole, error) {
	rd := make(map[string]MetaRole, len(roles))
	for k, v := range roles {
		rd[k] = v
	}
	for _, it := range round {
		if it.Role == "" {
			continue
		}
		name := resolvedRole(roles, it)
		if name == "" {
			return nil, noRole(it)
		}
		r := rd[name]
		r.Prompt = it.Prompt
		if it.Begin != nil {
			r.Begin = *it.Begin
		}
		if it.End != nil {
			r.End = *it.End
		}
		if it.Generate != nil {
			r.Generate = *it.Generate
		}
		rd[name] = r
	}
	return rd, nil
}

func resolvedRole(roles map[string]MetaRole, it PromptItem) string {
	if _, ok := roles[it.Role]; ok {
		return it.Role
	}
	if _, ok := roles[it.FallbackRole]; ok {
		return it.FallbackRole
	}
	return ""
}

func noRole(it PromptItem) error {
	return fmt.Errorf("opencompass: role %q is not in the meta template and has no usable fallback role", it.Role)
}

// joinPlain is OpenCompass's rendering without a meta template: strings and
// prompts joined with newlines, section markers skipped. An empty item
// writes nothing but still sets the separator.
func joinPlain(items []PromptItem) string {
	var b strings.Builder
	sep := ""
	for _, it := range items {
		if it.Section != "" {
			continue
		}
		s := it.Text
		if it.Role != "" {
			s = it.Prompt
		}
		if s != "" {
			b.WriteString(sep)
			b.WriteString(s)
		}
		sep = "\n"
	}
	return b.String()
}

// writeRound writes one round of the template with the round's role texts.
// With forGen it stops after the begin of the first generate role and
// reports false.
func (t *MetaTemplate) writeRound(b *strings.Builder, rd map[string]MetaRole, forGen bool) bool {
	for _, mr := range t.Round {
		if mr.Role == "" {
			b.WriteString(mr.Text)
			continue
		}
		r := rd[mr.Role]
		b.WriteString(r.Begin)
		if forGen && r.Generate {
			return false
		}
		b.WriteString(r.Prompt)
		b.WriteString(r.End)
	}
	return true
}

// Parse reads a MetaTemplate from its JSON form, refusing
// unknown fields and the templates OpenCompass refuses. A JSON array is the
// list form of an API meta template, read by ParseList.
func Parse(data []byte) (*MetaTemplate, error) {
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '[' {
		return nil, errors.New("opencompass: a JSON array is a list-form meta template: read it with ParseList")
	}
	return strictjson.Decode[MetaTemplate](data, "opencompass")
}

// chatNames maps each chat role to its template role: the defaults, then
// ChatRoles.
func (t *MetaTemplate) chatNames() map[chat.Role]string {
	names := map[chat.Role]string{
		chat.RoleUser:      "HUMAN",
		chat.RoleAssistant: "BOT",
		chat.RoleSystem:    "SYSTEM",
		chat.RoleDeveloper: "SYSTEM",
	}
	if t != nil {
		for k, v := range t.ChatRoles {
			names[k] = v
		}
	}
	return names
}

// ToFormat converts the meta template to a Format. The Format writes what
// Render writes for a conversation of whole rounds: after leading
// system messages, user and assistant messages alternate from a user
// message, and the conversation ends with a user message when a generation
// prompt is asked for and with an assistant message otherwise. Elsewhere
// the two differ as a Format and a meta template do: a meta template
// writes a round role that a round lacks (empty), and starts a new round
// where a role repeats; a Format writes the messages it is given. Roles the
// template lacks are written as the user's, as Render does.
//
// A template converts when its round is the user's role then the
// assistant's (ChatRoles names them; HUMAN and BOT by default), without
// plain strings or default prompts, and the assistant's role is the
// generate role; otherwise ToFormat says which of these fails.
func (t *MetaTemplate) ToFormat() (*format.Format, error) {
	if t == nil {
		return nil, errors.New("opencompass: round is required in meta template")
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	names := t.chatNames()
	userName, asstName := names[chat.RoleUser], names[chat.RoleAssistant]
	for _, r := range t.Round {
		if r.Role == "" {
			return nil, fmt.Errorf("opencompass: a Format cannot write the string %q of the round", r.Text)
		}
		if r.Prompt != "" {
			return nil, fmt.Errorf("opencompass: a Format cannot write the default prompt of role %s", r.Role)
		}
	}
	if len(t.Round) != 2 || t.Round[0].Role != userName || t.Round[1].Role != asstName {
		return nil, fmt.Errorf("opencompass: a Format needs a round of the user's role %s and the assistant's role %s, in that order", userName, asstName)
	}
	if !t.Round[1].Generate || t.Round[0].Generate {
		return nil, fmt.Errorf("opencompass: a Format needs the assistant's role %s to be the generate role", asstName)
	}
	roles := t.roles()
	userTurn := format.Turn{Begin: t.Round[0].Begin, End: t.Round[0].End}
	f := &format.Format{
		Name:             "opencompass",
		Description:      "OpenCompass meta template",
		Begin:            t.Begin,
		End:              t.End,
		Roles:            map[chat.Role]format.Turn{},
		Generate:         chat.RoleAssistant,
		GenerationPrompt: t.Round[1].Begin,
		Special:          t.Markers(),
	}
	for role, name := range names {
		if r, ok := roles[name]; ok {
			f.Roles[role] = format.Turn{Begin: r.Begin, End: r.End}
			continue
		}
		if f.Fallback == nil {
			f.Fallback = map[chat.Role]chat.Role{}
		}
		f.Fallback[role] = chat.RoleUser
	}
	// Any other role is written as the user's, unless the user's turn
	// holds text that Other would read as a role placeholder.
	if !strings.Contains(userTurn.Begin+userTurn.End, "{role}") && !strings.Contains(userTurn.Begin+userTurn.End, "{Role}") {
		f.Other = &userTurn
	}
	return f, nil
}
