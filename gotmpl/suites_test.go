package gotmpl_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"text/template"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/internal/suites"
	"github.com/rolemark/rolemark/roleparse"
)

// execT is the data type of text/template's execTests (exec_test.go's T),
// written again here with the same fields and values. rolemark's
// variables are a map, so a case's dot is a map of these fields
// (execFields): templates that read a field (.X, .MSI.one, .U.V) run as
// in the suite, while a method of dot (.Method0) is a missing key on both
// sides.
type execT struct {
	True        bool
	I           int
	U16         uint16
	X, S        string
	FloatZero   float64
	ComplexZero complex128
	U           *execU
	V0          execV
	V1, V2      *execV
	W0          execW
	W1, W2      *execW
	SI          []int
	SICap       []int
	SIEmpty     []int
	SB          []bool
	AI          [3]int
	PAI         *[3]int
	MSI         map[string]int
	MSIone      map[string]int
	MSIEmpty    map[string]int
	MXI         map[any]int
	MII         map[int]int
	MI32S       map[int32]string
	MI64S       map[int64]string
	MUI32S      map[uint32]string
	MUI64S      map[uint64]string
	MI8S        map[int8]string
	MUI8S       map[uint8]string
	SMSI        []map[string]int
	Empty0      any
	Empty1      any
	Empty2      any
	Empty3      any
	Empty4      any

	NonEmptyInterface         execI
	NonEmptyInterfacePtS      *execI
	NonEmptyInterfaceNil      execI
	NonEmptyInterfaceTypedNil execI

	Str fmt.Stringer
	Err error
	PI  *int
	PS  *string
	PSI *[]int
	NIL *int

	BinaryFunc             func(string, string) string
	VariadicFunc           func(...string) string
	VariadicFuncInt        func(int, ...string) string
	NilOKFunc              func(*int) bool
	ErrFunc                func() (string, error)
	PanicFunc              func() string
	TooFewReturnCountFunc  func()
	TooManyReturnCountFunc func() (string, error, int)
	InvalidReturnTypeFunc  func() (string, bool)

	Tmpl *template.Template
}

type execS []string

func (execS) Method0() string { return "M0" }

type execU struct{ V string }

func (u *execU) TrueFalse(b bool) string {
	if b {
		return "true"
	}
	return ""
}

type execV struct{ j int }

func (v *execV) String() string {
	if v == nil {
		return "nilV"
	}
	return fmt.Sprintf("<%d>", v.j)
}

type execW struct{ k int }

func (w *execW) Error() string {
	if w == nil {
		return "nilW"
	}
	return fmt.Sprintf("[%d]", w.k)
}

type execI interface{ Method0() string }

func (t *execT) Method0() string                   { return "M0" }
func (t *execT) Method1(a int) int                 { return a }
func (t *execT) Method2(a uint16, b string) string { return fmt.Sprintf("Method2: %d %s", a, b) }
func (t *execT) Method3(v any) string              { return fmt.Sprintf("Method3: %v", v) }
func (t *execT) GetU() *execU                      { return t.U }

func ptr[T any](v T) *T { return &v }

