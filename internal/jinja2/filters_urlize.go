package jinja2

import (
	"regexp"
	"sort"
	"strings"
)

// The urlize filter: jinja2.utils.urlize with Jinja2's default policies
// (rel "noopener", no target, no extra schemes). Python's \w, \d, \s and
// \S are Unicode-aware; the classes below spell them out for Go's regexp,
// as the python3 here (3.11, Unicode 14.0) has them: \w is a letter, a
// number or _, \d a decimal digit, of Unicode 14.0, so the characters
// Unicode 15.0 added (which Go's unicode package knows) are neither
// (addedInUnicode15, as repr leaves them escaped). pyW and pyD spell the
// classes out (filters_urlize_classes.go, checked by TestUrlizeClasses).

const (
	pyS  = `\t\n\v\f\r \x{1c}-\x{1f}\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}`
	pyNS = `[^` + pyS + `]`
	// Under re.IGNORECASE, Python's i also matches U+0130 and U+0131
	// (İ lowers to i; ı is i's equivalent), which Go's (?i) does not.
	pyI = `[iİı]`
)

var (
	urlizeHTTPRe = regexp.MustCompile(`(?i)^(` +
		`(https?://|www\.)(([` + pyW + `%-]+\.)+)?([a-zİı]{2,63}|xn--[` + pyW + `%]{2,59})` +
		`|([` + pyW + `%-]{2,63}\.)+(com|net|` + pyI + `nt|edu|gov|org|` + pyI + `nfo|m` + pyI + `l)` +
		`|(https?://)((([` + pyD + `]{1,3})(\.[` + pyD + `]{1,3}){3})|(\[([` + pyD + `a-f]{0,4}:){2}([` + pyD + `a-f]{0,4}:?){1,6}\]))` +
		`)(?::[` + pyD + `]{1,5})?(?:[/?#]` + pyNS + `*)?$`)
	urlizeEmailRe  = regexp.MustCompile(`^` + pyNS + `+@[` + pyW + `][` + pyW + `.-]*\.[` + pyW + `]+$`)
	urlizeSpaceRe  = regexp.MustCompile(`[` + pyS + `]+`)
	urlizeLeadRe   = regexp.MustCompile(`^(?:[(<]|&lt;)+`)
	urlizeTrailRe  = regexp.MustCompile(`(?:[)>.,\n]|&gt;)+$`)
	urlizeSchemeRe = regexp.MustCompile(`^([` + pyW + `.+-]{2,}:(/){0,2})$`)
)

// urlize is jinja2.utils.urlize on text already escaped.
// trim shortens a link's text (nil: no trim_url_limit).
func urlize(text string, trim func(string) string, rel, target string, extraSchemes []string) string {
	if trim == nil {
		trim = func(x string) string { return x }
	}
	relAttr, targetAttr := "", ""
	if rel != "" {
		relAttr = ` rel="` + htmlEscapeStr(rel) + `"`
	}
	if target != "" {
		targetAttr = ` target="` + htmlEscapeStr(target) + `"`
	}
	var b strings.Builder
	last := 0
	words := []string{}
	for _, loc := range urlizeSpaceRe.FindAllStringIndex(text, -1) {
		words = append(words, text[last:loc[0]], text[loc[0]:loc[1]])
		last = loc[1]
	}
	words = append(words, text[last:])
	for _, word := range words {
		head, middle, tail := "", word, ""
		if m := urlizeLeadRe.FindString(middle); m != "" {
			head, middle = m, middle[len(m):]
		}
		if loc := urlizeTrailRe.FindStringIndex(middle); loc != nil {
			tail, middle = middle[loc[0]:], middle[:loc[0]]
		}
		for _, pair := range [][2]string{{"(", ")"}, {"<", ">"}, {"&lt;", "&gt;"}} {
			startCount := strings.Count(middle, pair[0])
			if startCount <= strings.Count(middle, pair[1]) {
				continue
			}
			n := strings.Count(tail, pair[1])
			if startCount < n {
				n = startCount
			}
			for k := 0; k < n; k++ {
				end := strings.Index(tail, pair[1]) + len(pair[1])
				middle += tail[:end]
				tail = tail[end:]
			}
		}
		switch {
		case urlizeHTTPRe.MatchString(middle):
			if strings.HasPrefix(middle, "https://") || strings.HasPrefix(middle, "http://") {
				middle = `<a href="` + middle + `"` + relAttr + targetAttr + `>` + trim(middle) + `</a>`
			} else {
				middle = `<a href="https://` + middle + `"` + relAttr + targetAttr + `>` + trim(middle) + `</a>`
			}
		case strings.HasPrefix(middle, "mailto:") && urlizeEmailRe.MatchString(middle[7:]):
			middle = `<a href="` + middle + `">` + middle[7:] + `</a>`
		case strings.Contains(middle, "@") && !strings.HasPrefix(middle, "www.") && !strings.HasPrefix(middle, "@") &&
			!strings.Contains(middle, ":") && urlizeEmailRe.MatchString(middle):
			middle = `<a href="mailto:` + middle + `">` + middle + `</a>`
		default:
			for _, scheme := range extraSchemes {
				if middle != scheme && strings.HasPrefix(middle, scheme) {
					middle = `<a href="` + middle + `"` + relAttr + targetAttr + `>` + middle + `</a>`
				}
			}
		}
		b.WriteString(head)
		b.WriteString(middle)
		b.WriteString(tail)
	}
	return b.String()
}

