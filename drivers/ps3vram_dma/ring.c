// SPDX-License-Identifier: GPL-2.0
/*
 * ps3vram_dma ring: encoding of the RSX command FIFO
 *
 * This is the only code that writes RSX commands.  It is portable C with no
 * hardware access, so the PS3 backend and the software RSX (emu.c) run the
 * very same command stream, and the userspace unit tests decode it too.
 *
 * The FIFO is a ring of 32-bit words at the start of the XDR buffer.  A
 * command is a header word, (count << 18) | (subchannel << 13) | method,
 * followed by count data words for consecutive methods.  The GPU fetches
 * from GET up to PUT; at the end of the ring the CPU writes a jump back to
 * the start and moves PUT there.  A copy is:
 *
 *	DMA_NOTIFY	notifier object for this copy
 *	OFFSET_IN ...	8 words of NV_MEMORY_TO_MEMORY_FORMAT parameters;
 *			writing the last one (BUFFER_NOTIFY) starts the copy
 *			(lines of at most 4 KiB: a longer copy is two such
 *			operations when 4 KiB does not divide it)
 *	NOTIFY 0	ask for a notify ...
 *	NOP 0		... which is written once the copy is done
 *
 * A fence after a reset is the DMA_NOTIFY, NOTIFY and NOP of a copy
 * without the copy: written once everything queued before it is done.
 *
 * Each copy names its own notifier, so several copies can be in flight,
 * each completing on its own report block.  A batch's copies but its last
 * are the OFFSET_IN part alone: the last one's notify covers them all.
 *
 * Locking: callers hold the engine's fifo_lock.
 */
#include <linux/build_bug.h>

#include "internal.h"

/*
 * Words a copy takes at most: 5 headers plus 1 + 8 + 8 + 1 + 1 data words
 * (two M2MF operations when it is longer than a line and not lines only).
 */
#define PS3VRAM_RING_COPY_WORDS		24

/*
 * The longest line the RSX is known to copy: ps3vram's DMA_PAGE_SIZE.  A
 * longer copy (a 64 KiB page with CONFIG_PPC_64K_PAGES) is made of lines
 * of this size, as ps3vram's are, and a shorter line for the rest; one
 * longer line has not been tried on a PS3.
 */
#define PS3VRAM_RING_MAX_LINE		4096

void ps3vram_ring_init(struct ps3vram_ring *ring, u32 *base, u32 bytes)
{
	ring->base = base;
	ring->words = bytes / sizeof(u32);
	ring->pos = 0;
}

/* The value for the PUT register, as an offset into the FIFO in bytes. */
u32 ps3vram_ring_put(const struct ps3vram_ring *ring)
{
	return ring->pos * sizeof(u32);
}

static void ps3vram_ring_out(struct ps3vram_ring *ring, u32 word)
{
	ring->base[ring->pos++] = word;
}

static void ps3vram_ring_begin(struct ps3vram_ring *ring, u32 subch,
			       u32 method, u32 count)
{
	ps3vram_ring_out(ring, (count << PS3VRAM_RING_COUNT_SHIFT) |
			 (subch << PS3VRAM_RING_SUBCH_SHIFT) | method);
}

/*
 * True when the next copy might not fit before the end of the ring.  The
 * caller then waits for the GPU to go idle and rewinds.
 */
bool ps3vram_ring_needs_rewind(const struct ps3vram_ring *ring)
{
	return (ring->words - ring->pos) * sizeof(u32) < PS3VRAM_FIFO_SLACK;
}

/*
 * Jump back to the start of the FIFO.  The caller kicks with the new PUT
 * (0) afterwards; the GPU must have fetched everything before the jump.
 */
void ps3vram_ring_rewind(struct ps3vram_ring *ring)
{
	ps3vram_ring_out(ring, PS3VRAM_RING_JUMP | PS3VRAM_XDR_IOIF);
	ring->pos = 0;
}

static void ps3vram_ring_bind_one(struct ps3vram_ring *ring, u32 subch,
				  u32 object, u32 in, u32 out)
{
	ps3vram_ring_begin(ring, subch, PS3VRAM_M_SET_OBJECT, 1);
	ps3vram_ring_out(ring, object);
	ps3vram_ring_begin(ring, subch, PS3VRAM_M_DMA_NOTIFY, 3);
	/* Notifier 7, as ps3vram binds; every copy names its own anyway. */
	ps3vram_ring_out(ring, PS3VRAM_NOTIFIER_HANDLE_BASE +
			 PS3VRAM_NR_NOTIFIERS - 1);
	ps3vram_ring_out(ring, in);
	ps3vram_ring_out(ring, out);
}

/* Bind the upload and download objects to their subchannels. */
void ps3vram_ring_bind(struct ps3vram_ring *ring)
{
	ps3vram_ring_bind_one(ring, PS3VRAM_SUBCH_UPLOAD, PS3VRAM_OBJ_UPLOAD,
			      PS3VRAM_DMA_OBJ_XDR, PS3VRAM_DMA_OBJ_VRAM);
	ps3vram_ring_bind_one(ring, PS3VRAM_SUBCH_DOWNLOAD,
			      PS3VRAM_OBJ_DOWNLOAD, PS3VRAM_DMA_OBJ_VRAM,
			      PS3VRAM_DMA_OBJ_XDR);
}

/**
 * ps3vram_ring_notify() - queue a notify with no copy: a fence
 * @ring: the FIFO
 * @notifier: notifier index, written once everything before it is done
 *
 * The caller has reset the notifier; 3 headers and 3 data words, which
 * fit wherever a copy fits.
 */
