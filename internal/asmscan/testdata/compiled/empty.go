package compiled

// Width is a constant: no machine code.
const Width = 64
