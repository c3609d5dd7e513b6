package prompter

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rolemark/rolemark/chat"
)

// The instruction texts LazyLLM builds around the caller's instruction.
const (
	alpacaIntro = "Below is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n"
	extraIntro  = "Here are some extra messages you can referred to:\n\n"
)

type kind int

const (
	alpaca kind = iota
	chatKind
)

// template is an instruction ready to be filled: its system-level and
// user-level parts as literal text and {slot} references.
type template struct {
	system, user []segment
	slots        []string // distinct slot names, in order of first use
	fc           bool     // the function-call prompt is appended
}

// segment is literal text, or a reference to slots[slot] when slot >= 0.
type segment struct {
	text string
	slot int
}

// compile builds the instruction template of a prompter of kind k from the
// caller's instruction and the options in c. In Release2605 with tools, the
// tool names replace {tool_names}, and in the string form (stringForm)
// the function-call prompt is appended when the markers name the three
// tool tokens, as LazyLLM does before it looks for slots.
func compile(k kind, instruction string, c *config, stringForm bool) (template, error) {
	if c.release != Release2406 && c.release != Release2605 {
		return template{}, newError(ErrOption, fmt.Sprintf("unknown release %d", int(c.release)))
	}
	var extra strings.Builder
	if len(c.extraKeys) > 0 {
		extra.WriteString(extraIntro)
	}
	for _, key := range c.extraKeys {
		if !isWord(key) {
			return template{}, newError(ErrOption, fmt.Sprintf("extra key %q: want letters, digits and underscores only", key))
		}
		extra.WriteString("### " + key + ":\n{" + key + "}\n\n")
	}
	ext := extra.String()

	var system, user string
	switch k {
	case alpaca:
		prefix := alpacaIntro + "### Instruction:\n"
		if c.release == Release2406 {
			prefix = alpacaIntro + " ### Instruction:\n"
		}
		if c.userSet {
			system, user = prefix+instruction, c.user
			if ext != "" {
				user += "\n\n" + ext
			}
		} else {
			system = prefix + instruction + "\n\n" + ext
		}
	case chatKind:
		switch {
		case c.userSet:
			system, user = instruction, c.user+ext
		case instruction != "" || ext != "" || c.release == Release2406:
			system = instruction + "\n" + ext + "\n"
		}
	}
	var t template
	if c.release == Release2605 && len(c.tools) > 0 {
		if m := c.activeMarkers(); stringForm && !c.userSet && m.CallStart != "" && m.CallArgs != "" && m.CallEnd != "" {
			// A split instruction's system and user parts end at its
			// splitter, and what LazyLLM appends after it is dropped.
			system += "\n\n" + strings.NewReplacer("{tool_start_token}", m.CallStart,
				"{tool_args_token}", m.CallArgs, "{tool_end_token}", m.CallEnd).Replace(fcPrompt)
			t.fc = true
		}
		names := toolNames(c.tools)
		system = strings.ReplaceAll(system, "{tool_names}", names)
		user = strings.ReplaceAll(user, "{tool_names}", names)
	}
	t.system = t.parse(system)
	t.user = t.parse(user)
	return t, nil
}

// fcPrompt is LazyLLM 2605's FC_PROMPT: how a model with tool tokens is
// told to call a tool, appended to the instruction in the string form.
// Its example's doubled braces are single after Python's str.format, which
// fills an instruction of one slot from a single value (fcExample).
const fcPrompt = "{tool_start_token}tool name (one of {tool_names})\n" +
	"{tool_args_token}the input to the tool, in a JSON format representing the kwargs. Can only return json.\n" +
	"{tool_end_token}end of tool.\n" +
	"(e.g. {tool_start_token}tool_name\n{tool_args_token}" + fcExample + "\n{tool_end_token}).\n"

const fcExample = "{{'input': 'hello world', 'num_beams': 5}}"

// toolNames is what {tool_names} becomes: the tools' names as a JSON5
// list.
func toolNames(tools []chat.Tool) string {
	var b []byte
	b = append(b, '[')
	for i, t := range tools {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendJSON5String(b, t.Name)
	}
	return string(append(b, ']'))
}

