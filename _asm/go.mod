module github.com/twofish-go/twofish/_asm

go 1.24.0

replace github.com/twofish-go/twofish => ../

require github.com/mmcloughlin/avo v0.6.0

require (
	github.com/klauspost/cpuid/v2 v2.4.2 // indirect
	golang.org/x/sys v0.41.0 // indirect
)

require (
	// scalar's avo Package() loads the parent by path (through the replace
	// above); nothing imports it, so go mod tidy would drop this line.
	github.com/twofish-go/twofish v0.0.0
	golang.org/x/mod v0.27.0 // indirect
	golang.org/x/sync v0.16.0 // indirect
	// avo v0.6.0 asks for x/tools v0.16.1, which no longer compiles with
	// current Go releases (internal/tokeninternal); v0.36.0 builds with them.
	golang.org/x/tools v0.36.0 // indirect
)
