package tokens

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// benchText is the corpus's valid strings shorter than 400 bytes, one a
// line: prose in many scripts, code, emoji, whitespace and special tokens,
// without the long one-character runs whose cost grows with their square.
func benchText(b *testing.B) string {
	rows := readJSONLines[corpusRow](b, "testdata/corpus.jsonl.gz")
	var sb strings.Builder
	for _, r := range rows {
		if r.Text != nil && len(*r.Text) < 400 {
			sb.WriteString(*r.Text)
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// reference holds what node printed for one encoding.
var reference sync.Map // encoding -> [3]float64{tokens, ns per encode, CPU ns per encode}

// BenchmarkEncode encodes benchText with each tokenizer and, for OpenAI's
// encodings, times tiktoken's WASM build on the same text in the same run
// (testdata/ref/make.mjs bench, one thread). Run it on one core:
//
//	go test ./tokens -run '^$' -bench Encode -cpu 1
//
// tokens/s is the figure to compare; the reference's sub-benchmark reports
// its own ns/op.
func BenchmarkEncode(b *testing.B) {
	text := benchText(b)
	for _, name := range append(Encodings(), hfModels...) {
		b.Run(name, func(b *testing.B) {
			tk := tokenizer(b, name)
			encode := tk.EncodeOrdinary // as tiktoken's encode_ordinary
			if !strings.HasSuffix(name, "_base") {
				encode = tk.Encode // as tokenizers' encode
			}
			n := len(encode(text))
			b.SetBytes(int64(len(text)))
			cpu0 := cpuTime(b)
			for b.Loop() {
				encode(text)
			}
			cpu := cpuTime(b) - cpu0
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
			b.ReportMetric(float64(n)*float64(b.N)/cpu, "tokens/cpu-s")
		})
		ref := "tiktoken-wasm"
		if !strings.HasSuffix(name, "_base") {
			ref = "hf-tokenizers-js"
		}
		b.Run(name+"/"+ref, func(b *testing.B) {
			res := nodeBench(b, text, name)
			b.ReportMetric(res[1], "ns/op")
			b.ReportMetric(res[0]*1e9/res[1], "tokens/s")
			b.ReportMetric(res[0]*1e9/res[2], "tokens/cpu-s")
			b.ReportMetric(float64(len(text))/res[1]*1e9/1e6, "MB/s")
		})
	}
}

// cpuTime returns the CPU seconds this process has used, all threads
// (the garbage collector's too): on a shared machine wall time measures the
// neighbours as well.
func cpuTime(b *testing.B) float64 {
	var ru syscall.Rusage
	require.NoError(b, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func nodeBench(b *testing.B, text, name string) [3]float64 {
	if v, ok := reference.Load(name); ok {
		return v.([3]float64)
	}
	if _, err := exec.LookPath("node"); err != nil {
		b.Skip("no node")
	}
	if _, err := os.Stat("testdata/ref/node_modules"); err != nil {
		b.Skip("no testdata/ref/node_modules: npm ci --ignore-scripts there")
	}
	file := filepath.Join(b.TempDir(), "bench.txt")
	require.NoError(b, os.WriteFile(file, []byte(text), 0o644))
	out, err := exec.Command("node", "testdata/ref/make.mjs", "bench", file, name, "3").CombinedOutput()
	require.NoError(b, err, "%s", out)
	f := strings.Fields(string(out))
	require.Len(b, f, 8, "%s", out)
	var res [3]float64
	for i, k := range []int{1, 5, 7} {
		res[i], err = strconv.ParseFloat(f[k], 64)
		require.NoError(b, err, "%s", out)
	}
	reference.Store(name, res)
	return res
}
