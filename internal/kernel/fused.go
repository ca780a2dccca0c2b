package kernel

// FusedGroup is how many blocks the fused kernels of CTR and CBC
// decryption (Cipher.CTRGroups, Cipher.CBCDecryptGroups) take at a time:
// they take the whole groups of a run, and the caller the rest.
const FusedGroup = 64
