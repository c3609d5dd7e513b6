package handlebars_test

import (
	"testing"

	"github.com/rolemark/rolemark/internal/suites"
)

// The data types of raymond's struct tests (eval_test.go), written again.
type evalPerson struct {
	FirstName string
	LastName  string
}

type evalComment struct {
	Author evalPerson
	Body   string
}

type evalPost struct {
	Author   evalPerson
	Body     string
	Comments []evalComment
}

type evalAlias struct {
	Name string `handlebars:"alias-name"`
}

type evalCharacterInfo struct {
	City     string `handlebars:"location"`
	Rug      string `handlebars:"r.u.g"`
	Activity string `handlebars:"not-activity"`
}

type evalCharacter struct {
	RealName string `handlebars:"real-name"`
	Info     evalCharacterInfo
	Aliases  []evalAlias `handlebars:"other-names"`
}

type evalFoo struct{}

func (*evalFoo) Subject() string { return "foo" }

type evalBar struct{}

func (*evalBar) Subject() any { return func() string { return "bar" } }

// TestStructSuite runs raymond's TestEvalStruct, TestEvalStructTag,
// TestEvalMethod and TestEvalMethodReturningFunc, whose dot is a struct.
// rolemark's variables are a map, so the struct is the variable dot and
// the template runs inside {{#with dot}}…{{/with}}, for raymond and
// rolemark alike; the comparison is TestSuites'.
func TestStructSuite(t *testing.T) {
	cases := []struct {
		id, src string
		dot     any
	}{
		{"eval_test.go:TestEvalStruct", `<div class="post">
  <h1>By {{author.FirstName}} {{Author.lastName}}</h1>
  <div class="body">{{Body}}</div>

  <h1>Comments</h1>

  {{#each comments}}
  <h2>By {{Author.FirstName}} {{author.LastName}}</h2>
  <div class="body">{{body}}</div>
  {{/each}}
</div>`, evalPost{evalPerson{"Jean", "Valjean"}, "Life is difficult", []evalComment{{evalPerson{"Marcel", "Beliveau"}, "LOL!"}}}},
		{"eval_test.go:TestEvalStructTag", `<div class="person">
	<h1>{{real-name}}</h1>
	<ul>
	  <li>City: {{info.location}}</li>
	  <li>Rug: {{info.[r.u.g]}}</li>
	  <li>Activity: {{info.activity}}</li>
	</ul>
	{{#each other-names}}
	<p>{{alias-name}}</p>
	{{/each}}
</div>`, evalCharacter{"Lebowski", evalCharacterInfo{"Venice", "Tied The Room Together", "Bowling"}, []evalAlias{{"his dudeness"}, {"el duderino"}}}},
		{"eval_test.go:TestEvalMethod", `Subject is {{subject}}! YES I SAID {{Subject}}!`, &evalFoo{}},
		{"eval_test.go:TestEvalMethodReturningFunc", `Subject is {{subject}}! YES I SAID {{Subject}}!`, &evalBar{}},
	}
	tally := suites.Tally{}
	for _, c := range cases {
		sc := suites.Case{File: "struct", Name: c.id, Template: "{{#with dot}}" + c.src + "{{/with}}"}
		vars := map[string]any{"dot": c.dot}
		s := suites.Sides{
			Raw:     rawRaymond(sc, sc.Template, vars, nil),
			Wrapped: rawRaymond(sc, suites.Wrap(sc.Template), vars, nil),
			Ours:    rolemarkHandlebars(sc, vars, nil, false),
			Decode:  true,
		}
		o := suites.Compare(s)
		if o == suites.Differs || o == suites.Missing {
			got, _ := s.Ours.Content()
			t.Errorf("%s: differs from raymond\nraymond: %q (err %v)\nrolemark: %q (err %v)", c.id, s.Raw.Out, s.Raw.Err, got, s.Ours.Err)
		}
		tally[o]++
	}
	tally.Report(t, "raymond struct tests")
}
