package chattemplate

import (
	"regexp"
	"slices"

	"github.com/rolemark/rolemark/internal/jinja2"
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

// jinjaLiterals yields the texts a template writes of its own, read from
// its syntax tree: the text between its tags, as the parser leaves it
// after whitespace control and trim_blocks/lstrip_blocks, and its
// constants' strs (inside lists, tuples and dicts too), with their escapes
// decoded as Jinja2 decodes them. It stops, returning false, when yield
// does.
func jinjaLiterals(tree *jinja2.Tree, yield func(string) bool) bool {
	ok := true
	jinja2.Walk(tree.Body, func(n jinja2.Node) bool {
		switch x := n.(type) {
		case *jinja2.Text:
			ok = yield(x.Text)
		case *jinja2.Const:
			ok = constLiterals(x.Value, yield)
		}
		return ok
	})
	return ok
}

// constLiterals yields the strs of a constant.
func constLiterals(v jinja2.Value, yield func(string) bool) bool {
	switch v.Kind() {
	case jinja2.KindStr:
		return yield(v.Str())
	case jinja2.KindList, jinja2.KindTuple:
		for _, it := range v.Items() {
			if !constLiterals(it, yield) {
				return false
			}
		}
	case jinja2.KindDict:
		d := v.DictOf()
		for i, k := range d.Keys() {
			if !constLiterals(k, yield) || !constLiterals(d.Values()[i], yield) {
				return false
			}
		}
	}
	return true
}
