/*
 * bcryptprimitives.c: a stand-in for Windows' bcryptprimitives.dll, which
 * Wine 8 (Debian 12's) lacks and Go 1.22 and later load at start-up for
 * ProcessPrng, their source of random bytes. It fills the buffer from
 * RtlGenRandom (advapi32's SystemFunction036), which Wine has. exec.sh
 * builds it with mingw-w64 into its Wine prefix; it is test
 * infrastructure, never part of the package.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
	while (length > 0) {
		ULONG n = length > 0x10000000 ? 0x10000000 : (ULONG)length;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		length -= n;
	}
	return TRUE;
}