void ps3vram_ring_notify(struct ps3vram_ring *ring, unsigned int notifier)
{
	ps3vram_ring_begin(ring, PS3VRAM_SUBCH_UPLOAD, PS3VRAM_M_DMA_NOTIFY, 1);
	ps3vram_ring_out(ring, PS3VRAM_NOTIFIER_HANDLE_BASE + notifier);
	ps3vram_ring_begin(ring, PS3VRAM_SUBCH_UPLOAD, PS3VRAM_M_NOTIFY, 1);
	ps3vram_ring_out(ring, 0);
	ps3vram_ring_begin(ring, PS3VRAM_SUBCH_UPLOAD, PS3VRAM_M_NOP, 1);
	ps3vram_ring_out(ring, 0);
}

/* One NV_MEMORY_TO_MEMORY_FORMAT operation: @count lines of @line bytes. */
static void ps3vram_ring_m2mf(struct ps3vram_ring *ring, u32 subch, u32 in,
			      u32 out, u32 line, u32 count)
{
	ps3vram_ring_begin(ring, subch, PS3VRAM_M_OFFSET_IN, 8);
	ps3vram_ring_out(ring, in);				/* OFFSET_IN */
	ps3vram_ring_out(ring, out);				/* OFFSET_OUT */
	ps3vram_ring_out(ring, line);				/* PITCH_IN */
	ps3vram_ring_out(ring, line);				/* PITCH_OUT */
	ps3vram_ring_out(ring, line);			/* LINE_LENGTH_IN */
	ps3vram_ring_out(ring, count);				/* LINE_COUNT */
	ps3vram_ring_out(ring, PS3VRAM_M2MF_FORMAT_1_1);	/* FORMAT */
	ps3vram_ring_out(ring, 0);			/* BUFFER_NOTIFY */
}

/**
 * ps3vram_ring_move() - queue one copy with no notify
 * @ring: the FIFO
 * @upload: true for XDR to VRAM, false for VRAM to XDR
 * @xdr_off: offset in the XDR buffer
 * @vram_off: offset in VRAM
 * @len: bytes to copy
 *
 * Up to PS3VRAM_RING_MAX_LINE bytes are one line; a longer copy is lines
 * of PS3VRAM_RING_MAX_LINE bytes and, unless @len is a multiple of that,
 * a second operation for the rest.  A batch's copies but its last are
 * moves: the GPU runs the FIFO in order, so the last copy's notify is
 * written once all of them are done.
 *
 * The caller has checked with ps3vram_ring_needs_rewind() that it fits.
 */
void ps3vram_ring_move(struct ps3vram_ring *ring, bool upload, u32 xdr_off,
		       u32 vram_off, u32 len)
{
	u32 subch = upload ? PS3VRAM_SUBCH_UPLOAD : PS3VRAM_SUBCH_DOWNLOAD;
	u32 xdr = PS3VRAM_XDR_IOIF + xdr_off;
	u32 in = upload ? xdr : vram_off, out = upload ? vram_off : xdr;
	u32 lines = len / PS3VRAM_RING_MAX_LINE;
	u32 rest = len % PS3VRAM_RING_MAX_LINE;

	if (len <= PS3VRAM_RING_MAX_LINE) {
		ps3vram_ring_m2mf(ring, subch, in, out, len, 1);
		return;
	}
	ps3vram_ring_m2mf(ring, subch, in, out, PS3VRAM_RING_MAX_LINE, lines);
	if (rest)
		ps3vram_ring_m2mf(ring, subch,
				  in + lines * PS3VRAM_RING_MAX_LINE,
				  out + lines * PS3VRAM_RING_MAX_LINE, rest, 1);
}

/**
 * ps3vram_ring_copy() - queue one copy and its completion notify
 * @ring: the FIFO
 * @upload: true for XDR to VRAM, false for VRAM to XDR
 * @xdr_off: offset in the XDR buffer
 * @vram_off: offset in VRAM
 * @len: bytes to copy
 * @notifier: notifier index to report completion on
 *
 * ps3vram_ring_move() between the DMA_NOTIFY that names @notifier and the
 * NOTIFY + NOP that ask for it.  The caller has reset the notifier, and
 * checked with ps3vram_ring_needs_rewind() that the copy fits.
 */
void ps3vram_ring_copy(struct ps3vram_ring *ring, bool upload, u32 xdr_off,
		       u32 vram_off, u32 len, unsigned int notifier)
{
	u32 subch = upload ? PS3VRAM_SUBCH_UPLOAD : PS3VRAM_SUBCH_DOWNLOAD;

	BUILD_BUG_ON(PS3VRAM_RING_COPY_WORDS * sizeof(u32) >=
		     PS3VRAM_FIFO_SLACK);

	ps3vram_ring_begin(ring, subch, PS3VRAM_M_DMA_NOTIFY, 1);
	ps3vram_ring_out(ring, PS3VRAM_NOTIFIER_HANDLE_BASE + notifier);
	ps3vram_ring_move(ring, upload, xdr_off, vram_off, len);
	ps3vram_ring_begin(ring, subch, PS3VRAM_M_NOTIFY, 1);
	ps3vram_ring_out(ring, 0);
	ps3vram_ring_begin(ring, subch, PS3VRAM_M_NOP, 1);
	ps3vram_ring_out(ring, 0);
}
