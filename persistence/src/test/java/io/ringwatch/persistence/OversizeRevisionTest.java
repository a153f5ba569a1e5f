package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.Map;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OversizeRevisionTest
{
    @TempDir
    Path dir;

    @Test
    void aRevisionOverTheCapIsRefusedBeforeAnyByteIsWrittenAndTheLogStaysUsable()
    {
        final TestRevisions revisions = new TestRevisions();
        final LogConfig config = LogConfig.builder(dir).blockSize(1 << 20).maxRevisionBytes(64 * 1024).build();
        final UnsafeBuffer key = TestRevisions.bytes("k");
        final UnsafeBuffer big = new UnsafeBuffer(new byte[20 * 1024]);
        try (RevisionLog log = RevisionLog.open(config))
        {
            revisions.write(log, 1);
            log.flush();
            final Map<String, String> before = RefusedOpenTest.sha256Tree(dir, true);
            log.beginRevision(2, 2);
            for (int i = 0; i < 3; i++)
            {
                log.appendChange(ChangeType.PUT, key, 0, 1, big, 0, big.capacity(), 2, 2, 1, null, 0, 0, 0, 0, 0);
            }
            assertThrows(IllegalArgumentException.class,
                () -> log.appendChange(ChangeType.PUT, key, 0, 1, big, 0, big.capacity(), 2, 2, 1, null, 0, 0, 0, 0, 0));
            assertEquals(1, log.lastRevision());
            assertEquals(before, RefusedOpenTest.sha256Tree(dir, true), "nothing of the refused revision reached the files");
            log.abortRevision();
            revisions.write(log, 2);
            revisions.write(log, 3);
            RevisionLogTest.readAll(log, 1, 3);
        }
        try (RevisionLog log = RevisionLog.open(config))
        {
            RevisionLogTest.readAll(log, 1, 3);
        }
    }
}
