package jinja2

// Intern returns s itself, or where s is one of the keys and roles of
// a chat template's data (transformers' message and tool shapes), the
// program's constant with s's text. The linker keeps one copy of each
// string constant, so a template's 'role' or .content, parsed from its
// source, then shares its bytes with the keys and roles the host built
// from constants (chat/format/chattemplate's data, which passes the
// roles it is given through Intern), and comparing the
// two (a dict's findStr, message['role'] == 'user') stops at the
// pointers instead of comparing bytes. Only the strings' addresses
// change: their text, and so every output, is the same.
func Intern(s string) string {
	switch s {
	case "role":
		return "role"
	case "content":
		return "content"
	case "name":
		return "name"
	case "tool_calls":
		return "tool_calls"
	case "tool_call_id":
		return "tool_call_id"
	case "type":
		return "type"
	case "text":
		return "text"
	case "id":
		return "id"
	case "function":
		return "function"
	case "arguments":
		return "arguments"
	case "description":
		return "description"
	case "parameters":
		return "parameters"
	case "user":
		return "user"
	case "assistant":
		return "assistant"
	case "system":
		return "system"
	case "tool":
		return "tool"
	case "developer":
		return "developer"
	}
	return s
}
