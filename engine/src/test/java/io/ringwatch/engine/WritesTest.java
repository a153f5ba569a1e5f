package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.direct.DirectWriter;
import io.ringwatch.engine.direct.WriteCallback;
import io.ringwatch.engine.kv.Compare;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.kv.TxnResult;
import io.ringwatch.engine.kv.WriteResult;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WritesTest
{
    private final RingWatch engine = RingWatch.open();

    @AfterEach
    void close()
    {
        engine.close();
    }

    @Test
    void everyChangeGetsTheNextRevisionAndEtcdKeyMetadata()
    {
        assertEquals(0, engine.currentRevision());
        assertEquals(1, engine.put("a", "1").revision());
        assertEquals(2, engine.put("b", "1").revision());
        assertEquals(3, engine.put("a", "2").revision());

        final KeyValue a = engine.get("a").orElseThrow();
        assertEquals("2", a.valueAsString());
        assertEquals(1, a.createRevision());
        assertEquals(3, a.modRevision());
        assertEquals(2, a.version());
        assertEquals(3, engine.currentRevision());
    }

    @Test
    void deletingAMissingKeyChangesNothing()
    {
        engine.put("a", "1");
        final WriteResult result = engine.delete(Keys.utf8("missing"));
        assertEquals(0, result.deleted());
        assertEquals(1, result.revision());
        assertEquals(1, engine.currentRevision());
    }

    @Test
    void aRecreatedKeyStartsANewLifeAtVersionOne()
    {
        engine.put("a", "1");
        engine.put("a", "2");
        engine.delete(Keys.utf8("a"));
        engine.put("a", "3");
        final KeyValue a = engine.get("a").orElseThrow();
        assertEquals(4, a.createRevision());
        assertEquals(1, a.version());
    }

    @Test
    void aRangeDeleteRemovesEveryKeyUnderOneRevision()
    {
        engine.put("/p/1", "x");
        engine.put("/p/2", "x");
        engine.put("/q/1", "x");
        final WriteResult result = engine.write(Op.delete(KeyRange.prefix("/p/")).withPrevKv());
        assertEquals(2, result.deleted());
        assertEquals(4, result.revision());
        assertEquals(2, result.prevKvs().size());
        assertEquals("/p/1", result.prevKvs().get(0).keyAsString());
        assertTrue(engine.get("/q/1").isPresent());
        assertFalse(engine.get("/p/1").isPresent());

        final WriteResult half = engine.delete(KeyRange.range("/a", "/q/2"));
        assertEquals(1, half.deleted());
        assertEquals(0, engine.size());
    }

    @Test
    void putWithPrevKvReturnsWhatItReplaced()
    {
        engine.put("k", "old");
        final WriteResult result = engine.write(Op.put("k", "new").withPrevKv());
        assertEquals("old", result.prevKv().valueAsString());
        assertNull(engine.put("fresh", "v").prevKv());
    }

    @Test
    void compareAndPutAppliesOnlyOnTheExpectedModRevision()
    {
        final byte[] key = Keys.utf8("obj");
        assertTrue(engine.compareAndPut(key, Keys.utf8("v1"), 0).succeeded(), "0 means only if absent");
        assertFalse(engine.compareAndPut(key, Keys.utf8("v1b"), 0).succeeded());
        final long mod = engine.get(key).orElseThrow().modRevision();

        final WriteResult stale = engine.compareAndPut(key, Keys.utf8("v2"), mod - 1 + 5);
        assertFalse(stale.succeeded());
        assertEquals(mod, stale.revision(), "a failed compare changes no revision");

        assertTrue(engine.compareAndPut(key, Keys.utf8("v2"), mod).succeeded());
        assertEquals("v2", engine.get(key).orElseThrow().valueAsString());
    }

    @Test
    void aTransactionAppliesItsBranchAtomicallyUnderOneRevision()
    {
        engine.put("lock", "free");
        final TxnResult taken = engine.txn(Txn.of(
            List.of(Compare.value(Keys.utf8("lock"), Compare.Result.EQUAL, Keys.utf8("free"))),
            List.of(Op.put("lock", "held").withPrevKv(), Op.put("owner", "me"), Op.delete("absent")),
            List.of(Op.put("failed", "yes"))));
        assertTrue(taken.succeeded());
        assertEquals(2, taken.revision());
        assertEquals(3, taken.results().size());
        assertEquals("free", taken.results().get(0).prevKv().valueAsString());
        assertEquals(2, engine.get("owner").orElseThrow().modRevision());
        assertEquals(2, engine.get("lock").orElseThrow().modRevision());

        final TxnResult other = engine.txn(Txn.of(
            List.of(Compare.value(Keys.utf8("lock"), Compare.Result.EQUAL, Keys.utf8("free"))),
            List.of(Op.put("owner", "you")),
            List.of(Op.put("failed", "yes"))));
        assertFalse(other.succeeded());
        assertEquals(3, other.revision());
        assertEquals("me", engine.get("owner").orElseThrow().valueAsString());
        assertTrue(engine.get("failed").isPresent());
    }

    @Test
    void aTransactionThatChangesNothingKeepsTheRevision()
    {
        engine.put("a", "1");
        final TxnResult result = engine.txn(Txn.of(List.of(), List.of(Op.delete("missing")), List.of()));
        assertTrue(result.succeeded());
        assertEquals(1, result.revision());
        assertEquals(1, engine.currentRevision());
    }

    @Test
    void numericComparesTreatAMissingKeyAsZero()
    {
        final TxnResult result = engine.txn(Txn.of(
            List.of(Compare.number(Keys.utf8("x"), Compare.Target.VERSION, Compare.Result.EQUAL, 0),
                Compare.number(Keys.utf8("x"), Compare.Target.CREATE, Compare.Result.LESS, 1)),
            List.of(Op.put("x", "created")), List.of()));
        assertTrue(result.succeeded());
        final TxnResult second = engine.txn(Txn.of(
            List.of(Compare.number(Keys.utf8("x"), Compare.Target.VERSION, Compare.Result.GREATER, 0)),
            List.of(Op.put("x", "updated")), List.of()));
        assertTrue(second.succeeded());
        assertEquals(2, engine.get("x").orElseThrow().version());
    }

    @Test
    void asyncWritesCompleteTheirFuturesInRevisionOrder() throws Exception
    {
        final CompletableFuture<WriteResult> first = engine.writeAsync(Op.put("a", "1"));
        final CompletableFuture<WriteResult> second = engine.writeAsync(Op.put("a", "2"));
        assertEquals(1, first.get(10, TimeUnit.SECONDS).revision());
        assertEquals(2, second.get(10, TimeUnit.SECONDS).revision());
    }

    @Test
    void theDirectWriterWritesFromBufferSlices() throws Exception
    {
        final DirectWriter writer = engine.newDirectWriter();
        final UnsafeBuffer buffer = new UnsafeBuffer(Keys.utf8("xxkeyyyvaluezz"));
        assertEquals(1, writer.put(buffer, 2, 3, buffer, 7, 5));
        assertEquals("value", engine.get("key").orElseThrow().valueAsString());

        assertEquals(DirectWriter.NOT_APPLIED, writer.putIfModRevision(buffer, 2, 3, buffer, 0, 2, 7));
        assertEquals(2, writer.putIfModRevision(buffer, 2, 3, buffer, 0, 2, 1));
        assertEquals(1, writer.delete(buffer, 2, 3));
        assertEquals(0, writer.delete(buffer, 2, 3));
        assertEquals(3, writer.lastRevision());

        final AtomicLong revision = new AtomicLong();
        final AtomicReference<Thread> callbackThread = new AtomicReference<>();
        final CompletableFuture<Void> done = new CompletableFuture<>();
        writer.putAsync(buffer, 2, 3, buffer, 7, 5, new WriteCallback()
        {
            @Override
            public void onWritten(final long rev, final boolean succeeded, final long deleted)
            {
                revision.set(rev);
                callbackThread.set(Thread.currentThread());
                done.complete(null);
            }

            @Override
            public void onFailed(final RingWatchException error)
            {
                done.completeExceptionally(error);
            }
        });
        done.get(10, TimeUnit.SECONDS);
        assertEquals(4, revision.get());
        assertEquals("ringwatch-writer", callbackThread.get().getName());
    }

    @Test
    void everyWriteIsAppliedAndVisibleWhenItsCallbackRunsEvenInTheMiddleOfALongBatch() throws Exception
    {
        // The writer publishes and completes in groups within a long batch: each callback must still
        // find its own revision applied (read-your-writes).
        final DirectWriter writer = engine.newDirectWriter();
        final UnsafeBuffer buffer = new UnsafeBuffer(Keys.utf8("kv"));
        final int writes = 20_000;
        final AtomicLong behind = new AtomicLong();
        final AtomicLong lastRevision = new AtomicLong();
        final CompletableFuture<Void> done = new CompletableFuture<>();
        final WriteCallback checking = new WriteCallback()
        {
            @Override
            public void onWritten(final long revision, final boolean succeeded, final long deleted)
            {
                if (engine.currentRevision() < revision)
                {
                    behind.incrementAndGet();
                }
                if (revision != lastRevision.get() + 1)
                {
                    done.completeExceptionally(new AssertionError("revision " + revision + " after " + lastRevision.get()));
                }
                lastRevision.set(revision);
                if (revision == writes)
                {
                    done.complete(null);
                }
            }

            @Override
            public void onFailed(final RingWatchException error)
            {
                done.completeExceptionally(error);
            }
        };
        for (int i = 0; i < writes; i++)
        {
            writer.putAsync(buffer, 0, 1, buffer, 1, 1, checking);
        }
        done.get(60, TimeUnit.SECONDS);
        assertEquals(0, behind.get(), "callbacks that ran before their revision was applied");
    }

    @Test
    // A blocking write told through another write's callback would wait for ever: fail instead.
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aReusedRingSlotTellsOnlyItsOwnWriter() throws Exception
    {
        // Two slots: every write below reuses a slot that a write of another kind, told another way, held.
        try (RingWatch small = RingWatch.open(RingWatchConfig.builder().writeRingSize(2).build()))
        {
            final DirectWriter writer = small.newDirectWriter();
            final UnsafeBuffer buffer = new UnsafeBuffer(Keys.utf8("kv"));
            final AtomicLong written = new AtomicLong();
            final AtomicLong lastRevision = new AtomicLong();
            final WriteCallback counting = new WriteCallback()
            {
                @Override
                public void onWritten(final long revision, final boolean succeeded, final long deleted)
                {
                    lastRevision.set(revision);
                    written.incrementAndGet();
                }

                @Override
                public void onFailed(final RingWatchException error)
                {
                    written.incrementAndGet();
                }
            };
            long revision = 0;
            for (int round = 0; round < 20; round++)
            {
                writer.putAsync(buffer, 0, 1, buffer, 1, 1, counting);
                writer.putAsync(buffer, 0, 1, buffer, 1, 1, counting);
                revision += 2;
                assertEquals(++revision, writer.put(buffer, 0, 1, buffer, 1, 1));
                assertEquals(++revision, small.put("k", "v" + round).revision());
                assertEquals(++revision, small.txn(Txn.of(List.of(), List.of(Op.put("t", "x")), List.of())).revision());
                assertEquals(1, writer.delete(buffer, 0, 1));
                assertEquals(++revision, writer.lastRevision());
                assertEquals(++revision, small.writeAsync(Op.delete("t")).get(10, TimeUnit.SECONDS).revision());
            }
            // Each blocking write above waited for every async put before it: all 40 are counted, none twice.
            assertEquals(40, written.get());
            assertEquals(revision, small.currentRevision());
            assertTrue(lastRevision.get() > 0);
        }
    }
}
