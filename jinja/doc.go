// Package jinja is rolemark's engine for Jinja-style templates, built on
// github.com/flosch/pongo2/v6.
package jinja
