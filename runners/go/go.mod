module toolnexus-conformance/runners/go

go 1.23.0

require (
	github.com/evanphx/json-patch/v5 v5.9.11
	github.com/muthuishere/toolnexus/golang v0.16.0
)
