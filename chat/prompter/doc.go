// Package prompter reproduces LazyLLM's AlpacaPrompter and ChatPrompter.
package prompter
