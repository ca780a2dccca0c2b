package twofish_test

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/twofish-go/twofish"
)

func ExampleNewCipher() {
	// The first known-answer vector of the Twofish submission: the
	// all-zero 128-bit key and block.
	key := make([]byte, 16)
	c, err := twofish.NewCipher(key)
	if err != nil {
		panic(err)
	}
	block := make([]byte, twofish.BlockSize)
	c.Encrypt(block, block)
	fmt.Println(hex.EncodeToString(block))
	// Output: 9f589f5cf6122c32b6bfec2f2ae8c35a
}

func ExampleNewCipher_badKey() {
	_, err := twofish.NewCipher([]byte("too short"))
	fmt.Println(err)
	// Output: crypto/twofish: invalid key size 9
}

func ExampleNewECBEncrypter() {
	c, _ := twofish.NewCipher(make([]byte, 32))
	// ECB shows equal plaintext blocks as equal ciphertext blocks; use it
	// only where a format requires it.
	buf := make([]byte, 2*twofish.BlockSize)
	twofish.NewECBEncrypter(c).CryptBlocks(buf, buf)
	fmt.Println(hex.EncodeToString(buf[:16]) == hex.EncodeToString(buf[16:]))
	twofish.NewECBDecrypter(c).CryptBlocks(buf, buf)
	fmt.Println(hex.EncodeToString(buf))
	// Output:
	// true
	// 0000000000000000000000000000000000000000000000000000000000000000
}

func ExampleNewCBCEncrypter() {
	key, _ := hex.DecodeString("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
	c, _ := twofish.NewCipher(key)

	// CBC needs whole blocks: pad the message first (PKCS #7 here).
	plaintext := []byte("exactly 32 bytes of plaintext!!!\x10\x10\x10\x10\x10\x10\x10\x10\x10\x10\x10\x10\x10\x10\x10\x10")
	iv := make([]byte, twofish.BlockSize)
	if _, err := rand.Read(iv); err != nil {
		panic(err)
	}
	ciphertext := make([]byte, len(plaintext))
	twofish.NewCBCEncrypter(c, iv).CryptBlocks(ciphertext, plaintext)

	decrypted := make([]byte, len(ciphertext))
	twofish.NewCBCDecrypter(c, iv).CryptBlocks(decrypted, ciphertext)
	fmt.Printf("%s\n", decrypted[:32])
	// Output: exactly 32 bytes of plaintext!!!
}

func ExampleNewCTR() {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		panic(err)
	}
	c, _ := twofish.NewCipher(key)

	// Never use the same key and IV twice: the whole 16-byte IV is the
	// counter, so messages under one key need counter ranges that do not
	// overlap. CTR alone does not authenticate.
	iv := make([]byte, twofish.BlockSize)
	if _, err := rand.Read(iv); err != nil {
		panic(err)
	}
	msg := []byte("any length works in counter mode")
	ciphertext := make([]byte, len(msg))
	twofish.NewCTR(c, iv).XORKeyStream(ciphertext, msg)

	plaintext := make([]byte, len(ciphertext))
	twofish.NewCTR(c, iv).XORKeyStream(plaintext, ciphertext)
	fmt.Printf("%s\n", plaintext)
	// Output: any length works in counter mode
}

func ExampleImplementations() {
	for _, impl := range twofish.Implementations() {
		if impl.Name == "generic" {
			fmt.Println(impl.Name, impl.Blocks, impl.Supported)
		}
	}
	// Output: generic 1 true
}
