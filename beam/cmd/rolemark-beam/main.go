// Command rolemark-beam renders a prompt template over every row of JSON
// Lines files on an Apache Beam runner, writing one output line per row (as
// rolemark batch does) and one line per failed row.
//
//	go run ./cmd/rolemark-beam --template prompt.hbs --input 'rows-*.jsonl' \
//	    --output out.jsonl --failures failed.txt --format openai-batch --id_field id
//
// runs on Beam's direct runner, in this process. The same binary runs on a
// real runner with Beam's usual flags; the template is read here and
// travels inside the pipeline, the rows and outputs must be where the
// workers can reach them:
//
//	# Google Cloud Dataflow
//	go run ./cmd/rolemark-beam --runner dataflow --project P --region europe-west1 \
//	    --staging_location gs://B/staging --template prompt.hbs \
//	    --input 'gs://B/rows-*.jsonl' --output gs://B/out.jsonl --failures gs://B/failed.txt
//
//	# Apache Flink or Spark, through their Beam job server (portable runner)
//	docker run --net=host apache/beam_flink1.19_job_server:latest   # or apache/beam_spark3_job_server
//	go run ./cmd/rolemark-beam --runner universal --endpoint localhost:8099 \
//	    --environment_type LOOPBACK --template prompt.hbs --input ... --output ...
//
//	# Prism, Beam's portable local runner
//	go run ./cmd/rolemark-beam --runner prism --template prompt.hbs --input ... --output ...
//
// Beam's textio writes each output as one file (its Write groups the lines
// on one worker); for very large outputs, write shards with your own sink.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"path/filepath"

	abeam "github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/rolemark/rolemark/beam"
)

func main() {
	template := flag.String("template", "", "the prompt template file (read here, sent with the pipeline)")
	input := flag.String("input", "", "rows: JSON Lines files (a glob; gs:// paths on Dataflow)")
	output := flag.String("output", "", "the output lines' file")
	failures := flag.String("failures", "", "the failed rows' file (default: OUTPUT.failures)")
	var cfg beam.Config
	flag.StringVar(&cfg.Engine, "engine", "", "engine (default: by the template's extension)")
	flag.StringVar(&cfg.Format, "format", "openai", "output: openai, openai-batch, anthropic-batch, sft or a chat format")
	flag.StringVar(&cfg.ChatFormat, "chat_format", "", "the chat format of --format sft")
	flag.BoolVar(&cfg.SFTLast, "sft_last", false, "sft: the last assistant message only")
	flag.BoolVar(&cfg.SFTEnd, "sft_end", false, "sft: spans include the end token")
	flag.StringVar(&cfg.Model, "model", "", "model of the batch requests (default: the front matter's)")
	flag.StringVar(&cfg.IDField, "id_field", "", "the row field that identifies a row (needed by the batch outputs)")
	flag.StringVar(&cfg.HistoryField, "history_field", "", "the row field holding prior messages")
	flag.Parse()
	abeam.Init()
	if *template == "" || *input == "" || *output == "" {
		log.Fatal("rolemark-beam needs --template, --input and --output")
	}
	if *failures == "" {
		*failures = *output + ".failures"
	}
	src, err := os.ReadFile(*template)
	if err != nil {
		log.Fatal(err)
	}
	cfg.Name, cfg.Source = filepath.Base(*template), string(src)

	p, s := abeam.NewPipelineWithRoot()
	lines, failed, err := beam.Render(s, cfg, textio.Read(s, *input))
	if err != nil {
		log.Fatal(err)
	}
	textio.Write(s, *output, lines)
	textio.Write(s, *failures, failed)
	if err := beamx.Run(context.Background(), p); err != nil {
		log.Fatal(err)
	}
}
