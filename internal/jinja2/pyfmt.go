package jinja2

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Python's format-spec mini-language (format(v, spec), str.format) and
// printf-style % formatting.

type fmtSpec struct {
	fill      rune
	align     byte // 0 '<' '>' '^' '='
	sign      byte // 0 '+' '-' ' '
	z         bool
	alt       bool
	zero      bool
	width     int
	grouping  byte // 0 ',' '_'
	precision int  // -1 when absent
	typ       byte // 0 when absent
}

func parseSpec(spec string) (fmtSpec, error) {
	s := fmtSpec{fill: ' ', precision: -1}
	i := 0
	rs := []rune(spec)
	isAlign := func(r rune) bool { return r == '<' || r == '>' || r == '^' || r == '=' }
	fillSet := false
	if len(rs) >= 2 && isAlign(rs[1]) {
		s.fill, s.align = rs[0], byte(rs[1])
		fillSet = true
		i = 2
	} else if len(rs) >= 1 && isAlign(rs[0]) {
		s.align = byte(rs[0])
		i = 1
	}
	if i < len(rs) && (rs[i] == '+' || rs[i] == '-' || rs[i] == ' ') {
		s.sign = byte(rs[i])
		i++
	}
	if i < len(rs) && rs[i] == 'z' {
		s.z = true
		i++
	}
	if i < len(rs) && rs[i] == '#' {
		s.alt = true
		i++
	}
	if i < len(rs) && rs[i] == '0' && !fillSet {
		// CPython's "special case for 0-padding": without a fill of its
		// own the field is filled with '0', whatever the alignment
		// ('{:<08}'.format(1.5) is '1.500000'); with one, the 0 starts
		// the width
		s.zero = true
		i++
	}
	start := i
	for i < len(rs) && rs[i] >= '0' && rs[i] <= '9' {
		i++
	}
	if i > start {
		w, err := strconv.Atoi(string(rs[start:i]))
		if err != nil {
			return s, valueErr("Too many decimal digits in format string")
		}
		s.width = w
	}
	if i < len(rs) && (rs[i] == ',' || rs[i] == '_') {
		s.grouping = byte(rs[i])
		i++
		if i < len(rs) && (rs[i] == ',' || rs[i] == '_') {
			return s, valueErr("Cannot specify both ',' and '_'.")
		}
	}
	if i < len(rs) && rs[i] == '.' {
		i++
		start = i
		for i < len(rs) && rs[i] >= '0' && rs[i] <= '9' {
			i++
		}
		if i == start {
			return s, valueErr("Format specifier missing precision")
		}
		p, err := strconv.Atoi(string(rs[start:i]))
		if err != nil {
			return s, valueErr("Too many decimal digits in format string")
		}
		s.precision = p
	}
	if i < len(rs) {
		if len(rs)-i > 1 {
			return s, valueErr("Invalid format specifier '%s' for object of type '%%s'", spec)
		}
		s.typ = byte(rs[i])
		if rs[i] >= utf8.RuneSelf {
			return s, valueErr("Invalid format specifier '%s' for object of type '%%s'", spec)
		}
	}
	if s.grouping != 0 {
		// parse_internal_render_format_spec: a separator is allowed with
		// these presentations only ('_' also with b, o, x, X)
		switch s.typ {
		case 0, 'd', 'e', 'f', 'g', 'E', 'G', '%', 'F':
		case 'b', 'o', 'x', 'X':
			if s.grouping != '_' {
				return s, valueErr("Cannot specify '%c' with '%c'.", s.grouping, s.typ)
			}
		default:
			return s, valueErr("Cannot specify '%c' with '%c'.", s.grouping, s.typ)
		}
	}
	if s.zero {
		s.fill = '0'
	}
	return s, nil
}

// numeric applies the '0' flag's sign-aware padding of numbers.
func (s *fmtSpec) numeric() {
	if s.zero && s.align == 0 {
		s.fill, s.align = '0', '='
	}
}

