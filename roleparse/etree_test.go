package roleparse_test

import (
	"encoding/xml"
	"strings"
	"testing"

	"github.com/beevik/etree"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/roleparse"
)

// etreeRoles are the roles Parse knows by default, with their aliases.
var etreeRoles = map[string]chat.Role{
	"system": chat.RoleSystem, "user": chat.RoleUser, "assistant": chat.RoleAssistant,
	"tool": chat.RoleTool, "developer": chat.RoleDeveloper, "human": chat.RoleUser,
	"bot": chat.RoleAssistant, "ai": chat.RoleAssistant, "model": chat.RoleAssistant,
}

// etreeMessage is a message as read through etree.
type etreeMessage struct {
	role, name, toolCallID string
	text                   string
}

// readWithEtree reads s, wrapped in a root element, with etree. It reports
// ok when s is well-formed XML whose root holds only <message> elements
// (at least one, with whitespace and comments between them), each holding
// only character data (CDATA included): the inputs the oracle speaks for.
// known is false when a message has a role Parse does not know or an
// attribute Parse does not take, or lacks a role, or when whitespace between
// messages is written as a reference: Parse must then fail.
func readWithEtree(s string) (msgs []etreeMessage, known, ok bool) {
	doc := etree.NewDocument()
	if err := doc.ReadFromString("<root>" + s + "</root>"); err != nil {
		return nil, false, false
	}
	root := doc.Root()
	if root == nil || len(doc.Child) != 1 {
		return nil, false, false
	}
	known = !refsBetweenMessages(s)
	for _, tok := range root.Child {
		switch tok := tok.(type) {
		case *etree.CharData:
			if strings.Trim(tok.Data, " \t\r\n") != "" {
				return nil, false, false
			}
		case *etree.Comment:
		case *etree.Element:
			if tok.Space != "" || tok.Tag != "message" {
				return nil, false, false
			}
			m := etreeMessage{}
			seen := map[string]bool{}
			for _, a := range tok.Attr {
				key := strings.ToLower(a.FullKey())
				if seen[key] {
					known = false // a repeated name (differing only in case) is an error
				}
				seen[key] = true
				switch key {
				case "role":
					r, found := etreeRoles[strings.ToLower(a.Value)]
					if !found {
						known = false
					}
					m.role = string(r)
				case "name":
					m.name = a.Value
				case "tool_call_id":
					m.toolCallID = a.Value
				case "encoding", "finish_reason", "ai_model_id", "choice_index":
				default:
					known = false
				}
			}
			if !seen["role"] {
				known = false
			}
			var text strings.Builder
			for _, c := range tok.Child {
				cd, isText := c.(*etree.CharData)
				if !isText {
					return nil, false, false
				}
				text.WriteString(cd.Data)
			}
			m.text = text.String()
			msgs = append(msgs, m)
		default:
			return nil, false, false // processing instructions, directives
		}
	}
	if len(msgs) == 0 {
		return nil, false, false // no message: the whole input is one message's text
	}
	return msgs, known, true
}

// refsBetweenMessages reports whether the text between the messages of s
// (well-formed XML once wrapped in a root) holds a reference, such as
// &#x9;: XML reads whitespace there, the markup text outside a message.
func refsBetweenMessages(s string) bool {
	src := "<root>" + s + "</root>"
	d := xml.NewDecoder(strings.NewReader(src))
	depth, off := 0, int64(0)
	for {
		tok, err := d.RawToken()
		if err != nil {
			return false
		}
		next := d.InputOffset()
		switch tok.(type) {
		case xml.StartElement:
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 1 && strings.Contains(src[off:next], "&") {
				return true
			}
		}
		off = next
	}
}

// FuzzEtreeOracle checks Parse against etree, the XML reader the design
// names as an oracle: for every input that etree reads as well-formed XML
// whose root holds only <message> elements of text, Parse gives the same
// roles, names, tool_call_ids and text, after the documented rules that
// differ from XML (docs/markup.md, "etree as an oracle"):
//
//   - text is trimmed of literal ASCII whitespace at both ends (compared
//     here after trimming both sides, since etree has decoded references);
//   - line ends are kept as written, where XML turns CR LF and a lone CR
//     into LF (compared after that normalisation);
//   - tag and attribute names are case-insensitive, and roles are
//     normalised (aliases, lower case); an unknown role or attribute, a
//     missing role and an attribute given twice in any case are errors.
func FuzzEtreeOracle(f *testing.F) {
	for _, s := range []string{
		`<message role="user">Hi</message>`,
		`<message role="system">Be brief.</message><message role="user" name="bob">a &amp; b &lt; c</message>`,
		`<message role='Assistant'>  x  </message>`,
		"<message role=\"user\">\r\nline\r\n</message>",
		`<message role="user"><![CDATA[<b> & ]]>tail</message>`,
		`<message role="tool" tool_call_id="c1">1.08</message>`,
		`<!-- c --><message role="human">&#x1F600; &#39;q&#39;</message>`,
		`<message role="user"/>`,
		`<message role="wizard">x</message>`,
		`<message role="user" lang="en">x</message>`,
		`<message role="user" ai_model_id="m" finish_reason="stop">x</message>`,
		`<message role="user" name="a&#10;b">x</message>`,
		`<message role="user">&#32;kept&#32;</message>`,
		`<message role="user" ROLE="user">x</message>`,
		`<message role="user">a</message>&#x9;<message role="user">b</message>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, known, ok := readWithEtree(s)
		if !ok {
			return
		}
		got, err := roleparse.Parse(s)
		if !known {
			if err == nil {
				t.Fatalf("Parse(%q) = %v; want an error (unknown role or attribute)", s, got)
			}
			return
		}
		if err != nil {
			t.Fatalf("Parse(%q): %v; etree reads %d messages", s, err, len(want))
		}
		if len(got) != len(want) {
			t.Fatalf("Parse(%q) = %d messages; etree reads %d", s, len(got), len(want))
		}
		for i, w := range want {
			g := got[i]
			if string(g.Role) != w.role || g.Name != w.name || g.ToolCallID != w.toolCallID {
				t.Fatalf("Parse(%q) message %d = role %q name %q tool_call_id %q; etree: %q %q %q",
					s, i+1, g.Role, g.Name, g.ToolCallID, w.role, w.name, w.toolCallID)
			}
			if gt, wt := oracleText(g.Text()), oracleText(w.text); gt != wt {
				t.Fatalf("Parse(%q) message %d text = %q; etree: %q", s, i+1, gt, wt)
			}
			if len(g.Content) > 1 || len(g.ToolCalls) > 0 {
				t.Fatalf("Parse(%q) message %d = %d parts, %d tool calls; want text only", s, i+1, len(g.Content), len(g.ToolCalls))
			}
		}
	})
}

// oracleText applies the rules under which the two readings compare: XML's
// line-end normalisation, then trimming of ASCII whitespace.
func oracleText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Trim(s, " \t\r\n")
}
