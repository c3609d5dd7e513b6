// Package tokens counts tokens exactly as models read them: OpenAI's
// encodings (o200k_base, cl100k_base, with the vocabularies embedded) and
// HuggingFace tokenizer.json files (byte-level BPE as Llama 3, Qwen 3,
// DeepSeek V3 and gpt-oss use, SentencePiece-style BPE with byte fallback as
// Gemma 3 uses), with their added and special tokens.
//
// The split patterns these tokenizers use need look-ahead, which Go's regexp
// lacks; each is written here by hand as a scanner with the pattern's
// semantics, Unicode categories included. The ids are checked against
// tiktoken's WASM build and the JavaScript port of HuggingFace tokenizers on
// a corpus of over 2,000 strings (testdata/ref/make.mjs makes it).
package tokens
