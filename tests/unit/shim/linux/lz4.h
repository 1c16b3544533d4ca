/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's LZ4 interface, declared only: the unit tests build without
 * CONFIG_LZ4_COMPRESS, as a kernel that lacks it (compress=lz4 then fails
 * the load).
 */
#ifndef _UNIT_LINUX_LZ4_H
#define _UNIT_LINUX_LZ4_H

#define LZ4_MEM_COMPRESS	16384

int LZ4_compress_default(const char *source, char *dest, int inputSize,
			 int maxOutputSize, void *wrkmem);
int LZ4_decompress_safe(const char *source, char *dest, int compressedSize,
			int maxDecompressedSize);

#endif
