// Package beam renders a rolemark prompt template over every row of a
// dataset as an Apache Beam transform, so that a dataset too large for one
// machine renders on any Beam runner (Dataflow, Flink, Spark, or Prism on
// one machine).
//
//	rows := textio.Read(s, "gs://bucket/rows-*.jsonl")
//	lines, failures, err := beam.Render(s, beam.Config{Name: "ask.hbs", Source: src, Format: "openai-batch", IDField: "id"}, rows)
//	textio.Write(s, "gs://bucket/requests.jsonl", lines)
//	textio.Write(s, "gs://bucket/failures.txt", failures)
//
// Each element of rows is one JSON object (a line of a JSON Lines file).
// Each row becomes one output line, as `rolemark batch` writes it (package
// batch does the work), and each failing row one line "ID: message" in
// failures, ID being the value of Config.IDField or else the row's first 60
// characters. A runner gives no order: the output lines are in no
// particular order, and the batch request outputs (openai-batch,
// anthropic-batch) need an IDField to tie each result back to its row.
//
// The template travels inside the transform (Config.Source), so workers need
// no access to the template file. Beam's Go SDK needs its DoFns registered
// when the program starts, on the workers too; this package's init does
// that, the one init of rolemark's modules.
//
// cmd/rolemark-beam is a ready-made pipeline: read JSON Lines, render,
// write the lines and the failures. Its package documentation shows how to
// launch it on a real runner.
package beam
