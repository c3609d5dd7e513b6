// Package driver is what a template engine adapter implements, as
// database/sql/driver is for database/sql: an Engine compiles source into a
// Compiled template, which renders one Request into markup. Callers use
// package engine instead; an adapter imports only this package (and
// roleparse and chat), so it pulls in neither front matter nor YAML.
//
// # Partials
//
// Handlebars {{> name}}, Jinja include, import and extends, and text/template
// {{template "name"}} of a name the file does not define read partials from
// Config.FS, and from nowhere else, all with Config.ReadPartial: in the
// template's directory first, then in each parent directory up to
// Config.Root, nearest first. Which extensions each engine tries is in its
// package documentation.
package driver

import (
	"context"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/roleparse"
)

// Engine compiles template source written in one template language.
type Engine interface {
	// Name is the engine's name, such as "handlebars".
	Name() string
	// Extensions are the file extensions the engine claims, with the dot.
	Extensions() []string
	// Compile compiles src. Errors are *Error values naming the template,
	// line and, where the engine knows it, column.
	Compile(name, src string, cfg Config) (Compiled, error)
}

// Config is what an engine needs to compile a template.
type Config struct {
	// FS is where partials and includes are read from; nil allows none.
	// An engine reads no file outside it.
	FS fs.FS
	// Dir is the directory of the template inside FS ("." for the root).
	Dir string
	// Root is the directory inside FS that partial lookup climbs to: a
	// partial that is not in Dir is looked for in Dir's parent, and so on
	// up to Root, never above it; the nearest directory wins (see
	// ReadPartial). engine.Set.LoadDir sets it to the directory it loads.
	// Empty, or a directory that is not Dir or above it, means Dir only.
	Root string
	// AllowMissing makes a variable that the template uses but the data
	// lacks render as empty instead of failing.
	AllowMissing bool
	// Optional names the optional top-level inputs that the template's
	// input schema declares. A render that does not supply one gives its
	// name in Request.Unsupplied and nil for it in Request.Vars; an engine
	// that reports missing variables accepts the template's reads of these.
	Optional []string
	// AllowMissingData makes an @-variable (Request.Data) that the render
	// does not supply render as empty instead of failing, as Dotprompt's
	// render context does: a Dotprompt file (.prompt) sets it, because
	// @auth or @user is absent from a request that has none.
	AllowMissingData bool
	// Parse are the options the template's markup is parsed with
	// (engine.ParseOptions), for an engine that renders straight to
	// messages (MessagesExecuter).
	Parse []roleparse.Option
	// Lead is how many characters the source starts with that stand for
	// its file's front matter (one line break a line, so that lines are
	// the file's): the body the author wrote starts after them. An engine
	// whose messages count characters (Jinja2's "at 34") counts them in
	// the body.
	Lead int
}

// Compiled is a compiled template. It is safe for concurrent use.
type Compiled interface {
	// Execute renders the template's markup for one request into w.
	Execute(ctx context.Context, w io.Writer, r *Request) error
}

// Request is the input of one render.
type Request struct {
	// Vars are the template's variables.
	Vars map[string]any
	// Data are the render's @-variables ({{@state.count}} in Handlebars),
	// by name without the @.
	Data map[string]any
	// Unsupplied names the optional inputs (Config.Optional) that the
	// caller did not supply. Vars holds nil for each, so that an engine
	// that reports missing variables finds them; an engine whose language
	// tells a value that is not there from a null one (Jinja2's Undefined
	// and None) must read these names as not there, and one that prints
	// nil as nothing may read the nil.
	Unsupplied []string
	// Memory, when not nil, is memory the render may put its messages in
	// (see Memory); an engine that renders through markup ignores it.
	Memory *Memory
}

// Memory is memory that renders reuse for their messages: an engine that
// renders straight to messages (MessagesExecuter) may put the messages,
// their text parts and their text in it, growing each as it needs and
// leaving it for the next render with the same Memory. Such messages, and
// the strings in them, are then valid only until that next render, which
// writes over them. The zero value is ready to use; a Memory is not safe
// for concurrent use.
type Memory struct {
	Text  []byte
	Msgs  []chat.Message
	Parts []chat.Part
}

// HistoryMarker is what an engine's history helper ({{history}}) writes,
// unescaped. The caller's engine.Template replaces every marker in the
// rendered markup with the render's history (nothing when there is none);
// when a render holds no marker, Template.Messages puts the history before
// the last user message. Data cannot produce the marker: every engine
// escapes the "<" of a value.
const HistoryMarker = "<rolemark:history/>"

// ByteOrderMark is the UTF-8 byte order mark some editors (Windows') write
// at the start of a file. Template files and partials are read without it
// (engine.Set drops it before the front matter, ReadPartial from what it
// returns): it is the file's encoding, not text of the prompt.
const ByteOrderMark = "\ufeff"

// StringExecuter is implemented by a Compiled whose engine renders to a
// string anyway, as raymond does. engine.Template.Messages then parses that
// string itself instead of a copy written through Execute.
type StringExecuter interface {
	// ExecuteString renders the template's markup for one request.
	ExecuteString(ctx context.Context, r *Request) (string, error)
}

// MessagesExecuter is implemented by a Compiled that can render some
// requests straight to messages, without markup to parse: the messages must
// be those roleparse.Parse gives for the markup Execute writes, parsed with
// Config.Parse. ok is false when this request must take Execute and the
// parse instead.
type MessagesExecuter interface {
	ExecuteMessages(ctx context.Context, r *Request) (msgs []chat.Message, ok bool, err error)
}

// partialDirs returns the directories a partial named from a template in
// dir is looked for in, nearest first: dir, then each parent of dir up to
// and including root. With an empty root, or a root that is not dir or
// above it, or a path that is not a valid fs.FS path (absolute, or with ..
// elements), it returns dir alone. Both are cleaned; "" means ".".
func partialDirs(dir, root string) []string {
	dir = cleanDir(dir)
	dirs := []string{dir}
	if root == "" || !fs.ValidPath(dir) {
		return dirs
	}
	root = cleanDir(root)
	if !fs.ValidPath(root) || (root != "." && dir != root && !strings.HasPrefix(dir, root+"/")) {
		return dirs
	}
	for dir != root {
		dir = path.Dir(dir)
		dirs = append(dirs, dir)
	}
	return dirs
}

func cleanDir(dir string) string {
	if dir == "" {
		return "."
	}
	return path.Clean(dir)
}
