package chattemplate

// Joins reports whether the template's own text could make a special
// token with data next to it (the neutral rendering is then always
// compared).
func Joins(t *Template) bool { return t.joins }

// ToolConversions is how many tool lists t has converted (the two latest
// are kept).
func ToolConversions(t *Template) uint64 { return t.memo.converted.Load() }

// ToolScans is how many tool lists t's special-token guard has scanned.
func ToolScans(t *Template) uint64 { return t.memo.scanned.Load() }

// NeutralRenders is how many times t rendered the neutral copy of the
// data (the special-token guard's step 2).
func NeutralRenders(t *Template) uint64 { return t.neutral.Load() }

// NeutralConversions is how many neutral copies of a kept conversation t
// has converted.
func NeutralConversions(t *Template) uint64 { return t.neutralConverted.Load() }

// Unforgeable is how many renderings skipped the neutral copy because
// the prompt held no token the data could have made.
func Unforgeable(t *Template) uint64 { return t.unforgeable.Load() }

// ForgeChecks is how many prompts t's step 2 read for a token the data
// could have made (renderings of a kept conversation found clean before
// read none).
func ForgeChecks(t *Template) uint64 { return t.forgeChecks.Load() }

// RaceEnabled is raceEnabled, for the external tests.
const RaceEnabled = raceEnabled
