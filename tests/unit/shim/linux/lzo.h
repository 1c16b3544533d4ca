/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's LZO interface (include/linux/lzo.h) over a stand-in codec
 * (shim.c): a run-length code, not LZO, with the same contract as far as
 * its callers can tell: the compressors write at most
 * lzo1x_worst_compress() bytes, LZO-RLE's output differs from LZO's (a
 * marker byte), and lzo1x_decompress_safe() decodes either and rejects,
 * without writing past *out_len, any input that does not decode whole.
 * The unit tests test what stores the bytes; the VM scenarios run the
 * kernel's own LZO.
 */
#ifndef _UNIT_LINUX_LZO_H
#define _UNIT_LINUX_LZO_H

#include <linux/types.h>

#define LZO1X_1_MEM_COMPRESS	(8192 * sizeof(unsigned short))
#define LZO1X_MEM_COMPRESS	LZO1X_1_MEM_COMPRESS
#define lzo1x_worst_compress(x) ((x) + ((x) / 16) + 64 + 3 + 2)

int lzo1x_1_compress(const unsigned char *src, size_t src_len,
		     unsigned char *dst, size_t *dst_len, void *wrkmem);
int lzorle1x_1_compress(const unsigned char *src, size_t src_len,
			unsigned char *dst, size_t *dst_len, void *wrkmem);
int lzo1x_decompress_safe(const unsigned char *src, size_t src_len,
			  unsigned char *dst, size_t *dst_len);

#define LZO_E_OK			0
#define LZO_E_ERROR			(-1)
#define LZO_E_INPUT_OVERRUN		(-4)
#define LZO_E_OUTPUT_OVERRUN		(-5)

#endif
