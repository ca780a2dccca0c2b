package kernel

// A Cipher is an expanded key with the ladder of kernels that read it. Its
// zero value has no ladder: Keyed reports false, and EncryptBlocks and
// DecryptBlocks panic rather than pass data through unencrypted.
type Cipher struct {
	ks     Schedule
	ladder []*Kernel // widest first; the last one takes any number of blocks
	narrow *Kernel   // the last of the ladder, for single blocks
}

// ErrNoKey is the panic of every operation on a Cipher that was never
// given a key.
const ErrNoKey = "twofish: use of a Cipher without a key (make one with NewCipher)"

// Init expands key (16, 24 or 32 bytes) for k's ladder.
func (c *Cipher) Init(k *Kernel, key []byte) {
	c.ladder, c.narrow = k.ladder, k.Narrowest()
	k.expandKey(&c.ks, key)
}

// Keyed reports whether c was given a key.
func (c *Cipher) Keyed() bool { return c.ladder != nil }

// Head returns the widest kernel of c's ladder, nil if c has no key.
func (c *Cipher) Head() *Kernel {
	if c.ladder == nil {
		return nil
	}
	return c.ladder[0]
}

// ConstantTime reports whether every kernel of c's ladder is constant-time,
// so that no block of c meets a table look-up; false if c has no key.
func (c *Cipher) ConstantTime() bool {
	for _, k := range c.ladder {
		if !k.ConstantTime {
			return false
		}
	}
	return c.ladder != nil
}

// Narrow returns the kernel of single blocks, nil if c has no key.
func (c *Cipher) Narrow() *Kernel { return c.narrow }

// Schedule returns c's expanded key.
func (c *Cipher) Schedule() *Schedule { return &c.ks }

// EncryptBlocks encrypts the whole blocks of src into dst, which must be at
// least as long. Callers check lengths and overlap; in place is allowed.
// Each kernel of the ladder takes as many blocks as fit its width, and the
// last one takes the rest.
func (c *Cipher) EncryptBlocks(dst, src []byte) {
	if c.ladder == nil {
		panic(ErrNoKey)
	}
	for i, k := range c.ladder {
		n := len(src)
		if i < len(c.ladder)-1 {
			n -= n % (k.Blocks * BlockSize)
		}
		if n > 0 {
			k.encrypt(&c.ks, dst[:n], src[:n])
			dst, src = dst[n:], src[n:]
		}
	}
}

// DecryptBlocks is the inverse of EncryptBlocks.
func (c *Cipher) DecryptBlocks(dst, src []byte) {
	if c.ladder == nil {
		panic(ErrNoKey)
	}
	for i, k := range c.ladder {
		n := len(src)
		if i < len(c.ladder)-1 {
			n -= n % (k.Blocks * BlockSize)
		}
		if n > 0 {
			k.decrypt(&c.ks, dst[:n], src[:n])
			dst, src = dst[n:], src[n:]
		}
	}
}
