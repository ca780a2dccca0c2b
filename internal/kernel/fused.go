package kernel

// FusedGroup is how many blocks the fused kernels of CTR, CBC decryption
// and XTS (Cipher.CTRGroups, CBCDecryptGroups, XTSGroups) take at a time:
// they take the whole groups of a run, and the caller the rest.
const FusedGroup = 64
