package react

import (
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// StopWords returns the stop words of a ReAct prompt: "Observation:" and
// "Observation:\n", the pair Qwen's react_demo.py generates with (the second
// is a single token for Qwen's tokenizer). A fresh slice each call.
func StopWords() []string { return []string{"Observation:", "Observation:\n"} }

// AddStopWordVariants returns words followed by, for each word that starts
// with newlines, the word without them when it is new, as Qwen's
// add_extra_stop_words does. It returns nil for no words.
func AddStopWordVariants(words []string) []string {
	if len(words) == 0 {
		return nil
	}
	out := append([]string(nil), words...)
	for _, w := range words {
		s := strings.TrimLeft(w, "\n")
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// Cut returns text up to the first occurrence of any of the stop words: the
// one that starts earliest. Empty words are ignored. With no stop word in
// text it returns text.
func Cut(text string, words []string) string {
	if i := firstStop(text, words); i >= 0 {
		return text[:i]
	}
	return text
}

// firstStop returns where the earliest occurrence of a stop word in text
// starts, or -1.
func firstStop(text string, words []string) int {
	best := -1
	for _, w := range words {
		if w == "" {
			continue
		}
		lim := text
		if best >= 0 {
			lim = text[:min(len(text), best+len(w)-1)]
		}
		if i := strings.Index(lim, w); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	return best
}

// A stopper cuts a streamed reply at its first stop word: fed the reply in
// chunks of any size, it passes on everything before the stop word and
// nothing from the stop word on, even when the stop word is split across
// chunks. What it passes on is the same as Cut of the whole reply.
//
// It holds back only text that may begin a stop word, and never splits a
// UTF-8 character it has received whole.
type stopper struct {
	words   []string
	pending string
	stopped bool // the stop word has been seen
	done    bool // stopped or closed
}

// newStopper returns a stopper for the stop words; with none it uses
// StopWords(). Empty words are ignored.
func newStopper(words ...string) *stopper {
	if len(words) == 0 {
		words = StopWords()
	}
	s := &stopper{}
	for _, w := range words {
		if w != "" {
			s.words = append(s.words, w)
		}
	}
	return s
}

// push takes the next chunk of the reply and returns the text that can now
// be passed on. After the stop word, and after close, it returns "".
func (s *stopper) push(chunk string) string {
	if s.done {
		return ""
	}
	s.pending += chunk
	stop := firstStop(s.pending, s.words)
	hold := s.partial()
	if stop >= 0 && stop <= hold {
		out := s.pending[:stop]
		s.pending, s.stopped, s.done = "", true, true
		return out
	}
	if hold > len(s.pending) {
		hold = len(s.pending)
	}
	hold = utf8Boundary(s.pending, hold)
	out := s.pending[:hold]
	s.pending = s.pending[hold:]
	return out
}

// close ends the reply and returns the text still held back: the end of a
// reply that had no stop word.
func (s *stopper) close() string {
	if s.done {
		return ""
	}
	stop := firstStop(s.pending, s.words)
	out := s.pending
	if stop >= 0 {
		out, s.stopped = out[:stop], true
	}
	s.pending, s.done = "", true
	return out
}

// partial returns the earliest position from which the pending text is a
// proper prefix of a stop word (a stop word that may complete with the next
// chunk), or len(pending)+1 when there is none.
func (s *stopper) partial() int {
	n := len(s.pending)
	best := n + 1
	for _, w := range s.words {
		from := max(0, n-len(w)+1)
		for i := from; i < n && i < best; i++ {
			if strings.HasPrefix(w, s.pending[i:]) {
				best = i
				break
			}
		}
	}
	return best
}

// utf8Boundary moves i back to the start of the UTF-8 character that holds
// byte i-1 when that character runs past i or may still be arriving.
func utf8Boundary(s string, i int) int {
	for j := i - 1; j >= 0 && j > i-utf8.UTFMax; j-- {
		if !utf8.RuneStart(s[j]) {
			continue
		}
		r, n := utf8.DecodeRuneInString(s[j:])
		if r == utf8.RuneError && n <= 1 {
			if !utf8.FullRuneInString(s[j:]) {
				return j
			}
			return i
		}
		if j+n > i {
			return j
		}
		return i
	}
	return i
}

// A StopWriter cuts a streamed reply at its first stop word: it passes what
// is written to it on to another writer, everything before the stop word and
// nothing from the stop word on, even when the stop word is split across
// writes; what it passes on is Cut of the whole reply. It holds back only
// text that may begin a stop word, and never splits a UTF-8 character it
// has received whole. Call Close at the end of the reply to pass on what it
// holds back. Cut is the same for a reply that is not streamed. A
// StopWriter is not safe for concurrent use.
type StopWriter struct {
	w io.Writer
	s *stopper
}

// NewStopWriter returns a StopWriter writing to w; with no words it uses
// StopWords().
func NewStopWriter(w io.Writer, words ...string) *StopWriter {
	return &StopWriter{w: w, s: newStopper(words...)}
}

// Write passes on the part of p that comes before the stop word. It reports
// all of p as written, also after the stop word, so that a copy of a stream
// runs to its end; use Stopped to end it early.
func (sw *StopWriter) Write(p []byte) (int, error) {
	if out := sw.s.push(string(p)); out != "" {
		if _, err := io.WriteString(sw.w, out); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Close passes on the text held back. It does not close the underlying
// writer.
func (sw *StopWriter) Close() error {
	if out := sw.s.close(); out != "" {
		_, err := io.WriteString(sw.w, out)
		return err
	}
	return nil
}

// Stopped reports whether the stop word has been seen.
func (sw *StopWriter) Stopped() bool { return sw.s.stopped }
