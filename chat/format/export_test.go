package format

// Joins reports whether the template's own text could make a special
// token with data next to it (the neutral rendering is then always
// compared).
func Joins(t *Template) bool { return t.joins }

// FormatJoins is Joins for a Format.
func FormatJoins(f *Format) bool {
	o := newOwnText(f)
	return o.g != nil && o.joinsData(f, nil, &Options{})
}
