module github.com/rolemark/rolemark

go 1.23.0

require (
	github.com/aymerick/raymond v2.0.2+incompatible
	github.com/flosch/pongo2/v6 v6.0.0
	github.com/stretchr/testify v1.12.1
	go.yaml.in/yaml/v3 v3.0.6
)

require gopkg.in/yaml.v2 v2.4.0 // indirect
