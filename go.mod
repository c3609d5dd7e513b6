module github.com/rolemark/rolemark

go 1.23.0
