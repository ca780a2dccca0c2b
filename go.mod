module github.com/twofish-go/twofish

go 1.24.0

require (
	github.com/klauspost/cpuid/v2 v2.4.2
	golang.org/x/crypto v0.45.0
	golang.org/x/term v0.37.0
)

require golang.org/x/sys v0.41.0
