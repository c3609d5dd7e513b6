package roleparse_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/roleparse"
)

// Helpers that keep the table short.

func msg(role chat.Role, text string) chat.Message { return chat.Text(role, text) }
func sys(text string) chat.Message                 { return msg(chat.RoleSystem, text) }
func usr(text string) chat.Message                 { return msg(chat.RoleUser, text) }
func asst(text string) chat.Message                { return msg(chat.RoleAssistant, text) }

func parts(role chat.Role, ps ...chat.Part) chat.Message {
	return chat.Message{Role: role, Content: ps}
}

func txt(s string) chat.Part { return chat.TextPart(s) }

func img(url string) chat.Part { return chat.Part{Type: chat.PartImage, URL: url} }

func call(id, name, args string) chat.ToolCall {
	tc := chat.ToolCall{ID: id, Name: name}
	if args != "" {
		tc.Arguments = json.RawMessage(args)
	}
	return tc
}

func msgs(m ...chat.Message) []chat.Message { return m }

type parseCase struct {
	name string
	in   string
	opts []roleparse.Option
	want []chat.Message
	// err is the whole error text, "line L, col C: message"; set for
	// inputs that must fail.
	err string
}

var parseCases = []parseCase{
	// Basics and quoting.
	{name: "one message", in: `<message role="user">Hello</message>`, want: msgs(usr("Hello"))},
	{name: "single quotes", in: `<message role='user'>Hello</message>`, want: msgs(usr("Hello"))},
	{name: "mixed quotes", in: `<message role='user' name="bob">Hi</message>`,
		want: msgs(chat.Message{Role: chat.RoleUser, Name: "bob", Content: []chat.Part{txt("Hi")}})},
	{name: "quote of the other kind inside a value", in: `<message role="user" name='say "hi"'>x</message>`,
		want: msgs(chat.Message{Role: chat.RoleUser, Name: `say "hi"`, Content: []chat.Part{txt("x")}})},
	{name: "entities in attribute values", in: `<message role="user" name="a&amp;b&#39;c">x</message>`,
		want: msgs(chat.Message{Role: chat.RoleUser, Name: "a&b'c", Content: []chat.Part{txt("x")}})},
	{name: "spaces around equals and before close", in: "<message  role = \"user\"\n\tname='n' >x</message >",
		want: msgs(chat.Message{Role: chat.RoleUser, Name: "n", Content: []chat.Part{txt("x")}})},
	{name: "design example", in: "<message role=\"system\">You are a bank manager.</message>\n" +
		"<message role=\"user\" name=\"alice\">I want to buy</message>\n" +
		"<message role=\"assistant\"><tool_call id=\"c1\" name=\"get_rate\">{\"currency\":\"EUR\"}</tool_call></message>\n" +
		"<message role=\"tool\" tool_call_id=\"c1\">1.08</message>\n" +
		"<message role=\"user\"><text>What is in this picture?</text><image url=\"https://x/p.png\" detail=\"low\"/></message>\n",
		want: msgs(
			sys("You are a bank manager."),
			chat.Message{Role: chat.RoleUser, Name: "alice", Content: []chat.Part{txt("I want to buy")}},
			chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{call("c1", "get_rate", `{"currency":"EUR"}`)}},
			chat.Message{Role: chat.RoleTool, ToolCallID: "c1", Content: []chat.Part{txt("1.08")}},
			parts(chat.RoleUser, txt("What is in this picture?"), chat.Part{Type: chat.PartImage, URL: "https://x/p.png", Detail: "low"}),
		)},

	// Case of tags, attributes and roles.
	{name: "upper-case tag and attribute", in: `<MESSAGE ROLE="user">x</MESSAGE>`, want: msgs(usr("x"))},
	{name: "mixed-case close tag", in: `<Message Role="user">x</mEssage>`, want: msgs(usr("x"))},
	{name: "upper-case role", in: `<message role="ASSISTANT">x</message>`, want: msgs(asst("x"))},
	{name: "mixed-case role", in: `<message role="System">x</message>`, want: msgs(sys("x"))},
	{name: "developer role", in: `<message role="developer">x</message>`, want: msgs(msg(chat.RoleDeveloper, "x"))},
	{name: "upper-case part tags", in: `<message role="user"><TEXT>a</TEXT><IMAGE URL="u"/></message>`,
		want: msgs(parts(chat.RoleUser, txt("a"), img("u")))},

	// Role aliases.
	{name: "alias human", in: `<message role="human">x</message>`, want: msgs(usr("x"))},
	{name: "alias bot", in: `<message role="bot">x</message>`, want: msgs(asst("x"))},
	{name: "alias ai", in: `<message role="AI">x</message>`, want: msgs(asst("x"))},
	{name: "alias model", in: `<message role="model">x</message>`, want: msgs(asst("x"))},

	// References.
	{name: "five entities", in: `<message role="user">&lt;b&gt; &amp; &quot;q&quot; &apos;a&apos;</message>`,
		want: msgs(usr(`<b> & "q" 'a'`))},
	{name: "decoded exactly once", in: `<message role="user">&amp;lt; &amp;amp; &amp;#39;</message>`,
		want: msgs(usr("&lt; &amp; &#39;"))},
	{name: "decimal and hex references", in: `<message role="user">&#39;&#x1F600;&#X41;&#065;</message>`,
		want: msgs(usr("'😀AA"))},
	{name: "bare ampersand and less-than kept", in: `<message role="user">if a < b && c > d then A&B</message>`,
		want: msgs(usr("if a < b && c > d then A&B"))},
	{name: "unknown entity kept", in: `<message role="user">a&nbsp;b &copy; &AMP;</message>`,
		want: msgs(usr("a&nbsp;b &copy; &AMP;"))},
	{name: "malformed references kept", in: `<message role="user">&#; &#x; &#12 &#xZZ; &#x110000; &#xD800; &amp</message>`,
		want: msgs(usr("&#; &#x; &#12 &#xZZ; &#x110000; &#xD800; &amp"))},
	{name: "references with many leading zeros", in: `<message role="user">&#x0000000041;&#0000000066;</message>`,
		want: msgs(usr("AB"))},
	{name: "references far out of range kept", in: `<message role="user">&#99999999999999999999; &#xFFFFFFFFFFFFFFFFFFFF;</message>`,
		want: msgs(usr("&#99999999999999999999; &#xFFFFFFFFFFFFFFFFFFFF;"))},
	{name: "reference to a NUL is decoded", in: `<message role="user">a&#0;b</message>`, want: msgs(usr("a\x00b"))},
	{name: "ampersand at end of input", in: `<message role="user">a &`, want: msgs(usr("a &"))},

	// Tags that are not rolemark's pass through.
	{name: "answer tags kept", in: `<message role="user">Put it in <answer>…</answer> tags.</message>`,
		want: msgs(usr("Put it in <answer>…</answer> tags."))},
	{name: "br and doc kept", in: `<message role="user">a<br/>b <doc id="1">d</doc></message>`,
		want: msgs(usr(`a<br/>b <doc id="1">d</doc>`))},
	{name: "names that extend a part tag are not parts", in: `<message role="user"><textarea/><images><tool_calls><messages></message>`,
		want: msgs(usr("<textarea/><images><tool_calls><messages>"))},
	{name: "code kept", in: "<message role=\"user\">```go\nfor i := 0; i < n; i++ { x := a<<2 }\n```</message>",
		want: msgs(usr("```go\nfor i := 0; i < n; i++ { x := a<<2 }\n```"))},
	{name: "comment inside a message is text", in: `<message role="user">a <!-- c --> b</message>`,
		want: msgs(usr("a <!-- c --> b"))},

	// CDATA.
	{name: "cdata verbatim", in: `<message role="user"><![CDATA[<b>&amp;</b>]]></message>`,
		want: msgs(usr("<b>&amp;</b>"))},
	{name: "cdata with end tag inside", in: `<message role="user"><![CDATA[say </message> now]]></message>`,
		want: msgs(usr("say </message> now"))},
	{name: "cdata whitespace trimmed at the ends", in: "<message role=\"user\"><![CDATA[ \n x y \t]]></message>",
		want: msgs(usr("x y"))},
	{name: "cdata between text", in: `<message role="user">a &amp; <![CDATA[&amp;]]> b</message>`,
		want: msgs(usr("a & &amp; b"))},
	{name: "cdata in a text part", in: `<message role="user"><text><![CDATA[</text>]]></text></message>`,
		want: msgs(parts(chat.RoleUser, txt("</text>")))},
	{name: "cdata not closed", in: `<message role="user"><![CDATA[abc`,
		err: "line 1, col 22: <![CDATA[ section is not closed; expected ]]>"},

	// Control characters and invalid UTF-8.
	{name: "control characters pass through", in: "<message role=\"user\">a\x00b\x1bc\x7f</message>", want: msgs(usr("a\x00b\x1bc\x7f"))},
	{name: "invalid utf-8 passes through", in: "<message role=\"user\">\xff\xfeok\xc3</message>", want: msgs(usr("\xff\xfeok\xc3"))},
	{name: "vertical tab and form feed are not trimmed", in: "<message role=\"user\">\v x \f</message>", want: msgs(usr("\v x \f"))},

	// Parts and loose text.
	{name: "loose text around a part", in: `<message role="user">Look <image url="x"/> here</message>`,
		want: msgs(parts(chat.RoleUser, txt("Look"), img("x"), txt("here")))},
	{name: "text parts only", in: `<message role="user"><text> a </text> <text>b</text></message>`,
		want: msgs(parts(chat.RoleUser, txt("a"), txt("b")))},
	{name: "empty text part kept", in: `<message role="user"><text></text></message>`,
		want: msgs(parts(chat.RoleUser, txt("")))},
	{name: "self-closing text part", in: `<message role="user"><text/></message>`,
		want: msgs(parts(chat.RoleUser, txt("")))},
	{name: "entities in text part", in: `<message role="user"><text>&lt;tag&gt;</text></message>`,
		want: msgs(parts(chat.RoleUser, txt("<tag>")))},
	{name: "unknown tags inside a text part kept", in: `<message role="user"><text>see <b>this</b></text></message>`,
		want: msgs(parts(chat.RoleUser, txt("see <b>this</b>")))},
	{name: "text part with an attribute", in: `<message role="user"><text lang="en">x</text></message>`,
		err: "line 1, col 28: <text> has no attribute lang; it takes none (Semantic Kernel's encoding is read and ignored)"},

	// Media.
	{name: "image from url", in: `<message role="user"><image url="https://e/x.png"/></message>`,
		want: msgs(parts(chat.RoleUser, img("https://e/x.png")))},
	{name: "image from uri", in: `<message role="user"><image uri="https://e/x.png"/></message>`,
		want: msgs(parts(chat.RoleUser, img("https://e/x.png")))},
	{name: "image from src", in: `<message role="user"><image src="https://e/x.png"></image></message>`,
		want: msgs(parts(chat.RoleUser, img("https://e/x.png")))},
	{name: "image from body", in: "<message role=\"user\"><image>\n  https://e/x.png?a=1&amp;b=2\n</image></message>",
		want: msgs(parts(chat.RoleUser, img("https://e/x.png?a=1&b=2")))},
	{name: "data uri in body", in: `<message role="user"><image>data:image/png;base64,iVBORw0KGgo=</image></message>`,
		want: msgs(parts(chat.RoleUser, img("data:image/png;base64,iVBORw0KGgo=")))},
	{name: "data uri in attribute", in: `<message role="user"><image url="data:image/gif;base64,R0lGOD=="/></message>`,
		want: msgs(parts(chat.RoleUser, img("data:image/gif;base64,R0lGOD==")))},
	{name: "mimetype and detail", in: `<message role="user"><image url="u" mimetype="image/jpeg" detail="high"/></message>`,
		want: msgs(parts(chat.RoleUser, chat.Part{Type: chat.PartImage, URL: "u", MediaType: "image/jpeg", Detail: "high"}))},
	{name: "audio", in: `<message role="user"><audio url="https://e/a.wav" mimetype="audio/wav"/></message>`,
		want: msgs(parts(chat.RoleUser, chat.Part{Type: chat.PartAudio, URL: "https://e/a.wav", MediaType: "audio/wav"}))},
	{name: "file", in: `<message role="user"><file mimetype="application/pdf">data:application/pdf;base64,JVBE</file></message>`,
		want: msgs(parts(chat.RoleUser, chat.Part{Type: chat.PartFile, URL: "data:application/pdf;base64,JVBE", MediaType: "application/pdf"}))},
	{name: "binary is an alias of file", in: `<message role="user"><binary url="https://e/f.bin"/></message>`,
		want: msgs(parts(chat.RoleUser, chat.Part{Type: chat.PartFile, URL: "https://e/f.bin"}))},
	{name: "media with no source", in: `<message role="user"><image detail="low"/></message>`,
		err: "line 1, col 22: <image> has no source; expected a url attribute or a URL in its body"},
	{name: "media with two source attributes", in: `<message role="user"><image url="a" src="b"/></message>`,
		err: "line 1, col 41: <image> has both url and src; give one source"},
	{name: "media with attribute and body", in: `<message role="user"><image url="a">b</image></message>`,
		err: "line 1, col 22: <image> has both a url attribute and a body; give one source"},
	{name: "media with unknown attribute", in: `<message role="user"><image url="a" alt="b"/></message>`,
		err: "line 1, col 37: <image> has no attribute alt; expected url, mimetype or detail"},

	// Tool calls.
	{name: "tool call with arguments", in: `<message role="assistant"><tool_call id="c1" name="f">{"a": [1, "x&lt;y"]}</tool_call></message>`,
		want: msgs(chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{call("c1", "f", `{"a": [1, "x<y"]}`)}})},
	{name: "tool call arguments trimmed", in: "<message role=\"assistant\"><tool_call name=\"f\">\n  {\"a\":1}\n</tool_call></message>",
		want: msgs(chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{call("", "f", `{"a":1}`)}})},
	{name: "tool call without arguments", in: `<message role="assistant"><tool_call id="c1" name="f"/></message>`,
		want: msgs(chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{call("c1", "f", "")}})},
	{name: "tool call arguments in cdata", in: `<message role="assistant"><tool_call name="f"><![CDATA[{"q":"a<b & c"}]]></tool_call></message>`,
		want: msgs(chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{call("", "f", `{"q":"a<b & c"}`)}})},
	{name: "text and two tool calls", in: `<message role="assistant">Checking.<tool_call id="1" name="a">{}</tool_call><tool_call id="2" name="b">[]</tool_call></message>`,
		want: msgs(chat.Message{Role: chat.RoleAssistant, Content: []chat.Part{txt("Checking.")},
			ToolCalls: []chat.ToolCall{call("1", "a", "{}"), call("2", "b", "[]")}})},
	{name: "tool call with bad JSON", in: "<message role=\"assistant\">\n  <tool_call id=\"c1\" name=\"f\">{\"a\":}</tool_call>\n</message>",
		err: `line 2, col 36: <tool_call name="f"> arguments "{\"a\":}" are not valid JSON: invalid character '}' looking for beginning of value`},
	{name: "tool call with cut-off JSON", in: "<message role=\"assistant\"><tool_call name=\"f\">\n  {\"a\":[1,\n</tool_call></message>",
		err: `line 2, col 11: <tool_call name="f"> arguments "{\"a\":[1," are not valid JSON: unexpected end of JSON input`},
	{name: "tool call with bad JSON and a reference", in: `<message role="assistant"><tool_call name="f">{"a":&amp;}</tool_call></message>`,
		err: `line 1, col 47: <tool_call name="f"> arguments "{\"a\":&}" are not valid JSON: invalid character '&' looking for beginning of value`},
	{name: "tool call without name", in: `<message role="assistant"><tool_call id="c1">{}</tool_call></message>`,
		err: `line 1, col 27: <tool_call> has no name; expected <tool_call id="…" name="…">`},
	{name: "tool call with unknown attribute", in: `<message role="assistant"><tool_call name="f" type="x"/></message>`,
		err: "line 1, col 47: <tool_call> has no attribute type; expected id or name"},

	// Semantic Kernel spellings.
	{name: "chat_history wrapper", in: "<chat_history>\n  <message role=\"user\">a</message>\n  <message role=\"assistant\">b</message>\n</chat_history>\n",
		want: msgs(usr("a"), asst("b"))},
	{name: "empty chat_history", in: `<chat_history/><message role="user">a</message>`, want: msgs(usr("a"))},
	{name: "chat_history closing closes the open message", in: `<chat_history><message role="user">a</chat_history>`, want: msgs(usr("a"))},
	{name: "function_call", in: `<message role="assistant"><function_call id="call_1" name="weather-get">{"city":"Paris"}</function_call></message>`,
		want: msgs(chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{call("call_1", "weather-get", `{"city":"Paris"}`)}})},
	{name: "function_result in a tool message", in: `<message role="tool"><function_result id="call_1" name="weather-get">18 °C</function_result></message>`,
		want: msgs(chat.Message{Role: chat.RoleTool, ToolCallID: "call_1", Content: []chat.Part{txt("18 °C")}})},
	{name: "function_result makes a tool message", in: `<message role="assistant"><function_result id="call_1">ok</function_result></message>`,
		want: msgs(chat.Message{Role: chat.RoleTool, ToolCallID: "call_1", Content: []chat.Part{txt("ok")}})},
	{name: "function_result answering another call", in: `<message role="tool" tool_call_id="a"><function_result id="b">x</function_result></message>`,
		err: `line 1, col 39: <function_result id="b"> inside a message answering "a"; expected id="a" or no id`},
	{name: "function_result id matches", in: `<message role="tool" tool_call_id="a"><function_result id="a" name="f">x</function_result></message>`,
		want: msgs(chat.Message{Role: chat.RoleTool, ToolCallID: "a", Content: []chat.Part{txt("x")}})},
	{name: "function_call with bad JSON", in: `<message role="assistant"><function_call name="f">nope</function_call></message>`,
		err: `line 1, col 52: <function_call name="f"> arguments "nope" are not valid JSON: invalid character 'o' in literal null (expecting 'u')`},

	// Opening and closing messages.
	{name: "next message closes the open one", in: `<message role="system">a<message role="user">b`,
		want: msgs(sys("a"), usr("b"))},
	{name: "role markers without ends", in: "<message role=\"system\">\nBe brief.\n<message role=\"user\">\nHi\n",
		want: msgs(sys("Be brief."), usr("Hi"))},
	{name: "end of input closes the last message", in: `<message role="user">Hi <image url="u"/>`,
		want: msgs(parts(chat.RoleUser, txt("Hi"), img("u")))},
	{name: "empty message", in: `<message role="user"></message>`, want: msgs(usr(""))},
	{name: "whitespace-only message", in: "<message role=\"user\"> \n\t </message>", want: msgs(usr(""))},
	{name: "self-closing message", in: `<message role="user"/><message role="assistant" />`, want: msgs(usr(""), asst(""))},
	{name: "end tag with no message open", in: "<message role=\"user\">a</message>\n</message>",
		err: `line 2, col 1: </message> closes no message; expected <message role="…"> before it`},
	// A block written inside another ({{#user}}…{{#assistant}}…{{/assistant}}{{/user}}):
	// the inner <message> closed the outer one, so the outer end tag has nothing to close.
	{name: "end tag after a nested message", in: `<message role="user">a<message role="assistant">b</message></message>`,
		err: `line 1, col 60: </message> closes no message; expected <message role="…"> before it (messages do not nest: the <message> opened inside the one before closed it)`},
	{name: "nested message then others", in: `<message role="user">a<message role="assistant">b</message><message role="user">c</message></message>`,
		err: `line 1, col 92: </message> closes no message; expected <message role="…"> before it`},
	{name: "unclosed end tag", in: `<message role="user">a</message`,
		err: "line 1, col 23: </message tag is not closed; expected >"},
	{name: "unclosed start tag", in: `<message role="user"`,
		err: "line 1, col 1: <message tag is not closed; expected > before the end of input"},
	{name: "unclosed start tag at end of input", in: `<message role="user">a</message><message`,
		err: "line 1, col 33: <message tag is not closed; expected > before the end of input"},
	{name: "unclosed part", in: `<message role="user"><text>abc</message>`,
		err: "line 1, col 31: </message> closes <text> opened at line 1, col 22; expected </text>"},
	{name: "part not closed before end of input", in: `<message role="user"><text>abc`,
		err: "line 1, col 22: <text> opened here is not closed; expected </text> before the end of input"},
	{name: "unclosed value", in: `<message role="user>x</message>`,
		err: "line 1, col 15: in <message>: the value of role is not closed; expected \""},

	// Mis-nesting.
	{name: "text end tag closes image", in: `<message role="user"><image>u</text></message>`,
		err: "line 1, col 30: </text> closes <image> opened at line 1, col 22; expected </image>"},
	{name: "part inside a part", in: `<message role="user"><text>a <image url="u"/></text></message>`,
		err: "line 1, col 30: <image> inside <text> opened at line 1, col 22; expected </text> first"},
	{name: "stray part end tag", in: `<message role="user">a</text></message>`,
		err: "line 1, col 23: </text> closes no <text> (the open element is <message> opened at line 1, col 1)"},
	{name: "chat_history inside a message", in: `<message role="user"><chat_history></message>`,
		err: "line 1, col 22: <chat_history> inside <message> opened at line 1, col 1; expected </message> first"},

	// Text outside messages.
	{name: "whitespace and comments outside", in: "\n<!-- header -->\n<message role=\"user\">a</message>\n<!-- x --> \n",
		want: msgs(usr("a"))},
	{name: "text before the first message", in: "Hello\n<message role=\"user\">a</message>",
		err: `line 1, col 1: text outside a message: "Hello\n"; expected <message role="…">, whitespace or a comment (or parse with roleparse.Loose)`},
	{name: "text after the last message", in: "<message role=\"user\">a</message>\n  tail",
		err: `line 2, col 3: text outside a message: "tail"; expected <message role="…">, whitespace or a comment (or parse with roleparse.Loose)`},
	{name: "long text outside is cut", in: "<message role=\"user\">a</message>" + "0123456789012345678901234567890123456789é",
		err: `line 1, col 33: text outside a message: "0123456789012345678901234567890123456789…"; expected <message role="…">, whitespace or a comment (or parse with roleparse.Loose)`},
	{name: "unclosed comment outside", in: "<!-- x <message role=\"user\">a</message>",
		err: "line 1, col 1: <!-- comment is not closed; expected -->"},
	{name: "loose: leading text is system", in: "Be brief.\n<message role=\"user\">a</message>", opts: opts(roleparse.Loose()),
		want: msgs(sys("Be brief."), usr("a"))},
	{name: "loose: trailing text is user", in: "<message role=\"assistant\">a</message>\n &amp; more ", opts: opts(roleparse.Loose()),
		want: msgs(asst("a"), usr("& more"))},
	{name: "loose: both, around a comment", in: "lead <!-- c --> text<message role=\"user\">a</message>tail", opts: opts(roleparse.Loose()),
		want: msgs(sys("lead text"), usr("a"), usr("tail"))},

	// No tag at all.
	{name: "no tag: one user message", in: "  Tell me a joke &amp; a story. \n", want: msgs(usr("Tell me a joke & a story."))},
	{name: "no tag: other tags kept", in: "Use <answer> tags &lt;3", want: msgs(usr("Use <answer> tags <3"))},
	{name: "no tag: default role", in: "Be brief.", opts: opts(roleparse.DefaultRole(chat.RoleSystem)), want: msgs(sys("Be brief."))},
	{name: "no tag: default role is normalised like a role attribute", in: "x", opts: opts(roleparse.DefaultRole("Human")), want: msgs(usr("x"))},
	{name: "no tag: default role in upper case", in: "x", opts: opts(roleparse.DefaultRole("SYSTEM")), want: msgs(sys("x"))},
	{name: "no tag: keep space", in: " a ", opts: opts(roleparse.KeepSpace()), want: msgs(usr(" a "))},
	{name: "empty input", in: "", want: nil},
	{name: "whitespace input", in: " \n\t\r\n", want: nil},
	{name: "only a wrapper, no message: an empty history", in: "<chat_history></chat_history>", want: nil},
	{name: "a wrapper with text is text", in: "<chat_history>hi</chat_history>", want: msgs(usr("<chat_history>hi</chat_history>"))},

	// Roles.
	{name: "unknown role", in: `<message role="critic">x</message>`,
		err: `line 1, col 15: unknown role "critic"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)`},
	{name: "unknown role on a later line", in: "<message role=\"user\">a</message>\n<message  role=\"Critic\">x</message>",
		err: `line 2, col 16: unknown role "Critic"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)`},
	{name: "empty role", in: `<message role="">x</message>`,
		err: `line 1, col 15: unknown role ""; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)`},
	{name: "Roles allows a role", in: `<message role="Critic">x</message>`, opts: opts(roleparse.Roles("critic")),
		want: msgs(msg("critic", "x"))},
	{name: "Roles keeps the defaults", in: `<message role="human">x</message>`, opts: opts(roleparse.Roles("critic")),
		want: msgs(usr("x"))},
	{name: "AnyRole lower-cases", in: `<message role="HUMAN_2">x</message>`, opts: opts(roleparse.AnyRole()),
		want: msgs(msg("human_2", "x"))},
	{name: "AnyRole keeps aliases", in: `<message role="bot">x</message>`, opts: opts(roleparse.AnyRole()),
		want: msgs(asst("x"))},
	{name: "AnyRole still needs a role", in: `<message role="">x</message>`, opts: opts(roleparse.AnyRole()),
		err: `line 1, col 15: unknown role ""; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)`},
	{name: "Roles ignores an empty name", in: `<message role="">x</message>`, opts: opts(roleparse.Roles("", "critic")),
		err: `line 1, col 15: unknown role ""; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)`},
	{name: "missing role", in: `<message name="a">x</message>`,
		err: `line 1, col 1: <message> has no role; expected <message role="…">`},

	// Attributes.
	{name: "unknown attribute", in: `<message role="user" lang="en">x</message>`,
		err: "line 1, col 22: <message> has no attribute lang; expected role, name or tool_call_id"},
	{name: "duplicate attribute", in: `<message role="user" ROLE="user">x</message>`,
		err: "line 1, col 22: in <message>: attribute role is given twice; expected it once"},
	{name: "unquoted value", in: `<message role=user>x</message>`,
		err: "line 1, col 15: in <message>: the value of role must be quoted with \" or '"},
	{name: "attribute without value", in: `<message role>x</message>`,
		err: `line 1, col 14: in <message>: attribute role has no value; expected role="…"`},
	{name: "junk in a tag", in: `<message role="user" ?>x</message>`,
		err: `line 1, col 22: in <message>: found "?" where an attribute name, > or /> was expected`},
	{name: "slash not followed by >", in: `<message role="user" / >x</message>`,
		err: "line 1, col 22: in <message>: found '/' not followed by '>'"},

	// Positions: lines and columns count runes.
	{name: "column counts runes", in: "<message role=\"user\">é😀 ü</message>\n  <message role=\"user\">日本語<text>x</image></message>",
		err: "line 2, col 34: </image> closes <text> opened at line 2, col 27; expected </text>"},
	{name: "column after invalid utf-8", in: "<message role=\"user\">\xff\xfe</text>",
		err: "line 1, col 24: </text> closes no <text> (the open element is <message> opened at line 1, col 1)"},
	{name: "CR alone is not a line break", in: "<message role=\"user\">a</message>\r\nb",
		err: `line 2, col 1: text outside a message: "b"; expected <message role="…">, whitespace or a comment (or parse with roleparse.Loose)`},

	// Whitespace.
	{name: "literal whitespace trimmed, interior kept", in: "<message role=\"user\">\n\t  a \n\n b  \r\n</message>",
		want: msgs(usr("a \n\n b"))},
	{name: "KeepSpace keeps it", in: "<message role=\"user\">\n a \n</message>", opts: opts(roleparse.KeepSpace()),
		want: msgs(usr("\n a \n"))},
	{name: "KeepSpace in parts", in: "<message role=\"user\"><text> a </text></message>", opts: opts(roleparse.KeepSpace()),
		want: msgs(parts(chat.RoleUser, txt(" a ")))},
	{name: "whitespace references kept", in: "<message role=\"user\">&#32; a&#10;</message>",
		want: msgs(usr("  a\n"))},
	{name: "whitespace references beside literal whitespace", in: "<message role=\"user\"> \t&#9;x&#32; \n</message>",
		want: msgs(usr("\tx "))},
	{name: "only a whitespace reference", in: "<message role=\"user\">  &#x20;  </message>",
		want: msgs(usr(" "))},
	{name: "whitespace references in a text part", in: "<message role=\"user\"><text> &#13;&#10; </text></message>",
		want: msgs(parts(chat.RoleUser, txt("\r\n")))},

	// Rules of docs/markup.md that the groups above leave out.
	{name: "single quotes on part attributes", in: `<message role='user'><image url='u' detail='low'/></message>`,
		want: msgs(parts(chat.RoleUser, chat.Part{Type: chat.PartImage, URL: "u", Detail: "low"}))},
	{name: "unknown role in single quotes", in: `<message role='critic'>x</message>`,
		err: `line 1, col 15: unknown role "critic"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)`},
	{name: "upper-case wrapper and Semantic Kernel tags", in: `<CHAT_HISTORY><message role="assistant"><Function_Call NAME="f">{}</Function_Call></message></CHAT_HISTORY>`,
		want: msgs(chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{call("", "f", "{}")}})},
	{name: "function_result id and name spellings", in: `<message role="user"><function_result call_id="c" plugin_name="p" function_name="f">r</function_result></message>` +
		`<message role="assistant"><function_result tool_call_id="d">s</function_result></message>`,
		want: msgs(chat.Message{Role: chat.RoleTool, ToolCallID: "c", Content: []chat.Part{txt("r")}},
			chat.Message{Role: chat.RoleTool, ToolCallID: "d", Content: []chat.Part{txt("s")}})},
	{name: "media type spellings", in: `<message role="user"><image mime_type="image/png" url="u"/><audio media_type="audio/wav" url="a"/><file mediatype="application/pdf" url="f"/></message>`,
		want: msgs(parts(chat.RoleUser, chat.Part{Type: chat.PartImage, URL: "u", MediaType: "image/png"},
			chat.Part{Type: chat.PartAudio, URL: "a", MediaType: "audio/wav"}, chat.Part{Type: chat.PartFile, URL: "f", MediaType: "application/pdf"}))},
	{name: "control characters as references are decoded", in: `<message role="user">&#1;&#x7F;&#x1b;[0m</message>`,
		want: msgs(usr("\x01\x7f\x1b[0m"))},
	{name: "control characters and invalid utf-8 in an attribute value", in: "<message role=\"user\" name=\"\x01\xff\">a</message>",
		want: msgs(chat.Message{Role: chat.RoleUser, Name: "\x01\xff", Content: []chat.Part{txt("a")}})},
	{name: "no tag: control characters and invalid utf-8", in: "\xff a \x00 ", want: msgs(usr("\xff a \x00"))},
	{name: "no tag: an unfinished message tag makes it markup", in: "hello <message",
		err: `line 1, col 1: text outside a message: "hello "; expected <message role="…">, whitespace or a comment (or parse with roleparse.Loose)`},
	{name: "message inside a text part", in: `<message role="user"><text>a<message role="user">`,
		err: "line 1, col 29: <message> inside <text> opened at line 1, col 22; expected </text> first"},
	{name: "end tag inside a comment in a message still ends it", in: `<message role="user">a <!-- </message> --> b</message>`,
		err: `line 1, col 40: text outside a message: "--> b"; expected <message role="…">, whitespace or a comment (or parse with roleparse.Loose)`},
	{name: "tool call bad JSON in cdata points at the body", in: `<message role="assistant"><tool_call name="f"><![CDATA[{"a":}]]></tool_call></message>`,
		err: `line 1, col 47: <tool_call name="f"> arguments "{\"a\":}" are not valid JSON: invalid character '}' looking for beginning of value`},
	{name: "empty messages between messages", in: `<message role="system">a</message><message role="assistant"/><message role="tool" tool_call_id="c1"></message><message role="user">b`,
		want: msgs(sys("a"), asst(""), chat.Message{Role: chat.RoleTool, ToolCallID: "c1"}, usr("b"))},
	{name: "text between messages", in: `<message role="system">a</message>b<message role="user">c</message>`,
		err: `line 1, col 35: text outside a message: "b"; expected <message role="…">, whitespace or a comment (or parse with roleparse.Loose)`},
	{name: "loose: text between messages is user", in: `<message role="system">a</message>b<message role="user">c</message>`, opts: opts(roleparse.Loose()),
		want: msgs(sys("a"), usr("b"), usr("c"))},
	{name: "KeepSpace keeps media and tool-call bodies and blank loose text", in: `<message role="assistant"><image> u </image><tool_call name="f"> {} </tool_call> <text>a</text> </message>`,
		opts: opts(roleparse.KeepSpace()),
		want: msgs(chat.Message{Role: chat.RoleAssistant, Content: []chat.Part{{Type: chat.PartImage, URL: " u "}, txt(" "), txt("a"), txt(" ")},
			ToolCalls: []chat.ToolCall{call("", "f", " {} ")}})},
}

