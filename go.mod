module github.com/rolemark/rolemark

go 1.26.0

require (
	github.com/aymerick/raymond v2.0.2+incompatible
	github.com/beevik/etree v1.8.1
	github.com/flosch/pongo2/v6 v6.0.0
	github.com/parquet-go/parquet-go v0.25.1
	github.com/stretchr/testify v1.12.1
	go.yaml.in/yaml/v3 v3.0.6
)

require (
	github.com/andybalholm/brotli v1.1.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/klauspost/compress v1.17.9 // indirect
	github.com/pierrec/lz4/v4 v4.1.21 // indirect
	golang.org/x/sys v0.43.0 // indirect
	golang.org/x/text v0.42.0 // indirect
	gopkg.in/yaml.v2 v2.4.0 // indirect
)
