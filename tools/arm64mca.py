#!/usr/bin/env python3
"""arm64mca.py [llvm-mca CPUs...]: pipeline-model estimates of the arm64 kernels, for machines
this project cannot measure on. It builds the arm64 test binaries of internal/kernel and
internal/ghash, disassembles the hot code with llvm-objdump, and runs llvm-mca on it for each CPU
model (default: neoverse-n1 cortex-a76 apple-m1 neoverse-v1 exynos-m5 cortex-a55). LLVM 19 has
Neoverse N1, N2 and V1 models of their own; LLVM 14, and LLVM 19 for Cortex-A76, use the Cortex-A57
tables; Apple M1 is LLVM's Cyclone model, and cortex-a55 is in-order. These are estimates, not
measurements: llvm-mca
models the core's pipelines from LLVM's scheduling tables, with every load an L1 hit, branches
free and calls left out.

What is modelled, per 16-byte block:
  - generic (block_generic.go, compiled by gc): encrypt3Generic, three blocks interleaved, which
    takes its runs, and EncryptBlockGeneric, which takes its single blocks ("generic single"):
    each function's code before and after its round loop plus eight copies of the loop body (two
    rounds each), branches left out;
  - arm64-1way, arm64-2way and arm64-neon: the loop of encryptBlocks1x, encryptBlocks2x and
    encryptBlocks16NEON (one, two and 16 blocks an iteration);
  - arm64-neon single: encryptBlock1NEON, the constant-time single block, whose "alone" is what
    a single block costs (the 16-block kernel's is a sixteenth of the call a padded block paid);
  - GHASH generic: ghashBlocksGeneric's loop, (*mulKey).mul and three clmul64 bodies;
  - GHASH pmull: the loop of ghashBlocksPMULL (eight blocks an iteration).
"throughput" is cycles per iteration over 200 iterations, where independent blocks overlap (ECB,
CTR); "alone" is the cycles of one iteration from an empty pipeline, near its latency (one block
of CBC encryption, or a single block).

Run from the module root: python3 tools/arm64mca.py; LLVM_MCA and LLVM_OBJDUMP name the tools
(default: the newest of LLVM 19 and 14 installed).
"""
import os, re, shutil, subprocess, sys, tempfile

LLVM = next((v for v in ('19', '14') if shutil.which('llvm-mca-' + v)), '14')
MCA = os.environ.get('LLVM_MCA', 'llvm-mca-' + LLVM)
OBJDUMP = os.environ.get('LLVM_OBJDUMP', 'llvm-objdump-' + LLVM)
CPUS = sys.argv[1:] or ['neoverse-n1', 'cortex-a76', 'apple-m1', 'neoverse-v1', 'exynos-m5', 'cortex-a55']
MOD = 'github.com/twofish-go/twofish/internal/'


def build(pkg, out):
    env = dict(os.environ, GOARCH='arm64', CGO_ENABLED='0')
    subprocess.run(['go', 'test', '-c', '-o', out, './internal/' + pkg], env=env, check=True)


def disasm(binary, sym):
    """The instructions of sym, as (address, text) pairs."""
    out = subprocess.run([OBJDUMP, '-d', '--no-show-raw-insn', '--disassemble-symbols=' + MOD + sym, binary],
                         capture_output=True, text=True, check=True).stdout
    insns = []
    for line in out.splitlines():
        m = re.match(r'\s+([0-9a-f]+):\s+(.*)$', line)
        if m:
            text = re.sub(r'\s*(//.*|<[^>]*>)$', '', m.group(2)).strip()
            insns.append((int(m.group(1), 16), text))
    if not insns:
        sys.exit('no code for ' + sym)
    return insns


def is_branch(text):
    op = text.split()[0]
    return op in ('b', 'bl', 'br', 'blr', 'ret', 'cbz', 'cbnz', 'tbz', 'tbnz') or op.startswith('b.')


