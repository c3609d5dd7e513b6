package format

// FormatJoins reports whether the format's own text could make a special
// token with data next to it (the neutral rendering is then always
// compared).
func FormatJoins(f *Format) bool {
	o := newOwnText(f)
	return o.g != nil && o.joinsData(f, nil, &settings{})
}
