package chattemplate

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOwnTextMerge sets each field of ownText alone and checks that merge
// carries it both ways; a field added to ownText without a case here
// fails, so one forgotten in merge cannot silently weaken the guard of a
// template with several variants.
func TestOwnTextMerge(t *testing.T) {
	tests := map[string]ownText{
		"cuts":    {cuts: true},
		"loose":   {loose: true},
		"decodes": {decodes: true},
		"trims":   {trims: true},
		"cutLits": {cutLits: []string{"<|"}},
		"chars":   {chars: []string{"x"}},
	}
	typ := reflect.TypeOf(ownText{})
	require.Len(t, tests, typ.NumField(), "a case for each field of ownText")
	for i := 0; i < typ.NumField(); i++ {
		name := typ.Field(i).Name
		o, ok := tests[name]
		require.True(t, ok, "no case for field %s", name)
		t.Run(name, func(t *testing.T) {
			var into ownText
			into.merge(o)
			assert.Equal(t, o, into, "merge into an empty ownText")

			from := o
			from.merge(ownText{})
			assert.Equal(t, o, from, "merge of an empty ownText")
		})
	}

	a := ownText{chars: []string{"a"}}
	a.merge(ownText{chars: []string{"b", "c"}})
	assert.Equal(t, []string{"a", "b", "c"}, a.chars, "the characters of both, in order")
}
