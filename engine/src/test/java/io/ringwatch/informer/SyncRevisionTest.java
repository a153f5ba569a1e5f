package io.ringwatch.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;

import org.junit.jupiter.api.Test;

/**
 * The informer's sync revision is a promise (client-go's LastSyncResourceVersion, which a caller
 * waits for before it trusts the cache): once it reads R, the cache holds every change up to R. A
 * revision of many changes (a prefix delete of 2,000 keys) reaches the informer in many polls of
 * its batch size; the sync revision must not name it before its last change is applied.
 */
class SyncRevisionTest
{
    private static final KeyRange PODS = KeyRange.prefix("/pods/");

    /**
     * Found failing on main 2620e0c: the sync revision named the delete's revision after the first
     * batch of 16 deletes, while the cache still held 1,600 to 1,872 of the 2,000 keys (three runs).
     */
    @Test
    void theSyncRevisionNamesAMultiKeyRevisionOnlyOnceAllOfItIsInTheCache()
    {
        try (RingWatch engine = RingWatch.open();
             SharedInformer informer = SharedInformer.forRange(engine, PODS, InformerConfig.builder().pollBatchSize(16).build()))
        {
            final int keys = 2_000;
            for (int i = 0; i < keys; i++)
            {
                engine.put("/pods/" + i, "v");
            }
            informer.start();
            assertTrue(Await.until(() -> informer.hasSynced() && informer.lister().size() == keys));
            final long deleted = engine.delete(PODS).revision();
            final List<String> seen = new ArrayList<>();
            assertTrue(Await.until(() ->
            {
                if (informer.lastSyncRevision() < deleted)
                {
                    return false;
                }
                seen.add("sync revision " + informer.lastSyncRevision() + " with " + informer.lister().size() + " keys cached");
                return true;
            }));
            assertEquals(List.of("sync revision " + deleted + " with 0 keys cached"), seen);

            // And it still advances to a single-key write's revision promptly, with no periodic progress.
            final long put = engine.put("/pods/x", "1").revision();
            assertTrue(Await.until(() -> informer.lastSyncRevision() >= put));
            assertEquals(1, informer.lister().size());
        }
    }
}
