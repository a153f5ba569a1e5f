package io.ringwatch.informer;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.WriteResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A blocked or throwing handler delays nobody; a blocked one receives the latest state, coalesced,
 * once it moves again.
 */
class HandlerIsolationTest
{
    private static final KeyRange KEYS = KeyRange.prefix("/k/");
    private static final int CAPACITY = 8;

    private final RingWatch engine = RingWatch.open();
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private final SharedInformer informer = SharedInformer.forRange(engine, KEYS,
        InformerConfig.builder().handlerBufferCapacity(CAPACITY).errorHandler(errors::add).build());

    @AfterEach
    void close()
    {
        informer.stop();
        engine.close();
    }

    @Test
    void aBlockedHandlerDelaysNeitherTheInformerNorAnotherHandlerAndLaterGetsTheLatestState()
    {
        final RecordingHandler blocked = new RecordingHandler().closed();
        final RecordingHandler fast = new RecordingHandler();
        final HandlerRegistration blockedRegistration = informer.addEventHandler(blocked);
        informer.addEventHandler(fast);
        informer.start();

        WriteResult last = null;
        for (int i = 0; i < 500; i++)
        {
            last = engine.put("/k/" + (i % 5), "v" + i);
        }
        final long lastRevision = last.revision();
        final var expected = InformerTestState.engine(engine, KEYS);
        assertTrue(Await.until(() -> informer.lastSyncRevision() >= lastRevision && expected.equals(fast.state())),
            "the fast handler is current while the other is blocked");
        assertEquals(0, blocked.notifications());
        // Once if the handler took its first notification (and blocked in it) before the buffer
        // filled; twice if it took it after: the slot it freed let the coalesced key out, and the
        // next change filled the buffer again. Both keep the bound below.
        final long overflows = blockedRegistration.overflowCount();
        assertTrue(overflows == 1 || overflows == 2, "overflows: " + overflows);

        blocked.open();
        assertTrue(Await.until(() -> expected.equals(blocked.state())));
        assertEquals(List.of(), blocked.violations());
        assertTrue(blocked.notifications() <= 1 + CAPACITY + 5,
            "the blocked handler gets the call it was blocked in, a full buffer, and one coalesced update per key: " + blocked.log());
        assertEquals(List.of(), fast.violations());
        assertEquals(List.of(), errors);
    }

    @Test
    void aThrowingHandlerIsReportedAndKeepsReceivingWhileOthersAreUnaffected()
    {
        final List<String> seen = new CopyOnWriteArrayList<>();
        final RecordingHandler calm = new RecordingHandler();
        informer.addEventHandler(new ResourceEventHandler()
        {
            @Override
            public void onAdd(final CachedObject obj)
            {
                seen.add("add " + obj.key());
                throw new IllegalStateException("add failed");
            }

            @Override
            public void onUpdate(final CachedObject oldObj, final CachedObject newObj)
            {
                seen.add("update " + newObj.key());
                throw new IllegalStateException("update failed");
            }

            @Override
            public void onDelete(final CachedObject obj)
            {
                seen.add("delete " + obj.key());
                throw new IllegalStateException("delete failed");
            }
        });
        informer.addEventHandler(calm);
        informer.start();
        assertTrue(Await.until(informer::hasSynced));

        engine.put("/k/a", "1");
        engine.put("/k/a", "2");
        engine.delete(KeyRange.key("/k/a"));
        assertTrue(Await.until(() -> seen.size() == 3 && errors.size() == 3 && calm.notifications() == 3));

        assertEquals(List.of("add /k/a", "update /k/a", "delete /k/a"), seen);
        for (final Throwable error : errors)
        {
            final HandlerFailedException failure = (HandlerFailedException)error;
            assertEquals(ObjectKey.of("/k/a"), failure.key());
            assertTrue(failure.getCause() instanceof IllegalStateException);
        }
        assertEquals(List.of("add /k/a=1", "update /k/a=2", "delete /k/a"), calm.log());
    }

    @Test
    void aThrowingErrorHandlerDoesNotStopDelivery()
    {
        assertDeliveryGoesOnPast(e -> { throw new IllegalStateException("error handler broken"); });
    }

    /**
     * As above with an {@link Error} of the error handler's own (an assertion in a test's handler,
     * a StackOverflowError): found failing on main 693a712, where the reporter guarded against
     * {@link RuntimeException} only and the Error ended the handler's thread, so the handler heard
     * nothing more.
     */
    @Test
    void anErrorFromTheErrorHandlerDoesNotStopDelivery()
    {
        assertDeliveryGoesOnPast(e -> { throw new AssertionError("error handler broken"); });
    }

    private void assertDeliveryGoesOnPast(final InformerErrorHandler brokenErrorHandler)
    {
        final SharedInformer withBadErrorHandler = SharedInformer.forRange(engine, KEYS,
            InformerConfig.builder().errorHandler(brokenErrorHandler).build());
        final RecordingHandler recorder = new RecordingHandler().throwing(1);
        withBadErrorHandler.addEventHandler(recorder);
        withBadErrorHandler.start();
        try
        {
            for (int i = 0; i < 50; i++)
            {
                engine.put("/k/" + i, "v");
            }
            assertTrue(Await.until(() -> recorder.notifications() == 50));
            assertTrue(withBadErrorHandler.isRunning());
        }
        finally
        {
            withBadErrorHandler.stop();
        }
    }
}
