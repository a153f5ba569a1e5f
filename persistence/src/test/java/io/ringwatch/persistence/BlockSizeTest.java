package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log maps its queue in {@link LogConfig#DEFAULT_BLOCK_SIZE} blocks by default (shorter unmaps
 * than Chronicle's 64 MiB), or larger ones where the per-revision cap needs them, so the default
 * never lowers the cap a configuration asks for.
 */
class BlockSizeTest
{
    @TempDir
    Path dir;

    @Test
    void theDefaultBlockKeepsTheDefaultRevisionCap()
    {
        final LogConfig config = LogConfig.builder(dir).build();

        assertEquals(LogConfig.DEFAULT_BLOCK_SIZE, config.blockSize());
        try (RevisionLog log = RevisionLog.open(config))
        {
            assertEquals(LogConfig.DEFAULT_MAX_REVISION_BYTES, log.maxRevisionBytes());
        }
    }

    @Test
    void aLargerRevisionCapGetsALargerDefaultBlock()
    {
        final LogConfig config = LogConfig.builder(dir).maxRevisionBytes(5 * 1024 * 1024).build();

        assertEquals(32L * 1024 * 1024, config.blockSize());
        try (RevisionLog log = RevisionLog.open(config))
        {
            assertEquals(5 * 1024 * 1024, log.maxRevisionBytes());
        }
    }

    @Test
    void aConfiguredBlockIsKept()
    {
        assertEquals(1L << 20, LogConfig.builder(dir).blockSize(1 << 20).build().blockSize());
    }
}
