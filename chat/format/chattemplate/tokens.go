package chattemplate

import (
	"regexp"
	"slices"
	"strings"
)

// textTokenPattern matches what a chat template's text writes that has the
// form of a special token: <|…|> and DeepSeek's <｜…｜>; [INST], [/INST],
// [TOOL_CALLS], [gMASK] (brackets around a word with at least two capital
// letters, checked after the match); <start_of_turn>, </tool_call> (a tag
// whose name has an underscore); and <s>, </s>, <bos>, <eos>, <pad>, <unk>,
// <sop>, <eop>.
var textTokenPattern = regexp.MustCompile(`<\|[^\s|<>]{1,40}\|>|<｜[^\s｜]{1,40}｜>|\[/?[A-Za-z][A-Za-z0-9_]{1,30}\]|</?[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+>|</?s>|<(?:bos|eos|pad|unk|sop|eop)>`)

// textTokens returns the strings of sources that have the form of a
// special token (textTokenPattern), sorted, each once. A template without
// a tokenizer config takes these as its special tokens: the tokens a
// template writes are the ones that close and open turns, so content
// holding one could forge a turn whatever the tokenizer says.
func textTokens(sources ...string) []string {
	var out []string
	for _, src := range sources {
		for _, m := range textTokenPattern.FindAllString(src, -1) {
			if m[0] == '[' && upper(m) < 2 {
				continue
			}
			out = append(out, m)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func upper(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			n++
		}
	}
	return n
}

// jinjaLiterals yields the texts a Jinja source writes of its own: the
// text between its tags (also trimmed, as whitespace control and
// trim_blocks/lstrip_blocks may write it) and the string constants inside
// its tags, with their escapes decoded. It reads the source loosely: what
// it cannot read it yields as text, which can only make the check of
// guard.joins stricter.
func jinjaLiterals(src string, yield func(string) bool) bool {
	text := func(s string) bool {
		return yield(s) && yield(strings.TrimSpace(s)) &&
			yield(strings.TrimLeft(s, " \t\r\n")) && yield(strings.TrimRight(s, " \t\r\n"))
	}
	for len(src) > 0 {
		i := strings.IndexByte(src, '{')
		for i >= 0 && i+1 < len(src) && src[i+1] != '{' && src[i+1] != '%' && src[i+1] != '#' {
			j := strings.IndexByte(src[i+1:], '{')
			if j < 0 {
				i = -1
				break
			}
			i += 1 + j
		}
		if i < 0 || i+1 >= len(src) {
			return text(src)
		}
		if !text(src[:i]) {
			return false
		}
		kind := src[i+1]
		src = src[i+2:]
		if kind == '#' {
			end := strings.Index(src, "#}")
			if end < 0 {
				return true
			}
			src = src[end+2:]
			continue
		}
		closer := byte('}')
		if kind == '%' {
			closer = '%'
		}
		// The tag: its string constants, up to the closer outside them.
		start, closed := src, false
		for k := 0; k < len(src) && !closed; k++ {
			c := src[k]
			if c == '\'' || c == '"' {
				var b strings.Builder
				k++
				for k < len(src) && src[k] != c {
					if src[k] == '\\' && k+1 < len(src) {
						k++
						switch src[k] {
						case 'n':
							b.WriteByte('\n')
						case 't':
							b.WriteByte('\t')
						case 'r':
							b.WriteByte('\r')
						default:
							b.WriteByte(src[k])
						}
					} else {
						b.WriteByte(src[k])
					}
					k++
				}
				if !yield(b.String()) {
					return false
				}
				continue
			}
			if c == closer && k+1 < len(src) && src[k+1] == '}' {
				tag := start[:k]
				src, closed = src[k+2:], true
				if kind == '%' && strings.Trim(strings.TrimSpace(tag), "-+ ") == "raw" {
					end := strings.Index(src, "endraw")
					if end < 0 {
						return text(src)
					}
					if !text(src[:end]) {
						return false
					}
					src = src[end:]
					if j := strings.Index(src, "}"); j >= 0 {
						src = src[j+1:]
					}
				}
			}
		}
		if !closed {
			return true
		}
	}
	return true
}
