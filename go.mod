module github.com/twofish-go/twofish

go 1.24.0

require golang.org/x/crypto v0.45.0 // indirect