func opts(o ...roleparse.Option) []roleparse.Option { return o }

func TestParse(t *testing.T) {
	require.GreaterOrEqual(t, len(parseCases), 150)
	seen := map[string]bool{}
	for _, tc := range parseCases {
		require.False(t, seen[tc.name], "duplicate case name %q", tc.name)
		seen[tc.name] = true
		t.Run(tc.name, func(t *testing.T) {
			got, err := roleparse.Parse(tc.in, tc.opts...)
			if tc.err != "" {
				require.Error(t, err, "input: %q\ngot: %#v", tc.in, got)
				var pe *roleparse.Error
				require.True(t, errors.As(err, &pe), "error %v is not a *roleparse.Error", err)
				assert.Equal(t, tc.err, pe.Error(), "input: %q", tc.in)
				assert.Nil(t, got)
				line, col := position(tc.in, pe.Offset)
				assert.Equal(t, fmt.Sprintf("%d:%d", line, col), fmt.Sprintf("%d:%d", pe.Line, pe.Col), "Line and Col do not match Offset %d", pe.Offset)
				return
			}
			require.NoError(t, err, "input: %q", tc.in)
			assert.Equal(t, tc.want, got, "input: %q", tc.in)
		})
	}
}

// TestParseBytes checks that ParseBytes agrees with Parse.
func TestParseBytes(t *testing.T) {
	for _, tc := range parseCases {
		got, err := roleparse.ParseBytes([]byte(tc.in), tc.opts...)
		want, wantErr := roleparse.Parse(tc.in, tc.opts...)
		assert.Equal(t, want, got, tc.name)
		assert.Equal(t, wantErr, err, tc.name)
	}
}

