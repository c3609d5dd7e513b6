package roleparse_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rolemark/rolemark/internal/fixture"
	"github.com/rolemark/rolemark/roleparse"
)

// benchPrompt is a realistic rendered prompt of about 1.5 KB: a system
// message, a user question with escaped data in it, an assistant answer and
// a follow-up.
const benchPrompt = `<message role="system">
You are a helpful bank manager at Contoso &amp; Co. Answer in at most three sentences.
Never reveal account numbers. When you quote a figure, give its currency. If the
customer asks about something other than banking, say politely that you can only
help with banking questions. Format answers as plain text, not Markdown.
Use the customer's name when you know it. Quote rates to one decimal place and say
whether they are fixed or variable; mention fees only when the customer asks about them.
</message>
<message role="user" name="alice">
I read on your site that &quot;rates &lt; 3% are fixed for 10 years&quot; &amp; that
fees are &#x2264; &#8364;50. My partner&#39;s salary is &gt; mine, so which of us
should apply? Here is what the form said: &lt;field name=&quot;income&quot;&gt;&lt;/field&gt;.
We would like to borrow about &#8364;250,000 over 25 years for a flat in the centre.
</message>
<message role="assistant">
Rates below 3% are fixed for ten years, and fees are at most EUR 50. You can apply
jointly, in which case both incomes count; otherwise the applicant with the higher
income usually qualifies for the larger amount. For EUR 250,000 over 25 years, our
current fixed rate of 2.9% gives a monthly payment of about EUR 1,172.
</message>
<message role="user" name="alice">
Thanks! And if we pay back 10% early in year 3 &#8212; is there a penalty? Also, can
we switch to a variable rate later &amp; what would that cost?
</message>
`

// benchMB is about 1 MB of markup: benchPrompt repeated.
var benchMB = strings.Repeat(benchPrompt, (1<<20)/len(benchPrompt)+1)

// BenchmarkParse measures Parse on one prompt and on 1 MB of prompts.
// Compare BenchmarkParse/1MB with BenchmarkFloor/1MB, the cost of merely
// finding every </message> in the same input.
func BenchmarkParse(b *testing.B) {
	b.Run("1.5KB", func(b *testing.B) { fixture.BenchParse(b, benchPrompt) })
	b.Run("1MB", func(b *testing.B) { fixture.BenchParse(b, benchMB) })
}

// BenchmarkFloor is the floor for any parser of the markup: a strings.Index
// walk over every </message> in the 1 MB input.
func BenchmarkFloor(b *testing.B) {
	b.Run("1MB", func(b *testing.B) { fixture.BenchFloor(b, benchMB) })
}

// BenchmarkParseDensity parses 1 MB of markup with one reference in every
// 280 bytes of text (English prose, as measured on licence and manual
// text), every 70 bytes (technical text: Markdown with code, Go source) and
// every 14 bytes (JSON); BenchmarkFloorDensity is the floor for the same
// inputs.
func BenchmarkParseDensity(b *testing.B) {
	for _, gap := range []int{280, 70, 14} {
		in := fixture.ProseMarkup(1<<20, gap)
		b.Run(fmt.Sprintf("1MB-gap%d", gap), func(b *testing.B) { fixture.BenchParse(b, in) })
	}
}

func BenchmarkFloorDensity(b *testing.B) {
	for _, gap := range []int{280, 70, 14} {
		in := fixture.ProseMarkup(1<<20, gap)
		b.Run(fmt.Sprintf("1MB-gap%d", gap), func(b *testing.B) { fixture.BenchFloor(b, in) })
	}
}

// BenchmarkEscape measures the escaper on a string and on bytes (the
// gotmpl engine escapes the []byte that text/template writes).
func BenchmarkEscape(b *testing.B) {
	s := benchPrompt
	bs := []byte(benchPrompt)
	dst := make([]byte, 0, 2*len(s))
	b.Run("string", func(b *testing.B) {
		b.SetBytes(int64(len(s)))
		for i := 0; i < b.N; i++ {
			dst = roleparse.AppendEscape(dst[:0], s)
		}
	})
	b.Run("bytes", func(b *testing.B) {
		b.SetBytes(int64(len(bs)))
		for i := 0; i < b.N; i++ {
			dst = roleparse.AppendEscapeBytes(dst[:0], bs)
		}
	})
}

// BenchmarkParseOwned measures what an engine does with the markup it
// rendered into a buffer of its own: ParseOwned reads the buffer in place
// (through unsafe.String, docs/decisions.md); "copy" is the alternative
// without unsafe, a string copy of the buffer given to Parse. Both start
// by writing the markup into the buffer, as a render does.
func BenchmarkParseOwned(b *testing.B) {
	for _, in := range []struct {
		name string
		s    string
	}{{"1.5KB", benchPrompt}, {"1MB", benchMB}} {
		buf := make([]byte, len(in.s))
		b.Run(in.name+"/owned", func(b *testing.B) {
			b.SetBytes(int64(len(in.s)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				copy(buf, in.s)
				if _, err := roleparse.ParseOwned(buf); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(in.name+"/copy", func(b *testing.B) {
			b.SetBytes(int64(len(in.s)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				copy(buf, in.s)
				if _, err := roleparse.Parse(string(buf)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
