package roleparse_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/roleparse"
)

// skFake is Convert.ToBase64String("Fake content"), the body of the media
// parts of ChatPromptParserTests.
const skFake = "RmFrZSBjb250ZW50"

// skParserSuite is every "prompt text -> chat messages" case of Semantic
// Kernel's parser tests (microsoft/semantic-kernel b39d95a:
// dotnet/src/SemanticKernel.UnitTests/Prompt/ChatPromptParserTests.cs and
// XmlPromptParserTests.cs; python/tests/unit/contents/test_chat_history.py,
// the from_rendered_prompt tests), with the messages rolemark reads. Where
// rolemark reads a case otherwise than SK, diff says how and why (the
// markup's grammar, docs/markup.md, decides; "Semantic Kernel" in
// docs/markup.md lists the same differences).
var skParserSuite = []struct {
	name  string // the SK test
	in    string
	loose bool
	want  []chat.Message
	err   string
	diff  string
}{
	{name: "ChatPromptParserTests.ItReturnsNullChatHistoryWhenPromptIsPlainTextOrInvalid plain",
		in: "This is plain prompt", want: msgs(usr("This is plain prompt")),
		diff: "none in effect: SK's parser declines and its caller sends the prompt as one user message"},
	{name: "ChatPromptParserTests.ItReturnsNullChatHistoryWhenPromptIsPlainTextOrInvalid attribute without value",
		in: "<message This is invalid chat prompt>", err: `line 1, col 14: in <message>: attribute this has no value; expected this="…"`,
		diff: "SK falls back to one user message holding the raw prompt; rolemark reports the markup error with its place (SK #6983 asked for this)"},
	{name: "ChatPromptParserTests.ItReturnsNullChatHistoryWhenPromptIsPlainTextOrInvalid crossed tags",
		in: "<message role='user'><text>This is an invalid chat prompt</message></text>", err: "line 1, col 58: </message> closes <text> opened at line 1, col 22; expected </text>",
		diff: "the same: an error instead of a silent fallback"},
	{name: "ChatPromptParserTests.ItReturnsChatHistoryWithValidContentWhenSimplePrompt",
		in: "\n<message role=\"system\">\nTest with role in double quotes and content in new line.\n</message>\n\n<message role='user'>Test with role in single quotes and content in the same line.</message>\n\n" +
			"<message role=\"assistant\">\nTest with multiline content.\nSecond line.\n</message>\n\n<message role='system'>\n    Test line with tab.\n</message>\n\n<message role='user'>\n    Hello, I'm a user.\n</message>\n\n",
		want: msgs(sys("Test with role in double quotes and content in new line."), usr("Test with role in single quotes and content in the same line."),
			asst("Test with multiline content.\nSecond line."), sys("Test line with tab."), usr("Hello, I'm a user."))},
	{name: "ChatPromptParserTests.ItReturnsChatHistoryWithValidContentItemsWhenNestedPrompt",
		in: "\n<message role='user'><text>Hi how are you?</text></message>\n\n<message role=\"assistant\">\nTest with multiline content.\nSecond line.\n</message>\n\n" +
			"<message role='user'>\n    <text>explain image</text>\n    <image>https://fake-link-to-image/</image>\n</message>\n\n",
		want: msgs(usr("Hi how are you?"), asst("Test with multiline content.\nSecond line."),
			parts(chat.RoleUser, txt("explain image"), img("https://fake-link-to-image/")))},
	{name: "ChatPromptParserTests.ItReturnsChatHistoryWithValidContentItemsIncludeCData",
		in: "\n<message role=\"assistant\">\n<![CDATA[\n<message role='system'><text>Text content</text></message>\n]]>\n</message>\n\n" +
			"<message role='user'>\n<![CDATA[\n<text>explain image</text>\n<image>https://fake-link-to-image/</image>\n]]>\n</message>\n\n",
		want: msgs(asst("<message role='system'><text>Text content</text></message>"), usr("<text>explain image</text>\n<image>https://fake-link-to-image/</image>"))},
	{name: "ChatPromptParserTests.ItReturnsChatHistoryWithValidDataImageContent",
		in:   "\n<message role=\"assistant\">What can I help with?</message>\n\n<message role='user'>\n    <text>Explain this image</text>\n    <image>data:image/png;base64,iVBORw0KGgo=</image>\n</message>\n\n",
		want: msgs(asst("What can I help with?"), parts(chat.RoleUser, txt("Explain this image"), img("data:image/png;base64,iVBORw0KGgo="))),
		diff: "SK fills MimeType from the data URI (image/png); rolemark leaves MediaType empty, since the URI carries it and Marshal writes the part back as it came"},
	{name: "ChatPromptParserTests.ItReturnsChatHistoryWithMultipleTextParts",
		in:   "\n<message role=\"assistant\">What can I help with?</message>\n\n<message role='user'>\n    <text>Hello</text>\n    <text>I am user</text>\n</message>\n\n",
		want: msgs(asst("What can I help with?"), parts(chat.RoleUser, txt("Hello"), txt("I am user")))},
	{name: "ChatPromptParserTests.ItReturnsChatHistoryWithMixedXmlContent",
		in:   "\n<message role=\"assistant\">What can I help with?</message>\n\n<message role='user'>\n    This part will be discarded upon parsing\n    <text>Hi how are you?</text>\n    This part will also be discarded upon parsing\n</message>\n\n",
		want: msgs(asst("What can I help with?"), parts(chat.RoleUser, txt("This part will be discarded upon parsing"), txt("Hi how are you?"), txt("This part will also be discarded upon parsing"))),
		diff: "SK .NET drops loose text beside parts; rolemark keeps it as text parts in place (docs/markup.md, Parts): a prompt's words are never dropped silently"},
	{name: "ChatPromptParserTests.ItReturnsChatHistoryWithEmptyContent",
		in:   "\n<message role=\"assistant\">What can I help with?</message>\n<message role='user'/>\n<message role='user'>\n</message>\n\n",
		want: msgs(asst("What can I help with?"), chat.Message{Role: chat.RoleUser}, chat.Message{Role: chat.RoleUser})},
	{name: "ChatPromptParserTests.ItReturnsChatHistoryWithValidContentItemsIncludeCode raw message in <code>",
		in:   "<message role=\"assistant\">\n<code>\n    <message role='system'>\n        <text>Text content</text>\n    </message>\n</code>\n</message>",
		err:  `line 6, col 1: text outside a message: "</code>\n"; expected <message role="…">, whitespace or a comment (or parse with roleparse.Loose)`,
		diff: "SK keeps an unknown element's inner XML, nested <message> included, as text; in rolemark a <message> tag always opens a message (docs/markup.md: markup in text is escaped or in CDATA)"},
	{name: "ChatPromptParserTests.ItReturnsChatHistoryWithValidContentItemsIncludeCode CDATA",
		in:   "<message role=\"assistant\">\n<![CDATA[\n<code>\n    <message role='system'>\n        <text>Text content</text>\n    </message>\n</code>\n]]>\n</message>",
		want: msgs(asst("<code>\n    <message role='system'>\n        <text>Text content</text>\n    </message>\n</code>"))},
	{name: "ChatPromptParserTests.ItReturnsChatHistoryWithValidContentItemsIncludeCode escaped",
		in:   "<message role=\"assistant\">\n&lt;code&gt;\n    &lt;message role=&#39;system&#39;&gt;\n        &lt;text&gt;Text content&lt;/text&gt;\n    &lt;/message&gt;\n&lt;/code&gt;\n</message>",
		want: msgs(asst("<code>\n    <message role='system'>\n        <text>Text content</text>\n    </message>\n</code>"))},
	{name: "ChatPromptParserTests.ItReturnsChatHistoryWithValidContentItemsIncludeCode parts in <code>",
		in:   "<message role='user'>\n  <code>\n    <text>explain image</text>\n    <image>\n      https://fake-link-to-image/\n    </image>\n  </code>\n</message>",
		want: msgs(parts(chat.RoleUser, txt("<code>"), txt("explain image"), img("https://fake-link-to-image/"), txt("</code>"))),
		diff: "SK reads the <code> element's inner XML as the text (its parts are not direct children); rolemark's parts do not depend on unknown tags around them, which are text"},
	{name: "ChatPromptParserTests.ItReturnsChatHistoryWithMixedBinaryAndTextContent",
		in: "<message role='user'>\n  This part will be discarded upon parsing\n  <text>Make sense of this random assortment of stuff.</text>\n" +
			"  <image mimetype=\"image/png\">https://fake-link-to-image/</image>\n  <audio>data:audio/wav;base64," + skFake + "</audio>\n" +
			"  <binary>data:application/pdf;base64," + skFake + "</binary>\n  <binary mimetype=\"application/pdf\">https://fake-link-to-pdf/</binary>\n" +
			"  <binary mimetype=\"application/octet-stream\">https://fake-link-to-binary/</binary>\n  This part will also be discarded upon parsing\n</message>",
		want: msgs(parts(chat.RoleUser, txt("This part will be discarded upon parsing"), txt("Make sense of this random assortment of stuff."),
			chat.Part{Type: chat.PartImage, URL: "https://fake-link-to-image/", MediaType: "image/png"},
			chat.Part{Type: chat.PartAudio, URL: "data:audio/wav;base64," + skFake},
			chat.Part{Type: chat.PartFile, URL: "data:application/pdf;base64," + skFake},
			chat.Part{Type: chat.PartFile, URL: "https://fake-link-to-pdf/", MediaType: "application/pdf"},
			chat.Part{Type: chat.PartFile, URL: "https://fake-link-to-binary/", MediaType: "application/octet-stream"},
			txt("This part will also be discarded upon parsing"))),
		diff: "loose text kept (as above); the media type of a data URI is not copied to MediaType (as above)"},
	{name: "XmlPromptParserTests.ItReturnsPromptNodesWhenPromptHasXmlFormat self-closing audio with src",
		in:   "<message role='user'>\n    <audio src='https://fake-link-to-audio' />\n</message>",
		want: msgs(parts(chat.RoleUser, chat.Part{Type: chat.PartAudio, URL: "https://fake-link-to-audio"})),
		diff: "SK's chat parser skips a part with no body and keeps the message's inner XML as text; rolemark reads the audio part its src names"},
	{name: "test_chat_history_from_rendered_prompt_empty", in: "", want: nil},
	{name: "test_chat_history_from_rendered_prompt",
		in:   `<message role="system"><text>I am an AI assistant</text></message><message role="user"><text>What can you do?</text></message>`,
		want: msgs(sys("I am an AI assistant"), usr("What can you do?"))},
	{name: "test_chat_history_from_rendered_prompt_multi_line",
		in:   "<message role=\"system\">I am an AI assistant\nand I can do \nstuff</message>\n<message role=\"user\">What can you do?</message>",
		want: msgs(sys("I am an AI assistant\nand I can do \nstuff"), usr("What can you do?"))},
	{name: "test_from_rendered_prompt_preserves_html_p_tag",
		in:   `Translate following message from English language into the Spanish language - "<p>What is your name?</p>"`,
		want: msgs(usr(`Translate following message from English language into the Spanish language - "<p>What is your name?</p>"`))},
	{name: "test_from_rendered_prompt_preserves_multiple_html_tags",
		in: "<p>First paragraph</p><div>A div</div>", want: msgs(usr("<p>First paragraph</p><div>A div</div>"))},
	{name: "test_from_rendered_prompt_preserves_html_with_text_around",
		in: "Hello <b>world</b> today", want: msgs(usr("Hello <b>world</b> today"))},
	{name: "test_from_rendered_prompt_sk_tags_still_work_with_html",
		in: `<message role="user">Tell me about <b>bold</b> text</message>`, want: msgs(usr("Tell me about <b>bold</b> text"))},
}

func TestSemanticKernelParserSuite(t *testing.T) {
	for _, tc := range skParserSuite {
		t.Run(tc.name, func(t *testing.T) {
			var opts []roleparse.Option
			if tc.loose {
				opts = append(opts, roleparse.Loose())
			}
			got, err := roleparse.Parse(tc.in, opts...)
			if tc.err != "" {
				require.EqualError(t, err, tc.err, "input %q (differs from SK: %s)", tc.in, tc.diff)
				return
			}
			require.NoError(t, err, "input %q", tc.in)
			assert.Equal(t, tc.want, got, "input %q (differs from SK: %s)", tc.in, tc.diff)
		})
	}
}
