package handlebars

import "github.com/rolemark/rolemark/engine/driver"

// Fast reports whether a compiled template has a fast path.
func Fast(c driver.Compiled) bool { return c.(*compiled).fast != nil }

// IsHelper reports whether name is one of rolemark's helpers.
func IsHelper(name string) bool { _, ok := helpers()[name]; return ok }

// HelperCount is the number of rolemark's helpers, the print helper's
// included.
func HelperCount() int { return len(helpers()) }
