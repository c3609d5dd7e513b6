package batchapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/batch/batchapi"
)

// TestCustomIDRules checks custom_ids against each API's published rules:
// OpenAI's must not be empty; Anthropic's are 1 to 64 of [a-zA-Z0-9_-], and
// RewriteID makes one of any string, keeping those Anthropic takes.
func TestCustomIDRules(t *testing.T) {
	openAIAPI, _ := batchapi.ByName("openai-batch")
	anthropicAPI, _ := batchapi.ByName("anthropic-batch")
	long := strings.Repeat("x", 80)
	tests := []struct {
		id               string
		openai           bool
		anthropic        bool
		anthropicRewrite string // a regexp
	}{
		{"a-1_B", true, true, `^a-1_B$`},
		{strings.Repeat("y", 64), true, true, `^y{64}$`},
		{strings.Repeat("y", 65), true, false, `^y{47}-[0-9a-f]{16}$`},
		{"a b.c/1", true, false, `^a_b_c_1-[0-9a-f]{16}$`},
		{long, true, false, `^x{47}-[0-9a-f]{16}$`},
		{"Grüß", true, false, `^Gr__-[0-9a-f]{16}$`},
		{"", false, false, `^-[0-9a-f]{16}$`},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.openai, openAIAPI.CheckID(tt.id) == nil, "openai %q", tt.id)
		assert.Equal(t, tt.anthropic, anthropicAPI.CheckID(tt.id) == nil, "anthropic %q", tt.id)
		r := anthropicAPI.RewriteID(tt.id)
		assert.Regexp(t, tt.anthropicRewrite, r, tt.id)
		assert.NoError(t, anthropicAPI.CheckID(r), tt.id)
	}
	assert.NotEqual(t, anthropicAPI.RewriteID("a b"), anthropicAPI.RewriteID("a/b"), "ids that differ stay apart")
	assert.EqualError(t, anthropicAPI.CheckID("a b"),
		`custom_id "a b": Anthropic takes 1 to 64 characters of letters, digits, _ and - (the RewriteIDs option, --rewrite-ids, makes one)`)
}

// TestFile checks a file's lines as the API will: a custom_id
// repeated in one file, and the request and byte limits.
func TestFile(t *testing.T) {
	line := func(id string) []byte { return []byte(`{"custom_id":"` + id + `","params":{}}` + "\n") }
	openAIAPI, _ := batchapi.ByName("openai-batch")
	anthropicAPI, ok := batchapi.ByName("anthropic-batch")
	require.True(t, ok)
	_, ok = batchapi.ByName("openai")
	assert.False(t, ok, "openai is not a request output")
	f, err := batchapi.NewFile(anthropicAPI, batchapi.Limits{Requests: 3}, batchapi.UniqueIDs())
	require.NoError(t, err)
	require.NoError(t, f.Add(1, line("a")))
	require.NoError(t, f.Add(2, line("b")))
	var dup *batchapi.DuplicateIDError
	require.ErrorAs(t, f.Add(3, line("a")), &dup)
	assert.Equal(t, `custom_id "a" is row 1's too; a batch's custom_ids must be unique`, dup.Error())
	require.NoError(t, f.Add(4, line("c")))
	assert.ErrorIs(t, f.Add(5, line("d")), batchapi.ErrFileFull)
	n, size := f.Len()
	assert.Equal(t, 3, n)
	assert.Equal(t, int64(len(`{"requests":[]}`)+3*len(line("a"))), size, "the request body's size: the lines, a comma between each, the object around")
	f.Reset()
	require.NoError(t, f.Add(5, line("a")), "a new file has ids of its own")

	bytesLimit := int64(len(`{"requests":[]}`) + 2*len(line("a")))
	f, err = batchapi.NewFile(anthropicAPI, batchapi.Limits{Bytes: bytesLimit})
	require.NoError(t, err)
	require.NoError(t, f.Add(1, line("a")))
	require.NoError(t, f.Add(2, line("a")), "ids are not kept when they cannot repeat")
	assert.ErrorIs(t, f.Add(3, line("c")), batchapi.ErrFileFull)
	assert.EqualError(t, f.Add(4, []byte(strings.Repeat("x", int(bytesLimit)))),
		fmt.Sprintf("the request is %d bytes; one anthropic-batch file holds at most %d", bytesLimit, bytesLimit))

	_, err = batchapi.NewFile(openAIAPI, batchapi.Limits{Requests: 50_001})
	assert.EqualError(t, err, "openai-batch: a file holds 1 to 50000 requests and 1 to 200000000 bytes")
	assert.Equal(t, batchapi.Limits{Requests: 50_000, Bytes: 200_000_000}, must(batchapi.NewFile(openAIAPI, batchapi.Limits{})).Limits())
	assert.Equal(t, batchapi.Limits{Requests: 100_000, Bytes: 256_000_000}, must(batchapi.NewFile(anthropicAPI, batchapi.Limits{})).Limits())
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
