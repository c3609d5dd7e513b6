package roleparse

import "github.com/rolemark/rolemark/internal/typo"

// Lookalike is text that looks like a markup tag but is not one, such as a
// misspelled closing tag: the parser reads it as message content.
type Lookalike struct {
	// Offset is the byte offset of its "<" in the text.
	Offset int
	// Found is the tag as written, from "<" through its name ("</mesage").
	Found string
	// Tag is the markup tag it resembles, written the same way ("</message").
	Tag string
}

// Lookalikes returns every place in s where a tag opens whose name is one
// edit (an insertion, deletion, substitution or swap of neighbours) away
// from one of the markup's longer tag names (message, tool_call,
// function_call, function_result, chat_history), ignoring ASCII case. The
// plural of a tag name (<messages>) is not reported: prompts use such words
// as their own tags, unless it is a closing tag that no opening tag of
// the same plural opens where the singular's tag opens (</messages> after
// <message role="user">; a prompt that quotes </function_calls>, Anthropic's
// old stop sequence, with no <function_call> is left alone).
// Shorter names such as text or file are left out, since
// ordinary words lie one edit from them.
func Lookalikes(s string) []Lookalike {
	var out []Lookalike
	var opened map[string]bool // opensTag's answers, each asked once
	for i := 0; i < len(s); i++ {
		if s[i] != '<' {
			continue
		}
		j := i + 1
		closing := j < len(s) && s[j] == '/'
		if closing {
			j++
		}
		k := j
		for k < len(s) && isNameByte(s[k]) {
			k++
		}
		if k == j {
			continue
		}
		name := lowerASCII(s[j:k])
		tag, ok := lookalikeOf(name)
		if !ok && closing {
			if tag, ok = pluralOf(name); ok {
				// a typo for the singular's end only where the
				// singular opens and the plural does not
				ok = !opensOnce(s, name, &opened) && opensOnce(s, tag, &opened)
			}
		}
		if !ok {
			continue
		}
		l := Lookalike{Offset: i, Found: s[i:k], Tag: "<" + tag}
		if closing {
			l.Tag = "</" + tag
		}
		out = append(out, l)
		i = k - 1
	}
	return out
}

// pluralOf returns the markup tag of which name, in lower case, is the
// plural (messages: message).
func pluralOf(name string) (string, bool) {
	for _, tag := range innerTags {
		if len(tag) >= 7 && name == tag+"s" {
			return tag, true
		}
	}
	return "", false
}

// opensOnce is opensTag(s, name), asked once per name: opened keeps the
// answers.
func opensOnce(s, name string, opened *map[string]bool) bool {
	o, asked := (*opened)[name]
	if !asked {
		o = opensTag(s, name)
		if *opened == nil {
			*opened = map[string]bool{}
		}
		(*opened)[name] = o
	}
	return o
}

// opensTag reports whether s holds an opening tag named name, in any
// ASCII case.
func opensTag(s, name string) bool {
	for i := 0; i+1+len(name) <= len(s); i++ {
		if s[i] == '<' && lowerASCII(s[i+1:i+1+len(name)]) == name && (i+1+len(name) == len(s) || !isNameByte(s[i+1+len(name)])) {
			return true
		}
	}
	return false
}

// lookalikeOf returns the tag that name, in lower case, resembles.
func lookalikeOf(name string) (string, bool) {
	for _, tag := range innerTags {
		if len(tag) < 7 || name == tag || name == tag+"s" {
			continue
		}
		if typo.OneEdit(name, tag) {
			return tag, true
		}
	}
	return "", false
}
