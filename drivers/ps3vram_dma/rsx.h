/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ps3vram_dma: the RSX protocol, as drivers/block/ps3vram.c speaks it, and
 * the CPU side of the command FIFO (ring.c).  The engine core writes
 * these commands, the PS3 RSX executes them, and the software RSX of
 * emu_fifo.c decodes them.
 */
#ifndef _PS3VRAM_DMA_RSX_H
#define _PS3VRAM_DMA_RSX_H

#include <linux/types.h>

/*
 * RSX protocol constants, as drivers/block/ps3vram.c uses them.
 *
 * The FIFO lives at the start of the XDR buffer, which the hypervisor maps
 * into the GPU's I/O space at PS3VRAM_XDR_IOIF; FIFO addresses (jumps, the
 * PUT and GET registers) and XDR-side copy offsets are in that space.
 */
#define PS3VRAM_XDR_IOIF		0x0c000000
#define PS3VRAM_FIFO_SIZE		(64 * 1024)
/* Rewind when less than this is left, as ps3vram does. */
#define PS3VRAM_FIFO_SLACK		1024

/* Command header: (count << 18) | (subchannel << 13) | method. */
#define PS3VRAM_RING_COUNT_SHIFT	18
#define PS3VRAM_RING_COUNT_MASK		0x7ff
#define PS3VRAM_RING_SUBCH_SHIFT	13
#define PS3VRAM_RING_SUBCH_MASK		0x7
#define PS3VRAM_RING_METHOD_MASK	0x1ffc
/* Jump: 0x20000000 | FIFO address (old-style NV jump command). */
#define PS3VRAM_RING_JUMP		0x20000000
#define PS3VRAM_RING_JUMP_MASK		0xe0000003

/* Subchannels: one memory-to-memory object for each direction. */
#define PS3VRAM_SUBCH_UPLOAD		1
#define PS3VRAM_SUBCH_DOWNLOAD		2
/* Object handles the hypervisor created in our GPU context. */
#define PS3VRAM_OBJ_UPLOAD		0x31337303
#define PS3VRAM_OBJ_DOWNLOAD		0x3137c0de
/* DMA objects: XDR (system RAM) and VRAM instances. */
#define PS3VRAM_DMA_OBJ_XDR		0xfeed0001
#define PS3VRAM_DMA_OBJ_VRAM		0xfeed0000

/* Methods (NV_MEMORY_TO_MEMORY_FORMAT, class 0x39, see cl0039.h). */
#define PS3VRAM_M_SET_OBJECT		0x0000
#define PS3VRAM_M_NOP			0x0100
#define PS3VRAM_M_NOTIFY		0x0104
#define PS3VRAM_M_DMA_NOTIFY		0x0180
#define PS3VRAM_M_DMA_BUFFER_IN		0x0184
#define PS3VRAM_M_DMA_BUFFER_OUT	0x0188
#define PS3VRAM_M_OFFSET_IN		0x030c
#define PS3VRAM_M_OFFSET_OUT		0x0310
#define PS3VRAM_M_PITCH_IN		0x0314
#define PS3VRAM_M_PITCH_OUT		0x0318
#define PS3VRAM_M_LINE_LENGTH_IN	0x031c
#define PS3VRAM_M_LINE_COUNT		0x0320
#define PS3VRAM_M_FORMAT		0x0324
#define PS3VRAM_M_BUFFER_NOTIFY		0x0328
/* FORMAT: input and output increment of one byte per element. */
#define PS3VRAM_M2MF_FORMAT_1_1		((1 << 8) | 1)

/*
 * Notifiers: 0x40-byte report blocks at reports + 0x1000 + 0x40 * n, named
 * by DMA object 0x66604200 + n.  The engine resets the four words to
 * 0xffffffff, asks for a notify, and the GPU writes word 3 to 0 when every
 * command before it is done.  ps3vram uses notifier 7 only; using 0-7 to
 * keep several copies in flight has not been tried on hardware.
 */
#define PS3VRAM_NOTIFIER_HANDLE_BASE	0x66604200
#define PS3VRAM_NOTIFIER_OFFSET_BASE	0x1000
#define PS3VRAM_NOTIFIER_SIZE		0x40
#define PS3VRAM_NR_NOTIFIERS		8
#define PS3VRAM_NOTIFIER_IDLE		0xffffffff

/**
 * struct ps3vram_ring - the CPU side of the RSX command FIFO
 * @base: first word of the FIFO, in the XDR buffer
 * @words: size of the FIFO in 32-bit words
 * @pos: next word to write
 *
 * Protected by the engine's fifo_lock.
 */
struct ps3vram_ring {
	u32 *base;
	u32 words;
	u32 pos;
};

void ps3vram_ring_init(struct ps3vram_ring *ring, u32 *base, u32 bytes);
u32 ps3vram_ring_put(const struct ps3vram_ring *ring);
bool ps3vram_ring_needs_rewind(const struct ps3vram_ring *ring);
void ps3vram_ring_rewind(struct ps3vram_ring *ring);
void ps3vram_ring_bind(struct ps3vram_ring *ring);
void ps3vram_ring_notify(struct ps3vram_ring *ring, unsigned int notifier);
void ps3vram_ring_move(struct ps3vram_ring *ring, bool upload, u32 xdr_off,
		       u32 vram_off, u32 len);
void ps3vram_ring_copy(struct ps3vram_ring *ring, bool upload, u32 xdr_off,
		       u32 vram_off, u32 len, unsigned int notifier);

/* Decoding helpers shared with the software RSX. */
static inline u32 ps3vram_ring_count(u32 word)
{
	return (word >> PS3VRAM_RING_COUNT_SHIFT) & PS3VRAM_RING_COUNT_MASK;
}

static inline u32 ps3vram_ring_subch(u32 word)
{
	return (word >> PS3VRAM_RING_SUBCH_SHIFT) & PS3VRAM_RING_SUBCH_MASK;
}

static inline u32 ps3vram_ring_method(u32 word)
{
	return word & PS3VRAM_RING_METHOD_MASK;
}

static inline bool ps3vram_ring_is_jump(u32 word)
{
	return (word & PS3VRAM_RING_JUMP_MASK) == PS3VRAM_RING_JUMP;
}

#endif /* _PS3VRAM_DMA_RSX_H */
