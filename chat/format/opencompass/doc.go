// Package opencompass renders OpenCompass's meta templates: how a model
// wants each round of a dialogue written, in OpenCompass's evaluation
// framework.
//
// [MetaTemplate] is OpenCompass's meta template (round, reserved_roles,
// begin, end, generate, fallback_role, api_role), loadable from the JSON or
// YAML form of its Python dict. It has its own renderer, because
// OpenCompass walks the template's round for every round of the dialogue: a
// role missing from a round is still written (empty, or with its default
// prompt), and strings in the round are written once per round, which a
// Format, writing the messages it is given, does not do.
// [MetaTemplate.ToFormat] converts a template whose round is the user's and
// the assistant's roles to a [format.Format] that writes the same string for
// conversations of whole rounds (user and assistant alternating), so that
// it can stand wherever a Format does. [MetaTemplate.RenderPromptList] is the LMTemplateParser (a prompt string, gen
// or ppl mode), [MetaTemplate.APIPromptList] the APITemplateParser (api_role
// messages, consecutive same-role messages merged with "\n"), and
// [MetaTemplate.Render] / [MetaTemplate.APIMessages] do the same for
// a []chat.Message (leading system messages form the begin section, the
// rest the round section; see ChatRoles). [ChatTemplateMessages] is what
// OpenCompass's HuggingFacewithChatTemplate makes of API-mode messages
// before a model's own chat template renders them. [ListTemplate] is the
// list form of an API meta template OpenCompass added in 2026 (a list of
// role/content objects merged into the conversation by position). The behaviour follows OpenCompass's
// code where it and its documentation agree and the code does not crash.
// Where OpenCompass fails or contradicts itself, rolemark does this:
//
//   - A PromptList without section markers (the documentation's examples;
//     OpenCompass raises IndexError): leading items whose role is not a
//     round role (SYSTEM) form the begin section, the rest the round
//     section. A list of plain strings only is written as OpenCompass
//     writes it, between the template's begin and end, with no round.
//   - A fallback_role inside a round section (the LM parser raises
//     KeyError, the API parser resolves it): resolved in both modes.
//   - A role with neither a template entry nor a usable fallback (KeyError:
//     None after a print): an error naming the role.
//   - A generate role inside a begin or end section in API mode (the API
//     parser appends None and raises TypeError): never truncated, as in LM
//     mode.
//   - The meta template's begin in API mode (inserted as a bare string that
//     OpenCompass's own OpenAI wrapper then rejects): left out, like end.
//   - Non-empty plain strings in API mode (a warning): left out silently.
//     A list that then gives no message at all (plain strings only, or an
//     empty list) is an error in APIPromptList, as in OpenCompass
//     (IndexError).
//   - The dataset side's _encode_template, which closes an end section
//     twice and so crashes every parser, is not part of rolemark; PromptItem
//     lists are built directly or by Render.
//   - An api_role other than HUMAN, BOT and SYSTEM in APIMessages
//     (OpenCompass's OpenAI wrapper sends a message with no role): an
//     error naming the api_role. APIPromptList passes any api_role through.
//   - A plain string prompt (returned unchanged by OpenCompass), a list of
//     PromptLists, and PromptList's format and replace helpers are the
//     caller's business in Go: RenderPromptList takes one []PromptItem.
//   - The documentation's examples show an "end of conversation" line with no
//     end configured, "end of conversion" in the configuration, and a
//     newline after begin that the configuration lacks; rolemark follows the
//     configuration, as OpenCompass's code does.
//   - A MetaTemplate without Round renders as OpenCompass does with no meta
//     template: strings and prompts joined with "\n".
//   - Content holding one of the template's turn markers ("<eoh>",
//     "<BOT>:", "<|im_end|>"; see MetaTemplate.Markers) would forge a turn,
//     which OpenCompass writes as given: Render refuses it with a
//     *format.SpecialTokenError unless format.AllowSpecialTokens, and the
//     Format of ToFormat lists the markers as its special tokens. Prose
//     markers ("USER:") are allowed, as in package format's presets.
//     RenderPromptList, OpenCompass's own parser, writes what it is given.
package opencompass