def loop(insns):
    """The body of the function's longest loop (a backward conditional branch), branches left
    out, and the code before and after it up to the first ret, without gc's stack-check
    prologue."""
    loops = []
    for i, (addr, text) in enumerate(insns):
        m = re.match(r'(b\.\w+|cbn?z|tbn?z)\s.*?0x([0-9a-f]+)', text)
        if m and int(m.group(2), 16) < addr:
            loops.append((addr - int(m.group(2), 16), i, int(m.group(2), 16)))
    if not loops:
        sys.exit('no loop')
    _, i, start = max(loops)
    addr = insns[i][0]
    body = [t for a, t in insns if start <= a <= addr and not is_branch(t)]
    pre = [t for a, t in insns[3:] if a < start and not is_branch(t)]
    end = next(j for j, (a, t) in enumerate(insns) if t == 'ret')
    post = [t for a, t in insns[i + 1:end] if not is_branch(t)]
    return pre, body, post


def straight(insns):
    """The function's instructions up to its first ret, without the stack-check prologue and
    branches."""
    end = next(j for j, (a, t) in enumerate(insns) if t == 'ret')
    return [t for a, t in insns[3:end] if not is_branch(t)]


def mca(code, cpu, iterations):
    with tempfile.NamedTemporaryFile('w', suffix='.s') as f:
        f.write('\n'.join(code) + '\n')
        f.flush()
        # +aes: PMULL's 64-bit form is part of the Crypto Extensions, which
        # some models (Neoverse N2) leave out by default.
        out = subprocess.run([MCA, '-mtriple=aarch64', '-mcpu=' + cpu, '-mattr=+aes', '-iterations=%d' % iterations, f.name],
                             capture_output=True, text=True, check=True).stdout
    cycles = int(re.search(r'Total Cycles:\s+(\d+)', out).group(1))
    return cycles / iterations


def main():
    with tempfile.TemporaryDirectory() as tmp:
        kbin, gbin = os.path.join(tmp, 'kernel.test'), os.path.join(tmp, 'ghash.test')
        build('kernel', kbin)
        build('ghash', gbin)
        kernel, ghash = disasm_cases(kbin, gbin)
    print('| code | model | instructions/block | throughput c/block | c/B | alone c/block | vs generic |')
    print('|---|---|---|---|---|---|---|')
    for group in (kernel, ghash):
        for cpu in CPUS:
            base = None
            for name, code, blocks in group:
                tput = mca(code, cpu, 200) / blocks
                alone = mca(code, cpu, 1) / blocks
                base = base or tput
                print('| %s | %s | %.0f | %.1f | %.2f | %.0f | %.2fx |' % (
                    name, cpu, len(code) / blocks, tput, tput / 16, alone, base / tput))


def disasm_cases(kbin, gbin):
    """The code of each kernel and of each GHASH, with its blocks per copy."""
    kernel = []
    for name, sym, blocks in [('generic', 'encrypt3Generic', 3), ('generic single', 'EncryptBlockGeneric', 1)]:
        pre, body, post = loop(disasm(kbin, 'kernel.' + sym))
        kernel.append((name, pre + body * 8 + post, blocks))
    for name, sym, blocks in [('arm64-1way', 'encryptBlocks1x.abi0', 1), ('arm64-2way', 'encryptBlocks2x.abi0', 2),
                              ('arm64-neon', 'encryptBlocks16NEON.abi0', 16)]:
        _, body, _ = loop(disasm(kbin, 'kernel.' + sym))
        kernel.append((name, body, blocks))
    kernel.append(('arm64-neon single', straight(disasm(kbin, 'kernel.encryptBlock1NEON.abi0')), 1))
    _, gl, _ = loop(disasm(gbin, 'ghash.ghashBlocksGeneric'))
    generic = gl + straight(disasm(gbin, 'ghash.(*mulKey).mul')) + straight(disasm(gbin, 'ghash.clmul64')) * 3
    _, pl, _ = loop(disasm(gbin, 'ghash.ghashBlocksPMULL.abi0'))
    return kernel, [('ghash generic', generic, 1), ('ghash pmull', pl, 8)]

main()