// TestErrorAs checks that a parse error is found through wrapping.
func TestErrorAs(t *testing.T) {
	_, err := roleparse.Parse(`<message role="x">`)
	wrapped := fmt.Errorf("render bank.hbs: %w", err)
	var pe *roleparse.Error
	require.True(t, errors.As(wrapped, &pe))
	assert.Equal(t, 1, pe.Line)
	assert.Equal(t, 15, pe.Col)
	assert.Equal(t, 14, pe.Offset)
}

// position is the test's own reckoning of the 1-based line and rune column
// of byte offset off in s: lines end at '\n'; every rune, and every byte of
// invalid UTF-8, is one column.
func position(s string, off int) (line, col int) {
	line, col = 1, 1
	for _, r := range s[:off] {
		if r == '\n' {
			line, col = line+1, 1
			continue
		}
		col++
	}
	return line, col
}

// TestParseOptionsAllocateNothing: the options are applied to the pooled
// parser's own config, so a parse of one text-only message allocates its
// message and its part, options or none (a config of its own, handed to
// each option by pointer, moved to the heap: one allocation more).
func TestParseOptionsAllocateNothing(t *testing.T) {
	in := `<message role="user"> x </message>`
	require.Equal(t, 2.0, testing.AllocsPerRun(100, func() { _, _ = roleparse.Parse(in) }))
	opts := []roleparse.Option{roleparse.KeepSpace(), roleparse.AnyRole()}
	require.Equal(t, 2.0, testing.AllocsPerRun(100, func() { _, _ = roleparse.Parse(in, opts...) }))
}
