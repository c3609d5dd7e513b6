package jinja

import "github.com/rolemark/rolemark/engine/driver"

// Fast reports whether a compiled template has a fast path.
func Fast(c driver.Compiled) bool { return c.(*compiled).fast != nil }
