package jinja2

import (
	"math/rand/v2"
	"strings"
)

// lipsum(n=5, html=True, min=20, max=100): paragraphs of random Latin
// words, built as Jinja2's generate_lorem_ipsum builds them (capitalised
// sentences, commas and full stops at random). The text is random in
// Jinja2 too, so no render can be compared with Python's byte for byte.

const lipsumWords = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor " +
	"incididunt ut labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation " +
	"ullamco laboris nisi aliquip ex ea commodo consequat duis aute irure in reprehenderit " +
	"voluptate velit esse cillum fugiat nulla pariatur excepteur sint occaecat cupidatat non " +
	"proident sunt culpa qui officia deserunt mollit anim id est laborum"

func gLipsum(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bind("generate_lorem_ipsum", args, kw, "n", "html", "min", "max")
	if err != nil {
		return Value{}, err
	}
	n, lo, hi := int64(5), int64(20), int64(100)
	for i, p := range []*int64{&n, nil, &lo, &hi} {
		if p != nil && set[i] {
			if *p, err = intArg(a[i]); err != nil {
				return Value{}, err
			}
		}
	}
	html := !set[1] || a[1].Truth()
	if hi <= lo {
		return Value{}, valueErr("empty range for randrange() (%d, %d, %d)", lo, hi, hi-lo)
	}
	if err := grow(c, int(n*hi*12)); err != nil {
		return Value{}, err
	}
	words := strings.Fields(lipsumWords)
	c.Varies()
	between := func(a, b int64) int64 { return a + rand.Int64N(b-a) }
	var result []string
	for range n {
		nextCap := true
		lastComma, lastStop := int64(0), int64(0)
		last := ""
		var p []string
		count := between(lo, hi)
		for idx := int64(0); idx < count; idx++ {
			word := words[rand.IntN(len(words))]
			for word == last {
				word = words[rand.IntN(len(words))]
			}
			last = word
			if nextCap {
				word = pyCapitalize(word)
				nextCap = false
			}
			if idx-between(3, 8) > lastComma {
				lastComma = idx
				lastStop += 2
				word += ","
			}
			if idx-between(10, 20) > lastStop {
				lastComma, lastStop = idx, idx
				word += "."
				nextCap = true
			}
			p = append(p, word)
		}
		s := strings.Join(p, " ")
		switch {
		case strings.HasSuffix(s, ","):
			s = s[:len(s)-1] + "."
		case !strings.HasSuffix(s, "."):
			s += "."
		}
		result = append(result, s)
	}
	if !html {
		return StrV(strings.Join(result, "\n\n")), nil
	}
	for i, s := range result {
		result[i] = "<p>" + htmlEscapeStr(s) + "</p>"
	}
	return SafeV(strings.Join(result, "\n")), nil
}
