package prompter

import (
	"testing"
)

// FuzzPrompt checks that no instruction or input makes a prompter panic,
// that both forms agree on whether an input is valid, and that an input
// that fills no slot arrives unchanged as the user's turn.
func FuzzPrompt(f *testing.F) {
	f.Add("请完成加法运算, 输入为{instruction}", "a+b", "k", false)
	f.Add("{a} {b} {{c}} {", "x", "a", true)
	f.Add("", "", "", false)
	f.Fuzz(func(t *testing.T, instr, input, key string, useMap bool) {
		for _, isChat := range []bool{false, true} {
			newP := NewAlpaca
			if isChat {
				newP = NewChat
			}
			p, err := newP(instr, Tools(getWeather()))
			if err != nil {
				t.Fatal(err)
			}
			var in any = input
			if useMap {
				in = map[string]string{key: input}
			}
			_, errS := p.Prompt(in)
			res, errM := p.Messages(in)
			if (errS == nil) != (errM == nil) {
				t.Fatalf("Prompt error %v, Messages error %v", errS, errM)
			}
			if isChat && !useMap && len(p.tpl.slots) == 0 {
				if errM != nil {
					t.Fatalf("instruction %q without slots: %v", instr, errM)
				}
				if got := res.Messages[len(res.Messages)-1].Text(); got != input {
					t.Fatalf("user turn %q, want %q", got, input)
				}
			}
		}
	})
}
