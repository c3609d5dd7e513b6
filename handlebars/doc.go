// Package handlebars is rolemark's Handlebars engine, an adapter for
// github.com/aymerick/raymond.
package handlebars