// parse splits s into literal text and {slot} references, recording new
// slot names in t.slots. A slot is a word (letters, digits, underscores)
// between single braces; any other brace is literal text.
func (t *template) parse(s string) []segment {
	var segs []segment
	lit := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '{' {
			continue
		}
		j := i + 1
		for j < len(s) {
			r, size := utf8.DecodeRuneInString(s[j:])
			if !isWordRune(r) {
				break
			}
			j += size
		}
		if j == i+1 || j == len(s) || s[j] != '}' {
			continue
		}
		name := s[i+1 : j]
		if lit < i {
			segs = append(segs, segment{text: s[lit:i], slot: -1})
		}
		n := slices.Index(t.slots, name)
		if n < 0 {
			n = len(t.slots)
			t.slots = append(t.slots, name)
		}
		segs = append(segs, segment{slot: n})
		i = j
		lit = j + 1
	}
	if lit < len(s) {
		segs = append(segs, segment{text: s[lit:], slot: -1})
	}
	return segs
}

// isWord reports whether s is a non-empty run of letters, numbers and
// underscores (Python's \w+).
func isWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !isWordRune(r) {
			return false
		}
	}
	return true
}

func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// fill computes the slot values from input and returns them with the part
// of the input that fills no slot, which becomes the user's turn.
func (t *template) fill(input any) (values []string, rest string, err error) {
	switch in := input.(type) {
	case string:
		return t.fillOne(in)
	case map[string]string:
		return fillMap(t, in, func(_ string, v string) (string, error) { return v, nil })
	case map[string]any:
		return fillMap(t, in, func(k string, v any) (string, error) {
			if s, ok := v.(string); ok {
				return s, nil
			}
			if rv := reflect.ValueOf(v); rv.Kind() == reflect.String {
				return rv.String(), nil
			}
			return "", newError(ErrInputType, fmt.Sprintf("input key %q holds a %T; want a string", k, v))
		})
	}
	v := reflect.ValueOf(input)
	switch v.Kind() {
	case reflect.String:
		return t.fillOne(v.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return t.fillOne(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return t.fillOne(strconv.FormatUint(v.Uint(), 10))
	case reflect.Map:
		if v.Type().Key().Kind() == reflect.String {
			m := make(map[string]any, v.Len())
			for it := v.MapRange(); it.Next(); {
				m[it.Key().String()] = it.Value().Interface()
			}
			return t.fill(m)
		}
	}
	return nil, "", newError(ErrInputType, fmt.Sprintf("input of type %T: want a string, an integer or a map with string keys and string values", input))
}

// fillOne places a single value: into the instruction's one slot, or, when
// there is none, into the user's turn.
func (t *template) fillOne(s string) ([]string, string, error) {
	switch len(t.slots) {
	case 0:
		return nil, s, nil
	case 1:
		return []string{s}, "", nil
	}
	return nil, "", newError(ErrSlotCount, fmt.Sprintf("a single input value needs an instruction with at most one {slot}; this one has %d (%s): pass a map with a key for each",
		len(t.slots), braceList(t.slots)))
}

// fillMap fills every slot from the map; a single key left over is the
// user's turn. str converts a value to its text.
func fillMap[V any](t *template, in map[string]V, str func(string, V) (string, error)) ([]string, string, error) {
	values := make([]string, len(t.slots))
	var missing []string
	for i, name := range t.slots {
		v, ok := in[name]
		if !ok {
			missing = append(missing, name)
			continue
		}
		s, err := str(name, v)
		if err != nil {
			return nil, "", err
		}
		values[i] = s
	}
	if missing != nil {
		sort.Strings(missing)
		return nil, "", newError(ErrMissingKey, fmt.Sprintf("input has no key %s for the instruction's %s",
			quoteList(missing), braceList(missing)), missing...)
	}
	if len(in) == len(t.slots) {
		return values, "", nil
	}
	var left []string
	for k := range in {
		if !slices.Contains(t.slots, k) {
			left = append(left, k)
		}
	}
	if len(left) == 1 {
		rest, err := str(left[0], in[left[0]])
		return values, rest, err
	}
	sort.Strings(left)
	return nil, "", newError(ErrUnexpectedKeys, fmt.Sprintf("input keys %s fill no {slot}; at most one key may be left over, as the user's turn",
		quoteList(left)), left...)
}

// render writes segs with the slot values to b.
func render(b *strings.Builder, segs []segment, values []string) {
	for _, s := range segs {
		if s.slot < 0 {
			b.WriteString(s.text)
		} else {
			b.WriteString(values[s.slot])
		}
	}
}

// renderString returns segs with the slot values as one string.
func renderString(segs []segment, values []string) string {
	switch {
	case len(segs) == 0:
		return ""
	case len(segs) == 1 && segs[0].slot < 0:
		return segs[0].text
	}
	var b strings.Builder
	render(&b, segs, values)
	return b.String()
}

func braceList(names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = "{" + n + "}"
	}
	return strings.Join(parts, ", ")
}

func quoteList(names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = strconv.Quote(n)
	}
	return strings.Join(parts, ", ")
}
