package batchapi_test

import (
	"errors"
	"fmt"

	"github.com/rolemark/rolemark/batch/batchapi"
)

// A File of two requests at most: the third line starts the next file,
// and a custom_id seen before in the same file is refused.
func ExampleFile() {
	api, _ := batchapi.ByName("anthropic-batch")
	f, err := batchapi.NewFile(api, batchapi.Limits{Requests: 2}, batchapi.UniqueIDs())
	if err != nil {
		panic(err)
	}
	files := 1
	for row, id := range []string{"a", "a", "b", "c"} {
		line := []byte(`{"custom_id":"` + id + `","params":{}}` + "\n")
		err := f.Add(row+1, line)
		if errors.Is(err, batchapi.ErrFileFull) {
			files++
			f.Reset()
			err = f.Add(row+1, line)
		}
		fmt.Printf("row %d in file %d: %v\n", row+1, files, err)
	}
	// Output:
	// row 1 in file 1: <nil>
	// row 2 in file 1: custom_id "a" is row 1's too; a batch's custom_ids must be unique
	// row 3 in file 1: <nil>
	// row 4 in file 2: <nil>
}
