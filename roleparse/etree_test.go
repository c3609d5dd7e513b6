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
	parts                  []chat.Part
}

// etreeMedia are the media part tags and their part types.
var etreeMedia = map[string]chat.PartType{"image": chat.PartImage, "audio": chat.PartAudio, "file": chat.PartFile, "binary": chat.PartFile}

// readWithEtree reads s, wrapped in a root element, with etree. It reports
// ok when s is well-formed XML whose root holds only <message> elements
// (at least one, with whitespace and comments between them), each holding
// character data (CDATA included), <text> elements of character data and
// self-closing media elements (<image url="…"/>): the inputs the oracle
// speaks for.
// known is false when a message has a role Parse does not know or an
// attribute Parse does not take, or lacks a role, or when a tag has an
// attribute twice or whitespace between messages is written as a
// reference: Parse must then fail.
func readWithEtree(s string) (msgs []etreeMessage, known, ok bool) {
	doc := etree.NewDocument()
	if err := doc.ReadFromString("<root>" + s + "</root>"); err != nil {
		return nil, false, false
	}
	root := doc.Root()
	if root == nil || len(doc.Child) != 1 {
		return nil, false, false
	}
	refs, dups := rawChecks(s)
	known = !refs && !dups
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
			var loose strings.Builder
			flush := func() {
				if loose.Len() > 0 {
					m.parts = append(m.parts, chat.TextPart(loose.String()))
					loose.Reset()
				}
			}
			for _, c := range tok.Child {
				switch c := c.(type) {
				case *etree.CharData:
					loose.WriteString(c.Data)
				case *etree.Element:
					part, partKnown, partOK := etreePart(c)
					if !partOK {
						return nil, false, false
					}
					known = known && partKnown
					flush()
					m.parts = append(m.parts, part)
				default:
					return nil, false, false // comments, processing instructions
				}
			}
			flush()
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

// etreePart reads a part element: <text> holding character data, or a
// self-closing media element with a url (uri, src) attribute. ok is false
// for anything else; known is false for an attribute Parse does not take.
func etreePart(e *etree.Element) (part chat.Part, known, ok bool) {
	if e.Space != "" {
		return part, false, false
	}
	known = true
	seen := map[string]bool{}
	for _, a := range e.Attr {
		key := strings.ToLower(a.FullKey())
		if seen[key] {
			known = false
		}
		seen[key] = true
	}
	kind, media := etreeMedia[e.Tag]
	switch {
	case e.Tag == "text":
		var text strings.Builder
		for _, c := range e.Child {
			cd, isText := c.(*etree.CharData)
			if !isText {
				return part, false, false
			}
			text.WriteString(cd.Data)
		}
		for _, a := range e.Attr {
			if strings.ToLower(a.FullKey()) != "encoding" {
				known = false
			}
		}
		return chat.TextPart(text.String()), known, true
	case media:
		if len(e.Child) > 0 {
			return part, false, false
		}
		part.Type = kind
		sources := 0
		for _, a := range e.Attr {
			switch strings.ToLower(a.FullKey()) {
			case "url", "uri", "src":
				part.URL = a.Value
				sources++
			case "mimetype", "mime_type", "media_type", "mediatype":
				part.MediaType = a.Value
			case "detail":
				part.Detail = a.Value
			default:
				known = false
			}
		}
		if sources != 1 || part.URL == "" {
			known = false
		}
		return part, known, true
	}
	return part, false, false
}

// rawChecks reads s (well-formed XML once wrapped in a root) token by
// token, as etree does not show: refs reports a reference, such as &#x9;,
// in the text between the messages (XML reads whitespace there, the markup
// text outside a message); dups reports a tag with an attribute given twice
// (etree keeps the last, silently; the markup refuses it).
func rawChecks(s string) (refs, dups bool) {
	src := "<root>" + s + "</root>"
	d := xml.NewDecoder(strings.NewReader(src))
	depth, off := 0, int64(0)
	for {
		tok, err := d.RawToken()
		if err != nil {
			return refs, dups
		}
		next := d.InputOffset()
		switch tok := tok.(type) {
		case xml.StartElement:
			depth++
			seen := map[string]bool{}
			for _, a := range tok.Attr {
				key := strings.ToLower(a.Name.Local)
				if a.Name.Space != "" {
					key = strings.ToLower(a.Name.Space) + ":" + key
				}
				dups = dups || seen[key]
				seen[key] = true
			}
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 1 && strings.Contains(src[off:next], "&") {
				refs = true
			}
		}
		off = next
	}
}

// FuzzEtreeOracle checks Parse against etree, the XML reader the design
// names as an oracle: for every input that etree reads as well-formed XML
// whose root holds only <message> elements of text, <text> parts and media
// parts, Parse gives the same roles, names, tool_call_ids, text and media
// parts, after the documented rules that differ from XML (docs/markup.md,
// "etree as an oracle"):
//
//   - text is trimmed of literal ASCII whitespace at both ends, and loose
//     text beside parts that trims to nothing is dropped (compared here
//     after trimming both sides and leaving out empty texts, since etree
//     has decoded references);
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
		`<message role="user"> Look: <image url="https://x/a.png" detail="low"/> and <text> this </text><audio uri="data:audio/wav;base64,AA==" mimetype="audio/wav"/></message>`,
		`<message role="user"><text encoding="utf-8">a</text><binary src="https://x/f.pdf"/><text/></message>`,
		`<message role="user"><image url="a" uri="b"/></message>`,
		`<message role="user"><image alt="x" url="a"/></message>`,
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
			gp, wp := oracleParts(g.Content), oracleParts(w.parts)
			if len(gp) != len(wp) {
				t.Fatalf("Parse(%q) message %d = %d parts %q; etree: %d parts %q", s, i+1, len(gp), gp, len(wp), wp)
			}
			for j := range gp {
				if gp[j] != wp[j] {
					t.Fatalf("Parse(%q) message %d part %d = %+v; etree: %+v", s, i+1, j+1, gp[j], wp[j])
				}
			}
			if len(g.ToolCalls) > 0 {
				t.Fatalf("Parse(%q) message %d has %d tool calls; etree reads none", s, i+1, len(g.ToolCalls))
			}
		}
	})
}

// oracleParts applies the rules under which the two readings compare to a
// message's parts: each text is compared by oracleText, and a text part
// that is empty by it is left out (the markup drops loose text that trims
// to nothing; text written as references is content to it but whitespace
// to etree).
func oracleParts(parts []chat.Part) []chat.Part {
	var out []chat.Part
	for _, p := range parts {
		if p.Type == chat.PartText {
			p.Text = oracleText(p.Text)
			if p.Text == "" {
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

// oracleText applies the rules under which the two readings compare: XML's
// line-end normalisation, then trimming of ASCII whitespace.
func oracleText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Trim(s, " \t\r\n")
}