func execTVal() *execT {
	si := execI(execS{"a", "b"})
	return &execT{
		True: true, I: 17, U16: 16, X: "x", S: "xyz",
		U:  &execU{"v"},
		V0: execV{6666}, V1: &execV{7777},
		W0: execW{888}, W1: &execW{999},
		SI: []int{3, 4, 5}, SICap: make([]int, 5, 10), AI: [3]int{3, 4, 5}, PAI: &[3]int{3, 4, 5},
		SB:     []bool{true, false},
		MSI:    map[string]int{"one": 1, "two": 2, "three": 3},
		MSIone: map[string]int{"one": 1},
		MXI:    map[any]int{"one": 1},
		MII:    map[int]int{1: 1},
		MI32S:  map[int32]string{1: "one", 2: "two"},
		MI64S:  map[int64]string{2: "i642", 3: "i643"},
		MUI32S: map[uint32]string{2: "u322", 3: "u323"},
		MUI64S: map[uint64]string{2: "ui642", 3: "ui643"},
		MI8S:   map[int8]string{2: "i82", 3: "i83"},
		MUI8S:  map[uint8]string{2: "u82", 3: "u83"},
		SMSI:   []map[string]int{{"one": 1, "two": 2}, {"eleven": 11, "twelve": 12}},
		Empty1: 3, Empty2: "empty2", Empty3: []int{7, 8}, Empty4: &execU{"UinEmpty"},
		NonEmptyInterface:         &execT{X: "x"},
		NonEmptyInterfacePtS:      &si,
		NonEmptyInterfaceTypedNil: (*execT)(nil),
		Str:                       bytes.NewBuffer([]byte("foozle")),
		Err:                       errors.New("erroozle"),
		PI:                        ptr(23),
		PS:                        ptr("a string"),
		PSI:                       ptr([]int{21, 22, 23}),
		BinaryFunc:                func(a, b string) string { return fmt.Sprintf("[%s=%s]", a, b) },
		VariadicFunc:              func(s ...string) string { return fmt.Sprint("<", strings.Join(s, "+"), ">") },
		VariadicFuncInt:           func(a int, s ...string) string { return fmt.Sprint(a, "=<", strings.Join(s, "+"), ">") },
		NilOKFunc:                 func(s *int) bool { return s == nil },
		ErrFunc:                   func() (string, error) { return "bla", nil },
		PanicFunc:                 func() string { panic("test panic") },
		TooFewReturnCountFunc:     func() {},
		//lint:ignore ST1008 the suite's function that text/template cannot call
		TooManyReturnCountFunc: func() (string, error, int) { return "", nil, 0 },
		InvalidReturnTypeFunc:  func() (string, bool) { return "", false },
		Tmpl:                   template.Must(template.New("x").Parse("test template")),
	}
}

// cmpBuilder is TestComparison's Iface1, a fmt.Stringer.
var cmpBuilder strings.Builder

// tVal is the one dot of most cases, so that a pointer prints the same
// address on both sides.
var tVal = execTVal()

// execFields is t's exported fields as a map, rolemark's variables.
func execFields(t *execT) map[string]any {
	m := map[string]any{}
	v := reflect.ValueOf(t).Elem()
	for i := range v.NumField() {
		m[v.Type().Field(i).Name] = v.Field(i).Interface()
	}
	return m
}

// execData is the dot of a case: execTVal's fields for tVal, the zero
// T's for T{}, TestComparison's struct's for cmpStruct, the suite's maps, and an empty map for every other dot (a
// number, a string, a slice), which rolemark cannot take as its
// variables; the oracle renders the same map.
//
// "strings:" before expr makes every value of that dot its fmt.Sprint, so
// that templates of fields run through the fast path (fast.go), which
// takes string values only.
func execData(expr string) map[string]any {
	if e, ok := strings.CutPrefix(expr, "strings:"); ok {
		m := execData(e)
		for k, v := range m {
			m[k] = fmt.Sprint(v)
		}
		return m
	}
	switch expr {
	case "tVal":
		return execFields(tVal)
	case "cmpStruct":
		return map[string]any{
			"Uthree": uint(3), "Ufour": uint(4), "NegOne": -1, "Three": 3,
			"Ptr": new(int), "NilPtr": (*int)(nil),
			"NonNilMap": map[int]int{}, "Map": map[int]int(nil),
			"V1": execV{}, "V2": execV{},
			"Iface1": fmt.Stringer(&cmpBuilder), "NilIface": nil,
		}
	case "T{}":
		return execFields(&execT{})
	case `map[string]int{"two": 22}`:
		return map[string]any{"two": 22}
	case `map[string]string{"cause": "neglect"}`:
		return map[string]any{"cause": "neglect"}
	case `map[string]any{"S": bytes.NewBufferString("foozle")}`:
		return map[string]any{"S": bytes.NewBufferString("foozle")}
	}
	return map[string]any{}
}

