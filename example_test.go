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
	// Output: generic 3 true
}

func ExampleNewGCM() {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		panic(err)
	}
	c, _ := twofish.NewCipher(key)
	aead, err := twofish.NewGCM(c)
	if err != nil {
		panic(err)
	}

	// A 12-byte nonce must never repeat under one key: random nonces are
	// safe for up to 2^32 messages per key. Send it with the ciphertext.
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		panic(err)
	}
	header := []byte("authenticated, not encrypted")
	sealed := aead.Seal(nonce, nonce, []byte("the message"), header)

	// The receiver splits the nonce off and opens the rest.
	nonce, ciphertext := sealed[:aead.NonceSize()], sealed[aead.NonceSize():]
	plaintext, err := aead.Open(nil, nonce, ciphertext, header)
	fmt.Printf("%s %v\n", plaintext, err)

	// Any change to the ciphertext, the tag or the header is detected.
	ciphertext[0] ^= 1
	_, err = aead.Open(nil, nonce, ciphertext, header)
	fmt.Println(err)
	// Output:
	// the message <nil>
	// cipher: message authentication failed
}

func ExampleNewOCB() {
	key := make([]byte, 16)
	if _, err := rand.Read(key); err != nil {
		panic(err)
	}
	c, _ := twofish.NewCipher(key)
	// RFC 7253 OCB with its recommended 12-byte nonce and a 16-byte tag
	// (OpenPGP, RFC 9580, uses 15-byte nonces). A counter makes a good
	// nonce: it must never repeat under one key.
	aead, err := twofish.NewOCB(c, 12, 16)
	if err != nil {
		panic(err)
	}
	nonce := make([]byte, 12)
	for i := range 3 {
		nonce[11] = byte(i) // message number i
		ct := aead.Seal(nil, nonce, []byte("chunk"), nil)
		pt, err := aead.Open(nil, nonce, ct, nil)
		fmt.Println(len(ct), string(pt), err)
	}
	// Output:
	// 21 chunk <nil>
	// 21 chunk <nil>
	// 21 chunk <nil>
}

func ExampleNewEAX() {
	c, _ := twofish.NewCipher(make([]byte, 32))
	// EAX (OpenPGP's AEAD mode 1) takes a nonce of any length; OpenPGP uses
	// 16 bytes. Its MAC is serial: prefer GCM or OCB for bulk data.
	aead, err := twofish.NewEAX(c, 16, 16)
	if err != nil {
		panic(err)
	}
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		panic(err)
	}
	ct := aead.Seal(nil, nonce, []byte("openpgp packet"), []byte("packet header"))
	pt, err := aead.Open(nil, nonce, ct, []byte("packet header"))
	fmt.Printf("%d bytes sealed; %s %v\n", len(ct), pt, err)
	// Output: 30 bytes sealed; openpgp packet <nil>
}

func ExampleNewXTS() {
	// XTS takes two keys of equal length in one: the data key, then the
	// tweak key (64 bytes here for Twofish-256, as dm-crypt's
	// twofish-xts-plain64 with a 512-bit key).
	key := make([]byte, 64)
	if _, err := rand.Read(key); err != nil {
		panic(err)
	}
	x, err := twofish.NewXTS(key)
	if err != nil {
		panic(err)
	}
	// Each sector is encrypted on its own, with its number as the tweak.
	sector := make([]byte, 4096)
	copy(sector, "file system block")
	x.Encrypt(sector, sector, 2048)
	x.Decrypt(sector, sector, 2048)
	fmt.Printf("%s\n", sector[:17])
	// Output: file system block
}

func ExampleNewCipherConstantTime() {
	// The default cipher uses table kernels where they are faster, as
	// every widely used Twofish does; their timing can leak key bits
	// through the cache to code on the same machine. A Cipher from
	// NewCipherConstantTime, and every mode built on it, runs only kernels
	// with no secret-dependent memory access or branch.
	c, err := twofish.NewCipherConstantTime(make([]byte, 16))
	if err != nil {
		panic(err)
	}
	block := make([]byte, twofish.BlockSize)
	c.Encrypt(block, block)
	fmt.Println(hex.EncodeToString(block), c.ConstantTime())
	// Output: 9f589f5cf6122c32b6bfec2f2ae8c35a true
}
