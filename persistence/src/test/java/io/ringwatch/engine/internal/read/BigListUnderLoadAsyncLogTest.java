package io.ringwatch.engine.internal.read;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/**
 * Issue 17's big LIST under a flat-out writer ({@link BigListUnderLoadTest}) over an ASYNC revision
 * log: the reads pin and the writer keeps pre-images as in memory, while the journal stage appends
 * behind it, so every read must still succeed and be exact at its revision.
 */
class BigListUnderLoadAsyncLogTest extends BigListUnderLoadTest
{
    @TempDir
    Path dir;

    @Override
    RingWatchConfig.Builder configure(final RingWatchConfig.Builder builder)
    {
        return builder.persistence(LogConfig.builder(dir).durability(LogConfig.Durability.ASYNC).build());
    }
}