// execFuncs are the functions testExecute gives every execTests template.
func execFuncs() template.FuncMap {
	return template.FuncMap{
		"add": func(args ...int) int {
			sum := 0
			for _, x := range args {
				sum += x
			}
			return sum
		},
		"count": func(n int) chan string {
			if n == 0 {
				return nil
			}
			c := make(chan string)
			go func() {
				for i := range n {
					c <- "abcdefghijklmnop"[i : i+1]
				}
				close(c)
			}()
			return c
		},
		"dddArg": func(a int, b ...string) string { return fmt.Sprintln(a, b) },
		"die":    func() bool { panic("die") },
		"echo":   func(arg any) any { return arg },
		"makemap": func(arg ...string) map[string]string {
			if len(arg)%2 != 0 {
				panic("bad makemap")
			}
			m := map[string]string{}
			for i := 0; i < len(arg); i += 2 {
				m[arg[i]] = arg[i+1]
			}
			return m
		},
		"mapOfThree":  func() any { return map[string]int{"three": 3} },
		"oneArg":      func(a string) string { return "oneArg=" + a },
		"returnInt":   func() int { return 7 },
		"stringer":    func(s fmt.Stringer) string { return s.String() },
		"twoArgs":     func(a, b string) string { return "twoArgs=" + a + b },
		"typeOf":      func(arg any) string { return fmt.Sprintf("%T", arg) },
		"valueString": func(v string) string { return "value is ignored" },
		"vfunc":       func(execV, *execV) string { return "vfunc" },
		"zeroArgs":    func() string { return "zeroArgs" },
	}
}

// execRules are the execTests cases whose content differs from
// text/template's output by a rule of testdata/suites/README.md.
var execRules = map[string]string{}

// TestExecSuite renders text/template's execTests (testdata/suites/exec.json,
// made by scripts/suites/convert.go) with text/template and, wrapped in a
// user message, with the gotmpl engine: through the fast path where a
// template has one (New), through markup and roleparse (NewGeneral) and
// with no markup function expanded (NewUnexpanded). Every engine must give
// the same outcome and content, and that content must be text/template's
// output or follow a rule of execRules.
func TestExecSuite(t *testing.T) {
	engines := map[string]func(...gotmpl.Option) *gotmpl.Engine{"fast": gotmpl.New, "general": gotmpl.NewGeneral, "unexpanded": gotmpl.NewUnexpanded}
	cases := suites.Load(t, "testdata/suites/exec.json")
	for _, dot := range []string{"", "strings:"} {
		tally := suites.Tally{}
		fast := 0
		for _, c := range cases {
			c.DataExpr = dot + c.DataExpr
			if c.Skip != "" {
				tally[suites.Skipped]++
				continue
			}
			if cc, err := gotmpl.New(gotmpl.Funcs(execFuncs())).Compile("t.tmpl", suites.Wrap(c.Template), driver.Config{Parse: []roleparse.Option{roleparse.KeepSpace()}}); err == nil && gotmpl.Fast(cc) {
				fast++
			}
			raw := rawTemplate(c, c.Template)
			s := suites.Sides{Raw: raw, Wrapped: rawTemplate(c, suites.Wrap(c.Template)), Decode: strings.Contains(c.Template, "&")}
			var first suites.Outcome
			var firstContent string
			for _, name := range []string{"fast", "general", "unexpanded"} {
				s.Ours = rolemarkTemplate(c, engines[name], false)
				o := suites.Compare(s)
				if o == suites.Missing {
					// with AllowMissing, rolemark is text/template with
					// missingkey=default
					m := suites.Sides{Raw: rawTemplate(c, c.Template, "missingkey=default"), Wrapped: rawTemplate(c, suites.Wrap(c.Template), "missingkey=default"), Decode: s.Decode}
					m.Ours = rolemarkTemplate(c, engines[name], true)
					mo := suites.Compare(m)
					if mo == suites.Differs {
						// where text/template prints a missing value as
						// "<no value>", rolemark prints nothing
						m.Raw.Out = strings.ReplaceAll(m.Raw.Out, "<no value>", "")
						m.Wrapped.Out = strings.ReplaceAll(m.Wrapped.Out, "<no value>", "")
						mo = suites.Compare(m)
					}
					if mo != suites.Identical && mo != suites.Decoded && mo != suites.Edges && mo != suites.BothFail {
						o = suites.Differs
					}
				}
				if o == suites.Differs {
					// a nil in the data is rolemark's nothing
					n := suites.Sides{Raw: rawTemplate(c, c.Template, "nothing"), Wrapped: rawTemplate(c, suites.Wrap(c.Template), "nothing"), Ours: s.Ours, Decode: s.Decode}
					if no := suites.Compare(n); no != suites.Differs && no != suites.Missing {
						o = nilIsNothing
					}
				}
				got, _ := s.Ours.Content()
				if testing.Verbose() && name == "fast" && o != suites.Identical && o != suites.BothFail {
					t.Logf("%s: %s", c.ID(), o)
				}
				if name == "fast" {
					first, firstContent = o, got
				} else if o != first || got != firstContent {
					t.Errorf("%s: the %s engine gives %s %q, the fast one %s %q", c.ID(), name, o, got, first, firstContent)
				}
				rule, ruled := execRules[dot+c.ID()]
				switch {
				case o == suites.Differs && ruled:
					o = suites.Ruled
				case o == suites.Differs:
					t.Errorf("%s (%s): differs from text/template\ntemplate: %q\ndata: %s\ntext/template: %q (err %v)\nrolemark: %q (err %v, %d messages)",
						c.ID(), name, c.Template, c.DataExpr, raw.Out, raw.Err, got, s.Ours.Err, len(s.Ours.Msgs))
				case ruled && name == "fast":
					t.Errorf("%s: listed in execRules (%s) but agrees with text/template (%s)", c.ID(), rule, o)
				}
				if name == "fast" {
					tally[o]++
				}
			}
		}
		tally.Report(t, "execTests "+dot)
		t.Logf("execTests %s: %d templates have the fast path", dot, fast)
	}
}

