//go:build cgo && libgcrypt

// Package libgcrypt wraps the system libgcrypt's Twofish (Debian package
// libgcrypt20-dev) for tests and benchmarks: the library whose Twofish
// assembly this project learned from, an independent oracle for every mode
// and the speed to beat. It builds only with the libgcrypt tag, so the
// module itself never needs cgo.
package libgcrypt

/*
#cgo LDFLAGS: -lgcrypt
#include <gcrypt.h>

static int tf_init(void) {
	if (!gcry_check_version(NULL))
		return -1;
	gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	return 0;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"
)

// Mode is a libgcrypt cipher mode.
type Mode int

// The modes this package wraps. CFB is full-block (128-bit) feedback and
// CTR a 128-bit big-endian counter, as in package twofish.
const (
	ECB Mode = C.GCRY_CIPHER_MODE_ECB
	CBC Mode = C.GCRY_CIPHER_MODE_CBC
	CFB Mode = C.GCRY_CIPHER_MODE_CFB
	OFB Mode = C.GCRY_CIPHER_MODE_OFB
	CTR Mode = C.GCRY_CIPHER_MODE_CTR
	XTS Mode = C.GCRY_CIPHER_MODE_XTS
	// The authenticated modes: SetIV takes the nonce, Authenticate the
	// associated data, then one Encrypt or Decrypt (after Final for OCB)
	// and GetTag or CheckTag.
	GCM Mode = C.GCRY_CIPHER_MODE_GCM
	OCB Mode = C.GCRY_CIPHER_MODE_OCB
	EAX Mode = C.GCRY_CIPHER_MODE_EAX
)

var initOnce = sync.OnceValue(func() error {
	if C.tf_init() != 0 {
		return errors.New("libgcrypt: version check failed")
	}
	return nil
})

// Cipher is one libgcrypt Twofish handle. Close it when done.
type Cipher struct {
	h    C.gcry_cipher_hd_t
	mode Mode
}

// New opens Twofish in mode with key: 16 or 32 bytes (libgcrypt has no
// 192-bit Twofish), or for XTS twice that, data key then tweak key.
func New(mode Mode, key []byte) (*Cipher, error) {
	if err := initOnce(); err != nil {
		return nil, err
	}
	keyLen := len(key)
	if mode == XTS {
		keyLen /= 2
	}
	var algo C.int
	switch keyLen {
	case 16:
		algo = C.GCRY_CIPHER_TWOFISH128
	case 32:
		algo = C.GCRY_CIPHER_TWOFISH
	default:
		return nil, fmt.Errorf("libgcrypt: no Twofish for a %d-byte key in mode %d", len(key), mode)
	}
	c := &Cipher{mode: mode}
	if err := check(C.gcry_cipher_open(&c.h, algo, C.int(mode), 0)); err != nil {
		return nil, err
	}
	if err := check(C.gcry_cipher_setkey(c.h, unsafe.Pointer(&key[0]), C.size_t(len(key)))); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// SetIV sets the IV (CBC, CFB, OFB), the counter (CTR) or the tweak (XTS).
func (c *Cipher) SetIV(iv []byte) error {
	if c.mode == CTR {
		return check(C.gcry_cipher_setctr(c.h, unsafe.Pointer(&iv[0]), C.size_t(len(iv))))
	}
	return check(C.gcry_cipher_setiv(c.h, unsafe.Pointer(&iv[0]), C.size_t(len(iv))))
}

// Encrypt encrypts src into dst, which must be as long; in place is fine.
func (c *Cipher) Encrypt(dst, src []byte) error {
	if len(src) == 0 {
		return c.empty(true)
	}
	return check(C.gcry_cipher_encrypt(c.h, unsafe.Pointer(&dst[0]), C.size_t(len(dst)), unsafe.Pointer(&src[0]), C.size_t(len(src))))
}

// Decrypt decrypts src into dst, which must be as long; in place is fine.
func (c *Cipher) Decrypt(dst, src []byte) error {
	if len(src) == 0 {
		return c.empty(false)
	}
	return check(C.gcry_cipher_decrypt(c.h, unsafe.Pointer(&dst[0]), C.size_t(len(dst)), unsafe.Pointer(&src[0]), C.size_t(len(src))))
}

// empty is an Encrypt or Decrypt of nothing: OCB needs the call after
// Final even then, to finish the message; other modes need no call.
func (c *Cipher) empty(encrypt bool) error {
	if c.mode != OCB {
		return nil
	}
	var b [1]byte
	p := unsafe.Pointer(&b[0])
	if encrypt {
		return check(C.gcry_cipher_encrypt(c.h, p, 0, p, 0))
	}
	return check(C.gcry_cipher_decrypt(c.h, p, 0, p, 0))
}

// SetTagLen sets the tag length of OCB (8, 12 or 16 bytes), before SetIV.
func (c *Cipher) SetTagLen(n int) error {
	v := C.int(n)
	return check(C.gcry_cipher_ctl(c.h, C.GCRYCTL_SET_TAGLEN, unsafe.Pointer(&v), C.size_t(unsafe.Sizeof(v))))
}

// Authenticate adds associated data (GCM, OCB, EAX).
func (c *Cipher) Authenticate(ad []byte) error {
	if len(ad) == 0 {
		return nil
	}
	return check(C.gcry_cipher_authenticate(c.h, unsafe.Pointer(&ad[0]), C.size_t(len(ad))))
}

// Final says that the next Encrypt or Decrypt is the last (OCB needs it).
func (c *Cipher) Final() error {
	return check(C.gcry_cipher_ctl(c.h, C.GCRYCTL_FINALIZE, nil, 0))
}

// GetTag writes the first len(tag) bytes of the tag to tag, which the
// caller provides so that a benchmark's libgcrypt side makes no allocation
// that this package's side does not.
func (c *Cipher) GetTag(tag []byte) error {
	return check(C.gcry_cipher_gettag(c.h, unsafe.Pointer(&tag[0]), C.size_t(len(tag))))
}

// CheckTag returns an error unless tag is the right tag.
func (c *Cipher) CheckTag(tag []byte) error {
	return check(C.gcry_cipher_checktag(c.h, unsafe.Pointer(&tag[0]), C.size_t(len(tag))))
}

// Close releases the handle.
func (c *Cipher) Close() { C.gcry_cipher_close(c.h) }

// Version returns the version of the libgcrypt in use.
func Version() string {
	initOnce()
	return C.GoString(C.gcry_check_version(nil))
}

func check(err C.gcry_error_t) error {
	if err == 0 {
		return nil
	}
	return fmt.Errorf("libgcrypt: %s", C.GoString(C.gcry_strerror(err)))
}