func fUrlize(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bind("do_urlize", args, kw, "trim_url_limit", "nofollow", "target", "rel", "extra_schemes")
	if err != nil {
		return Value{}, err
	}
	// utils.urlize's trim_url reads the limit only for a link it makes:
	// len(x) > limit, then x[:limit], with Python's errors
	var trim func(string) string
	var trimErr error
	if set[0] && a[0].kind != KindNone {
		limit := a[0]
		trim = func(x string) string {
			if trimErr != nil {
				return x
			}
			gt, err := Compare(c, ">", IntV(int64(runeCountW(x))), limit)
			if err != nil || !gt {
				trimErr = err
				return x
			}
			cut, err := Slice(c, StrV(x), Value{}, limit, Value{})
			if err != nil {
				trimErr = err
				return x
			}
			return cut.s + "..."
		}
	}
	relParts := map[string]bool{"noopener": true}
	if set[3] && a[3].Truth() {
		// (rel or "").split()
		if a[3].kind != KindStr {
			return Value{}, pyErr("AttributeError", "'%s' object has no attribute 'split'", TypeName(a[3]))
		}
		for _, p := range pySplitSpace(a[3].s, -1) {
			relParts[p] = true
		}
	}
	if set[1] && a[1].Truth() {
		relParts["nofollow"] = true
	}
	parts := make([]string, 0, len(relParts))
	for p := range relParts {
		parts = append(parts, p)
	}
	sort.Strings(parts)
	target := ""
	if set[2] && a[2].Truth() {
		if target, err = ToStr(c, a[2]); err != nil {
			return Value{}, err
		}
	}
	var schemes []string
	if set[4] && a[4].kind != KindNone {
		items, err := iterOf(c, a[4])
		if err != nil {
			return Value{}, err
		}
		for _, it := range items {
			if it.kind != KindStr {
				// _uri_scheme_re.fullmatch(scheme)
				return Value{}, typeErr("expected string or bytes-like object, got '%s'", TypeName(it))
			}
			s := it.s
			if !urlizeSchemeRe.MatchString(s) {
				return Value{}, filterErr("%s is not a valid URI scheme prefix.", Repr(it))
			}
			schemes = append(schemes, s)
		}
	}
	text, err := escapeValue(c, v)
	if err != nil {
		return Value{}, err
	}
	if v.kind != KindStr && !v.IsSafe() {
		// markupsafe.escape of a non-str escapes its str
		s, err := ToStr(c, v)
		if err != nil {
			return Value{}, err
		}
		text = htmlEscapeStr(s)
	} else if !v.IsSafe() {
		text = htmlEscapeStr(v.s)
	}
	rv := urlize(text, trim, strings.Join(parts, " "), target, schemes)
	if trimErr != nil {
		return Value{}, trimErr
	}
	if autoescaping(c) {
		return SafeV(rv), nil
	}
	return StrV(rv), nil
}
