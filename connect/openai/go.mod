module github.com/rolemark/rolemark/connect/openai

go 1.26.0

require (
	github.com/openai/openai-go/v3 v3.96.0
	github.com/rolemark/rolemark v0.0.0
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/aymerick/raymond v2.0.2+incompatible // indirect
	github.com/coder/websocket v1.8.15 // indirect
	github.com/tidwall/gjson v1.20.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/sjson v1.2.5 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/text v0.42.0 // indirect
)

replace github.com/rolemark/rolemark => ../..
