// Package e2e tests `rolemark serve` in a real browser: headless Chromium
// driven by chromedp. It is a module of its own so that chromedp's tree stays
// out of rolemark's; .ci/run installs Chromium when it is missing and runs it.
//
//	cd e2e && go test ./...
//
// Without a Chromium on the PATH (or in $CHROMIUM) the test skips, unless
// ROLEMARK_BROWSER=required, which .ci/run sets. ROLEMARK_SCREENSHOTS=DIR
// writes the screenshots of the page shown in the README into DIR.
package e2e
