module github.com/twofish-go/twofish/_asm

go 1.24

replace github.com/twofish-go/twofish => ../

require github.com/mmcloughlin/avo v0.6.0 // indirect
