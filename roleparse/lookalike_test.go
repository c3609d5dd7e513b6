package roleparse_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rolemark/rolemark/roleparse"
)

func TestLookalikes(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []roleparse.Lookalike
	}{
		{"misspelled closing tag", `<message role="assistant">ok</mesage>`,
			[]roleparse.Lookalike{{Offset: 28, Found: "</mesage", Tag: "</message"}}},
		{"misspelled opening tag", `<mesage role="user">hi`,
			[]roleparse.Lookalike{{Offset: 0, Found: "<mesage", Tag: "<message"}}},
		{"truncated tool call", `<tool_cal id="1" name="f">{}</tool_call>`,
			[]roleparse.Lookalike{{Offset: 0, Found: "<tool_cal", Tag: "<tool_call"}}},
		{"swapped letters, upper case", `x <MESSAEG role="user">`,
			[]roleparse.Lookalike{{Offset: 2, Found: "<MESSAEG", Tag: "<message"}}},
		{"substitution", `</functoin_call>`,
			[]roleparse.Lookalike{{Offset: 0, Found: "</functoin_call", Tag: "</function_call"}}},
		{"two", `</mesage> and <chat_histroy>`, []roleparse.Lookalike{
			{Offset: 0, Found: "</mesage", Tag: "</message"},
			{Offset: 14, Found: "<chat_histroy", Tag: "<chat_history"},
		}},
		{"real tags are markup", `<message role="user"><text>a</text><tool_call id="1" name="f">{}</tool_call></message>`, nil},
		{"plural is the prompt's own tag", `<messages>a</messages>`, nil},
		{"a closing plural that nothing opens", `<message role="user">hi</messages>`,
			[]roleparse.Lookalike{{Offset: 23, Found: "</messages", Tag: "</message"}}},
		{"a closing plural that an opening plural of another case opens", `<MESSAGES>a</messages>`, nil},
		{"an opening plural alone is the prompt's own", `<messages> a`, nil},
		{"a closing plural whose singular nothing opens is the prompt's own", `<message role="system">stop after </function_calls></message>`, nil},
		{"a closing plural where its singular opens", `<message role="assistant"><function_call name="f">{}</function_calls></message>`,
			[]roleparse.Lookalike{{Offset: 52, Found: "</function_calls", Tag: "</function_call"}}},
		{"short names are left alone", `<test> <next> <texts> <fil> <imag>`, nil},
		{"not a tag", `a < b, a<message, <`, nil},
		{"a vowel changed", `<massage>`, []roleparse.Lookalike{{Offset: 0, Found: "<massage", Tag: "<message"}}},
		{"far away", `<passages> <messenger>`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, roleparse.Lookalikes(tt.in))
		})
	}
}