// pad lays out body (after sign and prefix) in the field; a field wider
// than the package builds is Python's MemoryError.
func (s *fmtSpec) pad(sign, body string, defAlign byte) (string, error) {
	align := s.align
	if align == 0 {
		align = defAlign
	}
	n := runeCountW(sign) + runeCountW(body)
	if n >= s.width {
		return sign + body, nil
	}
	if s.width > maxAlloc/max(utf8.RuneLen(s.fill), 1) {
		return "", &Error{Kind: "MemoryError", Msg: ""}
	}
	fill := strings.Repeat(string(s.fill), s.width-n)
	switch align {
	case '<':
		return sign + body + fill, nil
	case '^':
		half := (s.width - n) / 2
		f := []rune(fill)
		return string(f[:half]) + sign + body + string(f[half:]), nil
	case '=':
		return sign + fill + body, nil
	}
	return fill + sign + body, nil
}

// FormatValue is Python's format(v, spec).
func FormatValue(c *Ctx, v Value, spec string) (string, error) {
	switch v.kind {
	case KindUndefined:
		if spec == "" {
			return ToStr(c, v)
		}
		// Undefined has no __format__: object's refuses a spec
		return "", typeErr("unsupported format string passed to %s.__format__", TypeName(v))
	case KindStr:
		out, err := formatStr(v.s, spec)
		if err != nil {
			if e, ok := err.(*Error); ok && TypeName(v) != "str" {
				// Markup's messages name its own type
				e.Msg = strings.Replace(e.Msg, "type 'str'", "type '"+TypeName(v)+"'", 1)
			}
		}
		return out, err
	case KindInt, KindBool:
		if spec == "" {
			return ToStr(c, v)
		}
		out, err := formatInt(v, spec)
		if err != nil && v.kind == KindBool {
			if e, ok := err.(*Error); ok {
				e.Msg = strings.Replace(e.Msg, "type 'int'", "type 'bool'", 1)
			}
		}
		return out, err
	case KindFloat:
		return formatFloat(v.f(), spec)
	}
	if spec != "" {
		if isComplex(v) {
			return "", &Error{Kind: "Unsupported", Msg: "a format spec of a complex number is not supported"}
		}
		return "", typeErr("unsupported format string passed to %s.__format__", TypeName(v))
	}
	return ToStr(c, v)
}

func specErr(err error, typ string) error {
	if e, ok := err.(*Error); ok && strings.Contains(e.Msg, "%s") {
		e.Msg = strings.Replace(e.Msg, "%s", typ, 1)
	}
	return err
}

func formatStr(str, spec string) (string, error) {
	if spec == "" {
		return str, nil
	}
	s, err := parseSpec(spec)
	if err != nil {
		return "", specErr(err, "str")
	}
	if s.grouping != 0 {
		// the spec's parser checks the separator against the type ('s'
		// when none is given) before the type is read
		switch t := s.typ; {
		case strings.ContainsRune("defgEG%F", rune(t)):
		case strings.ContainsRune("boxX", rune(t)) && s.grouping == '_':
		default:
			if t == 0 {
				t = 's'
			}
			return "", valueErr("Cannot specify '%c' with '%c'.", s.grouping, t)
		}
	}
	if s.typ != 0 && s.typ != 's' {
		return "", valueErr("Unknown format code '%c' for object of type 'str'", s.typ)
	}
	if s.sign == ' ' {
		return "", valueErr("Space not allowed in string format specifier")
	}
	if s.sign != 0 {
		return "", valueErr("Sign not allowed in string format specifier")
	}
	if s.z {
		return "", valueErr("Negative zero coercion (z) not allowed in string format specifier")
	}
	if s.alt {
		return "", valueErr("Alternate form (#) not allowed in string format specifier")
	}
	if s.grouping != 0 {
		return "", valueErr("Cannot specify '%c' with 's'.", s.grouping)
	}
	if s.align == '=' {
		return "", valueErr("'=' alignment not allowed in string format specifier")
	}
	if s.precision >= 0 {
		rs := []rune(str)
		if len(rs) > s.precision {
			str = string(rs[:s.precision])
		}
	}
	return s.pad("", str, '<')
}

// group inserts sep every three digits of an integer's digits.
func group(digits string, sep byte, every int) string {
	if len(digits) <= every {
		return digits
	}
	var b strings.Builder
	first := len(digits) % every
	if first > 0 {
		b.WriteString(digits[:first])
	}
	for i := first; i < len(digits); i += every {
		if b.Len() > 0 {
			b.WriteByte(sep)
		}
		b.WriteString(digits[i : i+every])
	}
	return b.String()
}

