package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/rolemark/rolemark/batch"
	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/tokens"
)

// sftTokens is the output of --format sft --sft-tokenizer FILE: each row's
// token ids and assistant mask (batch.TemplateSFTTokens).
func sftTokens(p *promptFormat, o batchOptions, tools []chat.Tool, po *promptOptions) (batch.Append, error) {
	if p.tpl == nil {
		return nil, usageErr("--sft-tokenizer needs --chat-format hf:FILE, a chat template with {%% generation %%} blocks: a preset has none")
	}
	if o.sftLast || o.sftEnd {
		return nil, usageErr("--sft-last and --sft-end do not go with --sft-tokenizer: the template's {%% generation %%} blocks say what the assistant writes")
	}
	if !strings.HasSuffix(o.sftTokenizer, ".json") && !strings.HasSuffix(o.sftTokenizer, ".json.gz") {
		return nil, usageErr("--sft-tokenizer takes a tokenizer.json file, not %q", o.sftTokenizer)
	}
	abs, err := filepath.Abs(o.sftTokenizer)
	if err != nil {
		return nil, err
	}
	tk, err := tokens.LoadHFFile(os.DirFS(filepath.Dir(abs)), filepath.Base(abs))
	if err != nil {
		return nil, err
	}
	so := []batch.OutputOption{batch.Tools(tools), batch.Vars(po.vars)}
	if o.allowSpecial {
		so = append(so, batch.AllowSpecialTokens())
	}
	return batch.TemplateSFTTokens(p.tpl, tk, so...)
}
