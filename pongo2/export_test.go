package pongo2

import (
	p2 "github.com/flosch/pongo2/v6"

	"github.com/rolemark/rolemark/engine/driver"
)

// Fast reports whether a compiled template has a fast path.
func Fast(c driver.Compiled) bool { return c.(*compiled).fast != nil }

// Unguarded reports what Compile's check of pongo2's parse tree finds in
// src parsed by pongo2 alone, with rolemark's tags registered but without
// the rewriter: "" when every print and macro carries rolemark's guards.
func Unguarded(src string) (string, error) {
	if err := register(); err != nil {
		return "", err
	}
	tpl, err := p2.FromString(src)
	if err != nil {
		return "", err
	}
	if u := verify(tpl); u != nil {
		return u.what, nil
	}
	return "", nil
}

// EndcommentHang is endcommentHang.
func EndcommentHang(out string) (int, bool) { return endcommentHang(out) }

// ArgFilters is argFilters.
var ArgFilters = argFilters