func signOf(neg bool, sign byte) string {
	switch {
	case neg:
		return "-"
	case sign == '+':
		return "+"
	case sign == ' ':
		return " "
	}
	return ""
}

func formatInt(v Value, spec string) (string, error) {
	s, err := parseSpec(spec)
	if err != nil {
		return "", specErr(err, "int")
	}
	s.numeric()
	switch s.typ {
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
		f, err := toFloat(v)
		if err != nil {
			return "", err
		}
		return formatFloatSpec(f, s)
	case 0, 'd', 'n', 'b', 'o', 'x', 'X', 'c':
	default:
		return "", valueErr("Unknown format code '%c' for object of type 'int'", s.typ)
	}
	if s.precision >= 0 {
		return "", valueErr("Precision not allowed in integer format specifier")
	}
	if s.z {
		return "", valueErr("Negative zero coercion (z) not allowed in integer format specifier")
	}
	b := bigOf(v)
	neg := b.Sign() < 0
	abs := new(big.Int).Abs(b)
	var digits, prefix string
	switch s.typ {
	case 'c':
		if s.sign != 0 {
			return "", valueErr("Sign not allowed with integer format specifier 'c'")
		}
		if s.alt {
			return "", valueErr("Alternate form (#) not allowed with integer format specifier 'c'")
		}
		if !b.IsInt64() {
			return "", pyErr("OverflowError", "Python int too large to convert to C long")
		}
		if b.Int64() < 0 || b.Int64() > 0x10ffff {
			return "", pyErr("OverflowError", "%%c arg not in range(0x110000)")
		}
		return s.pad("", runeStrW(rune(b.Int64())), '<')
	case 'b':
		digits, prefix = abs.Text(2), "0b"
	case 'o':
		digits, prefix = abs.Text(8), "0o"
	case 'x':
		digits, prefix = abs.Text(16), "0x"
	case 'X':
		digits, prefix = strings.ToUpper(abs.Text(16)), "0X"
	default:
		digits = abs.Text(10)
	}
	if !s.alt {
		prefix = ""
	}
	if s.grouping != 0 {
		every := 3
		if s.typ == 'b' || s.typ == 'o' || s.typ == 'x' || s.typ == 'X' {
			if s.grouping == ',' {
				return "", valueErr("Cannot specify ',' with '%c'.", s.typ)
			}
			every = 4
		}
		if s.align == '=' && s.fill == '0' {
			// zero padding is grouped too
			want := s.width - len(signOf(neg, s.sign)) - len(prefix)
			for len(group(digits, s.grouping, every)) < want {
				digits = "0" + digits
			}
		}
		digits = group(digits, s.grouping, every)
	}
	return s.pad(signOf(neg, s.sign)+prefix, digits, '>')
}

func formatFloat(f float64, spec string) (string, error) {
	if spec == "" {
		return floatRepr(f), nil
	}
	s, err := parseSpec(spec)
	if err != nil {
		return "", specErr(err, "float")
	}
	s.numeric()
	switch s.typ {
	case 0, 'e', 'E', 'f', 'F', 'g', 'G', '%', 'n':
	default:
		return "", valueErr("Unknown format code '%c' for object of type 'float'", s.typ)
	}
	return formatFloatSpec(f, s)
}

