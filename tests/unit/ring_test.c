// SPDX-License-Identifier: GPL-2.0
#include "dma_fixture.h"

UNIT_TEST(ring_test_smoke)
{
	dma_env_start(8);
	EXPECT_EQ(env.dma->nr_slots, DMA_NR_SLOTS);
}