// nilIsNothing: the content is text/template's output once every nil in
// the data is a nothing, as rolemark's gotmpl makes it: a value that
// prints as empty, is false, ranges over nothing and has length 0.
const nilIsNothing suites.Outcome = "nil is nothing"

type nothing []struct{}

func (nothing) String() string { return "" }

// rawTemplate renders src with text/template; mode "missingkey=default" sets
// that option, "nothing" makes each nil of the data a nothing.
func rawTemplate(c suites.Case, src string, mode ...string) (r suites.Render) {
	defer func() {
		if p := recover(); p != nil {
			r.Err = fmt.Errorf("panic: %v", p)
		}
	}()
	tpl, err := template.New(c.Name).Funcs(execFuncs()).Parse(src)
	if err != nil {
		return suites.Render{Err: err}
	}
	data := execData(c.DataExpr)
	for _, m := range mode {
		if m == "nothing" {
			for k, v := range data {
				if v == nil {
					data[k] = nothing(nil)
				}
			}
		} else {
			tpl.Option(m)
		}
	}
	var b strings.Builder
	err = tpl.Execute(&b, data)
	return suites.Render{Out: b.String(), Err: err}
}

func rolemarkTemplate(c suites.Case, newEngine func(...gotmpl.Option) *gotmpl.Engine, allowMissing bool) suites.Render {
	if newEngine == nil {
		newEngine = gotmpl.New
	}
	set := engine.NewSet(newEngine(gotmpl.Funcs(execFuncs()))).Option(engine.ParseOptions(roleparse.KeepSpace()))
	if allowMissing {
		set = set.Option(engine.AllowMissing())
	}
	tpl, err := set.Parse("gotmpl", "t.tmpl", suites.Wrap(c.Template))
	if err != nil {
		return suites.Render{Err: err}
	}
	msgs, err := tpl.Messages(context.Background(), execData(c.DataExpr))
	return suites.Render{Msgs: msgs, Err: err}
}
