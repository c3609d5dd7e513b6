module github.com/rolemark/rolemark/connect/langchaingo

go 1.26.0

require (
	github.com/rolemark/rolemark v0.0.0
	github.com/stretchr/testify v1.12.1
)

require go.yaml.in/yaml/v3 v3.0.6 // indirect

require (
	github.com/dlclark/regexp2 v1.10.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/pkoukk/tiktoken-go v0.1.6 // indirect
	github.com/tmc/langchaingo v0.1.14
)

replace github.com/rolemark/rolemark => ../..
