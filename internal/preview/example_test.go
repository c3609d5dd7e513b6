package preview_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/internal/preview"
	"github.com/rolemark/rolemark/jinja"
)

func Example() {
	set := engine.NewSet(handlebars.New(), jinja.New(), gotmpl.New())
	srv, err := preview.New("../../testdata/promptdir", set, preview.LocalOnly())
	if err != nil {
		fmt.Println(err)
		return
	}
	// http.ListenAndServe("127.0.0.1:7878", srv) serves it; here one request.
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1:7878/t/ops/ping.tmpl?go=1&vars=%7B%22host%22%3A%22db1%22%7D", nil))
	for _, line := range strings.Split(rec.Body.String(), "\n") {
		if strings.HasPrefix(line, `<div class="text">`) {
			fmt.Println(line)
		}
	}
	// Output:
	// <div class="text">Is db1 up?</div>
}