func formatFloatSpec(f float64, s fmtSpec) (string, error) {
	neg := math.Signbit(f) && !math.IsNaN(f)
	a := math.Abs(f)
	if s.z && neg && roundsToZero(a, s) {
		neg = false
	}
	if s.precision > math.MaxInt32 {
		return "", valueErr("precision too big")
	}
	var body string
	prec := s.precision
	switch {
	case math.IsInf(a, 0):
		body = "inf"
		if s.typ == '%' {
			body += "%"
		}
	case math.IsNaN(a):
		body = "nan"
		if s.typ == '%' {
			body += "%"
		}
	default:
		switch s.typ {
		case 'f', 'F':
			if prec < 0 {
				prec = 6
			}
			body = strconv.FormatFloat(a, 'f', prec, 64)
			if s.alt && prec == 0 {
				body += "."
			}
		case '%':
			if prec < 0 {
				prec = 6
			}
			body = strconv.FormatFloat(a*100, 'f', prec, 64)
			if math.IsInf(a*100, 0) {
				// Python multiplies by 100 too: a float near the
				// largest is inf%
				body = "inf"
			} else if s.alt && prec == 0 {
				body += "."
			}
			body += "%"
		case 'e', 'E':
			if prec < 0 {
				prec = 6
			}
			body = strconv.FormatFloat(a, 'e', prec, 64)
			if s.alt && prec == 0 {
				body = strings.Replace(body, "e", ".e", 1)
			}
		case 'g', 'G', 'n':
			if prec < 0 {
				prec = 6
			}
			body = formatG(a, prec, s.alt)
		default: // no type: repr, or 'g' keeping a fractional digit
			if prec < 0 {
				body = floatRepr(a)
				if i := strings.IndexByte(body, 'e'); s.alt && i >= 0 && !strings.Contains(body[:i], ".") {
					// the alternate form keeps the point: '1.e+16'
					body = body[:i] + "." + body[i:]
				}
			} else {
				body = formatGMode(a, prec, s.alt, true)
			}
		}
	}
	if s.typ == 'E' || s.typ == 'F' || s.typ == 'G' {
		body = strings.ToUpper(body)
	}
	if s.grouping != 0 && !strings.HasPrefix(body, "inf") && !strings.HasPrefix(body, "nan") && !strings.HasPrefix(body, "INF") && !strings.HasPrefix(body, "NAN") {
		// the integer part ends at the point, the exponent (E too) or %
		intEnd := strings.IndexAny(body, ".eE%")
		if intEnd < 0 {
			intEnd = len(body)
		}
		digits := body[:intEnd]
		if s.align == '=' && s.fill == '0' {
			want := s.width - len(signOf(neg, s.sign)) - (len(body) - intEnd)
			for len(group(digits, s.grouping, 3)) < want {
				digits = "0" + digits
			}
		}
		body = group(digits, s.grouping, 3) + body[intEnd:]
	}
	return s.pad(signOf(neg, s.sign), body, '>')
}

func roundsToZero(a float64, s fmtSpec) bool {
	prec := s.precision
	if prec < 0 {
		prec = 6
	}
	switch s.typ {
	case 'f', 'F':
		return strconv.FormatFloat(a, 'f', prec, 64) == strconv.FormatFloat(0, 'f', prec, 64)
	case '%':
		return strconv.FormatFloat(a*100, 'f', prec, 64) == strconv.FormatFloat(0, 'f', prec, 64)
	}
	return a == 0
}

// formatG is %g with a precision: fixed or exponent notation as Python
// chooses, trailing zeros removed unless alt.
func formatG(a float64, prec int, alt bool) string {
	return formatGMode(a, prec, alt, false)
}

// formatGMode is formatG, or with dot0 the format of a spec with a
// precision and no type: 'g' that keeps a fractional digit in fixed
// notation (Py_DTSF_ADD_DOT_0), and so takes the exponent one digit
// sooner (format_float_short: decpt > precision-1), so that
// format(3.0, '.1') is '3e+00' and format(3.0, '.2') is '3.0'.
func formatGMode(a float64, prec int, alt, dot0 bool) string {
	if prec == 0 {
		prec = 1
	}
	e := strconv.FormatFloat(a, 'e', prec-1, 64)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	limit := prec
	if dot0 {
		limit--
	}
	var body string
	if exp >= -4 && exp < limit {
		body = strconv.FormatFloat(a, 'f', prec-1-exp, 64)
		if !alt && strings.Contains(body, ".") {
			body = strings.TrimRight(strings.TrimRight(body, "0"), ".")
		}
		if alt && !strings.Contains(body, ".") {
			body += "."
		}
		if dot0 && !strings.Contains(body, ".") {
			body += ".0"
		}
		return body
	}
	mant, ex := e[:strings.IndexByte(e, 'e')], e[strings.IndexByte(e, 'e'):]
	if !alt && strings.Contains(mant, ".") {
		mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
	}
	if alt && !strings.Contains(mant, ".") {
		mant += "."
	}
	return mant + ex
}
